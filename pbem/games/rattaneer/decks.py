"""Drawing from decks kept as sorted multisets (architecture §5).

A deck whose cards everyone sees when drawn is never shuffled ahead: each draw picks
uniformly from what remains at that moment, so nobody, not even a verifier holding the
whole file, can know the next card before the draw is fixed.
"""

from __future__ import annotations

from pbem.crypto.randomness import Rng


def draw(deck: list[str], rng: Rng) -> str:
    """Remove and return a uniformly random card; the deck stays sorted."""
    return deck.pop(rng.below(len(deck)))


def draw_up_to(deck: list[str], count: int, rng: Rng) -> list[str]:
    """Draw ``count`` cards, or what is left if the deck has fewer (R-7.B)."""
    return [draw(deck, rng) for _ in range(min(count, len(deck)))]
