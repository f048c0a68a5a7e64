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

from pbem.ruleset.rules import Model

DATA = Path(__file__).parent / "data"
BOARD, BASE_TOKENS, AFRICANUS_TOKENS, CLASSES, REGION_CARDS = FILES = (
    "rattus-board.json",
    "rattus-tokens-base.json",
    "rattus-tokens-africanus.json",
    "rattus-classes.json",
    "rattus-region-cards.json",
)
"""The data files the rules read: with the modules, what the ruleset's content hash covers."""

Icon = Literal["peasantry", "bourgeoisie", "church", "chivalry", "magic", "royalty", "islam"]
WILD = "?"
"""The wild symbol of a region card: it stands for any class icon (T-7.3)."""


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


class RegionCard(Model):
    """An Africanus region card: the region it names (T-8) and the class icons, or the wild
    "?", it protects with (T-7.3)."""

    id: str
    region: str
    icons: list[Icon | Literal["?"]] = Field(min_length=1, max_length=2)


class RegionCardFile(Model):
    reconstruction: bool
    cards: list[RegionCard]

    @model_validator(mode="after")
    def _unique(self) -> RegionCardFile:
        ids = [c.id for c in self.cards]
        if len(set(ids)) != len(ids):
            raise ValueError("a region card id appears twice")
        return self


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
def board_file() -> BoardFile:
    return _load(BoardFile, BOARD)


@cache
def board(seats: int, africanus: bool = False) -> Board:
    """The board for ``seats`` players, without or with Africanus (T-1): with 5 players
    North Africa joins and Russia and Tartaria drop out, with 6 all 17 regions are used."""
    data = board_file()
    used = tuple(
        r.name
        for r in data.regions
        if seats in (r.africanus_players if africanus else r.base_players)
    )
    links: dict[str, list[str]] = {name: [] for name in used}
    for link in data.links:
        if link.a in links and link.b in links:
            links[link.a].append(link.b)
            links[link.b].append(link.a)
    order = {name: i for i, name in enumerate(used)}
    return Board(used, {k: tuple(sorted(v, key=order.__getitem__)) for k, v in links.items()})


@cache
def tokens(africanus: bool = False) -> TokenFile:
    """The rat tokens (T-1) and how many to remove unseen (T-3.4): the 49 of the base game,
    or with Africanus its own 65 (the base tokens are then not used)."""
    return _load(TokenFile, AFRICANUS_TOKENS if africanus else BASE_TOKENS)


@cache
def faces(africanus: bool = False) -> Mapping[str, TokenFace]:
    """Token faces by id, for applying a revealed token (T-7)."""
    return {t.id: t for t in tokens(africanus).tokens}


@cache
def class_cards() -> tuple[ClassCard, ...]:
    """All ten class cards, base game first, in the file's order."""
    return tuple(_load(ClassFile, CLASSES).classes)


@cache
def icons() -> Mapping[str, Icon]:
    """The icon of each class card, by card name (T-7.2)."""
    return {c.name: c.icon for c in class_cards()}


@cache
def region_cards() -> Mapping[str, RegionCard]:
    """The 51 Africanus region cards by id (T-1, T-10)."""
    return {c.id: c for c in _load(RegionCardFile, REGION_CARDS).cards}
