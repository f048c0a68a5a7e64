"""Cost of escrowing a seat secret (``pbem.crypto.escrow``), as multiples of one scalar
multiplication.

Run: ``python benchmarks/escrow.py``. For 2 to 5 holders: dealing (derive the polynomial,
commit, seal every share with HPKE), one holder's opening of its share (HPKE open and the
check against the commitments), checking one published share, and combining all shares
(Lagrange interpolation and the check ``x·B = X``). Each time is the median of several
repeats, and also given as the median ratio to ``crypto_scalarmult_ed25519_noclamp`` timed
right next to it in the same run (``Bench`` from ``deck.py``), which is what to compare
across machines. Nothing here asserts a time.

What to expect: a deal costs n − 1 base multiplications for the commitments, one for X, and
n HPKE seals (two X25519 operations each); checking a share costs n − 1 multiplications by
the small index and one base multiplication; a holder's opening adds one X25519 operation.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deck import Bench  # benchmarks/deck.py, beside this file
from nacl import bindings as nb

from pbem.crypto import deck as dk
from pbem.crypto import escrow
from pbem.crypto.keys import Identity
from pbem.format.canonical import b64e

GAME_ID = bytes(range(16))
GAME = b64e(GAME_ID)


def operations(n: int, secret: bytes, key: bytes) -> dict[str, Callable[[], object]]:
    """The four timed operations for ``n`` holders, on one deal made beforehand."""
    people = [Identity(bytes([10 + i]) * 32, f"h{i}", "h@example.org") for i in range(n)]
    keys = [p.card.box_key_bytes for p in people]
    dealt = escrow.deal(secret, keys, GAME, 0)
    shares = {i: escrow.open_share(p, dealt, key, GAME, 0, i) for i, p in enumerate(people, 1)}
    return {
        "deal (commit, seal n shares)": lambda: escrow.deal(secret, keys, GAME, 0),
        "open one share (holder)": lambda: escrow.open_share(people[-1], dealt, key, GAME, 0, n),
        "check one published share": lambda: escrow.check_share(
            n, shares[n], key, dealt.commitments
        ),
        "combine all n shares": lambda: escrow.combine(shares, key, dealt.commitments),
    }


def main() -> None:
    secret = dk.deck_secret(b"\1" * 32, GAME_ID)
    key = dk.public_key(secret)
    scalar = dk.deck_secret(b"\2" * 32, GAME_ID)
    raw = bytes(key)
    bench = Bench(lambda: nb.crypto_scalarmult_ed25519_noclamp(scalar, raw))
    print(f"one scalar multiplication (baseline): {bench.base_seconds * 1e6:.0f} µs")
    print(f"{'holders':>7}  {'operation':<30} {'time':>10} {'x baseline':>11}")
    for n in range(2, 6):
        for name, operation in operations(n, secret, key).items():
            seconds, ratio = bench(operation, 50)
            print(f"{n:>7}  {name:<30} {seconds * 1e6:>7.0f} µs {ratio:>11.1f}")


if __name__ == "__main__":
    main()
