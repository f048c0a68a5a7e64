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

from pbem.format.i18n import N_, _
from pbem.games.rattus import data
from pbem.games.rattus.notation import USAGE
from pbem.games.rattus.state import State, board_tokens, faces_of, token_name
from pbem.games.rattus.topics import face_text
from pbem.ruleset.rules import Ruleset
from pbem.ui.pickers import Verb, WordPicker

ABILITIES = frozenset({"peasant", "merchant", "monk", "witch", "king", "sultan", "caravan"})
"""Verbs of class abilities that take words: chosen with a button before clicking."""

_SLOT = re.compile(r"<[^>]+>|\[[^\]]+\]")

SLOTS = {
    ("take", "<card>"): N_("the class card to take"),
    ("choose", "<card>"): N_("the region card you keep"),
    ("protect", "<card>"): N_("a region card of your hand"),
    ("protect", "<class>"): N_("the class card it protects"),
    ("witch", "<token>"): N_("a region with a token you want to look at"),
    ("monk", "<to>"): N_("the neighbouring region it moves to"),
    ("merchant", "<from>"): N_("the region your cubes leave"),
    ("merchant", "<to>"): N_("the neighbouring region they move to"),
    ("", "<token>"): N_("a region with a token"),
    ("", "<region>"): N_("a region"),
    ("", "[<region>]"): N_("one more region, or nothing more"),
    ("", "<1-3>"): N_("how many cubes (1 to 3)"),
    ("", "[diplomat]"): N_("diplomat to take your diplomat along, or nothing more"),
}
"""What a click names, by verb and slot of the usage (any verb: ``""``), in words
(English; the page shows them translated)."""


class RattusPicker(WordPicker):
    CHUNKS: ClassVar[dict[str, int]] = {"protect": 2}
    UNORDERED: ClassVar[frozenset[str]] = frozenset({"witch", "spread", "protect"})
    EXPLICIT: ClassVar[frozenset[str]] = ABILITIES

    def usage(self, verb: str) -> str:
        return USAGE[verb][0] if verb in USAGE else verb

    def verbs(self) -> list[Verb]:
        """Each kind of move as a button that reads as a sentence, its notation in the
        hover title."""
        return [Verb(v, self.heading(v), self.usage(v)) for v in self.moves]

    def heading(self, verb: str) -> str:
        """``Monk: move a token to a neighbour (T-6.3)``, from the notation's usage."""
        if verb not in USAGE:
            return verb
        rule, _, what = USAGE[verb][1].partition(": ")
        return f"{verb.capitalize()}: {what} ({rule})"

    def names(self, words: list[str]) -> dict[str, str]:
        """A token by the region it lies in (``Germania#2``), as it may be typed; a region
        card of the reader's hand by its place there (which handles a hand holds is public,
        what they show needs the reader's keys: ``labels`` names them then)."""
        assert isinstance(self.state, State)
        tokens = set(board_tokens(self.state))
        africa = self.state.africa
        hand = list(africa.hands[self.seat]) if africa is not None else []
        out = {w: token_name(self.state, w) for w in words if w in tokens}
        for w in words:
            if w in hand:
                out[w] = _("card {n} of your hand").format(n=hand.index(w) + 1)
        return out

    def describe(self, text: str) -> str:
        verb = text.split()[0] if text.split() else ""
        return USAGE[verb][1] if verb in USAGE else ""

    def slot(self, verb: str, index: int) -> str:
        slots = _SLOT.findall(self.usage(verb).partition("|")[0])
        if not slots:
            return N_("the next word")
        if verb in self.CHUNKS:
            slot = slots[index % len(slots)]
        else:
            slot = slots[min(index, len(slots) - 1)]
        return SLOTS.get((verb, slot)) or SLOTS.get(("", slot)) or slot


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
            out[handle] = _("your {region} card ({icons})").format(
                region=card.region, icons=" ".join(card.icons)
            )
        elif item in faces:
            out[handle] = face_text(faces[item])
    return out
