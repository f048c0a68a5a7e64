"""The state of a game of Rattus: everything on the table, all of it public (T-4).

Rat tokens and region cards are sealed items (architecture §7): the state holds only their
handles (``"start/3"``, ``"tokens/17"``, ``"regions/5"``), never a face, except the faces of
items already revealed to everyone. Everything is kept in lists in a fixed order (board
order, seat order) so that a state read back from canonical JSON behaves exactly like the
one that was written. What only Africanus uses lives in ``State.africa``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import Field

from pbem.format.i18n import N_
from pbem.games.rattus import data
from pbem.ruleset.rules import Model, Result, RulesError

Phase = Literal["setup", "start", "caravan", "turn", "final_round", "final_plague", "over"]

CUBES = 20
"""Cubes per player colour (T-1)."""


class Options(Model):
    """Game options (T-2)."""

    africanus: bool = False
    classes: list[str] | None = Field(
        default=None,
        description="Africanus: the class cards in play, in the data file's order; "
        "None: drawn at random in the setup draw",
    )


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


class PlayedCard(Model):
    """A region card played against the plague (T-7.3): it protects one class card of its
    player for the rest of the region's resolution; its face is public once revealed."""

    seat: int
    card: str = Field(description="handle of the region card")
    protects: str = Field(description="the class card it protects")
    face: str | None = None


class Resolution(Model):
    """A region being resolved (T-7); ``next`` is the token awaiting its public reveal. The
    active player chooses the order (in the final plague the triggering player is active).

    With Africanus a revealed token that hits someone who could protect themselves waits in
    ``token``/``face`` while the ``asked`` seats choose region cards (T-7.3)."""

    region: str
    next: str | None = None
    token: str | None = None
    face: str | None = None
    asked: list[int] = Field(default_factory=list)
    played: list[PlayedCard] = Field(default_factory=list)


class CardDraw(Model):
    """The three region cards of the Astronomer (drawn privately, T-6.7) or the Explorer
    (revealed to all, T-6.8) while the ability lasts. No ``cards`` yet: the deck must be
    made anew from the discards first."""

    ability: Literal["Astronomer", "Explorer"]
    cards: list[str] = Field(default_factory=list)
    seen: bool = Field(default=False, description="the Astronomer has looked at them")
    kept: str | None = Field(default=None, description="the card the Astronomer keeps")
    faces: list[str] = Field(default_factory=list, description="the Explorer's cards, shown")


class Offer(Model):
    """An extra cube the caravan offers (T-6.10): ``seat`` had the most cubes in ``region``,
    where the caravan started or passed through, and may place 1 more there."""

    seat: int
    region: str


class Africa(Model):
    """What the Africanus expansion adds to the table (T-1, T-3.5, T-3.6, T-3.9)."""

    deck: list[str] = Field(description="face-down region card handles, drawn from the front")
    decks: int = Field(default=1, description="region decks made so far (T-6.7, T-6.8)")
    hands: list[list[str]] = Field(description="region card handles in each hand")
    dealt: int = Field(default=0, description="hands shown to their holders so far (T-3.5)")
    discards: list[str] = Field(default_factory=list, description="face-up region card ids")
    draw: CardDraw | None = None
    diplomats: list[list[str]] = Field(description="regions holding each seat's diplomat")
    palace_diplomats: list[int]
    diplomat_supply: int = 0
    caravan: str | None = None
    offers: list[Offer] = Field(
        default_factory=list, description="the caravan's cubes still to offer, in order (T-6.10)"
    )
    shown: list[list[str]] | None = Field(
        default=None, description="each hand's region cards, revealed at the end (T-8)"
    )


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
    africa: Africa | None = None
    result: Result | None = None


def copy(s: State) -> State:
    """A deep copy to change, as the engine's input must stay untouched: a round trip
    through plain data, about three times faster than ``model_copy(deep=True)``."""
    return State.model_validate(s.model_dump())


def board_of(s: State) -> data.Board:
    """The board of this game (T-1)."""
    return data.board(s.seats, s.options.africanus)


def faces_of(s: State) -> Mapping[str, data.TokenFace]:
    """The rat token faces of this game (T-1)."""
    return data.faces(s.options.africanus)


def africa(s: State) -> Africa:
    """The Africanus part of the table; only rules of the expansion ask for it."""
    if s.africa is None:
        raise RulesError(N_("T-2: this needs the Africanus expansion"))
    return s.africa


def region(s: State, name: str) -> RegionState:
    for r in s.regions:
        if r.name == name:
            return r
    raise RulesError(N_("T-1: {name} is not a region in use in this game").format(name=name))


def holder(s: State, card: str) -> int | None:
    for c in s.cards:
        if c.name == card:
            return c.holder
    raise RulesError(N_("T-2: {card} is not a class card in play").format(card=card))


def cards_of(s: State, seat: int) -> list[str]:
    return [c.name for c in s.cards if c.holder == seat]


def holds(s: State, seat: int, card: str) -> bool:
    """Whether ``seat`` holds ``card``; a card not in play (Africanus, T-2) is held by none."""
    return any(c.name == card and c.holder == seat for c in s.cards)


def can_use(s: State, seat: int, card: str) -> bool:
    """Each class card held may be used once in a turn (T-5)."""
    return holds(s, seat, card) and card not in s.progress.used


def mark_used(s: State, card: str) -> None:
    s.progress.used = sorted([*s.progress.used, card])


def spend(s: State, seat: int, card: str, section: str) -> None:
    """Use ``card``'s ability now, refusing if ``seat`` cannot (T-5: once a turn)."""
    if not can_use(s, seat, card):
        raise RulesError(
            N_("{section}: you do not hold the {card}, or used it this turn").format(
                section=section, card=card
            )
        )
    mark_used(s, card)


def token_region(s: State, handle: str) -> RegionState:
    for r in s.regions:
        if handle in r.tokens:
            return r
    raise RulesError(N_("T-4: token {handle} is not on the board").format(handle=handle))


def token_name(s: State, handle: str) -> str:
    """A face-down token as players call it: by the region it lies in, numbered in the
    order the tokens came there when the region holds several (``Germania#2``); the handle
    when it is not on the board. Names are for reading and typing only: the notation that
    is signed keeps the handle."""
    region = next((r for r in s.regions if handle in r.tokens), None)
    if region is None:
        return handle
    if len(region.tokens) == 1:
        return region.name
    return f"{region.name}#{region.tokens.index(handle) + 1}"


def card_names(s: State, seat: int, known: Mapping[str, str]) -> dict[str, str]:
    """The region cards ``seat`` holds or has just drawn as the Astronomer, by the region
    each names (``known``: the faces opened to the seat alone), numbered in hand order
    when two name the same region (``Gallia#1``, ``Gallia#2``). Nobody else knows these
    names: only the holder's own ``pbem`` can read them."""
    if s.africa is None:
        return {}
    pool = list(s.africa.hands[seat])
    draw = s.africa.draw
    if draw is not None and draw.ability == "Astronomer" and s.active == seat:
        pool += [h for h in draw.cards if h not in pool]
    cards = data.region_cards()
    regions = {h: cards[known[h]].region for h in pool if known.get(h) in cards}
    counts = {r: list(regions.values()).count(r) for r in regions.values()}
    names: dict[str, str] = {}
    for handle, region in regions.items():
        same = [h for h in regions if regions[h] == region]
        names[handle] = region if counts[region] == 1 else f"{region}#{same.index(handle) + 1}"
    return names


def board_tokens(s: State) -> list[str]:
    return [h for r in s.regions for h in r.tokens]
