"""One robot per home (issue 25, architecture §10): bots sharing a home are played by one
``pbem watch``, by real SMTP and IMAP; every file mailed verifies, no message is sent twice,
and a step made by another process of the home wakes the robot at once."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

from pbem.format import gamefile
from pbem.ledger.awaiting import decides
from pbem.ledger.replay import replay_file
from pbem.ruleset import registry
from tests.mail.conftest import Player
from tests.mail.servers import Certs, Dovecot, Smtp
from tests.mail.test_watch import wait_for

BOTS = ("rob1", "rob2", "rob3")
COMMAND = [sys.executable, "-c", "from tests.mail.conftest import cli; cli()"]


def attachments(raw: bytes) -> list[bytes]:
    """The game files a message carries."""
    message: Message = message_from_bytes(raw)
    return [
        part.get_payload(decode=True)
        for part in message.walk()
        if part.get_content_type() == "application/json"
    ]


def home_of_bots(root: Path, smtp: Smtp, imap: Dovecot, certs: Certs) -> Player:
    """One home holding three bot identities: they share its mailbox (one address), and
    each plays its seats with the bot of its ``bot.NAME`` setting."""
    bots = Player("bots", root)
    for name in BOTS:
        bots.run("key", "new", name, "--email", bots.email, "--no-passphrase")
        bots.run("key", "export", name, "-o", root / f"{name}.card.json")
        bots.run("config", "set", f"bot.{name}", "random")
    bots.configure(smtp, imap, certs)
    return bots


def test_three_bots_in_one_home_and_a_person_play_a_whole_game_by_mail(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    alice = Player("alice", tmp_path)
    alice.run("key", "new", "alice", "--email", alice.email, "--no-passphrase")
    alice.configure(smtp, imap, certs)
    bots = home_of_bots(tmp_path, smtp, imap, certs)
    seats = ["--seat", "alice"] + [a for n in BOTS for a in ("--seat", tmp_path / f"{n}.card.json")]
    game = alice.work / "game.json"
    alice.run("new", "guess", *seats, "--option", "rounds=2", "--as", "alice", "-o", game)
    smtp.delivery.hold = True
    alice.run("send", game, "--as", "alice")
    rules = registry.get("guess")
    decided = 0
    for _ in range(200):
        got = smtp.delivery.release()
        if not got:
            break
        if bots.email in got:
            out = bots.run("watch", "--once")  # every identity of the home, one process
            assert "pbem watch:" not in out.stderr, out.stderr
        if alice.email in got:
            alice.run("watch", "--once", "--as", "alice")
            store = alice.store()
            head = store.head(store.ids()[0])
            seat = 0
            while decides(head.position, seat):
                action = rules.legal_actions(head.position.state, seat)[0]
                move = rules.format_action(head.position.state, seat, action)
                alice.run("play", "--as", "alice", "--send", "--", store.ids()[0][:8], move)
                decided += 1
                head = store.head(store.ids()[0])
    stores = [alice.store(), bots.store()]
    heads = [s.head(s.ids()[0]) for s in stores]
    assert all(h.position.result is not None for h in heads), [h.label for h in heads]
    assert heads[0].text() == heads[1].text() and decided >= 2
    # Every file that went by mail verifies from nothing; no message was sent twice.
    ids = [message_from_bytes(raw)["Message-ID"] for _, _, raw in smtp.delivery.messages]
    assert len(ids) == len(set(ids)), "a message was sent twice"
    files = [f for _, _, raw in smtp.delivery.messages for f in attachments(raw)]
    assert files
    for data in files:
        replay_file(gamefile.decode(data), rules)
    # The bots' mail never went to the bots: their robot read their moves from the store.
    to_bots = [rcpts for sender, rcpts, _ in smtp.delivery.messages if sender == bots.email]
    assert all(bots.email not in rcpts for rcpts in to_bots)


def test_a_move_made_by_another_process_of_the_home_wakes_the_robot_at_once(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    """A person and a bot in one home: the robot runs with a 10-minute poll; the person's
    ``pbem play`` changes the store and the robot answers for the bot without waiting."""
    home = Player("home", tmp_path)
    home.run("key", "new", "ann", "--email", home.email, "--no-passphrase")
    home.run("key", "new", "rob", "--email", home.email, "--no-passphrase")
    home.run("config", "set", "bot.rob", "random")
    home.configure(smtp, imap, certs)
    game = home.work / "g.json"
    home.run(
        "new",
        "guess",
        "--seat",
        "ann",
        "--seat",
        "rob",
        "--option",
        "rounds=1",
        "--as",
        "ann",
        "-o",
        game,
    )
    robot = subprocess.Popen(
        [*COMMAND, "watch", "--interval", "600"],
        env={**os.environ, **home.env(), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    out: list[str] = []
    threading.Thread(target=lambda: out.extend(robot.stdout or []), daemon=True).start()
    try:
        store = home.store()
        gid = store.ids()[0]

        def awaits(name: str) -> bool:
            pos = home.store().head(gid).position
            return (
                pos.awaiting is not None
                and any(pos.cards[s].name == name for s in pos.remaining())
                and pos.awaiting.is_decision
            )

        def revealed(pos: Any) -> bool:
            """The guesses are open: rob committed, and the robot revealed both."""
            aw = pos.awaiting
            return pos.result is not None or not aw.decision.startswith(("commit:", "reveal:"))

        wait_for(lambda: awaits("ann"), "the robot to set the game up", 60)
        home.run("play", "--as", "ann", "--", gid[:8], "guess 4")
        try:
            wait_for(
                lambda: revealed(home.store().head(gid).position),
                "the robot to answer for rob",
                60,
            )
        except AssertionError as exc:
            raise AssertionError(f"{exc}; the robot said: {out}") from exc
        assert robot.poll() is None, out
        second = home.run("watch", "--once", code=2)
        assert "pbem watch is running already" in second.stderr
    finally:
        robot.terminate()
        robot.wait(10)
