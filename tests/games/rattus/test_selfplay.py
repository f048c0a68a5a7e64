"""Whole games with both bots, base game 2-4 players and Africanus 2-6, checking the
invariants after every step, and the agreement of ``legal_actions``, ``check`` and the
notation on the positions met. (Games through the engine: ``test_engine.py``.)"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import combinations, combinations_with_replacement
from typing import Any

import pytest

from pbem.games.rattus import State, data, scoring
from pbem.games.rattus.actions import (
    Astronomer,
    Caravan,
    Choose,
    End,
    Explore,
    Explorer,
    Keep,
    King,
    Merchant,
    Monk,
    Peasant,
    Place,
    Plague,
    Protect,
    Resolve,
    RevealToken,
    Spread,
    Sultan,
    Swap,
    Take,
    Use,
    Witch,
)
from pbem.games.rattus.bots import greedy
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import Over, Parallel, RulesError, Turn

from .harness import AFRICANUS, OPTIONS, RULES, Table, check_invariants, position, rng

BOTS = [["random"], ["greedy"], ["greedy", "random"]]


def _nothing(s: State) -> None:
    return None


def finished(table: Table, bots: list[str], watch: Callable[[State], None] = _nothing) -> State:
    """Play to the end checking the invariants after every step (and ``watch``); check
    the result."""
    check_invariants(table.state, table.faces)

    def step(s: State) -> None:
        check_invariants(s, table.faces)
        watch(s)

    final = table.play(bots, step)
    result = final.result
    assert result is not None and len(result.winners) == 1 and final.trigger is not None
    assert result.scores == [sum(p) for p in scoring.parts(final)]
    assert result.scores[result.winners[0]] == max(result.scores)
    return final


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("bots", BOTS, ids="-".join)
def test_selfplay_keeps_the_invariants_and_ends(seats: int, bots: list[str]) -> None:
    # T-1 (20 cubes each, 49 tokens), T-5 C.3 (at most 3 tokens a region), T-9 (an end).
    for seed in range(4):
        final = finished(Table.new(seats, seed), bots)
        points = [sum(r.cubes[i] for r in final.regions) + final.palace[i] for i in range(seats)]
        assert final.result.scores == points


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_africanus_selfplay_keeps_the_invariants_and_ends(seats: int) -> None:
    # T-1..T-10 with Africanus: cubes, 65 tokens, region cards (each in exactly one of deck,
    # hands, discards, played) and 15 diplomats conserved; region cards played knowingly.
    played: set[str] = set()

    def cards_played(s: State) -> None:
        played.update(p.card for p in (s.resolution.played if s.resolution else []))

    for seed in range(3):
        final = finished(Table.new(seats, seed, AFRICANUS), ["greedy", "random"], cards_played)
        assert final.africa.shown is not None or not any(final.africa.hands)
    assert played


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
    # architecture §2/§3: the engine stores states as JSON; reading one back must behave the same.
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
    out += _africanus_candidates(s, regions, pairs)
    seen: Counter[str] = Counter()
    chosen = []
    for action in out:
        seen[action.type] += 1
        if action.type in legal_types or seen[action.type] <= 3:
            chosen.append(action)
    return chosen


def _africanus_candidates(s: State, regions: list[str], pairs: list[tuple[str, str]]) -> list[Any]:
    if s.africa is None:
        return []
    draw = s.africa.draw.cards if s.africa.draw else []
    hands = [h for hand in s.africa.hands for h in hand][:4]
    cards = [c.name for c in s.cards]
    out: list[Any] = [Astronomer(), Explorer(), Protect()]
    out += [Choose(region_card=h) for h in draw + hands[:1]]
    for name in regions:
        out += [Explore(region=name), Sultan(region=name), Caravan(path=[name])]
        out += [King(region=name, diplomat=True)]
    for a, b in pairs:
        out += [Caravan(path=[a, b]), Merchant(source=a, target=b, cubes=1, diplomat=True)]
    out += [Protect(uses=[Use(card=h, protects=c)]) for h in hands for c in cards]
    out += [
        Protect(uses=[Use(card=h, protects=c), Use(card=g, protects=d)])
        for h, g in combinations(hands, 2)
        for c, d in combinations(cards, 2)
    ]
    return out


def agree(s: State) -> None:
    """legal_actions, check and the notation agree on the decision awaited in ``s``."""
    decision = RULES.pending(s)
    if isinstance(decision, Turn):
        seats = [decision.seat]
    elif isinstance(decision, Parallel):
        seats = decision.seats + [i for i in range(s.seats) if i not in decision.seats][:1]
    else:
        return
    for seat in seats:
        _agree(s, seat, decision)


def _agree(s: State, seat: int, decision: Turn | Parallel) -> None:
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


@pytest.mark.parametrize(
    ("seats", "seed", "opts", "every"), [(2, 1, OPTIONS, 5), (5, 3, AFRICANUS, 12)]
)
def test_legal_actions_are_exactly_the_actions_check_accepts(
    seats: int, seed: int, opts: dict[str, Any], every: int
) -> None:
    # legal_actions lists every legal action (the random bot relies on it), check refuses
    # everything else, and the notation gives each legal action back. Every few steps, and
    # at every region-card reaction.
    steps = iter(range(10**6))

    def watch(s: State) -> None:
        if isinstance(RULES.pending(s), Parallel) or not next(steps) % every:
            agree(s)

    Table.new(seats, seed, opts).play(["random"], watch)


def test_greedy_places_away_from_the_plague() -> None:
    # The greedy bot avoids a region next to the plague piece whose tokens will surely break
    # out (8 cubes there, T-7.1) and hit the class cards it holds (T-7.2), though it would
    # place 2 cubes there and only 1 elsewhere.
    s = position(
        plague="Gallia",
        tokens={"Italia": ["tokens/0", "tokens/1"], "Polonia": ["tokens/2"]},
        cubes={"Italia": [0, 5, 3]},
        cards={"Monk": 0, "Merchant": 0, "Witch": 0},
    )
    s.progress.took = True
    assert greedy(RULES, s, 0, Knowledge(0), rng(0)) == Place(region="Polonia")


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
