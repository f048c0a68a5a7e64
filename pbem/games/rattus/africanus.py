"""The four Africanus classes (T-6.7 to T-6.10), all of the islam icon.

The Astronomer and the Explorer draw region cards (``regiondeck.py``): the Astronomer's
three are opened to its holder alone, who keeps one (the two others are then revealed and
discarded); the Explorer's three are revealed to all and name the regions where its holder
may place a cube (or place none). The Sultan puts diplomats under cubes (``diplomats.py``);
the Caravan moves its piece two steps and offers a cube to the majorities it leaves behind.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.format.i18n import N_
from pbem.games.rattus import diplomats, regiondeck
from pbem.games.rattus.actions import (
    Action,
    Astronomer,
    Bonus,
    Caravan,
    Choose,
    Explore,
    Explorer,
    Sultan,
)
from pbem.games.rattus.state import (
    Offer,
    State,
    africa,
    board_of,
    can_use,
    region,
    spend,
)
from pbem.ruleset.rules import RulesError

ASTRONOMER, EXPLORER, SULTAN, CARAVAN = "Astronomer", "Explorer", "Sultan", "Caravan"
CARAVAN_STEPS = 2


def actions(s: State, seat: int) -> Iterator[Action]:
    """Every legal use of the Africanus abilities by ``seat`` now."""
    if can_use(s, seat, ASTRONOMER) and regiondeck.can_draw(s):
        yield Astronomer()
    if can_use(s, seat, EXPLORER) and regiondeck.can_draw(s) and s.cube_supply[seat]:
        yield Explorer()
    if can_use(s, seat, SULTAN) and africa(s).diplomat_supply:
        for r in s.regions:
            if r.cubes[seat] and not diplomats.has(s, seat, r.name):
                yield Sultan(region=r.name)
    if can_use(s, seat, CARAVAN):
        yield from caravan_paths(s)


# ----- T-6.7 Astronomer and T-6.8 Explorer ------------------------------------------------


def do_astronomer(s: State, seat: int, action: Astronomer) -> None:
    """T-6.7: draw 3 region cards; the engine opens them to the holder alone."""
    spend(s, seat, ASTRONOMER, "T-6.7")
    regiondeck.start_draw(s, ASTRONOMER)


def choose_actions(s: State) -> Iterator[Choose]:
    draw = africa(s).draw
    assert draw is not None
    for card in draw.cards:
        yield Choose(region_card=card)


def do_choose(s: State, seat: int, action: Choose) -> None:
    """T-6.7: keep one of the drawn cards; the others are revealed and discarded next."""
    table = africa(s)
    draw = table.draw
    assert draw is not None
    if action.region_card not in draw.cards:
        raise RulesError(
            N_("T-6.7: {region_card} is not one of the cards you drew").format(
                region_card=action.region_card
            )
        )
    draw.kept = action.region_card
    table.hands[seat].append(action.region_card)
    if len(draw.cards) == 1:
        table.draw = None


def discarded(s: State) -> list[str]:
    """The Astronomer's cards not kept, to be revealed and discarded (T-6.7)."""
    draw = africa(s).draw
    assert draw is not None
    return [c for c in draw.cards if c != draw.kept]


def do_explorer(s: State, seat: int, action: Explorer) -> None:
    """T-6.8: reveal 3 region cards from the deck (the engine opens them to everyone)."""
    if not s.cube_supply[seat]:
        raise RulesError(N_("T-6.8: you have no cube left to place with the Explorer"))
    spend(s, seat, EXPLORER, "T-6.8")
    regiondeck.start_draw(s, EXPLORER)


def explore_actions(s: State) -> Iterator[Explore]:
    """A region a revealed card names, or none: the Explorer *may* place (T-6.8)."""
    draw = africa(s).draw
    assert draw is not None
    for name in sorted(set(_named(s)), key=[r.name for r in s.regions].index):
        yield Explore(region=name)
    yield Explore(region=None)


def _named(s: State) -> list[str]:
    draw = africa(s).draw
    assert draw is not None
    return [regiondeck.face(s, f).region for f in draw.faces]


