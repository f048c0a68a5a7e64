"""Issue 32, the rules texts: every section a game's rulings page cites is a section of
its own rules text (Rattus cites ``T-``; Rattaneer ``R-``: a Rattus ruling once read
``R-7.3``, Rattaneer's prefix), and what pbem does not support is said in ``pbem rules``."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.ruleset import registry
from pbem.ruleset.rulebook import citations, normalize
from pbem.ruleset.rules import Ruleset

PREFIX = {"rattus": "T-", "rattaneer": "R-"}


@pytest.mark.parametrize("game", sorted(PREFIX))
def test_every_section_a_ruling_cites_is_in_the_rules_text(game: str) -> None:
    rules = registry.get(game)
    book, rulings = rules.rulebook(), rules.rulings()
    assert book is not None and rulings
    known = {normalize(s.id) for s in book.all()}
    cited = {normalize(c) for c in citations(rulings)}
    assert cited and cited <= known, sorted(cited - known)
    other = next(p for g, p in PREFIX.items() if g != game)
    assert not [c for c in cited if c.startswith(other)]


def test_rattus_says_what_it_does_not_support() -> None:
    """T-2 (the Africanus seed): other expansions' class cards and the Pied Piper's walls."""
    shown = CliRunner().invoke(main, ["rules", "rattus", "T-2"]).output
    assert "Not supported" in shown and "Pied Piper" in shown and "other Rattus expansions" in shown


def test_the_readings_of_the_rules_texts_are_marked_as_rulings() -> None:
    """T-7.3 says who is asked; T-9.3 skips regions without cubes; Rattaneer's natural
    readings (R-5.1, R-6.2, R-6.5, R-7.B) are marked and explained with the seed's words."""
    rattus, rattaneer = registry.get("rattus"), registry.get("rattaneer")

    def text(game: Ruleset, section: str) -> str:
        book = game.rulebook()
        found = book.get(section) if book is not None else None
        assert found is not None, section
        return " ".join(found.text().split())

    assert "Only a player a card could save a cube for is asked" in text(rattus, "T-7.3")
    assert "A region with tokens but no cubes is skipped" in text(rattus, "T-9.3")
    for section in ("R-5.1", "R-6.2", "R-6.5", "R-7.B"):
        assert "[ruling]" in text(rattaneer, section), section
    rulings = rattaneer.rulings() or ""
    for seed in ("有海盜的區域", "每回合只限1次", "先到達的海盜", "把上方的棄置"):
        assert seed in rulings
