"""``pbem watch``: the robot against real servers, including ones that refuse or hang up."""

from __future__ import annotations

import imaplib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from imapclient import IMAPClient

from pbem.crypto.keyring import Keyring
from pbem.mail import config as mail_config
from pbem.mail import transport
from pbem.mail.memory import Memory
from pbem.mail.waiting import Waiter
from pbem.play.author import automatic
from pbem.store.journal import Journal
from tests.mail.conftest import Player, new_game
from tests.mail.servers import HOST, PASSWORD, Dovecot, DroppingRelay, Smtp


def watch(player: Player, code: int | None = 0) -> tuple[str, str]:
    result = player.run("watch", "--once", "--as", player.name, code=code)
    return result.stdout, result.stderr


def outbox(player: Player) -> list[tuple[int, bytes]]:
    """Mail the robot still has to send (it lives in the store)."""
    return Memory(player.store()).outbox()


def sent(player: Player) -> int:
    return (
        player.store()
        .db.execute("SELECT count(*) FROM outbox WHERE sent IS NOT NULL")
        .fetchone()[0]
    )


def game_of(player: Player) -> str:
    (game,) = player.store().ids()
    return game


@pytest.fixture
def relay_to(request: pytest.FixtureRequest) -> Iterator[type[DroppingRelay]]:
    relays: list[DroppingRelay] = []

    def make(target: int) -> DroppingRelay:
        relay = DroppingRelay(target)
        relays.append(relay)
        return relay

    yield make  # type: ignore[misc]
    for relay in relays:
        relay.close()


def test_the_robot_joins_mails_on_and_skips_a_duplicate_delivery(
    trio: list[Player], tmp_path: Path, imap: Dovecot
) -> None:
    alice, bob, carol = trio
    alice.run("send", new_game(trio, tmp_path))
    out, _ = watch(bob)
    assert "new game" in out and "made 1 automatic step" in out
    assert f"to carol <{carol.email}>" in out
    # To carol only: a join needs no decision, it goes to the seat awaited next (issue 27)
    assert imap.count(carol.email) == 2 and imap.count(alice.email) == 0

    head = bob.store().head(game_of(bob)).text()
    assert sent(bob) == 1
    first = imap_raw(imap, bob.email, 1)
    imap.append(bob.email, first)  # the same message delivered twice (new UID, same ID)
    out, _ = watch(bob)
    assert out == ""  # nothing changed: nothing said
    assert bob.store().head(game_of(bob)).text() == head
    assert sent(bob) == 1 and outbox(bob) == []
    out, _ = watch(bob)  # nothing new at all
    assert out == ""


def test_steps_kept_by_a_robot_killed_before_it_queued_them_are_sent_next_pass(
    trio: list[Player], tmp_path: Path, imap: Dovecot
) -> None:
    """architecture §10: the robot keeps its steps, then queues the message that carries
    them; killed in between, the next pass finds the steps no mail carries and sends them
    (else the others would wait for them for ever)."""
    _, bob, carol = trio
    game = new_game(trio, tmp_path)
    store = bob.store()
    store.import_file(game)
    gid = game_of(bob)
    me = Keyring(bob.home).load("bob", None)
    head = store.head(gid)
    assert automatic(head.position, me, journal=Journal(store)) == 1  # bob's join
    store.save(head, "made by pbem watch, then killed")
    assert Journal(store).unwritten(gid, 1) == [(1, "join")]
    out, _ = watch(bob)
    assert f"to carol <{carol.email}>" in out and imap.count(carol.email) == 1
    assert Journal(bob.store()).unwritten(gid, 1) == []
    out, _ = watch(bob)  # carried now: not sent again
    assert out == "" and imap.count(carol.email) == 1


def imap_raw(imap: Dovecot, user: str, uid: int) -> bytes:
    client = imaplib.IMAP4(HOST, imap.port)
    client.login(user, PASSWORD)
    client.select("INBOX", readonly=True)
    data = client.uid("FETCH", str(uid), "(BODY.PEEK[])")[1]
    client.logout()
    return data[0][1]  # type: ignore[index]


def test_a_refusing_smtp_server_loses_nothing(
    trio: list[Player], tmp_path: Path, smtp: Smtp, imap: Dovecot
) -> None:
    alice, bob, carol = trio
    alice.run("send", new_game(trio, tmp_path))
    smtp.delivery.refuse = True
    out, err = watch(bob, code=2)
    assert "made 1 automatic step" in out
    (line,) = err.splitlines()
    assert "554" in line and "kept in the outbox" in line and "retried next pass" in line
    assert len(outbox(bob)) == 1
    smtp.delivery.refuse = False
    out, _ = watch(bob)
    assert out.startswith("sent '[pbem] guess")
    assert outbox(bob) == []
    assert imap.count(carol.email) == 2


