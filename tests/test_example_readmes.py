"""Each example's README says which rules its files pin (ruleset id, version, rules hash),
and says it truly: after the examples are made again, this fails until the line is
refreshed from the new files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GAMES = sorted(p.parent for p in EXAMPLES.glob("*/game.json"))


@pytest.mark.parametrize("example", GAMES, ids=lambda p: p.name)
def test_readme_names_the_rules_its_files_pin(example: Path) -> None:
    pins = {
        json.dumps(json.loads(f.read_text())["genesis"]["ruleset"], sort_keys=True)
        for f in example.glob("*.json")
        if "genesis" in json.loads(f.read_text())
    }
    assert len(pins) == 1, f"{example.name}: its files pin different rules"
    pin = json.loads(pins.pop())
    readme = " ".join((example / "README.md").read_text().split())
    line = f"Rules pinned: `{pin['id']} {pin['version']}`, rules hash `{pin['hash']}`"
    assert line in readme, f"{example.name}/README.md should say: {line}"
