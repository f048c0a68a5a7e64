"""T-6.1-T-6.6: the six base class abilities, each at most once a turn."""

from __future__ import annotations

import pytest

from pbem.games.rattus.state import region
from pbem.ruleset.rules import Reveal, RulesError, Turn

from .harness import RULES, Table, position

T0, T1, T2, T3 = "tokens/0", "tokens/1", "tokens/2", "tokens/3"


def table(**kwargs: object) -> Table:
    return Table(position(**kwargs), faces={})  # type: ignore[arg-type]


# ----- T-6.1 Peasant ---------------------------------------------------------------------


def test_peasant_places_one_extra_cube() -> None:
    # T-6.1: in B one extra cube.
    t = table(tokens={"Italia": [T0, T1]}, cards={"Peasant": 0})
    t.act("peasant Italia")
    assert region(t.state, "Italia").cubes == [3, 0, 0]


def test_peasant_allows_a_region_without_tokens_with_one_cube() -> None:
    # T-6.1: a region without tokens may be chosen, and gets 1 cube.
    t = table(tokens={"Italia": [T0]}, cards={"Peasant": 0})
    t.act("peasant Anglia")
    assert region(t.state, "Anglia").cubes == [1, 0, 0]
    assert t.state.cube_supply[0] == 19


def test_peasant_is_optional_and_part_of_the_one_placement() -> None:
    # T-6.1: "may be used"; it is B itself, so it cannot follow a placement.
    t = table(tokens={"Italia": [T0]}, cards={"Peasant": 0})
    t.act("place Italia")
    assert region(t.state, "Italia").cubes == [1, 0, 0]
    with pytest.raises(RulesError, match="already placed"):
        t.act("peasant Anglia")


def test_peasant_needs_the_card() -> None:
    # T-6.1: only the holder of the Peasant.
    t = table(tokens={"Italia": [T0]}, cards={"Peasant": 1})
    with pytest.raises(RulesError, match=r"T-6\.1"):
        t.act("peasant Anglia")


def test_holding_the_peasant_makes_placement_mandatory() -> None:
    # T-5 B [ruling], rulings T-5: with the Peasant a legal region always exists.
    t = table(cards={"Peasant": 0})
    with pytest.raises(RulesError, match="place your cubes before"):
        t.act("plague Italia")


# ----- T-6.2 Merchant --------------------------------------------------------------------


def test_merchant_moves_up_to_three_cubes_to_a_neighbour() -> None:
    # T-6.2: from one region to one neighbouring region.
    t = table(tokens={"Italia": [T0]}, cubes={"Gallia": [4, 1, 0]}, cards={"Merchant": 0})
    t.act("merchant Gallia Hispania 3")
    assert region(t.state, "Gallia").cubes == [1, 1, 0]
    assert region(t.state, "Hispania").cubes == [3, 0, 0]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("merchant Gallia Polonia 1", "not a neighbour"),
        ("merchant Gallia Italia 4", "1 to 3"),
        ("merchant Gallia Italia 0", "1 to 3"),
        ("merchant Italia Gallia 1", "you have 0 cubes in Italia"),
    ],
)
def test_merchant_limits(line: str, why: str) -> None:
    # T-6.2: up to 3 of your own cubes, to a neighbour.
    t = table(
        tokens={"Italia": [T0]},
        cubes={"Gallia": [4, 0, 0], "Italia": [0, 2, 0]},
        cards={"Merchant": 0},
    )
    with pytest.raises(RulesError, match=why):
        t.act(line)


# ----- T-6.3 Monk -----------------------------------------------------------------------


def test_monk_moves_a_token_unseen_to_a_neighbour() -> None:
    # T-6.3: one token to a neighbouring region; nothing is revealed.
    t = table(tokens={"Gallia": [T0, T1], "Italia": [T2]}, cards={"Monk": 0})
    t.act("monk tokens/1 Italia")
    assert region(t.state, "Gallia").tokens == [T0]
    assert region(t.state, "Italia").tokens == [T2, T1]
    assert t.state.revealed == [] and t.private == []
    assert isinstance(t.decision, Turn)


def test_monk_respects_three_tokens_and_neighbours() -> None:
    # T-6.3: at most 3 tokens per region; only to a neighbour.
    t = table(tokens={"Gallia": [T0], "Italia": [T1, T2, T3]}, cards={"Monk": 0})
    with pytest.raises(RulesError, match="already holds 3"):
        t.act("monk tokens/0 Italia")
    with pytest.raises(RulesError, match="not a neighbour"):
        t.act("monk tokens/0 Polonia")
    with pytest.raises(RulesError, match="not on the board"):
        t.act("monk tokens/9 Anglia")


# ----- T-6.4 Knight ----------------------------------------------------------------------


def test_knight_moves_the_plague_two_steps() -> None:
    # T-6.4: up to 2 steps, each to a neighbour; only the final region is the plague region.
    # Italia (passed through) has tokens and cubes, but nothing happens there.
    t = table(
        tokens={"Italia": [T0, T1], "Hungaria": [T2]},
        cubes={"Italia": [0, 5, 0]},
        cards={"Knight": 0},
    )
    t.act("place Hungaria", "plague Italia Hungaria")
    s = t.state
    assert s.plague == "Hungaria"
    assert region(s, "Italia").tokens == [T0, T1] and region(s, "Italia").cubes == [0, 5, 0]
    assert s.spread is not None and s.spread.region == "Hungaria"


