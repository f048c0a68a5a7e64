"""The example is a package of its own, installed beside pbem (never inside its wheel):
its wheel declares the game under the ``pbem.rulesets`` entry point and ships its rules."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1]


def test_the_wheel_declares_the_game_and_ships_its_rules(tmp_path: Path) -> None:
    build = ["wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path)]
    subprocess.run(
        [sys.executable, "-m", "pip", *build, str(EXAMPLE)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("pbem_goofspiel-*.whl")
    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    assert {"goofspiel/__init__.py", "goofspiel/rules.md"} <= names
    (points,) = [n for n in names if n.endswith("entry_points.txt")]
    text = archive.read(points).decode()
    assert "[pbem.rulesets]" in text and "goofspiel = goofspiel:Goofspiel" in text
