"""Complete 4-player games of Rattus per second, through the engine and by the rules alone.

In one run, for the base game and for Africanus, with the same bots (``greedy`` against
``random``) and the same seeds:
- full crypto: ``pbem.core.selfplay.play_game``, i.e. ``pbem selfplay``: every step signed,
  written to text, read back and verified by a recipient, rat tokens and region cards in
  sealed decks (shuffles, decryption shares with proofs), and the finished file verified
  once more from scratch;
- rules alone: the same rules and bots, with the engine replaced by the tests' stand-in
  (``tests/games/rattus/harness.py``), which knows every face and answers reveals at once.
Prints games per second for both, their ratio, and the bytes per step of the finished files.
Nothing here asserts a time. Run: ``.venv/bin/python benchmarks/rattus.py [games]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.core.selfplay import play_game
from tests.games.rattus.harness import AFRICANUS, OPTIONS, RULES, Table

SEATS = 4
BOTS = ["greedy", "random"]


def engine(options: dict[str, Any], seeds: range) -> tuple[float, int, int]:
    """Seconds, steps and bytes for complete games through the engine."""
    start = time.perf_counter()
    reports = [play_game(RULES, SEATS, seed, options, BOTS) for seed in seeds]
    elapsed = time.perf_counter() - start
    return elapsed, sum(r.steps for r in reports), sum(r.bytes for r in reports)


def rules_alone(options: dict[str, Any], seeds: range) -> float:
    """Seconds for complete games by the rules alone."""
    start = time.perf_counter()
    for seed in seeds:
        Table.new(SEATS, seed, options).play(BOTS, lambda state: None)
    return time.perf_counter() - start


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


if __name__ == "__main__":
    main()
