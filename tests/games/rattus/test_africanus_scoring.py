"""T-8 region cards at the end, T-9.4 diplomat majorities, T-9.5 with Africanus."""

from __future__ import annotations

import pytest

from pbem.games.rattus import flow, scoring
from pbem.ruleset.rules import Over, Reveal

from .harness import RULES, africa_table


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ([3, 2, 1], [4, 2, 0]),  # clear first and second
        ([2, 2, 1], [3, 3, 0]),  # a tie for first splits 6; nobody is second
        ([2, 2, 2], [2, 2, 2]),
        ([1, 1, 1, 1], [1, 1, 1, 1]),  # 6 // 4, rounded down
        ([3, 1, 1], [4, 1, 1]),  # a tie for second splits 2
        ([3, 1, 1, 1], [4, 0, 0, 0]),  # 2 // 3, rounded down
        ([2, 0, 0], [4, 0, 0]),  # no diplomats, no points: nobody is second
        ([0, 0, 0], [0, 0, 0]),
        ([3, 1], [4, 0]),  # 2 players: only the most scores
        ([2, 2], [2, 2]),  # 2 players: a tie splits 4
    ],
)
def test_diplomat_majorities(counts: list[int], points: list[int]) -> None:
    # T-9.4 [rulings]: most 4, second 2, with every tie rule and the 2-player rule.
    assert scoring.diplomat_points(counts) == points


def ended(hands: dict[int, list[str]], cubes: dict[str, list[int]], **where: object):
    """A table in the final plague with nothing left to resolve: the hands are shown next."""
    t = africa_table(hands=hands, cubes=cubes, **where)  # type: ignore[arg-type]
    t.state.phase, t.state.trigger, t.state.final_regions = "final_plague", 0, []
    flow.advance(t.state)  # as after the last region's resolution
    return t


def test_hands_are_revealed_after_the_final_plague_and_score_once_per_region() -> None:
    # T-8: a card naming a region where the player has cubes on the map scores 1; several
    # cards naming one region score 1 in all; palace cubes do not count.
    t = ended(
        {0: ["RC02", "RC19", "RC36", "RC01"], 1: ["RC03"]},  # Gallia x3, Anglia; Germania
        {"Gallia": [1, 0, 0], "Germania": [0, 2, 0]},
        palace=[4, 0, 0],
    )
    reveal = RULES.pending(t.state)
    assert reveal == Reveal(items=[h for hand in t.state.africa.hands for h in hand])
    t.settle()
    assert t.state.africa.shown == [["RC02", "RC19", "RC36", "RC01"], ["RC03"], []]
    assert scoring.card_points(t.state) == [1, 1, 0]
    assert isinstance(t.decision, Over)
    assert t.decision.result.scores == [1 + 4 + 1, 2 + 1, 0]
    assert "cubes+cards+diplomats by seat: 5+1+0, 2+1+0, 0+0+0" in t.decision.result.summary


def test_no_reveal_when_every_hand_is_empty() -> None:
    # T-8: nothing to show.
    t = ended({}, {"Gallia": [1, 0, 0]})
    assert isinstance(t.decision, Over)
    assert t.state.africa.shown is None and t.decision.result.scores == [1, 0, 0]


def test_final_score_adds_cubes_cards_and_diplomats_then_breaks_ties() -> None:
    # T-9.4, T-9.5: seat 1 and seat 2 tie on 6; seat 1 plays next after the trigger (0).
    t = ended(
        {2: ["RC05"]},  # Hungaria
        {"Gallia": [5, 2, 0], "Hungaria": [0, 0, 5], "Italia": [0, 2, 0]},
        cards={"Sultan": 0},
    )
    t.state.africa.diplomats = [[], ["Gallia", "Italia"], []]
    t.state.africa.palace_diplomats = [0, 0, 0]
    t.state.africa.diplomat_supply = 13
    t.settle()
    result = t.decision.result
    assert result.scores == [5, 4 + 4, 5 + 1]
    assert result.winners == [1]
    t.state.africa.diplomats = [["Gallia"], [], []]
    assert scoring.parts(t.state) == [(5, 0, 4), (4, 0, 0), (5, 1, 0)]
