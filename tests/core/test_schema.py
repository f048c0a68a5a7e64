"""The checked-in JSON Schemas match the models (DESIGN §1)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from pbem.cli.schema import all_schemas, schema
from pbem.resources import resource_dir


def test_checked_in_schemas_are_up_to_date() -> None:
    result = CliRunner().invoke(schema, ["--check"])
    assert result.exit_code == 0, result.output


def test_check_fails_on_a_stale_schema(tmp_path) -> None:
    assert CliRunner().invoke(schema, ["--dir", str(tmp_path)]).exit_code == 0
    target = tmp_path / "game-file.json"
    target.write_text(target.read_text().replace('"steps"', '"stepz"'))
    result = CliRunner().invoke(schema, ["--check", "--dir", str(tmp_path)])
    assert result.exit_code == 1 and "game-file.json" in result.output


def test_game_file_schema_describes_the_format() -> None:
    stored = json.loads((resource_dir("schemas") / "game-file.json").read_text())
    assert stored == all_schemas()["game-file"]
    assert set(stored["required"]) == {"format", "genesis", "steps", "state"}
