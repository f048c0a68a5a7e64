"""The rules a page shows: the sections its current decision cites, as HTML.

The rules text is markdown of a narrow kind (paragraphs, ``- `` lists, ``**bold**``,
```code```), so a few lines turn it into blocks a template lays out; everything is escaped
first, so nothing in a rules text can inject markup into the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup, escape

from pbem.ruleset.rulebook import RULING, Rulebook, Section

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Block:
    """A paragraph (``items`` empty) or a list (``text`` empty) of a section's text."""

    text: Markup
    items: tuple[Markup, ...] = ()


@dataclass(frozen=True)
class Shown:
    """A section as the panel shows it, with its blocks and the sections under it."""

    id: str
    title: str
    depth: int
    blocks: tuple[Block, ...]
    rulings: bool


def inline(text: str) -> Markup:
    """Escape ``text``, then mark up its bold and code spans."""
    html = str(escape(" ".join(text.split())))
    html = _BOLD.sub(r"<strong>\1</strong>", html)
    return Markup(_CODE.sub(r"<code>\1</code>", html))


def blocks(body: str) -> tuple[Block, ...]:
    out: list[Block] = []
    for chunk in (c for c in body.split("\n\n") if c.strip()):
        lines = chunk.strip().splitlines()
        if lines[0].startswith("- "):
            items: list[str] = []
            for line in lines:
                if line.startswith("- "):
                    items.append(line[2:])
                else:
                    items[-1] += " " + line.strip()
            out.append(Block(Markup(""), tuple(inline(i) for i in items)))
        else:
            out.append(Block(inline(chunk)))
    return tuple(out)


def shown(book: Rulebook | None, cited: list[str]) -> list[Shown]:
    """The cited sections that exist, each with the sections under it; a section inside
    another cited one is not shown twice."""
    if book is None:
        return []
    found = [s for s in (book.get(c) for c in cited) if s is not None]
    inside = {d.id for s in found for d in s.walk()[1:]}
    out: list[Shown] = []
    for section in found:
        if section.id not in inside and section.id not in {s.id for s in out}:
            out += _flatten(section, section.level)
    return out


def _flatten(section: Section, top: int) -> list[Shown]:
    depth, marked = section.level - top, RULING in section.body
    here = Shown(section.id, section.title, depth, blocks(section.body), marked)
    return [here, *(s for child in section.children for s in _flatten(child, top))]
