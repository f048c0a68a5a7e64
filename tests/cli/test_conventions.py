"""Conventions every command keeps (issue 17, point 4): ``--json`` everywhere, and with it
every error as one JSON object on stdout with the exit code of the README (1 refused, 2
usage or I/O, 3 a bug); options refused outside the values they list; the rulesets and
their options in ``pbem new --help``; shell completion."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.cli.main import COMMANDS, main
from tests.cli.test_game_cli import last_file, ok, pbem, table  # noqa: F401 - the fixture
from tests.helpers import new_keys

GROUPS = {
    "key": ["new", "list", "export", "import"],
    "config": ["show", "set", "unset", "provider", "test", "migrate-secrets"],
}
EVERY = [
    [name, *([sub] if sub else [])] for name in sorted(COMMANDS) for sub in GROUPS.get(name, [None])
]


def failed(args: list[Any], code: int) -> dict[str, Any]:
    """The command fails with ``code`` and says why as one JSON object on stdout."""
    result = pbem(*args, "--json")
    assert result.exit_code == code, (args, result.output)
    report = json.loads(result.stdout)
    assert report["ok"] is False and report["error"], report
    assert {"step", "seat"} <= report.keys()
    assert "Traceback" not in result.output and result.stderr == ""
    return report


@pytest.mark.parametrize("command", EVERY, ids=" ".join)
def test_every_command_takes_json_and_a_usage_error_is_json(command: list[str]) -> None:
    assert "--json" in pbem(*command, "--help").stdout
    report = failed([*command, "--no-such-option"], 2)
    assert "--no-such-option" in report["error"]


BAD_FILE = [
    ["status"],
    ["moves"],
    ["log"],
    ["play"],
    ["export"],
    ["show"],
    ["send"],
    ["verify"],
    ["merge", "-o", "out.json", "g.json"],
    ["rules", "--game"],
]


@pytest.mark.parametrize("command", BAD_FILE, ids=lambda c: c[0])
def test_a_refused_file_is_json_and_exit_1(table: Path, command: list[str]) -> None:  # noqa: F811
    Path("bad.json").write_text("{not json")
    report = failed([*command, "bad.json"], 1)
    assert "bad.json is not valid JSON" in report["error"]
    missing = failed([*command, "missing.json"], 2)  # a file that cannot be read: I/O
    assert "missing.json" in missing["error"]


def test_refused_cards_and_mail_are_json_too(table: Path) -> None:  # noqa: F811
    Path("bad.json").write_text("{not json")
    assert "bad.json" in failed(["key", "import", "bad.json"], 1)["error"]
    Path("bad.eml").write_bytes(b"Subject: hi\r\n\r\nno game here\r\n")
    report = failed(["receive", "bad.eml"], 1)
    assert report["problems"] and "1 problem" in report["error"]


def test_a_refused_move_names_its_step_and_seat(table: Path) -> None:  # noqa: F811
    f = last_file(ok("play", "g.json", "--as", "bob", "--json"))  # bob joins; carol has not
    report = failed(["play", f, "guess 3", "--as", "bob"], 1)
    assert report["seat"] == 1 and report["step"] == 1  # the join batch, still open
    f = last_file(ok("play", f, "--as", "carol", "--json"))
    f = last_file(ok("play", f, "--as", "alice", "--json"))  # the setup draw
    report = failed(["play", f, "guess 99", "--as", "bob"], 1)
    assert report["seat"] == 1 and report["step"] == 3 and "guess 99" in report["error"]


def test_a_forged_step_names_its_step_and_seat(guess_file: Path, tmp_path: Path) -> None:
    data = json.loads(guess_file.read_text())
    data["steps"][1]["signature"] = data["steps"][2]["envelopes"][0]["signature"]
    bad = tmp_path / "forged.json"
    bad.write_text(json.dumps(data))
    report = failed(["verify", bad], 1)
    assert report["step"] == 2 and report["seat"] == data["steps"][1]["seat"]
    assert "bad signature" in report["error"]


@pytest.mark.parametrize(
    ("option", "words"),
    [
        ("africanus=yes", "option africanus takes on or off, not 'yes'"),
        ("africanus=1", "option africanus takes on or off"),
        ("colour=red", "rattus has no option 'colour' (its options: africanus, classes)"),
    ],
)
def test_rattus_options_outside_their_values_are_refused(
    table: Path,  # noqa: F811
    option: str,
    words: str,
) -> None:
    report = failed(["new", "rattus", "--seat", "alice", "--seat", "carol", "--option", option,
                     "--as", "alice", "-o", "r.json"], 2)  # fmt: skip
    assert words in report["error"] and not Path("r.json").exists()
    ok("new", "rattus", "--seat", "alice", "--seat", "carol", "--option", "africanus=on",
       "--as", "alice", "-o", "r.json")  # fmt: skip


@pytest.mark.parametrize(
    ("option", "words"),
    [
        ("treasures=yes", "option treasures takes true or false, not 'yes'"),
        ("tavern_keep=0", "option tavern_keep takes a whole number from 1 to 4, not '0'"),
        ("tavern_keep=²", "option tavern_keep takes a whole number from 1 to 4"),
    ],
)
def test_rattaneer_options_outside_their_values_are_refused(
    table: Path,  # noqa: F811
    option: str,
    words: str,
) -> None:
    report = failed(["selfplay", "rattaneer", "--players", "3", "--option", option], 2)
    assert words in report["error"]


def test_new_help_and_rules_list_the_rulesets_their_options_and_the_card_notice() -> None:
    text = pbem("new", "--help").stdout
    for line in (
        "rattaneer 1.1: Rattaneer, 2-5 players",
        "--option treasures=true|false (default: false)",
        "--option tavern_keep=1-4 (default: 3)",
        "--option africanus=on|off (default: off)",
        "note: This game plays the shipped card set: The published card lists",
    ):
        assert line in text, line
    rules = pbem("rules").stdout
    assert rules.count("This game plays the shipped card set") == 1


def test_new_says_the_card_notice_once_and_status_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    new_keys("anne", "bart")
    made = ok(
        "new", "rattaneer", "--seat", "anne", "--seat", "bart", "--as", "anne", "-o", "g.json"
    )
    assert made.stdout.count("The published card lists") == 1
    assert "The published card lists" not in ok("status", "g.json").stdout


def complete(words: str, home: Path) -> list[str]:
    """What bash completion offers after ``words`` (click's own completion protocol)."""
    parts = words.split(" ")
    env = {
        "_PBEM_COMPLETE": "bash_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(parts) - 1),
        "PBEM_HOME": str(home),
    }
    result = CliRunner().invoke(main, [], prog_name="pbem", env=env)
    return [line.split(",", 1)[1] for line in result.stdout.splitlines() if "," in line]


def test_shell_completion_of_rulesets_identities_and_options(table: Path) -> None:  # noqa: F811
    home = Path(os.environ["PBEM_HOME"])
    assert complete("pbem new ra", home) == ["rattaneer", "rattus"]
    assert complete("pbem status g.json --as a", home) == ["alice"]
    assert set(complete("pbem new rattaneer --seat ", home)) >= {"alice", "bob", "carol"}
    assert complete("pbem new rattaneer --option tav", home) == ["tavern_keep="]
    assert complete("pbem new rattus --option africanus=", home) == [
        "africanus=on",
        "africanus=off",
    ]
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "_PBEM_COMPLETE=bash_source pbem" in readme


def test_completion_follows_what_the_line_names_already(table: Path) -> None:  # noqa: F811
    """Issue 28: the options of the ruleset named (not of every one), before its value is
    typed too; bots, seats of the game named, rule sections, settings."""
    home = Path(os.environ["PBEM_HOME"])
    assert complete("pbem new rattus --option ", home) == ["africanus=", "classes="]
    assert complete("pbem selfplay rattus --option ", home) == ["africanus=", "classes="]
    assert complete("pbem selfplay g", home) == ["guess"]
    assert complete("pbem selfplay rattus --bot ", home) == ["greedy", "mcts", "random"]
    assert "mcts" in complete("pbem watch --bot m", home)
    assert complete("pbem call g.json ", home) == ["alice", "bob", "carol"]
    assert complete("pbem call nothing.json ", home) == []
    assert complete("pbem rules rattus T-1.", home)[:2] == ["T-1.1", "T-1.2"]
    assert complete("pbem rules rattus cl", home) == ["classes"]
    assert complete("pbem config set imap.m", home) == ["imap.mailbox"]
    assert complete("pbem config unset bot.", home) == ["bot.alice", "bot.bob", "bot.carol"]


def test_every_command_says_who_is_awaited_the_same_way(table: Path) -> None:  # noqa: F811
    """``awaiting`` is the list of names awaited and ``next`` the sentence people read, in
    the JSON of ``play``, ``status``, ``moves`` and ``games`` alike, so a script reads one
    shape whatever command it ran."""
    played = json.loads(ok("play", "g.json", "--as", "bob", "--json").stdout)
    f = played["file"]
    status = json.loads(ok("status", f, "--json").stdout)
    moves = json.loads(ok("moves", f, "--as", "bob", "--json").stdout)
    (row,) = json.loads(ok("games", "--json").stdout)["games"]
    assert played["awaiting"] == ["carol"] and "carol" in played["next"]
    for report in (status, moves, row):
        assert (report["awaiting"], report["next"]) == (played["awaiting"], played["next"])
