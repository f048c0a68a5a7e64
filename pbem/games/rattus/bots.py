"""The ``greedy`` bot: keeps its cubes away from where the plague will likely strike.

It scores each legal action on its own and plays the best (ties broken by its own stream).
Regions in danger are those with tokens next to the plague piece (where the next plague
move lands), or, in the final round, every region with tokens (the final plague resolves
them all). It never uses the Monk or the Witch; other optional steps it takes only when
they help, so its turns always end.

No bot plays region cards against the plague (``no_cards``): a bot is given the public
state only, and cannot read its own hand, so it could not tell which card it may sign.
"""

from __future__ import annotations

from typing import Any

from pbem.core.knowledge import Knowledge
from pbem.core.randomness import Rng
from pbem.core.rules import Ruleset
from pbem.games.rattus import flow
from pbem.games.rattus.abilities import KING, PEASANT
from pbem.games.rattus.actions import (
    Action,
    Astronomer,
    Bonus,
    Caravan,
    Choose,
    End,
    Explore,
    Explorer,
    Keep,
    King,
    Merchant,
    Peasant,
    Place,
    Plague,
    Protect,
    Resolve,
    RevealToken,
    Spread,
    Sultan,
    Take,
)
from pbem.games.rattus.africanus import EXPLORER, SULTAN
from pbem.games.rattus.state import State, africa, board_of, region

Score = tuple[int, int]
"""(priority, value): higher priority first; the plague move and ``end`` have priority 0,
so optional steps with a negative priority are never taken."""


def no_cards(s: State) -> Protect | None:
    """The answer of every bot when asked for region cards (T-7.3): none."""
    return Protect() if flow.stage(s) == "protect" else None


def greedy(rules: Ruleset, state: Any, seat: int, knowledge: Knowledge, rng: Rng) -> Action:
    none = no_cards(state)
    if none is not None:
        return none
    legal = rules.legal_actions(state, seat)
    scored = [(_score(state, seat, a), a) for a in legal]
    best = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score == best])


def _useful(s: State, seat: int, card: str) -> bool:
    """Cards worth taking now: the Peasant before placing, the King with a cube to save,
    the Sultan with a diplomat to place, the Explorer with a cube to place."""
    if card == PEASANT:
        return not s.progress.placed
    if card == KING:
        return any(r.cubes[seat] and not r.tokens for r in s.regions)
    if card == SULTAN:
        return africa(s).diplomat_supply > 0 and any(r.cubes[seat] for r in s.regions)
    return card == EXPLORER and s.cube_supply[seat] > 0


def _leads(s: State, seat: int, name: str) -> bool:
    """Whether ``seat`` has the most cubes in ``name`` (tied or not): a caravan bonus."""
    cubes = region(s, name).cubes
    return cubes[seat] > 0 and cubes[seat] == max(cubes)


def _danger(s: State, name: str) -> bool:
    r = region(s, name)
    if s.phase == "final_round":
        return bool(r.tokens)
    assert s.plague is not None
    return bool(r.tokens) and name in board_of(s).neighbours(s.plague)


def _others(s: State, name: str, seat: int) -> int:
    return sum(region(s, name).cubes) - region(s, name).cubes[seat]


def _score(s: State, seat: int, action: Action) -> Score:
    match action:
        case Take(card=card):
            return (3, 0) if _useful(s, seat, card) else (-1, 0)
        case Place(region=name) | Peasant(region=name):
            cubes = len(region(s, name).tokens) + isinstance(action, Peasant)
            return (2, cubes - 4 * _danger(s, name))
        case King(region=name):
            return (2, region(s, name).cubes[seat])
        case Merchant(source=source, target=target, cubes=n):
            useful = _danger(s, source) and not _danger(s, target)
            return (1, n) if useful else (-1, 0)
        case Plague(path=path):
            target = region(s, path[-1])
            harm = _others(s, target.name, seat) - 2 * target.cubes[seat]
            return (0, harm if target.tokens else 0)
        case Spread(regions=names):
            return (0, sum(_others(s, n, seat) - 2 * region(s, n).cubes[seat] for n in names))
        case Sultan(region=name):
            return (1, region(s, name).cubes[seat] - 4 * _danger(s, name))
        case Bonus(region=None):  # declining the caravan's cube: no better than a risk
            return (0, -1)
        case Bonus(region=name):
            return (0, -_danger(s, name))
        case Explore(region=None):  # placing no cube: no better than a region in danger
            return (0, -1)
        case Explore(region=name):
            return (0, -_danger(s, name))
        case Caravan(path=[name]):
            return (0, region(s, name).cubes[seat])
        case Caravan(path=[middle, _]):
            start = africa(s).caravan
            assert start is not None
            gain = sum(_leads(s, seat, n) for n in (start, middle))
            return (1, gain) if gain else (-1, 0)
        case Astronomer() | Explorer():
            return (1, 0)
        case Keep() | RevealToken() | Resolve() | End() | Choose():
            return (0, 0)
        case _:  # the Monk, the Witch, and swapping after a look it never takes
            return (-1, 0)
