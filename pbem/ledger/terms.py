"""The ledger's vocabulary: what the game awaits next (``Awaiting``), a verified step as
people read it (``Record``), and a step refused (``StepRejected``, naming the step, the seat
and the reason). Every module of the ledger speaks it; it depends on nothing of theirs.

Steps are numbered from 1 wherever people read them (``step 31`` is the 31st step after the
genesis, ``steps[30]`` in the file); the genesis is step 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import ValidationError

from pbem.format.errors import Rejected
from pbem.format.i18n import N_


class StepRejected(Rejected):
    """A step failed a check. The message names the step (from 1), the seat and the reason;
    ``index`` is the step's place in the file (from 0)."""

    def __init__(self, index: int, seat: int | None, names: list[str], reason: str) -> None:
        if seat is not None and 0 <= seat < len(names):
            message = N_("step {step}, seat {seat} ({name}): {reason}").format(
                step=index + 1, seat=seat, name=names[seat], reason=reason
            )
        else:
            message = N_("step {step}: {reason}").format(step=index + 1, reason=reason)
        super().__init__(message)
        self.index = index
        self.seat = seat
        self.reason = reason


CHOICES = ("act:", "commit:")
"""The batch decisions players choose (open, sealed); the other batches pbem makes."""


@dataclass(frozen=True)
class Awaiting:
    """What the next signature must be.

    ``kind``: ``batch`` (envelopes from ``seats``, for ``decision``), ``turn`` (one entry by
    ``seats[0]``), ``beacon`` (a supply by ``seats[0]``), ``shuffle`` (a pass by
    ``seats[0]``), or ``over``. ``parent`` is the hash the next entry or envelope must name."""

    kind: str
    seats: tuple[int, ...]
    parent: str
    decision: str = ""
    prompt: str = ""

    @property
    def is_decision(self) -> bool:
        """A choice players make (a turn, an open or a sealed choice), as opposed to the
        steps pbem makes for a seat by itself (join, beacon, shuffle, shares, reveals)."""
        return self.kind == "turn" or self.decision.startswith(CHOICES)


@dataclass
class Record:
    """One verified step, for ``pbem log`` and mail bodies. ``index`` counts from 0, as in
    the file; people read ``index + 1``."""

    index: int
    kind: str
    seats: list[int]
    summary: str
    hash: str
    consequences: list[str] = field(default_factory=list)
    """What followed by itself (``Ruleset.consequences``): coins paid out, cards handed on."""


def reason_of(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        if where:
            return N_("malformed action at {where}: {why}").format(where=where, why=first["msg"])
        return N_("malformed action: {why}").format(why=first["msg"])
    if isinstance(exc, StepRejected):
        return exc.reason
    return str(exc)
