"""Bots: a random placement for the ``random`` bot, and the ``greedy`` bot.

The morning placement has too many legal forms to list, so both bots build one directly;
``check`` stays the judge of what they build. ``greedy`` ranks placements by what each
area is worth to the seat (``placements``, also the search's candidates) and answers every
Day choice by a fixed rule of thumb (``day_choice``, also the search's playout policy):
the Tavern buys what is worth most for its cost or a henchman while it has few, a battle's
distribution takes the richest card or a trade ship with cards to turn, every flip turns
the most valuable cards, the Island takes the best spot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.crypto.randomness import Rng
from pbem.games.rattaneer import day
from pbem.games.rattaneer.actions import AnyAction, Buy, Flip, Hire, Pass, Place, Spot, Take
from pbem.games.rattaneer.cards import CardSet, PlunderCard
from pbem.games.rattaneer.state import (
    AREAS,
    HENCHMAN_STRENGTH,
    ISLAND,
    PIRATES,
    SEA_AREAS,
    TAVERN,
    TRADE_PORT,
    WORKSHOP,
    State,
    sea_cards,
    supply,
)
from pbem.ruleset.knowledge import Knowledge

if TYPE_CHECKING:
    from pbem.games.rattaneer import Rattaneer

X = 0  # where an unplaced henchman stands, while a placement is being built

# The greedy bot's values, in half-VP so that a coin (half a VP, R-8.2) is 1.
HALF_VP_PER_VP = 2
HENCHMAN_VALUE = 3  # a little more than the coin it costs: henchmen win battles
ENOUGH_HENCHMEN = 4  # the Tavern hires henchmen while the seat has fewer
PIGGYBACK = 3  # a sea area the seat cannot win alone is worth a third: others may win it
FARM = 1  # a pirate sent to the Farm brings a coin


class SeaTable:
    """What the bots read of each sea card, by id: its strength, its VP (0 for a ship) and
    its capacity (0 for plunder). Looking these up in the card set is slow next to the
    rest of a playout, so each set gets one table."""

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        self.strength: dict[str, int] = {}
        self.vp: dict[str, int] = {}
        self.capacity: dict[str, int] = {}
        for card in cards.sea:
            self.strength[card.id] = card.strength
            self.vp[card.id] = card.vp if isinstance(card, PlunderCard) else 0
            self.capacity[card.id] = 0 if isinstance(card, PlunderCard) else card.capacity


_TABLES: dict[int, SeaTable] = {}


def sea_table(cards: CardSet) -> SeaTable:
    """The table of a card set (kept with its set, so that its id is never reused)."""
    table = _TABLES.get(id(cards))
    if table is None or table.cards is not cards:
        table = _TABLES[id(cards)] = SeaTable(cards)
    return table


def random_placement(state: State, seat: int, rng: Rng) -> Place:
    """Two distinct pirate areas, then each henchman on a random spot it may take."""
    first = rng.choice(list(AREAS))
    second = rng.choice([a for a in AREAS if a != first])
    henchmen: list[int] = []
    for _ in range(state.players[seat].henchmen):
        free = [a for a in AREAS if a not in (first, second) and a not in henchmen]
        spot = rng.choice([X, first, second, *free])
        if spot != X:
            henchmen.append(spot)
    return Place(pirates=[first, second], henchmen=henchmen)


def random_flip(face_up: list[str], most: int, rng: Rng) -> Flip | Pass:
    """A random number (0 to ``most``) of random face-up cards: a fair stand-in for a
    uniform choice among flips when they are too many to list."""
    size = rng.below(min(most, len(face_up)) + 1)
    return Flip(cards=rng.shuffle(face_up)[:size]) if size else Pass()


def greedy(rules: Rattaneer, state: State, seat: int, knowledge: Knowledge, rng: Rng) -> AnyAction:
    """The best-ranked placement in the Morning; the rule of thumb in the Day and at the
    end. (Rattaneer has no private items: ``knowledge`` holds nothing it could use.)"""
    if state.phase == "morning":
        return placements(state, seat, rng, 1)[0]
    return day_choice(state, seat)


# ----- the Day and the final flip ----------------------------------------------------------


def day_choice(state: State, seat: int) -> AnyAction:
    """A good answer to the choice awaited from ``seat`` in the Day or at the end (R-8.1)."""
    cards = state.options.card_set()
    player = state.players[seat]
    if state.phase == "final":
        return best_flip(cards, player.face_up, 1)
    what = day.kind(state)
    if what in ("ship", "trade"):
        assert state.day is not None
        most = state.day.ship if what == "ship" else len(player.face_up)
        return best_flip(cards, player.face_up, most)
    options = day.options(state, cards)
    return max(options, key=lambda a: _worth(cards, state, seat, a))


def best_flip(cards: CardSet, face_up: list[str], most: int) -> Flip | Pass:
    """The ``most`` most valuable face-up cards, face down: a face-down card scores (R-8.2)
    and a face-up one does not, so turning more never hurts."""
    chosen = sorted(face_up, key=sea_table(cards).vp.__getitem__, reverse=True)[:most]
    return Flip(cards=chosen) if chosen else Pass()


def _worth(cards: CardSet, state: State, seat: int, action: AnyAction) -> int:
    """What a Tavern purchase, a card taken or a treasure spot is worth, in half-VP."""
    player = state.players[seat]
    if isinstance(action, Buy):
        card = cards.companion(action.card)
        bonus = HALF_VP_PER_VP * card.bonus.vp if card.bonus is not None else 0
        return HALF_VP_PER_VP * card.vp + bonus - card.cost
    if isinstance(action, Hire):
        return HENCHMAN_VALUE - 1 if player.henchmen < ENOUGH_HENCHMEN else 0
    if isinstance(action, Take):
        return _card_worth(cards, player.face_up, action.card)
    if isinstance(action, Spot):
        return HALF_VP_PER_VP * action.vp - HENCHMAN_VALUE
    return 0


def _card_worth(cards: CardSet, face_up: list[str], card_id: str) -> int:
    """A plunder card for its VP (it still has to be turned); a trade ship for the cards
    it would turn now."""
    table = sea_table(cards)
    capacity = table.capacity[card_id]
    if not capacity:
        return table.vp[card_id]
    best = sorted((table.vp[c] for c in face_up), reverse=True)[:capacity]
    return HALF_VP_PER_VP * sum(best) + 1


# ----- the Morning -------------------------------------------------------------------------


def placements(state: State, seat: int, rng: Rng, count: int) -> list[Place]:
    """Up to ``count`` placements, best first, foreseeing where the others will stand.

    The others are expected to place as a simpler bot would (``_first_guess``). Then for
    each pair of pirate areas: the henchmen each sea area needs to be won alone, and every
    other henchman alone on an area nobody is expected to fill, lowest first.
    A pirate beyond the lowest area still empty goes to the Farm
    (R-5.4): it is worth its coin there, not the area."""
    cards = state.options.card_set()
    available = state.players[seat].henchmen
    covered = set()
    for other in range(state.seats):
        if other != seat:
            guess = _first_guess(cards, state, other, rng)
            covered |= {*guess.pirates, *guess.henchmen}
    needs = {a: _henchmen_needed(cards, state, a) for a in AREAS}
    values = {a: _area_value(cards, state, seat, a) for a in AREAS}
    ranked = []
    for first in AREAS:
        for second in range(first + 1, AREAS.stop):
            if needs[first] + needs[second] > available:
                continue
            henchmen = [first] * needs[first] + [second] * needs[second]
            taken = covered | {first, second}
            empty = [a for a in range(1, second) if a not in taken]
            henchmen += empty[: available - len(henchmen)]
            gap = _gap(state, taken | set(henchmen))
            value = sum(values[a] if a < gap else FARM for a in (first, second))
            ranked.append(
                (value, rng.below(1 << 30), Place(pirates=[first, second], henchmen=henchmen))
            )
    ranked.sort(key=lambda r: (r[0], r[1]), reverse=True)
    return [place for _, _, place in ranked[:count]]


def _gap(state: State, occupied: set[int]) -> int:
    """The lowest area left empty (R-5.4), after the neutral henchmen fill the first empty
    ones (R-5.3); past the Island if none."""
    empty = [a for a in AREAS if a not in occupied][state.neutral :]
    return empty[0] if empty else AREAS.stop


def _first_guess(cards: CardSet, state: State, seat: int, rng: Rng) -> Place:
    """Where a seat would stand that does not foresee the others: the two areas worth most
    to it within the likely reach of all the pieces, the henchmen to win there, the rest
    alone on lower areas. The lower areas are shared out by seat (each seat starts its
    share at another one), so that seats playing alike fill different gaps."""
    available = state.players[seat].henchmen
    reach = _reach(state)
    areas = [a for a in AREAS if a <= reach]
    needs = {a: _henchmen_needed(cards, state, a) for a in areas}
    values = {a: _area_value(cards, state, seat, a) for a in areas}
    pairs = [
        (values[a] + values[b], a, b)
        for a in areas
        for b in areas
        if a < b and needs[a] + needs[b] <= available
    ]
    _, first, second = max(pairs)
    henchmen = [first] * needs[first] + [second] * needs[second]
    below = [a for a in range(1, second) if a != first]
    if below:
        start = seat * len(below) // state.seats
        below = below[start:] + below[:start]
    henchmen += below[: available - len(henchmen)]
    return Place(pirates=[first, second], henchmen=henchmen)


def _reach(state: State) -> int:
    """How far the row is likely to be filled: a rough guess from the pieces in play."""
    pieces = sum(PIRATES + p.henchmen for p in state.players) + state.neutral
    return min(AREAS.stop - 1, pieces * 2 // 3)


def _henchmen_needed(cards: CardSet, state: State, number: int) -> int:
    """Henchmen to bring along: enough to win a sea area alone. (The henchman put on the
    treasure card may stand anywhere, R-6.5.)"""
    if number not in SEA_AREAS:
        return 0
    strength = sea_table(cards).strength
    need = sum(strength[c] for c in sea_cards(state, number))
    return -(-need // HENCHMAN_STRENGTH)


def _plunder_value(cards: CardSet, state: State, number: int) -> int:
    """Everything under a sea area, in half-VP: plunder for its VP, ships for capacity."""
    table = sea_table(cards)
    under = sea_cards(state, number)
    return HALF_VP_PER_VP * sum(table.vp[c] + table.capacity[c] for c in under)


def _area_value(cards: CardSet, state: State, seat: int, number: int) -> int:
    """What a pirate on the area is likely to gain, in half-VP, henchmen spent deducted."""
    player = state.players[seat]
    if number == WORKSHOP:
        return state.workshop // 2
    if number == TAVERN:
        offer = [cards.companion(c) for c in state.tavern]
        gains = [HALF_VP_PER_VP * c.vp - c.cost for c in offer if c.cost <= player.coins]
        if player.coins and supply(state, seat):
            gains.append(HENCHMAN_VALUE - 1)
        return max(gains, default=0)
    if number == TRADE_PORT:
        vp = sea_table(cards).vp
        return HALF_VP_PER_VP * sum(vp[c] for c in player.face_up)
    if number == ISLAND:
        if state.island_treasures:  # a random draw: the mean of the cards not yet taken
            vps = [cards.treasure(t).vp for t in state.treasure_box]
            return HALF_VP_PER_VP * sum(vps) // len(vps)
        free = [v for v, s in zip(cards.treasure_spots, state.spots, strict=True) if s is None]
        if not player.henchmen:
            return 0
        return max((HALF_VP_PER_VP * v - HENCHMAN_VALUE for v in free), default=0)
    cost = HENCHMAN_VALUE * _henchmen_needed(cards, state, number)
    return _plunder_value(cards, state, number) - cost
