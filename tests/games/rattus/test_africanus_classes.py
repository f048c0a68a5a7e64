"""T-6.4 with 5-6 players, and the four Africanus classes T-6.7 to T-6.10 (with the
diplomats' rules where cubes move or die)."""

from __future__ import annotations

import pytest

from pbem.games.rattus import diplomats, regiondeck
from pbem.games.rattus.state import region
from pbem.ruleset.rules import Reshuffle, Reveal, RulesError, Turn

from .harness import RULES, Table, africa_table, check_invariants

# ----- T-6.7 Astronomer ----------------------------------------------------------------------


def test_astronomer_draws_three_privately_keeps_one_and_discards_two_face_up() -> None:
    # T-6.7, T-4: the draw is opened to the holder alone; the two others become public.
    t = africa_table(cards={"Astronomer": 0}, hands={0: ["RC01"]})
    drawn = t.state.africa.deck[:3]
    s = RULES.apply(t.state, 0, RULES.parse_action(t.state, 0, "astronomer"))
    assert RULES.pending(s) == Reveal(items=drawn, to=0)
    t.act("astronomer")
    assert t.private[-1] == (0, drawn)
    assert "T-6.7" in t.decision.prompt
    with pytest.raises(RulesError, match="not one of the cards you drew"):
        t.act("choose regions/0")
    t.act(f"choose {drawn[1]}")
    assert t.state.africa.hands[0] == ["regions/0", drawn[1]]
    assert t.state.africa.discards == [t.faces[drawn[0]], t.faces[drawn[2]]]
    assert t.state.africa.draw is None and isinstance(t.decision, Turn)
    with pytest.raises(RulesError, match=r"T-6\.7: you do not hold the Astronomer, or used it"):
        t.act("astronomer")
    check_invariants(t.state, t.faces)


def test_astronomer_keeps_the_only_card_left_without_a_question() -> None:
    # T-6.7 [rulings T-6]: fewer cards than 3 and no discards: draw what there is.
    others = regiondeck.card_ids(3)[1:]
    t = africa_table(cards={"Astronomer": 0}, hands={1: others})
    t.act("astronomer")
    assert t.state.africa.hands[0] == ["regions/29"] and t.state.africa.deck == []
    assert t.state.africa.draw is None
    assert all(a.type != "astronomer" for a in RULES.legal_actions(t.state, 0))


def test_an_empty_deck_is_made_anew_from_the_discards() -> None:
    # T-6 (region deck empty): the discards are shuffled into a new deck, regions-2, put
    # under what is left; the draw continues from it.
    ids = regiondeck.card_ids(3)
    t = africa_table(cards={"Astronomer": 0}, hands={1: ids[1:-4]})
    table = t.state.africa
    old, rest = table.deck[0], table.deck[1:]
    table.discards, table.deck = [t.faces[h] for h in rest], [old]
    s = RULES.apply(t.state, 0, RULES.parse_action(t.state, 0, "astronomer"))
    assert RULES.pending(s) == Reshuffle(deck="regions-2", items=sorted(table.discards))
    t.act("astronomer")
    drawn = t.state.africa.draw.cards
    assert drawn == [old, "regions-2/0", "regions-2/1"]
    assert t.state.africa.deck == ["regions-2/2", "regions-2/3"]
    t.act(f"choose {old}")
    check_invariants(t.state, t.faces)
    assert t.state.africa.decks == 2
    assert regiondeck.reshuffling(t.state).deck == "regions-3"


# ----- T-6.8 Explorer ------------------------------------------------------------------------


def test_explorer_reveals_three_and_places_a_cube_in_a_named_region() -> None:
    # T-6.8: three cards revealed to all, 1 cube into one of their regions, then discarded.
    t = africa_table(cards={"Explorer": 0})
    shown = t.state.africa.deck[:3]
    s = RULES.apply(t.state, 0, RULES.parse_action(t.state, 0, "explorer"))
    assert RULES.pending(s) == Reveal(items=shown)
    t.act("explorer")
    named = [regiondeck.face(t.state, t.faces[h]).region for h in shown]
    assert {a.region for a in RULES.legal_actions(t.state, 0)} == {*named, None}
    outside = next(r.name for r in t.state.regions if r.name not in named)
    with pytest.raises(RulesError, match=f"no revealed card names {outside}"):
        t.act(f"explore {outside}")
    t.act(f"explore {named[0]}")
    assert region(t.state, named[0]).cubes[0] == 1 and t.state.cube_supply[0] == 19
    assert t.state.africa.discards == [t.faces[h] for h in shown]
    check_invariants(t.state, t.faces)


