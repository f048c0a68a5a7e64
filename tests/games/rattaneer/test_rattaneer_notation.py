"""The text notation: parsing, formatting, help, summaries, and the rendered table."""

from __future__ import annotations

import pytest

from pbem.games.rattaneer import notation
from pbem.games.rattaneer.actions import Buy, Flip, Hire, Pass, Place, Spot, Take
from pbem.games.rattaneer.state import Day, State
from pbem.ruleset.rules import RulesError

NAMES = ["Anne", "Bart", "Cleo", "Dirk"]
PLACE = Place(pirates=[3, 7], henchmen=[3, 3])


def at(state: State, phase: str, area: int = 0, ship: int = 0) -> State:
    """The same table, pretending a given decision is pending (parsing reads only that)."""
    state.phase = phase  # type: ignore[assignment]
    state.day = Day(area=area, queue=[0], ship=ship) if phase == "day" else None
    return state


@pytest.mark.parametrize(
    ("phase", "area", "ship", "text", "action", "formatted"),
    [
        ("morning", 0, 0, "pirates 3 7, henchmen 3 3 X", PLACE, None),
        ("morning", 0, 0, "P 7 3 h x 3,3", PLACE, "pirates 3 7, henchmen 3 3 X"),
        ("morning", 0, 0, "p 10 1 h x x x", Place(pirates=[1, 10]), "pirates 1 10, henchmen X X X"),
        ("day", 2, 0, "buy c05", Buy(card="C05"), "buy C05"),
        ("day", 2, 0, "hire", Hire(), None),
        ("day", 2, 0, "buy henchman", Hire(), "hire"),
        ("day", 2, 0, "PASS", Pass(), "pass"),
        ("day", 4, 0, "take p2-3", Take(card="P2-3"), "take P2-3"),
        ("day", 4, 2, "flip P3-4 p1-1", Flip(cards=["P1-1", "P3-4"]), "flip P1-1 P3-4"),
        ("day", 9, 0, "flip P1-1 P1-1", Flip(cards=["P1-1", "P1-1"]), None),
        ("day", 10, 0, "spot 8", Spot(vp=8), None),
        ("final", 0, 0, "flip S1-1", Flip(cards=["S1-1"]), None),
    ],
)  # fmt: skip
def test_parse_and_format_round_trip(rules, table, phase, area, ship, text, action, formatted):
    state = at(table(4), phase, area, ship)
    state.players[0].henchmen = 3
    assert rules.parse_action(state, 0, text) == action
    assert rules.format_action(state, 0, action) == (formatted or text)
    assert rules.parse_action(state, 0, rules.format_action(state, 0, action)) == action


@pytest.mark.parametrize(
    ("phase", "area", "text", "message"),
    [
        ("morning", 0, "", "expected 'pirates A B, henchmen H H …'"),
        ("morning", 0, "pirates 3", "expected two pirate areas"),
        ("morning", 0, "pirates 3 7 8", "expected two pirate areas"),
        ("morning", 0, "pirates 3 7; henchmen 3", "expected two pirate areas"),
        ("morning", 0, "pirates 3 7", "R-5.1: you have 1 henchman available: list 1 area or X"
         " after 'henchmen', one for each; 'pirates 3 7' lists 0"),
        ("morning", 0, "pirates 3 7 h 3 x", "'pirates 3 7 h 3 x' lists 2"),
        ("morning", 0, "pirates 3 7 h 3 Y", "a henchman goes on an area 1–10 or X, not 'y'"),
        ("morning", 0, "buy C05", "expected 'pirates A B"),
        ("day", 2, "take P1-1", "expected 'buy <companion>'"),
        ("day", 2, "buy", "expected 'buy <companion>'"),
        ("day", 2, "buy C05 C06", "expected 'buy <companion>'"),
        ("day", 2, "buy ZZ9", "no card is called 'ZZ9'"),
        ("day", 2, "pass now", "'pass' takes nothing after it"),
        ("day", 5, "take", "expected 'take <card>'"),
        ("day", 5, "pass", "expected 'take <card>'"),
        ("day", 9, "flip", "expected 'flip <card> …'"),
        ("day", 10, "spot eight", "expected 'spot <VP>'"),
        ("day", 10, "spot ²", "expected 'spot <VP>'"),
        ("final", 0, "take P1-1", "expected 'flip <card>' .* or 'pass'"),
        ("night", 0, "pass", "no move is awaited now"),
    ],
)  # fmt: skip
def test_parse_errors_say_what_was_expected(rules, table, phase, area, text, message):
    state = at(table(4), phase, area)
    with pytest.raises(RulesError, match=message):
        rules.parse_action(state, 0, text)


