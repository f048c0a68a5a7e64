"""Odd files and odd values given to every command that reads a file (issue 34, item 6): a
FIFO, a device, a symlink loop, a folder, a genesis whose seats are a number, a 5,000-digit
option value. Each is one line on stderr with exit 1 (bad input) or 2 (cannot be read),
never a hang, never exit 3, and the input is left as it was."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli.main import main
from tests.helpers import FILE_COMMANDS

SEATS = "--seat"


def pbem(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def one_line(result: Result, code: int, fragment: str) -> None:
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: error: "), result.stderr
    assert fragment in lines[0], lines[0]


def on(command: list[str], path: str) -> list[str]:
    """``command`` with ``path`` as its game file (after ``call``'s GAME, before SEATS)."""
    return [command[0], path, *[a for a in command[1:] if a != "-"]]


@pytest.fixture(autouse=True)
def keys(tmp_path: Path) -> None:
    pbem("key", "new", "ann", "--email", "ann@example.org", "--no-passphrase")
    pbem("key", "new", "bea", "--email", "bea@example.org", "--no-passphrase")


@contextlib.contextmanager
def unblocking(fifo: Path) -> Iterator[None]:
    """While the block runs, open ``fifo`` for writing whenever a reader waits on it and
    close it at once: a command that (wrongly) opened it for reading gets an empty file
    instead of hanging the test, and then fails it on its message."""
    done = threading.Event()

    def writer() -> None:
        while not done.is_set():
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            time.sleep(0.05)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


@pytest.mark.parametrize("command", [*FILE_COMMANDS, ["receive"]], ids=lambda c: c[0])
def test_a_fifo_is_refused_without_being_read(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    with unblocking(fifo):
        result = pbem(*on(command, str(fifo)))
    one_line(result, 2, "game.json: is not a regular file (a pipe or a device is never read)")


@pytest.mark.parametrize("command", [*FILE_COMMANDS, ["receive"]], ids=lambda c: c[0])
def test_a_device_is_refused_without_being_read(command: list[str]) -> None:
    one_line(pbem(*on(command, "/dev/zero")), 2, "/dev/zero: is not a regular file")


@pytest.mark.parametrize("command", [*FILE_COMMANDS, ["receive"]], ids=lambda c: c[0])
def test_a_symlink_loop_is_one_line(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    one_line(pbem(*on(command, "a.json")), 2, "a.json: a loop of symbolic links")


def test_a_folder_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "folder.json").mkdir()
    one_line(pbem("verify", "folder.json"), 2, "folder.json: is a folder")


@pytest.mark.parametrize("command", FILE_COMMANDS, ids=lambda c: c[0])
def test_seats_that_are_a_number_are_refused(
    tmp_path: Path, guess_file: Path, command: list[str]
) -> None:
    data = json.loads(guess_file.read_text())
    data["genesis"]["seats"] = 5
    bad = tmp_path / "seats.json"
    bad.write_text(json.dumps(data, indent=1))
    before = bad.read_bytes()
    one_line(pbem(*on(command, str(bad))), 1, "genesis: field seats: Input should be a valid list")
    assert bad.read_bytes() == before


@pytest.mark.parametrize("value", ["9" * 5000, "9" * 17, "-" + "9" * 5000])
def test_a_huge_option_value_is_refused_before_it_is_converted(value: str) -> None:
    result = pbem("new", "guess", SEATS, "ann", SEATS, "bea", "--as", "ann",
                  "--option", f"rounds={value}", "-o", "new.json")  # fmt: skip
    one_line(result, 1, f"option rounds: a number of {len(value.lstrip('-'))} digits (at most 16)")
    assert not Path("new.json").exists()
