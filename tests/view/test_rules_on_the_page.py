"""The rules at hand on the page: every class card, companion card and token symbol has its
effect on hover (an SVG ``<title>``, a table cell's ``title``) and in the printed legend,
and each position shows the rule sections its decision cites."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from pbem.format import i18n
from pbem.games.rattaneer.state import State as RattaneerState
from pbem.games.rattus import data, flow
from pbem.games.rattus.state import State as RattusState
from pbem.games.rattus.topics import shipped
from pbem.ruleset import registry
from pbem.ruleset.rulebook import citations
from pbem.view.render import board_svg, frame_html
from pbem.view.rules_panel import blocks, shown
from pbem.view.seats import seats_of
from tests.view.games import GAMES, history, page

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"
RATTANEER, AFRICANUS = GAMES[2], GAMES[-1]  # a whole 4-player game; 6 players, 100 steps


def _legend(html: str) -> dict[str, str]:
    """The printed legend: each term and its text."""
    root = ET.fromstring(html)
    legend = root.find(f".//{XHTML}section[@id='legend']")
    assert legend is not None, "the page has no legend"
    terms = legend.findall(f".//{XHTML}dt")
    texts = legend.findall(f".//{XHTML}dd")
    pairs = zip(terms, texts, strict=True)
    return {"".join(t.itertext()).split()[0]: "".join(d.itertext()) for t, d in pairs}


def _titles(svg: str) -> list[tuple[str, str]]:
    """Each hover title in the board and the text of the piece it belongs to."""
    root = ET.fromstring(svg)
    out = []
    for parent in root.iter():
        title = parent.find(f"{SVG}title")
        if title is not None:
            hint = title.text or ""
            label = " ".join("".join(parent.itertext()).replace(hint, "", 1).split())
            out.append((label, hint))
    return out


def test_legend_explains_the_class_cards_in_play_and_every_token_symbol() -> None:
    h = history(AFRICANUS)
    state = h.positions[-1].state
    assert isinstance(state, RattusState)
    legend = _legend(page(AFRICANUS))
    for card in state.cards:
        assert card.name in legend, card.name
    # Which 8 of the 10 classes are in play follows from the draws, and so from the rules'
    # hash in the genesis: check the wording of those that are.
    wording = {
        "Witch": "Look secretly at two face-down tokens",
        "Caravan": "may place 1 extra cube",
    }
    assert wording.keys() & legend.keys()
    for name in wording.keys() & legend.keys():
        assert wording[name] in legend[name], name
    # the icons of the classes in play, and only those (which ones follows from the draws)
    in_play = {card.name for card in state.cards}
    icons = {c.icon for c in data.class_cards() if c.name in in_play}
    absent = {c.icon for c in data.class_cards()} - icons
    for symbol in ("threshold", "M", "A", *icons):
        assert symbol in legend, symbol
    assert not absent & legend.keys(), absent & legend.keys()
    assert "most cubes" in legend["M"] and "at least that many cubes" in legend["threshold"]


def test_legend_lists_every_companion_card_of_the_set() -> None:
    h = history(RATTANEER)
    state = h.positions[-1].state
    assert isinstance(state, RattaneerState)
    legend = _legend(page(RATTANEER))
    for card in state.options.card_set().companions:
        assert card.id in legend, card.id
    assert legend["C12"] == "cost 2 coins, 0 VP; at the end +1 VP per other companion"
    assert "T8" not in legend  # no treasure cards in a game without option treasures


def test_class_cards_and_token_faces_have_their_effect_on_hover() -> None:
    h = history(AFRICANUS)
    position = h.position(None)
    state = position.state
    assert isinstance(state, RattusState)
    titles = _titles(board_svg(h, position))
    for card in state.cards:
        chip = [t for label, t in titles if label.startswith(f"{card.name}: ")]
        assert chip and chip[0].startswith(f"{card.name} (T-6."), card.name
    first = {"Witch": "Look secretly", "Caravan": "may place 1 extra cube"}  # those in play
    shown = [
        (t, words)
        for name, words in first.items()
        for label, t in titles
        if label.startswith(f"{name}: ")
    ]
    assert shown and all(words in t for t, words in shown)
    assert any("tokens here (T-1.5)" in t for _, t in titles)
    if state.revealed:
        last = next(t for label, t in titles if label.startswith("last: "))
        assert last.startswith("threshold ") and "breaks out with" in last
    seats = seats_of(h.replay.genesis)
    frame = ET.fromstring(frame_html(h, position, seats))
    holders = [c for c in state.cards if c.holder is not None]
    cells = {td.get("title") for td in frame.iter("td") if td.get("title")}
    assert holders and all(any(f"{c.name} (T-6." in cell for cell in cells) for c in holders)


def test_companion_and_sea_cards_have_their_text_on_hover() -> None:
    h = history(RATTANEER)
    for position in h.positions[10:40:7]:
        state = position.state
        assert isinstance(state, RattaneerState)
        titles = dict(_titles(board_svg(h, position)))
        hovered = {label.split()[0]: t for label, t in titles.items() if label}
        for card in state.tavern:
            assert hovered[card].startswith(f"{card} (R-9.1): cost "), card
        for sea in state.seas:
            for card in sea:
                assert hovered[card].startswith(f"{card} (R-6.3."), card


def _panel_ids(frame: str) -> list[str] | None:
    """The section ids a frame's rules panel shows (a frame is a fragment: no namespace)."""
    panel = ET.fromstring(frame).find(".//section[@class='rules-panel']")
    if panel is None:
        return None
    return [e.text or "" for e in panel.iter("code")]


