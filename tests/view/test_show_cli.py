"""``pbem show`` end to end: where it writes, --svg, --step, --as, and a broken file."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from pbem.cli.show import show
from pbem.crypto.keyring import Keyring, seal_identity
from pbem.format import gamefile
from pbem.format.canonical import b64e
from pbem.format.gamefile import Entry
from pbem.play.author import new_game
from pbem.play.selfplay import bot_identities
from pbem.ruleset import registry
from tests.helpers import Seeded
from tests.view.games import GAMES, played, readable

RATTUS = GAMES[4]  # 2 players, the first 60 steps


@click.group()
def cli() -> None:
    """``pbem`` with only the command under test."""


cli.add_command(show)


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(cli, ["show", *map(str, args)], catch_exceptions=False)


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    file, ids = played(*RATTUS)
    path = tmp_path / "game.json"
    path.write_text(gamefile.encode(file))
    keyring = Keyring()
    keyring.keys_dir.mkdir(parents=True, exist_ok=True)
    for ident in ids:
        key_file = keyring.keys_dir / f"{ident.card.name}.json"
        key_file.write_text(seal_identity(ident, None).to_json())
    return path


def test_writes_the_page_beside_the_file(game_file: Path) -> None:
    result = run(game_file, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report == {
        "ok": True,
        "read": {"file": str(game_file), "steps": 60},
        "head": {"steps": 60, "export": None},
        "wrote": str(game_file.with_name("game.s0060.html")),
        "step": 60,
        "verified": True,
        "failure": None,
        "private_to": None,
    }
    ET.fromstring(game_file.with_name("game.s0060.html").read_text())
    again = json.loads(run(game_file, "--json").output)
    assert again["wrote"] == report["wrote"]  # the same page again: the same file


def test_svg_at_a_step_to_stdout(game_file: Path) -> None:
    result = run(game_file, "--svg", "--step", "20", "-o", "-")
    assert result.exit_code == 0, result.output
    root = ET.fromstring(result.output)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_step_out_of_range_is_a_usage_error(game_file: Path) -> None:
    result = run(game_file, "--step", "999")
    assert result.exit_code == 2
    assert "the verified steps are 1 to 60 (0: the genesis)" in result.output


def test_private_page_is_named_after_its_reader(game_file: Path) -> None:
    result = run(game_file, "--as", "bot2")
    assert result.exit_code == 0, result.output
    target = game_file.with_name("game.s0060.bot2.html")
    assert f"wrote {target} (page, private to bot2, after step 60)" in result.output
    assert "Only bot2 can see this" in readable(target.read_text())


def test_a_reader_without_a_seat_is_refused(game_file: Path) -> None:
    Keyring().create("eve", "eve@example.org", None)
    result = run(game_file, "--as", "eve")
    assert result.exit_code == 2
    assert "holds no seat in this game" in result.output


def test_a_broken_file_still_shows_its_verified_prefix(game_file: Path) -> None:
    """A forged signature at step 31 or later: the page shows the steps before it, says
    where and why it failed, and the command exits 1 after writing it (the store refuses
    the file; the page is drawn from the file as it is)."""
    game = gamefile.read(game_file)
    step = next(i for i, s in enumerate(game.steps) if isinstance(s, Entry) and i >= 30)
    forged = game.steps[step].model_copy(update={"signature": b64e(bytes(64))})
    steps = [*game.steps[:step], forged, *game.steps[step + 1 :]]
    broken = game_file.with_name("broken.json")
    broken.write_text(gamefile.encode(game.model_copy(update={"steps": steps})))
    result = run(broken)
    assert result.exit_code == 1
    assert f"step {step + 1}, seat" in result.output and "bad signature" in result.output
    html = broken.with_name(f"broken.s{len(steps):04d}.html").read_text()
    ET.fromstring(html)
    assert f"Verification failed at step {step + 1}:" in html
    assert f'<tr id="step-{step + 1}" class="failed"' in html
    assert f"(1 to {step})" in html


def test_the_game_file_is_never_overwritten(game_file: Path) -> None:
    result = run(game_file, "-o", game_file)
    assert result.exit_code == 2
    assert "exists already; pbem never writes over a file" in result.output


def test_a_wrong_cached_state_is_reported_after_every_step_verified(game_file: Path) -> None:
    game = gamefile.read(game_file)
    cached = game.state.model_copy(update={"hash": "0" * 64})
    wrong = game_file.with_name("wrong.json")
    wrong.write_text(gamefile.encode(game.model_copy(update={"state": cached})))
    result = run(wrong, "-o", "-")
    assert result.exit_code == 1
    assert "cached state" in result.output
    assert "Every step verifies, but the file's cached state does not match" in result.output
    assert "the positions shown are recomputed from the steps" in result.output


def test_a_game_nobody_joined_yet_has_a_page_and_no_board(tmp_path: Path) -> None:
    rules = registry.get("rattus")
    ids = bot_identities(9, 2)
    replay = new_game(
        rules, rules.parse_options({}), [i.card for i in ids], ids[0], entropy=Seeded(9)
    )
    path = tmp_path / "new.json"
    path.write_text(gamefile.encode(replay.to_file()))
    result = run(path, "-o", "-")
    assert result.exit_code == 0, result.output
    ET.fromstring(result.output)
    assert "bot2 to join" in result.output
    assert "No board yet" in result.output
    assert run(path, "--svg").exit_code == 2
