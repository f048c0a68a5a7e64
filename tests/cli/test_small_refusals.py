"""Small refusals of issue 34: an option that the number of seats makes impossible is
refused before the genesis is signed; ``selfplay --games`` takes one game or more."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import new_keys, ok, pbem


def test_a_start_seat_beyond_the_seats_is_refused_before_signing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    new_keys("ann", "bea")
    seats = ["--seat", "ann", "--seat", "bea", "--as", "ann"]
    refused = pbem("new", "rattaneer", *seats, "--option", "start_seat=7", "-o", "g.json")
    assert refused.exit_code == 2
    assert refused.stderr == (
        "pbem: error: rattaneer: option start_seat 7 is not a seat of 2 players\n"
    )
    assert not Path("g.json").exists()
    assert ok("games").stdout == "no games in the store (pbem receive MAIL)\n"
    ok("new", "rattaneer", *seats, "--option", "start_seat=1", "-o", "g.json")


@pytest.mark.parametrize("games", ["-1", "0"])
def test_selfplay_plays_one_game_or_more(games: str) -> None:
    result = pbem("selfplay", "rattus", "--games", games)
    assert result.exit_code == 2 and "verified" not in result.output
    assert f"Invalid value for '--games': {games} is not in the range x>=1" in result.output
