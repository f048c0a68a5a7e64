"""A league's audit: ``pbem verify`` of 8 independent games, ``--jobs 2`` against ``--jobs 1``.

Builds 8 ``guess`` games (2 seats, ``rounds`` rounds each, as ``benchmarks/verify.py``
builds its long game, on different seeds), then times whole ``pbem verify`` processes by
the wall clock, the two settings taking turns, and prints min and median of each and the
speed-up. On an idle 2-core machine the goal is 1.7x or more; the load average is
printed, since other work on a shared machine takes the second core. Nothing here asserts a time.
Run: ``.venv/bin/python benchmarks/league.py [rounds] [runs]``.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.verify import PBEM, build

FILES = 8


def wall(argv: list[str]) -> tuple[float, float]:
    """Wall-clock seconds of a whole command, and the CPU seconds of it and its workers."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return elapsed, cpu


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 130
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k in range(FILES):
            path = Path(tmp) / f"game{k}.json"
            path.write_text(build(rounds, seed=k))
            paths.append(str(path))
        times: dict[int, list[float]] = {1: [], 2: []}
        cpu: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(runs):
            for jobs in times:
                elapsed, used = wall([PBEM, "verify", *paths, "--jobs", str(jobs)])
                times[jobs].append(elapsed)
                cpu[jobs].append(used)
    one, two = times[1], times[2]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{FILES} files of {rounds} rounds, {os.cpu_count()} CPUs, {runs} runs each")
    print(f"load average after the runs: {load} (other work on the machine takes cores too)")
    print(f"--jobs 1: {min(one):.2f} s (min) {statistics.median(one):.2f} s (median)")
    print(f"--jobs 2: {min(two):.2f} s (min) {statistics.median(two):.2f} s (median)")
    for jobs in cpu:
        use = statistics.median(cpu[jobs]) / statistics.median(times[jobs])
        print(f"--jobs {jobs}: CPU {statistics.median(cpu[jobs]):.2f} s, {use:.2f} cores busy")
    print(
        f"speed-up --jobs 2 / --jobs 1: {min(one) / min(two):.2f}x (min)"
        f" {statistics.median(one) / statistics.median(two):.2f}x (median)"
    )


if __name__ == "__main__":
    main()
