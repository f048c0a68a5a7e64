"""The state of a game: everything on the table, all of it public (R-3).

Only the morning placements are secret, and they never enter the state before the reveal:
the engine keeps them sealed. Decks are sorted multisets of card ids (they are drawn from
at random when a card is needed, never shuffled ahead), every list whose order carries no
meaning is kept sorted, and counts are plain ints, so that the state hashes the same for
everyone who replays the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from pbem.games.rattaneer.cards import CardSet, cards_hash, default_cards, embedded_cards
from pbem.ruleset.rules import Model

# the row of areas, then the Farm.
WORKSHOP, TAVERN, TRADE_PORT, ISLAND, FARM = 1, 2, 9, 10, 11
AREAS = range(1, 11)
SEA_AREAS = range(3, 9)
AREA_NAMES = {WORKSHOP: "Workshop", TAVERN: "Tavern", TRADE_PORT: "Trade Port"}
AREA_NAMES |= {ISLAND: "Legendary Island", FARM: "Farm"}
AREA_NAMES |= {a: "Sea" for a in SEA_AREAS}

PIRATES = 2
HENCHMAN_STRENGTH = 2
HENCHMEN_PER_COLOUR = 8  # R-1 [ruling]
START_HENCHMEN = 1
START_COINS = 2
NEUTRALS = {2: 2, 3: 1}  # neutral henchmen by number of players
MAX_ROUNDS = 10
TAVERN_DRAW = 2  # .B
TAVERN_LIMIT = 4  # R-7.B: more than this many cards in the row is an overflow
SEA_START = 2
SEA_FULL = 4  # R-7.B: an area with this many cards gets no refill

Phase = Literal["setup", "morning", "day", "night", "final", "over"]


class Options(Model):
    """Normalized game options, as stored in the genesis.

    ``cards`` is another card set than the shipped one, embedded whole so that the signed
    genesis carries it, and ``cards_hash`` pins it (``cards.embed``); both or neither."""

    treasures: bool = False
    tavern_keep: Annotated[int, Field(ge=1, le=TAVERN_LIMIT)] = 3
    start_seat: Annotated[int, Field(ge=0)] | None = None
    cards: dict[str, Any] | None = None
    cards_hash: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None

    @model_validator(mode="after")
    def _cards_pinned(self) -> Options:
        """Checked whenever options are read (at setup): a set that does not match its
        hash is refused before anything is played."""
        if (self.cards is None) != (self.cards_hash is None):
            raise ValueError("options cards and cards_hash go together")
        if self.cards is not None and (actual := cards_hash(self.cards)) != self.cards_hash:
            raise ValueError(
                f"the embedded card set hashes to {actual[:12]}…, not to its cards_hash "
                f"{self.cards_hash[:12]}…"
            )
        return self

    def card_set(self) -> CardSet:
        """The card set of the game: every rule that reads a card asks here."""
        if self.cards is None:
            return default_cards()
        assert self.cards_hash is not None  # _cards_pinned
        return embedded_cards(self.cards, self.cards_hash)


class Player(Model):
    """One seat's belongings. ``henchmen`` counts those it owns that are not on the secret
    treasure card (R-5.1 "available"); the rest of its colour is in the supply. Plunder lists
    are sorted; ``companions`` and ``treasures`` keep the order they were taken in.
    ``ships_used`` and ``areas_won`` (sorted sea areas of won battles) are the public facts
    that companion bonuses read (R-9.1)."""

    coins: int = START_COINS
    henchmen: int = START_HENCHMEN
    companions: list[str] = Field(default_factory=list)
    face_up: list[str] = Field(default_factory=list)
    face_down: list[str] = Field(default_factory=list)
    treasures: list[str] = Field(default_factory=list)
    ships_used: int = 0
    areas_won: list[int] = Field(default_factory=list)


class Pieces(Model):
    """What stands on one area after the reveal: seats with a pirate (sorted), henchmen per
    seat, neutral henchmen."""

    pirates: list[int] = Field(default_factory=list)
    henchmen: list[int]
    neutral: int = 0

    def is_empty(self) -> bool:
        """No piece at all: the test of R-5.3 and R-5.4 (a lone henchman counts)."""
        return not self.pirates and not any(self.henchmen) and not self.neutral


class Day(Model):
    """Where the Day stands (R-6): the area being resolved and who acts there.

    ``queue`` holds the seats still to act, the first acting now; during a distribution of
    plunder (R-6.3.1) it is the rotation of sharing seats. ``ship`` is the capacity of the
    trade ship the first seat has just taken and must use (R-6.3.3), 0 when none."""

    area: int
    queue: list[int] = Field(default_factory=list)
    ship: int = 0


class State(Model):
    """The whole table.

    - ``last_round``: set by R-7.D (round 10 is the last anyway, R-4);
    - ``workshop``: coins on area 1;
    - ``tavern``: the companion row, oldest first (R-7.B discards from the front);
    - ``seas``: the cards under areas 3..8, in the order they arrived;
    - ``treasure_box``: the treasure cards nobody has taken (sorted); with option
      ``treasures``, ``island_treasures`` of them lie face down on area 10 (R-2.7), which
      ones nobody knows, so each is drawn from the whole box when taken (R-6.5, RULINGS);
    - ``spots``: the seat whose henchman holds each spot of the secret treasure card;
    - ``neutral``: neutral henchmen set aside (R-2.6);
    - ``board``: areas 1..10 at index area-1, filled from the reveal to the Night;
    - ``unused``: henchmen per seat on X; ``farm``: one seat per pirate on the Farm, sorted;
    - ``flip_seats``: the seats asked for the free flip of R-8.1.
    """

    seats: int
    options: Options
    phase: Phase = "setup"
    round: int = 1
    last_round: bool = False
    land_priority: int = 0
    sea_priority: int = 0
    workshop: int = 0
    companion_deck: list[str]
    tavern: list[str] = Field(default_factory=list)
    companion_discard: list[str] = Field(default_factory=list)
    sea_deck: list[str]
    seas: list[list[str]] = Field(default_factory=lambda: [[] for _ in SEA_AREAS])
    sea_discard: list[str] = Field(default_factory=list)
    treasure_box: list[str]
    island_treasures: int = 0
    spots: list[int | None]
    neutral: int = 0
    players: list[Player]
    board: list[Pieces]
    unused: list[int]
    farm: list[int] = Field(default_factory=list)
    day: Day | None = None
    flip_seats: list[int] = Field(default_factory=list)


def copy(state: State) -> State:
    """A deep copy to change (the engine's input stays untouched), through plain data: four
    times faster than ``model_copy(deep=True)``, which counts in searches that play
    thousands of steps. The options are never changed, so the copy shares them (and an
    embedded card set is not hashed again)."""
    data = state.model_dump(exclude={"options"})
    return State.model_validate({**data, "options": state.options})


def empty_board(seats: int) -> list[Pieces]:
    return [Pieces(henchmen=[0] * seats) for _ in AREAS]


def area(state: State, number: int) -> Pieces:
    return state.board[number - 1]


def sea_cards(state: State, number: int) -> list[str]:
    return state.seas[number - SEA_AREAS.start]


def priority_order(state: State, holder: int, seats: Iterable[int]) -> list[int]:
    """``seats`` in priority order: the marker holder first, then clockwise (R-6)."""
    return sorted(set(seats), key=lambda s: (s - holder) % state.seats)


def acting_order(state: State, number: int) -> list[int]:
    """The seats with a pirate on an area, in the order they act there (R-6): land
    priority on areas 1–2, sea priority on 3–10 [ruling for 9–10]."""
    holder = state.land_priority if number <= TAVERN else state.sea_priority
    return priority_order(state, holder, area(state, number).pirates)


def is_last_round(state: State) -> bool:
    return state.last_round or state.round >= MAX_ROUNDS


def supply(state: State, seat: int) -> int:
    """Henchmen of the seat's colour in the general supply (R-6.2 buys from it)."""
    on_island = state.spots.count(seat)
    return HENCHMEN_PER_COLOUR - state.players[seat].henchmen - on_island


def in_hand(state: State, seat: int) -> int:
    """Owned henchmen standing on no area and not on X: bought or sent back this Day."""
    placed = sum(p.henchmen[seat] for p in state.board) + state.unused[seat]
    return state.players[seat].henchmen - placed
