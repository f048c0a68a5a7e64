"""Complete 4-player games of Rattus per second, through the engine and by the rules alone.

In one run, for the base game and for Africanus, with the same bots (``greedy`` against
``random``) and the same seeds:
- full crypto: ``pbem.play.selfplay.play_game``, i.e. ``pbem selfplay``: every step signed,
  written to text, read back and verified by a recipient, rat tokens and region cards in
  sealed decks (shuffles, decryption shares with proofs), and the finished file verified
  once more from scratch;
- rules alone: the same rules and bots, with the engine replaced by the tests' stand-in
  (``tests/games/rattus/harness.py``), which knows every face and answers reveals at once.
Prints games per second for both, their ratio, and the bytes per step of the finished files;
then, for one Africanus game, the CPU cost per step of its first tenth of steps and of its
last tenth (goal: the last ≤ 1.3x the first, i.e. self-play linear in game length), from
the times at which the author's replay reaches each step (``play_game``'s ``observe``).
Nothing here asserts a time. Run: ``.venv/bin/python benchmarks/rattus.py [games]``.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.play.selfplay import play_game
from tests.games.rattus.harness import AFRICANUS, OPTIONS, RULES, Table

SEATS = 4
BOTS = ["greedy", "random"]


def engine(options: dict[str, Any], seeds: range) -> tuple[float, int, int]:
    """Seconds, steps and bytes for complete games through the engine."""
    start = time.process_time()
    reports = [play_game(RULES, SEATS, seed, options, BOTS) for seed in seeds]
    elapsed = time.process_time() - start
    return elapsed, sum(r.steps for r in reports), sum(r.bytes for r in reports)


def rules_alone(options: dict[str, Any], seeds: range) -> float:
    """Seconds for complete games by the rules alone."""
    start = time.process_time()
    for seed in seeds:
        Table.new(SEATS, seed, options).play(BOTS, lambda state: None)
    return time.process_time() - start


def tenths(options: dict[str, Any], seed: int) -> tuple[list[float], int]:
    """CPU seconds per step in each tenth of one game's steps, and the number of steps."""
    reached: list[tuple[int, float]] = [(0, time.process_time())]

    def observe(replay: Any) -> None:
        reached.append((len(replay.steps), time.process_time()))

    play_game(RULES, SEATS, seed, options, BOTS, observe=observe)
    n = reached[-1][0]

    def at(step: int) -> tuple[int, float]:
        return next((k, t) for k, t in reached if k >= step)

    bounds = [at(n * i // 10) for i in range(11)]
    return [(t1 - t0) / max(1, k1 - k0) for (k0, t0), (k1, t1) in itertools.pairwise(bounds)], n


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    seeds = range(1, games + 1)
    print(f"{SEATS}-player games, {games} each, bots {' vs '.join(BOTS)}")
    header = f"{'game':<10} {'engine games/s':>15} {'rules games/s':>14} {'ratio':>7}"
    print(header + f" {'steps/game':>11} {'bytes/step':>11}")
    for name, options in (("base", OPTIONS), ("africanus", AFRICANUS)):
        crypto, steps, size = engine(options, seeds)
        alone = rules_alone(options, seeds)
        print(
            f"{name:<10} {games / crypto:>15.3f} {games / alone:>14.2f} {crypto / alone:>7.0f}"
            f" {steps / games:>11.0f} {size / steps:>11.0f}"
        )
    per_step, n = tenths(AFRICANUS, 1)
    print(f"africanus seed 1, {n} steps; ms a step in each tenth of the game:")
    print("  " + " ".join(f"{t * 1000:.1f}" for t in per_step))
    print(
        f"  last tenth / first tenth: {per_step[-1] / per_step[0]:.2f}x"
        f" (the first holds the shuffles of the setup); ninth / second:"
        f" {per_step[-2] / per_step[1]:.2f}x"
    )


if __name__ == "__main__":
    main()
