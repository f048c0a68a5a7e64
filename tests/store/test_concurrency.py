"""Several processes on one store (issue 25, architecture §10): everything read together is
read from one snapshot, so every file exported while another process plays is exactly a
head the store verified; a position is kept only on the chain it was read from; and one
robot runs per home."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pbem.crypto.keyring import Keyring
from pbem.format import gamefile
from pbem.format.errors import InternalError, Rejected, UsageError
from pbem.ledger.replay import replay_file
from pbem.mail.botseat import BotSeat
from pbem.mail.homelock import HomeLock
from pbem.play.playing import play_moves
from pbem.ruleset import registry
from pbem.store.store import Store
from tests.helpers import new_keys, report

NAMES = ("ann", "bea", "cid")


@pytest.fixture
def game(tmp_path: Path) -> str:
    """A ``guess`` game of three identities of one home, created and stored; its id."""
    new_keys(*NAMES)
    seats = [a for n in NAMES for a in ("--seat", n)]
    made = report("new", "guess", *seats, "--option", "rounds=6", "--as", "ann", "-o", "g.json")
    return gamefile.read(Path(made["file"])).genesis.game


def play_to_the_end(home: Path, game: str) -> int:
    """Every identity of the home makes what it owes and a random bot decides for it, on
    its own store connection, as a second process would; returns the steps made."""
    store = Store(home)
    keyring = Keyring(home)
    seats = [(me, BotSeat("random", me)) for me in (keyring.load(n, None) for n in NAMES)]
    made = 0
    while store.head(game).position.result is None:
        moved = 0
        for me, bot in seats:
            with contextlib.suppress(Rejected):  # nothing owed by this seat now
                moved += play_moves(store, game, me, [], "test").made
            moved += len(list(bot.play(store, game)))
        assert moved, "the game stalled"
        made += moved
    return made


def test_every_file_exported_while_another_process_plays_is_a_verified_head(
    game: str, tmp_path: Path
) -> None:
    """A reader exports as fast as it can while a writer plays the game through. Before
    the store read a head and its steps in one snapshot, an export could pair the steps of
    one moment with the cached state of another (refused by every verifier: "cached state
    (after 66 steps) does not match the replay (after 67 steps)"), or fail on a step whose
    items it had not read (``KeyError``)."""
    home = tmp_path / "pbem-home"
    texts: list[str] = []
    failures: list[BaseException] = []
    done = threading.Event()

    def export() -> None:
        store = Store(home)
        try:
            while not done.is_set():
                head = store.head(game)
                texts.append(head.text())
        except BaseException as exc:
            failures.append(exc)

    reader = threading.Thread(target=export)
    reader.start()
    try:
        made = play_to_the_end(home, game)
    finally:
        done.set()
        reader.join()
    assert not failures, failures
    rules = registry.get("guess")
    seen = {text for text in texts}
    steps = [replay_file(gamefile.decode(text), rules).count for text in seen]  # all verify
    assert made > 40 and len(seen) > 10, (made, len(seen))
    assert max(steps) <= Store(home).head(game).position.count


def test_a_position_made_on_a_head_another_process_moved_on_is_never_kept(game: str) -> None:
    """architecture §10: a step signed on a head that another process has since moved on
    would overwrite the other's step; ``save`` refuses it and keeps nothing."""
    mine, theirs = Store(), Store()
    keyring = Keyring()
    stale = mine.head(game)
    play_moves(theirs, game, keyring.load("bea", None), [], "the other process")
    steps = theirs.head(game).position.count
    from pbem.play.author import automatic

    assert automatic(stale.position, keyring.load("cid", None)) == 1
    with pytest.raises(InternalError, match="another process moved the game on"):
        mine.save(stale, "this process")
    assert Store().head(game).position.count == steps


def test_a_head_is_exported_exactly_even_after_the_store_moved_on(game: str) -> None:
    """A head read earlier is still written as itself (its steps are a prefix of the
    store's chain), with its own cached state: a file always verifies."""
    store = Store()
    before = store.head(game)
    play_moves(Store(), game, Keyring().load("bea", None), [], "another process")
    text = before.text()
    copy = gamefile.decode(text)
    assert len(copy.steps) == before.position.count < store.head(game).position.count
    replay_file(copy, registry.get("guess"))


def test_a_second_robot_on_one_home_is_refused_and_names_the_first(tmp_path: Path) -> None:
    """One robot per home (architecture §10): the lock is the OS's, so it is released
    however the robot ends (here: the process holding it exits)."""
    home = tmp_path / "pbem-home"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; "
            "from pbem.mail.homelock import HomeLock; "
            "lock = HomeLock(Path(sys.argv[1])); lock.acquire(); print('held', flush=True); "
            "time.sleep(60)",
            str(home),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(UsageError, match=r"pbem watch is running already on .*\(pid \d+"):
            HomeLock(home).acquire()
    finally:
        holder.kill()
        holder.wait()
    with HomeLock(home):  # free again once the holder is gone, even killed
        pass
