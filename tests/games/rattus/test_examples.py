"""The example games in ``examples/`` are complete, verify, and hide what they must
(issue 5 item 7, issue 7 item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.format import gamefile
from pbem.ledger.replay import replay_file

from .harness import RULES
from .secrecy import Scanner

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.mark.parametrize(
    ("name", "seats", "africanus"), [("rattus", 3, False), ("rattus-africanus", 6, True)]
)
def test_example_game_is_complete_and_verifies(name: str, seats: int, africanus: bool) -> None:
    folder = EXAMPLES / name
    assert (folder / "make.sh").is_file() and (folder / "README.md").is_file()
    text = (folder / "game.json").read_text()
    game = gamefile.decode(text)
    replay = replay_file(game, RULES)  # every signature, link, draw, share and rule
    assert replay.result is not None and len(replay.names) == seats
    assert replay.records[-1].summary == "deck secrets disclosed; every shuffle audited"
    assert game.genesis.options["africanus"] is africanus
    scanner = Scanner(RULES, game.genesis.options, seats)
    scanner.scan(game)
    scanner.final(text)
