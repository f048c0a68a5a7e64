"""Cost of the sealed-deck primitives, as multiples of one scalar multiplication.

Run: ``python benchmarks/deck.py``. Times are the median of several repeats; each is also
given as a ratio to ``crypto_scalarmult_ed25519_noclamp`` measured in the same run, which is
what to compare across machines. Nothing here asserts a time.
"""

from __future__ import annotations

import hashlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nacl import bindings as nb

from pbem.core import deck as dk

DECK_SIZE = 65  # the Africanus rat tokens, the largest deck the games seal
SEATS = 4


def per_call(fn: Callable[[], object], number: int, repeat: int = 7) -> float:
    """Median seconds per call over ``repeat`` runs of ``number`` calls."""
    fn()  # warm up
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - start) / number)
    return statistics.median(runs)


def main() -> None:
    game = bytes(16)
    secrets = [dk.deck_secret(hashlib.sha256(b"bench %d" % i).digest(), game) for i in range(SEATS)]
    pubs = [dk.public_key(x) for x in secrets]
    jk = dk.joint_key(pubs)
    items = [f"item-{n}" for n in range(DECK_SIZE)]
    deck = dk.seal("bench", items, jk)
    after = dk.shuffle(deck, jk, secrets[0], "bench", "p0")
    ct = after[0]
    point, proof = dk.share(ct, secrets[1], b"ctx")

    baseline = per_call(lambda: nb.crypto_scalarmult_ed25519_noclamp(secrets[0], ct.c1), 500)
    rows = [
        ("scalarmult_ed25519_noclamp (baseline)", baseline),
        (
            f"shuffle pass, {DECK_SIZE} items",
            per_call(lambda: dk.shuffle(deck, jk, secrets[0], "bench", "p0"), 5),
        ),
        ("share + Chaum-Pedersen proof", per_call(lambda: dk.share(ct, secrets[1], b"ctx"), 200)),
        (
            "verify_share",
            per_call(lambda: dk.verify_share(ct, pubs[1], point, proof, b"ctx"), 200),
        ),
        (
            f"check_shuffle, {DECK_SIZE} items",
            per_call(lambda: dk.check_shuffle(deck, after, jk, secrets[0], "bench", "p0"), 5),
        ),
    ]
    print(f"{'operation':<40} {'time':>12} {'x baseline':>11}")
    for name, seconds in rows:
        print(f"{name:<40} {seconds * 1e6:>9.0f} µs {seconds / baseline:>11.1f}")


if __name__ == "__main__":
    main()
