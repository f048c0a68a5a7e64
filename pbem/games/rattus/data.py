"""The printed components (T-1), read from ``data/`` and validated by schema.

Board links and token faces are reconstructions (T-10). They live in data files, never in
code, so that a corrected file that fits the same schema replaces them without a code
change (and changes the ruleset's content hash, as it should).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, Field, model_validator

from pbem.core.rules import Model

DATA = Path(__file__).parent / "data"

Icon = Literal["peasantry", "bourgeoisie", "church", "chivalry", "magic", "royalty", "islam"]


class RegionInfo(Model):
    """A region and the player counts that use it, without and with Africanus."""

    name: str
    board: Literal["europe", "north-africa"]
    base_players: list[int]
    africanus_players: list[int]


class Link(Model):
    """Two regions are neighbours through a shared border or a printed arrow."""

    a: str
    b: str
    kind: Literal["border", "arrow"]


class BoardFile(Model):
    reconstruction: bool
    note: str
    regions: list[RegionInfo]
    links: list[Link]

    @model_validator(mode="after")
    def _consistent(self) -> BoardFile:
        names = [r.name for r in self.regions]
        if len(set(names)) != len(names):
            raise ValueError("a region name appears twice")
        for link in self.links:
            if link.a not in names or link.b not in names or link.a == link.b:
                raise ValueError(f"link {link.a}-{link.b} does not join two known regions")
        return self


class TokenFace(Model):
    """The face of a rat token: the threshold and its symbols (T-1, T-7)."""

    id: str
    threshold: int = Field(ge=1, le=6)
    icons: list[Icon]
    majority: bool
    all: bool
    start: bool


class TokenFile(Model):
    reconstruction: bool
    start_marked: str
    remove_unseen: dict[str, int] = Field(description="tokens removed unseen, by player count")
    tokens: list[TokenFace]

    @model_validator(mode="after")
    def _unique(self) -> TokenFile:
        ids = [t.id for t in self.tokens]
        if len(set(ids)) != len(ids):
            raise ValueError("a token id appears twice")
        return self


class ClassCard(Model):
    """A class card and the icon of its class, which rat tokens hit (T-1, T-7.2)."""

    name: str
    icon: Icon
    expansion: Literal["base", "africanus"]


class ClassFile(Model):
    source: str
    classes: list[ClassCard]


M = TypeVar("M", bound=BaseModel)


def _load(model: type[M], name: str) -> M:
    return model.model_validate_json((DATA / name).read_bytes())


@dataclass(frozen=True)
class Board:
    """The regions in use in one game, in the board file's order, and their neighbours.

    Regions not in use do not exist for that game, so links to them are dropped (T-1)."""

    regions: tuple[str, ...]
    links: Mapping[str, tuple[str, ...]]

    def neighbours(self, region: str) -> tuple[str, ...]:
        return self.links[region]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.links[a]


@cache
def board(seats: int) -> Board:
    """The base-game board for ``seats`` players (T-1)."""
    data = _load(BoardFile, "rattus-board.json")
    used = tuple(r.name for r in data.regions if seats in r.base_players)
    links: dict[str, list[str]] = {name: [] for name in used}
    for link in data.links:
        if link.a in links and link.b in links:
            links[link.a].append(link.b)
            links[link.b].append(link.a)
    order = {name: i for i, name in enumerate(used)}
    return Board(used, {k: tuple(sorted(v, key=order.__getitem__)) for k, v in links.items()})


@cache
def tokens() -> TokenFile:
    """The 49 base-game rat tokens (T-1) and how many to remove unseen (T-3.4)."""
    return _load(TokenFile, "rattus-tokens-base.json")


@cache
def faces() -> Mapping[str, TokenFace]:
    """Token faces by id, for applying a revealed token (T-7)."""
    return {t.id: t for t in tokens().tokens}


@cache
def class_cards() -> tuple[ClassCard, ...]:
    """The six base class cards in play (T-2), in the file's order."""
    data = _load(ClassFile, "rattus-classes.json")
    return tuple(c for c in data.classes if c.expansion == "base")