def test_each_position_shows_the_sections_its_decision_cites() -> None:
    h = history(RATTANEER)
    seats = seats_of(h.replay.genesis)
    seen: set[str] = set()
    for position in h.positions:
        if position.state is None:
            continue
        decision = h.rules.pending(position.state)
        words = getattr(decision, "prompt", "") or getattr(decision, "reason", "")
        ids = _panel_ids(frame_html(h, position, seats))
        cited = citations(words)
        if not cited:
            assert ids is None, words
            continue
        assert ids is not None and cited[0] in ids, (cited, ids)
        seen.add(cited[0])
    assert {"R-5.1", "R-7.B"} <= seen  # the Morning's placement and the Night's draw


def test_rattus_reveals_show_what_they_are_for() -> None:
    # A reveal has no prompt: the panel cites what the reveal is for (T-7: a token).
    h = history(AFRICANUS)
    seats = seats_of(h.replay.genesis)
    for position in h.positions:
        if position.state is not None and flow.stage(position.state) == "reveal":
            assert "T-7" in (_panel_ids(frame_html(h, position, seats)) or [])
            return
    raise AssertionError("no token reveal in the game")


def test_the_rules_panel_is_in_the_readers_language() -> None:  # issue 30
    h = history(RATTANEER)
    seats = seats_of(h.replay.genesis)
    position = next(
        p
        for p in h.positions
        if p.state is not None and "R-5.1" in getattr(h.rules.pending(p.state), "prompt", "")
    )
    english = frame_html(h, position, seats)
    japanese_book = h.rules.rulebook("ja")
    assert japanese_book is not None
    section = japanese_book.get("R-5.1")
    assert section is not None
    i18n.use("ja")
    try:
        japanese = frame_html(h, position, seats)
    finally:
        i18n.use(i18n.ENGLISH)
    assert section.title in japanese and section.title not in english
    assert _panel_ids(japanese) == _panel_ids(english)


def test_a_finished_game_shows_no_rules_panel() -> None:
    h = history(RATTANEER)
    last = h.positions[-1]
    assert last.result is not None
    assert _panel_ids(frame_html(h, last, seats_of(h.replay.genesis))) is None


def test_the_panel_shows_a_section_with_what_is_under_it_once() -> None:
    book = registry.get("rattus").rulebook()
    panel = shown(book, ["T-5", "T-5.C.3", "T-99"])
    assert [s.id for s in panel][:4] == ["T-5", "T-5.A", "T-5.B", "T-5.C"]
    assert [s.id for s in panel].count("T-5.C.3") == 1
    assert all(s.id != "T-99" for s in panel)
    assert next(s for s in panel if s.id == "T-5.B").rulings


def test_rules_text_cannot_inject_markup() -> None:
    (block,) = blocks("A <script>x</script> & **bold** `code`")
    assert str(block.text) == (
        "A &lt;script&gt;x&lt;/script&gt; &amp; <strong>bold</strong> <code>code</code>"
    )
    (items,) = blocks("- **M**: majority\n  and more\n- **A**: all")
    assert [str(i) for i in items.items] == [
        "<strong>M</strong>: majority and more",
        "<strong>A</strong>: all",
    ]
    assert shipped().get("T-1.5") is not None
