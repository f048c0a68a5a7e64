"""The text notation, its help, and the table as text."""

from __future__ import annotations

import pytest

from pbem.games.rattus.actions import Bonus, Explore, Merchant, Plague, Spread, Witch
from pbem.games.rattus.notation import USAGE
from pbem.ruleset.rules import RulesError

from .harness import RULES, Table, face, position

NAMES = ["Alice", "Bob", "Carol"]
AFRICANUS_VERBS = {
    "astronomer",
    "choose",
    "explorer",
    "explore",
    "sultan",
    "caravan",
    "bonus",
    "protect",
}


def test_each_verb_parses_to_its_action() -> None:
    s = position(tokens={"Gallia": ["tokens/0"]})
    parse = RULES.parse_action
    assert parse(s, 0, "merchant gall ITALIA 2") == Merchant(
        source="Gallia", target="Italia", cubes=2
    )
    assert parse(s, 0, "plague Germ Hung") == Plague(path=["Germania", "Hungaria"])
    assert parse(s, 0, "witch tokens/7 start/2") == Witch(tokens=["start/2", "tokens/7"])
    assert parse(s, 0, "spread Italia Anglia") == Spread(regions=["Anglia", "Italia"])
    assert parse(s, 0, "TAKE kni").card == "Knight"
    assert parse(s, 0, "end").type == "end"


def test_optional_choices_read_none() -> None:
    # T-6.8, T-6.10: the Explorer's cube and the caravan's extra cube may be declined.
    s = position()
    for line, action in [
        ("explore none", Explore(region=None)),
        ("explore gall", Explore(region="Gallia")),
        ("bonus NONE", Bonus(region=None)),
        ("bonus Ital", Bonus(region="Italia")),
    ]:
        assert RULES.parse_action(s, 0, line) == action
        assert RULES.parse_action(s, 0, RULES.format_action(s, 0, action)) == action
    assert RULES.format_action(s, 0, Bonus(region=None)) == "bonus none"


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("", "empty action"),
        ("fly Gallia", "unknown verb"),
        ("place", "usage: place <region>"),
        ("place Gallia Italia", "unexpected 'Italia'"),
        ("place H", "ambiguous region 'H'"),
        ("place Russia", "unknown region"),
        ("take K", "ambiguous class card"),
        ("merchant Gallia Italia many", "expected a number"),
        ("monk Gallia Italia", "expected a token, and no token lies in Gallia"),
        ("monk Atlantis Italia", "expected a token: its region"),
        ("plague", "usage: plague"),
    ],
)
def test_bad_notation_says_what_was_expected(line: str, why: str) -> None:
    with pytest.raises(RulesError, match=why):
        RULES.parse_action(position(), 0, line)


def test_help_lists_legal_verbs_with_legal_examples() -> None:
    # notation_help: each verb legal now, with an example that is legal now.
    s = position(tokens={"Gallia": ["tokens/0", "tokens/1"]}, cards={"Witch": 0})
    help_text = RULES.notation_help(s, 0)
    lines = help_text.splitlines()
    verbs = [line.split()[0] for line in lines[:-1]]
    assert verbs == ["take", "place", "witch"]
    for line in lines[:-1]:
        example = line.split("e.g. ")[1]
        RULES.check(s, 0, RULES.parse_action(s, 0, example))
    assert RULES.notation_help(s, 1) == "Nothing is awaited from you now."


def test_help_for_each_kind_of_decision() -> None:
    # Every decision a game reaches has help with a legal example, in every stage.
    table = Table.new(3, seed=11)
    seen = set()

    def watch(s: object) -> None:
        decision = RULES.pending(table.state)
        if decision.kind == "turn":
            text = RULES.notation_help(table.state, decision.seat)
            lines = text.splitlines()[:-1]
            seen.update(line.split()[0] for line in lines)
            assert lines and all("e.g. " in line for line in lines)

    table.play(["random"], watch)
    assert seen == set(USAGE) - AFRICANUS_VERBS


def test_render_text_shows_the_table() -> None:
    s = position(
        tokens={"Gallia": ["tokens/0", "start/3"]},
        cubes={"Gallia": [2, 0, 1]},
        cards={"Witch": 1},
        palace=[0, 3, 0],
    )
    text = RULES.render_text(s, NAMES)
    gallia = next(line for line in text.splitlines() if line.startswith("Gallia"))
    assert gallia.split() == ["Gallia", "(plague)", "2", "2", ".", "1", "tokens/0", "start/3"]
    assert "Witch: Bob" in text and "Peasant: -" in text
    assert any(line.split() == ["Palace", ".", "3", "."] for line in text.splitlines())
    assert any(line.split() == ["Cubes", "left", "18", "17", "19"] for line in text.splitlines())
    assert "Token supply: 47 face down" in text
    last = "Awaiting Alice: T-5: take a class card, place cubes, then move the plague"
    assert text.splitlines()[-2:] == [last, "Rules: pbem rules rattus T-5"]


def test_render_text_of_a_finished_game() -> None:
    table = Table.new(2, seed=5)
    table.play(["greedy"], lambda s: None)
    text = RULES.render_text(table.state, NAMES[:2])
    assert "Game over:" in text and "wins with" in text


def test_render_private_shows_what_the_witch_saw() -> None:
    # T-6.5: the holder's private view names each face it looked at and where it lies now.
    faces = {"tokens/0": face(1, ["bourgeoisie"], a=True), "tokens/2": face(2, ["royalty"])}
    t = Table(
        position(tokens={"Gallia": ["tokens/0"], "Italia": ["tokens/2"]}, cards={"Witch": 0}),
        faces=faces,
    )
    t.act("witch tokens/0 tokens/2", "swap")
    ((seat, items),) = t.private
    text = RULES.render_private(t.state, seat, {h: faces[h] for h in items})
    assert [line.split(": breaks out")[0] for line in text.splitlines()] == [
        f"token Italia (tokens/0): {faces['tokens/0']}, threshold 1, bourgeoisie A",
        f"token Gallia (tokens/2): {faces['tokens/2']}, threshold 2, royalty",
    ]
    assert "royalty: hits the holder of the King" in text  # issue 32 item 4: what it does
