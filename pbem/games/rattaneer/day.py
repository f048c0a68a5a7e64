"""Day (R-6): the areas act from 1 to 10, then the Farm.

The Day runs by itself (``settle``) and stops only where a seat has a real choice: a
Tavern purchase, a card to take in a distribution, the cards a trade ship or the Trade
Port turns, a treasure spot; or where treasure cards must be drawn at the Legendary Island
(a Chance, ``draw_treasures``). A choice with a single legal option is made for the seat.
``state.day`` says which area is resolving and who acts there, so that a stopped Day can
be resumed from the state alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import islice
from typing import Literal

from pbem.crypto.randomness import Rng
from pbem.format.i18n import N_
from pbem.games.rattaneer.actions import AnyAction, Buy, Flip, Hire, Pass, Spot, Take
from pbem.games.rattaneer.cards import CardSet, ShipCard
from pbem.games.rattaneer.decks import draw
from pbem.games.rattaneer.scoring import begin_final, check_face_up, turn_face_down
from pbem.games.rattaneer.state import (
    FARM,
    HENCHMAN_STRENGTH,
    ISLAND,
    SEA_AREAS,
    TAVERN,
    TRADE_PORT,
    WORKSHOP,
    Day,
    State,
    acting_order,
    area,
    in_hand,
    is_last_round,
    sea_cards,
    supply,
)
from pbem.ruleset.rules import RulesError

Kind = Literal["buy", "take", "ship", "trade", "island"]

# What each kind of choice accepts, the rule that governs it, and how to say it.
ACCEPTS: dict[Kind, tuple[type, ...]] = {
    "buy": (Buy, Hire, Pass),
    "take": (Take,),
    "ship": (Flip, Pass),
    "trade": (Flip, Pass),
    "island": (Spot, Pass),
}
RULE: dict[Kind, str] = {
    "buy": "R-6.2",
    "take": "R-6.3",
    "ship": "R-6.3.3",
    "trade": "R-6.4",
    "island": "R-6.5",
}

# Above this many ways to turn cards face down, legal_actions lists a sample (singles and
# the largest turn); ``check`` still judges any choice.
FLIP_CHOICES_LIMIT = 128


def start_day(state: State, cards: CardSet) -> None:
    """Begin the Day after the reveal. Mutates ``state``."""
    state.phase = "day"
    _enter(state, cards, WORKSHOP)
    settle(state, cards)


def settle(state: State, cards: CardSet) -> None:
    """Carry the Day on until a seat has a real choice or the Day is over."""
    while state.phase == "day":
        day = _day(state)
        if not day.queue:
            _enter(state, cards, day.area + 1)
        elif treasure_draw_awaited(state):
            return
        else:
            choices = options(state, cards)
            if len(choices) > 1:
                return
            perform(state, cards, choices[0])


def kind(state: State) -> Kind:
    """The kind of choice awaited now."""
    day = _day(state)
    if day.area == TAVERN:
        return "buy"
    if day.area in SEA_AREAS:
        return "ship" if day.ship else "take"
    return "trade" if day.area == TRADE_PORT else "island"


def chooser(state: State) -> int:
    return _day(state).queue[0]


def options(state: State, cards: CardSet) -> list[AnyAction]:
    """The legal actions of the choosing seat (a sample when flips are too many)."""
    seat, what = chooser(state), kind(state)
    player = state.players[seat]
    if what == "take":
        return [Take(card=c) for c in sorted(set(sea_cards(state, _day(state).area)))]
    if what == "ship":
        return [Pass(), *flip_choices(player.face_up, _day(state).ship)]
    if what == "trade":
        return [Pass(), *flip_choices(player.face_up, len(player.face_up))]
    if what == "buy":
        candidates: list[AnyAction] = [Pass(), Hire(), *(Buy(card=c) for c in state.tavern)]
    else:
        worths = sorted(set(cards.treasure_spots), reverse=True)
        candidates = [Pass(), *(Spot(vp=vp) for vp in worths)]
    return [a for a in candidates if _allowed(state, cards, seat, a)]


def flip_choices(face_up: list[str], most: int) -> list[Flip]:
    """Every way to turn 1 to ``most`` of the ``face_up`` cards face down, as multisets."""
    counts = Counter(face_up)
    ids = sorted(counts)

    def multisets(i: int, room: int) -> Iterator[list[str]]:
        if i == len(ids):
            yield []
            return
        for k in range(min(counts[ids[i]], room) + 1):
            for rest in multisets(i + 1, room - k):
                yield [ids[i]] * k + rest

    found = [m for m in islice(multisets(0, most), FLIP_CHOICES_LIMIT + 2) if m]
    if len(found) <= FLIP_CHOICES_LIMIT:
        return [Flip(cards=m) for m in found]
    return [Flip(cards=[c]) for c in ids] + [Flip(cards=sorted(face_up)[:most])]


def free_spot(state: State, cards: CardSet, vp: int) -> int | None:
    """The first free spot of the secret treasure card worth ``vp``: spots of equal worth
    are interchangeable, so a choice names the worth, not the place."""
    spots = zip(state.spots, cards.treasure_spots, strict=True)
    return next((i for i, (s, v) in enumerate(spots) if s is None and v == vp), None)


def _allowed(state: State, cards: CardSet, seat: int, action: AnyAction) -> bool:
    try:
        check_day(state, cards, seat, action)
    except RulesError:
        return False
    return True


def check_day(state: State, cards: CardSet, seat: int, action: AnyAction) -> None:
    """Whether the choosing ``seat`` may take ``action`` now; the refusal cites the rule."""
    what = kind(state)
    rule = RULE[what]
    if not isinstance(action, ACCEPTS[what]):
        raise RulesError(
            N_("{rule}: a {type} action does not fit here").format(rule=rule, type=action.type)
        )
    player = state.players[seat]
    if isinstance(action, Buy):
        if action.card not in state.tavern:
            raise RulesError(N_("R-6.2: {card} is not in the Tavern row").format(card=action.card))
        cost = cards.companion(action.card).cost
        if cost > player.coins:
            raise RulesError(
                N_("R-6.2: {card} costs {cost} coins; you have {coins}").format(
                    card=action.card, cost=cost, coins=player.coins
                )
            )
    elif isinstance(action, Hire):
        if player.coins < 1:
            raise RulesError(N_("R-6.2: a henchman costs 1 coin; you have none"))
        if supply(state, seat) < 1:
            raise RulesError(N_("R-6.2: no henchman of your colour is left in the supply"))
    elif isinstance(action, Take):
        under = sea_cards(state, _day(state).area)
        if action.card not in under:
            raise RulesError(
                N_("R-6.3: {card} is not under area {area} (there: {there})").format(
                    card=action.card, area=_day(state).area, there=" ".join(sorted(under))
                )
            )
    elif isinstance(action, Flip):
        check_face_up(player, action.cards, rule)
        if what == "ship" and len(action.cards) > _day(state).ship:
            most = _day(state).ship
            if most == 1:
                raise RulesError(N_("R-6.3.3: this trade ship turns at most 1 card"))
            raise RulesError(
                N_("R-6.3.3: this trade ship turns at most {most} cards").format(most=most)
            )
    elif isinstance(action, Spot):
        if player.henchmen < 1:
            raise RulesError(N_("R-6.5: you have no henchman to put on the treasure card"))
        if free_spot(state, cards, action.vp) is None:
            raise RulesError(
                N_("R-6.5: no free treasure spot is worth {vp} VP").format(vp=action.vp)
            )


def perform(state: State, cards: CardSet, action: AnyAction) -> None:
    """Carry out the choosing seat's checked action. Mutates ``state``."""
    day = _day(state)
    seat = day.queue[0]
    player = state.players[seat]
    if isinstance(action, Take):
        sea_cards(state, day.area).remove(action.card)
        card = cards.sea_card(action.card)
        if isinstance(card, ShipCard):  # used at once by its taker, then discarded
            player.ships_used += 1
            _insert(state.sea_discard, action.card)
            day.ship = card.capacity
            return
        _insert(player.face_up, action.card)
        _next_taker(state)
        return
    if isinstance(action, Buy):
        player.coins -= cards.companion(action.card).cost
        state.tavern.remove(action.card)
        player.companions.append(action.card)
    elif isinstance(action, Hire):
        player.coins -= 1
        player.henchmen += 1
    elif isinstance(action, Flip):
        turn_face_down(player, action.cards)
    elif isinstance(action, Spot):
        index = free_spot(state, cards, action.vp)
        assert index is not None, "checked: a free spot of that value"
        state.spots[index] = seat
        _lift_henchman(state, seat)
        player.henchmen -= 1
    if day.ship:
        day.ship = 0
        _next_taker(state)
    else:
        day.queue.pop(0)


