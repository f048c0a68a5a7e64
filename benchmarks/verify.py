"""How long ``verify`` takes on a long game, against raw Ed25519 verification.

Builds a 2-seat game of the test ruleset ``guess`` with at least 2,000 steps (every step
signed by the seat's own identity, sealed guesses, beacons), then times in one run:
- ``replay_file`` on the encoded file (what ``pbem verify`` does after reading it), and
- raw Ed25519 verification of as many signatures as the file holds,
and prints both and their ratio. Run: ``.venv/bin/python benchmarks/verify.py [rounds]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.core import gamefile
from pbem.core.author import act, automatic, new_game
from pbem.core.randomness import Rng
from pbem.core.replay import replay_file
from pbem.core.selfplay import bot_identities
from tests.rulesets.guess import GuessGame


def build(rounds: int) -> str:
    rules = GuessGame()
    ids = bot_identities(1, 2)
    rng = Rng(b"benchmark")
    replay = new_game(
        rules, rules.parse_options({"rounds": str(rounds)}), [i.card for i in ids], ids[0]
    )
    while replay.result is None:
        seat = replay.remaining()[0]
        if not automatic(replay, ids[seat]):
            act(replay, ids[seat], rules.random_action(replay.state, seat, rng))
    return gamefile.encode(replay.to_file())


def best_of(runs: int, func) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 520
    text = build(rounds)
    game = gamefile.decode(text)
    replay = replay_file(game, GuessGame())
    signatures = replay.signatures
    verify_s = best_of(3, lambda: replay_file(gamefile.decode(text), GuessGame()))

    key = Ed25519PrivateKey.generate()
    public = key.public_key()
    messages = [i.to_bytes(8, "big") * 40 for i in range(signatures)]
    signed = [(key.sign(m), m) for m in messages]
    raw_s = best_of(3, lambda: [public.verify(s, m) for s, m in signed])

    print(f"game: {len(game.steps)} steps, {signatures} signatures, {len(text.encode())} bytes")
    print(f"pbem verify (parse + replay): {verify_s * 1000:.1f} ms")
    print(f"raw Ed25519 verify x{signatures}: {raw_s * 1000:.1f} ms")
    print(f"ratio: {verify_s / raw_s:.1f}x raw signature verification")


if __name__ == "__main__":
    main()
