"""Options and setup (R-2): the table before the first Morning."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from pbem.crypto.randomness import Rng
from pbem.format.i18n import N_
from pbem.games.rattaneer.cards import embed, first_problem, load_cards
from pbem.games.rattaneer.decks import draw_up_to
from pbem.games.rattaneer.state import (
    NEUTRALS,
    SEA_START,
    TAVERN_DRAW,
    TAVERN_LIMIT,
    Options,
    Player,
    State,
    empty_board,
)
from pbem.ruleset.rules import RulesError

# how many seats after the start player the sea-priority marker goes.
SEA_PRIORITY_OFFSET = {2: 1, 3: 2, 4: 2, 5: 3}

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")

# What a player may set; ``cards_hash`` is computed from the file named by ``cards``.
USER_OPTIONS = ("treasures", "tavern_keep", "start_seat", "cards")


def parse_options(raw: Mapping[str, str]) -> dict[str, Any]:
    """``--option K=V`` strings to the normalized options of the genesis. ``cards=PATH``
    reads and validates another card file and embeds it (``cards.embed``)."""
    unknown = sorted(set(raw) - set(USER_OPTIONS))
    if unknown:
        raise RulesError(
            N_("rattaneer has no option {unknown} (its options: {options})").format(
                unknown=", ".join(unknown), options=", ".join(USER_OPTIONS)
            )
        )
    values: dict[str, Any] = {}
    if "treasures" in raw:
        text = raw["treasures"].strip().lower()
        if text not in _TRUE + _FALSE:
            raise RulesError(
                N_("option treasures must be true or false, not {value!r}").format(
                    value=raw["treasures"]
                )
            )
        values["treasures"] = text in _TRUE
    if "tavern_keep" in raw:
        keep = _integer("tavern_keep", raw["tavern_keep"])
        if not 1 <= keep <= TAVERN_LIMIT:
            raise RulesError(
                N_(
                    "option tavern_keep must be 1 to {limit} (R-7.B: cards left in the "
                    "Tavern row after an overflow), not {keep}"
                ).format(limit=TAVERN_LIMIT, keep=keep)
            )
        values["tavern_keep"] = keep
    if "start_seat" in raw:
        seat = _integer("start_seat", raw["start_seat"])
        if seat < 0:
            raise RulesError(
                N_("option start_seat must be a seat number from 0, not {seat}").format(seat=seat)
            )
        values["start_seat"] = seat
    if "cards" in raw:
        values |= embed(load_cards(raw["cards"]))
    return Options(**values).model_dump(exclude_none=True)


def _integer(name: str, text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise RulesError(
            N_("option {name} must be a whole number, not {text!r}").format(name=name, text=text)
        ) from None


def initial_state(options: Mapping[str, Any], seats: int) -> State:
    """R-2.1–2.7: everything that needs no draw. The draws wait for ``setup_draw``. An
    embedded card set is checked against its hash here, before anything is played."""
    try:
        opts = Options.model_validate(dict(options))
    except ValidationError as exc:
        raise RulesError(N_("bad rattaneer options: {why}").format(why=first_problem(exc))) from exc
    if opts.start_seat is not None and opts.start_seat >= seats:
        raise RulesError(
            N_("option start_seat {start_seat} is not a seat of {seats} players").format(
                start_seat=opts.start_seat, seats=seats
            )
        )
    cards = opts.card_set()
    return State(
        seats=seats,
        options=opts,
        workshop=seats,
        companion_deck=cards.companion_deck(),
        sea_deck=cards.sea_deck(),
        treasure_box=cards.treasure_deck(),
        island_treasures=cards.treasures_drawn if opts.treasures else 0,
        spots=[None] * len(cards.treasure_spots),
        neutral=NEUTRALS.get(seats, 0),
        players=[Player() for _ in range(seats)],
        board=empty_board(seats),
        unused=[0] * seats,
    )


def setup_draw(state: State, rng: Rng) -> None:
    """The setup Chance: start player (R-2.8), Tavern row (R-2.4), sea cards (R-2.5), in
    that order. The treasure cards of R-2.7 lie unseen on the island: each is drawn only
    when taken (R-6.5). Mutates ``state``."""
    start = state.options.start_seat
    if start is None:
        start = rng.below(state.seats)
    state.land_priority = start
    state.sea_priority = (start + SEA_PRIORITY_OFFSET[state.seats]) % state.seats
    state.tavern = draw_up_to(state.companion_deck, TAVERN_DRAW, rng)
    for cards_under in state.seas:
        cards_under.extend(draw_up_to(state.sea_deck, SEA_START, rng))
    state.phase = "morning"
