"""Counts and articles in messages: no "1 coins", no "a unseal"."""

from __future__ import annotations

from pbem.format.words import a, plural


def test_plural_takes_the_count_s_form() -> None:
    assert plural(1, "coin") == "1 coin" and plural(0, "coin") == "0 coins"
    assert plural(2, "henchman", "henchmen") == "2 henchmen"


def test_the_article_follows_the_first_letter() -> None:
    assert [a(word) for word in ("call", "handover", "unseal", "envelope")] == [
        "a call",
        "a handover",
        "an unseal",
        "an envelope",
    ]
