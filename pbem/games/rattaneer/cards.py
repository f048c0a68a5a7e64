"""The card set (R-9): its schema, loading it from a data file, and finding a game's set.

Card contents are data, not code (architecture §2): the published lists were not found, so the
package ships a reconstructed set (``data/cards.json``) and accepts any other file that fits
this schema. A card id names a card everywhere (state, notation), so ids are unique across
the whole set, and several physical copies of one sea or treasure card share one id.

The shipped set is covered by the ruleset's content hash. Another set is embedded in the
game's options (``embed``), so the signed genesis carries it and anyone can verify the
game without the file, pinned by the SHA-256 of its canonical JSON (``cards_hash``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, PrivateAttr, ValidationError, model_validator

from pbem.format.canonical import canonical, parse
from pbem.format.errors import Rejected
from pbem.format.i18n import N_
from pbem.ruleset.rules import Model, RulesError

DEFAULT_CARDS = Path(__file__).parent / "data" / "cards.json"

# Ids are typed by players, so they must be single words and must not read as a keyword.
_ID = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
RESERVED_WORDS = frozenset(
    ("pass", "none", "x", "hire", "henchman", "henchmen", "pirates", "p", "h", "buy", "take")
) | {"flip", "spot"}

Count = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]


class Bonus(Model):
    """An end-of-game bonus (R-9.1): ``vp`` for every ``per`` of the counted public fact.

    Yes/no facts (``most_island_henchmen``, ``no_other_companion``) count 1 or 0, so one
    formula, ``vp * (count // per)``, covers every companion."""

    counts: Literal[
        "face_down_plunder",
        "other_companions",
        "most_island_henchmen",
        "coins",
        "ships_used",
        "sea_areas_won",
        "no_other_companion",
    ]
    per: Positive = 1
    vp: Count


class CompanionCard(Model):
    id: str
    cost: Count
    vp: Count
    bonus: Bonus | None = None


class PlunderCard(Model):
    id: str
    kind: Literal["plunder"]
    strength: Count
    vp: Count
    copies: Positive = 1


class ShipCard(Model):
    """A trade ship: taken in a distribution, it turns up to ``capacity`` cards face down."""

    id: str
    kind: Literal["ship"]
    strength: Count
    capacity: Positive
    copies: Positive = 1


SeaCard = Annotated[PlunderCard | ShipCard, Field(discriminator="kind")]


class TreasureCard(Model):
    id: str
    vp: Count
    copies: Positive = 1


class CardSet(Model):
    """A whole card file. ``reconstruction`` says whether it is the published set."""

    reconstruction: bool
    explanation: str
    companions: list[CompanionCard] = Field(min_length=1)
    sea: list[SeaCard] = Field(min_length=1)
    treasure_spots: list[Count] = Field(min_length=1)
    treasures: list[TreasureCard]
    treasures_drawn: Count

    _by_id: dict[str, CompanionCard | PlunderCard | ShipCard | TreasureCard] = PrivateAttr()
    _by_folded_id: dict[str, str] = PrivateAttr()

    @model_validator(mode="after")
    def _check_ids(self) -> CardSet:
        ids = [c.id for c in self.companions] + [c.id for c in self.sea]
        ids += [c.id for c in self.treasures]
        for card_id in ids:
            if not _ID.fullmatch(card_id) or card_id.lower() in RESERVED_WORDS:
                raise ValueError(f"card id {card_id!r} is not a word a player can type")
        folded = [i.lower() for i in ids]
        if len(set(folded)) != len(folded):
            raise ValueError("card ids must be unique across the set (ignoring case)")
        if self.treasures_drawn > sum(t.copies for t in self.treasures):
            raise ValueError("treasures_drawn exceeds the number of treasure cards")
        return self

    def model_post_init(self, context: object, /) -> None:
        cards = [*self.companions, *self.sea, *self.treasures]
        self._by_id = {c.id: c for c in cards}
        self._by_folded_id = {c.id.lower(): c.id for c in cards}

    # ----- lookups ------------------------------------------------------------------------

    def canonical_id(self, text: str) -> str | None:
        """The id a player meant, whatever the case they typed it in; None if unknown."""
        return self._by_folded_id.get(text.lower())

    def companion(self, card_id: str) -> CompanionCard:
        card = self._by_id[card_id]
        assert isinstance(card, CompanionCard)
        return card

    def sea_card(self, card_id: str) -> PlunderCard | ShipCard:
        card = self._by_id[card_id]
        assert isinstance(card, PlunderCard | ShipCard)
        return card

    def plunder_vp(self, card_id: str) -> int:
        card = self.sea_card(card_id)
        assert isinstance(card, PlunderCard)
        return card.vp

    def treasure(self, card_id: str) -> TreasureCard:
        card = self._by_id[card_id]
        assert isinstance(card, TreasureCard)
        return card

    # ----- decks as sorted multisets (architecture §5: decks are never shuffled in advance) -----

    def companion_deck(self) -> list[str]:
        return sorted(c.id for c in self.companions)

    def sea_deck(self) -> list[str]:
        return sorted(c.id for c in self.sea for _ in range(c.copies))

    def treasure_deck(self) -> list[str]:
        return sorted(c.id for c in self.treasures for _ in range(c.copies))


def load_cards(path: Path | str = DEFAULT_CARDS) -> CardSet:
    """Read and validate a card file. The JSON is read as strictly as a game file (no
    duplicate keys, no floats), so that two readers cannot take one file for two sets. A
    file that cannot be read or does not fit raises a one-line ``RulesError``."""
    path = Path(path)
    what = f"card file {path}"
    try:
        data = parse(path.read_bytes(), what=what)
    except OSError as exc:
        raise RulesError(
            N_("{what} cannot be read ({why})").format(what=what, why=exc.strerror or exc)
        ) from exc
    except Rejected as exc:  # some of its messages name the file, some do not
        message = str(exc)
        raise RulesError(message if message.startswith(what) else f"{what}: {message}") from exc
    return _validate(data, what)


def _validate(data: Any, what: str) -> CardSet:
    try:
        return CardSet.model_validate(data)
    except ValidationError as exc:
        raise RulesError(
            N_("{what} is not a valid Rattaneer card set: {why}").format(
                what=what, why=first_problem(exc)
            )
        ) from exc


def first_problem(exc: ValidationError) -> str:
    """A validation failure in one line (errors reach the user as one line, architecture §8):
    where the first problem is, what it is, and how many more there are."""
    problems = exc.errors()
    first = problems[0]
    where = ".".join(str(part) for part in first["loc"])
    more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
    return (f"{where}: {first['msg']}" if where else first["msg"]) + more


@cache
def default_cards() -> CardSet:
    """The shipped set, read once per process."""
    return load_cards()


def cards_hash(data: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the canonical JSON of an embedded card set: what a game pins."""
    return hashlib.sha256(canonical(data)).hexdigest()


def embed(cards: CardSet) -> dict[str, Any]:
    """The options that make a game use ``cards``: the normalized set and its hash."""
    data = cards.model_dump(mode="json", exclude_none=True)
    return {"cards": data, "cards_hash": cards_hash(data)}


# Parsed embedded sets by hash: a game's rules look their set up at every call, and
# validating it each time would cost more than the rules themselves. Bounded, for a
# long-running process that sees many games.
_EMBEDDED: dict[str, CardSet] = {}
_EMBEDDED_MAX = 32


def embedded_cards(data: Mapping[str, Any], digest: str) -> CardSet:
    """The card set embedded in a game's options, found by ``digest`` once validated.
    That ``data`` hashes to ``digest`` is checked where options are validated
    (``state.Options``), so that every reader reaches the same verdict whatever it has
    cached; an invalid set raises ``RulesError``."""
    found = _EMBEDDED.get(digest)
    if found is None:
        found = _validate(data, "the embedded card set")
        if len(_EMBEDDED) >= _EMBEDDED_MAX:
            del _EMBEDDED[next(iter(_EMBEDDED))]
        _EMBEDDED[digest] = found
    return found
