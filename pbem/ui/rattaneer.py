"""Rattaneer by clicking: the Morning's placement (R-5.1) is made on the board, every other
decision of the game is a button of its legal actions.

A placement is clicked piece by piece: the areas of the two pirates, then one area (or X,
unused) for each available henchman. After every click the placement so far is put to the
rules as a whole move, the henchmen not placed yet standing on X (where R-5.1 lets any
henchman stand), so that the page shows the rule's refusal at the click that breaks it.
The ruleset lists only a sample of placements, so which areas may come next is found by
trying each one with ``check``.
"""

from __future__ import annotations

from pydantic import BaseModel

from pbem.format.i18n import N_
from pbem.games.rattaneer.actions import Place
from pbem.games.rattaneer.notation import X
from pbem.games.rattaneer.state import AREA_NAMES, AREAS, PIRATES, State
from pbem.ruleset.rules import Ruleset
from pbem.ui.pickers import Judged, Picker, Verb

VERB = "pirates"
AREA_WORDS = [str(n) for n in AREAS]


class Placement(Picker):
    """The Morning's sealed placement of the reader's pieces."""

    def __init__(self, rules: Ruleset, state: BaseModel, seat: int) -> None:
        super().__init__(rules, state, seat)
        assert isinstance(state, State)
        self.henchmen = state.players[seat].henchmen

    def verbs(self) -> list[Verb]:
        return [Verb(VERB, N_("Place your pieces (R-5.1)"), "pirates A B, henchmen H …")]

    def buttons(self) -> list[str]:
        return []

    def names(self, words: list[str]) -> dict[str, str]:
        """An area by its number and name (``6 (Tavern)``), X as unused."""
        named = {str(n): f"{n} ({AREA_NAMES[n]})" for n in AREAS}
        return {w: named.get(w, N_("X (unused)") if w == X else w) for w in words}

    def judge(self, verb: str | None, picks: list[str]) -> Judged:
        if picks and not self._possible(picks):
            tried = self._first_refusal(picks)
            return Judged("refused", VERB, picks[:-1], message=tried)
        more = len(picks) < PIRATES + self.henchmen
        words = AREA_WORDS + ([X] if len(picks) >= PIRATES else [])
        nexts = [w for w in words if more and self._possible([*picks, w])]
        judged = Judged("partial", VERB, picks, more=more, next=nexts, prompt=self._prompt(picks))
        judged.sealed = _drawn(picks)
        if len(picks) >= PIRATES:
            judged.status = "legal"
            judged.text = self.attempt(self._text(picks)).text
        return judged

    def _text(self, picks: list[str]) -> str:
        """The placement as typed, every henchman not clicked yet on X."""
        henchmen = picks[PIRATES:]
        henchmen += [X] * (self.henchmen - len(henchmen))
        return f"{VERB} {' '.join(picks[:PIRATES])}" + (
            f", henchmen {' '.join(henchmen)}" if henchmen else ""
        )

    def _possible(self, picks: list[str]) -> bool:
        """Whether the rules accept the clicks so far as the start of a placement."""
        if len(picks) >= PIRATES:
            return self.attempt(self._text(picks)).refusal is None
        return any(self._possible([*picks, w]) for w in AREA_WORDS)

    def _first_refusal(self, picks: list[str]) -> str:
        """The rule that refuses the clicks: of the placement itself, or, with one pirate
        clicked, of the first second pirate tried."""
        if len(picks) >= PIRATES:
            return self.attempt(self._text(picks)).refusal or ""
        other = next(w for w in AREA_WORDS if w not in picks)
        return self._first_refusal([*picks, other])

    def _prompt(self, picks: list[str]) -> str:
        if len(picks) < PIRATES:
            if not picks:
                return N_("click the area of your first pirate (R-5.1)")
            return N_("click the area of your second pirate (R-5.1)")
        placed = len(picks) - PIRATES
        if placed == self.henchmen:
            return N_("every piece is placed: sign it, or undo a click")
        return N_(
            "henchman {n} of {of}: click an area, or X to leave it unused"
            " (the henchmen not clicked stay unused)"
        ).format(n=placed + 1, of=self.henchmen)


def _drawn(picks: list[str]) -> Place:
    """The clicks as pieces to draw dashed on the board (not a move: nothing signs it)."""

    def areas(words: list[str]) -> list[int]:
        return [int(w) for w in words if w.isascii() and w.isdigit()]

    return Place(pirates=areas(picks[:PIRATES]), henchmen=areas(picks[PIRATES:]))


def picker(rules: Ruleset, state: BaseModel, seat: int) -> Picker:
    assert isinstance(state, State)
    if state.phase == "morning":
        return Placement(rules, state, seat)
    return Picker(rules, state, seat)