def test_knight_must_end_elsewhere_and_only_its_holder_moves_twice() -> None:
    # T-6.4 [ruling]: the final region differs from the start; without the Knight, 1 step.
    t = table(cards={"Knight": 0})
    with pytest.raises(RulesError, match="another region than Gallia"):
        t.act("plague Italia Gallia")
    with pytest.raises(RulesError, match="1 step"):
        t.act("plague Italia Hungaria Polonia")
    other = table(cards={"Knight": 1})
    with pytest.raises(RulesError, match="1 step"):
        other.act("plague Italia Hungaria")
    t.act("plague Italia")  # one step with the Knight: the Knight is not used
    assert t.state.plague == "Italia"


# ----- T-6.5 Witch ------------------------------------------------------------------------


def test_witch_looks_privately_then_swaps() -> None:
    # T-6.5, T-4: a private reveal to the holder only; the public state never sees a face.
    t = table(tokens={"Gallia": [T0, T1], "Italia": [T2]}, cards={"Witch": 2}, active=2)
    t.act("witch tokens/2 tokens/0")
    assert t.private == [(2, [T0, T2])]
    assert t.state.revealed == []
    assert t.state.witch is not None and t.state.witch.seen
    decision = t.decision
    assert isinstance(decision, Turn) and decision.seat == 2 and "swap or keep" in decision.prompt
    assert [a.type for a in RULES.legal_actions(t.state, 2)] == ["keep", "swap"]
    t.act("swap")
    assert region(t.state, "Gallia").tokens == [T2, T1]
    assert region(t.state, "Italia").tokens == [T0]
    assert t.state.witch is None


def test_witch_may_keep() -> None:
    # T-6.5: "optionally swap them".
    t = table(tokens={"Gallia": [T0], "Italia": [T2]}, cards={"Witch": 0})
    t.act("witch tokens/0 tokens/2", "keep")
    assert region(t.state, "Gallia").tokens == [T0]


def test_witch_pending_reveal_is_private_to_the_holder() -> None:
    # T-6.5, T-4: the look is Reveal(to=holder); the rules refuse to be shown its faces.
    s = position(tokens={"Gallia": [T0], "Italia": [T2]}, cards={"Witch": 0})
    s = RULES.apply(s, 0, RULES.parse_action(s, 0, "witch tokens/0 tokens/2"))
    look = RULES.pending(s)
    assert look == Reveal(items=[T0, T2], to=0)
    with pytest.raises(RulesError, match="private"):
        RULES.apply_reveal(s, look, {T0: "T01", T2: "T02"})
    with pytest.raises(RulesError, match="not awaited"):
        RULES.apply_reveal(s, Reveal(items=[T0, T2]), None)


def test_witch_in_one_region_asks_no_swap() -> None:
    # T-6.5, rulings T-6.5: swapping within one region changes nothing, so no question.
    t = table(tokens={"Gallia": [T0, T1], "Italia": [T2]}, cards={"Witch": 0})
    t.act("witch tokens/0 tokens/1")
    assert t.state.witch is None and t.private == [(0, [T0, T1])]
    assert region(t.state, "Gallia").tokens == [T0, T1]


def test_witch_needs_two_different_tokens_on_the_board() -> None:
    # T-6.5: two face-down tokens on the board.
    t = table(tokens={"Gallia": [T0]}, cards={"Witch": 0})
    with pytest.raises(RulesError, match="two different"):
        t.act("witch tokens/0 tokens/0")
    with pytest.raises(RulesError, match="not on the board"):
        t.act("witch tokens/0 tokens/5")
    assert all(a.type != "witch" for a in RULES.legal_actions(t.state, 0))


# ----- T-6.6 King ------------------------------------------------------------------------


def test_king_moves_a_cube_from_a_region_without_tokens_to_the_palace() -> None:
    # T-6.6: one cube, from a region without tokens.
    t = table(
        tokens={"Italia": [T0]},
        cubes={"Anglia": [2, 0, 0], "Italia": [2, 0, 0]},
        cards={"King": 0},
    )
    with pytest.raises(RulesError, match="Italia has rat tokens"):
        t.act("king Italia")
    with pytest.raises(RulesError, match="no cubes in Hispania"):
        t.act("king Hispania")
    t.act("king Anglia")
    assert region(t.state, "Anglia").cubes == [1, 0, 0]
    assert t.state.palace == [1, 0, 0]


# ----- once a turn ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "first", "second"),
    [
        ("Merchant", "merchant Gallia Italia 1", "merchant Italia Gallia 1"),
        ("Monk", "monk tokens/0 Italia", "monk tokens/0 Gallia"),
        ("Witch", "witch tokens/0 tokens/1", "witch tokens/0 tokens/1"),
        ("King", "king Anglia", "king Anglia"),
    ],
)
def test_each_ability_once_a_turn(card: str, first: str, second: str) -> None:
    # T-5: each class card you hold may be used once in your turn.
    t = table(
        tokens={"Gallia": [T0], "Hispania": [T1]},
        cubes={"Gallia": [3, 0, 0], "Anglia": [2, 0, 0]},
        cards={card: 0},
    )
    t.act(first)
    if t.state.witch is not None:
        t.act("keep")
    with pytest.raises(RulesError, match="used it this turn"):
        t.act(second)
    t.act("place Hispania", "plague Anglia")  # the next turn of seat 0 may use it again
    assert t.state.active == 1 and t.state.progress.used == []
