"""Escrowed seat secrets: Feldman verifiable secret sharing, n of n, over the ed25519 group.

Why: a seat that vanishes must not stall the game (issue 14). At its join each seat splits
its per-game secret ``x`` (its deck secret: ``X = x·B`` is its published deck key, accepted
with a proof of knowledge) into one share per escrow holder, each sealed with HPKE to the
holder's X25519 box key, with public commitments that each holder checks its share against
when the join arrives. If the seat is called, the holders publish their decrypted shares;
anyone checks each against the commitments and combines them into ``x``, from which
``pbem.crypto.seatsecret.derive`` gives everything the seat's automatic steps need.

The scheme is Feldman's ("A practical scheme for non-interactive verifiable secret
sharing", FOCS 1987) with threshold n of n (all holders must cooperate):

- the dealer takes ``f(z) = x + a_1·z + … + a_{n−1}·z^{n−1}`` over the integers mod L and
  publishes ``A_k = a_k·B`` for k = 1 … n−1. ``A_0`` is ``X``, the deck key already
  published, and is not repeated: a dealer cannot commit to any secret but the one behind
  its deck key;
- holder i (1 … n) receives ``s_i = f(i)`` and checks ``s_i·B = X + Σ_k i^k·A_k``;
- the n shares give ``x = Σ_i λ_i·s_i``, ``λ_i = Π_{j≠i} j/(j − i)`` (Lagrange at 0), and
  ``x·B = X`` is checked.

Holders are given as an ordered list of box keys: holder i is the key at position i − 1.
(The engine's convention: for ``--escrow others`` the other seats in seat order, for
``--escrow CARD …`` the referees in the genesis's order.) With one holder (a referee in a
2-player game), f is the constant x, there are no commitments and the share is x itself.

What each party learns:

- one holder, or any n − 1 together, nothing about x: any n − 1 values of a polynomial of
  degree n − 1 with uniform coefficients are uniform whatever its constant term. Feldman's
  commitments reveal nothing beyond X (public anyway) as long as discrete logarithms are
  hard: each A_k is the public key of a secret coefficient. (The hiding is computational;
  Pedersen's scheme would make it unconditional, but then the secret's commitment could
  not be the deck key.)
- all n holders together learn x, and with it the seat's whole private knowledge of the
  game: its hidden cards, its sealed actions not yet revealed, its future beacon links.
  That is what the escrow is for, and why it takes every holder.
- The coefficients are derived from x, the game and the ordered holder keys, as RFC 6979
  derives nonces: the same deal gives the same commitments and the same share values, so
  a dealer that deals again reveals nothing new; two deals of one x to different holder
  lists use unrelated polynomials (with one polynomial, a holder at index 1 in one list and
  2 in another would hold two of its points, and with n = 2 that is x).
- HPKE sealing is randomized (``pbem.crypto.hpke``), so the sealed shares differ from one
  deal to the next; whatever was signed is what the journal keeps.
- A sealed share is bound to its game, seat, holder index, holder count and deal (info
  ``"pbem/1/escrow/share\\0" ‖ JCS([game, seat, i, n])``, aad ``X ‖ A_1 ‖ … ‖ A_{n−1}``): copied
  to another game, seat, index or deal, it does not open.

What the caller must enforce: X only with its proof of knowledge (the join checks it);
every holder opens and checks its share when the join arrives (``open_share``), and the
join is refused naming the seat if one fails; a published decrypted share is checked
(``check_share``) before it counts. A holder's claim that its share is bad cannot be
checked by the others (only the holder can decrypt): it can stall a join, never cheat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from pbem.crypto import group, hpke
from pbem.crypto.deck import _nonzero_scalar
from pbem.crypto.group import L, Point, check_point, check_scalar, frame
from pbem.crypto.keys import Identity
from pbem.crypto.seatsecret import derive
from pbem.format.canonical import b64d, b64e, canonical
from pbem.format.errors import Rejected
from pbem.format.i18n import N_

MAX_HOLDERS = 255
SHARE_BYTES = group.SCALAR_BYTES
SEALED_SHARE_BYTES = SHARE_BYTES + hpke.OVERHEAD
MAX_SEAT = 254
_SHARE_INFO = b"pbem/1/escrow/share\0"


class EscrowError(Rejected, ValueError):
    """An escrow, a share or its context is malformed, or a share does not match."""


class Escrow(NamedTuple):
    """What a seat publishes at its join: the commitments ``A_1 … A_{n−1}`` and, for each
    holder i, its share sealed to it at position i − 1."""

    commitments: tuple[Point, ...]
    shares: tuple[bytes, ...]


# --- dealing ------------------------------------------------------------------------------


def deal(x: bytes, holder_box_keys: Sequence[bytes], game: str, seat: int) -> Escrow:
    """Split the seat secret ``x`` of ``seat`` in ``game`` (the genesis's ``game`` string)
    among the holders whose X25519 box keys (32 raw bytes each) are given in order."""
    check_scalar(x, "seat secret")
    keys = _holder_keys(holder_box_keys)
    game_id = _context(game, seat)
    n = len(keys)
    coefficients = [x] + [
        _nonzero_scalar(
            lambda attempt, k=k: derive(
                x, game_id, "escrow", frame(b"".join(keys), _be4(k), _be4(attempt)), length=64
            )
        )
        for k in range(1, n)
    ]
    commitments = tuple(group.mul_base(a) for a in coefficients[1:])
    aad = deal_aad(group.mul_base(x), commitments)
    shares = tuple(
        hpke.seal(
            keys[i - 1],
            _evaluate(coefficients, i),
            share_info(game, seat, i, n),
            aad,
            what=f"escrow share {i}",
        )
        for i in range(1, n + 1)
    )
    return Escrow(commitments, shares)


def _be4(number: int) -> bytes:
    return number.to_bytes(4, "big")


def _evaluate(coefficients: list[bytes], index: int) -> bytes:
    """``f(index)`` by Horner's rule, in Python integers mod L."""
    value = 0
    for a in reversed(coefficients):
        value = (value * index + int.from_bytes(a, "little")) % L
    return group.scalar_from_int(value)


def _holder_keys(holder_box_keys: Sequence[bytes]) -> list[bytes]:
    keys = list(holder_box_keys)
    if not 1 <= len(keys) <= MAX_HOLDERS:
        raise EscrowError(
            N_("an escrow needs 1 to {max_holders} holders, not {count}").format(
                max_holders=MAX_HOLDERS, count=len(keys)
            )
        )
    for i, key in enumerate(keys, 1):
        if not isinstance(key, bytes) or len(key) != hpke.BOX_KEY_BYTES:
            raise EscrowError(
                N_("escrow holder {i}: a box key is {BOX_KEY_BYTES} bytes").format(
                    i=i, BOX_KEY_BYTES=hpke.BOX_KEY_BYTES
                )
            )
    if len(set(keys)) != len(keys):
        raise EscrowError(N_("an escrow holder appears twice (it would hold two shares)"))
    return keys


def _context(game: str, seat: int) -> bytes:
    """The game id's bytes, after checking the game and the seat a context names."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= MAX_SEAT:
        raise EscrowError(
            N_("escrow seat must be an integer from 0 to {max_seat}").format(max_seat=MAX_SEAT)
        )
    return b64d(game, size=16, what="escrow game id")


def share_info(game: str, seat: int, index: int, holders: int) -> bytes:
    """The HPKE info of holder ``index``'s share: what it is and whose."""
    _context(game, seat)
    return _SHARE_INFO + canonical([game, seat, index, holders])


def deal_aad(deck_key: Point, commitments: Sequence[Point]) -> bytes:
    """The HPKE aad of every share of a deal: ``X ‖ A_1 ‖ … ‖ A_{n−1}``."""
    return deck_key + b"".join(commitments)


# --- checking -----------------------------------------------------------------------------


def check_commitments(
    deck_key: bytes, commitments: Sequence[bytes], holders: int
) -> tuple[Point, tuple[Point, ...]]:
    """``(X, (A_1, …))`` validated: every value a point of the group (not the identity),
    ``holders − 1`` commitments. Points already validated are not validated again."""
    return check_point(deck_key, "deck key"), _commitment_points(commitments, holders)


def _commitment_points(commitments: Sequence[bytes], holders: int) -> tuple[Point, ...]:
    if isinstance(holders, bool) or not isinstance(holders, int):
        raise EscrowError(N_("the number of escrow holders must be an integer"))
    if not 1 <= holders <= MAX_HOLDERS:
        raise EscrowError(
            N_("an escrow needs 1 to {max_holders} holders, not {holders}").format(
                max_holders=MAX_HOLDERS, holders=holders
            )
        )
    if len(commitments) != holders - 1:
        raise EscrowError(
            N_("an escrow for {holders} holders has {number} commitments, not {count}").format(
                holders=holders, number=holders - 1, count=len(commitments)
            )
        )
    return tuple(check_point(a, f"escrow commitment {k}") for k, a in enumerate(commitments, 1))


def check_share(index: int, share: bytes, deck_key: bytes, commitments: Sequence[bytes]) -> bool:
    """Whether ``share`` is holder ``index``'s value of the polynomial committed to by
    ``X = deck_key`` and ``commitments``: ``share·B = X + Σ_k index^k·A_k``. False only for a
    well-formed share that does not match; a malformed one, or index, raises ``EscrowError``."""
    X, points = check_commitments(deck_key, commitments, len(commitments) + 1)
    _check_index(index, len(points) + 1)
    check_scalar(share, f"escrow share {index}", nonzero=False)
    i = group.scalar_from_int(index)
    coefficients = (X, *points)
    expected = coefficients[-1]
    for a in reversed(coefficients[:-1]):  # Horner: (…(A_{n−1}·i + A_{n−2})·i + …)·i + X
        expected = group.add(group.mul(i, expected), a)
    return group.mul_base(share) == expected


def _check_index(index: int, holders: int) -> None:
    if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index <= holders:
        raise EscrowError(
            N_("an escrow holder index is an integer from 1 to {holders}").format(holders=holders)
        )


def open_share(
    identity: Identity, escrow: Escrow, deck_key: bytes, game: str, seat: int, index: int
) -> bytes:
    """Holder ``index``'s share of ``seat``'s escrow, decrypted by ``identity`` and checked
    against the commitments; ``EscrowError`` if it does not open or does not match (the
    holder then refuses the join)."""
    X, points = check_commitments(deck_key, escrow.commitments, len(escrow.shares))
    _check_index(index, len(escrow.shares))
    share = hpke.open(
        identity,
        escrow.shares[index - 1],
        share_info(game, seat, index, len(escrow.shares)),
        deal_aad(X, points),
        what=f"escrow share {index}",
    )
    if len(share) != SHARE_BYTES:
        raise EscrowError(
            N_("escrow share {index} holds {count} bytes, not {share_bytes}").format(
                index=index, count=len(share), share_bytes=SHARE_BYTES
            )
        )
    check_scalar(share, f"escrow share {index}", nonzero=False)
    if not check_share(index, share, X, points):
        raise EscrowError(
            N_("escrow share {index} does not match the seat's commitments").format(index=index)
        )
    return share


# --- opening ------------------------------------------------------------------------------


def combine(shares: Mapping[int, bytes], deck_key: bytes, commitments: Sequence[bytes]) -> bytes:
    """The seat secret ``x`` from every holder's decrypted share (by holder index), checked:
    ``x·B = X``. Refuses missing or unknown holders, and names the holders whose shares do
    not match the commitments."""
    X, points = check_commitments(deck_key, commitments, len(commitments) + 1)
    n = len(points) + 1
    unknown = sorted(str(i) for i in shares if i not in range(1, n + 1))
    if unknown:
        raise EscrowError(
            N_("escrow has holders 1 to {n}, not {items}").format(n=n, items=", ".join(unknown))
        )
    missing = [str(i) for i in range(1, n + 1) if i not in shares]
    if missing:
        raise EscrowError(
            N_(
                "escrow cannot be opened: the shares of holders {items} are missing "
                "(all {n} are needed)"
            ).format(items=", ".join(missing), n=n)
        )
    values = {i: check_scalar(shares[i], f"escrow share {i}", nonzero=False) for i in shares}
    total = 0
    for i, value in values.items():
        total += _lagrange_at_zero(i, n) * int.from_bytes(value, "little")
    x = group.scalar_from_int(total)
    if group.mul_base(x) == X:
        return x
    bad = [str(i) for i, value in values.items() if not check_share(i, value, X, points)]
    raise EscrowError(
        N_(
            "escrow does not open: the shares of holders {items} do not match "
            "the seat's commitments"
        ).format(items=", ".join(bad))
    )


def _lagrange_at_zero(index: int, holders: int) -> int:
    """``λ_index = Π_{j≠index} j / (j − index) mod L`` for holders 1 … n."""
    numerator, denominator = 1, 1
    for j in range(1, holders + 1):
        if j != index:
            numerator = numerator * j % L
            denominator = denominator * (j - index) % L
    return numerator * pow(denominator, -1, L) % L


# --- encodings ----------------------------------------------------------------------------


def encode_escrow(escrow: Escrow) -> dict[str, list[str]]:
    """The JSON of an escrow: ``{"commitments": [A_1, …], "shares": [sealed_1, …]}``,
    every value base64url without padding (43 characters a commitment, 107 a share)."""
    return {
        "commitments": [b64e(a) for a in escrow.commitments],
        "shares": [b64e(s) for s in escrow.shares],
    }


def decode_escrow(value: Any, holders: int) -> Escrow:
    """An ``Escrow`` from its JSON for ``holders`` holders, every value checked: the shape,
    the counts, canonical base64url of the exact length, commitments valid points."""
    if not isinstance(value, dict) or set(value) != {"commitments", "shares"}:
        raise EscrowError(N_("escrow must be an object with exactly 'commitments' and 'shares'"))
    commitments, shares = value["commitments"], value["shares"]
    if not isinstance(commitments, list) or not isinstance(shares, list):
        raise EscrowError(N_("escrow commitments and shares must be lists"))
    raw = [b64d(a, size=32, what=f"escrow commitment {k}") for k, a in enumerate(commitments, 1)]
    points = _commitment_points(raw, holders)
    if len(shares) != holders:
        raise EscrowError(
            N_("an escrow for {holders} holders has {holders} shares, not {count}").format(
                holders=holders, count=len(shares)
            )
        )
    sealed = tuple(
        b64d(s, size=SEALED_SHARE_BYTES, what=f"escrow share {i}") for i, s in enumerate(shares, 1)
    )
    return Escrow(points, sealed)


def encode_share(share: bytes) -> str:
    """A decrypted share as published when the escrow is opened: 43 characters."""
    return b64e(check_scalar(share, "escrow share", nonzero=False))


def decode_share(text: Any, what: str = "escrow share") -> bytes:
    """A published decrypted share: canonical base64url of a canonical 32-byte scalar."""
    return check_scalar(b64d(text, size=SHARE_BYTES, what=what), what, nonzero=False)
