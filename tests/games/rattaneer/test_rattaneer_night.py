"""R-4, R-7: the Night's refills, the markers and the end of the game."""

from __future__ import annotations

from pbem.crypto.randomness import Rng
from pbem.games.rattaneer.state import State
from pbem.ruleset.rules import Chance, Over, Parallel


def night(rules, state: State) -> State:
    state.phase = "night"
    assert isinstance(rules.pending(state), Chance)
    after = rules.resolve_chance(state, Rng(bytes(32)))
    assert isinstance(rules.pending(after), Parallel)  # the next Morning, no second Chance
    return after


def test_pieces_come_home_and_neutrals_are_set_aside(rules, table, reveal, play):
    # R-7.A
    state = table(2)
    state.players[0].henchmen = 2
    state = reveal(state, {0: "pirates 1 2, henchmen 4 X", 1: "pirates 1 2, henchmen X"})
    state = play(state, "pass", "pass")  # the Tavern
    assert state.phase == "night" and state.neutral == 0  # both neutrals on the board
    after = rules.resolve_chance(state, Rng(bytes(32)))
    assert all(p.is_empty() for p in after.board) and after.unused == [0, 0]
    assert after.neutral == 2 and after.players[0].henchmen == 2


def test_workshop_coins_accumulate(rules, table):
    # R-7.B: the Workshop gains one coin per player, even if nobody took the last ones.
    state = table(4)
    state.workshop = 4
    assert night(rules, state).workshop == 8


def test_tavern_overflow_keeps_three(rules, table):
    # R-7.B: more than 4 cards after drawing 2 → discard the oldest until 3 remain.
    state = table(4)
    state.tavern = ["C01", "C02", "C03"]
    state.companion_deck = ["C10", "C11", "C12"]
    after = night(rules, state)
    assert after.tavern[0] == "C03" and len(after.tavern) == 3
    assert set(after.tavern[1:]) <= {"C10", "C11", "C12"}
    assert after.companion_discard == ["C01", "C02"]


def test_tavern_of_four_is_no_overflow_and_keep_option(rules, table):
    # R-7.B: 2 + 2 = 4 cards stay; option tavern_keep=4 keeps four after an overflow.
    state = table(4)
    assert len(night(rules, state).tavern) == 4
    state = table(4, tavern_keep="4")
    state.tavern = ["C01", "C02", "C03"]
    after = night(rules, state)
    assert after.tavern[:2] == ["C02", "C03"] and len(after.tavern) == 4
    assert after.companion_discard == ["C01"]


def test_sea_refill(rules, table):
    # R-7.B: 0 cards → 2, 1–3 → 1, 4 → none.
    state = table(4)
    state.seas = [[], ["P1-1"], ["P1-1"] * 3, ["P1-1"] * 4, ["P1-1"] * 2, []]
    after = night(rules, state)
    assert [len(s) for s in after.seas] == [2, 2, 4, 4, 3, 2]
    assert after.seas[1][0] == "P1-1"  # new cards go after the old ones
    assert len(after.sea_deck) == len(state.sea_deck) - 7


def test_sea_refill_when_the_deck_runs_out_part_way(rules, table):
    # R-7.B: areas in order 3 to 8; when the deck is empty the rest get nothing. R-7.D: an
    # empty sea deck makes the next round the last.
    state = table(4)
    state.sea_deck = ["P1-1", "P2-2", "P3-4"]
    state.seas = [[], [], ["P6-8"], ["P6-8"] * 4, [], ["P6-8"] * 2]
    after = night(rules, state)
    assert [len(s) for s in after.seas] == [2, 1, 1, 4, 0, 2]
    assert sorted(after.seas[0] + after.seas[1]) == ["P1-1", "P2-2", "P3-4"]
    assert after.sea_deck == [] and after.last_round


def test_companion_draw_takes_what_is_left(rules, table):
    # R-7.B: "Draws take what is left if a deck has too few cards".
    state = table(4)
    state.companion_deck = ["C20"]
    after = night(rules, state)
    assert after.tavern[-1] == "C20" and len(after.tavern) == 3
    assert after.last_round  # R-7.D: the companion deck is now empty


def test_markers_pass_clockwise(rules, table):
    # R-7.C
    state = table(4, start=3)
    assert (state.land_priority, state.sea_priority) == (3, 1)
    after = night(rules, state)
    assert (after.land_priority, after.sea_priority) == (0, 2)
    assert after.round == 2


def test_last_round_triggered_by_an_empty_companion_deck(rules, table, reveal, play):
    # R-7.D: after the Night that empties the companion deck, one more round is played, and
    # the game ends after its Day (no further Night).
    state = table(4)
    state.companion_deck = ["C20", "C19"]
    state = night(rules, state)
    assert state.round == 2 and state.last_round and state.companion_deck == []
    for player in state.players:
        player.coins = 0
    state.workshop = 0
    state = reveal(state, {s: "pirates 1 2, henchmen X" for s in range(4)})
    assert state.phase == "over" and isinstance(rules.pending(state), Over)


def test_a_full_deck_is_no_last_round(rules, table):
    # R-7.D: the negative case.
    assert not night(rules, table(4)).last_round


def test_round_ten_is_the_last(rules, table, reveal):
    # at most 10 rounds; the game ends after the Day of round 10.
    state = table(4)
    for player in state.players:
        player.coins = 0
    state.workshop = 0
    state.round = 9
    state = reveal(state, {s: "pirates 1 2, henchmen X" for s in range(4)})
    assert state.phase == "night"
    state = rules.resolve_chance(state, Rng(bytes(32)))
    assert state.round == 10 and not state.last_round
    for player in state.players:
        player.coins = 0
    state.workshop = 0
    state = reveal(state, {s: "pirates 1 2, henchmen X" for s in range(4)})
    assert state.phase == "over"
