"""``Game``: one game in a store, played from Python as ``pbem`` plays it from the shell.

Everything goes the way the commands go (architecture §10): a file is imported into the
store first (only what is new is verified), every move is signed on the store's newest
head through ``pbem.play.playing.play_moves`` (the rules' checks, the journal, the
signature, in one transaction), and an export is the store's verified bytes, never written
over another file. So a program cannot sign two different moves for one decision any more
than a player at the shell can, and a file it writes always verifies.

A ``Game`` acts for the identities it is handed (``Game.new(seats=...)``, ``players=``, or
``as_=`` of a move): after every change it makes the automatic steps all of them owe
(joins, randomness, shuffles, shares, reveals), so that what is left awaited is a decision
or another player's step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.crypto.keys import Identity
from pbem.format.card import IdentityCard
from pbem.format.errors import Rejected, UsageError
from pbem.ledger.awaiting import decides, describe_awaiting
from pbem.ledger.position import Position
from pbem.mail.botseat import bot_rng
from pbem.play.author import default_escrow, knowledge, new_game
from pbem.play.playing import play_moves, settle
from pbem.play.signer import seat_of
from pbem.ruleset import registry
from pbem.ruleset.options import normal_options
from pbem.ruleset.rules import Bot, Result, RulesError
from pbem.store.exports import Opened, export_place, open_game
from pbem.store.store import Store

Seat = int | str | Identity | IdentityCard
"""A seat, given by its number (from 0), its player's name, or its player's identity or
card."""

SOURCE = "played through the Python API"


@dataclass(frozen=True)
class Status:
    """A game as it stands: what ``pbem status`` reports, as data.

    ``awaiting`` holds the seats the game waits for (to decide, or for a step their own
    pbem makes), and is ``None`` once the game is over; ``deciding`` holds those of them
    who must choose a move now."""

    game: str
    ruleset: str
    step: int
    players: tuple[str, ...]
    awaiting: tuple[int, ...] | None
    deciding: tuple[int, ...]
    next: str
    """Who must do what, in words (``pbem status``'s ``awaiting:`` line)."""
    result: Result | None
    view: dict[str, Any] | None
    """The public state, as anyone may see it (``Ruleset.view``)."""

    @property
    def over(self) -> bool:
        return self.result is not None


def _home(store: Store | str | Path | None) -> Store:
    if isinstance(store, Store):
        return store
    return Store(Path(store) if store is not None else None)


class Game:
    """A game in a store (by default the player's own, under ``PBEM_HOME``).

    Create one with ``Game.new`` or open one with ``Game.open``; both make the automatic
    steps owed by the identities the game is handed."""

    def __init__(self, store: Store, game_id: str, players: Iterable[Identity] = ()) -> None:
        self.store = store
        self.id = game_id
        """The game id (as in the genesis)."""
        self._players: dict[str, Identity] = {}
        self._hold(players)

    # ----- creating and opening -----------------------------------------------------------

    @classmethod
    def new(
        cls,
        ruleset: str,
        seats: Sequence[Identity | IdentityCard],
        *,
        as_: Identity,
        options: Mapping[str, str] | None = None,
        deadline: int = 0,
        escrow: str | Sequence[IdentityCard] | None = None,
        store: Store | str | Path | None = None,
    ) -> Game:
        """Sign the genesis of a new game of ``ruleset`` as ``as_`` (who must hold one of
        the ``seats``, in seat order) and keep it in the store, as ``pbem new`` does.

        ``options`` are the ruleset's, as ``--option K=V`` takes them (``pbem rules``
        lists them); ``deadline``: seconds a decision may take before the others may call
        (0: none); ``escrow``: ``"others"``, ``"none"`` or the referees' cards (default:
        ``"others"`` with three or more seats, else ``"none"``). Seats given as an
        ``Identity`` are played here: their automatic steps are made at once."""
        rules = registry.get(ruleset)
        if not rules.min_seats <= len(seats) <= rules.max_seats:
            raise UsageError(f"{ruleset} takes {rules.min_seats} to {rules.max_seats} seats")
        try:
            parsed = normal_options(rules, dict(options or {}))
        except RulesError as exc:
            raise UsageError(str(exc)) from exc
        cards = [s.card if isinstance(s, Identity) else s for s in seats]
        if escrow is None or isinstance(escrow, str):
            mode, referees = escrow or default_escrow(len(cards)), []
        else:
            mode, referees = "referees", list(escrow)
        replay = new_game(
            rules, parsed, cards, as_, deadline=deadline, escrow=mode, referees=referees
        )
        home = _home(store)
        home.import_game(replay.to_file(), "created here")
        local = [s for s in seats if isinstance(s, Identity)]
        game = cls(home, replay.genesis.game, [as_, *local])
        game.advance()
        return game

    @classmethod
    def open(
        cls,
        target: str | Path,
        *,
        store: Store | str | Path | None = None,
        players: Iterable[Identity] = (),
    ) -> Game:
        """A game file (imported into the store first: only what is new is verified; a
        copy behind the store's changes nothing) or the id of a stored game, or its first
        characters. The automatic steps ``players`` owe are made."""
        home = _home(store)
        opened = open_game(home, str(target))
        game = cls(home, opened.head.game, players)
        game.advance()
        return game

    # ----- looking ----------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The verified position at the store's newest head (read afresh each time: another
        process, a robot say, may have moved the game on)."""
        return self.store.head(self.id).position

    def seat(self, who: Seat) -> int:
        """The seat number of ``who``; a name or card that holds no seat is refused."""
        pos = self.position
        if isinstance(who, int):
            if not 0 <= who < len(pos.cards):
                raise UsageError(f"seat {who}: this game has seats 0 to {len(pos.cards) - 1}")
            return who
        if isinstance(who, str):
            if who not in pos.names:
                raise UsageError(f"{who!r} holds no seat in this game ({', '.join(pos.names)})")
            return pos.names.index(who)
        card = who.card if isinstance(who, Identity) else who
        keys = [c.sign_key for c in pos.cards]
        if card.sign_key not in keys:
            raise UsageError(f"{card.name!r} holds no seat in this game")
        return keys.index(card.sign_key)

    def status(self) -> Status:
        """Who is awaited, the public state, the result once the game is over."""
        pos = self.position
        over = pos.result is not None
        seats = tuple(range(len(pos.cards)))
        return Status(
            game=self.id,
            ruleset=pos.rules.id,
            step=pos.count,
            players=tuple(pos.names),
            awaiting=None if over else pos.remaining(),
            deciding=tuple(s for s in seats if not over and decides(pos, s)),
            next=describe_awaiting(pos),
            result=pos.result,
            view=pos.rules.view(pos.state, None) if pos.state is not None else None,
        )

    def legal_moves(self, seat: Seat) -> list[str]:
        """The moves ``seat`` may play now, in the game's notation (what ``play`` takes);
        empty when it has nothing to decide. Where the rules sample a combinatorial set
        (``Ruleset.samples``) this is a sample, and ``play`` judges any move typed."""
        pos = self.position
        number = self.seat(seat)
        if not decides(pos, number) or pos.state is None:
            return []
        legal = pos.rules.legal_actions(pos.state, number)
        return [pos.rules.format_action(pos.state, number, action) for action in legal]

    # ----- playing ----------------------------------------------------------------------

    def play(self, move: str, *, as_: Identity) -> Status:
        """Check ``move`` (in the notation) against the rules, sign it as ``as_`` on the
        store's newest head and keep it, exactly as ``pbem play`` does; then make the
        automatic steps every identity of this game owes. A move refused by the rules, not
        ``as_``'s to make, or different from one ``as_`` signed already for this decision
        (equivocation) raises ``pbem.Rejected`` and nothing is kept."""
        self._hold([as_])
        play_moves(self.store, self.id, as_, [move], SOURCE)
        self.advance()
        return self.status()

    def choose(self, bot: str | Bot, *, as_: Identity) -> str:
        """The move ``bot`` (``"greedy"``, ``"mcts:16"``, or a bot of ``pbem.bots.get``)
        chooses for ``as_``'s seat now, in the notation, knowing what that seat may know
        and nothing else (``pbem.play.author.knowledge``). It signs nothing: pass it to
        ``play``. Its random stream is fixed by the seat's secret and the step, as for a
        bot holding a seat by mail."""
        pos = self.position
        seat = seat_of(pos, as_)
        if not decides(pos, seat) or pos.state is None:
            raise Rejected(f"{as_.name} has nothing to decide now: {describe_awaiting(pos)}")
        try:
            chosen = pos.rules.bot(bot) if isinstance(bot, str) else bot
        except RulesError as exc:
            raise UsageError(str(exc)) from exc
        action = chosen(pos.rules, pos.state, seat, knowledge(pos, as_), bot_rng(pos, as_))
        return pos.rules.format_action(pos.state, seat, action)

    def advance(self) -> int:
        """Make every automatic step the identities of this game owe (what their robots
        would make); returns how many were made."""
        return settle(self.store, self.id, list(self._players.values()), SOURCE)

    # ----- exporting --------------------------------------------------------------------

    def export(self, path: str | Path | None = None) -> Path:
        """Write the game as the store holds it to a new file and return its path: into
        the working folder (``path`` None) or into the folder ``path``, named by ruleset,
        id and step (``guess-AbCdEfGh.s0012.json``), or to the file ``path``, which must
        not exist. Never over another file: a name taken gets ``~2``, ``~3``..., and a
        file named explicitly that exists is refused (``pbem.UsageError``)."""
        target = Path(path) if path is not None else Path.cwd()
        if target.is_dir():
            _, stem = export_place(Opened(self.store.head(self.id), None, None))
            return self.store.export(self.id, target, stem)
        return self.store.export_to(self.id, target)

    def _hold(self, identities: Iterable[Identity]) -> None:
        for identity in identities:
            self._players.setdefault(identity.card.sign_key, identity)

    def __repr__(self) -> str:
        return f"Game({self.id!r}, store={str(self.store.home)!r})"
