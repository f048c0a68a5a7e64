"""Hostile mail against the robot, in a real Dovecot inbox (issue 34, items 1 and 5).

Anyone who knows a player's address can mail them. A mail over an input limit (a pasted
file with a 5,000-digit integer or nested 100,000 deep, 3,000 nested MIME parts) is
quarantined: recorded with its reason, shown by ``pbem games``, taken as read, and the
valid mail after it is imported in the same pass; the next pass reads none of it again.
A mail first delivered damaged and then again intact under the same Message-ID is
imported the second time."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from pbem.mail.memory import Memory
from tests.mail.conftest import Player, new_game
from tests.mail.servers import Dovecot


def text_mail(body: str, ident: str) -> bytes:
    message = EmailMessage()
    message["From"] = "mallory@example.org"
    message["Subject"] = "hello"
    message["Message-ID"] = ident
    message.set_content(body)
    return message.as_bytes()


def nested_mime(depth: int, ident: str) -> bytes:
    """A message whose text sits ``depth`` multipart/mixed containers deep."""
    opening = "".join(
        f'Content-Type: multipart/mixed; boundary="b{n}"\n\n--b{n}\n' for n in range(depth)
    )
    closing = "".join(f"--b{n}--\n" for n in reversed(range(depth)))
    head = f"From: mallory@example.org\nMessage-ID: {ident}\nMIME-Version: 1.0\n"
    return (head + opening + "Content-Type: text/plain\n\nhi\n" + closing).encode()


HUGE = '{"format": "pbem/1", "genesis": ' + "9" * 5000 + "}"
DEEP = '{"format": "pbem/1", "genesis": ' + "[" * 100_000 + "]" * 100_000 + "}"
HOSTILE = {
    "<huge@example.org>": (text_mail(HUGE, "<huge@example.org>"), "(5000 digits)"),
    "<deep@example.org>": (text_mail(DEEP, "<deep@example.org>"), "nested deeper than 64"),
    "<mime@example.org>": (nested_mime(3000, "<mime@example.org>"), "more than 64 MIME parts"),
}


def watch(player: Player, code: int) -> tuple[str, str]:
    result = player.run("watch", "--once", "--as", player.name, code=code)
    return result.stdout, result.stderr


def test_hostile_mail_is_quarantined_and_the_robot_moves_on(
    trio: list[Player], tmp_path: Path, imap: Dovecot
) -> None:
    alice, bob, _ = trio
    for raw, _ in HOSTILE.values():
        imap.append(bob.email, raw)
    alice.run("send", new_game(trio, tmp_path))  # a valid mail after them
    out, err = watch(bob, 1)
    assert "new game" in out and "made 1 automatic step" in out
    problems = err.strip().splitlines()
    assert len(problems) == 3
    for line, (ident, (_, reason)) in zip(problems, HOSTILE.items(), strict=True):
        assert line.startswith(f"pbem watch: {ident}: ") and reason in line, line
    assert len(bob.store().ids()) == 1

    out, err = watch(bob, 0)  # nothing is read again
    assert out == err == ""
    quarantined = bob.json("games")["quarantined"]
    assert [q["message"] for q in quarantined] == list(reversed(HOSTILE))
    listed = bob.run("games").stdout
    assert "3 mails quarantined (refused by an input limit)" in listed
    assert "<huge@example.org>: game file pasted in the text (1): integer out of range" in listed


def test_pbem_receive_quarantines_as_the_robot_does(tmp_path: Path) -> None:
    player = Player("dan", tmp_path)
    for ident, (raw, reason) in HOSTILE.items():
        mail = tmp_path / f"{len(raw)}.eml"
        mail.write_bytes(raw)
        result = player.run("receive", mail, code=1)
        problem, last = result.stderr.splitlines()
        assert problem.startswith(f"pbem: {ident}: ") and reason in problem, problem
        assert last == "pbem: error: 1 problem; nothing was imported"
    assert len(Memory(player.store()).quarantined()) == 3


def attachment_mail(data: bytes, ident: str) -> bytes:
    message = EmailMessage()
    message["From"] = "alice@example.org"
    message["Subject"] = "[pbem] a game"
    message["Message-ID"] = ident
    message.set_content("Your move.")
    message.add_attachment(data, "application", "json", filename="game.json")
    return message.as_bytes()


def test_a_mail_delivered_again_intact_is_imported(
    trio: list[Player], tmp_path: Path, imap: Dovecot
) -> None:
    _, bob, _ = trio
    game = new_game(trio, tmp_path).read_bytes()
    ident = "<again@example.org>"
    imap.append(bob.email, attachment_mail(game[: len(game) // 2], ident))
    out, err = watch(bob, 1)
    assert out == "" and "game.json is truncated: it ends mid-file" in err
    assert bob.store().ids() == []

    imap.append(bob.email, attachment_mail(game, ident))  # the same Message-ID, whole
    out, err = watch(bob, 0)
    assert "new game" in out and err == ""
    assert len(bob.store().ids()) == 1

    imap.append(bob.email, attachment_mail(game, ident))  # and once more: taken once
    out, err = watch(bob, 0)
    assert out == err == ""
