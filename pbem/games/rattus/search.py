"""What the tree search (``pbem.bots.mcts``) needs to know about Rattus.

A determinization deals a face to every sealed handle consistently with what the seat
knows (``deal``): the faces of revealed tokens and of public region cards are fixed, so are
the items opened to the seat (its hand, its Witch's look), and every other handle of a deck
gets one of the items of that deck nobody has seen, at random. In that world every other
seat knows its own hand, as it does at the table. The search weighs the greedy bot's best
few actions at each decision (``bots.ranking``), region-card answers among the honest
ones, plays the greedy bot for a while, then scores the table: cubes on the map and in the
palace, less what the rats there will likely take now that their faces are dealt,
diplomats and region cards (T-9.4, T-8), turned into shares of the win.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pbem.bots.mcts import shares, soft_shares
from pbem.bots.simulate import World
from pbem.crypto.randomness import Rng
from pbem.games.rattus import bots, data, diplomats, flow, plague, regiondeck, scoring, setup
from pbem.games.rattus.actions import Protect, Use
from pbem.games.rattus.state import State
from pbem.games.rattus.threat import View
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import Over, Ruleset

CANDIDATES = 6
"""Actions the search weighs at a decision: the greedy bot's best."""
SPREAD = 3.0
"""Points between two estimated scores for the higher to be e times likelier to win."""
SOON, FINAL, CARD = 0.5, 0.5, 0.75
"""Weights of ``estimate``: the risk of losing cubes soon, in the final plague, and a
class card held."""
FINAL_TOKENS = 30
"""Tokens left in the supply from which the final plague begins to weigh."""


class RattusSearch:
    budget = 30
    horizon = 12
    prior = 0.2

    def world(self, rules: Ruleset, state: State, knowledge: Knowledge, rng: Rng) -> World:
        faces = deal(state, knowledge.opened, rng.fork("deal"))
        opened: list[dict[str, str]] = [{} for _ in range(state.seats)]
        if state.africa is not None:
            for seat, hand in enumerate(state.africa.hands):
                opened[seat] = {h: faces[h] for h in hand}
        opened[knowledge.seat] = dict(knowledge.opened)
        return World(rules, state, faces, rng.fork("chance"), opened)

    def candidates(
        self, rules: Ruleset, state: State, seat: int, knowledge: Knowledge
    ) -> list[Any]:
        if flow.stage(state) == "protect":
            return protections(state, seat, knowledge.opened)
        ranked = bots.ranking(rules, state, seat, knowledge.opened)
        worth = [a for value, a in ranked if value[0] >= 0] or [ranked[0][1]]
        return worth[:CANDIDATES]

    def playout(
        self, rules: Ruleset, state: State, seat: int, knowledge: Knowledge, rng: Rng
    ) -> Any:
        return bots.greedy(rules, state, seat, knowledge, rng)

    def values(self, world: World) -> list[float]:
        decision = world.decision
        if isinstance(decision, Over):
            return shares(decision.result, world.state.seats)
        return soft_shares(estimate(world.state, world.faces), SPREAD)


def deal(s: State, known: Mapping[str, str], rng: Rng) -> dict[str, str]:
    """A face for every sealed handle in the game, consistent with what everyone has seen
    and with what the seat knows (``known``)."""
    faces: dict[str, str] = {}
    fixed = {t.handle: t.face for t in s.revealed} | dict(known)
    if s.resolution is not None and s.resolution.token is not None:
        assert s.resolution.face is not None
        fixed[s.resolution.token] = s.resolution.face  # revealed, about to strike
    decks = setup.sealed_decks(s.options, s.seats)
    for deck in ("start", "tokens"):
        handles = [f"{deck}/{i}" for i in range(len(decks[deck]))]
        _fill(faces, handles, decks[deck], fixed, rng)
    if s.africa is not None:
        table = s.africa
        handles = list(table.deck) + [h for hand in table.hands for h in hand]
        if table.draw is not None:
            handles += [h for h in table.draw.cards if h != table.draw.kept]
            fixed |= dict(zip(table.draw.cards, table.draw.faces, strict=False))
        if s.resolution is not None:
            handles += [p.card for p in s.resolution.played]
            fixed |= {p.card: p.face for p in s.resolution.played if p.face is not None}
        if table.shown is not None:
            fixed |= {
                h: f
                for hand, ids in zip(table.hands, table.shown, strict=True)
                for h, f in zip(hand, ids, strict=True)
            }
        items = Counter(regiondeck.card_ids(s.seats)) - Counter(table.discards)
        _fill(faces, handles, list(items.elements()), fixed, rng)
    return faces


def _fill(
    faces: dict[str, str],
    handles: list[str],
    items: list[str],
    fixed: Mapping[str, str],
    rng: Rng,
) -> None:
    """Give each handle its known face, and the rest of ``items`` to the others at random."""
    unseen = Counter(items)
    for h in handles:
        if h in fixed:
            faces[h] = fixed[h]
            unseen[fixed[h]] -= 1
    open_handles = [h for h in handles if h not in fixed]
    pool = sorted((+unseen).elements())
    assert len(pool) == len(open_handles), "the items of a deck must match its handles"
    faces.update(zip(open_handles, rng.shuffle(pool), strict=True))


def protections(s: State, seat: int, known: Mapping[str, str]) -> list[Protect]:
    """The region-card answers worth weighing (T-7.3): the greedy bot's, none, and each
    single card the seat's own ``pbem`` would let it sign."""
    out = [bots.protect(s, seat, known), Protect()]
    hand = [h for h in s.africa.hands[seat] if h in known] if s.africa else []
    for card in plague.cards_hit(s)[seat]:
        icon = data.icons()[card]
        for h in hand:
            if regiondeck.shows(data.region_cards()[known[h]], icon):
                out.append(Protect(uses=[Use(card=h, protects=card)]))
    unique = []
    for action in out:
        if action not in unique:
            unique.append(action)
    return unique


def estimate(s: State, faces: Mapping[str, str]) -> list[float]:
    """Each seat's points at the end, as the table stands: its cubes on the map and in the
    palace, less a share of what the tokens will likely take from them soon and, as the
    end nears, in the final plague (weighed by the odds of the token set: the search must
    not count on a deal it only guessed), less something for each class card it holds,
    plus the diplomats and the region cards (T-9.4, T-8). The weights and ``SPREAD`` were
    fitted on greedy games: they predict the winner best."""
    soon, final = View(s, 0, {}), View(s, 0, {}, final=True)
    ending = max(0.0, 1 - len(s.token_supply) / FINAL_TOKENS)
    points = [float(p) for p in scoring.cube_points(s)]
    for r in s.regions:
        if r.tokens:
            for seat in range(s.seats):
                points[seat] -= SOON * soon.risk(seat, r.name)
                points[seat] -= FINAL * ending * final.risk(seat, r.name)
    for card in s.cards:
        if card.holder is not None:
            points[card.holder] -= CARD
    counts = [diplomats.count(s, seat) for seat in range(s.seats)]
    for seat, extra in enumerate(scoring.diplomat_points(counts)):
        points[seat] += extra
    if s.africa is not None:
        for seat, hand in enumerate(s.africa.hands):
            named = {data.region_cards()[faces[h]].region for h in hand}
            here = {r.name for r in s.regions if r.cubes[seat]}
            points[seat] += len(named & here)
    return points
