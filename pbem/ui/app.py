"""The web app of ``pbem ui`` (Starlette): the games, a game's page, and the page's calls.

Each handler is thin, like a command: read the request, call what the commands call, answer.
The moves go through ``play_moves`` (the checks, journal and signing of ``pbem play``), the
mail through the send flow of ``pbem send``, the file through ``export_head`` of ``pbem
export``. A passphrase comes in the body of the request that needs it (or from
``PBEM_PASSPHRASE``), opens the key for that request only, and is kept nowhere.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import parse_qs

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from pbem.crypto.keyring import PASSPHRASE_ENV, Keyring
from pbem.crypto.keys import Identity
from pbem.format.card import IdentityCard
from pbem.format.errors import PbemError, Rejected, UsageError
from pbem.format.i18n import localize
from pbem.ledger.awaiting import decides, needs_decision
from pbem.mail import config as mail_config
from pbem.mail import outbox
from pbem.mail.memory import Memory
from pbem.mail.outgoing import prepare
from pbem.play.playing import play_moves
from pbem.store.exports import Opened, export_head, newest_export
from pbem.store.head import Head
from pbem.store.sent import mark_sent
from pbem.store.store import Store
from pbem.ui.decide import Ask, decide
from pbem.ui.guard import Guard
from pbem.ui.pages import Page, error_page, game_page, games_page

SOURCE = "played in pbem ui"

Word = Annotated[str, Field(max_length=200)]
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Settings:
    """Whose games, and the door's token and port."""

    home: Path | None
    name: str
    token: str
    port: int
    root: str
    """Where the pages of this run live (``/s/RANDOM``: the guard's)."""
    let_in: Callable[[], None] | None = None
    """Called when the token comes in (the guard's)."""


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class DecideRequest(_Request):
    queue: list[Word] = Field(default_factory=list, max_length=20)
    verb: Word | None = None
    picks: list[Word] = Field(default_factory=list, max_length=40)
    typed: Word = ""


class PlayRequest(_Request):
    head: Word
    moves: list[Word] = Field(max_length=20)
    passphrase: str = Field("", max_length=1000)
    send: bool = False
    """Mail the new copy on at once ("Sign and send", the ``ui.sign_and_send`` setting)."""
    smtp_password: str = Field("", max_length=1000)


class SendRequest(_Request):
    passphrase: str = Field("", max_length=1000)
    smtp_password: str = Field("", max_length=1000)
    to: Literal["awaited", "all"] = "awaited"


