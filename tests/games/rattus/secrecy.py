"""Scanning game files for the face of any sealed item that is not public (T-4).

A rat token's or region card's face may appear in a file only once it is public: as its id
in the cached public state. What would betray a hidden one: its id (a JSON string), or the
group point that stands for it in its deck (``deck.item_point``), as base64url or hex. The
file never needs a raw item point at all (it holds re-randomized ciphertexts, shares and
proofs), so every item point of every deck is forbidden everywhere, public or not.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pbem.crypto import deck
from pbem.format.canonical import b64e
from pbem.format.gamefile import GameFile
from pbem.games.rattus import Rattus, regiondeck

RESHUFFLES = 6
"""Region decks made anew that a scan looks for (``regions-2`` ... ``regions-7``)."""


def _public_ids(public: Mapping[str, Any] | None) -> set[str]:
    """Faces the public state shows: revealed tokens (also one waiting for region cards),
    and region cards face up."""
    if not public:
        return set()
    ids = {t["face"] for t in public["revealed"]}
    table = public.get("africa")
    if table:
        ids |= set(table["discards"])
        ids |= {f for hand in table["shown"] or [] for f in hand}
        if table["draw"]:
            ids |= set(table["draw"]["faces"])
    resolution = public.get("resolution")
    if resolution:
        ids |= {p["face"] for p in resolution["played"] if p["face"]}
        ids |= {resolution["face"]} - {None}
    return ids


class Scanner:
    """Scans each version of one game's file as it grows: every step once when it is
    written (the last batch again while it fills), and the cached public state each time."""

    def __init__(self, rules: Rattus, options: Mapping[str, Any], seats: int) -> None:
        decks = dict(rules.sealed_decks(options, seats))
        if regiondeck.DECK in decks:
            for k in range(2, RESHUFFLES + 2):
                decks[f"{regiondeck.DECK}-{k}"] = decks[regiondeck.DECK]
        self.ids = {item for items in decks.values() for item in items}
        self.points = [
            form
            for name, items in decks.items()
            for item in items
            for point in [deck.item_point(name, item)]
            for form in (b64e(point), point.hex())
        ]
        self.ever_public: set[str] = set()
        self.steps = 0
        self.versions = 0

    def forms(self) -> list[str]:
        return self.points + [json.dumps(i) for i in sorted(self.ids - self.ever_public)]

    def scan(self, game: GameFile) -> None:
        """Fail naming the step if a hidden face is in this version of the file."""
        public = game.state.public if game.state else None
        self.ever_public |= _public_ids(public)
        secret = [json.dumps(i) for i in sorted(self.ids - self.ever_public)]
        if not self.versions:
            text = json.dumps(game.genesis.model_dump(mode="json"))
            assert not [form for form in self.points + secret if form in text], "genesis leaks"
        first = max(self.steps - 1, 0)
        for index, step in enumerate(game.steps[first:], start=first):
            text = json.dumps(step.model_dump(mode="json"))
            leaks = [form for form in self.points + secret if form in text]
            assert not leaks, f"step {index} holds hidden faces: {leaks}"
        state_text = json.dumps(public)
        assert not [i for i in secret if i in state_text], "the public state holds a hidden face"
        self.steps = len(game.steps)
        self.versions += 1

    def final(self, text: str) -> None:
        """The whole finished file at once, for every form."""
        assert not [form for form in self.forms() if form in text]
