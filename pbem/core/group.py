"""The ed25519 prime-order group, as sealed decks use it (DESIGN §7).

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
  which verification equations need (a challenge may be zero).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from nacl import bindings as nb

from pbem.core.errors import Rejected

POINT_BYTES = 32
SCALAR_BYTES = 32

#: The order of the prime-order subgroup (and of the base point).
L = 2**252 + 27742317777372353535851937790883648493

#: Encoding of the neutral element. Never valid as input: ``check_point`` rejects it.
IDENTITY = bytes([1]) + bytes(31)

ZERO = bytes(SCALAR_BYTES)
ONE = (1).to_bytes(SCALAR_BYTES, "little")

#: The standard ed25519 base point.
BASE = nb.crypto_scalarmult_ed25519_base_noclamp(ONE)


class DeckError(Rejected, ValueError):
    """A point, scalar, ciphertext or proof is malformed, or a deck audit failed.

    A ``ValueError`` for library callers, and a ``Rejected`` so that the CLI reports it as a
    refused file (exit code 1) with this message.
    """


def frame(*parts: bytes) -> bytes:
    """Length-prefixed concatenation, so that hash inputs split one way only."""
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def check_point(value: object, what: str = "point") -> bytes:
    """Return ``value`` if it is the canonical encoding of a non-identity element of the
    prime-order subgroup; else raise ``DeckError`` naming ``what``.

    libsodium's ``crypto_core_ed25519_is_valid_point`` checks the encoding is canonical,
    the point is on the curve, is not of small order (this includes the identity) and lies
    in the prime-order subgroup. Points of small or mixed order would let a cheater learn
    a secret modulo 8 or make two readers disagree, so they are refused everywhere.
    """
    if not isinstance(value, bytes):
        raise DeckError(f"{what} must be bytes, not {type(value).__name__}")
    if len(value) != POINT_BYTES:
        raise DeckError(f"{what} must be {POINT_BYTES} bytes, not {len(value)}")
    if not nb.crypto_core_ed25519_is_valid_point(value):
        raise DeckError(f"{what} is not a valid point of the ed25519 prime-order group")
    return value


def check_scalar(value: object, what: str = "scalar", *, nonzero: bool = True) -> bytes:
    """Return ``value`` if it is a canonical 32-byte scalar (below ``L``, and not zero when
    ``nonzero``); else raise ``DeckError``. Canonical only: ``s`` and ``s + L`` act the same
    on points, so accepting both would make proofs malleable."""
    if not isinstance(value, bytes):
        raise DeckError(f"{what} must be bytes, not {type(value).__name__}")
    if len(value) != SCALAR_BYTES:
        raise DeckError(f"{what} must be {SCALAR_BYTES} bytes, not {len(value)}")
    number = int.from_bytes(value, "little")
    if number >= L:
        raise DeckError(f"{what} is not a canonical scalar (not below the group order)")
    if nonzero and number == 0:
        raise DeckError(f"{what} must not be zero")
    return value


def reduce64(data: bytes) -> bytes:
    """A 64-byte string (a SHA-512 digest, an HKDF output) reduced mod ``L``: a scalar whose
    bias is about 2**-259, i.e. none."""
    return nb.crypto_core_ed25519_scalar_reduce(data)


def scalar_add(a: bytes, b: bytes) -> bytes:
    return nb.crypto_core_ed25519_scalar_add(a, b)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return nb.crypto_core_ed25519_scalar_mul(a, b)


def scalar_from_int(number: int) -> bytes:
    return (number % L).to_bytes(SCALAR_BYTES, "little")


def add(p: bytes, q: bytes) -> bytes:
    """``p + q`` for checked points (or the identity)."""
    return nb.crypto_core_ed25519_add(p, q)


def sub(p: bytes, q: bytes) -> bytes:
    """``p - q`` for checked points (or the identity)."""
    return nb.crypto_core_ed25519_sub(p, q)


def total(points: Iterable[bytes]) -> bytes:
    """The sum of checked points; the identity for none."""
    out = IDENTITY
    for point in points:
        out = add(out, point)
    return out


def mul(scalar: bytes, point: bytes) -> bytes:
    """``scalar * point`` for a canonical scalar and a checked point (or the identity)."""
    if scalar == ZERO or point == IDENTITY:
        return IDENTITY
    return nb.crypto_scalarmult_ed25519_noclamp(scalar, point)


def mul_base(scalar: bytes) -> bytes:
    """``scalar * BASE`` for a canonical scalar (faster than ``mul(scalar, BASE)``)."""
    if scalar == ZERO:
        return IDENTITY
    return nb.crypto_scalarmult_ed25519_base_noclamp(scalar)


def hash_to_point(domain: bytes, *parts: bytes) -> bytes:
    """A point nobody knows a discrete logarithm of: SHA-512 of the framed input, each half
    mapped with Elligator 2 (``crypto_core_ed25519_from_uniform``, which clears the
    cofactor) and the two images added, as RFC 9380's ``hash_to_curve`` does, so that the
    result is close to uniform in the group."""
    digest = hashlib.sha512(domain + frame(*parts)).digest()
    point = add(
        nb.crypto_core_ed25519_from_uniform(digest[:32]),
        nb.crypto_core_ed25519_from_uniform(digest[32:]),
    )
    if point == IDENTITY:  # probability about 2**-252; refuse rather than mis-encode
        raise DeckError("hash to point gave the identity; choose another id")
    return point
