"""Rattus drawn: the map of the regions in use, with each region's face-down token count,
cubes per player, the plague, and with Africanus the diplomats and the caravan; beside it
the palace, the class cards, the token supply and the last revealed token.

The map is data (``rattus-map.json``, read through ``rattus_map``): only the regions the
state holds are drawn, so the same code draws 2 to 6 players, Europe alone or with North
Africa. Face-down tokens are counted, never named; a token the reader saw with the Witch
is named only on the reader's own page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from pydantic import BaseModel

from pbem.format.i18n import N_, _, ngettext
from pbem.games.rattus import flow, text, topics
from pbem.games.rattus.data import TokenFace
from pbem.games.rattus.scoring import parts
from pbem.games.rattus.state import RegionState, State, cards_of, faces_of
from pbem.ruleset.rulebook import Topic, citations
from pbem.ruleset.rules import Ruleset
from pbem.view.board import ROW, BoardView, Chip, Column, Note, Stack, ems
from pbem.view.history import Private
from pbem.view.rattus_map import MapRegion, rattus_map
from pbem.view.seats import Seat

MARGIN, TOP, PANEL = 14, 56, 250
CHIP_W, CHIP_GAP = 50, 2
BADGE_CHAR_W = 7.2
"""Approximate advance of one character of the 12 px bold badge text, for badge widths."""

BADGE_HINTS = {
    "tokens": N_(
        "face-down rat tokens here (T-1.5): revealed when the plague resolves the "
        "region (T-7); spreading adds more, at most 3 (T-5.C.3)"
    ),
    "plague": N_(
        "the plague piece (T-5.C.1): it moves each turn, and where it stops with "
        "tokens the region is resolved"
    ),
    "caravan": N_("the caravan (T-6.10): its next move starts here"),
}
"""What each badge on a region stands for, shown on hover (translated where drawn)."""

PHASES = {
    "setup": N_("setting up"),
    "start": N_("starting cubes (T-3.8)"),
    "caravan": N_("placing the caravan (T-3.9)"),
    "final_round": N_("final round (T-9.2)"),
    "final_plague": N_("final plague (T-9.3)"),
    "over": N_("game over"),
}
"""What the game is doing, by phase (translated where drawn)."""
ON_TURN = N_("on turn")
"""What the active player is doing in any other phase of play."""


@dataclass(frozen=True)
class Badge:
    """A dark label on a region: its token count, the plague, the caravan."""

    x: float
    y: float
    width: float
    text: str
    style: str
    hint: str = ""
    picks: str = ""
    """The handles of the face-down tokens it counts, to pick one by clicking (``pbem ui``)."""


@dataclass(frozen=True)
class Region:
    """One region in use: its outline and what stands in it. A value (frozen, of tuples):
    most regions look the same from one step to the next, and a page draws each look once
    (``pbem.view.render.region_svg``)."""

    name: str
    points: str
    x: float
    y: float
    highlight: bool
    badges: tuple[Badge, ...]
    chips: tuple[Chip, ...]
    notes: tuple[Note, ...]


@dataclass
class Arrow:
    """A sea link (T-1): a dashed line with heads at both ends."""

    path: str


@dataclass
class Board:
    """What ``rattus.svg.j2`` draws, laid out in SVG units."""

    width: float
    height: float
    heading: str
    subheading: str
    dx: float
    dy: float
    """Where the map's own coordinates are moved to, below the heading."""
    regions: list[Region]
    arrows: list[Arrow]
    panel_x: float
    panel: Stack


