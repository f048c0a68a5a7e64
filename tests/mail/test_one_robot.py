"""One robot per home (issue 25, architecture §10): bots sharing a home are played by one
``pbem watch``, by real SMTP and IMAP; every file mailed verifies, no message is sent twice,
and a step made by another process of the home wakes the robot at once."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

from pbem.crypto.keyring import Keyring
from pbem.crypto.randomness import Rng
from pbem.format import gamefile
from pbem.format.bundle import STEPS_TYPE, decode_bundle
from pbem.format.gamefile import step_hash
from pbem.ledger.awaiting import decides
from pbem.ledger.replay import replay_file
from pbem.play.author import knowledge
from pbem.ruleset import registry
from tests.mail.conftest import Player
from tests.mail.servers import Certs, Dovecot, Smtp
from tests.mail.test_watch import wait_for

BOTS = ("rob1", "rob2", "rob3")
COMMAND = [sys.executable, "-c", "from tests.mail.conftest import cli; cli()"]


def home_of_bots(
    root: Path, smtp: Smtp, imap: Dovecot, certs: Certs, bot: str = "random"
) -> Player:
    """One home holding three bot identities: they share its mailbox (one address), and
    each plays its seats with the bot of its ``bot.NAME`` setting."""
    bots = Player("bots", root)
    for name in BOTS:
        bots.run("key", "new", name, "--email", bots.email, "--no-passphrase")
        bots.run("key", "export", name, "-o", root / f"{name}.card.json")
        bots.run("config", "set", f"bot.{name}", bot)
    bots.configure(smtp, imap, certs)
    return bots


def carried(raw: bytes) -> list[tuple[str, bytes]]:
    """The game files and step bundles a message carries, with their media types."""
    message: Message = message_from_bytes(raw)
    return [
        (part.get_content_type(), part.get_payload(decode=True))
        for part in message.walk()
        if part.get_content_type() in ("application/json", STEPS_TYPE)
    ]


def check_mailed(data: bytes, kind: str, final: Any) -> None:
    """A file mailed verifies from nothing; a bundle mailed holds steps of the verified
    final game (a batch: some of its envelopes) and follows the step it names."""
    rules = final.rules
    if kind == "application/json":
        replay_file(gamefile.decode(data), rules)
        return
    bundle = decode_bundle(data)
    steps = final.steps
    assert bundle.after == (
        step_hash(steps[bundle.index - 1]) if bundle.index else final.genesis_hash
    )
    for k in range(len(bundle.steps)):
        mine, theirs = bundle.steps[k], steps[bundle.index + k]
        if hasattr(mine, "envelopes"):
            assert {e.canonical_bytes() for e in mine.envelopes} <= {
                e.canonical_bytes() for e in theirs.envelopes
            }
        else:
            assert mine.canonical_bytes() == theirs.canonical_bytes()


@dataclass
class OneHome:
    """What a game by mail between one person and three bots of one home did."""

    messages: int
    files: int
    decisions: int
    problems: list[str]


def play_with_a_home_of_bots(
    root: Path,
    smtp: Smtp,
    imap: Dovecot,
    certs: Certs,
    ruleset: str,
    options: tuple[str, ...],
    bot: str = "random",
) -> OneHome:
    """A person (alice, deciding with the rules' first legal move) and three bots sharing one
    home and one robot play a whole game by mail; every check of issue 25 on the way."""
    alice = Player("alice", root)
    alice.run("key", "new", "alice", "--email", alice.email, "--no-passphrase")
    alice.configure(smtp, imap, certs)
    bots = home_of_bots(root, smtp, imap, certs, bot)
    seats = ["--seat", "alice"] + [a for n in BOTS for a in ("--seat", root / f"{n}.card.json")]
    game = alice.work / "game.json"
    opts = [a for o in options for a in ("--option", o)]
    alice.run("new", ruleset, *seats, *opts, "--as", "alice", "-o", game)
    smtp.delivery.hold = True
    alice.run("send", game, "--as", "alice")
    rules = registry.get(ruleset)
    decided, problems = 0, []
    for _ in range(5000):
        got = smtp.delivery.release()
        if not got:
            break
        if bots.email in got:
            out = bots.run("watch", "--once", code=None)  # every identity of the home
            assert out.exit_code in (0, 1), out.output  # never a crash
            problems += out.stderr.splitlines()
        if alice.email in got:
            alice.run("watch", "--once", "--as", "alice")
            store = alice.store()
            gid = store.ids()[0]
            head = store.head(gid)
            while decides(head.position, 0):
                me = Keyring(alice.home).load("alice", None)
                state = head.position.state
                action = rules.bot("random")(
                    rules, state, 0, knowledge(head.position, me), Rng(b"a")
                )
                move = rules.format_action(state, 0, action)
                alice.run("play", "--as", "alice", "--send", "--", gid[:8], move)
                decided += 1
                head = store.head(gid)
    stores = [alice.store(), bots.store()]
    heads = [s.head(s.ids()[0]) for s in stores]
    assert all(h.position.result is not None for h in heads), [h.label for h in heads]
    assert heads[0].text() == heads[1].text()
    final = replay_file(gamefile.decode(heads[0].text()), rules)
    # No message sent twice; every file and bundle mailed verifies.
    ids = [message_from_bytes(raw)["Message-ID"] for _, _, raw in smtp.delivery.messages]
    assert len(ids) == len(set(ids)), "a message was sent twice"
    mailed = [c for _, _, raw in smtp.delivery.messages for c in carried(raw)]
    for kind, data in mailed:
        check_mailed(data, kind, final)
    # The bots' mail never went to the bots: their robot read their moves from the store.
    to_bots = [rcpts for sender, rcpts, _ in smtp.delivery.messages if sender == bots.email]
    assert all(bots.email not in rcpts for rcpts in to_bots)
    refused = [s.db.execute("SELECT count(*) FROM refused").fetchone()[0] for s in stores]
    assert refused == [0, 0], refused
    return OneHome(len(ids), len(mailed), decided, problems)


def test_three_bots_in_one_home_and_a_person_play_a_whole_game_by_mail(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    done = play_with_a_home_of_bots(tmp_path, smtp, imap, certs, "guess", ("rounds=2",))
    assert done.decisions >= 2 and done.files and not done.problems


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
