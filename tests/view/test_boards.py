"""The drawings: the Rattus map agrees with the board's links, seats read apart, and the
Africanus pieces are drawn when the state has them."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from pbem.games.rattus import data
from pbem.ruleset import registry
from pbem.view.history import walk
from pbem.view.rattus_map import MapFile, rattus_map
from pbem.view.render import board_svg, page_html
from pbem.view.seats import ink_on, short_labels
from tests.helpers import guess_game
from tests.view.games import GAMES, history

Point = tuple[int, int]


def _edges(outline: list[Point]) -> set[frozenset[Point]]:
    return {frozenset((outline[i], outline[(i + 1) % len(outline)])) for i in range(len(outline))}


def _inside(point: Point, outline: list[Point]) -> bool:
    """Ray casting: is ``point`` inside the polygon?"""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in itertools.pairwise([*outline, outline[0]]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def test_neighbours_share_a_border_and_no_one_else_touches() -> None:
    """T-1: regions joined by a border share an outline edge; others share not even a
    corner; every printed arrow is drawn, and nothing else is."""
    board = data.board_file()
    drawing = rattus_map()
    assert {r.name for r in drawing.regions} == {r.name for r in board.regions}
    borders = {frozenset((k.a, k.b)) for k in board.links if k.kind == "border"}
    arrows = {frozenset((k.a, k.b)) for k in board.links if k.kind == "arrow"}
    outlines = {r.name: r.outline for r in drawing.regions}
    for a, b in itertools.combinations(outlines, 2):
        shared = _edges(outlines[a]) & _edges(outlines[b])
        touching = set(outlines[a]) & set(outlines[b])
        if frozenset((a, b)) in borders:
            assert shared, f"{a} and {b} are neighbours but share no edge"
        else:
            assert not touching, f"{a} and {b} touch at {touching} but are not neighbours"
    assert {frozenset((s.a, s.b)) for s in drawing.sea_links} == arrows


def test_each_label_lies_in_its_own_region_only() -> None:
    drawing = rattus_map()
    for region in drawing.regions:
        inside = [r.name for r in drawing.regions if _inside(region.label, r.outline)]
        assert inside == [region.name]


def test_the_map_schema_refuses_an_arrow_to_nowhere() -> None:
    raw = rattus_map().model_dump()
    raw["sea_links"].append({"a": "Anglia", "b": "Atlantis", "path": [[0, 0], [1, 1]]})
    with pytest.raises(ValueError, match="Atlantis"):
        MapFile.model_validate(raw)


def test_short_labels_tell_seats_apart() -> None:
    assert short_labels(["alice", "bob", "carol"]) == ["A", "B", "C"]
    assert short_labels(["anna", "arno"]) == ["An", "Ar"]
    assert short_labels(["bot1", "bot2", "bot3"]) == ["B1", "B2", "B3"]
    assert short_labels(["ann", "anon"]) == ["1", "2"]


def test_text_on_each_seat_colour_is_the_more_contrasting_one() -> None:
    assert ink_on("#0072B2") == "#FFFFFF"
    assert ink_on("#E69F00") == "#000000"


def test_caravan_and_diplomats_are_drawn_when_the_state_has_them() -> None:
    """T-1, T-6.9, T-6.10: the caravan's region and each diplomat, labelled in text."""
    game = next(g for g in GAMES if g[3] and g[1] == 6)
    h = history(game)
    position = h.positions[-1]
    state = position.state
    table = state.africa.model_copy(
        update={"caravan": "Numidia", "diplomats": [["Numidia"], *[[]] * (state.seats - 1)]}
    )
    numidia = next(r for r in state.regions if r.name == "Numidia")
    cubes = [3, *numidia.cubes[1:]]
    regions = [
        r.model_copy(update={"cubes": cubes}) if r.name == "Numidia" else r for r in state.regions
    ]
    moved = replace(position, state=state.model_copy(update={"africa": table, "regions": regions}))
    svg = board_svg(h, moved)
    assert svg is not None
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert "caravan" in texts
    assert "B1 3 D" in texts
    assert "Numidia" in texts and "Mauretania" in texts


def test_a_ruleset_without_a_drawing_shows_its_text_table() -> None:
    replay, _ = guess_game(2)
    h = walk(replay.to_file())
    html = page_html(h, h.position(None), source="g.json", reader=None)
    root = ET.fromstring(html)
    assert root.find(".//{http://www.w3.org/1999/xhtml}pre") is not None
    assert board_svg(h, h.position(None)) is None
    assert registry.get("guess").id == "guess"


def test_rattaneer_pieces_and_treasure_spots_carry_their_seat_labels() -> None:
    """R-1, R-5.2, R-6.5: after the reveal every piece names its seat in text, and each
    spot of the secret treasure card names its holder or says it is free."""
    h = history(GAMES[1])
    position = next(
        p for p in reversed(h.positions) if p.state is not None and p.state.board[1].pirates
    )
    state = position.state.model_copy(update={"spots": [0, None, 2, None, None, None]})
    svg = board_svg(h, replace(position, state=state))
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert {"8 VP: B1", "6 VP: free", "5 VP: B3"} <= set(texts)
    seat = state.board[1].pirates[0]
    assert any(t.startswith(f"B{seat + 1} pirate") for t in texts)
    assert "Tavern row (oldest first)" in "".join(texts)
