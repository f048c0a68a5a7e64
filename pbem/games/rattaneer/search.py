"""What the tree search (``pbem.bots.mcts``) needs to know about Rattaneer.

Rattaneer hides no items: the only hidden information is the other seats' placement in
the same Morning (R-3), which the search treats as a simultaneous choice, and the order of
the decks, which the rules draw from at random when a card is needed (architecture §5). So a
determinization is the public state itself, with its own stream for the draws. The
placement is combinatorial; the search weighs the greedy bot's best-ranked placements
(``bots.placements``). A Day choice of flips has an obvious best answer (``best_flip``),
so only purchases, cards taken and treasure spots are searched. Playouts use the greedy
bot's choices, and are played to the end of the game, which is short.
"""

from __future__ import annotations

from typing import Any

from pbem.bots.mcts import shares
from pbem.bots.simulate import World
from pbem.crypto.randomness import Rng
from pbem.games.rattaneer import bots, day
from pbem.games.rattaneer.state import State
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import Over, Ruleset

PLACEMENTS = 12
"""Placements the search weighs in each Morning."""


class RattaneerSearch:
    budget = 40
    horizon = None
    prior = 0.0

    def world(self, rules: Ruleset, state: State, knowledge: Knowledge, rng: Rng) -> World:
        return World(rules, state, {}, rng.fork("chance"), [{} for _ in range(state.seats)])

    def candidates(
        self, rules: Ruleset, state: State, seat: int, knowledge: Knowledge
    ) -> list[Any]:
        if state.phase == "morning":
            return bots.placements(state, seat, _ranking_rng(state, seat), PLACEMENTS)
        if state.phase == "day" and day.kind(state) not in ("ship", "trade"):
            return day.options(state, state.options.card_set())
        return [bots.day_choice(state, seat)]

    def playout(
        self, rules: Ruleset, state: State, seat: int, knowledge: Knowledge, rng: Rng
    ) -> Any:
        if state.phase == "morning":
            return bots.placements(state, seat, rng, 1)[0]
        return bots.day_choice(state, seat)

    def values(self, world: World) -> list[float]:
        decision = world.decision
        assert isinstance(decision, Over), "Rattaneer playouts run to the end"
        return shares(decision.result, world.state.seats)


def _ranking_rng(state: State, seat: int) -> Rng:
    """The candidates of a seat must be the same list every time the search meets the same
    state (their ties are broken at random): a stream fixed by the state."""
    return Rng(bytes([seat, state.round]).ljust(32, b"\0"))