class Ui:
    """The handlers, around one store and one identity of the keyring."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    # ----- what every handler needs ------------------------------------------------------------

    @contextlib.contextmanager
    def store(self) -> Iterator[Store]:
        """The store, for one request (a request runs in a thread of its own, and an
        SQLite connection stays in the thread that opened it)."""
        store = Store(self.settings.home)
        try:
            yield store
        finally:
            store.close()

    def card(self) -> IdentityCard:
        return Keyring(self.settings.home).card(self.settings.name)

    def unseal(self, passphrase: str) -> Identity:
        """The identity, for this request only: unsealed with ``passphrase`` (or
        ``PBEM_PASSPHRASE``) when it is sealed."""
        keyring = Keyring(self.settings.home)
        name = self.settings.name
        if not keyring.needs_passphrase(name):
            return keyring.load(name, None)
        phrase = os.environ.get(PASSPHRASE_ENV) or passphrase
        if not phrase:
            raise UsageError(f"the passphrase of {name} is needed")
        return keyring.load(name, phrase)

    def opens_freely(self) -> bool:
        """Whether the identity opens without asking (unsealed, or PBEM_PASSPHRASE)."""
        keyring = Keyring(self.settings.home)
        name = self.settings.name
        return not keyring.needs_passphrase(name) or PASSPHRASE_ENV in os.environ

    # ----- pages -------------------------------------------------------------------------------

    async def games(self, request: Request) -> Response:
        return await _page(self._games, self.settings)

    def _games(self) -> Page:
        with self.store() as store:
            return games_page(store, self.card(), self.settings.token, self.settings.root)

    async def game(self, request: Request) -> Response:
        """GET: the page, private when the key opens without a passphrase; POST: the
        page's form with the passphrase, to see what only the player knows."""
        passphrase = ""
        if request.method == "POST":
            form = parse_qs((await request.body()).decode("utf-8", "replace"))
            passphrase = (form.get("passphrase") or [""])[0]
        game = request.path_params["game"]
        return await _page(lambda: self._game(game, passphrase), self.settings)

    def _game(self, game: str, passphrase: str) -> Page:
        with self.store() as store:
            gid = store.resolve(game)
            free = self.opens_freely()
            reader = self.unseal(passphrase) if passphrase or free else None
            s = self.settings
            return game_page(
                store, gid, self.card(), reader, s.token, s.root, not free, self.sending()
            )

    def sending(self) -> dict[str, bool]:
        """What the page offers to mail: whether mail is set up (``smtp.host``), whether
        signing sends at once (``ui.sign_and_send``), whether it must ask the SMTP password."""
        config = mail_config.load(self.settings.home)
        mail = bool(config.smtp.host)
        return {
            "mail": mail,
            "sign_and_send": mail and config.ui.sign_and_send,
            "smtp_asks": mail and mail_config.asks_password(config.smtp, "smtp"),
        }

    # ----- the page's calls ----------------------------------------------------------------------

    async def decide(self, request: Request) -> Response:
        ask = await _body(request, DecideRequest)
        game = request.path_params["game"]
        return await _call(lambda: self._decide(game, ask))

    def _decide(self, game: str, ask: DecideRequest) -> dict[str, Any]:
        with self.store() as store:
            pos = store.head(store.resolve(game)).position
            seat = _seat(pos.cards, self.card())
            answer = decide(pos, seat, Ask(ask.queue, ask.verb, ask.picks, ask.typed))
            return answer.to_json()

    async def play(self, request: Request) -> Response:
        asked = await _body(request, PlayRequest)
        game = request.path_params["game"]
        return await _call(lambda: self._play(game, asked))

    def _play(self, game: str, asked: PlayRequest) -> dict[str, Any]:
        with self.store() as store:
            gid = store.resolve(game)
            head = store.head(gid)
            if head.digest != asked.head:
                raise Rejected("the game moved on since this page was drawn: reload it")
            me = self.unseal(asked.passphrase)
            moves = [m.strip() for m in asked.moves]
            played = play_moves(store, gid, me, moves, SOURCE, read=head)
            after = self._after(played.head, played.done, played.left, played.made)
            if asked.send:
                after.update(self._send_signed(store, gid, me, asked.smtp_password))
            return after

    def _send_signed(
        self, store: Store, game: str, me: Identity, smtp_password: str
    ) -> dict[str, Any]:
        """ "Sign and send": the new copy mailed at once to the seats awaited. What is
        signed stays signed if the mail fails: the page then says why, and offers Send by
        mail again."""
        request = SendRequest(smtp_password=smtp_password)
        try:
            sent = self._mail(store, game, lambda: me, request)
        except PbemError as exc:
            return {"send_error": " ".join(str(exc).split())}
        return {"sent": sent}

    def _after(self, head: Head, done: list[str], left: list[str], made: int) -> dict[str, Any]:
        """What the page says after signing: what was played, who is awaited now."""
        pos = head.position
        seat = _seat(pos.cards, self.card())
        others = [pos.cards[s].name for s in pos.remaining() if s != seat]
        return {
            "played": done,
            "left": left,
            "automatic": made,
            "step": pos.count,
            "awaiting": others,
            "yours": decides(pos, seat),
            "owes": seat in pos.remaining() and not needs_decision(pos),
            "over": pos.result is not None,
        }

    async def automatic(self, request: Request) -> Response:
        """The automatic steps the player owes (a beacon, a reveal, shares), as ``pbem
        play`` without a move makes them."""
        asked = await _body(request, PlayRequest)
        game = request.path_params["game"]
        return await _call(lambda: self._play(game, asked.model_copy(update={"moves": []})))

    async def export(self, request: Request) -> Response:
        await _body(request, _Request)
        game = request.path_params["game"]
        return await _call(lambda: self._export(game))

    def _export(self, game: str) -> dict[str, Any]:
        """The head as the game's working file, as ``pbem export`` writes it: over the
        newest export (else ``RULESET-ID.json`` in the current folder) when the store holds
        all of it, else as a new file beside it, named by step (always so with the setting
        ``files numbered``)."""
        numbered = mail_config.load(self.settings.home).files == "numbered"
        with self.store() as store:
            gid = store.resolve(game)
            newest = newest_export(store, gid)
            opened = Opened(store.head(gid), Path(newest) if newest else None, None)
            written = export_head(store, opened, numbered=numbered)
            return {"file": str(written.path), "kept": written.kept}

    async def send(self, request: Request) -> Response:
        asked = await _body(request, SendRequest)
        game = request.path_params["game"]
        return await _call(lambda: self._send(game, asked))

    def _send(self, game: str, asked: SendRequest) -> dict[str, Any]:
        """``pbem send``: the owed automatic steps, then the mail to the seats awaited."""
        with self.store() as store:
            gid = store.resolve(game)
            sent = self._mail(store, gid, lambda: self.unseal(asked.passphrase), asked)
            if sent is None:
                raise UsageError(
                    f"nobody else is awaited: the decision is yours (pbem moves {gid})"
                )
            return sent

    def _mail(
        self, store: Store, game: str, signer: Callable[[], Identity], asked: SendRequest
    ) -> dict[str, Any] | None:
        """The send flow of ``pbem send`` (``pbem.mail.outgoing``), remembered in the store
        as sent (``pbem.store.sent``); None when nobody else is awaited."""
        smtp = mail_config.load(self.settings.home).smtp
        me = self.card()
        out = prepare(store, game, me, signer, smtp, asked.to, called=game)
        if out.message is None:
            return None
        given = asked.smtp_password
        password = mail_config.password(smtp, "smtp", (lambda _: given) if given else None)
        done = outbox.post_all(Memory(store), smtp, password, out.messages)
        # As pbem send: the queued mail carries what was signed here (now or later).
        store.carried(game, f"the mail {out.message['Message-ID']}")
        # A message that waits says so here; one for each language the recipients read.
        sent = [to for each in out.messages for to in done.recipients(each)]
        mark_sent(store, game, me)
        return {"sent_to": sent, "subject": out.message["Subject"], "automatic": out.made}


