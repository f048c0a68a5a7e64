"""How close ``pbem verify`` comes to its cryptographic floor, on a long game and on Africanus.

1. The 2,000-step ``guess`` game: a 2-seat game of the test ruleset with at least 2,000 steps
   (every step signed by the seat's own identity, sealed guesses, beacons). The baseline is
   raw Ed25519 verification of the very (key, signature, message) triples the file holds,
   recorded while verifying it once. Timed with ``time.process_time``, runs interleaved,
   min and median printed:
   - in-process: decode + ``replay_file`` (what ``pbem verify`` does after reading the
     file) ÷ the raw verifications;
   - whole processes: ``pbem verify FILE`` ÷ a ``python`` process that loads the triples and
     verifies them (CPU time of the children), and ÷ the in-process raw verifications.
2. A 6-player Africanus game (``examples/rattus-africanus/game.json`` if it verifies on this
   branch, else ``pbem selfplay rattus --players 6 --option africanus=on --seed 6`` into a
   temporary directory): in-process verify ÷ its crypto floor, i.e. raw Ed25519 of its
   signatures plus the scalar multiplications that checking its decryption-share proofs
   (3 multiplications and 1 base multiplication each) and its end-of-game shuffle audit
   (per pass 1 base multiplication for the key, per item 1 base and 1 general
   multiplication and 2 additions) need, all performed with PyNaCl in the same run. A second
   floor also counts the multiplications the shuffle proofs checked on arrival make.

Nothing here asserts a time. Run: ``.venv/bin/python benchmarks/verify.py [rounds] [runs]``.
"""

from __future__ import annotations

import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import nacl.bindings as nb
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from pbem.crypto import deck, passes, shuffleproof
from pbem.crypto.randomness import Rng
from pbem.format import gamefile
from pbem.ledger import position
from pbem.ledger.replay import replay_file
from pbem.play.author import act, automatic, new_game
from pbem.play.selfplay import bot_identities
from pbem.ruleset import registry
from pbem.ruleset.rules import Ruleset
from tests.rulesets.guess import GuessGame

ROOT = Path(__file__).resolve().parents[1]
os.environ["PBEM_RULESETS"] = "tests.rulesets.guess:GuessGame"  # for this run and its children
os.environ["PYTHONPATH"] = str(ROOT)
PBEM = str(Path(sys.executable).with_name("pbem"))
Triple = tuple[bytes, bytes, bytes]

RAW_PROCESS = """
import pickle, sys
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
keys = {}
for key, sig, msg in pickle.load(open(sys.argv[1], "rb")):
    if key not in keys:
        keys[key] = Ed25519PublicKey.from_public_bytes(key)
    keys[key].verify(sig, msg)
"""


def build(rounds: int, seed: int = 1, rules: Ruleset | None = None, steps: int = 0) -> str:
    """A finished 2-seat ``guess`` game of ``rounds`` rounds, as text; or, given ``steps``,
    a game of ``rules`` (default options) stopped after that many steps."""
    rules = rules or GuessGame()
    ids = bot_identities(seed, 2)
    rng = Rng(b"benchmark" + (str(seed).encode() if seed != 1 else b""))
    options = rules.parse_options({} if steps else {"rounds": str(rounds)})
    replay = new_game(rules, options, [i.card for i in ids], ids[0])
    while replay.result is None and not (steps and len(replay.steps) >= steps):
        seat = replay.remaining()[0]
        if not automatic(replay, ids[seat]):
            act(replay, ids[seat], rules.random_action(replay.state, seat, rng))
    return gamefile.encode(replay.to_file())


def verify_text(text: str) -> None:
    """What ``pbem verify`` does with a file's text, in this process."""
    game = gamefile.decode(text)
    replay_file(game, registry.get(game.genesis.ruleset.id))


@contextmanager
def recording_signatures() -> Iterator[list[Triple]]:
    """Every (key, signature, message) that verification checks, while the block runs."""
    triples: list[Triple] = []
    real = position.verify_signature

    def record(sign_key: str, item: gamefile.Signed) -> None:
        real(sign_key, item)
        triples.append(
            (
                position.b64d(sign_key, size=32, what="key"),
                position.b64d(item.signature, size=64, what="signature"),
                gamefile.signing_message(item),
            )
        )

    position.verify_signature = record
    try:
        yield triples
    finally:
        position.verify_signature = real


