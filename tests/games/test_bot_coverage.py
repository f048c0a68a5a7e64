"""The bots play the whole game: in a few rules-only games of greedy bots, every class
ability, region cards played and declined, sea battles won and lost, the Tavern, the
Trade Port, the Island and treasure draws each happen at least once. So whole-game tests
with bots reach every rule, not only the hand-built positions of the per-section tests."""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

from pbem.bots.simulate import World
from pbem.crypto.randomness import Rng
from pbem.games.rattaneer import day, morning
from pbem.games.rattaneer.state import SEA_AREAS, TRADE_PORT, area, copy, sea_cards
from pbem.ruleset import registry
from pbem.ruleset.rules import Decision, Parallel, Ruleset


def seeded(label: str) -> Rng:
    return Rng(hashlib.sha256(label.encode()).digest())


Step = tuple[Decision, Any, dict[int, Any], Any]
"""A decision, the state it was taken in, the actions, the state after."""


def games(
    rules: Ruleset, options: dict[str, str], seats: int, seeds: range, bots: list[str]
) -> list[Step]:
    """Every decision of the games of these bots on these seeds."""
    steps = []
    for seed in seeds:
        world = World.new(rules, rules.parse_options(options), seats, seeded(f"world {seed}"))
        players = [rules.bot(bots[s % len(bots)]) for s in range(seats)]
        rngs = [seeded(f"bot {seed} {s}") for s in range(seats)]
        while not world.over():
            decision, before = world.decision, world.state
            actions = {
                s: players[s](rules, world.state, s, world.knowledge(s), rngs[s])
                for s in world.awaited()
            }
            world.play(actions)
            steps.append((decision, before, actions, world.state))
    return steps


def rattaneer_events(steps: list[Step]) -> Counter[str]:
    events: Counter[str] = Counter()
    for decision, state, actions, after in steps:
        if isinstance(decision, Parallel) and state.phase == "morning":
            events.update(_battles(state, actions))
        elif state.phase == "day":
            (action,) = actions.values()
            what = day.kind(state)
            if what == "buy":
                events[f"tavern {action.type}"] += 1
            elif what == "trade" and action.type == "flip":
                events["trade port"] += 1
            elif what == "island" and action.type == "spot":
                events["island spot"] += 1
            elif what == "ship" and action.type == "flip":
                events["trade ship"] += 1
        drawn = sum(map(len, (p.treasures for p in after.players)))
        events["treasure drawn"] += drawn - sum(map(len, (p.treasures for p in state.players)))
    return events


def _battles(state: Any, placements: dict[int, Any]) -> Counter[str]:
    """R-6.3: the battles of the Day after this Morning, won or lost, from the table as the
    reveal and the gap check leave it."""
    table = copy(state)
    morning.reveal(table, placements)
    cards = state.options.card_set()
    out: Counter[str] = Counter()
    for number in SEA_AREAS:
        pieces, under = area(table, number), sea_cards(table, number)
        if pieces.pirates and under:
            strength = sum(2 * pieces.henchmen[s] for s in pieces.pirates)
            need = sum(cards.sea_card(c).strength for c in under)
            out["battle won" if strength >= need else "battle lost"] += 1
    out["pirate at trade port"] += len(area(table, TRADE_PORT).pirates)
    return out


def test_rattaneer_bot_games_reach_every_part_of_the_day() -> None:
    # Tavern, R-6.3 battles won and trade ships, R-6.4 Trade Port, R-6.5 the Island:
    # spots, and treasure cards drawn with option treasures; greedy bots. A battle lost
    # takes a bot that attacks without the strength: the random one.
    rules = registry.get("rattaneer")
    events = rattaneer_events(games(rules, {}, 3, range(13, 14), ["greedy"]))
    events += rattaneer_events(games(rules, {"treasures": "on"}, 3, range(1, 2), ["greedy"]))
    events += rattaneer_events(games(rules, {}, 3, range(1), ["greedy", "random"]))
    wanted = [
        "tavern buy",
        "tavern hire",
        "battle won",
        "battle lost",
        "trade ship",
        "trade port",
        "island spot",
        "treasure drawn",
    ]
    assert all(events[w] for w in wanted), events


def rattus_events(steps: list[Step]) -> Counter[str]:
    events: Counter[str] = Counter()
    for _, _, actions, _ in steps:
        for action in actions.values():
            name = action.type
            if name == "plague" and len(action.path) > 1:
                name = "knight"
            elif name == "caravan" and len(action.path) == 1:
                name = "caravan start"
            elif name == "protect":
                name = "protect played" if action.uses else "protect declined"
            events[name] += 1
    return events


ABILITIES = ["peasant", "merchant", "monk", "knight", "witch", "king"]
AFRICAN = ["astronomer", "explorer", "sultan", "caravan"]


def test_rattus_greedy_games_use_every_class_and_region_card() -> None:
    # T-6.1..T-6.10: every class ability, the caravan's extra cube (T-6.10) included;
    # T-7.3: region cards played, and declined. Three tables of greedy bots, the class
    # cards chosen so that each is in play somewhere (the Peasant, once in play, is taken
    # so often that the others are seldom taken).
    rules = registry.get("rattus")
    events = rattus_events(games(rules, {}, 4, range(1, 2), ["greedy"]))
    for seats, classes in (
        (4, "Merchant,Monk,Witch,King,Astronomer,Explorer"),
        (5, "Merchant,Knight,Witch,King,Astronomer,Explorer,Sultan,Caravan"),
    ):
        options = {"africanus": "on", "classes": classes}
        events += rattus_events(games(rules, options, seats, range(1), ["greedy"]))
    wanted = [*ABILITIES, *AFRICAN, "protect played", "protect declined", "bonus"]
    assert all(events[w] for w in wanted), events
