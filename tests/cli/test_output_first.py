"""``-o`` is checked before anything is signed (issue 34): ``play -o EXISTING`` (or into a
folder that does not exist) signed the move into the store and then failed to write it,
leaving the move fixed (a different one refused as equivocation). Every signing command
that takes ``-o`` now refuses such a target first, and the store is as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.store.store import Store
from tests.conftest import CLOCK_START
from tests.helpers import new_keys, ok, pbem, report

NAMES = ("ann", "bea", "cid")
BAD = {
    "exists": ("taken.json", "exists already; pbem never writes over a file"),
    "no folder": ("missing/dir/x.json", "there is no folder missing/dir to write it in"),
}


def store_state() -> tuple[list[str], list[str], int]:
    """The games, their heads and the signatures journalled: what a signing changes."""
    store = Store()
    try:
        ids = store.ids()
        heads = [store.head(g).digest for g in ids]
        signed = store.db.execute("SELECT count(*) FROM journal").fetchone()[0]
        return ids, heads, signed
    finally:
        store.close()


def refused(*args: str | Path) -> None:
    """Each bad ``-o`` is refused with its reason, exit 2, the store untouched."""
    for target, why in BAD.values():
        before = store_state()
        result = pbem(*args, "-o", target)
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.strip() == f"pbem: error: {target}: {why}"
        assert store_state() == before, (args, target)


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    new_keys(*NAMES, "dan")
    ok("key", "export", "dan", "-o", "dan.card.json")
    Path("taken.json").write_text("mine\n")
    seats = [a for n in NAMES for a in ("--seat", n)]
    refused("new", "guess", *seats, "--deadline", "1h", "--as", "ann")
    ok("new", "guess", *seats, "--deadline", "1h", "--as", "ann", "-o", "g.json")
    f = Path("g.json")
    while "automatic" in (aw := report("status", f)["next"]) or "to join" in aw:
        f = Path(report("play", f, "--as", aw.split()[0].rstrip(","))["file"])
    return f


def test_a_move_is_not_signed_when_its_file_cannot_be_written(game: Path) -> None:
    refused("play", game, "guess 3", "--as", "ann")
    again = report("play", game, "guess 4", "--as", "ann", "-o", "ann.json")
    assert again["played"] == ["guess 4"], "the first move was not fixed"
    assert Path("taken.json").read_text() == "mine\n"


def test_calls_resignations_and_handovers_check_their_file_first(
    game: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    f = game
    for name, value in (("ann", 3), ("bea", 5)):
        f = Path(report("play", f, f"guess {value}", "--as", name)["file"])
    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START + 2 * 3600))
    refused("call", f, "cid", "--as", "ann")
    refused("handover", f, "--to", "dan.card.json", "--as", "cid")
    refused("resign", f, "--as", "cid")
    assert report("resign", f, "--as", "cid", "-o", "r.json")["done"] == "cid resigned"
