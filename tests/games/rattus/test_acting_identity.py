"""Issue 32 item 2: with one identity of the home holding a seat, every command acts as
it and shows its private view without ``--as``; ``--as`` is needed only to choose among
several seated identities, and the refusal then names them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.games.rattus.test_cli import settle
from tests.helpers import ok as pbem
from tests.helpers import pbem as run
from tests.helpers import report

NAMES = ("ann", "ben", "cal")


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An Africanus game of ann, ben and cal (all three in this home) past the deal: every
    seat holds region cards (T-3.4) that only it may read."""
    monkeypatch.chdir(tmp_path)
    for name in NAMES:
        pbem("key", "new", name, "--email", f"{name}@example.org", "--no-passphrase")
    seats = [a for name in NAMES for a in ("--seat", name)]
    pbem("new", "rattus", *seats, "--option", "africanus=on", "--as", "ann", "-o", "g.json")
    return settle(Path("g.json"))


def ben_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second home holding ben's key, the cards of ann and cal, and dan, an own
    identity with no seat in the game."""
    home = Path(os.environ["PBEM_HOME"])
    for name in ("ann", "cal"):
        pbem("key", "export", name, "-o", f"{name}.card")
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "ben-home"))
    (tmp_path / "ben-home" / "keys").mkdir(parents=True)
    shutil.copy(home / "keys" / "ben.json", tmp_path / "ben-home" / "keys")
    for name in ("ann", "cal"):
        pbem("key", "import", f"{name}.card")
    pbem("key", "new", "dan", "--email", "dan@example.org", "--no-passphrase")


def test_the_only_seated_identity_acts_and_reads_its_hand(
    game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ben_home(tmp_path, monkeypatch)
    monkeypatch.delenv("PBEM_AS", raising=False)
    out = pbem("status", game).stdout
    assert "Your region cards:" in out  # T-3.4: ben's own cards, without --as
    assert report("status", game)["private"] == report("status", game, "--as", "ben")["private"]
    assert report("moves", game) == report("moves", game, "--as", "ben")
    log = pbem("log", game).stdout
    assert log == pbem("log", game, "--as", "ben").stdout


def test_several_seated_identities_are_named_when_none_is_chosen(
    game: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PBEM_AS", raising=False)
    result = run("moves", game)
    assert result.exit_code == 2
    assert "say who you are with --as NAME" in result.stderr
    assert "these identities hold a seat in this game: ann, ben, cal" in result.stderr
    assert "Your region cards:" not in pbem("status", game).stdout  # whose? nobody's
    assert "Your region cards:" in pbem("status", game, "--as", "cal").stdout
    monkeypatch.setenv("PBEM_AS", "cal")
    assert "Your region cards:" in pbem("status", game).stdout