def _seat(seats: list[IdentityCard], me: IdentityCard) -> int:
    keys = [c.sign_key for c in seats]
    if me.sign_key not in keys:
        raise UsageError(f"{me.name} holds no seat in this game")
    return keys.index(me.sign_key)


class BadRequest(Exception):
    pass


async def _body(request: Request, model: type[M]) -> M:
    try:
        data = await request.json()
        return model.model_validate(data)
    except ValidationError as exc:  # never the input itself: it may hold a passphrase
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the request"
        raise BadRequest(f"{where}: {first['msg']}") from None
    except ValueError:
        raise BadRequest("the request is not JSON") from None


async def _call(work: Callable[[], dict[str, Any]]) -> Response:
    """Run ``work`` off the event loop; a refusal is one line for the page to show."""
    try:
        return JSONResponse(await run_in_threadpool(work))
    except PbemError as exc:
        status = 409 if isinstance(exc, Rejected) else 400
        return JSONResponse({"error": localize(" ".join(str(exc).split()))}, status_code=status)


async def _page(make: Callable[[], Page], settings: Settings) -> Response:
    try:
        page = await run_in_threadpool(make)
        status = 200
    except PbemError as exc:
        page, status = error_page(" ".join(str(exc).split()), settings.token, settings.root), 400
    return HTMLResponse(
        page.html, status_code=status, headers={"content-security-policy": page.policy}
    )


async def _bad_request(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": str(exc)}, status_code=400)


def build(settings: Settings) -> Guard:
    """The app behind its guard."""
    ui = Ui(settings)
    routes = [
        Route("/", ui.games),
        Route("/game/{game}", ui.game, methods=["GET", "POST"]),
        Route("/api/game/{game}/decide", ui.decide, methods=["POST"]),
        Route("/api/game/{game}/play", ui.play, methods=["POST"]),
        Route("/api/game/{game}/automatic", ui.automatic, methods=["POST"]),
        Route("/api/game/{game}/export", ui.export, methods=["POST"]),
        Route("/api/game/{game}/send", ui.send, methods=["POST"]),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        BadRequest: _bad_request
    }
    app = Starlette(routes=routes, exception_handlers=handlers)
    return Guard(app, settings.token, settings.port, settings.root, settings.let_in)