def raw_ed25519(triples: list[Triple]) -> Callable[[], None]:
    """The baseline: the same triples through ``cryptography``, keys decoded once each (as
    ``pbem`` decodes each seat's key once)."""
    keys = {k: Ed25519PublicKey.from_public_bytes(k) for k, _, _ in triples}
    checks = [(keys[k], s, m) for k, s, m in triples]

    def run() -> None:
        for key, sig, msg in checks:
            key.verify(sig, msg)

    return run


def interleaved(runs: int, **funcs: Callable[[], None]) -> dict[str, list[float]]:
    """CPU seconds of each function, ``runs`` times, the functions taking turns."""
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(runs):
        for name, func in funcs.items():
            start = time.process_time()
            func()
            times[name].append(time.process_time() - start)
    return times


def child_cpu(argv: list[str]) -> Callable[[], None]:
    """A whole process whose CPU time (user + system) ``interleaved`` sees: the run's own
    process time is not the child's, so this waits for it and charges its rusage."""

    def run() -> None:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            raise SystemExit(f"{argv} failed")
        _CHILD.append(usage.ru_utime + usage.ru_stime)

    return run


_CHILD: list[float] = []


def children(runs: int, **argvs: list[str]) -> dict[str, list[float]]:
    """Like ``interleaved`` for whole processes, by each child's own rusage."""
    times: dict[str, list[float]] = {name: [] for name in argvs}
    funcs = {name: child_cpu(argv) for name, argv in argvs.items()}
    for _ in range(runs):
        for name, func in funcs.items():
            func()
            times[name].append(_CHILD.pop())
    return times


def ratio_line(label: str, num: list[float], den: list[float]) -> str:
    lo, mid = min(num) / min(den), statistics.median(num) / statistics.median(den)
    return (
        f"{label}: {lo:.2f}x (min) {mid:.2f}x (median)"
        f"  [{min(num) * 1000:.1f} / {min(den) * 1000:.1f} ms]"
    )


def guess_figures(rounds: int, runs: int, tmp: Path) -> None:
    text = build(rounds)
    with recording_signatures() as triples:
        verify_text(text)
    path = tmp / "guess.json"
    path.write_text(text)
    pickled = tmp / "triples.pickle"
    pickled.write_bytes(pickle.dumps(triples))
    steps = len(gamefile.decode(text).steps)
    print(f"guess: {steps} steps, {len(triples)} signatures, {len(text.encode())} bytes")
    inproc = interleaved(runs, verify=lambda: verify_text(text), raw=raw_ed25519(triples))
    print(ratio_line("  in-process verify / raw Ed25519", inproc["verify"], inproc["raw"]))
    whole = children(
        runs,
        verify=[PBEM, "verify", str(path)],
        raw=[sys.executable, "-c", RAW_PROCESS, str(pickled)],
    )
    print(ratio_line("  whole process pbem verify / raw process", whole["verify"], whole["raw"]))
    print(
        ratio_line("  whole process pbem verify / raw in-process", whole["verify"], inproc["raw"])
    )


# ----- Africanus ---------------------------------------------------------------------------


def africanus_file(tmp: Path) -> Path:
    example = ROOT / "examples/rattus-africanus/game.json"
    try:
        verify_text(example.read_text())
        return example
    except Exception as exc:  # any failure: the example is from another format version
        print(f"(examples/rattus-africanus/game.json does not verify here: {exc}; self-playing)")
    out = tmp / "afr"
    argv = [PBEM, "selfplay", "rattus", "--players", "6", "--option", "africanus=on"]
    subprocess.run([*argv, "--seed", "6", "--out", str(out)], check=True, capture_output=True)
    return next(out.glob("*.json"))


