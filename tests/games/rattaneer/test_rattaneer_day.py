"""R-6: the Day, area by area."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pbem.crypto.randomness import Rng
from pbem.games.rattaneer.actions import Flip, Hire, Pass, Take
from pbem.games.rattaneer.cards import load_cards
from pbem.games.rattaneer.state import State, area, supply
from pbem.ruleset.rules import Chance, RulesError, Turn


def quiet(state: State) -> State:
    """No coins anywhere and no sea cards: only what a test sets up can happen."""
    state.workshop = 0
    for player in state.players:
        player.coins = 0
    state.seas = [[] for _ in range(6)]
    return state


def test_workshop_shares_coins_in_land_priority(table, reveal):
    # one coin each in turn, land-priority holder first, until none are left.
    state = quiet(table(4, start=1))
    state.workshop = 5
    state = reveal(
        state,
        {
            0: "pirates 1 3, henchmen X",
            1: "pirates 1 4, henchmen X",
            2: "pirates 2 5, henchmen X",
            3: "pirates 2 6, henchmen X",
        },
    )
    assert state.phase == "night"
    assert [p.coins for p in state.players] == [2, 3, 0, 0]
    assert state.workshop == 0


def test_workshop_coins_stay_without_pirate(table, reveal):
    # with no pirate there, the coins stay.
    state = quiet(table(4))
    state.workshop = 4
    state = reveal(
        state,
        {
            0: "pirates 2 3, henchmen 1",
            1: "pirates 2 4, henchmen X",
            2: "pirates 5 6, henchmen X",
            3: "pirates 2 7, henchmen X",
        },
    )
    assert state.workshop == 4 and state.phase == "night"


def test_tavern(rules, table, reveal, play, awaited):
    # in land-priority order, one purchase each: a companion, a henchman, or pass.
    state = quiet(table(4, start=2))
    state.tavern = ["C05", "C10"]
    state.players[0].coins = 2
    state.players[2].coins = 2
    state = reveal(
        state,
        {
            0: "pirates 2 1, henchmen X",
            1: "pirates 1 3, henchmen X",
            2: "pirates 2 4, henchmen X",
            3: "pirates 1 5, henchmen X",
        },
    )
    assert awaited(state) == (2, "buy")  # the land-priority holder first
    assert set(map(str, rules.legal_actions(state, 2))) == {
        "type='pass'", "type='hire'", "type='buy' card='C05'"
    }  # fmt: skip
    with pytest.raises(RulesError, match=re.escape("R-6.2: C10 costs 5 coins; you have 2")):
        rules.check(state, 2, rules.parse_action(state, 2, "buy C10"))
    with pytest.raises(RulesError, match=re.escape("R-6.2: C01 is not in the Tavern row")):
        rules.check(state, 2, rules.parse_action(state, 2, "buy C01"))
    with pytest.raises(RulesError, match=re.escape("seat 2 is to move now, not seat 0")):
        rules.check(state, 0, Hire())
    with pytest.raises(RulesError, match=re.escape("R-6.2: a take action does not fit here")):
        rules.check(state, 2, Take(card="C05"))
    state = play(state, "buy C05")
    assert state.players[2].coins == 0 and state.players[2].companions == ["C05"]
    assert state.tavern == ["C10"]
    assert awaited(state) == (0, "buy")
    state = play(state, "hire")
    assert state.players[0].henchmen == 2 and state.players[0].coins == 1
    assert supply(state, 0) == 6
    assert state.phase == "night"  # one purchase each, then the Day went on to its end


def test_hire_needs_supply(rules, table, reveal, awaited):
    # with R-1 [ruling]: 8 henchmen per colour.
    state = quiet(table(4))
    state.players[0].coins = 3
    state.players[0].henchmen = 8
    state = reveal(
        state,
        {
            0: "pirates 2 1, henchmen X X X X X X X X",
            1: "pirates 1 3, henchmen X",
            2: "pirates 2 4, henchmen X",
            3: "pirates 1 5, henchmen X",
        },
    )
    assert awaited(state) == (0, "buy")
    with pytest.raises(RulesError, match=re.escape("R-6.2: no henchman of your colour is left")):
        rules.check(state, 0, Hire())


def test_henchman_bought_serves_at_the_island_at_once(rules, table, reveal, play, awaited):
    # R-6.2 + R-6.5: a henchman bought now is available at once for the Island.
    state = quiet(table(4))
    state.tavern = ["C10"]
    state.players[0].henchmen = 0
    state.players[0].coins = 1
    state = reveal(
        state,
        {
            0: "pirates 2 10",
            1: "pirates 1 3, henchmen 8",
            2: "pirates 4 5, henchmen 9",
            3: "pirates 6 7, henchmen X",
        },
    )
    state = play(state, "hire")
    assert awaited(state) == (0, "island")
    assert "type='spot' vp=8" in map(str, rules.legal_actions(state, 0))
    with pytest.raises(RulesError, match=re.escape("R-6.5: no free treasure spot is worth 7 VP")):
        rules.check(state, 0, rules.parse_action(state, 0, "spot 7"))
    state = play(state, "spot 8")
    assert state.spots == [0, None, None, None, None, None]
    assert state.players[0].henchmen == 0 and supply(state, 0) == 7


def test_island_spot_taken_from_the_board(table, reveal, play, awaited):
    # any owned henchman not spent may go, also one standing on an area; the pieces
    # on the table stay consistent [ruling 14].
    state = quiet(table(4, start=2))  # sea priority: seat 0
    state.players[0].henchmen = 1
    state.players[1].henchmen = 2
    state.spots[0] = 3  # the 8 VP spot is taken
    state = reveal(
        state,
        {
            0: "pirates 9 10, henchmen 10",
            1: "pirates 10 3, henchmen 1 2",
            2: "pirates 4 5, henchmen X",
            3: "pirates 6 7, henchmen 8",
        },
    )
    assert awaited(state) == (0, "island")  # sea priority on area 10 [ruling of R-6]
    state = play(state, "spot 6")
    assert area(state, 10).henchmen[0] == 0
    assert awaited(state) == (1, "island")
    state = play(state, "spot 5")
    assert state.spots == [3, 0, 1, None, None, None]
    assert [area(state, n).henchmen[1] for n in (1, 2)] == [1, 0]  # the highest area gave one


ISLAND_PLACEMENTS = {
    0: "pirates 9 10, henchmen 2",
    1: "pirates 10 3, henchmen 1",
    2: "pirates 4 5, henchmen X",
    3: "pirates 6 7, henchmen 8",
}
"""Seats 0 and 1 at the Legendary Island, seat 1 first (it holds sea priority)."""


def test_treasure_cards_are_drawn_at_random_when_the_island_is_taken(rules, table, reveal):
    # with option treasures: a pirate at the island draws a treasure card
    # (「改為抽寶藏卡」): a Chance, uniform among the cards not yet taken [RULINGS 3], in
    # sea-priority order, each drawn card public and out of the box.
    state = quiet(table(4, start=2, treasures="true"))
    assert state.sea_priority == 0
    state = reveal(state, ISLAND_PLACEMENTS)
    assert isinstance(rules.pending(state), Chance)
    assert "R-6.5" in rules.pending(state).reason
    assert rules.legal_actions(state, 0) == [] and rules.legal_actions(state, 1) == []
    with pytest.raises(RulesError, match="no move is awaited now"):
        rules.check(state, 0, Pass())
    drawn = Counter()
    for k in range(200):
        after = rules.resolve_chance(state, Rng(k.to_bytes(32, "big")))
        first, second = after.players[0].treasures, after.players[1].treasures
        assert len(first) == len(second) == 1 and after.island_treasures == 3
        assert sorted(after.treasure_box + first + second) == load_cards().treasure_deck()
        drawn[first[0]] += 1
        assert not isinstance(rules.pending(after), Chance)
    assert set(drawn) == set(load_cards().treasure_deck())  # any card may come
    assert drawn["T8"] < drawn["T6"]  # one T8 in the box, two T6
    assert state.island_treasures == 5 and state.players[0].treasures == []  # input untouched


def test_an_empty_island_gives_the_henchman_rule_again(rules, table, reveal, play, awaited):
    # R-6.5 [RULINGS 12]: the last treasure card goes to the first pirate in sea priority;
    # the next one is offered a treasure spot as without the option.
    state = quiet(table(4, start=2, treasures="true"))
    state.island_treasures = 1
    state = reveal(state, ISLAND_PLACEMENTS)
    state = rules.resolve_chance(state, Rng(bytes(32)))
    assert len(state.players[0].treasures) == 1 and state.island_treasures == 0
    assert len(state.treasure_box) == 9
    assert awaited(state) == (1, "island")
    state = play(state, "pass")
    assert state.players[1].treasures == [] and state.spots == [None] * 6


def test_treasure_draw_then_the_night_in_one_chance(rules, table, reveal):
    # after the island nothing awaits a choice, so the Night's refills are drawn
    # from the same stream: no second Chance follows the first.
    state = quiet(table(4, start=2, treasures="true"))
    state = reveal(
        state,
        {
            0: "pirates 9 10, henchmen X",
            1: "pirates 1 2, henchmen 3",
            2: "pirates 4 5, henchmen 6",
            3: "pirates 7 8, henchmen X",
        },
    )
    assert isinstance(rules.pending(state), Chance) and state.phase == "day"
    after = rules.resolve_chance(state, Rng(bytes(32)))
    assert after.phase == "morning" and after.round == 2
    assert len(after.players[0].treasures) == 1 and after.island_treasures == 4


def test_sea_battle_won_by_two_one_without_strength(rules, table, reveal, play, awaited):
    # seat 0 brings all the strength, seat 1 only its pirate (piggy-backing); both
    # share in sea-priority order (seat 1 holds it), round after round.
    state = quiet(table(4, start=3))
    assert state.sea_priority == 1
    state.players[0].henchmen = 3
    state.seas[0] = ["P1-1", "P2-3", "P3-4"]  # requirement 6
    state = reveal(
        state,
        {
            0: "pirates 3 1, henchmen 3 3 3",
            1: "pirates 3 2, henchmen X",
            2: "pirates 1 2, henchmen X",
            3: "pirates 1 2, henchmen X",
        },
    )
    assert awaited(state) == (1, "take")
    assert rules.legal_actions(state, 1) == [Take(card=c) for c in ("P1-1", "P2-3", "P3-4")]
    with pytest.raises(RulesError, match=re.escape("R-6.3: P6-8 is not under area 3")):
        rules.check(state, 1, Take(card="P6-8"))
    state = play(state, "take P3-4", "take P2-3")  # then seat 1's last take is forced
    assert state.players[1].face_up == ["P1-1", "P3-4"]
    assert state.players[0].face_up == ["P2-3"]
    assert state.seas[0] == []
    # R-6.3.4: the henchmen that counted go back to the supply; seat 1's (on X) did not count
    assert state.players[0].henchmen == 0 and supply(state, 0) == 8
    assert state.players[1].henchmen == 1
    assert state.players[0].areas_won == [3] and state.players[1].areas_won == [3]
    assert state.phase == "night"


def test_failed_battle_keeps_cards_and_henchmen(table, reveal):
    # 6 strength against 7 fails: nothing happens. A henchman without its owner's
    # pirate (seat 1's) adds nothing, though it would have made 8.
    state = quiet(table(4))
    state.players[0].henchmen = 3
    state.seas[0] = ["P1-1", "P2-3", "P4-5"]
    state = reveal(
        state,
        {
            0: "pirates 3 1, henchmen 3 3 3",
            1: "pirates 1 2, henchmen 3",
            2: "pirates 1 2, henchmen X",
            3: "pirates 2 4, henchmen X",
        },
    )
    assert state.phase == "night"
    assert state.seas[0] == ["P1-1", "P2-3", "P4-5"]
    assert state.players[0].henchmen == 3 and state.players[0].face_up == []
    assert state.players[0].areas_won == []


def test_henchman_without_pirate_and_pirate_alone_have_no_strength(table, reveal):
    # a pirate alone has 0, a lone henchman has 0: requirement 1 is not met.
    state = quiet(table(4))
    state.seas[0] = ["P1-1"]
    state = reveal(
        state,
        {
            0: "pirates 3 1, henchmen X",
            1: "pirates 1 2, henchmen 3",
            2: "pirates 1 2, henchmen X",
            3: "pirates 2 4, henchmen X",
        },
    )
    assert state.seas[0] == ["P1-1"]


def test_trade_ship_turns_a_card_taken_earlier_in_the_same_distribution(
    rules, table, reveal, play, awaited
):
    # the taker uses the ship at once, on its own face-up plunder, including the
    # card it took a moment ago; then the ship is discarded.
    state = quiet(table(4))
    state.players[0].henchmen = 2
    state.seas[0] = ["P2-3", "S1-1"]  # requirement 3
    state = reveal(
        state,
        {
            0: "pirates 3 1, henchmen 3 3",
            1: "pirates 1 2, henchmen X",
            2: "pirates 1 2, henchmen X",
            3: "pirates 2 4, henchmen X",
        },
    )
    assert awaited(state) == (0, "take")
    state = play(state, "take P2-3")  # the ship, the only card left, is taken by itself
    assert awaited(state) == (0, "ship")
    assert rules.legal_actions(state, 0) == [
        rules.parse_action(state, 0, "pass"),
        Flip(cards=["P2-3"]),
    ]
    state = play(state, "flip P2-3")
    player = state.players[0]
    assert player.face_up == [] and player.face_down == ["P2-3"]
    assert player.ships_used == 1 and state.sea_discard == ["S1-1"]
    assert state.phase == "night"


def test_trade_ship_capacity_and_no_cards_to_turn(rules, table, reveal, play, awaited):
    # at most the ship's capacity; with nothing face up the ship is still used
    # [ruling 10] and no one is asked.
    state = quiet(table(4, start=3))  # sea priority: seat 1
    state.players[0].henchmen = 3
    state.players[0].face_up = ["P1-1", "P2-2"]
    state.seas[0] = ["S1-1", "P4-5"]  # requirement 5
    state = reveal(
        state,
        {
            0: "pirates 3 1, henchmen 3 3 3",
            1: "pirates 3 2, henchmen X",
            2: "pirates 1 2, henchmen X",
            3: "pirates 1 2, henchmen X",
        },
    )
    assert awaited(state) == (1, "take")
    state = play(state, "take S1-1")  # seat 1 has no face-up card: nothing to ask
    assert state.players[1].ships_used == 1
    assert state.players[0].face_up == ["P1-1", "P2-2", "P4-5"]  # its take was forced
    assert state.phase == "night"
    # capacity, on a fresh position
    state = quiet(table(4))
    state.players[0].henchmen = 3
    state.players[0].face_up = ["P1-1", "P2-2"]
    state.seas[0] = ["S1-1", "P4-5"]
    state = reveal(
        state,
        {
            0: "pirates 3 1, henchmen 3 3 3",
            1: "pirates 1 2, henchmen X",
            2: "pirates 1 2, henchmen X",
            3: "pirates 2 4, henchmen X",
        },
    )
    state = play(state, "take S1-1")
    assert awaited(state) == (0, "ship")
    with pytest.raises(
        RulesError, match=re.escape("R-6.3.3: this trade ship turns at most 1 card")
    ):
        rules.check(state, 0, Flip(cards=["P1-1", "P2-2"]))
    with pytest.raises(RulesError, match=re.escape("R-6.3.3: you have no (more) face-up P4-5")):
        rules.check(state, 0, Flip(cards=["P4-5"]))  # not yet taken


def test_trade_port(rules, table, reveal, play, awaited):
    # any number of one's own face-up plunder cards, no cost.
    state = quiet(table(4))
    state.players[0].face_up = ["P1-1", "P1-1", "P3-4"]
    state = reveal(
        state,
        {
            0: "pirates 9 1, henchmen X",
            1: "pirates 2 3, henchmen 8",
            2: "pirates 4 5, henchmen X",
            3: "pirates 6 7, henchmen X",
        },
    )
    assert awaited(state) == (0, "trade")
    assert len(rules.legal_actions(state, 0)) == 1 + 5  # pass, and 5 non-empty multisets
    with pytest.raises(RulesError, match=re.escape("R-6.4: you have no (more) face-up P1-1")):
        rules.check(state, 0, Flip(cards=["P1-1", "P1-1", "P1-1"]))
    state = play(state, "flip P1-1 P1-1 P3-4")
    assert state.players[0].face_down == ["P1-1", "P1-1", "P3-4"]
    assert state.players[0].face_up == []


def test_farm_pays_a_coin_per_pirate(table, reveal):
    # both pirates of seat 3 were sent to the Farm.
    state = quiet(table(4))
    state = reveal(
        state,
        {
            0: "pirates 1 2, henchmen X",
            1: "pirates 1 2, henchmen X",
            2: "pirates 3 4, henchmen X",
            3: "pirates 7 8, henchmen X",
        },
    )
    assert state.players[3].coins == 2


def test_turn_prompt_names_the_choice(rules, table, reveal):
    state = quiet(table(4))
    state.players[0].coins = 1
    state = reveal(
        state,
        {
            0: "pirates 2 3, henchmen X",
            1: "pirates 1 4, henchmen X",
            2: "pirates 1 5, henchmen X",
            3: "pirates 1 6, henchmen X",
        },
    )
    decision = rules.pending(state)
    assert isinstance(decision, Turn) and decision.seat == 0
    assert "Tavern" in decision.prompt and "R-6.2" in decision.prompt


def test_the_log_says_the_farm_coin_apart_from_a_purchase(table, reveal):
    # the step that pays the Farm's coin may be a Tavern purchase; the
    # log says both (a net -1 read as a wrong price, issue 32).
    from pbem.games.rattaneer.consequences import consequences

    before = reveal(
        quiet(table(4)),
        {
            0: "pirates 1 2, henchmen X",
            1: "pirates 1 2, henchmen X",
            2: "pirates 3 4, henchmen X",
            3: "pirates 7 8, henchmen X",
        },
    )
    before = before.model_copy(update={"farm": [0, 3, 3]})
    players = list(before.players)
    players[0] = players[0].model_copy(update={"coins": players[0].coins - 2 + 1})
    players[3] = players[3].model_copy(update={"coins": players[3].coins + 2})
    after = before.model_copy(update={"farm": [], "players": players})
    lines = consequences(before, after, ["a", "b", "c", "d"])
    now_a, now_d = players[0].coins, players[3].coins
    # the purchase, then the Farm's coin on a line of its own
    assert f"a: -2 coins (now {now_a - 1})" in lines
    assert f"a: +1 coin from the Farm (R-6.6) (now {now_a})" in lines
    assert f"d: +2 coins from the Farm (R-6.6) (now {now_d})" in lines
