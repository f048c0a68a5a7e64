"""Rattus by clicking: a class card to take, a region to place in, the plague's path, an
ability's choices, the region cards to play against a token.

Every Rattus action is its verb and then its words in field order (``notation``), and the
ruleset lists every legal action in full, so the shared ``WordPicker`` does the work; this
module only says how the words group and read. The Witch's tokens, the spreading targets
and the region cards played are sets (the action models sort them), so they may be
clicked in any order; a region card and the class it protects are one group. Abilities
are chosen first: a click on a region means placing, or moving the plague, unless the
player asked for the Merchant.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel

from pbem.games.rattus import data
from pbem.games.rattus.notation import USAGE
from pbem.games.rattus.state import State, faces_of
from pbem.games.rattus.topics import face_text
from pbem.ruleset.rules import Ruleset
from pbem.ui.pickers import WordPicker

ABILITIES = frozenset({"peasant", "merchant", "monk", "witch", "king", "sultan", "caravan"})
"""Verbs of class abilities that take words: chosen with a button before clicking."""

_SLOT = re.compile(r"<[^>]+>|\[[^\]]+\]")


class RattusPicker(WordPicker):
    CHUNKS: ClassVar[dict[str, int]] = {"protect": 2}
    UNORDERED: ClassVar[frozenset[str]] = frozenset({"witch", "spread", "protect"})
    EXPLICIT: ClassVar[frozenset[str]] = ABILITIES

    def usage(self, verb: str) -> str:
        return USAGE[verb][0] if verb in USAGE else verb

    def describe(self, text: str) -> str:
        verb = text.split()[0] if text.split() else ""
        return USAGE[verb][1] if verb in USAGE else ""

    def slot(self, verb: str, index: int) -> str:
        slots = _SLOT.findall(self.usage(verb).partition("|")[0])
        if not slots:
            return "the next word"
        if verb in self.CHUNKS:
            return slots[index % len(slots)]
        return slots[min(index, len(slots) - 1)]


def picker(rules: Ruleset, state: BaseModel, seat: int) -> RattusPicker:
    return RattusPicker(rules, state, seat)


def labels(state: BaseModel, known: Mapping[str, str]) -> dict[str, str]:
    """What the reader's own items are, for the buttons that name them: a region card in
    hand by its region and icons, a token the Witch showed by its face."""
    assert isinstance(state, State)
    cards = data.region_cards()
    faces = faces_of(state)
    out: dict[str, str] = {}
    for handle, item in known.items():
        if item in cards:
            card = cards[item]
            out[handle] = f"{card.region} ({' '.join(card.icons)})"
        elif item in faces:
            out[handle] = face_text(faces[item])
    return out
