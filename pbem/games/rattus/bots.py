"""The ``greedy`` bot: every choice weighed by the cubes it may save or cost, at once.

Each legal action gets a score (``score``): a priority, then the cubes it is worth by the
estimates of ``threat.View`` (a cube placed or saved counts 1, a cube another player may
lose counts a little). The bot plays the best, ties broken by its own stream. Priorities
order a turn: a class card worth taking first, then the placement, then every ability
worth using, then the plague (priority 0), so a turn always ends. It uses every class:
the Peasant and the King to place and save cubes, the Merchant to move cubes out of
danger, the Monk to move a token away from its cubes, the Witch to look at tokens near its
cubes and swap a bad one away, the Knight to send the plague where it hurts others, the
Astronomer for region cards, the Explorer for a cube, the Sultan for diplomats, the
Caravan for extra cubes where it leads. With Africanus it plays region cards from the hand
it knows (``knowledge``) when a token hits its class cards (``protect``).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from pbem.crypto.randomness import Rng
from pbem.games.rattus import data, diplomats, flow, plague, regiondeck
from pbem.games.rattus.abilities import KING, KNIGHT, MERCHANT, MERCHANT_CUBES, MONK, PEASANT
from pbem.games.rattus.abilities import WITCH as WITCH_CARD
from pbem.games.rattus.actions import (
    Action,
    Astronomer,
    Bonus,
    Caravan,
    Choose,
    Explore,
    Explorer,
    Keep,
    King,
    Merchant,
    Monk,
    Peasant,
    Place,
    Plague,
    Protect,
    Spread,
    Sultan,
    Swap,
    Take,
    Use,
    Witch,
)
from pbem.games.rattus.africanus import ASTRONOMER, CARAVAN, EXPLORER, SULTAN
from pbem.games.rattus.setup import start_cubes
from pbem.games.rattus.state import State, africa, board_of, cards_of
from pbem.games.rattus.threat import View, ending
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import Ruleset

Score = tuple[int, float]
"""(priority, value): higher priority first; the plague move and the steps after it have
priority 0, and an optional step not worth taking has -1, so it is never taken."""

WORTH_TAKING = 0.1
"""A class card is taken when its use is worth more cubes than this, its risk deducted."""
OTHERS = 0.3
"""What a cube another player may lose is worth to the bot, against 1 for its own."""
HOLDING = 1.0
"""Turns a class card is held, on average, for the risk of being hit through its icon."""
REGION_CARD = 0.5
"""A region card in hand: it may protect a class card (T-7.3) or score at the end (T-8)."""
DIPLOMAT = 1.2
"""A diplomat placed: toward the 4 or 2 points of T-9.4."""
PALACE = 0.4
"""A cube moved to the palace, from a region that has no token now but may get some."""
LOOK = 0.25
"""Knowing the face of a token among one's cubes, for the choices to come."""


def no_cards(s: State) -> Protect | None:
    """The answer to the region-card question (T-7.3) of a bot that cannot read its hand
    (``Ruleset.random_action`` without ``known``): none."""
    return Protect() if flow.stage(s) == "protect" else None


def greedy(rules: Ruleset, state: Any, seat: int, knowledge: Knowledge, rng: Rng) -> Action:
    known = knowledge.opened
    if flow.stage(state) == "protect":
        return protect(state, seat, known)
    ranked = ranking(rules, state, seat, known)
    best = ranked[0][0]
    return rng.choice([a for value, a in ranked if value == best])


def ranking(
    rules: Ruleset, state: State, seat: int, known: Mapping[str, str]
) -> list[tuple[Score, Action]]:
    """Every legal action of ``seat`` (not a region-card answer) with its score, best first
    (ties in the rules' order)."""
    view = View(state, seat, known)
    scored = [(score(view, a), a) for a in rules.legal_actions(state, seat)]
    return sorted(scored, key=lambda pair: pair[0], reverse=True)


# ----- region cards against the plague (T-7.3) -------------------------------------------


