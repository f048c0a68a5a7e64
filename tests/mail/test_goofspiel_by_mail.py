"""Issue 31: the third game, written outside pbem on its public API alone
(``examples/goofspiel``), plays by mail like the shipped ones: three keyrings, three
mailboxes, the real servers, robots making every automatic step (the shuffles of the sealed
prize deck, the shares that turn a prize up, the reveals of the sealed bids), each bid one
command; then the file verifies."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pbem.ruleset import registry
from tests.conftest import ROOT, RULESETS
from tests.mail.conftest import Player
from tests.mail.servers import Smtp
from tests.mail.test_game_by_mail import play_by_mail

EXAMPLE = ROOT / "examples" / "goofspiel"


@pytest.fixture
def goofspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registered as its README tells a developer to (``PBEM_RULESETS``)."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.setenv("PBEM_RULESETS", f"{RULESETS},goofspiel:Goofspiel")
    assert registry.get("goofspiel").title == "Goofspiel"


@pytest.mark.usefixtures("goofspiel")
def test_a_goofspiel_game_played_only_through_mail(
    trio: list[Player], tmp_path: Path, smtp: Smtp
) -> None:
    final, table = play_by_mail(trio, tmp_path, smtp, "goofspiel", "match", "cards=3")
    assert final.result is not None and final.state.round == 3  # type: ignore[union-attr]
    assert len(table.decisions) == 3 * 3  # a bid a player a round, each one command
    assert sys.modules["goofspiel"].__file__.startswith(str(EXAMPLE))
