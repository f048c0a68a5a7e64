"""Progress on stderr (issue 17, point 5): "verifying step k of N" on a terminal, for work
over a second, wiped when done; nothing at all when stderr is not a terminal."""

from __future__ import annotations

import io
import os
import select
from pathlib import Path

from pbem.cli.progress import Progress
from pbem.format import gamefile
from pbem.ledger.replay import replay_file
from pbem.ruleset import registry
from pbem.store.store import Store
from tests.cli.test_game_cli import pbem


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def terminal() -> io.TextIOWrapper:
    """A real terminal (a pseudo-terminal's far end) to write to, and read back from."""
    primary, secondary = os.openpty()
    stream = open(secondary, "w", encoding="utf-8")  # noqa: SIM115 - closed by the test
    stream.primary = primary  # type: ignore[attr-defined]
    return stream


def read(stream: io.TextIOWrapper) -> str:
    """Everything written so far (a terminal hands it over in pieces)."""
    stream.flush()
    primary = stream.primary  # type: ignore[attr-defined]
    data = b""
    while select.select([primary], [], [], 0.2)[0]:
        data += os.read(primary, 65536)
    return data.decode()


def test_progress_shows_on_a_terminal_after_a_second_and_is_wiped(guess_file: Path) -> None:
    clock = Clock()
    stream = terminal()
    progress = Progress(stream, clock=clock)
    game = gamefile.read(guess_file)
    steps = len(game.steps)
    progress(1, steps)  # within the first second: nothing
    progress(2, steps)
    clock.now += 1.5
    replay_file(game, registry.get(game.genesis.ruleset.id), progress)
    text = read(stream)
    assert text.count(f"pbem: verifying step 1 of {steps}") == 1  # the replay's, not before
    assert text.count(f"pbem: verifying step 2 of {steps}") == 1
    assert f"pbem: verifying step {steps - 1} of {steps}" in text
    assert text.endswith("\r" + " " * len(f"pbem: verifying step {steps - 1} of {steps}") + "\r")
    stream.close()


def test_the_store_reports_progress_while_it_imports(guess_file: Path, tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    Store(tmp_path / "home", progress=lambda k, n: seen.append((k, n))).import_file(guess_file)
    steps = len(gamefile.read(guess_file).steps)
    assert seen == [(k, steps) for k in range(1, steps + 1)]


def test_no_progress_when_stderr_is_not_a_terminal(guess_file: Path) -> None:
    quiet = io.StringIO()
    clock = Clock()
    progress = Progress(quiet, clock=clock)
    clock.now += 5
    progress(1, 10)
    assert quiet.getvalue() == ""
    result = pbem("verify", guess_file)
    assert result.exit_code == 0 and "verifying" not in result.stderr