class RattusView(BoardView):
    """Rattus's drawing and players table, with or without Africanus."""

    template: ClassVar[str | None] = "rattus.svg.j2"

    def board(
        self, rules: Ruleset, state: BaseModel, seats: list[Seat], private: Private | None
    ) -> Board:
        assert isinstance(state, State)
        drawing = rattus_map()
        names = [r.name for r in state.regions]
        shapes = [drawing.region(r.name) for r in state.regions]
        links = [a for a in drawing.sea_links if a.a in names and a.b in names]
        xs = [p[0] for s in shapes for p in s.outline] + [p[0] for a in links for p in a.path]
        ys = [p[1] for s in shapes for p in s.outline] + [p[1] for a in links for p in a.path]
        dx, dy = MARGIN - min(xs), TOP - min(ys)
        known = private.known if private is not None else {}
        regions = [
            _region(state, seats, here, shape, known)
            for here, shape in zip(state.regions, shapes, strict=True)
        ]
        arrows = [Arrow(" L ".join(f"{x} {y}" for x, y in a.path)) for a in links]
        panel_x = max(xs) + dx + 30
        panel = _panel(state, seats, panel_x)
        return Board(
            width=panel_x + PANEL + MARGIN,
            height=max(max(ys) + dy, panel.y) + MARGIN,
            heading=_heading(state),
            subheading=_subheading(state, seats),
            dx=dx,
            dy=dy,
            regions=regions,
            arrows=arrows,
            panel_x=panel_x,
            panel=panel,
        )

    def columns(self, state: BaseModel, seats: list[Seat]) -> list[Column]:
        assert isinstance(state, State)
        on_map = [sum(r.cubes[s.index] for r in state.regions) for s in seats]
        held = [cards_of(state, s.index) for s in seats]
        columns = [
            Column(
                _("Class cards"),
                [", ".join(cards) or "–" for cards in held],
                [" | ".join(_abilities()[c] for c in cards) for cards in held],
            ),
            Column(_("Cubes on the map"), [str(n) for n in on_map]),
            Column(_("Palace"), [str(n) for n in state.palace]),
            Column(_("Cubes left"), [str(n) for n in state.cube_supply]),
        ]
        if state.africa is not None:
            table = state.africa
            columns.append(Column(_("Region cards in hand"), [str(len(h)) for h in table.hands]))
            columns.append(
                Column(
                    _("Diplomats"),
                    [
                        ", ".join([*where, *([_("palace")] * n)]) or "–"
                        for where, n in zip(table.diplomats, table.palace_diplomats, strict=True)
                    ],
                )
            )
        points = [
            f"{sum(p)} ({'+'.join(map(str, p))})" if state.africa is not None else str(sum(p))
            for p in parts(state)
        ]
        title = _("Points so far (cubes+cards+diplomats)") if state.africa else _("Points so far")
        columns.append(Column(title, points))
        return columns

    def citations(self, rules: Ruleset, state: BaseModel) -> list[str]:
        """The decision's prompt, and for the engine's own steps what they are for: the
        reveals (``text.REVEALS``) and a new region deck (T-6)."""
        assert isinstance(state, State)
        found = super().citations(rules, state)
        stage = flow.stage(state)
        more = text.REVEALS.get(stage, "T-6" if stage == "reshuffle" else "")
        return found + [c for c in citations(more) if c not in found]

    def legend(self, rules: Ruleset, state: BaseModel, options: dict[str, Any]) -> list[Topic]:
        """The class cards in this game, and the token symbols that can hit them."""
        assert isinstance(state, State)
        in_play = [c.name for c in state.cards]
        book = topics.shipped()
        cards = topics.classes(book)
        return [
            Topic(
                "classes",
                _("Class cards in this game"),
                cards.intro,
                tuple(e for e in cards.entries if e.name in in_play),
            ),
            Topic(
                "tokens",
                _("Rat token symbols"),
                _("What a revealed token's face means (T-1.5, T-7)."),
                tuple(topics.symbol_entries(book, in_play)),
            ),
        ]


@cache
def _abilities() -> dict[str, str]:
    """Each class card's ability in words, for hover: ``Witch (T-6.5): Look secretly...``."""
    entries = topics.classes(topics.shipped()).entries
    return {e.name: f"{e.name} ({e.section}): {e.text}" for e in entries}


@cache
def _symbols() -> dict[str, str]:
    """What each token symbol does, by symbol (``threshold 1-6``, icons, ``M``, ``A``)."""
    return {e.name: e.text for e in topics.symbol_entries(topics.shipped())}


def _face_hint(face: TokenFace) -> str:
    """A revealed face explained symbol by symbol, for hover."""
    parts = [_("threshold {n}: breaks out with {n} or more cubes there").format(n=face.threshold)]
    parts += [f"{icon}: {_symbols()[icon]}" for icon in face.icons]
    parts += [f"M: {_symbols()['M']}"] if face.majority else []
    parts += [f"A: {_symbols()['A']}"] if face.all else []
    return " | ".join(parts)


def _heading(state: State) -> str:
    game = _("Rattus with Africanus") if state.options.africanus else "Rattus"
    players = ngettext("{n} player", "{n} players", state.seats).format(n=state.seats)
    turn = " · " + _("turn {n}").format(n=state.turn) if state.turn else ""
    return f"{game} · {players}{turn}"


def _subheading(state: State, seats: list[Seat]) -> str:
    where = (
        _("plague in {region}").format(region=state.plague)
        if state.plague
        else _("plague not placed yet")
    )
    active = seats[state.active]
    if state.phase in ("turn", "start", "caravan", "final_round", "final_plague"):
        doing = _(PHASES.get(state.phase, ON_TURN))
        return f"{where} · {active.label} {active.name}: {doing}"
    return f"{where} · {_(PHASES.get(state.phase, state.phase))}"


