"""The reference list of ``pbem rules rattaneer cards`` and of the page's legend: every card
of the card set a game plays (R-9), read from the set itself, so a custom set embedded in a
game is explained as faithfully as the shipped one."""

from __future__ import annotations

from pbem.format.i18n import N_
from pbem.games.rattaneer.cards import CardSet, CompanionCard, PlunderCard
from pbem.games.rattaneer.state import Options
from pbem.games.rattaneer.text import BONUS_TEXT
from pbem.ruleset.rulebook import Entry, Topic


def companion_text(card: CompanionCard) -> str:
    """A companion card in words: ``cost 2 coins, 0 VP; at the end +1 VP per ...``."""
    cost = (
        N_("cost {cost} coin, {vp} VP") if card.cost == 1 else N_("cost {cost} coins, {vp} VP")
    ).format(cost=card.cost, vp=card.vp)
    if card.bonus is None:
        return cost
    bonus = BONUS_TEXT[card.bonus.counts].format(per=card.bonus.per)
    return cost + "; " + N_("at the end +{vp} VP {bonus}").format(vp=card.bonus.vp, bonus=bonus)


def companion_entries(cards: CardSet) -> list[Entry]:
    return [Entry(c.id, companion_text(c), "R-9.1") for c in cards.companions]


def card_entries(card_set: CardSet) -> list[Entry]:
    """Every companion, sea and treasure card of a set, and the treasure spots."""
    entries = companion_entries(card_set)
    for sea in card_set.sea:
        if isinstance(sea, PlunderCard):
            text = N_(
                "plunder, strength {strength}, {vp} VP once face down ({copies} in the sea deck)"
            ).format(strength=sea.strength, vp=sea.vp, copies=sea.copies)
            section = "R-6.3.2"
        else:
            text = N_(
                "trade ship, strength {strength}, turns up to {capacity} plunder face down "
                "({copies} in the sea deck)"
            ).format(strength=sea.strength, capacity=sea.capacity, copies=sea.copies)
            section = "R-6.3.3"
        entries.append(Entry(sea.id, text, section))
    spots = ", ".join(map(str, card_set.treasure_spots))
    spots_text = N_("spots worth {spots} VP").format(spots=spots)
    entries.append(Entry("secret treasure card", spots_text, "R-9.3"))
    for treasure in card_set.treasures:
        text = (
            N_("treasure card, {vp} VP ({copies} cards)")
            if treasure.copies > 1
            else N_("treasure card, {vp} VP")
        ).format(vp=treasure.vp, copies=treasure.copies)
        entries.append(Entry(treasure.id, text, "R-9.4"))
    return entries


def cards(options: Options) -> Topic:
    """Every card of the game's set (``card_entries``), and which set it is."""
    card_set = options.card_set()
    which = (
        N_("the shipped set")
        if options.cards_hash is None
        else N_("the set embedded in the game (sha256 {hash})").format(hash=options.cards_hash)
    )
    kind = N_("a reconstruction") if card_set.reconstruction else N_("not a reconstruction")
    return Topic(
        name="cards",
        title=N_("Cards"),
        intro=N_(
            "The cards of {which}, {kind}: {explanation} Companion cards cost coins at the "
            "Tavern (R-6.2) and score VP and bonuses at the end (R-8.2); sea cards lie under "
            "the sea areas, each adding its strength to what an attack needs (R-6.3); "
            "{treasures} treasure cards lie on the island with option treasures (R-2.7)."
        ).format(
            which=which,
            kind=kind,
            explanation=card_set.explanation,
            treasures=card_set.treasures_drawn,
        ),
        entries=tuple(card_entries(card_set)),
    )
