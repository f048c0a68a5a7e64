"""The Africanus region cards as a sealed deck (T-3.5, T-4, T-6.7, T-6.8).

The engine seals and shuffles the cards of the regions in use (deck ``regions``), so the
rules deal by position: the first three handles to the first seat, and so on, each hand
opened to its holder alone. Cards are drawn from the front of the face-down deck. Discards
lie face up, so they are kept as card ids; when a draw needs more cards than the deck holds,
the discards are sealed and shuffled anew by every seat as a new deck (``regions-2``,
``regions-3``, ...) put under what is left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pbem.format.i18n import N_
from pbem.games.rattus import data
from pbem.games.rattus.state import Africa, CardDraw, State, africa, board_of
from pbem.ruleset.rules import Reshuffle, Reveal, RulesError

DECK = "regions"
HAND = 3
"""Region cards dealt to each player (T-3.5)."""
DRAW = 3
"""Cards drawn by the Astronomer and revealed by the Explorer (T-6.7, T-6.8)."""


def card_ids(seats: int) -> list[str]:
    """T-3.5: the cards of the regions in use; the others are removed before the shuffle."""
    used = set(data.board(seats, True).regions)
    return [c.id for c in data.region_cards().values() if c.region in used]


def initial(seats: int) -> Africa:
    """T-3.5: three cards to each player (by position: the engine's shuffle made it random),
    the rest face down."""
    handles = [f"{DECK}/{i}" for i in range(len(card_ids(seats)))]
    return Africa(
        deck=handles[HAND * seats :],
        hands=[handles[HAND * k : HAND * (k + 1)] for k in range(seats)],
        diplomats=[[] for _ in range(seats)],
        palace_diplomats=[0] * seats,
    )


def dealing(s: State) -> Reveal | None:
    """The next hand to open to its holder at setup, if any is left (T-3.5)."""
    table = s.africa
    if table is None or table.dealt >= s.seats:
        return None
    return Reveal(items=table.hands[table.dealt], to=table.dealt)


def dealt(s: State) -> None:
    africa(s).dealt += 1


def can_draw(s: State) -> bool:
    """Whether any card can be drawn: from the deck, or the discards made a deck anew."""
    table = africa(s)
    return bool(table.deck or table.discards)


def start_draw(s: State, ability: Literal["Astronomer", "Explorer"]) -> None:
    """Begin drawing 3 cards for an ability."""
    if not can_draw(s):
        raise RulesError(
            N_("{ability}: no region card is left to draw (all are in hands)").format(
                ability=ability
            )
        )
    africa(s).draw = CardDraw(ability=ability)
    _fill(s)


def _fill(s: State) -> None:
    """Take the cards, unless the deck holds fewer than 3 and discards could be reshuffled
    first (T-6: the region deck empty, shuffle the discards into a new deck)."""
    table = africa(s)
    assert table.draw is not None
    if len(table.deck) < DRAW and table.discards:
        return
    table.draw.cards, table.deck = table.deck[:DRAW], table.deck[DRAW:]


def reshuffling(s: State) -> Reshuffle:
    table = africa(s)
    return Reshuffle(deck=f"{DECK}-{table.decks + 1}", items=sorted(table.discards))


def reshuffled(s: State, done: Reshuffle) -> None:
    """The discards are a new face-down deck under the old one's rest; then draw."""
    if done != reshuffling(s):
        raise RulesError(N_("T-6: this reshuffle of the region discards was not awaited"))
    table = africa(s)
    table.deck += [f"{done.deck}/{i}" for i in range(len(done.items))]
    table.discards = []
    table.decks += 1
    _fill(s)


def face(s: State, face_id: str) -> data.RegionCard:
    """A publicly revealed region card, checked to be a card of this game."""
    card = data.region_cards().get(face_id)
    if card is None or card.region not in board_of(s).regions:
        raise RulesError(
            N_("T-3.5: {face_id!r} is not a region card of this game").format(face_id=face_id)
        )
    return card


def faces_of(s: State, handles: list[str], faces: Mapping[str, str]) -> list[str]:
    """The revealed ids of ``handles``, in their order, each checked."""
    if any(h not in faces for h in handles):
        raise RulesError(N_("T-4: a public reveal of region cards needs every face"))
    return [face(s, faces[h]).id for h in handles]


def discard(s: State, face_ids: list[str]) -> None:
    africa(s).discards += face_ids


def shows(card: data.RegionCard, icon: str) -> bool:
    """Whether a region card can protect a class card of ``icon`` (T-7.3: "?" is wild)."""
    return icon in card.icons or data.WILD in card.icons
