"""Playing moves: the one way a player's decisions are signed, for ``pbem play`` and for
anything else that plays (the board page, a bot by mail). The store's head, the rules'
notation, the checks, the journal and the signing are the same whatever asks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.crypto.keys import Identity
from pbem.crypto.notes import seal_note
from pbem.format.errors import Rejected, UsageError
from pbem.format.notes import check_text
from pbem.ledger.awaiting import describe_awaiting
from pbem.ledger.interruptions import answer_voids_call
from pbem.ledger.position import Position
from pbem.ledger.terms import CHOICES
from pbem.play.author import act, automatic, private_knowledge
from pbem.play.naming import read_move
from pbem.play.rescue import signer_of
from pbem.play.signer import seat_of
from pbem.ruleset.rules import RulesError
from pbem.store.chain import short_id
from pbem.store.head import Head
from pbem.store.importing import void_open_call
from pbem.store.journal import Journal
from pbem.store.sent import mark_signed
from pbem.store.store import Store


@dataclass
class Played:
    """What ``play_moves`` did: the store's head it left (to export without restoring it
    again), the moves played, those left for later (the game must wait for others first),
    and how many automatic steps it made."""

    head: Head
    done: list[str]
    left: list[str]
    made: int

    @property
    def position(self) -> Position:
        return self.head.position


@dataclass
class Note:
    """A note to sign with the first move: for everyone, or sealed ``to`` one player."""

    text: str
    to: str | None = None

    def check(self, pos: Position, seat: int) -> int | None:
        """Refuse a note the format would refuse, before anything is signed; the seat it
        is sealed to, if any."""
        try:
            check_text(self.text)
        except ValueError as exc:
            raise UsageError(f"--note: {exc}") from exc
        if self.to is None:
            return None
        names = pos.names
        if self.to not in names or names.index(self.to) == seat:
            others = ", ".join(n for i, n in enumerate(names) if i != seat)
            raise UsageError(f"--note-to {self.to!r}: not another player of this game ({others})")
        return names.index(self.to)

    def signed_form(self, pos: Position, seat: int) -> dict[str, Any]:
        """The note's JSON as signed into the step about to be made (``pbem.crypto.notes``)."""
        to = self.check(pos, seat)
        if to is None:
            return {"kind": "public", "text": self.text}
        card = pos.cards[to]
        assert pos.awaiting is not None
        return seal_note(card.box_key, self.text, pos.genesis.game, pos.awaiting.parent, seat, to)


def play_moves(
    store: Store,
    game: str,
    me: Identity,
    moves: list[str],
    source: str,
    note: Note | None = None,
    read: Head | None = None,
) -> Played:
    """Make the automatic steps ``me`` owes, then play ``moves`` (in the game's notation)
    in order until the game must wait for others, signing each on the store's newest head
    and keeping it there (journal first) in one transaction; ``note`` is signed into the
    first. Nothing is kept if any move is refused. ``read``: the head the caller read
    (``Store.head``), played on if it is still the newest; the caller gives it up."""
    if note is not None and not moves:
        raise UsageError("a note is signed into a move: give the move too")
    with store.writing():
        head = store.head(game, read)
        if signer_of(head.position, me) >= len(head.position.cards):
            return _as_referee(store, head, me, moves, source)
        seat = seat_of(head.position, me)
        if moves and answer_voids_call(head.position, seat):
            void_open_call(store, game)
            head = store.head(game)
        pos = head.position
        if note is not None:
            note.check(pos, seat)
        journal = Journal(store)
        made = automatic(pos, me, journal=journal)
        if moves and seat not in pos.remaining() and not made:
            raise Rejected(_not_yours(journal, pos, seat, moves[0]), **_at(pos, seat))
        done: list[str] = []
        left: list[str] = []
        for k, move in enumerate(moves):
            if seat not in pos.remaining():
                left = moves[k:]
                break
            try:
                parsed = read_move(pos.rules, pos.state, seat, move, _known(pos, me))
            except RulesError as exc:
                raise Rejected(f"{shown(move)}: {exc}", **_at(pos, seat)) from exc
            notes = [note.signed_form(pos, seat)] if note is not None and not done else []
            try:
                act(pos, me, parsed, journal=journal, notes=notes)
            except Rejected as exc:
                if exc.step is None:
                    exc.step, exc.seat = _at(pos, seat)["step"], seat
                raise
            done.append(move)
            made += automatic(pos, me, journal=journal)
        if not done and not made:
            if journal.unwritten(game, seat):  # only the file is owed: the caller writes it
                return Played(head, [], [], 0)
            raise Rejected(f"nothing to do: {describe_awaiting(pos)}")
        head = store.save(head, source)
        mark_signed(store, game, me.card, head.position)  # "signed, not sent" till mailed
    return Played(head, done, left, made)


