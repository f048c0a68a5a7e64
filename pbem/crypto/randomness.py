"""Deterministic draw streams and the hash-chain beacon (architecture §5).

A draw value (32 bytes) is fixed by signed steps; ``Rng`` expands it with counter-mode
SHA-256 and draws integers by rejection sampling, so every verifier derives the same draws
and no draw is biased. Python's ``random`` is never used for game randomness.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

CHAIN_DOMAIN = b"pbem/1/chain\0"
DRAW_DOMAIN = b"pbem/1/draw\0"


class Rng:
    """A stream of uniform draws from a 32-byte seed."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha256(
                b"pbem/1/stream\0" + self._seed + self._counter.to_bytes(8, "big")
            ).digest()
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection sampling over 64-bit words."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = int.from_bytes(self._bytes(8), "big")
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A uniformly permuted copy (Fisher–Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def fork(self, label: str) -> Rng:
        """An independent stream for a named purpose (e.g. one per bot)."""
        return Rng(hashlib.sha256(b"pbem/1/fork\0" + self._seed + label.encode()).digest())


def chain_step(value: bytes) -> bytes:
    """One link of a beacon hash chain: ``H(domain || value)``."""
    return hashlib.sha256(CHAIN_DOMAIN + value).digest()


def chain(seed: bytes, length: int) -> list[bytes]:
    """The whole chain, head first: ``[H^n(seed), H^(n-1)(seed), ..., H(seed)]``.

    Index k is the preimage revealed in a seat's k-th signed entry (index 0 is the head
    published when it joins), so ``chain_step(c[k]) == c[k-1]``.
    """
    domain = hashlib.sha256(CHAIN_DOMAIN)  # each link copies the hashed domain: half the cost
    value = chain_step(seed)
    values = [value]
    for _ in range(length - 1):
        h = domain.copy()
        h.update(value)
        value = h.digest()
        values.append(value)
    values.reverse()
    return values


def draw_value(*parts: bytes) -> bytes:
    """The 32-byte value a draw is made from: SHA-256 over length-prefixed parts."""
    digest = hashlib.sha256(DRAW_DOMAIN)
    for part in parts:
        digest.update(len(part).to_bytes(4, "big") + part)
    return digest.digest()