def protect(s: State, seat: int, known: Mapping[str, str]) -> Protect:
    """Each class card the token hits gets the least valuable card of the hand that shows
    its icon or "?", while the cube it saves is worth more than the card kept for the end."""
    hand = [h for h in africa(s).hands[seat] if h in known]
    uses = []
    for card in plague.cards_hit(s)[seat]:
        icon = data.icons()[card]
        fitting = [h for h in hand if regiondeck.shows(data.region_cards()[known[h]], icon)]
        if not fitting:
            continue
        cheapest = min(fitting, key=lambda h: _end_value(s, seat, known, h))
        if _end_value(s, seat, known, cheapest) < 1:
            uses.append(Use(card=cheapest, protects=card))
            hand.remove(cheapest)
    return Protect(uses=uses)


def _end_value(s: State, seat: int, known: Mapping[str, str], handle: str) -> float:
    """What a card in hand may score at the end (T-8): 1 for a region where the seat has
    cubes, if no other card in its hand names it already; a little less, cubes may die."""
    region = data.region_cards()[known[handle]].region
    others = [
        data.region_cards()[known[h]].region
        for h in africa(s).hands[seat]
        if h != handle and h in known
    ]
    here = next((r.cubes[seat] for r in s.regions if r.name == region), 0)
    return 0.9 if here and region not in others else 0.0


def _card_value(view: View, handle: str) -> float:
    """A drawn region card's worth in hand: it shows the icon of a class card held (or "?")
    and it names a region where the seat has cubes."""
    s, seat = view.s, view.seat
    face = view.known.get(handle)
    if face is None:
        return 0.0
    card = data.region_cards()[face]
    icons = {data.icons()[c] for c in cards_of(s, seat)}
    useful = data.WILD in card.icons or bool(icons & set(card.icons))
    return REGION_CARD * useful + _end_value(s, seat, view.known, handle)


# ----- scores -------------------------------------------------------------------------------


def score(view: View, action: Action) -> Score:
    s, seat = view.s, view.seat
    match action:
        case Take(card=card):
            gain = _card_gain(view, card) - _holding_risk(view, card)
            return (3, gain) if gain > WORTH_TAKING else (-1, 0.0)
        case Place(region=name) if s.phase == "start":
            return (0, _added(view, name, start_cubes(s)))
        case Place(region=name) | Peasant(region=name):
            extra = int(isinstance(action, Peasant))
            count = min(len(view.region(name).tokens) + extra, s.cube_supply[seat])
            return (2, _added(view, name, count))
        case King():
            return (1, PALACE)
        case Merchant(source=source, target=target, cubes=n):
            gain = _moved(view, source, target, n)
            return (1, gain) if gain > 0 else (-1, 0.0)
        case Monk(token=token, target=target):
            gain = _monk_gain(view, token, target)
            return (1, gain) if gain > 0 else (-1, 0.0)
        case Witch(tokens=[first, second]):
            gain = _look_gain(view, first, second)
            return (1, gain) if gain > 0 else (-1, 0.0)
        case Swap() | Keep():
            return (0, _swap_gain(view) * (1 if isinstance(action, Swap) else -1))
        case Astronomer():
            return (1, REGION_CARD)
        case Choose(region_card=handle):
            return (0, _card_value(view, handle))
        case Explorer():
            return (1, 0.5)
        case Explore(region=None) | Bonus(region=None):
            return (0, 0.0)
        case Explore(region=name) | Bonus(region=name):
            return (0, _added(view, name, 1))
        case Sultan(region=name):
            return (1, DIPLOMAT - view.risk(seat, name) / max(view.region(name).cubes[seat], 1))
        case Caravan(path=[name]):
            return (0, view.region(name).cubes[seat])
        case Caravan(path=[middle, _]):
            gain = _caravan_gain(view, middle)
            return (1, gain) if gain > 0 else (-1, 0.0)
        case Plague(path=path):
            return (0, _strike(view, path[-1]))
        case Spread(regions=names):
            return (0, sum(_spread(view, n) for n in names))
        case _:  # revealing a token, resolving a region, ending the final round
            return (0, 0.0)


def _with(cubes: list[int], seat: int, change: int) -> list[int]:
    changed = list(cubes)
    changed[seat] += change
    return changed


def _added(view: View, name: str, count: int) -> float:
    """``count`` cubes placed in ``name``: each worth 1, less the risk they add; the risk
    they add to others counts a little."""
    seat, cubes = view.seat, view.region(name).cubes
    after = _with(cubes, seat, count)
    mine = view.risk(seat, name, after) - view.risk(seat, name)
    theirs = view.others(name, after) - view.others(name)
    return count - mine + OTHERS * theirs


