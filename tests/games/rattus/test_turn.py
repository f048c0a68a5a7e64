"""T-5: a turn (take a card, place cubes, move the plague) and the order of its parts."""

from __future__ import annotations

import pytest

from pbem.games.rattus.state import holder, region
from pbem.ruleset.rules import RulesError, Turn

from .harness import RULES, Table, position

# Token handles from the "tokens" deck; their faces only matter once they are revealed.
T0, T1, T2 = "tokens/0", "tokens/1", "tokens/2"


def table(**kwargs: object) -> Table:
    return Table(position(**kwargs), faces={})  # type: ignore[arg-type]


def test_take_a_card_from_the_supply() -> None:
    # T-5 A: one class card from the supply.
    t = table(tokens={"Gallia": [T0]})
    t.act("take Witch")
    assert holder(t.state, "Witch") == 0
    assert t.state.progress.took


def test_take_a_card_from_another_player() -> None:
    # T-5 A: ... or from another player; the card changes hands.
    t = table(tokens={"Gallia": [T0]}, cards={"Witch": 2})
    t.act("take Witch")
    assert holder(t.state, "Witch") == 0


def test_cannot_take_own_card_or_two_cards() -> None:
    # T-5 A: one card per turn, not one you hold already.
    t = table(tokens={"Gallia": [T0]}, cards={"King": 0})
    with pytest.raises(RulesError, match="already hold"):
        t.act("take King")
    t.act("take Witch")
    with pytest.raises(RulesError, match="already taken"):
        t.act("take Monk")


def test_card_taken_this_turn_can_be_used_this_turn() -> None:
    # T-5: "A card taken this turn may be used this turn", also after placing (A/B any order).
    t = table(tokens={"Gallia": [T0]}, cubes={"Gallia": [3, 0, 0]})
    t.act("place Gallia", "take Merchant", "merchant Gallia Italia 2")
    assert region(t.state, "Italia").cubes == [2, 0, 0]
    assert region(t.state, "Gallia").cubes == [2, 0, 0]


def test_place_as_many_cubes_as_tokens() -> None:
    # T-5 B: as many cubes as the region has tokens.
    t = table(tokens={"Gallia": [T0, T1, T2], "Italia": [T1]})
    t.act("place Gallia")
    assert region(t.state, "Gallia").cubes == [3, 0, 0]
    assert t.state.cube_supply[0] == 17


def test_place_all_cubes_left_when_fewer() -> None:
    # T-5 B: all you have left if fewer.
    t = table(tokens={"Gallia": [T0, T1, T2]}, cubes={"Italia": [19, 0, 0]})
    t.act("place Gallia")
    assert region(t.state, "Gallia").cubes == [1, 0, 0]
    assert t.state.cube_supply[0] == 0


def test_region_without_tokens_cannot_be_chosen() -> None:
    # T-5 B: a region without tokens cannot be chosen (without the Peasant).
    t = table(tokens={"Gallia": [T0]})
    with pytest.raises(RulesError, match="Italia has no rat tokens"):
        t.act("place Italia")


def test_place_once_per_turn() -> None:
    # T-5 B: one region.
    t = table(tokens={"Gallia": [T0], "Italia": [T1]})
    t.act("place Gallia")
    with pytest.raises(RulesError, match="already placed"):
        t.act("place Italia")


def test_placement_is_mandatory_before_the_plague() -> None:
    # T-5 B [ruling]: mandatory when a legal region exists; C comes last.
    t = table(tokens={"Gallia": [T0]})
    with pytest.raises(RulesError, match="place your cubes before moving the plague"):
        t.act("plague Italia")
    assert all(a.type != "plague" for a in RULES.legal_actions(t.state, 0))


def test_no_placement_without_cubes_or_without_tokens() -> None:
    # T-5 B: with no cube left, or no region with tokens (and no Peasant), B is skipped.
    no_cubes = table(tokens={"Gallia": [T0]}, cubes={"Italia": [20, 0, 0]})
    no_cubes.act("plague Hispania")
    assert no_cubes.state.plague == "Hispania"
    assert no_cubes.state.trigger == 0  # T-9.1: all cubes on the board
    no_tokens = table()
    no_tokens.act("plague Hispania")
    assert (no_tokens.state.plague, no_tokens.state.active) == ("Hispania", 1)


def test_plague_moves_to_a_neighbour() -> None:
    # T-5 C.1: to a neighbouring region, mandatory, never staying.
    t = table(tokens={"Polonia": [T0]}, cubes={"Polonia": [1, 0, 0]})
    t.act("place Polonia")
    with pytest.raises(RulesError, match="Polonia is not a neighbour of Gallia"):
        t.act("plague Polonia")
    with pytest.raises(RulesError, match="Gallia is not a neighbour of Gallia"):
        t.act("plague Gallia")
    with pytest.raises(RulesError, match="1 step"):
        t.act("plague Italia Hungaria")
    t.act("plague Italia")
    assert t.state.plague == "Italia"


def test_turn_passes_clockwise_after_the_plague() -> None:
    # T-5: C is the end of the turn; the next player clockwise follows.
    t = table(tokens={"Gallia": [T0], "Turcia": [T1]}, active=2)
    t.act("take Witch", "place Gallia", "plague Hispania")
    s = t.state
    assert (s.active, s.turn, s.progress.took) == (0, 2, False)
    decision = RULES.pending(s)
    assert isinstance(decision, Turn) and decision.seat == 0


def test_only_the_active_player_acts() -> None:
    # T-5: the player on turn.
    t = table(tokens={"Gallia": [T0]})
    with pytest.raises(RulesError, match="not your turn"):
        RULES.check(t.state, 1, RULES.parse_action(t.state, 1, "take Witch"))
    assert RULES.legal_actions(t.state, 1) == []


def test_forced_plague_move_is_made_without_a_question() -> None:
    # Rulings on one answer: with one legal action left, the rules play it. No region has
    # tokens, so
    # there is no placement; after the King, Turcia's one neighbour is the only move left.
    t = table(plague="Turcia", cubes={"Bulgaria": [1, 0, 0]})
    t.act("take King")
    assert {a.type for a in RULES.legal_actions(t.state, 0)} == {"king", "plague"}
    t.act("king Bulgaria")
    assert t.state.plague == "Bulgaria"
    assert (t.state.active, t.state.palace) == (1, [1, 0, 0])


def test_a_turn_typed_as_a_sequence_of_actions() -> None:
    # T-5 A, B, C: each ';'-separated part is one action in the notation.
    t = table(tokens={"Gallia": [T0], "Polonia": [T1]}, cubes={"Germania": [0, 2, 0]})
    typed = "take Witch; place Gallia; plague Germania"
    t.act(*typed.split(";"))
    s = t.state
    assert holder(s, "Witch") == 0
    assert region(s, "Gallia").cubes == [1, 0, 0]
    assert (s.plague, s.active) == ("Germania", 1)
