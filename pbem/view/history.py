"""Walk a game file step by step, as ``pbem verify`` does, keeping every position.

A page lets its reader step back and forth through the whole game, so the walk keeps the
position after each step rather than only the last. It runs the same checks as
``replay_file`` (``Replay.add`` on every step, then ``Replay.extend`` for the cached state)
but does not stop the page at the first failure: the verified prefix is kept and the
failure is recorded with its step, seat and reason, so a broken file can still be looked at.

Private knowledge is read only when an identity is given, and only from that seat's own
keys (``private_knowledge``, ``own_sealed_action``): a page made without one holds nothing
that is not in the file in the clear.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel

from pbem.crypto.keys import Identity
from pbem.crypto.notes import step_notes
from pbem.format.errors import Rejected, UsageError
from pbem.format.gamefile import Batch, GameFile, step_hash
from pbem.format.i18n import N_
from pbem.ledger.awaiting import describe_awaiting
from pbem.ledger.replay import Record, Replay, StepRejected
from pbem.play.author import own_sealed_action, private_knowledge
from pbem.play.signer import seat_of
from pbem.ruleset import registry
from pbem.ruleset.rules import Result, Ruleset

Status = Literal["verified", "open", "failed", "unchecked"]


@dataclass(frozen=True)
class Row:
    """One step of the file as the history lists it, with what the audit said of it."""

    index: int
    kind: str
    seats: tuple[int, ...]
    summary: str
    hash: str
    status: Status
    notes: tuple[str, ...] = ()
    """The notes signed into the step, as the page's reader may read them."""


@dataclass(frozen=True)
class Private:
    """What one seat alone knows at a position, decrypted with its own keys."""

    seat: int
    known: dict[str, str]
    """Handles of sealed items opened to the seat alone, and their items."""
    text: str
    """The ruleset's own words for ``known``."""
    sealed: Any | None
    """The seat's committed action while it is still sealed to everyone else."""
    sealed_text: str


@dataclass(frozen=True)
class Position:
    """The game after step ``index`` (-1: after the genesis, before any step): the state,
    who is awaited, what is private."""

    index: int
    state: BaseModel | None
    awaiting: str
    remaining: tuple[int, ...]
    result: Result | None
    private: Private | None


@dataclass
class History:
    rules: Ruleset
    replay: Replay
    rows: list[Row]
    positions: list[Position]
    """After the genesis, then after each verified step: ``positions[k + 1]`` follows step k."""
    failure: str | None
    """Why verification failed (step, seat and reason), or None if every check passed."""
    failed_at: int | None
    """The index of the step that failed, or None (also when only the cached state did)."""

    @property
    def verified(self) -> bool:
        return self.failure is None

    def position(self, step: int | None) -> Position:
        """The position after ``step`` (numbered from 1; 0 is the genesis; the last one if
        None); a clear error if out of range."""
        if step is None:
            return self.positions[-1]
        last = len(self.positions) - 1
        if not 0 <= step <= last:
            raise UsageError(f"--step {step}: the verified steps are 1 to {last} (0: the genesis)")
        return self.positions[step]


def walk(game: GameFile, identity: Identity | None = None, *, stored: bool = False) -> History:
    """Verify ``game`` step by step, keeping each position (and, with ``identity``, what
    that seat privately knew there). A bad genesis or unknown rules raise ``Rejected``:
    then nothing at all can be trusted or drawn. ``stored``: these are the bytes of a
    store's game, which verified them when it took them; their signatures and proofs, most
    of a walk's time, are not checked again (``Position.proven``)."""
    rules = registry.get(game.genesis.ruleset.id)
    replay = Replay.start(game.genesis, rules, proven=stored)
    seat = seat_of(replay, identity) if identity is not None else None
    reader = _PrivateReader(replay, identity, seat)
    positions = [_position(replay, -1, reader)]
    failure: str | None = None
    failed_at: int | None = None
    for index, step in enumerate(game.steps):
        try:
            replay.add(step)
        except Rejected as exc:
            failure = str(exc)
            failed_at = exc.index if isinstance(exc, StepRejected) else index
            break
        positions.append(_position(replay, index, reader))
    else:
        try:
            replay.extend(game)
        except Rejected as exc:
            failure = str(exc)
    rows = _rows(game, replay, failed_at, failure)
    rows = [_with_notes(row, game, replay.names, identity, seat) for row in rows]
    return History(rules, replay, rows, positions, failure, failed_at)


