"""Rattaneer drawn: the row of areas 1–10 and the Farm, the Tavern row, decks and players.

Everything here is public in the state (R-3); the one private thing a page may show is
the reader's own sealed placement before the reveal, drawn dashed so that it does not read
as pieces on the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel

from pbem.format.i18n import N_, _, ngettext
from pbem.games.rattaneer.actions import Place
from pbem.games.rattaneer.cards import Bonus, CardSet, PlunderCard
from pbem.games.rattaneer.scoring import score
from pbem.games.rattaneer.state import (
    AREA_NAMES,
    AREAS,
    FARM,
    ISLAND,
    MAX_ROUNDS,
    SEA_AREAS,
    TAVERN,
    TRADE_PORT,
    WORKSHOP,
    State,
    area,
    is_last_round,
    sea_cards,
)
from pbem.games.rattaneer.text import BONUS_TEXT
from pbem.games.rattaneer.topics import card_entries
from pbem.ruleset.rulebook import Topic
from pbem.ruleset.rules import Ruleset
from pbem.view.board import NOTE, ROW, BoardView, Chip, Column, Note, Stack
from pbem.view.history import Private
from pbem.view.seats import Seat

PAD, COLUMN, GAP = 10, 104, 6
TOP = 52
HEADER = 46
CARD_H, CARD_GAP = 32, 4
TAVERN_W, TAVERN_H, TAVERN_PER_ROW = 168, 48, 7
WIDTH = PAD * 2 + 11 * COLUMN + 10 * GAP

TREASURE_CARDS = "R-9.4"
"""The section of the treasure cards, which a game without option treasures does not use."""

PHASES = {"setup": N_("setup"), "morning": N_("Morning: secret placement"), "night": N_("Night")}
PHASES |= {"final": N_("end of game: the free flip"), "over": N_("game over")}


@dataclass
class Card:
    x: float
    y: float
    width: float
    height: float
    title: str
    lines: list[str]
    kind: str
    """``plunder``, ``ship`` or ``companion``: the template's fill for it."""
    hint: str = ""
    """The card in words, shown on hover."""


@dataclass
class Area:
    """One column of the row (R-1): its pieces on top, then what lies there."""

    x: float
    y: float
    width: float
    number: str
    title: list[str]
    current: bool
    pick: str
    """The area's number, to place pieces on it by clicking (``pbem ui``); the Farm: none."""
    chips: list[Chip] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    height: float = 0


@dataclass
class Board:
    """What ``rattaneer.svg.j2`` draws, laid out in SVG units."""

    width: float
    height: float
    heading: str
    subheading: str
    areas: list[Area]
    tavern_y: float
    tavern: list[Card]
    decks: Note
    legend: list[Chip]
    legend_note: Note