def do_explore(s: State, seat: int, action: Explore) -> None:
    """T-6.8: 1 cube into a region one of the revealed cards names, or none; then discard
    the 3."""
    table = africa(s)
    assert table.draw is not None
    if action.region is not None:
        if action.region not in _named(s):
            raise RulesError(
                N_("T-6.8: no revealed card names {region}").format(region=action.region)
            )
        region(s, action.region).cubes[seat] += 1
        s.cube_supply[seat] -= 1
    regiondeck.discard(s, table.draw.faces)
    table.draw = None


# ----- T-6.9 Sultan -----------------------------------------------------------------------


def do_sultan(s: State, seat: int, action: Sultan) -> None:
    """T-6.9: a diplomat under one of your cubes, in a region where you have none."""
    region(s, action.region)
    spend(s, seat, SULTAN, "T-6.9")
    diplomats.place(s, seat, action.region)


# ----- T-6.10 Caravan ---------------------------------------------------------------------


def caravan_paths(s: State) -> Iterator[Caravan]:
    start = africa(s).caravan
    assert start is not None
    b = board_of(s)
    for middle in b.neighbours(start):
        for end in b.neighbours(middle):
            if end != start:
                yield Caravan(path=[middle, end])


def start_actions(s: State) -> Iterator[Caravan]:
    for r in s.regions:
        yield Caravan(path=[r.name])


def do_start(s: State, action: Caravan) -> None:
    """T-3.9: the caravan goes into any region at setup; then the start player begins."""
    if len(action.path) != 1:
        raise RulesError(N_("T-3.9: name the one region the caravan starts in"))
    africa(s).caravan = region(s, action.path[0]).name
    assert s.start_player is not None
    s.phase, s.active = "turn", s.start_player


def do_caravan(s: State, seat: int, action: Caravan) -> None:
    """T-6.10: exactly 2 steps, never back to where it started; the majority in the start
    region and in the region passed through may each place 1 extra cube (ties: all of
    them), asked next (``offers``)."""
    spend(s, seat, CARAVAN, "T-6.10")
    table = africa(s)
    start = table.caravan
    assert start is not None
    if len(action.path) != CARAVAN_STEPS:
        raise RulesError(
            N_("T-6.10: the caravan moves exactly {caravan_steps} steps").format(
                caravan_steps=CARAVAN_STEPS
            )
        )
    b = board_of(s)
    here = start
    for step in action.path:
        region(s, step)
        if not b.adjacent(here, step):
            raise RulesError(
                N_("T-6.10: {step} is not a neighbour of {here}").format(step=step, here=here)
            )
        here = step
    if here == start:
        raise RulesError(
            N_("T-6.10: the caravan may not go back to {start}, where it started").format(
                start=start
            )
        )
    table.offers = [offer for name in (start, action.path[0]) for offer in _offers(s, seat, name)]
    table.caravan = here
    _skip_empty(s)


def _offers(s: State, mover: int, name: str) -> list[Offer]:
    """The player(s) with the most cubes in ``name`` now (at least 1), in seating order from
    the mover [ruling]. Counted when the caravan moves: placing an offered cube in one region
    changes no majority in the other."""
    cubes = region(s, name).cubes
    most = max(cubes)
    if most == 0:
        return []
    seats = sorted(
        (k for k, n in enumerate(cubes) if n == most), key=lambda k: (k - mover) % s.seats
    )
    return [Offer(seat=k, region=name) for k in seats]


def _skip_empty(s: State) -> None:
    """A player with no cube left in supply is not asked (T-6.10: from their own supply)."""
    table = africa(s)
    while table.offers and not s.cube_supply[table.offers[0].seat]:
        table.offers.pop(0)


def bonus_actions(s: State) -> Iterator[Bonus]:
    """T-6.10: the offered cube is placed, or not ("may place")."""
    yield Bonus(region=africa(s).offers[0].region)
    yield Bonus(region=None)


def do_bonus(s: State, seat: int, action: Bonus) -> None:
    """T-6.10: 1 cube from ``seat``'s supply into the region offered, or none."""
    table = africa(s)
    offer = table.offers[0]
    if action.region is not None:
        if action.region != offer.region:
            raise RulesError(
                N_("T-6.10: the caravan offers you a cube in {offer}, not in {region}").format(
                    offer=offer.region, region=action.region
                )
            )
        region(s, offer.region).cubes[seat] += 1
        s.cube_supply[seat] -= 1
    table.offers.pop(0)
    _skip_empty(s)
