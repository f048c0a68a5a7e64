"""Cost of the sealed-deck primitives, as multiples of one scalar multiplication.

Run: ``python benchmarks/deck.py``. Times are the median of several repeats; each is also
given as a ratio to ``crypto_scalarmult_ed25519_noclamp`` measured in the same run, which is
what to compare across machines, and, where a goal sets one, to its *floor*: the group
operations the computation cannot avoid, timed with PyNaCl in the same run. Nothing here
asserts a time. Goals (issues 13 and 15): one seat's 65-item shuffle ≤ 110× a scalar
multiplication; share creation and checking ≤ 1.2× their floors; the shuffle proof ≤ 12
(proving) and ≤ 14 (checking) scalar multiplications an item, ≤ 180 bytes an item in the
file.

The last rows measure a Straus multi-scalar multiplication built from
``crypto_core_ed25519_add`` (libsodium has none): it shows why the deck code multiplies
point by point instead.
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
from pbem.core import group, shuffleproof
from pbem.core.canonical import b64e
from pbem.core.tabletop import encode_deck

DECK_SIZE = 65  # the Africanus rat tokens, the largest deck the games seal
SEATS = 4
CONTEXT = b"bench context"


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


def straus(scalars: list[bytes], points: list[bytes], window: int = 4) -> bytes:
    """``Σ scalars[k]·points[k]`` by Straus's interleaved fixed windows, every doubling and
    addition one ``crypto_core_ed25519_add`` (each decodes two points and encodes one)."""
    add = nb.crypto_core_ed25519_add
    tables = []
    for point in points:
        row = [group.IDENTITY, point]
        for _ in range(2, 1 << window):
            row.append(add(row[-1], point))
        tables.append(row)
    digits = [int.from_bytes(s, "little") for s in scalars]
    acc = group.IDENTITY
    for shift in range(256 - window, -1, -window):
        for _ in range(window):
            acc = add(acc, acc)
        for row, d in zip(tables, digits, strict=True):
            digit = (d >> shift) & ((1 << window) - 1)
            if digit:
                acc = add(acc, row[digit])
    return acc


def main() -> None:
    game = bytes(16)
    secrets = [dk.deck_secret(hashlib.sha256(b"bench %d" % i).digest(), game) for i in range(SEATS)]
    pubs = [dk.public_key(x) for x in secrets]
    jk = dk.joint_key(pubs)
    items = [f"item-{n}" for n in range(DECK_SIZE)]
    deck = dk.seal("bench", items, jk)
    witness = dk.shuffle_witness(secrets[0], "bench", "p0", DECK_SIZE)
    after = dk.reencrypt(deck, jk, witness)
    ct = after[0]
    point, proof = dk.share(ct, secrets[1], b"ctx")
    scalar = secrets[0]

    raw = bytes(ct.c1)
    baseline = per_call(lambda: nb.crypto_scalarmult_ed25519_noclamp(scalar, raw), 500)
    base = per_call(lambda: nb.crypto_scalarmult_ed25519_base_noclamp(scalar), 1000)
    add = per_call(lambda: nb.crypto_core_ed25519_add(raw, jk), 1000)
    valid = per_call(lambda: nb.crypto_core_ed25519_is_valid_point(raw), 1000)

    shuffle_floor = DECK_SIZE * (base + baseline + 2 * add)
    share_floor = 2 * baseline + base
    check_floor = 3 * baseline + base + 2 * add

    cold_start = time.perf_counter()
    shuffleproof._generators.clear()
    del shuffleproof._sums[1:]
    shuffleproof.generators(DECK_SIZE)
    generators = time.perf_counter() - cold_start
    the_proof = shuffleproof.prove(deck, after, jk, witness, CONTEXT)
    proof_text = b64e(the_proof)
    deck_text = encode_deck(after)

    msm_points = [c.c2 for c in after]
    msm_scalars = [group.reduce64(hashlib.sha512(b"%d" % k).digest()) for k in range(DECK_SIZE)]
    expected = group.total(group.mul(s, p) for s, p in zip(msm_scalars, msm_points, strict=True))
    assert straus(msm_scalars, msm_points) == expected

    rows: list[tuple[str, float, float | None]] = [
        ("scalarmult_ed25519_noclamp (baseline)", baseline, None),
        ("scalarmult_ed25519_base_noclamp", base, None),
        ("core_ed25519_add", add, None),
        ("core_ed25519_is_valid_point", valid, None),
        (
            f"shuffle pass, {DECK_SIZE} items (no proof)",
            per_call(lambda: dk.shuffle(deck, jk, secrets[0], "bench", "p0"), 5),
            shuffle_floor,
        ),
        ("  its floor: per item base + mult + 2 adds", shuffle_floor, None),
        (
            "share + Chaum-Pedersen proof",
            per_call(lambda: dk.share(ct, secrets[1], b"ctx", pubs[1]), 200),
            share_floor,
        ),
        ("  its floor: 2 mults + 1 base", share_floor, None),
        (
            "verify_share",
            per_call(lambda: dk.verify_share(ct, pubs[1], point, proof, b"ctx"), 200),
            check_floor,
        ),
        ("  its floor: 3 mults + 1 base + 2 adds", check_floor, None),
        (
            f"prove shuffle, {DECK_SIZE} items",
            per_call(lambda: shuffleproof.prove(deck, after, jk, witness, CONTEXT), 3),
            None,
        ),
        (
            f"check shuffle proof, {DECK_SIZE} items",
            per_call(lambda: shuffleproof.check(deck, after, jk, the_proof, CONTEXT), 3),
            None,
        ),
        (f"generators for {DECK_SIZE} items (once a process)", generators, None),
        (
            f"audit re-run (check_shuffle), {DECK_SIZE} items",
            per_call(lambda: dk.check_shuffle(deck, after, jk, secrets[0], "bench", "p0"), 5),
            None,
        ),
        (
            f"MSM Straus w=4 by adds, {DECK_SIZE} points",
            per_call(lambda: straus(msm_scalars, msm_points), 1, repeat=3),
            None,
        ),
        (
            f"MSM point by point, {DECK_SIZE} points",
            per_call(
                lambda: group.total(
                    group.mul(s, p) for s, p in zip(msm_scalars, msm_points, strict=True)
                ),
                5,
            ),
            None,
        ),
    ]
    print(f"{'operation':<48} {'time':>12} {'x baseline':>11} {'/item':>7} {'x floor':>8}")
    for name, seconds, floor in rows:
        per_item = f"{seconds / baseline / DECK_SIZE:7.2f}" if f"{DECK_SIZE} " in name else ""
        vs_floor = f"{seconds / floor:8.2f}" if floor else ""
        print(
            f"{name:<48} {seconds * 1e6:>9.0f} µs {seconds / baseline:>11.1f} {per_item:>7}"
            f" {vs_floor:>8}"
        )
    proof_chars = len(proof_text)
    deck_chars = sum(len(c) for pair in deck_text for c in pair)
    print(
        f"\nproof of a {DECK_SIZE}-item pass: {len(the_proof)} bytes, {proof_chars} characters "
        f"base64url = {proof_chars / DECK_SIZE:.1f} per item in the file "
        f"(the ciphertexts: {deck_chars / DECK_SIZE:.1f} per item)"
    )
    print(
        "validations of points already validated, in a shuffle pass: 0 "
        "(Ciphertexts and Points are never validated again)"
    )


if __name__ == "__main__":
    main()
