"""A damaged store (issue 34, item 6): what can be rebuilt from the stored steps is, and
anything else is one line with exit 2 naming the store, never exit 3; the file is left as
it is. ``benchmarks/fuzz_store.py`` tries thousands of such damages at random."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli.main import main
from pbem.store.db import FILE_NAME


def pbem(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def stored(guess_file: Path, _isolated_home: Path) -> tuple[Path, str, str]:
    """The store holding the guess game: its file, the game's short id, and its log."""
    result = pbem("log", guess_file)
    assert result.exit_code == 0, result.output
    store = _isolated_home / FILE_NAME
    (game,) = [r[0] for r in sqlite3.connect(store).execute("SELECT id FROM games")]
    return store, game[:8], result.stdout


def sql(store: Path, statement: str) -> None:
    db = sqlite3.connect(store, isolation_level=None)
    db.execute(statement)
    db.close()


def damaged(result: Result, store: Path) -> None:
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"pbem: error: {store}: ") and "damaged" in line, line


def test_an_emptied_checkpoint_is_rebuilt_from_the_steps(stored: tuple[Path, str, str]) -> None:
    store, game, log = stored
    sql(store, "UPDATE checkpoints SET data = x''")
    result = pbem("log", game)
    assert result.exit_code == 0 and result.stdout == log, result.output


@pytest.mark.parametrize("table", ["records", "steps", "items", "checkpoints", "games"])
def test_a_dropped_table_is_one_line(stored: tuple[Path, str, str], table: str) -> None:
    store, game, _ = stored
    sql(store, f"DROP TABLE {table}")
    before = store.read_bytes()
    damaged(pbem("log", game), store)
    assert store.read_bytes() == before


def test_a_zeroed_page_is_one_line(stored: tuple[Path, str, str]) -> None:
    store, game, _ = stored
    data = bytearray(store.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    for page in range(2, len(data) // size):  # every page but the schema's
        data[page * size : (page + 1) * size] = bytes(size)
    store.write_bytes(bytes(data))
    damaged(pbem("status", game), store)


@pytest.mark.parametrize(
    ("statement", "command"),
    [
        ("UPDATE items SET data = x'789c00'", "log"),  # a zlib stream cut short
        ("UPDATE items SET data = x'7b7d'", "export"),  # {} where an item was
        ("DELETE FROM items WHERE id % 2 = 0", "export"),
        ("UPDATE steps SET items = x'00'", "log"),
        ("UPDATE steps SET hash = zeroblob(32) WHERE idx = 1", "export"),  # found by the fuzzer
        ("DELETE FROM steps WHERE idx = 3", "status"),
        ("UPDATE records SET seats = 'x'", "log"),
        ("UPDATE games SET genesis = 'x'", "status"),
    ],
)
def test_rows_changed_on_disk_are_one_line(
    stored: tuple[Path, str, str], statement: str, command: str
) -> None:
    store, game, _ = stored
    sql(store, "DELETE FROM checkpoints")  # so that the steps are read again
    sql(store, statement)
    damaged(pbem(command, game, *(["-o", "copy.json"] if command == "export" else [])), store)
    assert not Path("copy.json").exists()


@pytest.mark.parametrize("version", [0, 1, 2])
def test_a_store_whose_schema_version_was_changed_is_one_line(
    stored: tuple[Path, str, str], version: int
) -> None:
    store, game, _ = stored
    sql(store, f"PRAGMA user_version = {version}")
    result = pbem("status", game)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"pbem: error: {store}: ") and "left as it is" in line, line


def test_receive_on_an_emptied_store_says_so_and_reads_nothing(
    stored: tuple[Path, str, str], guess_file: Path, tmp_path: Path
) -> None:
    store, _, _ = stored
    store.write_bytes(b"")
    mail = tmp_path / "game.eml"
    mail.write_bytes(b"Subject: a game\n\n" + guess_file.read_bytes())
    result = pbem("receive", mail)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line == (
        f"pbem: error: {store}: not a pbem store (another program's database); it was left "
        "as it is (move it away to start afresh)"
    )
    assert store.read_bytes() == b""