def test_an_smtp_server_that_hangs_up_loses_nothing(
    trio: list[Player], tmp_path: Path, smtp: Smtp, imap: Dovecot, relay_to: type[DroppingRelay]
) -> None:
    alice, bob, carol = trio
    alice.run("send", new_game(trio, tmp_path))
    relay = relay_to(smtp.port)
    relay.drop(b"220 ")  # cut the greeting short
    bob.run("config", "set", "smtp.port", relay.port)
    _, err = watch(bob, code=2)
    assert "nothing was sent" in err and relay.cuts == 1
    out, _ = watch(bob)
    assert "sent '[pbem]" in out and imap.count(carol.email) == 2


def test_an_imap_server_that_drops_mid_session_loses_no_message(
    trio: list[Player], tmp_path: Path, imap: Dovecot, relay_to: type[DroppingRelay]
) -> None:
    alice, bob, _ = trio
    for number in range(3):
        game = new_game(trio, tmp_path)
        alice.run("send", game)
        game.rename(tmp_path / f"game{number}.json")
    relay = relay_to(imap.port)
    relay.drop(b"BODY[] {", occurrence=2)  # hang up while the second message comes in
    for key, value in (("imap.port", relay.port), ("imap.security", "none")):
        bob.run("config", "set", key, value)
    out, err = watch(bob, code=2)
    assert relay.cuts == 1 and err.count("IMAP server") == 1
    assert out.count("new game") == 1
    assert len(bob.store().ids()) == 1
    out, _ = watch(bob)
    assert out.count("new game") == 2 and len(bob.store().ids()) == 3
    (last,) = bob.store().db.execute("SELECT last FROM mailboxes").fetchone()
    assert last == 3


def test_an_unopenable_mailbox_is_one_line_and_the_robot_goes_on(
    trio: list[Player], tmp_path: Path, imap: Dovecot
) -> None:
    alice, bob, _ = trio
    alice.run("send", new_game(trio, tmp_path))
    bob.run("config", "set", "imap.mailbox", "Nope")
    _, err = watch(bob, code=2)
    (line,) = err.splitlines()
    assert line.startswith(
        f"pbem watch: IMAP server {HOST}:{imap.port}: cannot open mailbox 'Nope': "
        "Mailbox doesn't exist: Nope"
    )
    bob.run("config", "unset", "imap.mailbox")
    bob.run("config", "set", "imap.port", "1")  # nothing listens there
    _, err = watch(bob, code=2)
    assert err == f"pbem watch: IMAP server {HOST}:1: Connection refused\n"
    bob.run("config", "set", "imap.port", imap.port)
    out, _ = watch(bob)
    assert "made 1 automatic step" in out


