"""What the replay makes itself (architecture §11): after every step, whatever open seats owe
without a decision and the decisions of resigned or called seats (by the stand-in), until
the game waits for a signature again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.format.gamefile import Batch
from pbem.ledger.openseats import _chain_of, open_contribution, open_link, stand_in, stand_in_rng
from pbem.ledger.steps import complete_batch
from pbem.ledger.terms import CHOICES, Awaiting

if TYPE_CHECKING:
    from pbem.ledger.position import Position


def settle(pos: Position) -> None:
    """Make what nobody needs to sign: whatever open seats owe without a decision, and
    the decisions of resigned seats (or of called ones) by the stand-in, until the game
    waits for a signature again."""
    while (aw := pos.awaiting) is not None and aw.kind != "over" and pos.demand is None:
        if pos.interrupt is not None:
            return
        if aw.kind == "batch":
            owed = pos.remaining()
            if owed and not any(s in pos.published or s in pos.resigned for s in owed):
                return  # every seat still owed signs for itself
            batch = pos.batch or Batch.model_construct(
                kind="batch", parent=aw.parent, decision=aw.decision, envelopes=[]
            )
            for seat in owed:
                made = _made_here(pos, batch, seat)
                if made is not None:
                    pos.virtual[seat] = made
            if pos.remaining():
                return
            index = pos.batch_at if pos.batch is not None else pos.count
            pos.batch, pos.frozen = None, False
            complete_batch(pos, batch, index)
            continue
        seat = aw.seats[0]
        if aw.kind == "turn" and (seat in pos.virtual or seat in pos.resigned):
            _turn_in_the_open(pos, seat)
        elif aw.kind == "shuffle" and seat in pos.published:
            _shuffle_in_the_open(pos, seat)
        else:
            return


def _made_here(pos: Position, batch: Batch, seat: int) -> Any:
    if seat in pos.published:
        made = open_contribution(pos, batch, seat)
        if made is not None:
            return made
    if seat in pos.resigned and batch.decision.startswith(CHOICES):
        link = _chain_of(pos, seat)[pos.revealed[seat] + 1]
        return stand_in(pos, seat, stand_in_rng(pos, seat, [link]))
    return None


def _turn_in_the_open(pos: Position, seat: int) -> None:
    """A turn decided by the stand-in (a called seat's, or a resigned seat's)."""
    action = pos.virtual.pop(seat, None)
    if action is None:
        link = _chain_of(pos, seat)[pos.revealed[seat] + 1]
        action = stand_in(pos, seat, stand_in_rng(pos, seat, [link]))
    if seat in pos.published:
        open_link(pos, seat)
    summary = pos.rules.summary(pos.state, seat, action, pos.names)
    pos.state = pos.rules.apply(pos.state, seat, action)
    pos.note(f"the stand-in plays {summary}")
    pos.author = seat
    pos.advance(pos.head_hash)


def _shuffle_in_the_open(pos: Position, seat: int) -> None:
    """An open seat's shuffle pass, made by every replay alike from its public secret."""
    aw = pos.awaiting
    assert aw is not None
    body = pos.table.shuffle_body(seat, pos.published[seat], aw.parent)
    pos.table.apply_shuffle(seat, body, aw.parent)
    open_link(pos, seat)
    pos.note(f"{pos.names[seat]}'s shuffle pass")
    if seat + 1 < len(pos.names):
        pos.advance_to(Awaiting("shuffle", (seat + 1,), aw.parent, "shuffle"))
        return
    pos.table.unshuffled = []
    if pos.reshuffle is None:
        pos.advance(aw.parent, setup=True)
        return
    pos.state = pos.rules.apply_reshuffle(pos.state, pos.reshuffle)
    pos.reshuffle = None
    pos.author = seat
    pos.advance(aw.parent)
