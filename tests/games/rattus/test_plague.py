"""T-5 C.2-C.4: the plague region and spreading; T-7: resolving a region token by token."""

from __future__ import annotations

import pytest

from pbem.games.rattus.state import region
from pbem.ruleset.rules import Reveal, RulesError, Turn

from .harness import RULES, Table, face, position

T0, T1, T2, T3 = "tokens/0", "tokens/1", "tokens/2", "tokens/3"
FULL = ["tokens/10", "tokens/11", "tokens/12"]


def after_placing(**kwargs: object) -> Table:
    """Seat 0 in the middle of its turn, cubes already placed: next comes the plague."""
    t = Table(position(**kwargs), faces={})  # type: ignore[arg-type]
    t.state.progress.placed = True
    return t


# ----- T-5 C.2-C.4 ------------------------------------------------------------------------


def test_plague_region_without_tokens_does_nothing() -> None:
    # T-5 C.2: no tokens, nothing more happens (even with cubes there).
    t = after_placing(plague="Anglia", cubes={"Gallia": [2, 2, 0]}, tokens={"Italia": [T0]})
    supply = list(t.state.token_supply)
    t.act("plague Gallia")
    assert t.state.token_supply == supply and t.state.revealed == []
    assert region(t.state, "Gallia").cubes == [2, 2, 0] and t.state.active == 1


def test_one_token_spreads_one_to_a_neighbour_of_the_players_choice() -> None:
    # T-5 C.3: 1 new token if the plague region has 1; the player chooses the neighbour.
    t = after_placing(plague="Anglia", tokens={"Gallia": [T0]})
    first = t.state.token_supply[0]
    t.act("plague Gallia")
    decision = t.decision
    assert isinstance(decision, Turn) and decision.seat == 0 and "1 new token" in decision.prompt
    assert [a.regions for a in RULES.legal_actions(t.state, 0)] == [
        ["Anglia"],
        ["Germania"],
        ["Hispania"],
        ["Italia"],
    ]
    t.act("spread Italia")
    assert region(t.state, "Italia").tokens == [first]
    assert region(t.state, "Gallia").tokens == [T0]  # no cubes there: no resolution (C.4)


@pytest.mark.parametrize("count", [2, 3])
def test_two_or_three_tokens_spread_two(count: int) -> None:
    # T-5 C.3: 2 new tokens if it has 2 or 3; both into one region is allowed.
    t = after_placing(plague="Anglia", tokens={"Gallia": [T0, T1, T2][:count]})
    first, second = t.state.token_supply[:2]
    t.act("plague Gallia")
    with pytest.raises(RulesError, match="place 2 new token"):
        t.act("spread Hispania")
    t.act("spread Hispania Hispania")
    assert region(t.state, "Hispania").tokens == [first, second]
    assert t.state.token_supply[0] not in (first, second)


def test_spread_never_above_three_tokens() -> None:
    # T-5 C.3: no region may hold more than 3 tokens.
    t = after_placing(
        plague="Anglia",
        tokens={"Gallia": [T0, T1], "Italia": FULL[:2], "Germania": ["tokens/20", "tokens/21"]},
    )
    t.act("plague Gallia")
    with pytest.raises(RulesError, match="Italia would hold more than 3"):
        t.act("spread Italia Italia")
    with pytest.raises(RulesError, match="not a neighbour of Gallia"):
        t.act("spread Polonia Italia")
    t.act("spread Germania Italia")
    assert len(region(t.state, "Italia").tokens) == len(region(t.state, "Germania").tokens) == 3


def test_tokens_that_cannot_be_placed_stay_in_the_supply() -> None:
    # T-5 C.3: only one place left among the neighbours: one token, placed without a question.
    t = after_placing(
        plague="Anglia",
        tokens={
            "Gallia": [T0, T1],
            "Anglia": FULL,
            "Germania": ["tokens/20", "tokens/21", "tokens/22"],
            "Italia": ["tokens/23", "tokens/24", "tokens/25"],
            "Hispania": ["tokens/26", "tokens/27"],
        },
    )
    supply = len(t.state.token_supply)
    t.act("plague Gallia")
    assert len(region(t.state, "Hispania").tokens) == 3
    assert len(t.state.token_supply) == supply - 1
    assert t.state.active == 1


