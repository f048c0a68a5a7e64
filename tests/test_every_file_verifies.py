"""Issue 25, the quick profile: whole games of every ruleset played as players play by mail,
with dropouts and faults injected at random (``tests.chaos``), every file written verified
from nothing, every store agreeing on the head, nothing signed twice for one decision. The
long profile is ``benchmarks/every_file_verifies.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chaos import Chaos

TABLES = [
    ("guess", 3, ("rounds=3",), "separate", 1),
    ("guess", 4, ("rounds=2",), "one", 2),
    ("peek", 3, (), "mixed", 3),
    ("rattaneer", 3, (), "separate", 4),
    ("rattus", 2, (), "one", 5),
]


@pytest.mark.parametrize(("ruleset", "players", "options", "layout", "seed"), TABLES)
def test_every_file_written_in_a_game_with_faults_verifies(
    tmp_path: Path, ruleset: str, players: int, options: tuple[str, ...], layout: str, seed: int
) -> None:
    """architecture §10, §11: calls after deadlines, resignations, handovers, copies that
    crossed, old files, ``pbem play`` killed with SIGKILL; the game still ends, and
    everything written on the way is a verified game."""
    table = Chaos(
        tmp_path,
        ruleset,
        players,
        seed,
        options=options,
        layout=layout,
        faults=0.1,
    )
    report = table.run()
    print(f"\n{ruleset} {players}p {layout}: {report.line()}")
    assert report.files > 10 and report.steps > 5
