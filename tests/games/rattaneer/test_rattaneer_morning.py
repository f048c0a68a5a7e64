"""R-5: the secret placement, its checks, neutral henchmen and the gap check."""

from __future__ import annotations

import re

import pytest

from pbem.games.rattaneer.actions import Place
from pbem.games.rattaneer.state import area, in_hand
from pbem.ruleset.rules import Parallel, RulesError


def test_morning_is_a_sealed_parallel_of_every_seat(rules, table):
    #
    decision = rules.pending(table(3))
    assert isinstance(decision, Parallel)
    assert (decision.seats, decision.name, decision.sealed) == ([0, 1, 2], "place", True)


@pytest.mark.parametrize(
    ("place", "message"),
    [
        (Place(pirates=[3]), "R-5.1: place both of your pirates"),
        (Place(pirates=[3, 4, 5]), "R-5.1: place both of your pirates"),
        (Place(pirates=[0, 4]), r"R-5.1: a pirate goes on an area 1–10 \(never on X\)"),
        (Place(pirates=[4, 11]), "R-5.1: a pirate goes on an area 1–10"),
        (Place(pirates=[4, 4]), "R-5.1: your two pirates must be on different areas"),
        (Place(pirates=[3, 7], henchmen=[11]), "R-5.1: a henchman goes on an area 1–10 or on X"),
        (Place(pirates=[3, 7], henchmen=[3, 3, 3]), "R-5.1: you have 2 henchmen available"),
        (
            Place(pirates=[3, 7], henchmen=[4, 4]),
            "R-5.1: at most one henchman on area 4 without your pirate",
        ),
    ],
)
def test_illegal_placements_cite_the_rule(rules, table, place, message):
    #
    state = table(3)
    state.players[1].henchmen = 2
    with pytest.raises(RulesError, match=message):
        rules.check(state, 1, place)
    with pytest.raises(RulesError, match=message):
        rules.apply_parallel(state, {0: Place(pirates=[1, 2]), 1: place, 2: Place(pirates=[1, 2])})


def test_legal_placements(rules, table):
    # any number with the own pirate, one alone elsewhere, henchmen on the treasure
    # card are not available.
    state = table(3)
    state.players[1].henchmen = 3
    rules.check(state, 1, Place(pirates=[3, 7], henchmen=[3, 3, 3]))
    rules.check(state, 1, Place(pirates=[3, 7], henchmen=[4, 5, 7]))
    rules.check(state, 1, Place(pirates=[3, 7]))  # all three on X
    state.players[1].henchmen = 2  # the third went onto the secret treasure card
    state.spots[0] = 1
    with pytest.raises(RulesError, match=re.escape("2 henchmen available")):
        rules.check(state, 1, Place(pirates=[3, 7], henchmen=[3, 3, 3]))
    # the placement sample is legal
    for place in rules.legal_actions(state, 1):
        rules.check(state, 1, place)
    assert rules.legal_actions(state, 5) == []


def test_gap_example(table, reveal):
    # the rule's own example: 1–5 occupied, 6 empty, pirates on 7, 8 and 9 → all three
    # go to the Farm. The lone henchman on 5 makes area 5 non-empty.
    state = table(4)
    for player in state.players:
        player.coins = 0  # nobody can buy at the Tavern: the Day runs through
    state = reveal(
        state,
        {
            0: "pirates 1 7, henchmen X",
            1: "pirates 2 8, henchmen X",
            2: "pirates 3 9, henchmen X",
            3: "pirates 4 10, henchmen 5",
        },
    )
    assert [bool(area(state, n).pirates) for n in range(1, 11)] == [True] * 4 + [False] * 6
    assert state.phase == "night"  # the whole Day ran, the Farm paid
    # each Farm pirate earned 1 coin; seat 0 also shared the Workshop (4 coins alone)
    assert [p.coins for p in state.players] == [4 + 1, 1, 1, 1]
    assert area(state, 5).henchmen[3] == 1


def test_gap_sends_henchmen_home_and_lone_henchman_fills(table, reveal, play, awaited):
    # henchmen beyond the gap return to their owner, unused this round.
    state = table(4)
    for player in state.players:
        player.coins = 0
    state.players[1].henchmen = 2
    state = reveal(
        state,
        {
            0: "pirates 1 2, henchmen X",
            1: "pirates 3 9, henchmen 4 9",  # 4 is filled by a lone henchman
            2: "pirates 1 5, henchmen X",
            3: "pirates 1 2, henchmen X",
        },  # 6 is empty: the pirate on 9 goes to the Farm, its henchman home
    )
    assert area(state, 4).henchmen[1] == 1
    assert area(state, 9).henchmen[1] == 0 and area(state, 9).pirates == []
    assert in_hand(state, 1) == 1
    assert state.farm == [1]
    assert awaited(state) == (0, "buy")  # the Workshop paid seats 0, 2 and 3
    state = play(state, "pass", "pass")
    assert state.phase == "night" and state.farm == []
    assert state.players[1].coins == 1  # the Farm's coin


def test_neutral_henchmen_fill_empty_areas_lowest_first(table, reveal):
    # with 2 players, two neutrals go on the lowest empty areas; here they fill 3 and
    # 6, so the pirates on 4 and 5 stay and the gap is only at 7.
    state = table(2)
    for player in state.players:
        player.coins = 0
    state.seas = [[] for _ in range(6)]  # no battles to resolve
    state = reveal(state, {0: "pirates 1 2, henchmen X", 1: "pirates 4 5, henchmen X"})
    assert [area(state, n).neutral for n in range(1, 11)] == [0, 0, 1, 0, 0, 1, 0, 0, 0, 0]
    assert state.farm == [] and area(state, 4).pirates == [1] and area(state, 5).pirates == [1]


def test_neutrals_run_out(table, reveal, play):
    # R-5.3 [ruling: leftover]: 3 players, one neutral; the next empty area is a gap.
    state = table(3)
    for player in state.players:
        player.coins = 0
    state.seas = [[] for _ in range(6)]
    state = reveal(
        state,
        {0: "pirates 1 2, henchmen X", 1: "pirates 1 2, henchmen X", 2: "pirates 4 6, henchmen X"},
    )
    assert area(state, 3).neutral == 1 and state.neutral == 0
    assert area(state, 6).pirates == []  # 5 was empty: the pirate on 6 went to the Farm
    assert state.farm == [2]
    state = play(state, "pass", "pass")  # the Tavern
    assert state.players[2].coins == 1