def _day(state: State) -> Day:
    assert state.day is not None, "no Day in progress"
    return state.day


def _insert(cards: list[str], card: str) -> None:
    cards.append(card)
    cards.sort()


def _enter(state: State, cards: CardSet, number: int) -> None:
    """Start resolving area ``number``: areas needing no choice resolve at once."""
    state.day = Day(area=number)
    if number == WORKSHOP:
        _workshop(state)
    elif number == FARM:
        _farm(state)
        _end_day(state)
    elif number not in SEA_AREAS or _battle_won(state, cards, number):
        state.day.queue = acting_order(state, number)


def _workshop(state: State) -> None:
    """R-6.1: one coin each in turn until none are left."""
    order = acting_order(state, WORKSHOP)
    if not order:
        return
    each, extra = divmod(state.workshop, len(order))
    for position, seat in enumerate(order):
        state.players[seat].coins += each + (1 if position < extra else 0)
    state.workshop = 0


def _battle_won(state: State, cards: CardSet, number: int) -> bool:
    """R-6.3: 2 strength per henchman standing with its owner's pirate, against the sum of
    the cards' strengths. No cards, or no pirate to lead an attack: no battle."""
    under, pieces = sea_cards(state, number), area(state, number)
    if not under or not pieces.pirates:
        return False
    strength = sum(HENCHMAN_STRENGTH * pieces.henchmen[s] for s in pieces.pirates)
    return strength >= sum(cards.sea_card(c).strength for c in under)


