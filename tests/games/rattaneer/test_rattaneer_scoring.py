"""R-8 and the R-9.1 bonuses: the free flip, the score, the winners."""

from __future__ import annotations

import re

import pytest

from pbem.games.rattaneer.actions import Flip, Pass
from pbem.games.rattaneer.scoring import score
from pbem.games.rattaneer.state import State
from pbem.ruleset.rules import Over, Parallel, RulesError


def ended(rules, state: State) -> list[int]:
    state.phase = "over"
    decision = rules.pending(state)
    assert isinstance(decision, Over)
    return decision.result.scores


def test_score_is_the_sum_of_its_parts_with_every_bonus(rules, table):
    #
    state = table(2)
    p0, p1 = state.players
    p0.face_down = ["P1-1", "P2-2", "P3-4"]  # 7 VP; 3 cards: C11 +1
    p0.face_up = ["P6-8"]  # not scored
    p0.companions = ["C11", "C12", "C13", "C14", "C15", "C16"]  # 0+0+1+1+1+2 = 5 VP
    # C12: 5 others +5; C13: most henchmen on the card +2; C14: 9 coins → +2;
    # C15: 2 ships +4; C16: 3 sea areas +3
    p0.coins = 9  # 4 VP
    p0.ships_used = 2
    p0.areas_won = [3, 5, 8]
    p0.treasures = ["T5"]  # 5 VP
    state.spots = [0, 0, 1, None, None, None]  # 8 + 6 for seat 0; 5 for seat 1
    p1.companions = ["C17"]  # 0 VP, +3 when alone
    p1.coins = 1
    parts = score(state, state.options.card_set(), 0)
    assert parts.model_dump() == {
        "plunder": 7,
        "companions": 5,
        "island": 14,
        "bonuses": 1 + 5 + 2 + 2 + 4 + 3,
        "coins": 4,
        "treasures": 5,
    }
    assert ended(rules, state) == [52, 5 + 3]


def test_c13_ties_and_none(rules, table):
    # C13 [ruling 19]: ties all get it; no henchman on the card, no bonus.
    state = table(2)
    for player in state.players:
        player.companions = ["C13"]
        player.coins = 0
    assert ended(rules, state) == [1, 1]
    state.spots = [0, 1, None, None, None, None]
    assert ended(rules, state) == [1 + 8 + 2, 1 + 6 + 2]
    state.spots = [0, 1, 1, None, None, None]
    assert ended(rules, state) == [1 + 8, 1 + 6 + 5 + 2]


def test_c17_only_alone(rules, table):
    # C17 [ruling 18]
    state = table(2)
    state.players[0].companions = ["C17", "C01"]
    state.players[0].coins = 0
    assert score(state, state.options.card_set(), 0).bonuses == 0


@pytest.mark.parametrize(
    ("coins", "winners"),
    [((11, 10), [0]), ((10, 11), [1]), ((10, 10), [0, 1])],
)
def test_ties_broken_by_coins_then_shared(rules, table, coins, winners):
    # most VP; tie: most coins; still tied: shared win. 11 and 10 coins are both 5 VP.
    state = table(3)
    state.players[0].face_down = ["P4-5"]
    state.players[1].face_down = ["P2-2", "P2-3"]
    state.players[2].coins = 12  # 6 VP, the most coins, but fewer VP
    state.players[0].coins, state.players[1].coins = coins
    state.phase = "over"
    result = rules.pending(state).result
    assert result.scores == [10, 10, 6]
    assert result.winners == winners


def test_vp_ties_with_fewer_coins_loses(rules, table):
    # a higher VP wins regardless of coins.
    state = table(2)
    state.players[0].face_down = ["P6-8"]
    state.players[0].coins = 0
    state.players[1].coins = 14  # 7 VP
    state.phase = "over"
    assert rules.pending(state).result.winners == [0]


def _last_day(rules, table, reveal, face_up: dict[int, list[str]]) -> State:
    state = table(4)
    for player in state.players:
        player.coins = 0
    state.workshop = 0
    state.round = 10
    for seat, cards in face_up.items():
        state.players[seat].face_up = cards
    return reveal(state, {s: "pirates 1 2, henchmen X" for s in range(4)})


def test_final_free_flip(rules, table, reveal):
    # a public parallel decision of the seats holding face-up plunder only.
    state = _last_day(rules, table, reveal, {1: ["P1-1", "P6-8"], 3: ["P2-2"]})
    decision = rules.pending(state)
    assert isinstance(decision, Parallel)
    assert (decision.seats, decision.name, decision.sealed) == ([1, 3], "flip", False)
    assert rules.legal_actions(state, 1) == [Pass(), Flip(cards=["P1-1"]), Flip(cards=["P6-8"])]
    assert rules.legal_actions(state, 0) == []
    with pytest.raises(RulesError, match=re.escape("R-8.1: the free flip turns exactly one card")):
        rules.check(state, 1, Flip(cards=["P1-1", "P6-8"]))
    with pytest.raises(RulesError, match=re.escape("R-8.1: you have no (more) face-up P2-2")):
        rules.check(state, 1, Flip(cards=["P2-2"]))
    with pytest.raises(RulesError, match=re.escape("seat 0 has no part in 'flip'")):
        rules.check(state, 0, Pass())
    with pytest.raises(RulesError, match=re.escape("needs the actions of seats")):
        rules.apply_parallel(state, {1: Pass()})
    over = rules.apply_parallel(state, {1: Flip(cards=["P6-8"]), 3: Pass()})
    assert isinstance(rules.pending(over), Over)
    assert over.players[1].face_down == ["P6-8"] and over.players[3].face_down == []
    assert rules.pending(over).result.scores[1] == 8


def test_final_flip_is_automatic_when_nobody_can_flip(rules, table, reveal):
    # "automatic when it cannot matter": no face-up card anywhere, no question.
    state = _last_day(rules, table, reveal, {})
    assert isinstance(rules.pending(state), Over)
