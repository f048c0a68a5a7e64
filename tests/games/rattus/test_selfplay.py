"""Whole games with both bots for 2-4 players, checking the invariants after every step,
and the agreement of ``legal_actions``, ``check`` and the notation on the positions met."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from typing import Any

import pytest

from pbem.core.rules import Over, RulesError, Turn
from pbem.core.selfplay import play_game
from pbem.games.rattus import State, data
from pbem.games.rattus.actions import (
    End,
    Keep,
    King,
    Merchant,
    Monk,
    Peasant,
    Place,
    Plague,
    Resolve,
    RevealToken,
    Spread,
    Swap,
    Take,
    Witch,
)
from pbem.games.rattus.bots import greedy

from .harness import OPTIONS, RULES, Table, check_invariants, position, rng

BOTS = [["random"], ["greedy"], ["greedy", "random"]]


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("bots", BOTS, ids="-".join)
def test_selfplay_keeps_the_invariants_and_ends(seats: int, bots: list[str]) -> None:
    # T-1 (20 cubes each, 49 tokens), T-5 C.3 (at most 3 tokens a region), T-9 (an end).
    for seed in range(6):
        table = Table.new(seats, seed)
        check_invariants(table.state)
        final = table.play(bots, check_invariants)
        result = final.result
        assert result is not None and len(result.winners) == 1
        points = [sum(r.cubes[i] for r in final.regions) + final.palace[i] for i in range(seats)]
        assert result.scores == points
        assert points[result.winners[0]] == max(points)
        assert final.trigger is not None


def test_same_seed_same_game() -> None:
    # The rules are deterministic: a replay from the same draws reaches the same state.
    first = Table.new(3, 4).play(["random"], lambda s: None)
    again = Table.new(3, 4).play(["random"], lambda s: None)
    assert first == again


def _no_floats(value: Any) -> None:
    assert not isinstance(value, float)
    if isinstance(value, dict):
        for item in value.values():
            _no_floats(item)
    elif isinstance(value, list):
        for item in value:
            _no_floats(item)


def test_states_survive_json_and_contain_no_floats() -> None:
    # DESIGN §2/§3: the engine stores states as JSON; reading one back must behave the same.
    table = Table.new(4, 2)

    def watch(s: State) -> None:
        dumped = s.model_dump(mode="json")
        _no_floats(dumped)
        back = RULES.load_state(dumped)
        assert back == s
        assert RULES.pending(back) == RULES.pending(s)

    table.play(["random"], watch)


def candidates(s: State, legal_types: set[str]) -> list[Any]:
    """A broad set of actions around a state, legal or not, of every type: all of them for
    the types legal now, a few of the others (which the decision refuses as a whole)."""
    regions = [r.name for r in s.regions] + ["Russia"]
    on_board = [h for r in s.regions for h in r.tokens]
    tokens = on_board + s.token_supply[:1]
    pairs = list(combinations(regions, 2))
    out: list[Any] = [Swap(), Keep(), End()]
    out += [Take(card=c.name) for c in s.cards]
    for name in regions:
        out += [Place(region=name), Peasant(region=name), King(region=name)]
        out += [Resolve(region=name), Plague(path=[name])]
    for a, b in pairs:
        out += [Merchant(source=a, target=b, cubes=n) for n in (1, 3, 4)]
        out += [Merchant(source=b, target=a, cubes=2), Plague(path=[a, b]), Plague(path=[b, a])]
    out += [Monk(token=h, target=name) for h in tokens for name in regions]
    out += [Witch(tokens=list(p)) for p in combinations(tokens, 2)]
    out += [
        Spread(regions=list(c)) for k in (1, 2) for c in combinations_with_replacement(regions, k)
    ]
    out += [RevealToken(token=h) for h in tokens]
    seen: Counter[str] = Counter()
    chosen = []
    for action in out:
        seen[action.type] += 1
        if action.type in legal_types or seen[action.type] <= 3:
            chosen.append(action)
    return chosen


def agree(s: State) -> None:
    """legal_actions, check and the notation agree on the decision awaited in ``s``."""
    decision = RULES.pending(s)
    if not isinstance(decision, Turn):
        return
    seat = decision.seat
    legal = RULES.legal_actions(s, seat)
    keys = {RULES.format_action(s, seat, a) for a in legal}
    assert len(keys) == len(legal)
    for action in legal:
        assert RULES.parse_action(s, seat, RULES.format_action(s, seat, action)) == action
    for action in candidates(s, {a.type for a in legal}):
        try:
            RULES.check(s, seat, action)
            accepted = True
        except RulesError:
            accepted = False
        line = RULES.format_action(s, seat, action)
        assert accepted == (line in keys), (line, decision)


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (4, 3)])
def test_legal_actions_are_exactly_the_actions_check_accepts(seats: int, seed: int) -> None:
    # legal_actions lists every legal action (the random bot relies on it), check refuses
    # everything else, and the notation gives each legal action back. Every 5th step.
    steps = iter(range(10**6))
    Table.new(seats, seed).play(["random"], lambda s: next(steps) % 5 or agree(s))


def test_greedy_places_away_from_the_plague() -> None:
    # The greedy bot avoids regions with tokens next to the plague piece.
    s = position(
        plague="Gallia",
        tokens={"Italia": ["tokens/0", "tokens/1"], "Polonia": ["tokens/2"]},
    )
    s.progress.took = True
    assert greedy(RULES, s, 0, rng(0)) == Place(region="Polonia")


def test_greedy_beats_random() -> None:
    # The heuristic is worth its name: it wins most games against the random bot.
    wins = 0
    for seed in range(10):
        final = Table.new(2, seed).play(["greedy", "random"], lambda s: None)
        assert final.result is not None
        wins += final.result.winners == [0]
    assert wins >= 8


def test_every_game_reaches_over() -> None:
    table = Table.new(2, 9)
    table.play(["greedy"], lambda s: None)
    assert isinstance(table.decision, Over)
    assert data.board(2).regions == tuple(r.name for r in table.state.regions)


def test_a_game_through_the_engine() -> None:
    # DESIGN §3-§7: a whole game through the real file: signatures, beacon draws, sealed
    # token decks with public reveals and the Witch's private looks, then full verification.
    report = play_game(RULES, 2, 1, OPTIONS, ["greedy", "random"])
    assert len(report.result.winners) == 1