def _region(
    state: State, seats: list[Seat], here: RegionState, shape: MapRegion, known: dict[str, str]
) -> Region:
    """A region's outline and what is in it: badges (tokens, plague, caravan) under its
    name, then two columns of cube chips, then the tokens the reader saw."""
    name, (x, y) = here.name, shape.label
    count = len(here.tokens)
    handles = " ".join(here.tokens)
    texts = [
        (
            ngettext("{n} token", "{n} tokens", count).format(n=count),
            "tokens",
            _(BADGE_HINTS["tokens"]),
            handles,
        )
    ]
    if state.plague == name:
        texts.append((_("PLAGUE"), "plague", _(BADGE_HINTS["plague"]), ""))
    if state.africa is not None and state.africa.caravan == name:
        texts.append((_("caravan"), "caravan", _(BADGE_HINTS["caravan"]), ""))
    widths = [ems(t[0]) * BADGE_CHAR_W + 10 for t in texts]
    left = x - (sum(widths) + 4 * (len(widths) - 1)) / 2
    badges = []
    for (label, style, hint, picks), width in zip(texts, widths, strict=True):
        badges.append(Badge(left, y + 6, width, label, style, hint, picks))
        left += width + 4
    present = [s for s in seats if here.cubes[s.index]]
    chips = []
    for k, seat in enumerate(present):
        diplomat = state.africa is not None and name in state.africa.diplomats[seat.index]
        text = f"{seat.label} {here.cubes[seat.index]}" + (" D" if diplomat else "")
        col, row = k % 2, k // 2
        chips.append(
            Chip(x - CHIP_W + col * (CHIP_W + CHIP_GAP), y + 28 + row * ROW, CHIP_W, seat, text)
        )
    faces = faces_of(state)
    rows = -(-len(present) // 2)
    notes = [
        Note(
            x,
            y + 42 + rows * ROW + i * 14,
            _("you saw {token}").format(token=_face(faces[known[h]])),
            "seen",
            _face_hint(faces[known[h]]),
            pick=h,
        )
        for i, h in enumerate(t for t in here.tokens if t in known)
    ]
    resolving = state.resolution is not None and state.resolution.region == name
    return Region(
        name=name,
        points=" ".join(f"{px},{py}" for px, py in shape.outline),
        x=x,
        y=y,
        highlight=resolving,
        badges=tuple(badges),
        chips=tuple(chips),
        notes=tuple(notes),
    )


def _face(face: TokenFace) -> str:
    """A token face in words: its id, threshold and symbols (T-1)."""
    symbols = [*face.icons, *(["M"] if face.majority else []), *(["A"] if face.all else [])]
    return f"{face.id} ({face.threshold}+: {' '.join(symbols)})"


def _panel(state: State, seats: list[Seat], x: float) -> Stack:
    """The side panel: who is who, the palace, the class cards, the supplies."""
    at = Stack(x, TOP + 2, PANEL)
    at.note(_("Players"), "name")
    for s in seats:
        at.chip(s, f"{s.label} = {s.name}")
    at.gap()
    at.note(_("Palace (safe)"), "name")
    in_palace = [s for s in seats if state.palace[s.index]]
    for s in in_palace:
        count = state.palace[s.index]
        at.chip(s, f"{s.label} " + ngettext("{n} cube", "{n} cubes", count).format(n=count))
    if not in_palace:
        at.note(_("empty"))
    at.gap()
    at.note(_("Class cards"), "name")
    for card in state.cards:
        holder = seats[card.holder] if card.holder is not None else None
        at.chip(
            holder,
            f"{card.name}: " + (holder.label if holder else _("in the supply")),
            _abilities()[card.name],
            pick=card.name,
        )
    at.gap()
    at.note(_("Rat tokens"), "name")
    at.note(_("{n} face down in the supply").format(n=len(state.token_supply)))
    at.note(
        _("{removed} removed unseen · {revealed} revealed").format(
            removed=len(state.removed), revealed=len(state.revealed)
        )
    )
    if state.revealed:
        last = state.revealed[-1]
        face = faces_of(state)[last.face]
        at.note(_("last: {token}").format(token=_face(face)), hint=_face_hint(face))
        lost = [f"{seats[i].label} −{n}" for i, n in enumerate(last.losses) if n]
        effect = (
            _("broke out: {losses}").format(losses=", ".join(lost) or _("no loss"))
            if last.broke_out
            else _("no effect")
        )
        at.note(_("in {region}, {effect}").format(region=last.region, effect=effect))
    if state.africa is not None:
        _africa(state, seats, at)
    return at


def _africa(state: State, seats: list[Seat], at: Stack) -> None:
    """Africanus: the region cards (deck, hands, discards) and, with the Sultan in play,
    the diplomats (T-4)."""
    table = state.africa
    assert table is not None
    at.gap()
    at.note(_("Region cards"), "name")
    at.note(
        _("{deck} in the deck · {discards} discarded").format(
            deck=len(table.deck), discards=len(table.discards)
        )
    )
    hands = ", ".join(f"{s.label} {len(h)}" for s, h in zip(seats, table.hands, strict=True))
    at.note(_("in hand: {hands}").format(hands=hands))
    if state.resolution is not None and state.resolution.played:
        for played in state.resolution.played:
            who = seats[played.seat].label
            at.chip(
                seats[played.seat],
                _("{seat} protects {region}").format(seat=who, region=played.protects),
            )
    if table.diplomat_supply or any(table.diplomats) or any(table.palace_diplomats):
        at.gap()
        at.note(_("Diplomats (D on the map)"), "name")
        at.note(_("{n} in the supply").format(n=table.diplomat_supply))
        for s in seats:
            if table.palace_diplomats[s.index]:
                n = table.palace_diplomats[s.index]
                at.chip(s, _("{seat} {n} in the palace").format(seat=s.label, n=n))
