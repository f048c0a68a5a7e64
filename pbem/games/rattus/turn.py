"""A turn (T-5): take a class card, place cubes, use abilities, then move the plague.

Each ``do_*`` function checks its action against the rules and then applies it to the
state it is given (a copy: the ruleset never touches its input). Checking and applying in
one place means the two cannot disagree. The Peasant (T-6.1) and the Knight (T-6.4) live
here because they change B and C rather than adding a step of their own.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.format.i18n import N_
from pbem.games.rattus import abilities, plague
from pbem.games.rattus.abilities import KNIGHT, PEASANT
from pbem.games.rattus.actions import Action, Peasant, Place, Plague, Take
from pbem.games.rattus.setup import BIG_GAME
from pbem.games.rattus.state import (
    State,
    board_of,
    can_use,
    holder,
    holds,
    mark_used,
    region,
)
from pbem.ruleset.rules import RulesError


def knight_steps(s: State) -> int:
    """How far the Knight moves the plague: 2 steps, 3 with 5-6 players (T-6.4, T-3.6)."""
    return 3 if s.seats >= BIG_GAME else 2


def plague_steps(s: State, seat: int) -> int:
    return knight_steps(s) if holds(s, seat, KNIGHT) else 1


def actions(s: State, seat: int) -> Iterator[Action]:
    """Every legal action of the player on turn, A/B/abilities first, C last."""
    if not s.progress.took:
        for card in s.cards:
            if card.holder != seat:
                yield Take(card=card.name)
    yield from placements(s, seat)
    yield from abilities.actions(s, seat)
    if not must_place(s, seat):
        yield from plague_paths(s, seat)


def required_kinds(s: State, seat: int) -> frozenset[str]:
    """What must come next on a turn (``Ruleset.required_kinds``): B while it is owed
    (the Peasant's placement counts as B), else C."""
    return frozenset({"place", "peasant"} if must_place(s, seat) else {"plague"})


def placements(s: State, seat: int) -> Iterator[Place | Peasant]:
    if s.progress.placed or s.cube_supply[seat] == 0:
        return
    for r in s.regions:
        if r.tokens:
            yield Place(region=r.name)
    if can_use(s, seat, PEASANT):
        for r in s.regions:
            yield Peasant(region=r.name)


def must_place(s: State, seat: int) -> bool:
    """B is mandatory when a legal region exists [ruling], judged when C begins (rulings T-5)."""
    return next(placements(s, seat), None) is not None


def plague_paths(s: State, seat: int) -> Iterator[Plague]:
    assert s.plague is not None
    b = board_of(s)
    frontier = [[n] for n in b.neighbours(s.plague)]
    paths = list(frontier)
    for _ in range(plague_steps(s, seat) - 1):
        frontier = [[*p, n] for p in frontier for n in b.neighbours(p[-1])]
        paths += frontier
    for path in paths:
        if path[-1] != s.plague:
            yield Plague(path=path)


def do_take(s: State, seat: int, action: Take) -> None:
    """T-5 A: one card a turn, from the supply or from another player."""
    if s.progress.took:
        raise RulesError(N_("T-5 A: you have already taken a class card this turn"))
    if holder(s, action.card) == seat:
        raise RulesError(N_("T-5 A: you already hold the {card}").format(card=action.card))
    for card in s.cards:
        if card.name == action.card:
            card.holder = seat
    s.progress.took = True


def do_place(s: State, seat: int, action: Place | Peasant) -> None:
    """T-5 B: as many cubes as the region has tokens (all you have left if fewer); with the
    Peasant one more, and a region without tokens may be chosen (T-6.1)."""
    if s.progress.placed:
        raise RulesError(N_("T-5 B: you have already placed cubes this turn"))
    if s.cube_supply[seat] == 0:
        raise RulesError(N_("T-5 B: you have no cubes left to place"))
    target = region(s, action.region)
    extra = 0
    if isinstance(action, Peasant):
        if not can_use(s, seat, PEASANT):
            raise RulesError(N_("T-6.1: you do not hold the Peasant, or used it this turn"))
        mark_used(s, PEASANT)
        extra = 1
    elif not target.tokens:
        raise RulesError(
            N_("T-5 B: {target} has no rat tokens (only the Peasant allows it)").format(
                target=target.name
            )
        )
    count = min(len(target.tokens) + extra, s.cube_supply[seat])
    target.cubes[seat] += count
    s.cube_supply[seat] -= count
    s.progress.placed = True


def do_plague(s: State, seat: int, action: Plague) -> None:
    """T-5 C.1: move the plague to a neighbour (the Knight: up to 2 or 3 steps, ending
    elsewhere than it began, T-6.4); then spread and resolve there."""
    if must_place(s, seat):
        raise RulesError(N_("T-5 B: place your cubes before moving the plague (C comes last)"))
    start = s.plague
    assert start is not None
    steps = plague_steps(s, seat)
    if not 1 <= len(action.path) <= steps:
        raise RulesError(
            N_("T-5 C.1: the plague moves 1 step (up to {steps} with the Knight, T-6.4)").format(
                steps=knight_steps(s)
            )
        )
    b = board_of(s)
    here = start
    for step in action.path:
        region(s, step)
        if not b.adjacent(here, step):
            raise RulesError(
                N_("T-5 C.1: {step} is not a neighbour of {here}").format(step=step, here=here)
            )
        here = step
    if here == start:
        raise RulesError(
            N_("T-6.4: the plague must end in another region than {start}").format(start=start)
        )
    if len(action.path) > 1:
        mark_used(s, KNIGHT)
    s.plague = here
    s.progress.moved = True
    plague.arrive(s, here)
