"""The store under concurrency and crashes (issue 12 point 6): two processes on one store
both succeed (one waits), and ``kill -9`` at any moment of ``play``, ``receive`` and
``watch --once`` leaves a store that opens, holds every step committed before, and exports
a file that verifies from its genesis; temporary files a kill leaves are cleaned up."""

from __future__ import annotations

import mailbox
import os
import random
import signal
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

from pbem.crypto.randomness import Rng
from pbem.format import gamefile
from pbem.ledger.replay import replay_file
from pbem.ruleset import registry
from pbem.store.store import Store
from tests.mail.conftest import Player, new_game

RUNS = 100


def pbem(player: Player, *args: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "pbem", *map(str, args)],
        env={**os.environ, **player.env()},
        cwd=player.work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def a_move(store: Store, game: str, rng: Rng) -> tuple[str, list[str]]:
    """Who is awaited in the store's head, and a legal move (none: an automatic step)."""
    pos = store.head(game).position
    seat = pos.remaining()[0]
    name = pos.names[seat]
    aw = pos.awaiting
    assert aw is not None
    if aw.is_decision:
        action = pos.rules.random_action(pos.state, seat, rng)
        return name, [pos.rules.format_action(pos.state, seat, action)]
    return name, []


def check(home: Path, game: str, floor: int) -> int:
    """The store opens, is intact, and its head is a game that verifies from the genesis,
    no shorter than what was committed before."""
    store = Store(home)
    try:
        assert store.db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        head = store.head(game)
        count = head.position.count + head.position.signatures
        assert count >= floor, "a committed step was lost"
        game_file = gamefile.decode(head.text())
        replay_file(game_file, registry.get(game_file.genesis.ruleset.id))
        return count
    finally:
        store.close()


def test_two_processes_on_one_store_both_succeed(trio: list[Player], tmp_path: Path) -> None:
    alice, bob, carol = trio
    for p in (bob, carol):  # one store for everyone: all keys in alice's home
        for key in (p.home / "keys").iterdir():
            (alice.home / "keys" / key.name).write_bytes(key.read_bytes())
    game = new_game(trio, tmp_path, "guess", "rounds=3")
    store = Store(alice.home)
    gid = store.ids()[0]
    for who in ("bob", "carol", "alice"):  # the joins and the setup beacon, in turn
        assert pbem(alice, "play", game, "--as", who).wait() == 0
    first = pbem(alice, "play", gid[:8], "guess 3", "--as", "bob")
    second = pbem(alice, "play", gid[:8], "guess 7", "--as", "carol")
    assert first.wait() == 0 and second.wait() == 0
    batch = store.head(gid).position.batch
    assert batch is not None and [e.seat for e in batch.envelopes] == [1, 2]


def test_kill_minus_9_at_any_moment_loses_nothing(trio: list[Player], tmp_path: Path) -> None:
    alice, bob, carol = trio
    for p in (bob, carol):
        for key in (p.home / "keys").iterdir():
            (alice.home / "keys" / key.name).write_bytes(key.read_bytes())
    game = new_game(trio, tmp_path, "guess", "rounds=40")
    gid = Store(alice.home).ids()[0]
    rng = Rng(b"kill -9")
    chaos = random.Random(9)
    box = tmp_path / "inbox.mbox"
    floor = 0
    kills = 0
    took = 0.3  # how long a run takes when let be: kills fall anywhere within it
    for run in range(RUNS):
        store = Store(alice.home)
        if run % 3 == 0:
            name, moves = a_move(store, gid, rng)
            proc = pbem(alice, "play", gid[:8], *moves, "--as", name)
        elif run % 3 == 1:
            message = EmailMessage()
            message["Subject"] = f"copy {run}"
            message["Message-ID"] = f"<copy{run}@example.org>"
            message.set_content("a copy")
            text = store.head(gid).text().encode()
            message.add_attachment(text, maintype="application", subtype="json", filename="g.json")
            mbox = mailbox.mbox(box)
            mbox.add(message)
            mbox.flush()
            proc = pbem(alice, "receive", box)
        else:
            name, _ = a_move(store, gid, rng)
            proc = pbem(alice, "watch", "--once", "--as", name)
        store.close()
        began = time.monotonic()
        if run % 4 == 3:  # every fourth run finishes: the game moves on
            proc.wait()
            took = max(0.1, time.monotonic() - began)
        else:
            time.sleep(chaos.uniform(0.0, 1.2 * took))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
        proc.wait()
        floor = check(alice.home, gid, floor)
    assert kills > RUNS // 3  # most runs were cut somewhere
    assert floor > 10  # and the game moved on all the same
    # The next command cleans what killed writers left beside the game files.
    name, moves = a_move(Store(alice.home), gid, rng)
    assert pbem(alice, "play", gid[:8], *moves, "--as", name).wait() == 0
    assert not list(alice.work.glob(".*.tmp")) and not list(game.parent.glob(".*.tmp"))
