"""How a ruleset is drawn: the interface each game's view fills in, and the fallback.

The rules packages stay free of presentation: a view reads a ruleset's public state and
lays out a board (coordinates and labels) for a jinja2 SVG template in
``templates/view/``, and lists per-seat facts for the players table. A ruleset without a
view still gets a page: its ``render_text`` table instead of a drawing.

Pieces that stand for a rule (a class card, a companion card, a token's symbols) carry a
``hint``, the rule in words, shown on hover (an SVG ``<title>``); the page's legend prints
the same texts (``BoardView.legend``), and its rules panel the sections the current
decision cites (``BoardView.citations``). What a player may click to decide on the board
(``pbem ui``) carries the word it stands for as ``data-pick`` (an area, a region, a class
card), or the words it may stand for as ``data-picks`` (the face-down tokens of a region).
"""

from __future__ import annotations

import textwrap
import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel

from pbem.ruleset.rulebook import Topic, citations
from pbem.ruleset.rules import Chance, Parallel, Ruleset, Turn
from pbem.view.history import Private
from pbem.view.seats import Seat


@dataclass(frozen=True)
class Column:
    """A column of the players table: a title and one cell per seat."""

    title: str
    cells: list[str]
    hints: list[str] | None = None
    """What each cell's contents mean (shown on hover), or None."""


@dataclass(frozen=True)
class Chip:
    """A seat's piece or count drawn on the board: its colour, its label and a text."""

    x: float
    y: float
    width: float
    seat: Seat | None
    text: str
    dashed: bool = False
    """Drawn with a dashed outline: known to the page's reader only (a sealed placement)."""
    blank: bool = False
    """A free place (no seat holds it), drawn as an empty outline."""
    hint: str = ""
    """What the piece stands for, shown on hover."""
    pick: str = ""
    """The word a player clicks it for (``pbem ui``), e.g. a class card's name; empty:
    it cannot be picked."""


@dataclass(frozen=True)
class Note:
    """A line of text on the board; ``style`` is its CSS class in the SVG."""

    x: float
    y: float
    text: str
    style: str = "note"
    hint: str = ""
    pick: str = ""


ROW = 20
"""Height of a chip's row."""
NOTE = 14
"""Height of a line of text."""
CHAR_W = 6.4
"""A generous average advance of one character of 12 px text, to wrap notes in time."""


WIDE = 12 / CHAR_W
"""How many Latin characters' room a full-width character (Han, kana, ideographic
punctuation) takes: it is as wide as the font is tall."""


def ems(text: str) -> float:
    """``text``'s width in Latin characters: a full-width character counts ``WIDE``."""
    return sum(WIDE if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` Latin characters' room, later lines indented.
    Latin text breaks between words (``textwrap``); Chinese and Japanese, written without
    spaces, may break between any two characters, never before closing punctuation."""
    if ems(text) == len(text):
        return textwrap.wrap(text, width, subsequent_indent="  ")
    lines, line = [], ""
    for c in text:
        if line and ems(line + c) > width and c not in "、。，．・：；）」』!),.:;?":
            lines.append(line.rstrip())
            line = "  " + c.lstrip()
        else:
            line += c
    return [*lines, line.rstrip()] if line.strip() else lines


class Stack:
    """Lays out notes and chips top to bottom from ``(x, y)``, ``width`` wide: how both
    boards fill an area or a side panel whose contents vary from step to step."""

    def __init__(self, x: float, y: float, width: float) -> None:
        self.x, self.y, self.width = x, y, width
        self.notes: list[Note] = []
        self.chips: list[Chip] = []

    def note(self, text: str, style: str = "note", hint: str = "") -> None:
        """A line of text, wrapped to the width (SVG text does not wrap by itself)."""
        for line in wrap(text, int(self.width / CHAR_W)):
            self.notes.append(Note(self.x + 2, self.y + 11, line, style, hint))
            self.y += NOTE + (4 if style == "name" else 0)

    def chip(self, seat: Seat | None, text: str, hint: str = "", pick: str = "") -> None:
        chip = Chip(
            self.x, self.y, self.width, seat, text, blank=seat is None, hint=hint, pick=pick
        )
        self.chips.append(chip)
        self.y += ROW

    def gap(self, height: float = 8) -> None:
        self.y += height


class BoardView:
    """The fallback view: no drawing, the ruleset's text table, no extra columns."""

    template: ClassVar[str | None] = None
    """The SVG template under ``templates/view/``; None: no drawing."""

    def board(
        self, rules: Ruleset, state: BaseModel, seats: list[Seat], private: Private | None
    ) -> Any:
        """The model the SVG template draws."""
        return None

    def text(self, rules: Ruleset, state: BaseModel, seats: list[Seat]) -> str:
        """The ruleset's own table, shown where there is no drawing."""
        return rules.render_text(state, [s.name for s in seats])

    def columns(self, state: BaseModel, seats: list[Seat]) -> list[Column]:
        """Per-seat facts for the players table (coins, cards, score so far)."""
        return []

    def citations(self, rules: Ruleset, state: BaseModel) -> list[str]:
        """The rule sections the pending decision cites, for the rules panel: from the
        words the ruleset asks it with (a prompt, the reason for a draw)."""
        decision = rules.pending(state)
        if isinstance(decision, Turn | Parallel):
            return citations(decision.prompt)
        return citations(decision.reason) if isinstance(decision, Chance) else []

    def legend(self, rules: Ruleset, state: BaseModel, options: dict[str, Any]) -> list[Topic]:
        """What the page's legend prints: by default every topic of the game's rules."""
        return rules.topics(options)