def test_spread_is_limited_by_the_supply() -> None:
    # T-5 C.3: the tokens are drawn from the supply; it may run short.
    t = after_placing(plague="Bulgaria", tokens={"Turcia": [T0, T1]}, supply=["tokens/30"])
    t.act("plague Turcia")
    assert region(t.state, "Bulgaria").tokens == ["tokens/30"]
    assert t.state.token_supply == []


def test_resolve_only_when_the_plague_region_has_cubes() -> None:
    # T-5 C.4: resolve if the plague region has cubes (here it has none: tokens stay).
    t = after_placing(plague="Bulgaria", tokens={"Turcia": [T0]}, cubes={"Bulgaria": [3, 3, 3]})
    t.act("plague Turcia")
    assert t.state.revealed == [] and region(t.state, "Turcia").tokens == [T0]


# ----- T-7 --------------------------------------------------------------------------------


def resolve_turcia(
    faces: dict[str, str],
    cubes: list[int],
    cards: dict[str, int] | None = None,
    order: tuple[str, ...] = (),
) -> Table:
    """Seat 0 moves the plague from Bulgaria into Turcia, which holds ``faces``' tokens and
    ``cubes``; Turcia's one neighbour takes the spread without a question."""
    t = Table(
        position(
            plague="Bulgaria", tokens={"Turcia": list(faces)}, cubes={"Turcia": cubes}, cards=cards
        ),
        faces=faces,
    )
    t.state.progress.placed = True
    t.act("plague Turcia", *(f"reveal {h}" for h in order))
    return t


def test_below_the_threshold_a_token_has_no_effect() -> None:
    # T-7.1: 3 cubes against threshold 4: no break-out.
    t = resolve_turcia({T0: face(4, ["chivalry", "magic"], m=True)}, [1, 1, 1], {"Witch": 0})
    assert region(t.state, "Turcia").cubes == [1, 1, 1]
    (revealed,) = t.state.revealed
    assert (revealed.handle, revealed.broke_out, revealed.losses) == (T0, False, [0, 0, 0])


def test_class_icons_hit_the_holder_once_per_card() -> None:
    # T-7.2: chivalry + magic: the holder of the Knight and of the Witch loses 2; a holder
    # without cubes there loses nothing; cards in the supply hit nobody.
    t = resolve_turcia(
        {T0: face(3, ["chivalry", "magic"], a=False)},
        [2, 3, 0],
        {"Knight": 1, "Witch": 1, "Merchant": 0, "Monk": 2},
    )
    assert region(t.state, "Turcia").cubes == [2, 1, 0]
    assert t.state.cube_supply[1] == 20 - 1
    assert t.state.revealed[0].broke_out


def test_majority_hits_every_tied_player() -> None:
    # T-7.2: M hits the player(s) with the most cubes there, all tied players.
    t = resolve_turcia({T0: face(1, ["chivalry"], m=True)}, [2, 2, 1])
    assert region(t.state, "Turcia").cubes == [1, 1, 1]


def test_all_hits_everyone_with_a_cube() -> None:
    # T-7.2: A hits every player with a cube there.
    t = resolve_turcia({T0: face(1, ["bourgeoisie"], a=True)}, [3, 1, 0])
    assert region(t.state, "Turcia").cubes == [2, 0, 0]


def test_a_player_loses_at_most_the_cubes_there() -> None:
    # T-7.2: three hits (three icons, three cards) on a player with one cube: one lost.
    t = resolve_turcia(
        {T0: face(6, ["chivalry", "magic", "royalty"])},
        [1, 5, 0],
        {"Knight": 0, "Witch": 0, "King": 0},
    )
    assert region(t.state, "Turcia").cubes == [0, 5, 0]
    assert t.state.revealed[0].losses == [1, 0, 0]


