"""Who holds what at a table (architecture §11): the escrow holders of each seat's secret, whose
key signs for a seat now (the genesis card, or a substitute's after a handover), and which
seats are still active. Small facts every check of a step needs, kept apart from the steps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.crypto import escrow
from pbem.crypto.escrow import Escrow
from pbem.format.card import IdentityCard
from pbem.format.gamefile import Genesis

if TYPE_CHECKING:
    from pbem.ledger.position import Position


def holders(genesis: Genesis, seat: int) -> list[IdentityCard]:
    """The escrow holders of ``seat``'s secret, in order: holder i is at position i − 1."""
    if genesis.escrow.mode == "referees":
        return list(genesis.escrow.referees)
    if genesis.escrow.mode == "others":
        return [c for s, c in enumerate(genesis.seats) if s != seat]
    return []


def holder_signers(genesis: Genesis, seat: int) -> list[int]:
    """The signer numbers of ``seat``'s escrow holders: seats, or ``len(seats) + r`` for
    referee r (referees sign only the opening of an escrow)."""
    n = len(genesis.seats)
    if genesis.escrow.mode == "referees":
        return [n + r for r in range(len(genesis.escrow.referees))]
    return [s for s in range(n) if s != seat]


def check_escrow(pos: Position, seat: int, deal: Any) -> Escrow:
    """A seat's escrow as published at its join: the right shape for its holders, and
    commitments that start from its own deck key (so it can share no other secret)."""
    n = len(holders(pos.genesis, seat))
    value = escrow.decode_escrow(deal, n)
    escrow.check_commitments(pos.table.keys[seat], value.commitments, n)
    return value


def signer_card(pos: Position, signer: int) -> IdentityCard:
    """The card whose key signs for ``signer``: the seat's in force, or a referee's."""
    n = len(pos.cards)
    if signer < n:
        return pos.cards[signer]
    return pos.genesis.escrow.referees[signer - n]


def active(pos: Position) -> list[int]:
    return [s for s in range(len(pos.cards)) if s not in pos.resigned]
