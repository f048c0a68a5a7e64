"""The actions a seat can take, one model per kind, told apart by ``type``.

Lists whose order means nothing are sorted on validation, so that one choice has exactly
one JSON form: a sealed placement is committed as canonical JSON (architecture §6), and
``parse_action(format_action(a)) == a`` holds for every action.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from pbem.ruleset.rules import Model


class Place(Model):
    """Morning placement (R-5.1): the areas of both pirates and of each henchman put on an
    area. Owned henchmen not listed stand on X (unused this round)."""

    type: Literal["place"] = "place"
    pirates: list[int]
    henchmen: list[int] = Field(default_factory=list)

    @field_validator("pirates", "henchmen")
    @classmethod
    def _sorted(cls, areas: list[int]) -> list[int]:
        return sorted(areas)


class Buy(Model):
    """Tavern (R-6.2): buy a companion card from the row."""

    type: Literal["buy"] = "buy"
    card: str


class Hire(Model):
    """Tavern (R-6.2): buy a henchman of one's colour from the supply for 1 coin."""

    type: Literal["hire"] = "hire"


class Take(Model):
    """Distribution after a won battle (R-6.3.1): take one card from under the area."""

    type: Literal["take"] = "take"
    card: str


class Flip(Model):
    """Turn own face-up plunder cards face down: with a trade ship (R-6.3.3), at the Trade
    Port (R-6.4), or the free card at the end (R-8.1)."""

    type: Literal["flip"] = "flip"
    cards: list[str] = Field(min_length=1)

    @field_validator("cards")
    @classmethod
    def _sorted(cls, cards: list[str]) -> list[str]:
        return sorted(cards)


class Spot(Model):
    """Legendary Island (R-6.5): put a henchman on the free treasure spot worth ``vp``."""

    type: Literal["spot"] = "spot"
    vp: int


class Pass(Model):
    """Decline an optional action (buy, flip, island)."""

    type: Literal["pass"] = "pass"


AnyAction = Place | Buy | Hire | Take | Flip | Spot | Pass
Action = Annotated[AnyAction, Field(discriminator="type")]
