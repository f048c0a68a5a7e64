"""The long profile of issue 25: many whole games of every ruleset, every player count, with
players in separate homes, in one home and mixed, played with faults injected at random
(``tests/chaos.py``: calls after deadlines, escrows opened, resignations, handovers, copies
that crossed in the mail, old files read again, ``pbem play`` killed with SIGKILL), every
file written verified from nothing, every store agreeing on the head, nothing signed twice.

It prints one line a game and the totals: games, steps, commands, files verified, faults
injected, and the games that failed (with what failed: the run goes on).

Run: ``.venv/bin/python benchmarks/every_file_verifies.py [GAMES] [SEED]`` (default 60 games
from seed 1000; a Rattus game with 6 players takes minutes).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["PBEM_RULESETS"] = "tests.rulesets.guess:GuessGame,tests.rulesets.peek:PeekGame"
os.environ["PBEM_TEST_FAST_KDF"] = "1"

from tests.chaos import Chaos, ChaosReport, Verifier  # noqa: E402

#: (ruleset, options, the player counts it takes).
GAMES = [
    ("guess", ("rounds=3",), range(2, 6)),
    ("peek", (), range(2, 5)),
    ("rattaneer", (), range(2, 6)),
    ("rattus", (), range(2, 5)),
    ("rattus", ("africanus=on",), range(2, 7)),
]
LAYOUTS = ("separate", "one", "mixed")


def tables(count: int, seed: int) -> list[tuple[str, tuple[str, ...], int, str, int]]:
    """``count`` tables cycling through rulesets, player counts and layouts."""
    every = [
        (ruleset, options, players, layout)
        for ruleset, options, counts in GAMES
        for players in counts
        for layout in LAYOUTS
        if not (layout == "mixed" and players < 3)
    ]
    return [(*every[i % len(every)], seed + i) for i in range(count)]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    total = ChaosReport(games=0)
    failed: list[str] = []
    start = time.perf_counter()
    for ruleset, options, players, layout, table_seed in tables(count, seed):
        name = f"{ruleset}{'+' + ','.join(options) if options else ''} {players}p {layout}"
        began = time.perf_counter()
        with tempfile.TemporaryDirectory() as folder:
            try:
                report = Chaos(
                    Path(folder),
                    ruleset,
                    players,
                    table_seed,
                    options=options,
                    layout=layout,
                    faults=0.1,
                    verifier=Verifier(full=10),
                ).run()
            except Exception as exc:  # reported, and the run goes on
                line = traceback.format_exception_only(exc)[-1].strip()
                failed.append(f"{name} seed {table_seed}: {line[:400]}")
                print(f"FAILED {name} seed {table_seed}: {line[:400]}", flush=True)
                continue
        total.add(report)
        print(f"{name} seed {table_seed}: {report.line()} ({time.perf_counter() - began:.0f} s)")
    print(f"\nall: {total.line()}; {len(failed)} failed; {time.perf_counter() - start:.0f} s")
    for line in failed:
        print("  " + line)


if __name__ == "__main__":
    main()
