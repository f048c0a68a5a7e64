"""Complete 4-player Rattaneer games per second: through self-play with the full file format
and crypto, and with the rules alone, in the same run; and the size of a finished file.

- Self-play (``pbem.play.selfplay.play_game``): every step signed, morning placements
  sealed and revealed, beacons supplied, the file encoded, re-read and verified by a
  recipient after every step, and the finished file verified once more from scratch.
- Rules alone: the same bots drive the ruleset directly (``pbem.bots.simulate``: ``check``
  then ``apply``), with no file, no signature and no sealing.

Both use the same bots on the same seeds (the games differ, the draws coming from
different streams), so the ratio is the price of the file format and the cryptography.
Nothing here asserts a time. Run: ``.venv/bin/python benchmarks/rattaneer.py [games]``.
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.bots.simulate import World, play_out
from pbem.crypto.randomness import Rng
from pbem.games.rattaneer import Rattaneer
from pbem.play.selfplay import play_game

PLAYERS = 4
BOTS = ["greedy", "random"]  # cycled over the seats, as ``pbem selfplay --bot`` does


def rules_alone(rules: Rattaneer, seed: int) -> int:
    """Play one game on the ruleset alone; return the number of decisions it took."""
    rng = Rng(hashlib.sha256(b"benchmark\0" + str(seed).encode()).digest())
    bots = [rules.bot(BOTS[seat % len(BOTS)]) for seat in range(PLAYERS)]
    world = World.new(rules, rules.parse_options({}), PLAYERS, rng.fork("world"))
    play_out(world, bots, [rng.fork(f"bot{seat}") for seat in range(PLAYERS)], 10_000)
    return world.decisions


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    rules = Rattaneer()
    options = rules.parse_options({})
    seeds = range(1, games + 1)

    start = time.process_time()
    reports = [play_game(rules, PLAYERS, seed, options, BOTS) for seed in seeds]
    full_s = time.process_time() - start

    start = time.process_time()
    decisions = [rules_alone(rules, seed) for seed in seeds]
    alone_s = time.process_time() - start

    steps = sum(r.steps for r in reports)
    size = sum(r.bytes for r in reports)
    print(f"{games} complete {PLAYERS}-player games, bots {'/'.join(BOTS)}, seeds 1..{games}")
    print(
        f"self-play, file format and crypto: {games / full_s:8.2f} games/s"
        f" ({full_s / games * 1000:.0f} ms a game, {steps / games:.0f} file steps a game)"
    )
    print(
        f"rules alone:                       {games / alone_s:8.2f} games/s"
        f" ({alone_s / games * 1000:.1f} ms a game, {sum(decisions) / games:.0f} decisions a game)"
    )
    print(f"ratio: the rules alone are {full_s / alone_s:.0f}x faster")
    print(
        f"finished file: {size / games:.0f} bytes for {steps / games:.0f} steps,"
        f" {size / steps:.0f} bytes per step"
    )


if __name__ == "__main__":
    main()
