"""Referees holding the escrow, through the commands (issue 34): when a call opens the
escrow of a late seat, a referee makes its share with ``pbem play GAME --as REFEREE`` (the
automatic steps it owes), as a player makes theirs; before, only ``pbem watch`` with mail
configured could, and ``pbem status`` told the referee that it "may call", which a
referee cannot."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CLOCK_START
from tests.helpers import new_keys, ok, pbem, report

NAMES = ("ann", "bea", "cid")


def file_of(*args: str | Path) -> Path:
    return Path(report(*args)["file"])


def test_a_referee_makes_its_escrow_share_with_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    new_keys(*NAMES, "ref")
    seats = [a for n in NAMES for a in ("--seat", n)]
    ok("new", "guess", *seats, "--deadline", "1h", "--escrow", "ref", "--as", "ann", "-o", "g.json")
    f = Path("g.json")
    while "automatic" in (aw := report("status", f)["next"]) or "to join" in aw:
        f = file_of("play", f, "--as", aw.split()[0].rstrip(","))
    for name, value in (("cid", 7), ("ann", 3), ("bea", 5)):
        f = file_of("play", f, f"guess {value}", "--as", name)
    f = file_of("play", f, "--as", "ann")  # her reveal (bea's came with her guess)
    assert report("status", f)["next"] == "cid to reveal their sealed guess (automatic)"
    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START + 2 * 3600))
    told = ok("status", f, "--as", "ref").stdout
    assert "the players not awaited may call" in told and "you may call" not in told
    for name in ("ann", "bea"):
        f = file_of("call", f, "cid", "--as", name)
    told = ok("status", f, "--as", "ref").stdout
    assert "ref to open cid's escrowed secret (automatic)" in told
    assert f"your escrow share is due: pbem play {f}" in told
    moved = pbem("play", f, "guess 1", "--as", "ref")
    assert moved.exit_code == 2
    assert moved.stderr == "pbem: error: ref is a referee of this game: it makes no moves\n"
    shared = report("play", f, "--as", "ref")
    assert shared["automatic"] == 1
    log = ok("log", shared["file"]).stdout
    assert "cid's secret opened by its escrow holders" in log
    again = pbem("play", shared["file"], "--as", "ref")
    assert again.exit_code == 1 and "nothing to do for ref" in again.stderr
    assert ok("verify", shared["file"]).exit_code == 0
