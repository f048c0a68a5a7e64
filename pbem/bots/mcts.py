"""Information-set Monte Carlo tree search, for any ruleset that says how to guess.

A seat does not know the hidden faces, so each iteration plays in one *determinization*:
a world (``pbem.bots.simulate.World``) whose unseen faces are dealt at random, consistently
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

from pbem.bots.simulate import World
from pbem.crypto.randomness import Rng
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import Result, RulesError, Ruleset

EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in [0, 1]."""


class Search(Protocol):
    """What a game tells the search (one object per game package, e.g.
    ``pbem.games.rattus.search``)."""

    budget: int
    """Iterations per decision of ``mcts`` without a parameter."""
    horizon: int | None
    """Decisions a playout plays before the estimate is used (None: to the end)."""
    prior: float
    """The bias toward the first candidate (the game's own best guess), in reward: it
    fades as ``prior / (visits + 1)``, so only evidence makes the search choose another."""

    def world(self, rules: Ruleset, state: Any, knowledge: Knowledge, rng: Rng) -> World:
        """A determinization: every unseen face dealt at random, consistently with
        ``knowledge``, and what each other seat would know in that world."""

    def candidates(self, rules: Ruleset, state: Any, seat: int, knowledge: Knowledge) -> list[Any]:
        """The actions the search considers for ``seat`` now, the likeliest best first:
        legal, honest for its knowledge, at least one."""

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
    """The ``mcts`` bot: ``iterations`` per decision (``mcts:N`` sets it).

    The root is searched by sequential halving (Karnin, Koren & Somekh 2013): the budget is
    spread over rounds; in each round every remaining candidate gets the same number of
    iterations, then the better half (rounded up) is kept, so the last round compares two.
    Within a round the candidates are compared on common random numbers: the j-th iteration
    of each plays in the same determinization with the same stream, so a difference in
    reward comes from the candidate, not from the luck of the deal. Below the root every
    seat chooses by UCB1."""

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
        options = self.search.candidates(rules, state, seat, knowledge)
        if len(options) == 1:
            return options[0]
        stream = rng.fork(f"mcts {rng.below(1 << 62)}")
        root = _Node()
        arms = root.arms.setdefault(seat, {})
        keys = [key(a) for a in options]
        remaining = list(keys)
        for number, each in enumerate(halving(len(keys), self.iterations)):
            for j in range(each):
                for k in remaining:
                    deal = stream.fork(f"round {number} deal {j}")
                    self._iterate(rules, state, seat, knowledge, root, deal, k)
            remaining.sort(key=lambda k: _mean(arms, k, self.search.prior, keys[0]), reverse=True)
            remaining = remaining[: _half(len(remaining))]
        return options[keys.index(remaining[0])]

    def _iterate(
        self,
        rules: Ruleset,
        state: Any,
        seat: int,
        knowledge: Knowledge,
        root: _Node,
        rng: Rng,
        forced: str,
    ) -> None:
        """One iteration from the root, where ``seat`` plays ``forced``."""
        search = self.search
        world = search.world(rules, state, knowledge, rng)
        path: list[tuple[_Node, dict[int, str], dict[int, list[str]]]] = []
        node: _Node | None = root
        while node is not None and not world.over():
            picks: dict[int, Any] = {}
            chosen: dict[int, str] = {}
            offered: dict[int, list[str]] = {}
            for s in world.awaited():
                actions = search.candidates(rules, world.state, s, world.knowledge(s))
                keys = [key(a) for a in actions]
                if node is root and s == seat:
                    k = forced
                else:
                    k = _select(node.arms.setdefault(s, {}), keys, search.prior, rng)
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
                arms = visited.arms.setdefault(s, {})
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


def _half(candidates: int) -> int:
    """How many candidates a round of halving keeps: the better half, rounded up, so that
    the last round still compares two and no iteration goes to a choice already made."""
    return (candidates + 1) // 2


def halving(candidates: int, budget: int) -> list[int]:
    """Sequential halving's schedule: the iterations each remaining candidate gets in each
    round. There are ceil(log2 n) rounds, each with an equal share of what is left of the
    budget, and at least one iteration a candidate."""
    rounds = max(1, math.ceil(math.log2(candidates)))
    schedule, spent, remaining = [], 0, candidates
    for number in range(rounds):
        each = max(1, (budget - spent) // ((rounds - number) * remaining))
        schedule.append(each)
        spent += each * remaining
        remaining = _half(remaining)
    return schedule


def _mean(arms: dict[str, _Arm], k: str, prior: float, first: str) -> float:
    """An arm's mean reward, with the bias toward the first candidate."""
    arm = arms.get(k, _Arm())
    if not arm.visits:
        return 0.0
    return arm.reward / arm.visits + (prior / (arm.visits + 1) if k == first else 0.0)


def _select(arms: dict[str, _Arm], keys: list[str], prior: float, rng: Rng) -> str:
    """An untried action first (the first candidate, else at random), else the best by
    UCB1 with availability and the bias toward the first candidate."""
    untried = [k for k in keys if k not in arms or not arms[k].visits]
    if untried:
        return keys[0] if keys[0] in untried else rng.choice(untried)

    def ucb(k: str) -> float:
        arm = arms[k]
        bias = prior / (arm.visits + 1) if k == keys[0] else 0.0
        return (
            arm.reward / arm.visits
            + EXPLORATION * math.sqrt(math.log(max(arm.available, 1)) / arm.visits)
            + bias
        )

    return max(keys, key=ucb)
