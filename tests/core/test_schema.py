"""The checked-in JSON Schemas match the models (architecture §1)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from pbem.cli.schema import all_schemas, schema
from pbem.format.resources import resource_dir


def test_checked_in_schemas_are_up_to_date() -> None:
    result = CliRunner().invoke(schema, ["--check"])
    assert result.exit_code == 0, result.output


def test_check_fails_on_a_stale_schema(tmp_path) -> None:
    assert CliRunner().invoke(schema, ["--dir", str(tmp_path)]).exit_code == 0
    target = tmp_path / "game-file.json"
    target.write_text(target.read_text().replace('"steps"', '"stepz"'))
    result = CliRunner().invoke(schema, ["--check", "--dir", str(tmp_path)])
    assert result.exit_code == 1 and "game-file.json" in result.output


def test_writing_schemas_leaves_every_other_file_alone(tmp_path) -> None:
    """``pbem schema --dir .`` in a folder of games once deleted every JSON file there."""
    game = tmp_path / "game.json"
    game.write_text('{"format": "pbem/1"}')
    old = tmp_path / "retired.json"  # a schema a model no longer makes: removed
    old.write_text(json.dumps({"$id": "urn:pbem:schema:retired"}))
    assert CliRunner().invoke(schema, ["--dir", str(tmp_path)]).exit_code == 0
    assert game.read_text() == '{"format": "pbem/1"}' and not old.exists()
    assert CliRunner().invoke(schema, ["--check", "--dir", str(tmp_path)]).exit_code == 0


def test_a_file_of_a_schema_s_name_that_is_no_schema_is_never_written_over(tmp_path) -> None:
    mine = tmp_path / "identity-card.json"
    mine.write_text('{"name": "my own card"}')
    result = CliRunner().invoke(schema, ["--dir", str(tmp_path)])
    assert result.exit_code == 2
    assert "identity-card.json exists and is not a pbem schema" in result.output
    assert mine.read_text() == '{"name": "my own card"}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["identity-card.json"]


def test_game_file_schema_describes_the_format() -> None:
    stored = json.loads((resource_dir("schemas") / "game-file.json").read_text())
    assert stored == all_schemas()["game-file"]
    assert set(stored["required"]) == {"format", "genesis", "steps", "state"}


def test_without_dir_the_schemas_go_to_the_working_folder(tmp_path, monkeypatch) -> None:
    """Issue 31: never into pbem's own folder (site-packages, once installed)."""
    shipped = {p: p.read_bytes() for p in resource_dir("schemas").glob("*.json")}
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(schema, [])
    assert result.exit_code == 0 and str(tmp_path) in result.output
    assert {p.name for p in tmp_path.glob("*.json")} == {p.name for p in shipped}
    assert all(p.read_bytes() == data for p, data in shipped.items())
