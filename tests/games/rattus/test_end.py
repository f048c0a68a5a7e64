"""T-9: the end trigger, the final round, the final plague, scoring and the tie-break."""

from __future__ import annotations

import pytest

from pbem.games.rattus import scoring
from pbem.games.rattus.state import region
from pbem.ruleset.rules import Over, RulesError, Turn

from .harness import RULES, Table, face, position

T0, T1, T2 = "tokens/0", "tokens/1", "tokens/2"
DIES = face(1, ["bourgeoisie"], a=True)
"""Threshold 1, A: every player with a cube there loses one."""
MOST = face(1, ["chivalry"], m=True)
"""Threshold 1, M: the players with the most cubes there lose one each."""


def placed(faces: dict[str, str] | None = None, **kwargs: object) -> Table:
    """Seat 0 has placed its cubes; next comes its plague move."""
    t = Table(position(**kwargs), faces=faces or {})  # type: ignore[arg-type]
    t.state.progress.placed = True
    return t


def seats_asked(t: Table) -> list[int]:
    """Answer every final-round question with ``end`` and list who was asked."""
    asked = []
    while isinstance(d := t.decision, Turn) and t.state.phase == "final_round":
        asked.append(d.seat)
        t.act("end")
    return asked


def test_empty_token_supply_ends_the_game_after_the_turn() -> None:
    # T-9.1: at the end of a turn the token supply is empty.
    t = placed(supply=[], cards={"Merchant": 1}, cubes={"Gallia": [0, 2, 0]})
    t.act("plague Italia")
    assert (t.state.phase, t.state.trigger) == ("final_round", 0)


def test_all_cubes_on_the_board_ends_the_game() -> None:
    # T-9.1: the player on turn has all their cubes on the board (palace included).
    t = Table(
        position(tokens={"Italia": [T0]}, cubes={"Anglia": [15, 0, 0]}, palace=[4, 0, 0]),
        faces={T0: DIES},
    )
    t.act("place Italia", "plague Hispania")
    assert t.state.trigger == 0 and t.state.phase == "over"
    assert region(t.state, "Italia").cubes == [0, 0, 0]  # the final plague (T-9.3) ran


def test_only_the_player_on_turn_triggers_by_cubes() -> None:
    # T-9.1: another player with every cube on the board does not end the game.
    t = placed(cubes={"Anglia": [0, 20, 0]}, tokens={"Italia": [T0]})
    t.act("plague Hispania")
    assert (t.state.phase, t.state.active, t.state.trigger) == ("turn", 1, None)


def test_final_round_goes_counter_clockwise_without_the_trigger() -> None:
    # T-9.2: from the player to the right of the trigger, counter-clockwise; each may use
    # their abilities once more. Seat 1 triggers: seats 0, 3, 2 follow.
    t = placed(
        seats=4,
        active=1,
        supply=[],
        cards={"Merchant": 0, "Monk": 3, "Witch": 2, "King": 1},
        cubes={"Gallia": [1, 1, 1, 1]},
        tokens={"Italia": [T0], "Anglia": [T1]},
    )
    t.act("plague Italia")
    assert seats_asked(t) == [0, 3, 2]
    assert t.state.phase == "over"


def test_final_round_allows_abilities_only() -> None:
    # T-9.2: no card taking, no placement, no plague move; abilities once each.
    t = placed(
        supply=[], cards={"Merchant": 2}, cubes={"Gallia": [0, 0, 3]}, tokens={"Italia": [T0]}
    )
    t.act("plague Hispania")
    for line, why in [
        ("take King", r"T-9\.2"),
        ("place Italia", r"T-9\.2"),
        ("plague Gallia", r"T-9\.2"),
    ]:
        with pytest.raises(RulesError, match=why):
            t.act(line)
    t.act("merchant Gallia Anglia 3")
    assert region(t.state, "Anglia").cubes == [0, 0, 3]
    # the Merchant is used; only "end" is left, so seat 2 is done without a question, and so
    # is seat 1, which holds nothing; Italia has no cubes for the final plague
    assert t.state.phase == "over"


def test_knight_and_peasant_do_nothing_in_the_final_round() -> None:
    # T-9.2, rulings T-9.2: a player holding only the Knight and the Peasant is not asked.
    t = placed(supply=[], cards={"Knight": 2, "Peasant": 2, "Monk": 1}, tokens={"Italia": [T0]})
    t.act("plague Hispania")
    assert seats_asked(t) == [1]


def test_final_plague_resolves_every_region_in_the_triggers_order() -> None:
    # T-9.3: every region with tokens, no spreading, in the trigger player's order; a region
    # without cubes has nothing to resolve (rulings T-9.3) and keeps its token face down.
    t = placed(
        {T0: DIES, T1: MOST},
        supply=[],
        plague="Anglia",
        tokens={"Gallia": [T0], "Italia": [T1], "Polonia": [T2]},
        cubes={"Gallia": [2, 0, 0], "Italia": [0, 1, 1]},
        palace=[0, 3, 0],
    )
    t.act("plague Scandia")
    decision = t.decision
    assert isinstance(decision, Turn) and decision.seat == 0 and "final plague" in decision.prompt
    assert [a.region for a in RULES.legal_actions(t.state, 0)] == ["Gallia", "Italia"]
    t.act("resolve Italia")
    assert [r.handle for r in t.state.revealed] == [T1, T0]
    assert region(t.state, "Polonia").tokens == [T2]
    over = t.decision
    assert isinstance(over, Over)
    # T-9.4: cubes on the map and in the palace.
    assert over.result.scores == [1, 3, 0]
    assert over.result.winners == [1]


def test_scores_count_the_palace() -> None:
    # T-9.4: cubes on the map and in the palace.
    s = position(cubes={"Gallia": [2, 1, 0], "Italia": [1, 0, 0]}, palace=[0, 4, 1])
    s.trigger = 0
    assert [sum(p) for p in scoring.parts(s)] == [3, 5, 1]


@pytest.mark.parametrize(
    ("trigger", "points", "winner"),
    [(1, [5, 5, 3, 5], 3), (0, [6, 6, 0, 0], 1), (3, [6, 6, 0, 0], 0), (2, [1, 7, 2, 3], 1)],
)
def test_tie_goes_to_the_next_player_after_the_trigger(
    trigger: int, points: list[int], winner: int
) -> None:
    # T-9.5: among the tied, the one who would have played next after the trigger player.
    s = position(seats=4, palace=points)
    s.trigger = trigger
    assert scoring.result(s).winners == [winner]