def test_notify_once_per_position_and_a_late_copy_changes_nothing(
    trio: list[Player], tmp_path: Path
) -> None:
    alice, bob, carol = trio
    alice.run("send", new_game(trio, tmp_path, "guess", "rounds=1"))
    for player in (bob, carol, alice, bob, carol, alice):  # joins, then the setup beacon
        watch(player)
    assert [len(p.notes.read_text().splitlines()) for p in trio] == [1, 1, 1]
    for player in trio:
        watch(player)
    assert [len(p.notes.read_text().splitlines()) for p in trio] == [1, 1, 1]
    game = game_of(alice)

    late = tmp_path / "late.eml"  # alice's guess, mailed much later than it was made
    alice.run("play", game[:8], "guess 3", "--as", "alice", "-o", tmp_path / "a.json")
    alice.run("send", tmp_path / "a.json", "--eml", late)
    bob.run("play", game[:8], "guess 5", "--as", "bob", "-o", tmp_path / "b.json")
    bob.run("send", tmp_path / "b.json")
    watch(carol)
    carol.run("play", game[:8], "guess 7", "--as", "carol", "-o", tmp_path / "c.json")
    carol.run("send", tmp_path / "c.json")
    out, _ = watch(alice)  # merges both guesses into hers, reveals, mails that on
    assert "merged" in out and "made 1 automatic step" in out
    watch(carol)

    head = carol.store().head(game).text()
    result = carol.run("receive", late)
    assert "an older copy (2 steps behind yours): nothing new" in result.stdout
    assert carol.store().head(game).text() == head


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_the_robot_keeps_running_and_tries_again_later(
    trio: list[Player], tmp_path: Path, smtp: Smtp, imap: Dovecot
) -> None:
    alice, bob, carol = trio
    alice.run("send", new_game(trio, tmp_path))
    smtp.delivery.refuse = True
    command = [sys.executable, "-c", "from tests.mail.conftest import cli; cli()"]
    robot = subprocess.Popen(
        [*command, "watch", "--as", "bob", "--interval", "1"],
        env={**os.environ, **bob.env(), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out: list[str] = []
    assert robot.stdout is not None
    reader = threading.Thread(target=lambda: out.extend(robot.stdout), daemon=True)  # type: ignore[arg-type]
    reader.start()
    try:
        wait_for(lambda: smtp.delivery.refusals > 0, "the first, refused pass")
        assert len(outbox(bob)) == 1
        smtp.delivery.refuse = False
        wait_for(lambda: any(line.startswith("sent '[pbem]") for line in out), "a later pass")
        assert robot.poll() is None  # still running
    finally:
        robot.terminate()
        _, err = robot.communicate(timeout=10)
    assert "554" in err and "retried next pass" in err
    assert any("made 1 automatic step" in line for line in out)
    assert imap.count(carol.email) == 2 and outbox(bob) == []


def test_without_cc_a_robot_forwards_what_it_merged(
    trio: list[Player], tmp_path: Path, smtp: Smtp
) -> None:
    """Bob and Carol join on copies that lack each other's envelope (Bob's mail is held
    up); each completes the join only by merging, and must then tell Alice, whom nobody
    copied."""
    alice, bob, carol = trio
    for player in trio:
        player.run("config", "set", "smtp.cc", "none")
    alice.run("send", new_game(trio, tmp_path))
    smtp.delivery.refuse = True
    watch(bob, code=2)  # joins; the mail to Carol waits in his outbox
    smtp.delivery.refuse = False
    watch(carol)  # joins without Bob's envelope, mails Bob only
    out, _ = watch(bob)  # sends his join, then merges Carol's: the join is complete
    assert "merged 1 envelope, 1 step completed" in out
    watch(carol)
    out, _ = watch(alice)
    assert "made 1 automatic step" in out  # the setup beacon: Alice got the full join
    assert not any(b"\nCc: " in raw for _, _, raw in smtp.delivery.messages)


def test_a_mailbox_named_in_any_language_is_read(
    trio: list[Player], tmp_path: Path, imap: Dovecot
) -> None:
    """IMAP names folders in modified UTF-7: ``Entwürfe`` is ``Entw&APw-rfe`` on the wire
    (issue 28: imaplib by hand sent it raw, and watch ended with exit 3)."""
    alice, bob, _ = trio
    alice.run("send", new_game(trio, tmp_path), "--eml", tmp_path / "new.eml")
    folder = "Entwürfe"
    client = IMAPClient(HOST, imap.port, ssl=False, timeout=10)
    client.login(bob.email, PASSWORD)
    client.create_folder(folder)
    client.append(folder, (tmp_path / "new.eml").read_bytes())
    client.logout()
    bob.run("config", "set", "imap.mailbox", folder)
    out, _ = watch(bob)
    assert "new game" in out and "made 1 automatic step" in out


def test_a_mailbox_with_a_non_ascii_name_is_read_and_waited_on(
    trio: list[Player], tmp_path: Path, imap: Dovecot
) -> None:
    """Issue 29: ``imap.mailbox Entwürfe`` (modified UTF-7 on the wire, ``Entw&APw-rfe``):
    the robot reads it, idles on it, and exits 0, not 3."""
    alice, bob, _ = trio
    client = IMAPClient(HOST, imap.port, ssl=False)
    client.login(bob.email, PASSWORD)
    client.create_folder("Entwürfe")
    bob.run("config", "set", "imap.mailbox", "Entwürfe")
    alice.run("send", new_game(trio, tmp_path))  # into the INBOX: not the robot's mailbox
    raw = imap_raw(imap, bob.email, 1)
    out, _ = watch(bob)
    assert out == "" and bob.store().ids() == []
    client.append("Entwürfe", raw)
    client.logout()
    out, _ = watch(bob)
    assert "new game" in out and "made 1 automatic step" in out
    assert folder_names(imap, bob) == ["Entwürfe", "INBOX"]
    settings = mail_config.load(bob.home)
    uidvalidity, last = Memory(bob.store()).last_read(transport.mailbox_key(settings.imap))
    assert last == 1 and Waiter(settings.imap, PASSWORD).wait(3, uidvalidity, last) == "timeout"


def folder_names(imap: Dovecot, player: Player) -> list[str]:
    client = IMAPClient(HOST, imap.port, ssl=False)
    client.login(player.email, PASSWORD)
    names = sorted(name for _, _, name in client.list_folders())
    client.logout()
    return names
