"""The Rattus map for drawing: region outlines, label points and sea-link arrows.

Kept in a data file beside the board data (``rattus-map.json``), like every other
component, so that a better drawing replaces it without a code change. It is read through
this schema; whether it agrees with the board's links (neighbours share an outline edge,
others never touch, one arrow per sea link) is checked by the tests.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated

from pydantic import Field, model_validator

from pbem.games.rattus.data import DATA
from pbem.ruleset.rules import Model

Point = tuple[int, int]


class MapRegion(Model):
    name: str
    outline: Annotated[list[Point], Field(min_length=3)]
    """Corners in order; a shared border uses the same two corners in both regions."""
    label: Point
    """Where the name goes; the region's pieces are drawn below it."""


class SeaLink(Model):
    a: str
    b: str
    path: Annotated[list[Point], Field(min_length=2)]
    """The arrow's line, from near ``a`` to near ``b``, drawn with heads at both ends."""


class MapFile(Model):
    note: str
    regions: list[MapRegion]
    sea_links: list[SeaLink]

    @model_validator(mode="after")
    def _known_names(self) -> MapFile:
        names = [r.name for r in self.regions]
        if len(set(names)) != len(names):
            raise ValueError("a region is drawn twice")
        for link in self.sea_links:
            if link.a not in names or link.b not in names:
                raise ValueError(f"sea link {link.a}-{link.b} names a region with no outline")
        return self

    def region(self, name: str) -> MapRegion:
        for r in self.regions:
            if r.name == name:
                return r
        raise KeyError(f"rattus-map.json has no outline for region {name!r}")


@cache
def rattus_map() -> MapFile:
    return MapFile.model_validate_json((DATA / "rattus-map.json").read_bytes())