def _with_notes(
    row: Row, game: GameFile, names: list[str], reader: Identity | None, seat: int | None
) -> Row:
    """The row with its step's notes: sealed ones decrypted only for the page's reader."""
    if row.index < 0 or row.status not in ("verified", "open"):
        return row
    shown = step_notes(game.steps[row.index], reader, seat)
    return replace(row, notes=tuple(n.line(names, seat) for n in shown))


class _PrivateReader:
    """Decrypts what the seat knows only when a new private reveal has come in: opening
    items costs scalar multiplications, and most steps reveal nothing."""

    def __init__(self, replay: Replay, identity: Identity | None, seat: int | None) -> None:
        self.replay, self.identity, self.seat = replay, identity, seat
        self._seen = -1
        self._known: dict[str, str] = {}

    def read(self) -> Private | None:
        replay, identity, seat = self.replay, self.identity, self.seat
        if identity is None or seat is None or replay.state is None:
            return None
        if replay.table is not None and len(replay.table.private) != self._seen:
            self._seen = len(replay.table.private)
            self._known = private_knowledge(replay, identity)
        sealed = own_sealed_action(replay, identity)
        rules, state = replay.rules, replay.state
        return Private(
            seat=seat,
            known=dict(self._known),
            text=rules.render_private(state, seat, self._known) if self._known else "",
            sealed=sealed,
            sealed_text=rules.format_action(state, seat, sealed) if sealed is not None else "",
        )


def _position(replay: Replay, index: int, reader: _PrivateReader) -> Position:
    return Position(
        index=index,
        state=replay.state,
        awaiting=describe_awaiting(replay),
        remaining=replay.remaining(),
        result=replay.result,
        private=reader.read(),
    )


def _rows(game: GameFile, replay: Replay, failed_at: int | None, failure: str | None) -> list[Row]:
    """Every step of the file: verified ones from the replay's records, then an open batch,
    the failed step (with the reason) and what follows it unchecked."""
    records: dict[int, Record] = {r.index: r for r in replay.records}
    genesis = game.genesis
    created = N_("game created by {name}: {rules} {version}, {seats} seats").format(
        name=replay.names[genesis.creator],
        rules=genesis.ruleset.id,
        version=genesis.ruleset.version,
        seats=len(genesis.seats),
    )
    rows = [Row(-1, "genesis", (genesis.creator,), created, replay.genesis_hash, "verified")]
    for index, step in enumerate(game.steps):
        record = records.get(index)
        if record is not None:
            seats = tuple(record.seats)
            row = Row(index, record.kind, seats, record.summary, record.hash, "verified")
        elif failed_at is not None and index >= failed_at:
            failed = index == failed_at
            status: Status = "failed" if failed else "unchecked"
            why = (failure or "") if failed else ""
            row = Row(index, _kind(step), _signers(step, game), why, step_hash(step), status)
        else:
            row = Row(index, _kind(step), _signers(step, game), _open_summary(step), "", "open")
        rows.append(row)
    return rows


def _kind(step: Any) -> str:
    return step.decision.partition(":")[0] if isinstance(step, Batch) else step.kind


def _signers(step: Any, game: GameFile) -> tuple[int, ...]:
    """The seats a step claims to be signed by; a step that failed may name any number,
    so only real seats are kept."""
    claimed = [e.seat for e in step.envelopes] if isinstance(step, Batch) else [step.seat]
    return tuple(s for s in claimed if 0 <= s < len(game.genesis.seats))


def _open_summary(step: Batch) -> str:
    """A batch still collecting envelopes: what it is for and how many are in."""
    n = len(step.envelopes)
    if n == 1:
        return N_("{decision}: 1 envelope in, more awaited").format(decision=step.decision)
    return N_("{decision}: {n} envelopes in, more awaited").format(decision=step.decision, n=n)
