"""The state of a game of Rattus: everything on the table, all of it public (T-4).

Rat tokens are sealed items (DESIGN §7): the state holds only their handles
(``"start/3"``, ``"tokens/17"``), never a face, except the faces of tokens already revealed
to everyone. Everything is kept in lists in a fixed order (board order, seat order) so that
a state read back from canonical JSON behaves exactly like the one that was written.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pbem.core.rules import Model, Result, RulesError
from pbem.games.rattus import data

Phase = Literal["setup", "start", "turn", "final_round", "final_plague", "over"]

CUBES = 20
"""Cubes per player colour (T-1)."""


class Options(Model):
    """Game options (T-2); Africanus is not implemented yet, so it is always off."""

    africanus: bool = False


class RegionState(Model):
    name: str
    tokens: list[str] = Field(default_factory=list, description="handles of face-down tokens")
    cubes: list[int] = Field(description="cubes of each seat")


class CardState(Model):
    name: str
    holder: int | None = Field(default=None, description="None: in the supply (T-3.1)")


class TurnProgress(Model):
    """What the seat acting now has done in its turn (or its final-round turn)."""

    took: bool = False
    placed: bool = False
    moved: bool = Field(default=False, description="the plague has moved: C has begun")
    used: list[str] = Field(default_factory=list, description="class cards used, sorted")


class WitchLook(Model):
    """The active player's Witch look (T-6.5): the private reveal, then swap or keep."""

    tokens: list[str]
    seen: bool = False


class Spreading(Model):
    """New tokens to place around the plague region (T-5 C.3)."""

    region: str
    count: int


class Resolution(Model):
    """A region being resolved (T-7); ``next`` is the token awaiting its public reveal. The
    active player chooses the order (in the final plague the triggering player is active)."""

    region: str
    next: str | None = None


class RevealedToken(Model):
    """A revealed, discarded token and what it did: the public discard pile (T-7.4)."""

    handle: str
    face: str
    region: str
    broke_out: bool
    losses: list[int]


class State(Model):
    options: Options
    seats: int
    phase: Phase = "setup"
    regions: list[RegionState]
    token_supply: list[str] = Field(description="face-down supply, drawn from the front")
    removed: list[str] = Field(default_factory=list, description="removed unseen (T-3.4)")
    revealed: list[RevealedToken] = Field(default_factory=list)
    cube_supply: list[int]
    palace: list[int]
    cards: list[CardState]
    plague: str | None = None
    start_player: int | None = None
    active: int = 0
    turn: int = 0
    progress: TurnProgress = Field(default_factory=TurnProgress)
    start_order: list[int] = Field(default_factory=list, description="snake order left (T-3.8)")
    final_order: list[int] = Field(default_factory=list, description="final round left (T-9.2)")
    final_regions: list[str] = Field(default_factory=list, description="final plague (T-9.3)")
    trigger: int | None = None
    witch: WitchLook | None = None
    spread: Spreading | None = None
    resolution: Resolution | None = None
    result: Result | None = None


def board_of(s: State) -> data.Board:
    """The board of this game; the one place that will look at Africanus."""
    return data.board(s.seats)


def region(s: State, name: str) -> RegionState:
    for r in s.regions:
        if r.name == name:
            return r
    raise RulesError(f"T-1: {name} is not a region in use in this game")


def holder(s: State, card: str) -> int | None:
    for c in s.cards:
        if c.name == card:
            return c.holder
    raise RulesError(f"T-2: {card} is not a class card in play")


def cards_of(s: State, seat: int) -> list[str]:
    return [c.name for c in s.cards if c.holder == seat]


def can_use(s: State, seat: int, card: str) -> bool:
    """Each class card held may be used once in a turn (T-5)."""
    return holder(s, card) == seat and card not in s.progress.used


def mark_used(s: State, card: str) -> None:
    s.progress.used = sorted([*s.progress.used, card])


def token_region(s: State, handle: str) -> RegionState:
    for r in s.regions:
        if handle in r.tokens:
            return r
    raise RulesError(f"T-4: token {handle} is not on the board")


def board_tokens(s: State) -> list[str]:
    return [h for r in s.regions for h in r.tokens]
