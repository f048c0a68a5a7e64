"""``pbem selfplay --bot``: bots by name, ``mcts:N`` with its budget, and clear errors."""

from __future__ import annotations

import json

from click.testing import CliRunner

from pbem.cli.main import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["selfplay", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_a_tuned_search_bot_plays_a_verified_game() -> None:
    code, out, _ = run(
        "rattaneer", "--players", "3", "--bot", "mcts:2", "--bot", "greedy", "--json"
    )
    assert code == 0
    (game,) = json.loads(out)["games"]
    assert len(game["scores"]) == 3 and game["winners"]


def test_unknown_bots_and_bad_budgets_are_usage_errors() -> None:
    code, _, err = run("rattus", "--bot", "deep")
    assert code == 2
    assert err.strip() == "pbem: error: unknown bot 'deep' for rattus (known: random, greedy, mcts)"
    code, _, err = run("rattus", "--bot", "mcts:0")
    assert code == 2 and "mcts takes a number of iterations (mcts:200), not '0'" in err
    code, _, err = run("rattaneer", "--bot", "random:3")
    assert code == 2 and "bot 'random' takes no parameter (got 'random:3')" in err