def test_explorer_may_place_no_cube() -> None:
    # T-6.8: the holder *may* place a cube (「1つ駒を配置できます」): explore none places
    # nothing, and the three cards are discarded all the same.
    t = africa_table(cards={"Explorer": 0})
    shown = t.state.africa.deck[:3]
    t.act("explorer")
    assert "T-6.8" in t.decision.prompt and "or none" in t.decision.prompt
    assert "explore <region> | none" in RULES.notation_help(t.state, 0)
    t.act("explore none")
    assert t.state.cube_supply[0] == 20 and all(r.cubes == [0, 0, 0] for r in t.state.regions)
    assert t.state.africa.discards == [t.faces[h] for h in shown]
    assert t.state.africa.draw is None and isinstance(t.decision, Turn)
    assert t.decision.seat == 0 and "explorer" not in {
        a.type for a in RULES.legal_actions(t.state, 0)
    }
    check_invariants(t.state, t.faces)


def test_explorer_with_one_region_named_still_asks() -> None:
    # T-6.8, rulings on one answer: three Anglia cards leave two answers, Anglia or none:
    # still a question.
    anglia = ["RC01", "RC18", "RC35"]
    t = africa_table(
        cards={"Explorer": 0},
        hands={1: [c for c in regiondeck.card_ids(3) if c not in anglia]},
    )
    t.act("explorer")
    assert [RULES.format_action(t.state, 0, a) for a in RULES.legal_actions(t.state, 0)] == [
        "explore Anglia",
        "explore none",
    ]
    t.act("explore Anglia")
    assert region(t.state, "Anglia").cubes == [1, 0, 0]
    assert t.state.africa.discards == anglia


def test_explorer_needs_a_cube_to_place() -> None:
    # T-6.8 [rulings T-6.8]: with no cube left the ability has nothing to do.
    t = africa_table(cards={"Explorer": 0}, cubes={"Anglia": [20, 0, 0]})
    with pytest.raises(RulesError, match="no cube left"):
        t.act("explorer")


# ----- T-6.9 Sultan --------------------------------------------------------------------------


def test_sultan_puts_a_diplomat_under_a_cube() -> None:
    # T-6.9: under one of your cubes, in a region where you have none; others may share.
    t = africa_table(cards={"Sultan": 0}, cubes={"Gallia": [2, 1, 0], "Italia": [0, 0, 0]})
    t.state.africa.diplomats[1] = ["Gallia"]
    t.state.africa.diplomat_supply = 14
    with pytest.raises(RulesError, match="no cube in Italia"):
        t.act("sultan Italia")
    t.act("sultan Gallia")
    assert t.state.africa.diplomats == [["Gallia"], ["Gallia"], []]
    assert t.state.africa.diplomat_supply == 13
    check_invariants(t.state, t.faces)
    t.state.progress.used = []
    with pytest.raises(RulesError, match="a diplomat in Gallia already"):
        t.act("sultan Gallia")


def test_sultan_needs_a_diplomat_in_the_supply() -> None:
    # T-1: 15 diplomats.
    t = africa_table(cards={"Sultan": 0}, cubes={"Gallia": [2, 0, 0]})
    t.state.africa.diplomat_supply = 0
    assert all(a.type != "sultan" for a in RULES.legal_actions(t.state, 0))
    with pytest.raises(RulesError, match="all 15 diplomats"):
        t.act("sultan Gallia")


@pytest.mark.parametrize(("cubes", "left", "diplomat"), [(3, 1, True), (2, 0, False)])
def test_diplomats_die_after_the_ordinary_cubes(cubes: int, left: int, diplomat: bool) -> None:
    # T-6.9: ordinary cubes die first; the diplomat goes back to the supply with the last.
    t = africa_table(
        cards={"Sultan": 1},
        tokens={"Italia": ["tokens/0"]},
        cubes={"Italia": [cubes, 0, 0]},
        supply=[],
        faces={"tokens/0": "X12"},  # threshold 2, magic, M, A: 2 hits on the only player
    )
    t.state.africa.diplomats[0] = ["Italia"]
    t.state.africa.diplomat_supply = 14
    t.state.progress.placed = True
    t.act("plague Italia")
    assert region(t.state, "Italia").cubes[0] == left
    assert diplomats.has(t.state, 0, "Italia") == diplomat
    assert t.state.africa.diplomat_supply == 14 + (not diplomat)


