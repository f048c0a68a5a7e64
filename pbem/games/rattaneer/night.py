"""Night (R-7): pieces come home, the areas are refilled, the markers move on, and the end
of the game may be announced. The refills draw cards, so the Night is a Chance."""

from __future__ import annotations

from pbem.crypto.randomness import Rng
from pbem.games.rattaneer.decks import draw_up_to
from pbem.games.rattaneer.state import (
    SEA_FULL,
    SEA_START,
    TAVERN_DRAW,
    TAVERN_LIMIT,
    State,
    empty_board,
)


def night(state: State, rng: Rng) -> None:
    """R-7.A–D, then the next Morning. Mutates ``state``."""
    # A: everything comes home but the henchmen on the treasure card; neutrals set aside.
    state.neutral += sum(p.neutral for p in state.board)
    state.board = empty_board(state.seats)
    state.unused = [0] * state.seats
    # B: refills, in the order of the areas.
    state.workshop += state.seats
    state.tavern += draw_up_to(state.companion_deck, TAVERN_DRAW, rng)
    if len(state.tavern) > TAVERN_LIMIT:
        keep = state.options.tavern_keep
        state.companion_discard = sorted(state.companion_discard + state.tavern[:-keep])
        state.tavern = state.tavern[-keep:]
    for cards_under in state.seas:
        wanted = SEA_START if not cards_under else (1 if len(cards_under) < SEA_FULL else 0)
        cards_under.extend(draw_up_to(state.sea_deck, wanted, rng))
    # C: both markers pass clockwise.
    state.land_priority = (state.land_priority + 1) % state.seats
    state.sea_priority = (state.sea_priority + 1) % state.seats
    # D: an empty deck makes the coming round the last.
    state.last_round = state.last_round or not state.sea_deck or not state.companion_deck
    state.round += 1
    state.phase = "morning"
