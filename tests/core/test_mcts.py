"""The tree search (pbem.bots.mcts): deterministic for a seed, and it finds a clearly
winning move. (That it beats the greedy bots is measured by benchmarks/bots.py.)"""

from __future__ import annotations

import hashlib

import pytest

from pbem.bots.mcts import halving
from pbem.bots.simulate import World
from pbem.crypto.randomness import Rng
from pbem.games.rattaneer import day
from pbem.games.rattaneer.actions import Spot
from pbem.ruleset import registry
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import RulesError, Turn


def seeded(label: str) -> Rng:
    return Rng(hashlib.sha256(label.encode()).digest())


def midgame(ruleset: str, options: dict[str, str], seats: int, decisions: int) -> World:
    """A world after some decisions of greedy play."""
    rules = registry.get(ruleset)
    world = World.new(rules, rules.parse_options(options), seats, seeded(ruleset))
    greedy = rules.bot("greedy")
    for n in range(decisions):
        world.play(
            {
                s: greedy(rules, world.state, s, world.knowledge(s), seeded(f"{n} {s}"))
                for s in world.awaited()
            }
        )
    return world


@pytest.mark.parametrize(
    ("ruleset", "options", "decisions"),
    [("rattaneer", {}, 3), ("rattus", {"africanus": "on"}, 40)],
)
def test_same_seed_same_choice(ruleset: str, options: dict[str, str], decisions: int) -> None:
    world = midgame(ruleset, options, 3, decisions)
    rules, seat = world.rules, world.awaited()[0]
    mcts = rules.bot("mcts:6")
    mind = world.knowledge(seat)
    first = mcts(rules, world.state, seat, mind, seeded("bot"))
    again = mcts(rules, world.state, seat, mind, seeded("bot"))
    assert first == again
    rules.check(world.state, seat, first)


def test_the_budget_is_a_parameter() -> None:
    rules = registry.get("rattaneer")
    assert rules.bot("mcts:7").iterations == 7
    assert rules.bot("mcts").iterations == rules.bots()["mcts"].search.budget
    with pytest.raises(RulesError, match=r"mcts takes a number of iterations"):
        rules.bot("mcts:many")
    with pytest.raises(RulesError, match=r"bot 'greedy' takes no parameter"):
        rules.bot("greedy:3")
    with pytest.raises(RulesError, match=r"unknown bot 'deep'"):
        rules.bot("deep")


def island_decision() -> World:
    """Rattaneer, the last Day (R-4), seat 0 first to choose at the Legendary Island
    (R-6.5); seat 1, there too, has no henchman to place. Seat 1 has 7 VP of companions,
    seat 0 nothing: only the 8 VP spot wins the game for seat 0, the 6 VP spot leaves it
    a point short. Passing comes first in the rules' list."""
    rules = registry.get("rattaneer")
    state = rules.resolve_chance(rules.setup(rules.parse_options({}), 3), seeded("setup"))
    state.round, state.sea_priority, state.workshop = 10, 0, 0
    state.seas = [[] for _ in range(6)]
    for seat, henchmen in enumerate((3, 0, 2)):
        state.players[seat].coins, state.players[seat].henchmen = 0, henchmen
    state.players[1].companions = ["C06", "C19", "C02"]  # 3 + 3 + 1 VP
    place = {0: "pirates 9 10, henchmen 3 4 5", 1: "pirates 8 10", 2: "pirates 1 2, henchmen 6 7"}
    actions = {s: rules.parse_action(state, s, text) for s, text in place.items()}
    world = World(rules, rules.apply_parallel(state, actions), {}, seeded("chance"), [{}] * 3)
    assert isinstance(world.decision, Turn) and day.kind(world.state) == "island"
    return world


def test_mcts_finds_the_winning_spot() -> None:
    world = island_decision()
    rules, seat = world.rules, world.awaited()[0]
    assert seat == 0
    options = rules.legal_actions(world.state, seat)
    assert options[0].type == "pass" and Spot(vp=8) in options
    choice = rules.bot("mcts:24")(rules, world.state, seat, Knowledge(seat), seeded("bot"))
    assert choice == Spot(vp=8)


@pytest.mark.parametrize("budget", [6, 16, 30, 100])
@pytest.mark.parametrize("candidates", range(2, 13))
def test_halving_compares_two_in_its_last_round_and_keeps_to_the_budget(
    candidates: int, budget: int
) -> None:
    schedule = halving(candidates, budget)
    sizes = [candidates]
    for _ in schedule[1:]:
        sizes.append((sizes[-1] + 1) // 2)
    assert sizes[-1] == 2  # no round is spent on a choice already made
    spent = sum(each * size for each, size in zip(schedule, sizes, strict=True))
    floor = sum(sizes)  # one iteration a candidate in each round, whatever the budget
    assert spent <= max(budget, floor)
    assert spent > budget - sizes[-1] * len(schedule) or spent == floor
