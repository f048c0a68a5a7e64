"""Bots: a random placement for the ``random`` bot, and the one-ply ``greedy`` bot.

The morning placement has too many legal forms to list, so both bots build one directly;
``check`` stays the judge of what they build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.core.randomness import Rng
from pbem.games.rattaneer.actions import AnyAction, Flip, Pass, Place
from pbem.games.rattaneer.cards import CardSet, PlunderCard
from pbem.games.rattaneer.scoring import score
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

if TYPE_CHECKING:
    from pbem.games.rattaneer import Rattaneer

X = 0  # where an unplaced henchman stands, while a placement is being built

# The greedy bot's values, in half-VP so that a coin (half a VP, R-8.2) is 1.
HALF_VP_PER_VP = 2
HENCHMAN_VALUE = 3  # a little more than the coin it costs: henchmen win battles


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


def greedy(rules: Rattaneer, state: State, seat: int, rng: Rng) -> AnyAction:
    """One ply: the action after which the seat holds the most value (see ``_value``);
    ties broken at random. The placement is built by ``_greedy_placement``."""
    cards = state.options.card_set()
    if state.phase == "morning":
        return _greedy_placement(cards, state, seat, rng)
    candidates = rules.legal_actions(state, seat)
    if state.phase == "final":  # the best free flip: the most valuable card
        return max(candidates, key=lambda a: _flip_gain(cards, a))
    values = [_value(cards, rules.apply(state, seat, a), seat) for a in candidates]
    best = max(values)
    return rng.choice([a for a, v in zip(candidates, values, strict=True) if v == best])


def _value(cards: CardSet, state: State, seat: int) -> int:
    """VP secured (doubled), plus half the VP of face-up plunder, plus the henchmen."""
    player = state.players[seat]
    face_up = sum(cards.plunder_vp(c) for c in player.face_up)
    return (
        HALF_VP_PER_VP * score(state, cards, seat).total
        + face_up
        + (HENCHMAN_VALUE * player.henchmen)
    )


def _flip_gain(cards: CardSet, action: AnyAction) -> int:
    return sum(cards.plunder_vp(c) for c in action.cards) if isinstance(action, Flip) else 0


def _greedy_placement(cards: CardSet, state: State, seat: int, rng: Rng) -> Place:
    """The two pirate areas worth most together, given the henchmen each sea area needs to
    be won alone (and one for the treasure card); the other henchmen alone on random areas
    below the pirates, to fill gaps. Areas beyond the likely reach of all the pieces are
    avoided: a gap before them would send the pirates to the Farm (R-5.4)."""
    available = state.players[seat].henchmen
    areas = [a for a in AREAS if a <= _reach(state)]
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
    for number in rng.shuffle(below)[: available - len(henchmen)]:
        henchmen.append(number)
    return Place(pirates=[first, second], henchmen=henchmen)


def _reach(state: State) -> int:
    """How far the row is likely to be filled: a rough guess from the pieces in play."""
    pieces = sum(PIRATES + p.henchmen for p in state.players) + state.neutral
    return min(AREAS.stop - 1, pieces * 2 // 3)


def _henchmen_needed(cards: CardSet, state: State, number: int) -> int:
    """Henchmen to bring along: enough to win a sea area alone, one for the treasure card."""
    if number in SEA_AREAS:
        need = sum(cards.sea_card(c).strength for c in sea_cards(state, number))
        return -(-need // HENCHMAN_STRENGTH)
    return int(number == ISLAND and not state.island_treasures)


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
        return HALF_VP_PER_VP * sum(cards.plunder_vp(c) for c in player.face_up)
    if number == ISLAND:
        if state.island_treasures:  # a random draw: the mean of the cards not yet taken
            vps = [cards.treasure(t).vp for t in state.treasure_box]
            return HALF_VP_PER_VP * sum(vps) // len(vps)
        free = [v for v, s in zip(cards.treasure_spots, state.spots, strict=True) if s is None]
        return max((HALF_VP_PER_VP * v - HENCHMAN_VALUE for v in free), default=0)
    gain = 0
    for card_id in sea_cards(state, number):
        card = cards.sea_card(card_id)
        gain += card.vp if isinstance(card, PlunderCard) else card.capacity
    return HALF_VP_PER_VP * gain - HENCHMAN_VALUE * _henchmen_needed(cards, state, number)