def test_notation_help(rules, table, reveal):
    state = table(4)
    help_text = rules.notation_help(state, 0)
    assert "pirates 3 7, henchmen 3 3 X" in help_text and "R-5.1" in help_text
    assert "For example: pirates 1 2" in help_text
    assert "Pirates on 2 different areas 1–10;" in help_text  # areas 1-10
    assert "{" not in help_text
    for player in state.players:
        player.coins = 0
    state.workshop = 0
    state.players[2].coins = 3
    state.tavern = ["C01", "C10"]
    state = reveal(
        state,
        {
            0: "pirates 1 3, henchmen X",
            1: "pirates 1 4, henchmen X",
            2: "pirates 2 5, henchmen X",
            3: "pirates 1 6, henchmen X",
        },
    )
    help_text = rules.notation_help(state, 2)
    assert "'buy <companion>'" in help_text and "buy C01" in help_text and "hire" in help_text
    assert rules.notation_help(rules.setup({}, 2), 0) == "No move is awaited now."


def test_summaries(rules, table):
    state = at(table(4), "day", 2)
    assert rules.summary(state, 0, Buy(card="C10"), NAMES) == "Anne buys C10 (5 VP) for 5 coins"
    assert rules.summary(state, 0, Hire(), NAMES) == "Anne hires a henchman for 1 coin"
    assert rules.summary(state, 0, Pass(), NAMES) == "Anne passes at area 2 (Tavern)"
    state = at(state, "day", 4, ship=1)
    assert rules.summary(state, 0, Flip(cards=["P1-1"]), NAMES) == (
        "Anne turns P1-1 face down with a trade ship"
    )
    state = at(state, "day", 10)
    assert (
        rules.summary(state, 0, Spot(vp=8), NAMES)
        == "Anne puts a henchman on the 8 VP treasure spot"
    )
    state = at(state, "final")
    assert rules.summary(state, 0, Flip(cards=["P1-1"]), NAMES) == (
        "Anne turns P1-1 face down (free flip at the end)"
    )
    state = at(state, "morning")
    assert rules.summary(state, 1, Place(pirates=[2, 5], henchmen=[5]), NAMES) == (
        "Bart places pirates 2 5, henchmen 5"
    )


def test_render_text(rules, table, reveal):
    state = table(4, treasures="yes")
    text = rules.render_text(state, NAMES)
    assert "round 1/10 · Morning" in text
    assert "Asked of Anne, Bart, Cleo, Dirk: Morning of round 1" in text
    assert "sealed until all have committed" in text
    assert "Land priority: Anne · sea priority: Cleo" in text
    assert " 1 Workshop" in text and "4 coins" in text
    assert all(card in text for card in state.tavern)
    assert all(card in text for sea in state.seas for card in sea)
    assert "Decks: companions 18 · sea 36" in text and "treasure cards face down: 5" in text
    assert "pirate" not in text.split("Decks")[0]  # nothing placed is shown before the reveal
    assert "Anne: 2 coins · 1 henchmen (supply 7, on the treasure card 0) · VP so far 1" in text
    for player in state.players:
        player.coins = 0
    state.workshop = 0
    state.players[1].coins = 1
    state = reveal(
        state,
        {
            0: "pirates 1 3, henchmen 3",
            1: "pirates 2 4, henchmen X",
            2: "pirates 1 5, henchmen X",
            3: "pirates 1 6, henchmen X",
        },
    )
    text = rules.render_text(state, NAMES)
    assert "Day, area 2" in text and "Awaiting Bart: Tavern" in text
    assert "Anne: pirate + 1 henchman" in text
    state.phase = "over"
    assert "Game over. Winner:" in rules.render_text(state, NAMES)


@pytest.mark.parametrize(
    ("phase", "area", "ship", "verbs"),
    [
        ("morning", 0, 0, {"pirates"}),
        ("day", 2, 0, {"buy", "hire", "pass"}),
        ("day", 4, 0, {"take"}),
        ("day", 4, 1, {"flip", "pass"}),
        ("day", 9, 0, {"flip", "pass"}),
        ("day", 10, 0, {"spot", "pass"}),
        ("final", 0, 0, {"flip", "pass"}),
    ],
)
def test_every_decision_has_help_with_examples_that_are_legal(
    rules, table, phase, area, ship, verbs
):
    # What `pbem moves` prints for each kind of decision: what is asked, the notation, and
    # examples spread over the legal moves, each of which reads back as a legal action.
    state = table(4)
    state.players[0].coins = 3
    state.players[0].face_up = ["P1-1", "P2-3", "P3-4"]
    state.tavern = ["C01", "C10"]
    state.seas[1] = ["P1-1", "P2-3"]  # area 4
    state.flip_seats = [0]
    state = at(state, phase, area, ship)
    help_text = rules.notation_help(state, 0)
    assert help_text.startswith(rules.pending(state).prompt) and "Type '" in help_text
    examples = help_text.split("For example: ")[1].split(" | ")
    assert 1 < len(examples) <= notation.EXAMPLES
    assert {text.split()[0] for text in examples} == verbs
    for text in examples:
        rules.check(state, 0, rules.parse_action(state, 0, text))
