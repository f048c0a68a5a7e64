"""Pages of self-played games: well-formed, self-contained, and public unless asked.

Every page is parsed as XML, the packed frames too (each position of the game), so a tag
left open or a stray ``&`` anywhere fails. Secrets are scanned for as the sealed-deck tests
scan game files: an item nobody revealed publicly must not appear in any encoding.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from pbem.view.render import board_svg, frame_html
from pbem.view.seats import seats_of
from tests.view.games import GAMES, game_id, history, leaks, page, public_items, readable, unpack

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"
NAMESPACES = ("http://www.w3.org/1999/xhtml", "http://www.w3.org/2000/svg")


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_page_and_every_frame_are_well_formed(game: tuple) -> None:
    html = page(game)
    root = ET.fromstring(html)
    assert root.tag == f"{XHTML}html"
    assert root.find(f".//{XHTML}figure/{SVG}svg") is not None, "the page draws the board"
    data = unpack(html)
    h = history(game)
    assert len(data["order"]) == len(h.positions)
    for frame in data["frames"]:
        element = ET.fromstring(frame)
        svgs = element.findall(f".//{SVG}svg")
        assert len(svgs) <= 1
    drawn = [ET.fromstring(f).find(f".//{SVG}svg") is not None for f in data["frames"]]
    assert sum(drawn) >= len(data["frames"]) - 2, "only the positions before setup lack a board"


@pytest.mark.parametrize("game", [GAMES[1], GAMES[4], GAMES[8]], ids=game_id)
def test_the_packed_frames_are_the_positions_drawn(game: tuple) -> None:
    """Each distinct line packed once: unpacked as the script does, position k shows
    exactly the frame drawn for it, and the pack is far smaller than the frames."""
    html = page(game)
    data = unpack(html)
    h = history(game)
    seats = seats_of(h.replay.genesis)
    drawn = [frame_html(h, position, seats) for position in h.positions]
    assert [data["frames"][k] for k in data["order"]] == drawn
    packed = len(re.search(r'id="frames">([^<]*)<', html).group(1))
    assert packed * 4 < sum(len(f) for f in set(drawn))


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_the_board_alone_is_a_standalone_svg(game: tuple) -> None:
    h = history(game)
    svg = board_svg(h, h.position(None))
    assert svg is not None
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox")


@pytest.mark.parametrize("game", GAMES[:5], ids=game_id)
def test_page_fetches_nothing(game: tuple) -> None:
    """Self-contained: no URL but the XML namespaces, no external reference of any kind."""
    text = readable(page(game))
    urls = set(re.findall(r"[a-z]+://[^\s\"'<>)]+", text))
    assert urls <= set(NAMESPACES)
    assert not re.search(r"\b(src|href)=\"(?!#)", text)
    assert "@import" not in text and "url(" not in text.replace("url(#", "")


@pytest.mark.parametrize("game", [g for g in GAMES if g[0] == "rattus"], ids=game_id)
def test_public_page_holds_no_private_item(game: tuple) -> None:
    h = history(game)
    public = public_items(h)
    secret = {name: set(items) - public for name, items in h.replay.table.items.items()}
    assert any(secret.values())
    assert not leaks(readable(page(game)), secret)


@pytest.mark.parametrize("game", [g for g in GAMES if g[0] == "rattus" and g[3]], ids=game_id)
def test_private_page_shows_own_items_and_no_one_elses(game: tuple) -> None:
    """With --as, the seat's own hand (and what it peeked) appear; still nothing another
    seat alone knows, nor anything still secret to all."""
    h = history(game, 0)
    own = h.positions[-1].private
    assert own is not None and own.known
    public = public_items(h)
    text = readable(page(game, 0))
    for item in own.known.values():
        assert re.search(rf"(?<![\w-]){re.escape(item)}(?![\w-])", text), item
    secret = {
        name: set(items) - public - set(own.known.values())
        for name, items in h.replay.table.items.items()
    }
    assert not leaks(text, secret)


def test_public_and_private_pages_say_which_they_are() -> None:
    game = GAMES[-1]
    assert "Public page" in page(game)
    assert "Only you" not in page(game) and "Only bot1" not in page(game)
    private = page(game, 0)
    assert "Private page of bot1" in private
    assert "Only bot1 can see this" in readable(private)
