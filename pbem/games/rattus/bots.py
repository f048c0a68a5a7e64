"""The ``greedy`` bot: keeps its cubes away from where the plague will likely strike.

It scores each legal action on its own and plays the best (ties broken by its own stream).
Regions in danger are those with tokens next to the plague piece (where the next plague
move lands), or, in the final round, every region with tokens (the final plague resolves
them all). It never uses the Monk or the Witch; other optional steps it takes only when
they help, so its turns always end.
"""

from __future__ import annotations

from typing import Any

from pbem.core.randomness import Rng
from pbem.core.rules import Ruleset
from pbem.games.rattus.abilities import KING, PEASANT
from pbem.games.rattus.actions import (
    Action,
    End,
    Keep,
    King,
    Merchant,
    Peasant,
    Place,
    Plague,
    Resolve,
    RevealToken,
    Spread,
    Take,
)
from pbem.games.rattus.state import State, board_of, region

Score = tuple[int, int]
"""(priority, value): higher priority first; the plague move and ``end`` have priority 0,
so optional steps with a negative priority are never taken."""


def greedy(rules: Ruleset, state: Any, seat: int, rng: Rng) -> Action:
    legal = rules.legal_actions(state, seat)
    scored = [(_score(state, seat, a), a) for a in legal]
    best = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score == best])


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
            useful = (card == PEASANT and not s.progress.placed) or (
                card == KING and any(r.cubes[seat] and not r.tokens for r in s.regions)
            )
            return (3, 0) if useful else (-1, 0)
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
        case Keep() | RevealToken() | Resolve() | End():
            return (0, 0)
        case _:  # the Monk, the Witch, and swapping after a look it never takes
            return (-1, 0)