@contextmanager
def counting() -> Iterator[Counter]:
    """Counts share checks, audited pass items and every libsodium multiplication made
    while the block runs, the latter by where they were made (share, audit, proof)."""
    counts: Counter = Counter()
    where = ["other"]
    saved = []

    def patch(owner: object, name: str, wrap: Callable) -> None:
        saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, wrap(getattr(owner, name)))

    def op(kind: str) -> Callable:
        def wrap(func: Callable) -> Callable:
            def run(*args: object) -> object:
                counts[(where[-1], kind)] += 1
                return func(*args)

            return run

        return wrap

    def section(name: str, tally: Callable[..., None]) -> Callable:
        def wrap(func: Callable) -> Callable:
            def run(*args: object, **kw: object) -> object:
                tally(*args)
                where.append(name)
                try:
                    return func(*args, **kw)
                finally:
                    where.pop()

            return run

        return wrap

    def audited(_deck: str, ids: list[str], _joint: bytes, passes: list) -> None:
        counts["audit"] += len(passes)
        counts["audit items"] += len(ids) * len(passes)

    patch(nb, "crypto_scalarmult_ed25519_noclamp", op("mul"))
    patch(nb, "crypto_scalarmult_ed25519_base_noclamp", op("base"))
    patch(deck, "checked_share", section("share", lambda *a: counts.update(["share"])))
    patch(passes, "audit_shuffles", section("audit", audited))
    patch(shuffleproof, "check", section("proof", lambda *a: None))
    try:
        yield counts
    finally:
        for owner, name, func in reversed(saved):
            setattr(owner, name, func)


def group_ops(muls: int, bases: int, adds: int) -> Callable[[], None]:
    """That many multiplications, base multiplications and additions, by PyNaCl."""
    scalar = nb.crypto_core_ed25519_scalar_reduce(bytes(range(64)))
    point = nb.crypto_scalarmult_ed25519_base_noclamp(scalar)

    def run() -> None:
        for _ in range(muls):
            nb.crypto_scalarmult_ed25519_noclamp(scalar, point)
        for _ in range(bases):
            nb.crypto_scalarmult_ed25519_base_noclamp(scalar)
        for _ in range(adds):
            nb.crypto_core_ed25519_add(point, point)

    return run


def africanus_figures(runs: int, tmp: Path) -> None:
    path = africanus_file(tmp)
    text = path.read_text()
    with recording_signatures() as triples, counting() as counts:
        verify_text(text)
    shares, passes, items = counts["share"], counts["audit"], counts["audit items"]
    floor_mul, floor_base, floor_add = 3 * shares + items, shares + passes + items, 2 * items
    proof_mul = counts[("proof", "mul")]
    proof_base = counts[("proof", "base")]
    done = {k: v for k, v in counts.items() if isinstance(k, tuple)}
    steps = len(gamefile.decode(text).steps)
    print(f"africanus ({path.name}): {steps} steps, {len(triples)} signatures")
    print(
        f"  {shares} share checks, {passes} audited passes over {items} items;"
        f" floor {floor_mul} mul + {floor_base} base mul + {floor_add} add;"
        f" shuffle proofs on arrival {proof_mul} mul + {proof_base} base mul"
    )
    print(
        "  multiplications verify made: " + ", ".join(f"{a}/{b} {n}" for (a, b), n in done.items())
    )
    raw = raw_ed25519(triples)
    ops = group_ops(floor_mul, floor_base, floor_add)
    proofs = group_ops(proof_mul, proof_base, 0)
    times = interleaved(
        runs, verify=lambda: verify_text(text), ed25519=raw, group=ops, proofs=proofs
    )
    floor = [a + b for a, b in zip(times["ed25519"], times["group"], strict=True)]
    with_proofs = [a + b for a, b in zip(floor, times["proofs"], strict=True)]
    print(
        f"  floor: Ed25519 {min(times['ed25519']) * 1000:.1f} ms"
        f" + share/audit group ops {min(times['group']) * 1000:.1f} ms"
        f" (+ shuffle-proof ops {min(times['proofs']) * 1000:.1f} ms)"
    )
    print(ratio_line("  in-process verify / crypto floor", times["verify"], floor))
    print(
        ratio_line("  in-process verify / floor with shuffle proofs", times["verify"], with_proofs)
    )


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 520
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as tmp:
        guess_figures(rounds, runs, Path(tmp))
        africanus_figures(runs, Path(tmp))


if __name__ == "__main__":
    main()
