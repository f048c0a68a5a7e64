"""One working file per game (issue 32, architecture §10): a signing command replaces the
game file it was given, atomically, only when the store holds every step of it and the file
still holds the bytes pbem read; ``-o`` writes exactly a new file; the setting ``files
numbered`` brings back a new file per version; ``pbem export --step K`` writes any older
version, which the store keeps."""

from __future__ import annotations

import hashlib
import os
import pty
import shutil
import sys
from pathlib import Path

import pytest

from pbem.format import gamefile
from pbem.format.files import replace_unchanged
from pbem.format.limits import MAX_FILE_BYTES
from pbem.store.exports import export_head, open_game
from pbem.store.journal import Journal
from pbem.store.store import Store
from tests.helpers import new_keys, ok, pbem, report

NAMES = ("ann", "bea", "cid")


def fails(code: int, *args: str | Path) -> str:
    result = pbem(*args)
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: error: "), result.stderr
    return lines[0]


def game_files() -> list[str]:
    return sorted(p.name for p in Path(".").glob("*.json"))


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """ann, bea and cid in one home, and a ``guess`` game of one round made by ann: the
    joins and ann's setup beacon played on it; the sealed guesses are awaited."""
    os.chdir(tmp_path)
    new_keys(*NAMES)
    seats = [a for n in NAMES for a in ("--seat", n)]
    ok("new", "guess", *seats, "--option", "rounds=1", "--as", "ann", "-o", "g.json")
    for name in ("bea", "cid", "ann"):
        assert report("play", "g.json", "--as", name)["file"] == "g.json"
    return Path("g.json")


def test_a_whole_game_is_played_on_one_file(table: Path) -> None:
    for name, value in zip(NAMES, (3, 5, 8), strict=True):
        played = report("play", table, f"guess {value}", "--as", name)
        assert played["file"] == "g.json" and played["kept"] is None
    while not (now := report("status", table)).get("result"):
        who = now["awaiting"][0]
        move = ["bank"] if "bank" in now["next"] else []
        assert report("play", table, *move, "--as", who)["file"] == "g.json"
    assert game_files() == ["g.json"]
    assert "OK" in ok("verify", table).stdout
    store = Store()
    game = store.ids()[0]
    assert gamefile.read(table).state.steps == store.head(game).position.count
    journal = Journal(store)
    assert all(journal.unwritten(game, seat) == [] for seat in range(3))  # the file carries them
    assert report("games", "--all")["games"][0]["file"] == "g.json"  # the newest export


def test_o_writes_a_new_file_and_never_over_one(table: Path) -> None:
    before = table.read_bytes()
    Path("taken.json").write_bytes(b"mine")
    line = fails(2, "play", table, "guess 3", "--as", "bea", "-o", "taken.json")
    assert line.endswith("taken.json: exists already; pbem never writes over a file")
    assert Path("taken.json").read_bytes() == b"mine" and table.read_bytes() == before
    assert report("play", table, "guess 3", "--as", "bea", "-o", "b.json")["file"] == "b.json"
    assert table.read_bytes() == before


def test_the_setting_files_numbered_writes_a_new_file_per_version(table: Path) -> None:
    ok("config", "set", "files", "numbered")
    before = table.read_bytes()
    a = report("play", table, "guess 3", "--as", "bea")["file"]
    b = report("play", a, "guess 5", "--as", "cid")["file"]
    assert (a, b) == ("g.s0003-1.json", "g.s0003-2.json") and table.read_bytes() == before
    ok("config", "unset", "files")
    assert report("play", b, "guess 8", "--as", "ann")["file"] == b  # one file again


def test_a_file_changed_since_it_was_read_is_left_as_it_is(table: Path) -> None:
    """Another version of the game (an older copy the mail client saved over it) lands on
    the file between the import and the write: it is not overwritten, and the new version
    goes beside it, saying why."""
    older = table.read_bytes()
    ok("play", table, "guess 3", "--as", "bea")
    store = Store()
    opened = open_game(store, str(table))
    table.write_bytes(older)  # what the file holds now, though the store holds all of it
    written = export_head(store, opened)
    assert table.read_bytes() == older
    assert written.path.name == "g.s0003-1.json" and written.path.exists()
    assert written.kept == "g.json was left as it is: it changed since pbem read it"
    assert "OK" in ok("verify", written.path).stdout


def test_the_file_is_read_again_just_before_the_rename(tmp_path: Path) -> None:
    """``replace_unchanged`` compares the file with what was read after its temporary
    file is complete: a file written meanwhile stays, and no temporary file is left."""
    target = tmp_path / "g.json"
    target.write_bytes(b"the bytes pbem read")
    seen = hashlib.sha256(target.read_bytes()).digest()
    target.write_bytes(b"what an editor wrote since")
    assert not replace_unchanged(target, b"new version", seen, MAX_FILE_BYTES)
    assert target.read_bytes() == b"what an editor wrote since"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]
    target.chmod(0o600)
    now = hashlib.sha256(target.read_bytes()).digest()
    assert replace_unchanged(target, b"new version", now, MAX_FILE_BYTES)
    assert target.read_bytes() == b"new version" and target.stat().st_mode & 0o777 == 0o600


