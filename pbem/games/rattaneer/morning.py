"""Morning (R-5): the secret placement, its reveal, the neutral henchmen and the gap check.

The placements arrive sealed and are revealed together by the engine (R-5.2); here they
are checked one by one and then take effect all at once.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.format.i18n import N_
from pbem.games.rattaneer.actions import Place
from pbem.games.rattaneer.state import AREAS, PIRATES, Pieces, State, area
from pbem.ruleset.rules import RulesError


def check_placement(state: State, seat: int, place: Place) -> None:
    """Every constraint of R-5.1, each refusal naming the rule."""
    pirates, henchmen = place.pirates, place.henchmen
    if len(pirates) != PIRATES:
        raise RulesError(
            N_("R-5.1: place both of your pirates ({pirates} areas), not {placed}").format(
                pirates=PIRATES, placed=len(pirates)
            )
        )
    for number in pirates:
        if number not in AREAS:
            raise RulesError(
                N_("R-5.1: a pirate goes on an area 1–10 (never on X), not on {number}").format(
                    number=number
                )
            )
    if len(set(pirates)) != len(pirates):
        raise RulesError(N_("R-5.1: your two pirates must be on different areas"))
    for number in henchmen:
        if number not in AREAS:
            raise RulesError(
                N_("R-5.1: a henchman goes on an area 1–10 or on X, not on {number}").format(
                    number=number
                )
            )
    available = state.players[seat].henchmen
    if len(henchmen) > available:
        raise RulesError(
            N_("R-5.1: you have {available} henchmen available, you placed {placed}").format(
                available=available, placed=len(henchmen)
            )
        )
    for number in sorted(set(henchmen) - set(pirates)):
        if henchmen.count(number) > 1:
            raise RulesError(
                N_("R-5.1: at most one henchman on area {number} without your pirate").format(
                    number=number
                )
            )


def reveal(state: State, placements: Mapping[int, Place]) -> None:
    """Put every revealed placement on the table, then R-5.3 and R-5.4. Mutates ``state``."""
    for seat, place in placements.items():
        for number in place.pirates:
            area(state, number).pirates.append(seat)
        for number in place.henchmen:
            area(state, number).henchmen[seat] += 1
        state.unused[seat] = state.players[seat].henchmen - len(place.henchmen)
    for pieces in state.board:
        pieces.pirates.sort()
    _place_neutrals(state)
    _gap_check(state)


def _place_neutrals(state: State) -> None:
    """R-5.3: one neutral henchman on each empty area, lowest first, while any are left."""
    for number in AREAS:
        if not state.neutral:
            return
        pieces = area(state, number)
        if pieces.is_empty():
            pieces.neutral = 1
            state.neutral -= 1


def _gap_check(state: State) -> None:
    """R-5.4: beyond the lowest empty area, pirates go to the Farm and henchmen go home."""
    gap = next((n for n in AREAS if area(state, n).is_empty()), None)
    if gap is None:
        return
    for number in range(gap + 1, AREAS.stop):
        pieces = area(state, number)
        state.farm.extend(pieces.pirates)
        state.neutral += pieces.neutral
        state.board[number - 1] = Pieces(henchmen=[0] * state.seats)
    state.farm.sort()
