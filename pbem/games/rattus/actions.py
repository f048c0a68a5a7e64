"""The actions of Rattus, one small model per thing a player can say.

The ``type`` of each action is also its verb in the text notation (``notation.py``), so a
turn like ``take Witch; place Gallia; plague Germania`` is a sequence of single actions.
Where the order of a list carries no meaning (the Witch's two tokens, spreading targets,
region cards played), the model sorts it, so that one choice has one form.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from pbem.ruleset.rules import Model


class Take(Model):
    """T-5 A: take a class card from the supply or from another player."""

    type: Literal["take"] = "take"
    card: str


class Place(Model):
    """T-5 B (and the starting cubes, T-3.8): place cubes into one region."""

    type: Literal["place"] = "place"
    region: str


class Peasant(Model):
    """T-6.1: place cubes as in B, one more, into any region."""

    type: Literal["peasant"] = "peasant"
    region: str


class Merchant(Model):
    """T-6.2: move 1 to 3 of your cubes to a neighbouring region; with ``diplomat`` one of
    them is the cube on your diplomat, which goes along (T-6.9)."""

    type: Literal["merchant"] = "merchant"
    source: str
    target: str
    cubes: int
    diplomat: bool = False


class Monk(Model):
    """T-6.3: move one token, unseen, to a neighbouring region."""

    type: Literal["monk"] = "monk"
    token: str
    target: str


class Witch(Model):
    """T-6.5: look secretly at two tokens on the board."""

    type: Literal["witch"] = "witch"
    tokens: list[str]

    @field_validator("tokens")
    @classmethod
    def _sorted(cls, tokens: list[str]) -> list[str]:
        return sorted(tokens)


class Swap(Model):
    """T-6.5: after the Witch's look, swap the two tokens."""

    type: Literal["swap"] = "swap"


class Keep(Model):
    """T-6.5: after the Witch's look, leave the two tokens where they are."""

    type: Literal["keep"] = "keep"


class King(Model):
    """T-6.6: move one of your cubes from a region without tokens to the palace; with
    ``diplomat`` the cube on your diplomat, which goes along."""

    type: Literal["king"] = "king"
    region: str
    diplomat: bool = False


class Astronomer(Model):
    """T-6.7: draw 3 region cards (privately), to keep 1."""

    type: Literal["astronomer"] = "astronomer"


class Choose(Model):
    """T-6.7: the drawn region card the Astronomer keeps; the other two are discarded."""

    type: Literal["choose"] = "choose"
    region_card: str


class Explorer(Model):
    """T-6.8: reveal 3 region cards from the deck."""

    type: Literal["explorer"] = "explorer"


class Explore(Model):
    """T-6.8: the region, among those the revealed cards name, that gets 1 of your cubes;
    None: place no cube (the placement is optional)."""

    type: Literal["explore"] = "explore"
    region: str | None


class Sultan(Model):
    """T-6.9: put a diplomat under one of your cubes in a region."""

    type: Literal["sultan"] = "sultan"
    region: str


class Caravan(Model):
    """T-6.10: move the caravan 2 steps (``path``); at setup (T-3.9) the region it starts in."""

    type: Literal["caravan"] = "caravan"
    path: list[str]


class Bonus(Model):
    """T-6.10: the caravan's extra cube offered to you: place it in ``region``, the region
    you are asked about; None: decline."""

    type: Literal["bonus"] = "bonus"
    region: str | None


class Use(Model):
    """One region card played and the class card it protects (T-7.3)."""

    card: str
    protects: str


class Protect(Model):
    """T-7.3: the region cards played against the token just revealed (none: ``uses`` empty)."""

    type: Literal["protect"] = "protect"
    uses: list[Use] = Field(default_factory=list)

    @field_validator("uses")
    @classmethod
    def _sorted(cls, uses: list[Use]) -> list[Use]:
        return sorted(uses, key=lambda u: (u.card, u.protects))


class Plague(Model):
    """T-5 C.1 / T-6.4: the regions the plague piece enters, one step each."""

    type: Literal["plague"] = "plague"
    path: list[str]


class Spread(Model):
    """T-5 C.3: the neighbouring regions receiving the new tokens, one entry per token."""

    type: Literal["spread"] = "spread"
    regions: list[str]

    @field_validator("regions")
    @classmethod
    def _sorted(cls, regions: list[str]) -> list[str]:
        return sorted(regions)


class RevealToken(Model):
    """T-7: the token of the region being resolved to reveal next."""

    type: Literal["reveal"] = "reveal"
    token: str


class Resolve(Model):
    """T-9.3: the region the final plague resolves next."""

    type: Literal["resolve"] = "resolve"
    region: str


class End(Model):
    """T-9.2: end your final-round turn."""

    type: Literal["end"] = "end"


Action = Annotated[
    Take
    | Place
    | Peasant
    | Merchant
    | Monk
    | Witch
    | Swap
    | Keep
    | King
    | Astronomer
    | Choose
    | Explorer
    | Explore
    | Sultan
    | Caravan
    | Bonus
    | Protect
    | Plague
    | Spread
    | RevealToken
    | Resolve
    | End,
    Field(discriminator="type"),
]