def test_the_player_on_turn_orders_the_tokens_one_at_a_time() -> None:
    # T-7 [ruling]: the player on turn picks each token; a public reveal follows each pick.
    faces = {T0: face(1, ["bourgeoisie"], a=True), T1: face(3, ["peasantry", "royalty"])}
    t = Table(
        position(plague="Bulgaria", tokens={"Turcia": [T0, T1]}, cubes={"Turcia": [1, 1, 1]}),
        faces=faces,
    )
    t.state.progress.placed = True
    t.act("plague Turcia")
    decision = t.decision
    assert isinstance(decision, Turn) and "next token of Turcia" in decision.prompt
    assert {a.token for a in RULES.legal_actions(t.state, 0)} == {T0, T1}
    s = RULES.apply(t.state, 0, RULES.parse_action(t.state, 0, "reveal tokens/1"))
    assert RULES.pending(s) == Reveal(items=[T1])


def test_each_token_is_applied_from_the_state_at_its_reveal() -> None:
    # T-7.1-7.2: the Peasant's holder loses a cube to the first token, so the count is lower
    # for the second; the last token is revealed without a question.
    faces = {T0: face(1, ["bourgeoisie"], a=True), T1: face(3, ["peasantry", "royalty"])}
    t = resolve_turcia(faces, [1, 1, 1], {"Peasant": 2}, order=(T1,))
    assert [r.handle for r in t.state.revealed] == [T1, T0]
    assert [r.losses for r in t.state.revealed] == [[0, 0, 1], [1, 1, 0]]
    assert region(t.state, "Turcia").tokens == []


def test_resolution_stops_when_the_region_has_no_cubes() -> None:
    # T-7.4: A kills every cube first; the other token stays face down, unrevealed.
    faces = {T0: face(1, ["bourgeoisie"], a=True), T1: face(3, ["peasantry", "royalty"])}
    t = resolve_turcia(faces, [1, 1, 1], {"Peasant": 2}, order=(T0,))
    assert [r.handle for r in t.state.revealed] == [T0]
    assert region(t.state, "Turcia").tokens == [T1]
    assert region(t.state, "Turcia").cubes == [0, 0, 0]
    assert t.state.active == 1


def test_a_revealed_token_is_discarded_with_its_face_public() -> None:
    # T-7.4: the token is out of the game; its face and effect stay in the state.
    t = resolve_turcia({T0: face(1, ["bourgeoisie"], a=True)}, [1, 0, 0])
    (revealed,) = t.state.revealed
    assert (revealed.region, revealed.face) == ("Turcia", face(1, ["bourgeoisie"], a=True))
    assert all(T0 not in r.tokens for r in t.state.regions) and T0 not in t.state.token_supply


def test_public_reveal_needs_the_right_face() -> None:
    # T-7, T-4: the engine must supply the face of exactly the awaited handle.
    t = Table(
        position(plague="Bulgaria", tokens={"Turcia": [T0]}, cubes={"Turcia": [1, 0, 0]}),
        faces={},
    )
    t.state.progress.placed = True
    s = RULES.apply(t.state, 0, RULES.parse_action(t.state, 0, "plague Turcia"))
    reveal = RULES.pending(s)
    assert reveal == Reveal(items=[T0])
    with pytest.raises(RulesError, match="a public one has all"):
        RULES.apply_reveal(s, reveal, None)
    with pytest.raises(RulesError, match="not a rat token"):
        RULES.apply_reveal(s, reveal, {T0: "X99"})
    start_face = next(f for f in RULES.sealed_decks({}, 3)["start"])
    with pytest.raises(RulesError, match="cannot be the face"):
        RULES.apply_reveal(s, reveal, {T0: start_face})
    with pytest.raises(RulesError, match="not awaited"):
        RULES.apply_reveal(s, Reveal(items=[T1]), {T1: "T01"})
