"""Information-set Monte Carlo tree search, for any ruleset that says how to guess.

A seat does not know the hidden faces, so each iteration plays in one *determinization*:
a world (``pbem.core.simulate.World``) whose unseen faces are dealt at random, consistently
with what the seat knows (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012: single-observer ISMCTS). The tree is open-loop: a node is a
sequence of choices from the root, whatever faces and chance outcomes lay under it, and an
action's statistics count how often it was *available* there, so that actions legal only
in some determinizations are not favoured (the paper's availability count). Every seat
chooses by its own statistics at its own decisions; at a simultaneous decision (a
``Parallel``, such as Rattaneer's sealed placement) each awaited seat chooses on its own
from its own statistics, without seeing the others' choice (decoupled UCT, Lanctot et al.
2013), and the child is that joint choice.

A playout plays a game's cheap policy for ``horizon`` decisions (or to the end) and scores
the world with the game's estimate of each seat's share of the win. The game supplies the
determinization, the candidate actions at each decision (a good subset where the legal
set is combinatorial), the playout policy and the estimate: ``Search``. Randomness comes
only from the bot's own ``Rng``, so a seed fixes every choice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pbem.core.knowledge import Knowledge
from pbem.core.randomness import Rng
from pbem.core.rules import Result, RulesError, Ruleset
from pbem.core.simulate import World

EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in [0, 1]."""


class Search(Protocol):
    """What a game tells the search (one object per game package, e.g.
    ``pbem.games.rattus.search``)."""

    budget: int
    """Iterations per decision of ``mcts`` without a parameter."""
    horizon: int | None
    """Decisions a playout plays before the estimate is used (None: to the end)."""

    def world(self, rules: Ruleset, state: Any, knowledge: Knowledge, rng: Rng) -> World:
        """A determinization: every unseen face dealt at random, consistently with
        ``knowledge``, and what each other seat would know in that world."""

    def candidates(self, state: Any, seat: int, knowledge: Knowledge) -> list[Any]:
        """The actions the search considers for ``seat`` now: legal, honest for its
        knowledge, at least one."""

    def playout(self, rules: Ruleset, state: Any, seat: int, knowledge: Knowledge, rng: Rng) -> Any:
        """A quick legal choice for playouts."""

    def values(self, world: World) -> list[float]:
        """Each seat's expected share of the win, in [0, 1], at the end of a playout
        (finished or not)."""


def shares(result: Result, seats: int) -> list[float]:
    """A finished game's payoff: a shared win is split evenly among the winners."""
    return [1 / len(result.winners) if s in result.winners else 0.0 for s in range(seats)]


def soft_shares(estimates: Sequence[float], spread: float) -> list[float]:
    """Estimated scores to shares of the win: a softmax whose ``spread`` is how far apart
    (in points) two scores are for the higher to be e times likelier to win."""
    top = max(estimates)
    weights = [math.exp((e - top) / spread) for e in estimates]
    total = sum(weights)
    return [w / total for w in weights]


@dataclass
class _Arm:
    visits: int = 0
    reward: float = 0.0
    available: int = 0


@dataclass
class _Node:
    arms: dict[int, dict[str, _Arm]] = field(default_factory=dict)
    children: dict[tuple[str, ...], _Node] = field(default_factory=dict)


def key(action: Any) -> str:
    """An action's identity in the tree: its repr (models list their fields in order)."""
    return repr(action)


class Mcts:
    """The ``mcts`` bot: ``iterations`` per decision (``mcts:N`` sets it)."""

    def __init__(self, search: Search, iterations: int | None = None) -> None:
        self.search = search
        self.iterations = search.budget if iterations is None else iterations

    def tuned(self, parameter: str) -> Mcts:
        """``mcts:N``: the same search with ``N`` iterations a decision."""
        if not parameter.isdigit() or int(parameter) < 1:
            raise RulesError(f"mcts takes a number of iterations (mcts:200), not {parameter!r}")
        return Mcts(self.search, int(parameter))

    def __call__(
        self, rules: Ruleset, state: Any, seat: int, knowledge: Knowledge, rng: Rng
    ) -> Any:
        options = self.search.candidates(state, seat, knowledge)
        if len(options) == 1:
            return options[0]
        stream = rng.fork(f"mcts {rng.below(1 << 62)}")
        root = _Node()
        for _ in range(self.iterations):
            self._iterate(rules, state, knowledge, root, stream)
        arms = root.arms.get(seat, {})

        def rank(action: Any) -> tuple[int, float]:
            arm = arms.get(key(action), _Arm())
            return arm.visits, arm.reward / arm.visits if arm.visits else 0.0

        return max(options, key=rank)

    def _iterate(
        self, rules: Ruleset, state: Any, knowledge: Knowledge, root: _Node, rng: Rng
    ) -> None:
        search = self.search
        world = search.world(rules, state, knowledge, rng)
        path: list[tuple[_Node, dict[int, str], dict[int, list[str]]]] = []
        node: _Node | None = root
        while node is not None and not world.over():
            picks: dict[int, Any] = {}
            chosen: dict[int, str] = {}
            offered: dict[int, list[str]] = {}
            for s in world.awaited():
                actions = search.candidates(world.state, s, world.knowledge(s))
                keys = [key(a) for a in actions]
                k = _select(node.arms.setdefault(s, {}), keys, rng)
                picks[s], chosen[s], offered[s] = actions[keys.index(k)], k, keys
            path.append((node, chosen, offered))
            world.play(picks)
            joint = tuple(chosen[s] for s in sorted(chosen))
            child = node.children.get(joint)
            if child is None:
                node.children[joint] = _Node()
            node = child
        rewards = self._playout(rules, world, rng)
        for visited, chosen, offered in path:
            for s, k in chosen.items():
                arms = visited.arms[s]
                for other in offered[s]:
                    arms.setdefault(other, _Arm()).available += 1
                arms[k].visits += 1
                arms[k].reward += rewards[s]

    def _playout(self, rules: Ruleset, world: World, rng: Rng) -> list[float]:
        search = self.search
        steps = 0
        while not world.over() and (search.horizon is None or steps < search.horizon):
            picks = {
                s: search.playout(rules, world.state, s, world.knowledge(s), rng)
                for s in world.awaited()
            }
            world.play(picks)
            steps += 1
        return search.values(world)


def _select(arms: dict[str, _Arm], keys: list[str], rng: Rng) -> str:
    """An untried action first (at random), else the best by UCB1 with availability."""
    untried = [k for k in keys if k not in arms or not arms[k].visits]
    if untried:
        return rng.choice(untried)

    def ucb(k: str) -> float:
        arm = arms[k]
        return arm.reward / arm.visits + EXPLORATION * math.sqrt(
            math.log(max(arm.available, 1)) / arm.visits
        )

    return max(keys, key=ucb)
