"""Issue 3 item 7: the example game in ``examples/rattaneer/`` verifies with the installed
rules. It pins their content hash, so any change to ``pbem/games/rattaneer/`` makes this
fail until ``examples/rattaneer/make.sh`` is run again."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pbem.cli.main import main
from pbem.format import gamefile
from pbem.ledger.replay import replay_file
from pbem.ruleset import registry

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "rattaneer"


def test_the_example_game_verifies_and_is_complete():
    result = CliRunner().invoke(main, ["verify", str(EXAMPLE / "game.json")])
    assert result.exit_code == 0, result.output
    replay = replay_file(gamefile.read(EXAMPLE / "game.json"), registry.get("rattaneer"))
    assert replay.result is not None and replay.names == ["anne", "bart", "cleo"]
    assert {"join", "beacon", "commit", "reveal", "turn"} <= {r.kind for r in replay.records}
    assert replay.state.round > 1  # whole rounds were played, not one round to an end


def test_the_mid_game_copy_is_an_earlier_copy_of_the_same_game():
    morning = gamefile.read(EXAMPLE / "morning.json")
    game = gamefile.read(EXAMPLE / "game.json")
    assert morning.genesis == game.genesis
    replay = replay_file(morning, registry.get("rattaneer"))
    assert replay.awaiting.decision == "commit:place" and replay.remaining() == (1, 2)
    assert morning.steps[:-1] == game.steps[: len(morning.steps) - 1]