def test_a_working_file_holding_steps_the_store_lacks_is_never_overwritten(
    table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The working file of a game named by its id (RULESET-ID.json here) came from another
    home, further on: this store lacks its last step, so it stays, and the head goes beside
    it."""
    game = report("status", table)["game"]
    working = Path(f"guess-{game[:8]}.json")
    behind = tmp_path / "behind-home"
    shutil.copytree(os.environ["PBEM_HOME"], behind)
    ok("play", table, "guess 3", "--as", "bea", "-o", working)  # one step further
    ahead = working.read_bytes()
    monkeypatch.setenv("PBEM_HOME", str(behind))
    written = report("play", game[:8], "guess 5", "--as", "cid")
    assert working.read_bytes() == ahead
    assert (
        written["kept"] == f"{working.resolve()} was left as it is: it holds steps your store lacks"
    )
    assert Path(written["file"]).name == f"guess-{game[:8]}.s0003-1.json"
    text = ok("export", game[:8]).stdout  # the command line says it too, in one line
    assert "it holds steps your store lacks" in text.splitlines()[0]


def test_another_game_s_file_or_a_file_pbem_cannot_read_is_never_overwritten(
    table: Path,
) -> None:
    game = report("status", table)["game"]
    working = Path(f"guess-{game[:8]}.json")
    seats = [a for n in NAMES for a in ("--seat", n)]
    ok("new", "guess", *seats, "--as", "ann", "-o", working)  # another game, same name
    other = working.read_bytes()
    written = report("export", game[:8])
    assert written["kept"].endswith("it is a file of another game")
    assert working.read_bytes() == other
    working.write_text("notes to self\n")
    written = report("export", game[:8])
    assert written["kept"].endswith("it is not a game file pbem reads")
    assert working.read_text() == "notes to self\n"


def test_a_symbolic_link_is_neither_followed_nor_replaced(table: Path) -> None:
    Path("link.json").symlink_to(table)
    before = table.read_bytes()
    written = report("play", "link.json", "guess 3", "--as", "bea")
    assert Path("link.json").is_symlink() and os.readlink("link.json") == "g.json"
    assert table.read_bytes() == before
    assert written["file"] == "link.s0003-1.json"
    assert written["kept"] == (
        "link.json was left as it is: it is a symbolic link (pbem replaces a file, never a link)"
    )


def test_an_older_version_is_exported_by_step_and_verifies(table: Path) -> None:
    for name, value in zip(NAMES, (3, 5, 8), strict=True):
        ok("play", table, f"guess {value}", "--as", name)
    count = report("status", table)["steps"]
    newest = report("games")["games"][0]["file"]
    for k in (0, 2, 3, count):  # the last: a batch still open, named by its envelopes
        made = report("export", table, "--step", str(k))
        assert made["file"].startswith(f"g.s{k:04d}") and made["steps"] == k
        assert len(gamefile.read(Path(made["file"])).steps) == k
        assert "OK" in ok("verify", made["file"]).stdout
    assert Path(made["file"]).read_bytes() == table.read_bytes()  # after the last: the head
    assert report("export", table, "--step", "2")["file"] == "g.s0002.json"  # the same bytes
    Path("g.s0001.json").write_text("taken")
    assert report("export", table, "--step", "1")["file"] == "g.s0001~2.json"
    assert Path("g.s0001.json").read_text() == "taken"
    assert report("export", table, "--step", "1", "-o", "one.json")["file"] == "one.json"
    assert fails(2, "export", table, "--step", "2", "-o", "one.json").endswith(
        "exists already; pbem never writes over a file"
    )
    assert report("games")["games"][0]["file"] == newest  # an old version is no export of the head
    for bad in ("-1", str(count + 1)):
        line = fails(2, "export", table, "--step", bad)
        assert line.endswith(f"--step {bad}: the game has steps 0 to {count} (see: pbem log)")
    assert "OK" in ok("verify", table).stdout


def test_a_file_saved_over_while_pbem_asks_the_passphrase_is_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end, in a real process on a terminal of its own: pbem has read and imported
    g.json and asks bea's passphrase; meanwhile her mail client saves another version of
    the game over it. The file stays as saved, the move goes beside it, and pbem says why."""
    os.chdir(tmp_path)
    monkeypatch.setenv("PBEM_PASSPHRASE", "secret words")
    for name in NAMES:
        ok("key", "new", name, "--email", f"{name}@example.org")
    seats = [a for n in NAMES for a in ("--seat", n)]
    ok("new", "guess", *seats, "--option", "rounds=1", "--as", "ann", "-o", "g.json")
    for name in ("bea", "cid"):
        ok("play", "g.json", "--as", name)
    saved = Path("g.json").read_bytes()  # the version the mail client will save again
    ok("play", "g.json", "--as", "ann")  # the setup beacon: the guesses are awaited
    env = {k: v for k, v in os.environ.items() if k != "PBEM_PASSPHRASE"}
    pid, fd = pty.fork()
    if pid == 0:  # the child: pbem, asking on its terminal
        os.execvpe(
            sys.executable,
            [sys.executable, "-m", "pbem", "play", "g.json", "guess 3", "--as", "bea"],
            env,
        )
    said = b""
    try:
        while not said.endswith(b": "):
            said += os.read(fd, 4096)
        Path("g.json").write_bytes(saved)
        os.write(fd, b"secret words\n")
        while True:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: pbem ended
                break
            if not chunk:
                break
            said += chunk
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    text = said.decode(errors="replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert "g.json was left as it is: it changed since pbem read it" in text
    assert "wrote g.s0003-1.json" in text
    assert Path("g.json").read_bytes() == saved
    assert "OK" in ok("verify", "g.s0003-1.json").stdout