def test_merchant_moves_a_diplomat_with_its_cube_never_two_into_one_region() -> None:
    # T-6.9, T-6.2: moving the diplomat's cube takes it along; two of one player's
    # diplomats in one region are refused; a diplomat never stays without a cube.
    t = africa_table(
        cards={"Merchant": 0, "Sultan": 1},
        cubes={"Gallia": [2, 0, 0], "Italia": [1, 0, 0]},
    )
    t.state.africa.diplomats[0] = ["Gallia", "Italia"]
    t.state.africa.diplomat_supply = 13
    with pytest.raises(RulesError, match="two diplomats in Italia"):
        t.act("merchant Gallia Italia 1 diplomat")
    with pytest.raises(RulesError, match="your diplomat in Gallia stays under its cube"):
        t.act("merchant Gallia Italia 2")
    t.act("merchant Gallia Hispania 2 diplomat")
    assert t.state.africa.diplomats[0] == ["Hispania", "Italia"]
    assert region(t.state, "Hispania").cubes[0] == 2
    check_invariants(t.state, t.faces)


def test_merchant_may_leave_the_diplomat_under_a_remaining_cube() -> None:
    # T-6.9: the other cubes are ordinary; the diplomat stays with the cube left behind.
    t = africa_table(cards={"Merchant": 0, "Sultan": 1}, cubes={"Gallia": [3, 0, 0]})
    t.state.africa.diplomats[0] = ["Gallia"]
    t.state.africa.diplomat_supply = 14
    moves = {RULES.format_action(t.state, 0, a) for a in RULES.legal_actions(t.state, 0)}
    assert {"merchant Gallia Italia 2", "merchant Gallia Italia 2 diplomat"} <= moves
    t.act("merchant Gallia Italia 2")
    assert t.state.africa.diplomats[0] == ["Gallia"]


def test_king_takes_a_diplomat_to_the_palace_where_it_still_counts() -> None:
    # T-6.6 [ruling]: a cube on a diplomat may be moved; its diplomat goes along, is safe
    # there and still counts (T-9.4).
    t = africa_table(cards={"King": 0, "Sultan": 1}, cubes={"Anglia": [1, 0, 0]})
    t.state.africa.diplomats[0] = ["Anglia"]
    t.state.africa.diplomat_supply = 14
    with pytest.raises(RulesError, match="stays under its cube"):
        t.act("king Anglia")
    t.act("king Anglia diplomat")
    assert t.state.palace[0] == 1 and t.state.africa.palace_diplomats[0] == 1
    assert t.state.africa.diplomats[0] == [] and diplomats.count(t.state, 0) == 1
    check_invariants(t.state, t.faces)


# ----- T-6.10 Caravan ------------------------------------------------------------------------


def caravan_table(**where: object) -> Table:
    t = africa_table(cards={"Caravan": 0}, **where)  # type: ignore[arg-type]
    t.state.africa.caravan = "Gallia"
    return t


def test_caravan_offers_the_majorities_a_cube_where_it_starts_and_passes() -> None:
    # T-6.10: start and middle regions: the most cubes (ties: each) may place 1 extra;
    # nothing in the final region, where the next use starts.
    t = caravan_table(cubes={"Gallia": [2, 2, 1], "Italia": [0, 3, 0], "Hungaria": [5, 0, 0]})
    t.act("caravan Italia Hungaria")
    assert t.state.africa.caravan == "Hungaria"
    asked = []
    for answer in ("bonus Gallia", "bonus Gallia", "bonus Italia"):
        assert isinstance(t.decision, Turn) and "T-6.10" in t.decision.prompt
        asked.append((t.decision.seat, t.state.africa.offers[0].region))
        t.act(answer)
    assert asked == [(0, "Gallia"), (1, "Gallia"), (1, "Italia")]
    assert region(t.state, "Gallia").cubes == [3, 3, 1]
    assert region(t.state, "Italia").cubes == [0, 4, 0]
    assert region(t.state, "Hungaria").cubes == [5, 0, 0]
    assert t.decision == Turn(seat=0, prompt=t.decision.prompt)  # the mover's turn goes on
    assert {a.type for a in RULES.legal_actions(t.state, 0)} >= {"plague", "take"}
    assert "caravan" not in {a.type for a in RULES.legal_actions(t.state, 0)}
    check_invariants(t.state, t.faces)
    t.state.progress.used = []
    paths = [a.path for a in RULES.legal_actions(t.state, 0) if a.type == "caravan"]
    assert paths and all(p[0] in ("Germania", "Italia", "Polonia", "Bulgaria") for p in paths)


