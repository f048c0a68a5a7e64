"""The ed25519 prime-order group, as sealed decks use it (architecture §7).

A thin, checked layer over libsodium's group arithmetic (PyNaCl bindings). Points are the
32-byte canonical encodings of elements of the subgroup of prime order ``L``; scalars are
32-byte little-endian integers below ``L``. Nothing here is a new primitive: the point is
to validate every value that comes from outside, once, with one clear error, and to hide
libsodium's quirks from the deck code:

- ``crypto_core_ed25519_add``/``sub`` accept any point on the curve, even non-canonical
  encodings and points of small or mixed order, so every input must pass ``check_point``
  first;
- ``crypto_scalarmult_ed25519_noclamp`` refuses a zero scalar, the identity as input and an
  identity result; ``mul`` and ``mul_base`` return the identity for a zero scalar instead,
  which verification equations need (a challenge may be zero);
- ``crypto_scalarmult_ed25519_noclamp`` also checks its input point exactly as
  ``crypto_core_ed25519_is_valid_point`` does (documented: it fails for a point not on the
  curve, not in the main subgroup, of small order or not canonical), and that check is
  about half its cost. ``mul_checked`` uses it as the validation of a received point that is
  multiplied anyway, so validating it costs nothing more.

A ``Point`` is bytes known to be a valid encoding: it is made only by ``check_point`` (which
validates), by ``mul_checked`` (whose multiplication validates) or by this module's
arithmetic on Points, which the group law keeps in the subgroup. ``check_point`` returns a
Point unchanged without validating it again, and the arithmetic refuses anything that is
not a Point, so a value can never be trusted because it *looks* like one that was checked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from nacl import bindings as nb

from pbem.format.errors import Rejected
from pbem.format.i18n import N_

POINT_BYTES = 32
SCALAR_BYTES = 32

#: The order of the prime-order subgroup (and of the base point).
L = 2**252 + 27742317777372353535851937790883648493


class Point(bytes):
    """The canonical encoding of an element of the prime-order subgroup, known to be one.

    Never built from bytes directly (that raises ``TypeError``): ``check_point`` validates,
    ``mul_checked`` validates by multiplying, and ``add``/``sub``/``mul``/``mul_base``/
    ``hash_to_point`` compute one from Points. A slice of a Point is plain bytes again.
    Copies are the same object; unpickling validates afresh.
    """

    __slots__ = ()

    def __new__(cls, *_args: object) -> Point:
        raise TypeError("a Point is made by check_point or by group arithmetic, not from bytes")

    def __copy__(self) -> Point:
        return self

    def __deepcopy__(self, memo: object) -> Point:
        return self

    def __reduce__(self) -> tuple[object, tuple[bytes]]:
        return (check_point, (bytes(self),))


def _point(raw: bytes) -> Point:
    """Wrap bytes that libsodium computed from Points, or that were just validated."""
    return bytes.__new__(Point, raw)


def stored_point(raw: bytes) -> Point:
    """A Point read back from the player's own store (a checkpoint), which holds only
    points that were validated before they were written: the store is trusted as git
    trusts its objects, and only for the exact step it was made at. Never for bytes that
    arrive from outside: those go through ``check_point``."""
    if not isinstance(raw, bytes) or len(raw) != POINT_BYTES:
        raise DeckError(N_("a stored point must be 32 bytes"))
    return _point(raw)


#: Encoding of the neutral element. Never valid as input: ``check_point`` rejects it.
IDENTITY = _point(bytes([1]) + bytes(31))

ZERO = bytes(SCALAR_BYTES)
ONE = (1).to_bytes(SCALAR_BYTES, "little")

#: The standard ed25519 base point.
BASE = _point(nb.crypto_scalarmult_ed25519_base_noclamp(ONE))

_INVALID = N_("{what} is not a valid point of the ed25519 prime-order group")


class DeckError(Rejected, ValueError):
    """A point, scalar, ciphertext or proof is malformed, or a deck audit failed.

    A ``ValueError`` for library callers, and a ``Rejected`` so that the CLI reports it as a
    refused file (exit code 1) with this message.
    """


def frame(*parts: bytes) -> bytes:
    """Length-prefixed concatenation, so that hash inputs split one way only."""
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def check_point(value: object, what: str = "point") -> Point:
    """Return ``value`` as a ``Point`` if it is the canonical encoding of a non-identity
    element of the prime-order subgroup; else raise ``DeckError`` naming ``what``. A Point
    is returned as it is (it was validated when it was made), unless it is the identity.

    libsodium's ``crypto_core_ed25519_is_valid_point`` checks the encoding is canonical,
    the point is on the curve, is not of small order (this includes the identity) and lies
    in the prime-order subgroup. Points of small or mixed order would let a cheater learn
    a secret modulo 8 or make two readers disagree, so they are refused everywhere.
    """
    if isinstance(value, Point):
        if value == IDENTITY:
            raise DeckError(_INVALID.format(what=what))
        return value
    _check_length(value, what)
    if not nb.crypto_core_ed25519_is_valid_point(value):
        raise DeckError(_INVALID.format(what=what))
    return _point(value)


def _check_length(value: object, what: str) -> None:
    if not isinstance(value, bytes):
        raise DeckError(
            N_("{what} must be bytes, not {kind}").format(what=what, kind=type(value).__name__)
        )
    if len(value) != POINT_BYTES:
        raise DeckError(
            N_("{what} must be {point_bytes} bytes, not {count}").format(
                what=what, point_bytes=POINT_BYTES, count=len(value)
            )
        )


def _require(*points: object) -> None:
    for point in points:
        if not isinstance(point, Point):
            raise TypeError("group arithmetic takes Points (check_point validates bytes)")


def check_scalar(value: object, what: str = "scalar", *, nonzero: bool = True) -> bytes:
    """Return ``value`` if it is a canonical 32-byte scalar (below ``L``, and not zero when
    ``nonzero``); else raise ``DeckError``. Canonical only: ``s`` and ``s + L`` act the same
    on points, so accepting both would make proofs malleable."""
    if not isinstance(value, bytes):
        raise DeckError(
            N_("{what} must be bytes, not {kind}").format(what=what, kind=type(value).__name__)
        )
    if len(value) != SCALAR_BYTES:
        raise DeckError(
            N_("{what} must be {scalar_bytes} bytes, not {count}").format(
                what=what, scalar_bytes=SCALAR_BYTES, count=len(value)
            )
        )
    number = int.from_bytes(value, "little")
    if number >= L:
        raise DeckError(
            N_("{what} is not a canonical scalar (not below the group order)").format(what=what)
        )
    if nonzero and number == 0:
        raise DeckError(N_("{what} must not be zero").format(what=what))
    return value


def reduce64(data: bytes) -> bytes:
    """A 64-byte string (a SHA-512 digest, an HKDF output) reduced mod ``L``: a scalar whose
    bias is about 2**-259, i.e. none. (Python's integers do it faster than the binding.)"""
    if len(data) != 64:
        raise DeckError(N_("reduce64 takes 64 bytes"))
    return (int.from_bytes(data, "little") % L).to_bytes(SCALAR_BYTES, "little")


def scalar_add(a: bytes, b: bytes) -> bytes:
    """``a + b mod L`` (Python's integers: exact, and faster than the binding's call)."""
    return scalar_from_int(int.from_bytes(a, "little") + int.from_bytes(b, "little"))


def scalar_mul(a: bytes, b: bytes) -> bytes:
    """``a · b mod L``."""
    return scalar_from_int(int.from_bytes(a, "little") * int.from_bytes(b, "little"))


def scalar_from_int(number: int) -> bytes:
    return (number % L).to_bytes(SCALAR_BYTES, "little")


def add(p: Point, q: Point) -> Point:
    """``p + q`` for Points (libsodium's addition accepts any curve point, so only Points)."""
    _require(p, q)
    return _point(nb.crypto_core_ed25519_add(p, q))


def sub(p: Point, q: Point) -> Point:
    """``p - q`` for Points."""
    _require(p, q)
    return _point(nb.crypto_core_ed25519_sub(p, q))


def total(points: Iterable[Point]) -> Point:
    """The sum of Points; the identity for none."""
    out = IDENTITY
    for point in points:
        out = add(out, point)
    return out


def mul(scalar: bytes, point: Point) -> Point:
    """``scalar * point`` for a canonical scalar and a Point (or the identity)."""
    _require(point)
    if scalar == ZERO or point == IDENTITY:
        return IDENTITY
    return _point(nb.crypto_scalarmult_ed25519_noclamp(scalar, point))


def mul_checked(scalar: bytes, value: object, what: str = "point") -> tuple[Point, Point]:
    """``(point, scalar * point)`` for a received value not yet validated: libsodium's
    multiplication refuses any encoding that ``check_point`` would refuse (see the module
    docstring), so the product doubles as the validation. A zero scalar, which libsodium
    refuses, falls back to ``check_point``. ``scalar`` must be canonical: for a canonical
    non-zero scalar and a valid point the product is never the identity, so a failure can
    only mean an invalid point."""
    if isinstance(value, Point) or scalar == ZERO:
        point = check_point(value, what)
        return point, mul(scalar, point)
    _check_length(value, what)
    try:
        product = nb.crypto_scalarmult_ed25519_noclamp(scalar, value)
    except RuntimeError:
        raise DeckError(_INVALID.format(what=what)) from None
    return _point(value), _point(product)


def mul_base(scalar: bytes) -> Point:
    """``scalar * BASE`` for a canonical scalar (faster than ``mul(scalar, BASE)``)."""
    if scalar == ZERO:
        return IDENTITY
    return _point(nb.crypto_scalarmult_ed25519_base_noclamp(scalar))


def hash_to_point(domain: bytes, *parts: bytes) -> Point:
    """A point nobody knows a discrete logarithm of: SHA-512 of the framed input, each half
    mapped with Elligator 2 (``crypto_core_ed25519_from_uniform``, which clears the
    cofactor) and the two images added, as RFC 9380's ``hash_to_curve`` does, so that the
    result is close to uniform in the group."""
    digest = hashlib.sha512(domain + frame(*parts)).digest()
    point = add(  # from_uniform's result is in the main subgroup (documented)
        _point(nb.crypto_core_ed25519_from_uniform(digest[:32])),
        _point(nb.crypto_core_ed25519_from_uniform(digest[32:])),
    )
    if point == IDENTITY:  # probability about 2**-252; refuse rather than mis-encode
        raise DeckError(N_("hash to point gave the identity; choose another id"))
    return point