def _moved(view: View, source: str, target: str, n: int) -> float:
    """Cubes moved from ``source`` to ``target``: the risk saved less the risk taken on."""
    seat = view.seat
    src, tgt = view.region(source).cubes, view.region(target).cubes
    saved = view.risk(seat, source) - view.risk(seat, source, _with(src, seat, -n))
    taken = view.risk(seat, target, _with(tgt, seat, n)) - view.risk(seat, target)
    return saved - taken


def _monk_gain(view: View, token: str, target: str) -> float:
    """A token moved away: what it threatened where it was, against where it goes."""
    source = view.where[token]
    out = ("monk from", token)
    if out not in view.kept:
        rest = [t for t in view.region(source).tokens if t != token]
        view.kept[out] = view.balance(source, tokens=rest) - view.balance(source)
    face = view.known.get(token, "")  # unseen tokens all weigh the same where they go
    into = ("monk to", f"{target}/{face}")
    if into not in view.kept:
        more = [*view.region(target).tokens, token]
        view.kept[into] = view.balance(target, tokens=more) - view.balance(target)
    return view.kept[out] + view.kept[into]


def _look_gain(view: View, first: str, second: str) -> float:
    """A look is worth what a swap could bring (T-6.5): in two regions, a token that would
    hit the seat where it lies and one that would not, exchanged; or the same for the
    others, to their harm. With chance ``p`` that a token hits, ``p * (1 - p)`` that one of
    the two does and the other does not."""
    a, b = view.where[first], view.where[second]
    if a == b:
        return 0.0
    pairs = ((first, a), (second, b))
    near = sum(1 for t, n in pairs if view.region(n).cubes[view.seat] and t not in view.known)
    return _swappable(view, a) + _swappable(view, b) + LOOK * near


def _swappable(view: View, name: str) -> float:
    """``p * (1 - p)`` for a token of region ``name``, the seat's and the others' (a little)."""
    key = ("swappable", name)
    if key not in view.kept:
        r = view.region(name)
        total = 0.0
        for who in range(view.s.seats):
            p = min(view.loss(who, name) / len(r.tokens), 1.0)
            total += (1 if who == view.seat else OTHERS) * view.exposure(name) * p * (1 - p)
        view.kept[key] = total
    return view.kept[key]


def _swap_gain(view: View) -> float:
    """After the Witch's look: what swapping the two tokens brings (negative: keep)."""
    look = view.s.witch
    assert look is not None
    first, second = look.tokens
    a = next(r for r in view.s.regions if first in r.tokens)
    b = next(r for r in view.s.regions if second in r.tokens)
    if a.name == b.name:
        return -1.0
    before = view.balance(a.name) + view.balance(b.name)
    swapped_a = [second if t == first else t for t in a.tokens]
    swapped_b = [first if t == second else t for t in b.tokens]
    return view.balance(a.name, tokens=swapped_a) + view.balance(b.name, tokens=swapped_b) - before


def _caravan_gain(view: View, middle: str) -> float:
    """The caravan leaves its region and passes ``middle``: there the majority may each
    place a cube (T-6.10): the seat's own cubes count, the others' against it."""
    start = africa(view.s).caravan
    assert start is not None
    gain = 0.0
    for name in (start, middle):
        cubes = view.region(name).cubes
        if not max(cubes):
            continue
        leaders = [k for k, n in enumerate(cubes) if n == max(cubes)]
        if view.seat in leaders:
            gain += _added(view, name, 1)
        gain -= OTHERS * len([k for k in leaders if k != view.seat])
    return gain


def _strike(view: View, name: str) -> float:
    """The plague moved to ``name``: its tokens (and those that will spread next to it)
    strike there now."""
    r = view.region(name)
    if not r.tokens:
        return 0.0
    others = sum(view.loss(k, name) for k in range(view.s.seats) if k != view.seat)
    return others - 2 * view.loss(view.seat, name)


def _spread(view: View, name: str) -> float:
    """A new token (unseen) spread into ``name``."""
    tokens: list[str | None] = [*view.region(name).tokens, None]
    return view.balance(name, tokens=tokens) - view.balance(name)


# ----- class cards worth taking -----------------------------------------------------------