def test_caravan_cube_is_a_choice_asked_in_seating_order_from_the_mover() -> None:
    # T-6.10: each such player *may* place (「追加の駒を1つ配置できます」); asked in seating
    # order beginning with the mover [ruling], who here is seat 1: seats 1, 2, then 0.
    t = africa_table(cards={"Caravan": 1}, cubes={"Gallia": [2, 2, 2]}, active=1)
    t.state.africa.caravan = "Gallia"
    t.act("caravan Italia Hungaria")
    assert [o.seat for o in t.state.africa.offers] == [1, 2, 0]
    assert t.decision.seat == 1
    assert [RULES.format_action(t.state, 1, a) for a in RULES.legal_actions(t.state, 1)] == [
        "bonus Gallia",
        "bonus none",
    ]
    assert RULES.legal_actions(t.state, 0) == []  # not asked yet
    with pytest.raises(RulesError, match="it is not your turn: seat 1 is to act"):
        RULES.check(t.state, 0, RULES.parse_action(t.state, 0, "bonus Gallia"))
    with pytest.raises(RulesError, match=r"T-6\.10: the caravan offers you a cube in Gallia"):
        t.act("bonus Italia")
    t.act("bonus none")
    assert t.decision.seat == 2
    t.act("bonus Gallia")
    assert t.decision.seat == 0
    t.act("bonus none")
    assert region(t.state, "Gallia").cubes == [2, 2, 3]
    assert t.state.cube_supply == [18, 18, 17]
    assert t.decision.seat == 1 and t.state.africa.offers == []
    check_invariants(t.state, t.faces)


def test_caravan_moves_exactly_two_steps_and_never_back() -> None:
    # T-6.10: exactly 2 steps (not 1); never back into the region where the move started.
    t = caravan_table(cubes={"Gallia": [1, 0, 0]})
    with pytest.raises(RulesError, match="exactly 2 steps"):
        t.act("caravan Italia")
    with pytest.raises(RulesError, match="may not go back to Gallia"):
        t.act("caravan Italia Gallia")
    with pytest.raises(RulesError, match="not a neighbour"):
        t.act("caravan Italia Anglia")


def test_caravan_bonus_needs_a_cube_there_and_one_left() -> None:
    # T-6.10: at least 1 cube there; the extra cube comes from the player's own supply, so a
    # player with none left is not asked.
    t = caravan_table(cubes={"Gallia": [1, 1, 0], "Scandia": [0, 19, 0]})
    t.act("caravan Italia Hungaria")
    assert t.decision.seat == 0
    t.act("bonus Gallia")  # seat 1 is skipped: no Turn awaits it
    assert region(t.state, "Gallia").cubes == [2, 1, 0]  # seat 1 has no cube left
    assert region(t.state, "Italia").cubes == [0, 0, 0]  # nobody there: no bonus
    assert t.state.africa.offers == [] and t.decision.seat == 0


def test_caravan_skips_a_player_whose_last_cube_went_in_the_start_region() -> None:
    # T-6.10: seat 1 leads in both regions with one cube left: after placing it in the
    # start region it is not asked about the region passed through.
    t = caravan_table(cubes={"Gallia": [0, 1, 0], "Italia": [0, 18, 0]})
    t.act("caravan Italia Hungaria")
    assert [(o.seat, o.region) for o in t.state.africa.offers] == [(1, "Gallia"), (1, "Italia")]
    t.act("bonus Gallia")
    assert t.state.cube_supply[1] == 0 and t.state.africa.offers == []
    assert t.decision.seat == 0


# ----- T-6.4 Knight with 5-6 players, and the final round ------------------------------------


@pytest.mark.parametrize(("seats", "steps"), [(4, 2), (5, 3), (6, 3)])
def test_knight_steps_with_africanus(seats: int, steps: int) -> None:
    # T-6.4, T-3.6: 2 steps, 3 with 5-6 players (the "3 steps" token).
    t = africa_table(seats, cards={"Knight": 0}, plague="Anglia")
    path = ["Gallia", "Hispania", "Mauretania"] if seats == 5 else ["Gallia", "Italia", "Hungaria"]
    lines = " ".join(path[:3])
    if steps == 3:
        t.act(f"plague {lines}")
        assert t.state.plague == path[-1]
    else:
        with pytest.raises(RulesError, match=f"up to {steps} with the Knight"):
            t.act(f"plague {lines}")


def test_africanus_abilities_in_the_final_round() -> None:
    # T-9.2: each other player may use each of their class abilities once more.
    t = africa_table(cards={"Sultan": 1, "Astronomer": 1}, cubes={"Gallia": [0, 2, 0]})
    t.state.phase, t.state.trigger, t.state.final_order, t.state.active = (
        "final_round",
        0,
        [1],
        1,
    )
    verbs = {a.type for a in RULES.legal_actions(t.state, 1)}
    assert verbs == {"sultan", "astronomer", "end"}
    t.act("sultan Gallia", "astronomer")
    assert t.state.africa.draw is not None and t.state.phase == "final_round"
