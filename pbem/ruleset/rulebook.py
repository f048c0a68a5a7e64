"""A game's rules in the project's own words, read by numbered section.

Each ruleset may ship its rules as a markdown file (``Ruleset.rules_text``) whose headings
begin with a section id: ``## R-6 Day``, ``### R-6.3 Sea areas``, ``#### T-5.C.3 Spread``.
Prompts and errors cite these ids (``R-5.1: ...``, ``T-5 C.3: ...``), so a player can look
up the rule a message names (``pbem rules rattus "T-5 C.3"``), and a page can show the
sections its current decision cites. Rulings (where the sources do not decide) are marked
``[ruling`` in the text, so that a reader can tell them from the sources' rules.

Citations are written two ways in messages, ``T-5 C.3`` and ``R-7.B``; ``normalize`` turns
both into the dotted id the headings use (``T-5.C.3``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

HEADING = re.compile(r"^(#{2,6}) ([A-Z]-[0-9]+(?:\.[0-9A-Z]+)*) (.+)$")
"""A numbered heading: its level, its section id (a game's own capital letter: Rattaneer's
``R-``, Rattus's ``T-``, a third game's another), its title."""

CITATION = re.compile(r"\b[A-Z]-[0-9]+(?:\.(?:[0-9]+|[A-Z]\b))*(?: [A-D](?:\.[0-9]+)?\b)?")
"""A section id as messages write it: ``R-6.3.3``, ``R-7.B``, ``T-5 C.3``, ``T-6.10``."""

ITEM = re.compile(r"^- \*\*(.+?)\*\*:? ?(.*)$")
"""A list item that explains a bold term."""

RULING = "[ruling"
"""How the text marks a ruling: ``**[ruling]**`` or ``[ruling: why]``."""


def normalize(citation: str) -> str:
    """The heading id of a citation: ``t-5 c.3`` -> ``T-5.C.3`` (spaces read as dots)."""
    return ".".join(citation.strip().upper().replace(" ", ".").split("."))


def citations(text: str) -> list[str]:
    """The section ids ``text`` cites, normalized, in order of first appearance."""
    found: list[str] = []
    for match in CITATION.finditer(text):
        section = normalize(match.group())
        if section not in found:
            found.append(section)
    return found


def lookup_hint(game: str, text: str) -> str | None:
    """The command that shows the sections ``text`` cites: ``pbem rules rattus T-6.8``."""
    cited = citations(text)
    if not cited:
        return None
    return f"Rules: pbem rules {game} " + " ".join(cited)


@dataclass
class Section:
    """One numbered section: its own text and the sections under it."""

    id: str
    title: str
    level: int
    body: str
    children: list[Section] = field(default_factory=list)

    def text(self) -> str:
        """The section as markdown, with everything under it."""
        parts = [f"{'#' * self.level} {self.id} {self.title}", self.body.strip()]
        parts += [child.text() for child in self.children]
        return "\n\n".join(p for p in parts if p)

    def plain(self) -> str:
        """The section's own text without markdown emphasis: for hover titles."""
        return " ".join(self.body.replace("**", "").replace("`", "").split())

    def items(self) -> dict[str, str]:
        """The section's list items that begin with a bold term (``- **M**: majority...``),
        by term, in plain text: the glossary a legend shows."""
        found: dict[str, str] = {}
        term = None
        for line in self.body.splitlines():
            item = ITEM.match(line)
            if item is not None:
                term = item.group(1)
                found[term] = item.group(2)
            elif term is not None and line.startswith("  "):
                found[term] += " " + line.strip()
            else:
                term = None
        return {k: " ".join(v.replace("**", "").replace("`", "").split()) for k, v in found.items()}

    @property
    def rulings(self) -> bool:
        """Whether the section, or one under it, holds a ruling."""
        return RULING in self.body or any(child.rulings for child in self.children)

    def walk(self) -> list[Section]:
        return [self, *(s for child in self.children for s in child.walk())]


@dataclass
class Rulebook:
    """A parsed rules text: the part before the first numbered heading, then the tree."""

    title: str
    preface: str
    sections: list[Section]

    def all(self) -> list[Section]:
        """Every section, in the order of the text."""
        return [s for top in self.sections for s in top.walk()]

    def get(self, citation: str) -> Section | None:
        wanted = normalize(citation)
        return next((s for s in self.all() if s.id == wanted), None)

    def text(self) -> str:
        head = [f"# {self.title}", self.preface.strip()]
        return "\n\n".join([*(h for h in head if h), *(s.text() for s in self.sections)]) + "\n"


def parse(markdown: str) -> Rulebook:
    """Read a rules text: the ``#`` title, the preface, then numbered sections, which nest
    by heading level. Any other line, an unnumbered heading included, belongs to the text
    of the section above it."""
    title, preface = "", []
    flat: list[tuple[Section, list[str]]] = []
    for line in markdown.splitlines():
        heading = HEADING.match(line)
        if heading is not None:
            level, ident, name = len(heading.group(1)), heading.group(2), heading.group(3)
            flat.append((Section(id=ident, title=name.strip(), level=level, body=""), []))
        elif not title and not flat and line.startswith("# "):
            title = line[2:].strip()
        else:
            (flat[-1][1] if flat else preface).append(line)
    roots: list[Section] = []
    stack: list[Section] = []
    for section, lines in flat:
        section.body = "\n".join(lines).strip()
        while stack and stack[-1].level >= section.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(section)
        stack.append(section)
    return Rulebook(title=title, preface="\n".join(preface).strip(), sections=roots)


@cache
def load(path: Path) -> Rulebook:
    """The rules text at ``path``, parsed once per process."""
    return parse(path.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Entry:
    """One thing a topic explains: a class card, a token symbol, a companion card."""

    name: str
    text: str
    section: str | None = None
    """The section that holds its rule, if one does."""


@dataclass(frozen=True)
class Topic:
    """A reference list drawn from a game's data, such as every class card and its
    ability: ``pbem rules GAME TOPIC`` prints it, and a page's legend shows it."""

    name: str
    title: str
    intro: str
    entries: tuple[Entry, ...]

    def text(self) -> str:
        lines = [f"# {self.title}", "", self.intro, ""]
        for entry in self.entries:
            where = f" ({entry.section})" if entry.section else ""
            lines.append(f"- {entry.name}{where}: {entry.text}")
        return "\n".join(lines) + "\n"