def _holding_risk(view: View, card: str) -> float:
    """Cubes the seat may lose through the card's icon while it holds it."""
    seat, s = view.seat, view.s
    icon = data.icons()[card]
    risk = 0.0
    for r in s.regions:
        if r.cubes[seat] and r.tokens:
            hit = sum(view.token(seat, t, r.cubes, icon) for t in r.tokens)
            risk += view.exposure(r.name) * (hit - view.loss(seat, r.name))
    return HOLDING * risk


def _card_gain(view: View, card: str) -> float:
    """What the card's ability is likely worth to the seat: now, or near the end in the
    final round (T-9.2), where the final plague will strike every region with tokens."""
    now = _ability_gain(view, card)
    near = ending(view.s)
    if not near or card in (PEASANT, KNIGHT):  # they do nothing in the final round
        return now
    final = View(view.s, view.seat, view.known, final=True)
    return max(now, near * _ability_gain(final, card))


def _ability_gain(view: View, card: str) -> float:
    s, seat = view.s, view.seat
    gains = {
        PEASANT: lambda: _peasant_gain(view),
        KING: lambda: PALACE if any(r.cubes[seat] and not r.tokens for r in s.regions) else 0.0,
        MERCHANT: lambda: max(_merchant_moves(view), default=0.0),
        MONK: lambda: max(_monk_moves(view), default=0.0),
        WITCH_CARD: lambda: max(_looks(view), default=0.0),
        KNIGHT: lambda: _knight_gain(view),
        ASTRONOMER: lambda: REGION_CARD if regiondeck.can_draw(s) else 0.0,
        EXPLORER: lambda: 0.5 if regiondeck.can_draw(s) and s.cube_supply[seat] else 0.0,
        SULTAN: lambda: _sultan_gain(view),
        CARAVAN: lambda: max(_caravan_moves(view), default=0.0),
    }
    return gains[card]()


def _peasant_gain(view: View) -> float:
    """The best placement with the Peasant (one cube more, any region) against the best
    without it (T-6.1)."""
    s, seat = view.s, view.seat
    if s.progress.placed or not s.cube_supply[seat]:
        return 0.0

    def best(extra: int) -> float:
        return max(
            (
                _added(view, r.name, min(len(r.tokens) + extra, s.cube_supply[seat]))
                for r in s.regions
                if r.tokens or extra
            ),
            default=0.0,
        )

    return best(1) - best(0)


def _merchant_moves(view: View) -> list[float]:
    b, seat = board_of(view.s), view.seat
    return [
        _moved(view, r.name, target, n)
        for r in view.s.regions
        for target in b.neighbours(r.name)
        for n in range(1, min(MERCHANT_CUBES, r.cubes[seat]) + 1)
        if diplomats.flags(view.s, seat, r.name, n, target)
    ]


def _monk_moves(view: View) -> list[float]:
    b = board_of(view.s)
    return [
        _monk_gain(view, token, target)
        for r in view.s.regions
        for target in b.neighbours(r.name)
        if len(view.region(target).tokens) < 3
        for token in r.tokens
    ]


def _looks(view: View) -> list[float]:
    tokens = [t for r in view.s.regions for t in r.tokens]
    return [_look_gain(view, a, b) for a, b in combinations(tokens, 2)]


def _knight_gain(view: View) -> float:
    """How much more the plague can hurt the others when it may go farther (T-6.4)."""
    s = view.s
    if s.progress.moved or s.plague is None:
        return 0.0
    b = board_of(s)
    near = set(b.neighbours(s.plague))
    far = {m for n in near for m in b.neighbours(n)} - {s.plague}
    best_near = max((_strike(view, n) for n in near), default=0.0)
    best_far = max((_strike(view, n) for n in far | near), default=0.0)
    return (best_far - best_near) / 2


def _sultan_gain(view: View) -> float:
    s, seat = view.s, view.seat
    if not africa(s).diplomat_supply:
        return 0.0
    places = [r for r in s.regions if r.cubes[seat] and not diplomats.has(s, seat, r.name)]
    return DIPLOMAT if places else 0.0


def _caravan_moves(view: View) -> list[float]:
    start = africa(view.s).caravan
    if start is None:
        return []
    return [_caravan_gain(view, middle) for middle in board_of(view.s).neighbours(start)]
