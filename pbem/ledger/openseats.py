"""Seats played in the open (architecture §11): a seat whose secret is public (it resigned, or its
escrow was opened after a call) owes nothing it must sign. Whatever it owes without a
decision (shares, a reveal, a chain link, a shuffle pass, the disclosure) is computed here
by every replay alike, and a stand-in makes its decisions with randomness nobody can steer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.crypto.randomness import Rng, chain, draw_value
from pbem.crypto.sealing import open_sealed, seal_key
from pbem.crypto.seatsecret import derive
from pbem.format.canonical import b64d
from pbem.format.errors import Rejected
from pbem.format.gamefile import Batch
from pbem.format.i18n import N_
from pbem.ruleset.rules import RulesError

if TYPE_CHECKING:
    from pbem.ledger.position import Position


def _chain_of(pos: Position, seat: int) -> tuple[bytes, ...]:
    x = pos.published[seat]
    return _chains(x, pos.genesis.game, pos.genesis.chain)


_CHAINS: dict[tuple[bytes, str, int], tuple[bytes, ...]] = {}


def _chains(x: bytes, game: str, length: int) -> tuple[bytes, ...]:
    key = (x, game, length)
    if key not in _CHAINS:
        _CHAINS[key] = tuple(chain(derive(x, b64d(game), "beacon"), length))
    return _CHAINS[key]


def open_link(pos: Position, seat: int) -> bytes:
    """The next chain link of an open seat, taken as if it had signed it."""
    value = _chain_of(pos, seat)[pos.revealed[seat] + 1]
    pos.beacons[seat] = value
    pos.revealed[seat] += 1
    return value


def open_contribution(pos: Position, batch: Batch, seat: int) -> Any:
    """What an open seat owes to the awaited batch, made here from its public secret; None
    if it owes a decision (only a resigned seat's stand-in answers that)."""
    kind = batch.decision.partition(":")[0]
    x = pos.published[seat]
    if kind == "share":
        assert pos.reveal is not None
        return [deck_share(pos, handle, x) for handle in pos.reveal.items]
    if kind == "disclose":
        return x
    if kind == "beacon":
        return b""
    if kind == "reveal":
        commit = pos.commit
        assert commit is not None
        mine = next((e for e in commit.envelopes if e.seat == seat), None)
        if mine is None:
            return None
        key = seal_key(
            lambda label, extra: derive(x, b64d(pos.genesis.game), label, extra),
            commit.parent,
            seat,
            commit.decision,
        )
        opened = open_sealed(key, mine.body, pos.genesis.game, commit.parent, seat, commit.decision)
        return pos.rules.load_action(opened)
    return None


def deck_share(pos: Position, handle: str, x: bytes) -> Any:
    from pbem.crypto.group import mul

    return mul(x, pos.table.ciphertext(handle).c1)


def stand_in_rng(pos: Position, seat: int, parts: list[bytes]) -> Rng:
    """The randomness of a stand-in's decision: from values fixed before anyone could
    compute the outcome (architecture §5): the callers' links, or a resigned seat's own next
    link (fixed since its join), with the game and the parent it answers."""
    return Rng(
        draw_value(b"stand-in", pos.game_bytes, bytes.fromhex(pos.head_hash), bytes([seat]), *parts)
    )


def stand_in(pos: Position, seat: int, rng: Rng) -> Any:
    """The ruleset's stand-in's decision for ``seat`` now."""
    try:
        action = pos.rules.stand_in(pos.state, seat, rng)
        pos.rules.check(pos.state, seat, action)
    except RulesError as exc:
        raise Rejected(
            N_("the stand-in for seat {seat} found no legal move: {exc}").format(seat=seat, exc=exc)
        ) from exc
    return action
