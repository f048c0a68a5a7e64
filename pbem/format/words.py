"""Words for counts, so that no message says "1 coins" or "step(s)"."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``plural(1, "coin")`` is ``1 coin``, ``plural(3, "coin")`` ``3 coins``; ``many``
    for nouns that do not take an s (``plural(2, "henchman", "henchmen")``)."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def a(noun: str) -> str:
    """``a("call")`` is ``a call``, ``a("unseal")`` ``an unseal``: the article by the first
    letter, which is right for every word pbem puts after it."""
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"