def _next_taker(state: State) -> None:
    """Pass the distribution on (R-6.3.1), or end it when the cards are gone (R-6.3.4)."""
    day = _day(state)
    if sea_cards(state, day.area):
        day.queue.append(day.queue.pop(0))
        return
    pieces = area(state, day.area)
    for seat in pieces.pirates:
        player = state.players[seat]
        player.henchmen -= pieces.henchmen[seat]
        pieces.henchmen[seat] = 0
        player.areas_won = sorted({*player.areas_won, day.area})
    day.queue = []


def treasure_draw_awaited(state: State) -> bool:
    """R-6.5 with option ``treasures``: pirates at the island while treasure cards lie there
    draw one each, at random: the Day waits for the engine's randomness."""
    day = state.day
    return (
        state.phase == "day"
        and day is not None
        and day.area == ISLAND
        and bool(day.queue)
        and state.island_treasures > 0
    )


def draw_treasures(state: State, cards: CardSet, rng: Rng) -> None:
    """R-6.5: in sea-priority order, each pirate at the island draws a treasure card while
    any lie there [ruling: at once, it costs nothing]. Which of the unseen cards lie on the
    island nobody knows, so a draw picks uniformly among every card not yet taken (RULINGS).
    The card is public once drawn (R-3). Then the Day goes on. Mutates ``state``."""
    if not treasure_draw_awaited(state):
        raise RulesError(N_("R-6.5: no treasure card is to be drawn now"))
    queue = _day(state).queue
    while queue and state.island_treasures:
        state.players[queue.pop(0)].treasures.append(draw(state.treasure_box, rng))
        state.island_treasures -= 1
    settle(state, cards)


def _lift_henchman(state: State, seat: int) -> None:
    """Keep the table true when a henchman moves to the treasure card (R-6.5): take one
    from the hand if any, else from X, else from the highest area (all resolved by now).
    Called before the owner's count drops."""
    if in_hand(state, seat):
        return
    if state.unused[seat]:
        state.unused[seat] -= 1
        return
    pieces = next(p for p in reversed(state.board) if p.henchmen[seat])
    pieces.henchmen[seat] -= 1


def _farm(state: State) -> None:
    """R-6.6: pirates come back from the Farm with 1 coin each."""
    for seat in state.farm:
        state.players[seat].coins += 1
    state.farm = []


def _end_day(state: State) -> None:
    state.day = None
    if is_last_round(state):
        begin_final(state)
    else:
        state.phase = "night"
