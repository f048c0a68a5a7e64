"""Region cards against the plague (T-7.3), a ``Parallel`` reaction.

After a token breaks out, the players it hits through a class icon may play region cards
before the hits apply. The public state cannot see a hand, so the rules ask every player
who holds a region card and whom a card could save a cube (rulings T-7.3); they answer at once,
each with the cards they play and the class card each protects, or with none. The played
cards are then revealed to everyone, and everyone checks that each shows the protected
class's icon or "?": a card that does not is refused, naming the seat. Before signing, a
player's own ``pbem`` checks the same against the hand only it can read
(``check_known``), so an honest player never signs a card that would be refused.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations, permutations

from pbem.format.i18n import N_
from pbem.games.rattus import data, plague, regiondeck
from pbem.games.rattus.actions import Protect, Use
from pbem.games.rattus.state import PlayedCard, State, africa, faces_of, region
from pbem.ruleset.rules import Parallel, Reveal, RulesError

NAME = "protect"
"""The name of the reaction in the file (``act:protect``)."""


def ask(s: State) -> None:
    """Set who is asked about the token just revealed: hit through an unprotected class
    card, holding a region card, and losing fewer cubes to M and A than they have there
    (else protection would change nothing)."""
    resolution = s.resolution
    assert resolution is not None
    if s.africa is None or not plague.breaks_out(s):
        return
    cubes = region(s, resolution.region).cubes
    crowd = plague.crowd_hits(s)
    resolution.asked = [
        seat
        for seat, hit in enumerate(plague.cards_hit(s))
        if hit and s.africa.hands[seat] and crowd[seat] < cubes[seat]
    ]


def decision(s: State) -> Parallel:
    resolution = s.resolution
    assert resolution is not None and resolution.face is not None
    face = faces_of(s)[resolution.face]
    return Parallel(
        seats=resolution.asked,
        name=NAME,
        prompt=N_(
            "T-7.3: {face} in {region} hits {icons}: play region cards "
            "(protect <card> <class> ...) or protect none"
        ).format(face=resolution.face, region=resolution.region, icons=", ".join(face.icons)),
    )


def actions(s: State, seat: int) -> Iterator[Protect]:
    """Every set of region cards ``seat`` could play, judged on public information: each
    card from its hand, each protecting a different class card hit now (rulings T-7.3)."""
    hand = africa(s).hands[seat]
    hit = plague.cards_hit(s)[seat]
    for k in range(min(len(hand), len(hit)) + 1):
        for cards in combinations(hand, k):
            for classes in permutations(hit, k):
                yield Protect(
                    uses=[Use(card=c, protects=p) for c, p in zip(cards, classes, strict=True)]
                )


def check(s: State, seat: int, action: Protect) -> None:
    """What everyone can check before the cards are revealed."""
    resolution = s.resolution
    assert resolution is not None
    if seat not in resolution.asked:
        raise RulesError(
            N_("T-7.3: seat {seat} is not asked to play region cards now").format(seat=seat)
        )
    hand = africa(s).hands[seat]
    hit = plague.cards_hit(s)[seat]
    cards = [u.card for u in action.uses]
    classes = [u.protects for u in action.uses]
    if len(set(cards)) != len(cards) or len(set(classes)) != len(classes):
        raise RulesError(
            N_("T-7.3: each region card protects one class card, each class card once")
        )
    for use in action.uses:
        if use.card not in hand:
            raise RulesError(
                N_("T-7.3: {card} is not a region card in your hand").format(card=use.card)
            )
        if use.protects not in hit:
            raise RulesError(
                N_(
                    "T-7.3: the token does not hit your {card} through its icon (hit: {hit})"
                ).format(card=use.protects, hit=", ".join(hit) or "none")
            )


def check_known(action: Protect, known: Mapping[str, str]) -> None:
    """T-7.3, checked by the player's own ``pbem`` on its hand before it signs."""
    for use in action.uses:
        face = known.get(use.card)
        if face is not None:
            _shows(data.region_cards()[face], use, "you")


def _shows(card: data.RegionCard, use: Use, who: str) -> None:
    icon = data.icons()[use.protects]
    if not regiondeck.shows(card, icon):
        raise RulesError(
            N_(
                "T-7.3: {who} played {card} ({id}, {region}: {icons}) to protect the "
                "{protects}, but it shows neither {icon} nor ?"
            ).format(
                who=who,
                card=use.card,
                id=card.id,
                region=card.region,
                icons=" ".join(card.icons),
                protects=use.protects,
                icon=icon,
            )
        )


def apply(s: State, chosen: Mapping[int, Protect]) -> None:
    """Every asked seat has answered: the cards leave the hands, to be revealed."""
    resolution = s.resolution
    assert resolution is not None
    if sorted(chosen) != resolution.asked:
        raise RulesError(N_("T-7.3: every player asked answers, and only they"))
    for seat, action in sorted(chosen.items()):
        check(s, seat, action)
    table = africa(s)
    for seat, action in sorted(chosen.items()):
        for use in action.uses:
            table.hands[seat].remove(use.card)
            resolution.played.append(PlayedCard(seat=seat, card=use.card, protects=use.protects))
    resolution.asked = []


def unrevealed(s: State) -> list[str]:
    resolution = s.resolution
    assert resolution is not None
    return [p.card for p in resolution.played if p.face is None]


def revealing(s: State) -> Reveal:
    return Reveal(items=unrevealed(s))


def revealed(s: State, faces: Mapping[str, str]) -> None:
    """The played cards are public: everyone checks each shows its class's icon or "?"."""
    resolution = s.resolution
    assert resolution is not None
    for played in resolution.played:
        if played.face is None:
            (face,) = regiondeck.faces_of(s, [played.card], faces)
            _shows(
                data.region_cards()[face],
                Use(card=played.card, protects=played.protects),
                f"seat {played.seat}",
            )
            played.face = face
