"""Messages altered in transit still import; bad input is one clear line and loses nothing."""

from __future__ import annotations

import json
import mailbox
import textwrap
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.format import gamefile
from pbem.mail.extract import find_games, rejoin_strings, unflow
from pbem.store.store import Store
from tests.helpers import guess_game
from tests.mail.conftest import cli


def game_text() -> str:
    replay, _ = guess_game(3)
    return gamefile.encode(replay.to_file())


def message(body: str = "Your move.", **headers: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "alice@example.org"
    msg["To"] = "bob@example.org"
    msg["Subject"] = "[pbem] a game"
    for key, value in headers.items():
        msg[key.replace("_", "-")] = value
    msg.set_content(body)
    return msg


def attached(text: str, cte: str) -> bytes:
    msg = message()
    msg.add_attachment(text.encode(), "application", "json", filename="g.json", cte=cte)
    return msg.as_bytes()


def pasted(text: str, cte: str = "8bit") -> bytes:
    return message(f"Here is the game:\n\n{text}\nCheers\n", cte=cte).as_bytes()


def wrapped(text: str) -> bytes:
    """A client that hard-wraps at 60 columns, splitting long base64 strings."""
    lines = [piece for line in text.splitlines() for piece in textwrap.wrap(line, 60) or [""]]
    return pasted("\n".join(lines))


def forwarded_inline(text: str) -> bytes:
    quoted = "\n".join("> " + line for line in textwrap.fill(text, 70).splitlines())
    body = (
        "See below.\n\n---------- Forwarded message ---------\nFrom: Alice\n"
        f"Subject: [pbem] a game\n\n{quoted}\n"
    )
    return message(body, cte="quoted-printable").as_bytes()


def forwarded_as_attachment(text: str) -> bytes:
    outer = message("Forwarding.")
    inner = message("original")
    inner.add_attachment(text.encode(), "application", "json", filename="g.json")
    outer.add_attachment(inner)
    return outer.as_bytes()


def flowed(text: str) -> bytes:
    """RFC 3676 format=flowed: long lines broken after a space, rejoined by readers."""
    soft = []
    for line in text.splitlines():
        while len(line) > 50:
            soft.append(line[:50] + " ")
            line = line[50:]
        soft.append(line)
    msg = EmailMessage()
    msg["Subject"] = "flowed"
    msg.set_content("\n".join(soft) + "\n", params={"format": "flowed", "delsp": "yes"})
    return msg.as_bytes()


ALTERATIONS: dict[str, Callable[[str], bytes]] = {
    "attachment quoted-printable": lambda t: attached(t, "quoted-printable"),
    "attachment base64": lambda t: attached(t, "base64"),
    "pasted, body base64": lambda t: pasted(t, "base64"),
    "pasted, body quoted-printable": lambda t: pasted(t, "quoted-printable"),
    "pasted, wrapped lines": wrapped,
    "forwarded inline, quoted and wrapped": forwarded_inline,
    "forwarded as an attached message": forwarded_as_attachment,
    "format=flowed": flowed,
}


def receive(tmp_path: Path, raw: bytes, *more: str) -> Result:
    (tmp_path / "in.eml").write_bytes(raw)
    return CliRunner().invoke(cli, ["receive", str(tmp_path / "in.eml"), *more])


@pytest.mark.parametrize("alteration", list(ALTERATIONS))
def test_messages_altered_in_transit_still_import(tmp_path: Path, alteration: str) -> None:
    text = game_text()
    raw = ALTERATIONS[alteration](text)
    found = find_games(raw, "test")
    assert found.problems == [] and len(found.games) == 1, found.problems
    result = receive(tmp_path, raw)
    assert result.exit_code == 0, result.output
    assert "new game" in result.stdout
    (game,) = Store().ids()
    assert gamefile.decode(Store().head(game).text()) == gamefile.decode(text)


def test_the_same_file_attached_and_pasted_counts_once(tmp_path: Path) -> None:
    text = game_text()
    msg = message(f"pasted:\n{text}")
    msg.add_attachment(text.encode(), "application", "json", filename="g.json")
    assert len(find_games(msg.as_bytes(), "x").games) == 1


BAD = {
    "no game file": (message("just chatting").as_bytes(), "no game file in it"),
    "not JSON": (
        attached("these are not the droids", "base64"),
        "attachment g.json is not valid JSON",
    ),
    "truncated": (None, "attachment g.json is truncated: it ends mid-file"),
    "truncated paste": (None, "game file pasted in the text (1) is truncated or damaged"),
    "unknown game": (None, "unknown ruleset 'chess'"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_one_line_per_problem_and_exit_1(tmp_path: Path, case: str) -> None:
    raw, expected = BAD[case]
    text = game_text()
    if case == "truncated":
        raw = attached(text[: len(text) // 2], "base64")
    elif case == "truncated paste":
        raw = pasted(text[: len(text) // 2])
    elif case == "unknown game":
        data = json.loads(text)
        data["genesis"]["ruleset"]["id"] = "chess"
        raw = attached(json.dumps(data, indent=1), "base64")
    result = receive(tmp_path, raw)
    assert result.exit_code == 1, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and expected in lines[0], lines
    assert lines[0].startswith("pbem: message '[pbem] a game': ")
    assert lines[1] == "pbem: error: 1 problem; nothing was imported"


def test_a_bad_message_does_not_stop_the_good_ones(tmp_path: Path) -> None:
    box = tmp_path / "box.mbox"
    mbox = mailbox.mbox(box)
    mbox.add(message("nothing here").as_bytes())
    mbox.add(attached(game_text(), "base64"))
    mbox.flush()
    result = CliRunner().invoke(cli, ["receive", str(box)])
    assert result.exit_code == 1
    assert "new game" in result.stdout and "no game file" in result.stderr
    assert len(Store().ids()) == 1


def test_rejoin_and_unflow_leave_valid_text_alone() -> None:
    text = game_text()
    assert rejoin_strings(text) == text
    assert unflow(text, delsp=True) == text
