"""``pbem watch`` waiting for mail: IMAP IDLE against the tests' Dovecot, a connection cut
in the middle of IDLE, and polling when the server offers no IDLE (issue 17, point 6)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.mail import config as mail_config
from pbem.mail import transport
from pbem.mail.config import Imap
from pbem.mail.waiting import Waiter
from tests.mail.conftest import Player, new_game
from tests.mail.servers import HOST, PASSWORD, Dovecot, DroppingRelay, free_port
from tests.mail.test_watch import wait_for

COMMAND = [sys.executable, "-c", "from tests.mail.conftest import cli; cli()"]


class Robot:
    """``pbem watch`` running as its own process, its output collected as it comes."""

    def __init__(self, player: Player, *args: str) -> None:
        self.out: list[str] = []
        self.err: list[str] = []
        self.process = subprocess.Popen(
            [*COMMAND, "watch", "--as", player.name, *args],
            env={**os.environ, **player.env(), "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=lambda s=stream, k=lines: k.extend(s), daemon=True).start()

    def said(self, text: str) -> int:
        return sum(text in line for line in self.out)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def relay(imap: Dovecot) -> Iterator[DroppingRelay]:
    relay = DroppingRelay(imap.port)
    yield relay
    relay.close()


@pytest.fixture
def hidden(imap: Dovecot) -> Iterator[DroppingRelay]:
    relay = DroppingRelay(imap.port, hide=b" IDLE")
    yield relay
    relay.close()


def through(player: Player, relay: DroppingRelay) -> None:
    for key, value in (("imap.port", relay.port), ("imap.security", "none")):
        player.run("config", "set", key, value)


def test_idle_wakes_the_robot_and_a_cut_mid_idle_loses_nothing(
    trio: list[Player], tmp_path: Path, relay: DroppingRelay
) -> None:
    alice, bob, _ = trio
    through(bob, relay)
    relay.drop(b"+ idling")  # the robot's first IDLE is cut as soon as it starts
    robot = Robot(bob, "--interval", "600")  # polling alone would not look again for 10 min
    try:
        wait_for(lambda: relay.cuts == 1, "the first IDLE, cut")
        wait_for(lambda: sum("IDLE" in e for e in robot.err) >= 1, "the robot idling again")
        relay.drop(b"+ idling")  # the IDLE after the next pass is cut too
        first = new_game(trio, tmp_path)
        alice.run("send", first)
        wait_for(lambda: robot.said("made 1 automatic step") == 1, "IDLE to wake the robot")
        first.rename(tmp_path / "first.json")
        alice.run("send", new_game(trio, tmp_path))  # while that IDLE is being cut
        wait_for(lambda: robot.said("made 1 automatic step") == 2, "the mail sent meanwhile")
        assert relay.cuts == 2 and robot.process.poll() is None  # cut twice, still running
    finally:
        robot.stop()
    assert robot.said("new game") == 2 and len(bob.store().ids()) == 2
    assert robot.err.count("pbem watch: waiting for mail with IMAP IDLE\n") == 1
    assert not [e for e in robot.err if "IDLE" not in e], robot.err


def test_without_idle_the_robot_polls(
    trio: list[Player], tmp_path: Path, hidden: DroppingRelay
) -> None:
    alice, bob, _ = trio
    through(bob, hidden)
    robot = Robot(bob, "--interval", "1")
    try:
        wait_for(lambda: bool(robot.err), "the robot to say how it waits")
        alice.run("send", new_game(trio, tmp_path))
        wait_for(lambda: robot.said("made 1 automatic step") == 1, "a later pass")
    finally:
        robot.stop()
    assert robot.err == ["pbem watch: the IMAP server offers no IDLE: looking for mail every 1 s\n"]


def test_ctrl_c_stops_the_robot_with_one_line_and_exit_130(trio: list[Player]) -> None:
    """The README's contract: Ctrl-C ends any command with one line and exit 130; the
    robot says it stopped (issue 28: it exited 0)."""
    _, bob, _ = trio
    robot = Robot(bob, "--interval", "600")
    try:
        wait_for(lambda: any("IDLE" in e for e in robot.err), "the robot idling")
        robot.process.send_signal(signal.SIGINT)
        assert robot.process.wait(30) == 130
        wait_for(lambda: robot.err[-1:] == ["pbem watch: stopped\n"], "its last line")
        assert not any("Traceback" in line for line in robot.err)
    finally:
        if robot.process.poll() is None:
            robot.stop()


def test_idle_is_renewed_within_the_set_seconds(trio: list[Player], relay: DroppingRelay) -> None:
    """Issue 29: a wait longer than ``imap.idle_seconds`` ends its IDLE and starts a new one
    on the same connection, so no router sees it silent for longer."""
    _, bob, _ = trio
    through(bob, relay)
    bob.run("config", "set", "imap.idle_seconds", "5")
    settings = mail_config.load(bob.home)
    told: list[str] = []
    waiter = Waiter(settings.imap, PASSWORD, told.append)
    assert waiter.wait(12, 0, 0) == "mail"  # a new mailbox: UIDVALIDITY unknown yet
    uidvalidity = relay_uidvalidity(settings.imap)
    relay.commands.clear()
    assert waiter.wait(12, uidvalidity, 0) == "timeout"
    said = b"".join(relay.commands)
    idles, dones = said.count(b" IDLE\r\n"), said.count(b"DONE\r\n")
    print(f"one wait of 12 s with imap.idle_seconds 5: {idles} IDLE, {dones} DONE")
    assert idles >= 3 and dones == idles and said.count(b"LOGIN") == 1
    assert told == ["waiting for mail with IMAP IDLE"]


def relay_uidvalidity(server: Imap) -> int:
    with transport.Mailbox(server, PASSWORD) as box:
        return box.uidvalidity


def test_a_server_that_stays_down_is_tried_less_and_less_often(trio: list[Player]) -> None:
    """After each failed connection in a row the pause doubles (2, 4, 8 s ...), up to a
    cap, and never beyond the wait asked for."""
    _, bob, _ = trio
    server = Imap(host=HOST, port=free_port(), security="none", user=bob.email)
    naps: list[float] = []
    waiter = Waiter(server, PASSWORD, sleep=naps.append)
    pauses = []
    for _ in range(9):
        waiter.wait(600, 0, 0)
        pauses.append(sum(naps))
        naps.clear()
    assert pauses == [2, 4, 8, 16, 32, 64, 120, 120, 120]
    waiter.wait(10, 0, 0)
    assert sum(naps) == 10  # never longer than the wait asked for


def doveadm(imap: Dovecot, *args: str) -> str:
    conf = imap.directory / "dovecot.conf"
    done = subprocess.run(["doveadm", "-c", str(conf), *args], capture_output=True, text=True)
    return done.stdout


def kick(imap: Dovecot, user: str) -> None:
    """Dovecot itself ends ``user``'s IMAP connections (``doveadm kick``), as a server that
    restarts or a provider that drops idle sessions does: once the robot is connected (its
    IDLE, between two passes)."""
    delivering = imap.sessions.pop(user, None)
    if delivering is not None:  # the tests' delivery agent: not counted as the robot
        delivering.logout()
    wait_for(lambda: user in doveadm(imap, "who"), "the robot connected")
    assert user in doveadm(imap, "kick", user)


def test_connections_dropped_by_the_server_during_idle_lose_no_mail(
    trio: list[Player], tmp_path: Path, imap: Dovecot
) -> None:
    """Issue 29: the server ends the robot's connection in the middle of IDLE, and a game
    is mailed while the robot has none; three times. The robot connects again and reads
    every game, each once."""
    alice, bob, _ = trio
    robot = Robot(bob, "--interval", "600")
    sent = 0
    try:
        wait_for(lambda: any("IDLE" in e for e in robot.err), "the robot idling")
        for round_ in range(1, 4):
            kick(imap, bob.email)
            game = new_game(trio, tmp_path)
            alice.run("send", game)
            game.rename(tmp_path / f"game-{round_}.json")
            sent += 1
            wait_for(lambda r=round_: robot.said("new game") >= r, f"game {round_} read")
    finally:
        robot.stop()
    received = len(bob.store().ids())
    print(
        f"IDLE dropped by the server 3 times: sent {sent}, received {received}, "
        f"duplicated {robot.said('new game') - received}"
    )
    assert sent == received == robot.said("new game") == 3
    assert robot.process.returncode is not None