class RattaneerView(BoardView):
    """Rattaneer's drawing and players table."""

    template: ClassVar[str | None] = "rattaneer.svg.j2"

    def board(
        self, rules: Ruleset, state: BaseModel, seats: list[Seat], private: Private | None
    ) -> Board:
        assert isinstance(state, State)
        cards = state.options.card_set()
        sealed = private.sealed if private is not None else None
        mine = (seats[private.seat], sealed) if private and isinstance(sealed, Place) else None
        numbers = [*AREAS, FARM]
        pieces = {n: _pieces(state, seats, n) + _sealed(mine, n) for n in numbers}
        rows = max(1, *(len(p) for p in pieces.values()))
        top = TOP + HEADER + rows * ROW + 6
        areas = [_area(state, seats, cards, n, pieces[n], top) for n in numbers]
        height = max(a.height for a in areas)
        for a in areas:
            a.height = height
        tavern_y = TOP + height + 30
        tavern = _tavern(state.tavern, cards, tavern_y + 8)
        tavern_rows = max(1, -(-len(tavern) // TAVERN_PER_ROW))
        decks_y = tavern_y + 8 + tavern_rows * (TAVERN_H + 6) + 18
        legend_y = decks_y + 14
        legend = [
            Chip(PAD + i * 180, legend_y, 170, s, f"{s.label} = {s.name}")
            for i, s in enumerate(seats)
        ]
        return Board(
            width=WIDTH,
            height=legend_y + ROW + 30,
            heading=_heading(state),
            subheading=(
                _("Land priority: {land} · sea priority: {sea}").format(
                    land=_who(seats, state.land_priority), sea=_who(seats, state.sea_priority)
                )
            ),
            areas=areas,
            tavern_y=tavern_y,
            tavern=tavern,
            decks=Note(PAD, decks_y, _decks(state)),
            legend=legend,
            legend_note=Note(
                PAD,
                legend_y + ROW + 16,
                _("pirate: a pirate piece · 2h: two henchmen")
                + (" · " + _("dashed: your sealed placement, seen only by you") if mine else ""),
            ),
        )

    def columns(self, state: BaseModel, seats: list[Seat]) -> list[Column]:
        assert isinstance(state, State)
        cards = state.options.card_set()
        players = state.players
        down = [
            f"{len(p.face_down)}: {' '.join(p.face_down)}" if p.face_down else "–" for p in players
        ]
        return [
            Column(_("Coins"), [str(p.coins) for p in players]),
            Column(_("Henchmen"), [str(p.henchmen) for p in players]),
            Column(
                _("Companions"),
                [_companions(cards, p.companions) for p in players],
                [" | ".join(_hint(cards, c) for c in p.companions) for p in players],
            ),
            Column(_("Plunder face up"), [" ".join(p.face_up) or "–" for p in players]),
            Column(_("Plunder face down"), [d if d != "0: " else "–" for d in down]),
            Column(_("Treasures"), [" ".join(p.treasures) or "–" for p in players]),
            Column(_("VP so far"), [str(score(state, cards, s.index).total) for s in seats]),
        ]

    def legend(self, rules: Ruleset, state: BaseModel, options: dict[str, Any]) -> list[Topic]:
        """Every card of the game's set; the treasure cards only with option treasures."""
        assert isinstance(state, State)
        (cards,) = rules.topics(options)
        if state.options.treasures:
            return [cards]
        kept = tuple(e for e in cards.entries if e.section != TREASURE_CARDS)
        return [Topic(cards.name, cards.title, cards.intro, kept)]


Pieces = list[tuple[Seat | None, str, bool]]
"""Lines of an area's pieces: the seat (None: neutral), the text, dashed or not."""


def _heading(state: State) -> str:
    last = " " + _("(last round)") if is_last_round(state) and state.phase != "over" else ""
    if state.day is not None:
        where = _("Day: area {n} {name}").format(n=state.day.area, name=AREA_NAMES[state.day.area])
    else:
        where = _(PHASES.get(state.phase, state.phase))
    rounds = _("round {n}/{of}").format(n=state.round, of=MAX_ROUNDS)
    return f"Rattaneer · {rounds}{last} · {where}"


def _who(seats: list[Seat], seat: int) -> str:
    return f"{seats[seat].label} {seats[seat].name}"


def _pieces(state: State, seats: list[Seat], number: int) -> Pieces:
    """One line per seat present on the area (pirate, henchmen), then the neutrals."""
    if number == FARM:
        pirate = _("pirate")
        return [(seats[s], f"{seats[s].label} {pirate}", False) for s in state.farm]
    pieces = area(state, number)
    out: Pieces = []
    for seat in seats:
        what = _what(seat.index in pieces.pirates, pieces.henchmen[seat.index])
        if what:
            out.append((seat, f"{seat.label} {what}", False))
    if pieces.neutral:
        out.append((None, _("neutral {n}h").format(n=pieces.neutral), False))
    return out


def _sealed(mine: tuple[Seat, Place] | None, number: int) -> Pieces:
    """The reader's own sealed placement on this area, before the reveal."""
    if mine is None:
        return []
    seat, place = mine
    what = _what(number in place.pirates, place.henchmen.count(number))
    return [(seat, _("yours: {what}").format(what=what), True)] if what else []


def _what(pirate: bool, henchmen: int) -> str:
    return " ".join([*([_("pirate")] if pirate else []), *([f"{henchmen}h"] if henchmen else [])])


class _Stack(Stack):
    """An area's contents: notes, chips, and sea cards."""

    def __init__(self, x: float, y: float) -> None:
        super().__init__(x, y, COLUMN - 8)
        self.cards: list[Card] = []

    def card(self, title: str, lines: list[str], kind: str, hint: str) -> None:
        self.cards.append(Card(self.x, self.y, self.width, CARD_H, title, lines, kind, hint))
        self.y += CARD_H + CARD_GAP


def _area(
    state: State, seats: list[Seat], cards: CardSet, number: int, pieces: Pieces, top: float
) -> Area:
    """One area's column; every column's contents start at ``top``, below the tallest
    pile of pieces, so the cards of all areas line up."""
    x = PAD + (number - 1) * (COLUMN + GAP)
    name = AREA_NAMES[number]
    box = Area(
        x=x,
        y=TOP,
        width=COLUMN,
        number=_("Farm") if number == FARM else str(number),
        title=[] if number == FARM else name.split(" ", 1),
        current=state.day is not None and state.day.area == number,
        pick="" if number == FARM else str(number),
    )
    box.chips = [
        Chip(x + 4, TOP + HEADER + row * ROW, COLUMN - 8, seat, text, dashed)
        for row, (seat, text, dashed) in enumerate(pieces)
    ]
    stack = _Stack(x + 4, top)
    _contents(state, seats, cards, number, stack)
    box.notes, box.cards = stack.notes, stack.cards
    box.chips += stack.chips
    box.height = max(stack.y, top + NOTE) - TOP + 6
    return box


def _contents(state: State, seats: list[Seat], cards: CardSet, number: int, at: _Stack) -> None:
    """What lies on an area besides pieces: coins, sea cards, treasure spots."""
    if number == WORKSHOP:
        at.note(ngettext("{n} coin", "{n} coins", state.workshop).format(n=state.workshop))
    elif number == TAVERN:
        at.note(_("{n} in the row").format(n=len(state.tavern)))
        at.note(_("(see below)"))
    elif number in SEA_AREAS:
        under = sea_cards(state, number)
        need = sum(cards.sea_card(c).strength for c in under)
        at.note(_("need {n}").format(n=need) if under else _("no cards"))
        for card_id in under:
            card = cards.sea_card(card_id)
            hint = _hint(cards, card_id)
            if isinstance(card, PlunderCard):
                strength = _("str {n}").format(n=card.strength)
                at.card(card_id, [strength, f"{card.vp} VP"], "plunder", hint)
            else:
                strength = _("str {n}").format(n=card.strength)
                ship = _("ship {n}").format(n=card.capacity)
                at.card(card_id, [strength, ship], "ship", hint)
    elif number == TRADE_PORT:
        at.note(_("turn plunder"))
        at.note(_("face down"))
    elif number == ISLAND:
        at.note(_("treasure card:"))
        for vp, holder in zip(cards.treasure_spots, state.spots, strict=True):
            seat = seats[holder] if holder is not None else None
            hint = _(
                "a spot of the secret treasure card (R-6.5): its henchman scores {vp} VP"
            ).format(vp=vp)
            who = seat.label if seat else _("free")
            at.chip(seat, f"{vp} VP: {who}", hint)
        if state.options.treasures:
            at.note(_("{n} treasures").format(n=state.island_treasures))
            at.note(_("face down"))
    else:
        unused = [(seats[s], n) for s, n in enumerate(state.unused) if n]
        at.note(_("X (unused):") if unused else _("X: none"))
        for seat, count in unused:
            at.chip(seat, f"{seat.label} {count}h")


def _tavern(row: list[str], cards: CardSet, y: float) -> list[Card]:
    out = []
    for i, card_id in enumerate(row):
        card = cards.companion(card_id)
        lines = [_("cost {n}").format(n=card.cost) + f" · {card.vp} VP"]
        if card.bonus is not None:
            lines.append(_bonus(card.bonus))
        col, line = i % TAVERN_PER_ROW, i // TAVERN_PER_ROW
        x = PAD + col * (TAVERN_W + 6)
        top = y + line * (TAVERN_H + 6)
        hint = _hint(cards, card_id)
        out.append(Card(x, top, TAVERN_W, TAVERN_H, card_id, lines, "companion", hint))
    return out


def _hint(cards: CardSet, card_id: str) -> str:
    """A card of the game's set in words (``pbem rules rattaneer cards``), for hover."""
    return _card_texts(cards)[card_id]


def _card_texts(cards: CardSet) -> dict[str, str]:
    """Every card's text by id, as ``pbem rules rattaneer cards`` prints it; kept for the
    last set asked (a page draws one set at every position)."""
    if _TEXTS and _TEXTS[0][0] is cards:
        return _TEXTS[0][1]
    texts = {e.name: f"{e.name} ({e.section}): {e.text}" for e in card_entries(cards)}
    _TEXTS[:] = [(cards, texts)]
    return texts


_TEXTS: list[tuple[CardSet, dict[str, str]]] = []


def _bonus(bonus: Bonus) -> str:
    return f"+{bonus.vp} " + BONUS_TEXT[bonus.counts].format(per=bonus.per).replace(
        "for most henchmen on the treasure card", "most on treasure card"
    )


def _companions(cards: CardSet, ids: list[str]) -> str:
    if not ids:
        return "–"
    return ", ".join(f"{c} ({cards.companion(c).vp} VP)" for c in ids)


def _decks(state: State) -> str:
    parts = [
        _("Companion deck {n}").format(n=len(state.companion_deck)),
        _("discarded companions {n}").format(n=len(state.companion_discard)),
        _("sea deck {n}").format(n=len(state.sea_deck)),
        _("discarded trade ships {n}").format(n=len(state.sea_discard)),
    ]
    if state.options.treasures:
        parts.append(
            _("treasure cards face down on the island {n}").format(n=state.island_treasures)
        )
    if state.neutral:
        parts.append(_("neutral henchmen set aside {n}").format(n=state.neutral))
    return " · ".join(parts)
