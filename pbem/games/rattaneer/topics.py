"""The reference list of ``pbem rules rattaneer cards`` and of the page's legend: every card
of the card set a game plays (R-9), read from the set itself, so a custom set embedded in a
game is explained as faithfully as the shipped one."""

from __future__ import annotations

from pbem.games.rattaneer.cards import CardSet, CompanionCard, PlunderCard
from pbem.games.rattaneer.state import Options
from pbem.games.rattaneer.text import BONUS_TEXT
from pbem.ruleset.rulebook import Entry, Topic


def companion_text(card: CompanionCard) -> str:
    """A companion card in words: ``cost 2 coins, 0 VP; at the end +1 VP per ...``."""
    text = f"cost {card.cost} coin{'s' if card.cost != 1 else ''}, {card.vp} VP"
    if card.bonus is not None:
        bonus = BONUS_TEXT[card.bonus.counts].format(per=card.bonus.per)
        text += f"; at the end +{card.bonus.vp} VP {bonus}"
    return text


def companion_entries(cards: CardSet) -> list[Entry]:
    return [Entry(c.id, companion_text(c), "R-9.1") for c in cards.companions]


def card_entries(card_set: CardSet) -> list[Entry]:
    """Every companion, sea and treasure card of a set, and the treasure spots."""
    entries = companion_entries(card_set)
    for sea in card_set.sea:
        if isinstance(sea, PlunderCard):
            text = f"plunder, strength {sea.strength}, {sea.vp} VP once face down"
            section = "R-6.3.2"
        else:
            text = (
                f"trade ship, strength {sea.strength}, turns up to {sea.capacity} plunder face down"
            )
            section = "R-6.3.3"
        entries.append(Entry(sea.id, f"{text} ({sea.copies} in the sea deck)", section))
    spots = ", ".join(map(str, card_set.treasure_spots))
    entries.append(Entry("secret treasure card", f"spots worth {spots} VP", "R-9.3"))
    for treasure in card_set.treasures:
        copies = f" ({treasure.copies} cards)" if treasure.copies > 1 else ""
        entries.append(Entry(treasure.id, f"treasure card, {treasure.vp} VP{copies}", "R-9.4"))
    return entries


def cards(options: Options) -> Topic:
    """Every card of the game's set (``card_entries``), and which set it is."""
    card_set = options.card_set()
    which = (
        "the shipped set"
        if options.cards_hash is None
        else f"the set embedded in the game (sha256 {options.cards_hash})"
    )
    kind = "a reconstruction" if card_set.reconstruction else "not a reconstruction"
    return Topic(
        name="cards",
        title="Cards",
        intro=(
            f"The cards of {which}, {kind}: {card_set.explanation} Companion cards cost coins "
            f"at the Tavern (R-6.2) and score VP and bonuses at the end (R-8.2); sea cards lie "
            f"under the sea areas, each adding its strength to what an attack needs (R-6.3); "
            f"{card_set.treasures_drawn} treasure cards lie on the island with option "
            f"treasures (R-2.7)."
        ),
        entries=tuple(card_entries(card_set)),
    )
