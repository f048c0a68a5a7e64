"""Integers outside JCS's exact range (|n| > 2^53 − 1), and digit strings long enough to
trip Python's 4,300-digit limit, are refused while parsing with one line, by every
command, in files, identity cards, mail and action notation alike (issue 11)."""

from __future__ import annotations

import json
import mailbox
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli.main import main
from pbem.format import gamefile
from pbem.format.canonical import MAX_SAFE_INTEGER, parse
from pbem.format.errors import Rejected
from tests.helpers import FILE_COMMANDS

HUGE = "9" * 5000


def pbem(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line(result: Result, code: int, fragment: str) -> None:
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: error: "), result.stderr
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in result.output


def with_huge(source: Path, target: Path) -> Path:
    """``source`` with a 5,000-digit integer in the body of its second step."""
    data = json.loads(source.read_text())
    text = json.dumps(data, indent=1)
    data["steps"][1]["body"]["n"] = 0
    marked = json.dumps(data, indent=1).replace('"n": 0', f'"n": {HUGE}')
    assert len(marked) > len(text)
    target.write_text(marked)
    return target


@pytest.mark.parametrize("bound", [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER])
def test_the_exact_range_is_accepted(bound: int) -> None:
    assert parse(f"[{bound}]") == [bound]


@pytest.mark.parametrize("text", [str(2**53), str(-(2**53)), HUGE, "-" + HUGE, "1" + "0" * 17])
def test_beyond_the_exact_range_is_refused_saying_where(text: str) -> None:
    with pytest.raises(Rejected, match=r"x\.json: integer out of range at a\[1\]"):
        parse(f'{{"a": [0, {text}]}}', what="x.json")


def test_a_game_file_names_the_step_and_seat(tmp_path: Path, guess_file: Path) -> None:
    bad = with_huge(guess_file, tmp_path / "bad.json")
    with pytest.raises(Rejected, match=r"step 2, seat 0 \(bot1\): integer out of range at body\.n"):
        gamefile.read(bad)


@pytest.mark.parametrize("command", FILE_COMMANDS, ids=lambda c: c[0])
def test_every_command_refuses_a_huge_integer_in_one_line(
    tmp_path: Path, guess_file: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    pbem("key", "new", "ann", "--email", "ann@example.org", "--no-passphrase")
    bad = with_huge(guess_file, tmp_path / "bad.json")
    before = sorted(p.name for p in tmp_path.iterdir())
    one_line(pbem(command[0], bad, *command[1:]), 1, "integer out of range at body.n")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_an_identity_card_with_a_huge_integer_is_refused(tmp_path: Path) -> None:
    pbem("key", "new", "bea", "--email", "bea@example.org", "--no-passphrase")
    card = tmp_path / "bea.card.json"
    pbem("key", "export", "bea", "-o", card)
    data = json.loads(card.read_text())
    data["name"] = 0
    card.write_text(json.dumps(data).replace('"name": 0', f'"name": {HUGE}'))
    one_line(pbem("key", "import", card), 1, "integer out of range at name")


def test_a_huge_action_number_is_refused(tmp_path: Path, guess_file: Path) -> None:
    from pbem.ruleset.rules import RulesError, number

    with pytest.raises(RulesError, match=r"\(5000 digits\) is out of range"):
        number(HUGE)
    with pytest.raises(RulesError, match="out of range"):
        number(str(2**53))
    assert number(str(MAX_SAFE_INTEGER)) == MAX_SAFE_INTEGER


def test_receive_imports_the_good_messages_of_a_batch(tmp_path: Path, guess_file: Path) -> None:
    """One message with a huge integer in its attachment is reported; the others of the
    mbox are imported all the same."""
    box = mailbox.mbox(tmp_path / "inbox.mbox")
    bad = with_huge(guess_file, tmp_path / "bad.json")
    for n, path in enumerate([guess_file, bad, guess_file]):
        message = EmailMessage()
        message["Subject"] = f"game {n}"
        message["Message-ID"] = f"<m{n}@example.org>"
        message.set_content("a game file")
        message.add_attachment(
            path.read_bytes(), maintype="application", subtype="json", filename="g.json"
        )
        box.add(message)
    box.flush()
    result = pbem("receive", tmp_path / "inbox.mbox", "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert [g["status"] for g in report["games"]] == ["new", "duplicate"]
    assert "Traceback" not in result.output
    (problem,) = report["problems"]
    assert "<m1@example.org>" in problem and "integer out of range at body.n" in problem