def _known(pos: Position, me: Identity) -> Callable[[], dict[str, str]]:
    """What the seat alone knows, opened when a typed name needs it (``read_move``)."""
    return lambda: private_knowledge(pos, me) if pos.table.private else {}


def _as_referee(store: Store, head: Head, me: Identity, moves: list[str], source: str) -> Played:
    """An escrow referee plays no move; what it owes (its share when a call opens an
    escrow) is made as a player's automatic steps are: ``pbem play GAME --as REFEREE``."""
    if moves:
        raise UsageError(f"{me.card.name} is a referee of this game: it makes no moves")
    made = automatic(head.position, me, journal=Journal(store))
    if not made:
        raise Rejected(f"nothing to do for {me.card.name}: {describe_awaiting(head.position)}")
    return Played(store.save(head, source), [], [], made)


def sign_in_store(
    store: Store,
    game: str,
    me: Identity,
    sign: Callable[[Position, Journal], str],
    source: str,
) -> tuple[Position, str]:
    """Any other signing command (a call, a resignation, a handover): ``sign`` signs on the
    store's newest head, the automatic steps owed before and after are made, and all is
    kept in one transaction (journal first). Returns the position and ``sign``'s words."""
    with store.writing():
        head = store.head(game)
        pos = head.position
        journal = Journal(store)
        automatic(pos, me, journal=journal)
        said = sign(pos, journal)
        automatic(pos, me, journal=journal)
        store.save(head, source)
    return pos, said


def settle(store: Store, game: str, identities: Sequence[Identity], source: str) -> int:
    """Make every automatic step that ``identities`` owe in ``game`` (joins, beacons,
    shuffles, shares, reveals, the disclosure), one seat after the other, until none of them
    owes one: what the robot of each would do, for a program that holds several seats (a
    league of bots, a table of test players). Each seat's steps are kept on the store's head
    in one transaction, journal first. Returns how many steps were made."""
    made = 0
    while True:
        before = made
        for me in identities:
            with store.writing():
                head = store.head(game)
                n = automatic(head.position, me, journal=Journal(store))
                if n:
                    store.save(head, source)
            made += n
        if made == before:
            return made


def _at(pos: Position, seat: int) -> dict[str, int]:
    """Where a refused move would have gone: the step it would make (or join), the seat."""
    return {"step": pos.count + (pos.batch is None), "seat": seat}


def _not_yours(journal: Journal, pos: Position, seat: int, move: str) -> str:
    """Why ``move`` cannot be played: the seat's own earlier signature for this very
    decision, if it made one (naming its step and its export), else whose move it is; and
    and any step the seat signed that no file carries yet (``unwritten``)."""
    aw = pos.awaiting
    earlier = None
    if aw is not None and aw.decision.startswith(CHOICES):
        earlier = journal.recall(pos.genesis.game, aw.parent, seat, aw.decision)
    if aw is not None and earlier is not None:
        refusal = (
            f"cannot play {shown(move)}: you signed your {aw.decision} for step "
            f"{pos.count} already ({journal.where(earlier)}); pbem will not sign a "
            "second one for the same decision: that would be equivocation"
        )
    else:
        refusal = f"cannot play {shown(move)}: it is not your move ({describe_awaiting(pos)})"
    return refusal + unwritten(journal, pos.genesis.game, seat)


def unwritten(journal: Journal, game: str, seat: int) -> str:
    """What a refusal adds when ``seat`` signed a step that no file carries yet (its
    command was killed between keeping the step and writing the file): the command that
    writes it, or the others would wait for that step for ever."""
    steps = journal.unwritten(game, seat)
    if not steps:
        return ""
    step, what = steps[-1]
    return (
        f"; your {what} of step {step} is signed but in no file yet (a command that did "
        f"not finish?): pbem play {short_id(game)} writes it"
    )


def shown(text: str) -> str:
    """A move as quoted in a message: short, whatever was typed."""
    return repr(text if len(text) <= 60 else text[:57] + "...")
