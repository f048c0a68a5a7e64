"""What ``pbem log`` and mail bodies list: one line per verified step (``Record``), and
the batch still collecting envelopes, which has no record until it is complete."""

from __future__ import annotations

from pbem.format.words import plural
from pbem.ledger.position import Position
from pbem.ledger.terms import Record


def with_open_batch(pos: Position, records: list[Record]) -> list[Record]:
    """``records``, then a line for the open batch if there is one: what it is for and how
    many envelopes are in (so that the notes signed into them have a place to show)."""
    if pos.batch is None:
        return records
    kind, _, name = pos.batch.decision.partition(":")
    seats = [e.seat for e in pos.batch.envelopes]
    what = f"{name or kind}: {plural(len(seats), 'envelope')} in, more awaited"
    return [*records, Record(pos.count - 1, kind, seats, what, "")]
