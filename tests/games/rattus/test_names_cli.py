"""Issue 32 item 1 through the commands: ``pbem moves`` shows the moves by name, and a move
typed by name signs the very action its notation (with ids) would."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.games.rattus.test_cli import mover, new_game, settle, starting_cubes
from tests.helpers import ok as pbem
from tests.helpers import report


def actions(f: Path) -> list[Any]:
    """Every action signed into the file, in order."""
    steps = json.loads(f.read_text())["steps"]
    found = []
    for step in steps:
        for part in step.get("envelopes", [step]):
            action = part.get("body", {}).get("action")
            if action is not None:
                found.append(action)
    return found


def test_a_token_typed_by_its_region_signs_the_same_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = starting_cubes(new_game(tmp_path, monkeypatch))
    who = mover(f)
    place = next(m for m in report("moves", f, "--as", who)["moves"] if m.startswith("place"))
    f = settle(Path(report("play", f, f"take Monk; {place}", "--as", who)["file"]))
    listed = report("moves", f, "--as", who, "--limit", "200")
    monks = [
        (notation, name)
        for notation, name in zip(listed["moves"], listed["named"], strict=True)
        if notation.startswith("monk")
    ]
    notation, name = monks[0]
    assert "/" in notation and "/" not in name  # monk Gallia Italia, no handle
    shown = pbem("moves", f, "--as", who, "--limit", "200").stdout
    assert f"  {name}" in shown and f"({notation})" in shown
    # The same position in a second home: one plays the name, the other the ids.
    other = tmp_path / "other-home"
    shutil.copytree(os.environ["PBEM_HOME"], other)
    shutil.copy(f, tmp_path / "copy.json")
    by_name = Path(report("play", f, name, "--as", who)["file"])
    monkeypatch.setenv("PBEM_HOME", str(other))
    by_id = Path(report("play", tmp_path / "copy.json", notation, "--as", who)["file"])
    assert actions(by_name) == actions(by_id)
    assert actions(by_name)[-1]["type"] == "monk"
    assert actions(by_name)[-1]["token"] == notation.split()[1]


def test_an_unknown_name_is_refused_in_one_line_with_the_moves_it_could_mean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.helpers import pbem as run

    f = starting_cubes(new_game(tmp_path, monkeypatch))
    who = mover(f)
    result = run("play", f, "monk Atlantis Gallia", "--as", who)
    assert result.exit_code == 1
    message = result.stderr.strip()
    assert "\n" not in message and "expected a token: its region" in message
