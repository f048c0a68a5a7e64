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

``python benchmarks/deck.py --games`` also plays one Africanus game for each of 2 to 6
seats through the engine (``pbem selfplay``: every step verified by a recipient, the file
once more from the genesis) and prints the share of its time and bytes that the shuffle
proofs take.
"""

from __future__ import annotations

import hashlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nacl import bindings as nb

from pbem.crypto import deck as dk
from pbem.crypto import group, passes, shuffleproof
from pbem.format import gamefile
from pbem.format.canonical import b64e
from pbem.ledger.tabletop import decode_deck, encode_deck
from pbem.play.selfplay import play_game
from pbem.ruleset import registry

DECK_SIZE = 65  # the Africanus rat tokens, the largest deck the games seal
SEATS = 4
CONTEXT = b"bench context"


def timed(fn: Callable[[], object], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


class Bench:
    """Times operations against the baseline, each repeat of an operation right next to a
    repeat of the baseline, so that a machine shared with other work (load changing during
    the run) moves both alike; reports median seconds and the median of the ratios."""

    def __init__(self, baseline: Callable[[], object], repeat: int = 7) -> None:
        self.baseline, self.repeat = baseline, repeat
        self.base_seconds = statistics.median(timed(baseline, 200) for _ in range(repeat))

    def __call__(self, fn: Callable[[], object], number: int) -> tuple[float, float]:
        fn()  # warm up
        base_number = max(20, int(number * timed(fn, 1) / self.base_seconds))
        seconds, ratios = [], []
        for _ in range(self.repeat):
            base = timed(self.baseline, base_number)
            took = timed(fn, number)
            seconds.append(took)
            ratios.append(took / base)
        return statistics.median(seconds), statistics.median(ratios)


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


class Counted:
    """Wraps a function of a module, counting calls and the seconds spent in them."""

    def __init__(self, module: object, name: str) -> None:
        self.module, self.name, self.real = module, name, getattr(module, name)
        self.calls, self.seconds = 0, 0.0

    def __enter__(self) -> Counted:
        def counted(*args: object) -> object:
            start = time.perf_counter()
            try:
                return self.real(*args)
            finally:
                self.calls += 1
                self.seconds += time.perf_counter() - start

        setattr(self.module, self.name, counted)
        return self

    def __exit__(self, *exc: object) -> None:
        setattr(self.module, self.name, self.real)


def validations(fn: Callable[[], object]) -> int:
    """How many times ``fn`` asks libsodium whether a point is valid."""
    with Counted(nb, "crypto_core_ed25519_is_valid_point") as counter:
        fn()
    return counter.calls


def games() -> None:
    """One Africanus game per seat count, and what its shuffle proofs cost in it."""
    rules = registry.get("rattus")
    options = rules.parse_options({"africanus": "on"})
    print(
        f"\n{'Africanus':<10} {'steps':>6} {'proofs':>7} {'game s':>8} {'proving %':>10}"
        f" {'checking %':>11} {'proof bytes %':>14}"
    )
    for seats in range(2, 7):
        with (
            tempfile.TemporaryDirectory() as out,
            Counted(shuffleproof, "prove") as prove,
            Counted(shuffleproof, "check") as check,
        ):
            start = time.perf_counter()
            report = play_game(rules, seats, 1, options, ["greedy", "random"], Path(out))
            elapsed = time.perf_counter() - start
            assert report.path is not None
            text = report.path.read_text()
        game = gamefile.decode(text)
        proofs = sum(
            len(p)
            for s in game.steps
            if getattr(s, "kind", "") == "shuffle"
            for p in s.body["proofs"].values()
        )
        print(
            f"{seats} seats    {report.steps:>6} {prove.calls:>7} {elapsed:>8.1f}"
            f" {100 * prove.seconds / elapsed:>10.1f} {100 * check.seconds / elapsed:>11.1f}"
            f" {100 * proofs / len(text):>14.1f}"
        )


def main() -> None:
    game = bytes(16)
    secrets = [dk.deck_secret(hashlib.sha256(b"bench %d" % i).digest(), game) for i in range(SEATS)]
    pubs = [dk.public_key(x) for x in secrets]
    jk = dk.joint_key(pubs)
    items = [f"item-{n}" for n in range(DECK_SIZE)]
    deck = dk.seal("bench", items, jk)
    witness = passes.shuffle_witness(secrets[0], "bench", "p0", DECK_SIZE)
    after = passes.reencrypt(deck, jk, witness)
    ct = after[0]
    point, proof = dk.share(ct, secrets[1], b"ctx")
    scalar, raw = secrets[0], bytes(ct.c1)

    bench = Bench(lambda: nb.crypto_scalarmult_ed25519_noclamp(scalar, raw))
    base = bench(lambda: nb.crypto_scalarmult_ed25519_base_noclamp(scalar), 1000)
    add = bench(lambda: nb.crypto_core_ed25519_add(raw, jk), 1000)
    valid = bench(lambda: nb.crypto_core_ed25519_is_valid_point(raw), 1000)

    def floor(mults: int, bases: int, adds: int) -> tuple[float, float]:
        """Seconds and ratio of the group operations a computation cannot avoid."""
        return (
            mults * bench.base_seconds + bases * base[0] + adds * add[0],
            mults + bases * base[1] + adds * add[1],
        )

    shuffle_floor = floor(DECK_SIZE, DECK_SIZE, 2 * DECK_SIZE)
    share_floor = floor(2, 1, 0)
    check_floor = floor(3, 1, 2)

    cold_start = time.perf_counter()
    shuffleproof._generators.clear()
    del shuffleproof._sums[1:]
    shuffleproof.generators(DECK_SIZE)
    cold = time.perf_counter() - cold_start
    generators = (cold, cold / bench.base_seconds)
    the_proof = shuffleproof.prove(deck, after, jk, witness, CONTEXT)

    msm_points = [c.c2 for c in after]
    msm_scalars = [group.reduce64(hashlib.sha512(b"%d" % k).digest()) for k in range(DECK_SIZE)]
    expected = group.total(group.mul(s, p) for s, p in zip(msm_scalars, msm_points, strict=True))
    assert straus(msm_scalars, msm_points) == expected

    def pointwise() -> bytes:
        return group.total(group.mul(s, p) for s, p in zip(msm_scalars, msm_points, strict=True))

    shuffle = bench(lambda: passes.shuffle(deck, jk, secrets[0], "bench", "p0"), 5)
    share = bench(lambda: dk.share(ct, secrets[1], b"ctx", pubs[1]), 200)
    check = bench(lambda: dk.verify_share(ct, pubs[1], point, proof, b"ctx"), 200)
    rows: list[tuple[str, tuple[float, float], tuple[float, float] | None]] = [
        ("scalarmult_ed25519_noclamp (baseline)", (bench.base_seconds, 1.0), None),
        ("scalarmult_ed25519_base_noclamp", base, None),
        ("core_ed25519_add", add, None),
        ("core_ed25519_is_valid_point", valid, None),
        (f"shuffle pass, {DECK_SIZE} items (no proof; goal 110)", shuffle, shuffle_floor),
        ("  its floor: per item base + mult + 2 adds", shuffle_floor, None),
        ("share + Chaum-Pedersen proof (goal 1.2 floor)", share, share_floor),
        ("  its floor: 2 mults + 1 base", share_floor, None),
        ("verify_share (goal 1.2 floor)", check, check_floor),
        ("  its floor: 3 mults + 1 base + 2 adds", check_floor, None),
        (
            f"prove shuffle, {DECK_SIZE} items (goal 12/item)",
            bench(lambda: shuffleproof.prove(deck, after, jk, witness, CONTEXT), 3),
            None,
        ),
        (
            f"check shuffle proof, {DECK_SIZE} items (goal 14/item)",
            bench(lambda: shuffleproof.check(deck, after, jk, the_proof, CONTEXT), 3),
            None,
        ),
        (f"generators for {DECK_SIZE} items (once a process)", generators, None),
        (
            f"audit re-run (check_shuffle), {DECK_SIZE} items",
            bench(lambda: passes.check_shuffle(deck, after, jk, secrets[0], "bench", "p0"), 5),
            None,
        ),
        (
            f"MSM Straus w=4 by adds, {DECK_SIZE} points",
            bench(lambda: straus(msm_scalars, msm_points), 1),
            None,
        ),
        (f"MSM point by point, {DECK_SIZE} points", bench(pointwise, 5), None),
    ]
    print(f"{'operation':<52} {'time':>12} {'x baseline':>11} {'/item':>7} {'x floor':>8}")
    for name, (seconds, ratio), its_floor in rows:
        per_item = f"{ratio / DECK_SIZE:7.2f}" if f"{DECK_SIZE} " in name else ""
        vs_floor = f"{ratio / its_floor[1]:8.2f}" if its_floor else ""
        print(f"{name:<52} {seconds * 1e6:>9.0f} µs {ratio:>11.1f} {per_item:>7} {vs_floor:>8}")
    proof_chars = len(b64e(the_proof))
    encoded = encode_deck(after)
    deck_chars = sum(len(c) for pair in encoded for c in pair)
    print(
        f"\nproof of a {DECK_SIZE}-item pass: {len(the_proof)} bytes, {proof_chars} characters "
        f"base64url = {proof_chars / DECK_SIZE:.1f} per item in the file (goal 180; "
        f"the ciphertexts: {deck_chars / DECK_SIZE:.1f} per item)"
    )
    print(
        "is_valid_point calls: shuffle pass "
        f"{validations(lambda: passes.shuffle(deck, jk, secrets[0], 'bench', 'p0'))}, proof check "
        f"{validations(lambda: shuffleproof.check(deck, after, jk, the_proof, CONTEXT))} "
        "(its new points are validated by the multiplications it makes), decoding the "
        f"output {validations(lambda: decode_deck(encoded, DECK_SIZE, 'deck'))} (once each)"
    )
    if "--games" in sys.argv[1:]:
        games()


if __name__ == "__main__":
    main()
