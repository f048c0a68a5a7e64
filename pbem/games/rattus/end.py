"""The end of the game (T-9.1–9.3): the trigger, the final round, the final plague, and
with Africanus the hands shown for T-8."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from pbem.format.i18n import N_
from pbem.games.rattus import abilities, plague, regiondeck
from pbem.games.rattus.actions import Action, End, Resolve
from pbem.games.rattus.state import State, TurnProgress
from pbem.ruleset.rules import Reveal, RulesError


def finish_turn(s: State) -> None:
    """T-9.1: at the end of a turn, an empty token supply or a player on turn with every
    cube on the board (palace included) ends the game; otherwise play passes clockwise."""
    if not s.token_supply or s.cube_supply[s.active] == 0:
        s.trigger = s.active
        s.phase = "final_round"
        s.final_order = [(s.trigger - k) % s.seats for k in range(1, s.seats)]
        s.active = s.final_order[0]
    else:
        s.active = (s.active + 1) % s.seats
        s.turn += 1
    s.progress = TurnProgress()


def final_actions(s: State, seat: int) -> Iterator[Action]:
    """T-9.2: only class abilities, each once; the Peasant and the Knight do nothing
    (rulings T-9.2)."""
    yield from abilities.actions(s, seat)
    yield End()


def do_end(s: State) -> None:
    """T-9.2: the next player counter-clockwise, then the final plague."""
    s.final_order = s.final_order[1:]
    s.progress = TurnProgress()
    if s.final_order:
        s.active = s.final_order[0]
        return
    assert s.trigger is not None
    s.phase = "final_plague"
    s.active = s.trigger
    s.final_regions = [r.name for r in s.regions if r.tokens and any(r.cubes)]


def region_actions(s: State) -> Iterator[Resolve]:
    for name in s.final_regions:
        yield Resolve(region=name)


def do_resolve(s: State, action: Resolve) -> None:
    """T-9.3: every region with tokens (and cubes: rulings T-9.3) is resolved without spreading, in
    the order the triggering player chooses; that player also orders the tokens (rulings T-7)."""
    if action.region not in s.final_regions:
        raise RulesError(
            N_("T-9.3: {region} is not awaiting the final plague").format(region=action.region)
        )
    s.final_regions = [n for n in s.final_regions if n != action.region]
    plague.start_resolution(s, action.region)


def showing(s: State) -> Reveal | None:
    """T-8: after the final plague every hand is revealed (if any card is left in one)."""
    table = s.africa
    if table is None or table.shown is not None or s.final_regions or s.resolution:
        return None
    cards = [card for hand in table.hands for card in hand]
    return Reveal(items=cards) if cards else None


def shown(s: State, faces: Mapping[str, str]) -> None:
    table = s.africa
    assert table is not None
    table.shown = [regiondeck.faces_of(s, hand, faces) for hand in table.hands]
