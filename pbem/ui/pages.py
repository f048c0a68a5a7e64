"""The pages of ``pbem ui``: the games of the store, and a game's page, which is the page
``pbem show`` makes (board, private knowledge, history to step through) with the decision
panel and its script added (``templates/ui/``).

Every page is self-contained, like ``pbem show``'s: its styles and scripts are inline, and
its Content-Security-Policy allows exactly those, by their SHA-256 hashes, and nothing
else: no other script, no style attribute, no image, font or frame from anywhere, requests
only to this address (the page's own calls).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from pbem.crypto.keys import Identity
from pbem.format.card import IdentityCard
from pbem.format.resources import resource_dir
from pbem.ledger.awaiting import decides, describe_awaiting, owes_automatic, seat_of_card
from pbem.ledger.deadlines import due, waiting
from pbem.ledger.position import Position
from pbem.play.author import private_knowledge
from pbem.play.signer import utc_now
from pbem.store.chain import short_id
from pbem.store.exports import newest_export
from pbem.store.sent import unsent
from pbem.store.store import Store
from pbem.ui.pickers import labels_for
from pbem.view.history import walk
from pbem.view.render import page_context, translating
from pbem.view.seats import seats_of

_SCRIPT = re.compile(r"<script(?![^>]*\btype=)[^>]*>(.*?)</script>", re.S)
_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S)


@cache
def _templates() -> jinja2.Environment:
    root = resource_dir("templates")
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(
            [jinja2.FileSystemLoader(root / "ui"), jinja2.FileSystemLoader(root / "view")]
        ),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return translating(env)


@dataclass(frozen=True)
class Page:
    """A page and the Content-Security-Policy that lets exactly it run."""

    html: str
    policy: str


def policy(*documents: str) -> str:
    """A policy allowing the inline scripts and style blocks of ``documents`` (a page and
    the frames its script may show) and nothing else."""
    scripts = sorted({_sha256(s) for d in documents for s in _SCRIPT.findall(d)})
    styles = sorted({_sha256(s) for d in documents for s in _STYLE.findall(d)})
    return "; ".join(
        [
            "default-src 'none'",
            "script-src " + (" ".join(scripts) or "'none'"),
            "style-src " + (" ".join(styles) or "'none'"),
            "img-src data:",
            "connect-src 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
        ]
    )


def _sha256(text: str) -> str:
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode("ascii")
    return f"'sha256-{digest}'"


def _render(template: str, documents: list[str] | None = None, **context: Any) -> Page:
    html = _templates().get_template(template).render(**context)
    return Page(html, policy(html, *(documents or [])))


def script_json(value: Any) -> str:
    """JSON to embed in a ``<script type="application/json">``: no ``<`` can end it."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e")


# ----- the games ----------------------------------------------------------------------------


def deadline(position: Position) -> str:
    """When the decision awaited now is due, in the words of ``pbem status`` (since when
    it is awaited, when the deadline passes or that it has); empty for a game without
    deadlines (architecture §11)."""
    return waiting(position, utc_now()) if due(position) is not None else ""


def games_page(store: Store, me: IdentityCard, token: str, root: str) -> Page:
    rows = []
    for game in store.ids():
        head = store.head(game)
        pos = head.position
        seat = seat_of_card(pos, me)
        waiting = [pos.cards[s].name for s in pos.remaining()]
        rows.append(
            {
                "game": game,
                "short": short_id(game),
                "title": pos.rules.title or pos.rules.id,
                "step": pos.count,
                "awaiting": waiting,
                "next": describe_awaiting(pos),
                "over": pos.result is not None,
                "yours": decides(pos, seat),
                "unsent": unsent(store, game, me, head),
                "automatic": owes_automatic(pos, seat),
                "seated": seat is not None,
                "deadline": deadline(pos),
                "file": newest_export(store, game),
            }
        )
    return _render("games.html.j2", me=me, rows=rows, token=token, root=root)


# ----- a game -------------------------------------------------------------------------------


def game_page(
    store: Store,
    game: str,
    me: IdentityCard,
    reader: Identity | None,
    token: str,
    root: str,
    asks: bool,
    sending: dict[str, bool],
) -> Page:
    """The game's page; with ``reader`` (unsealed for this request only) it adds what
    that seat alone knows, as ``pbem show --as`` does. ``root``: where the pages of this
    run live (``/s/ROOT``, see the guard). ``asks``: whether signing needs the passphrase
    typed in the page. ``sending``: whether mail is set up, whether signing sends at once,
    whether the SMTP password must be typed (``Ui.sending``)."""
    head = store.head(game)
    pos = head.position
    seat = seat_of_card(pos, me)
    reader = reader if seat is not None else None
    history = walk(head.file(), reader, stored=True)
    seats = seats_of(pos.genesis)
    newest = newest_export(store, game, of_head=True)  # the page names the file it shows
    context = page_context(
        history,
        history.position(None),
        source=Path(newest).name if newest else f"game {short_id(game)}",
        reader=seats[seat] if reader is not None and seat is not None else None,
    )
    known = private_knowledge(pos, reader) if reader is not None and pos.table else {}
    ui = {
        "game": game,
        "root": root,
        "head": head.digest,
        "step": pos.count,
        "seat": seat,
        "decision": decides(pos, seat),
        "automatic": owes_automatic(pos, seat),
        "over": pos.result is not None,
        "private": reader is not None,
        "labels": labels_for(pos.rules, pos.state, known) if known else {},
        **sending,
        "unsent": unsent(store, game, me, head),
    }
    return _render(
        "game.html.j2",
        context["frames"],
        **context,
        ui=ui,
        ui_json=script_json(ui),
        me=me,
        token=token,
        root=root,
        asks=asks,
        awaiting=describe_awaiting(pos),
        short=short_id(game),
    )


def error_page(message: str, token: str, root: str) -> Page:
    return _render("error.html.j2", message=message, token=token, root=root)
