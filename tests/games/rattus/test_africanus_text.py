"""Africanus in the notation, its help, and the table as text (T-4: what is public)."""

from __future__ import annotations

import pytest

from pbem.games.rattus import State
from pbem.games.rattus.actions import Caravan, Choose, King, Merchant, Protect, Use
from pbem.ruleset.rules import Parallel, RulesError, Turn

from .harness import RULES, Table, africa_table, options, position

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]


def test_africanus_verbs_parse_and_format_back() -> None:
    s = position(5, opts=options(True))
    parse = RULES.parse_action
    cases = {
        "astronomer": None,
        "choose regions-2/4": Choose(region_card="regions-2/4"),
        "explorer": None,
        "explore Numidia": None,
        "sultan Gallia": None,
        "caravan Italia Ifriqiya": Caravan(path=["Italia", "Ifriqiya"]),
        "merchant Gallia Italia 2 diplomat": Merchant(
            source="Gallia", target="Italia", cubes=2, diplomat=True
        ),
        "king Anglia diplomat": King(region="Anglia", diplomat=True),
        "protect none": Protect(),
        "protect regions/9 Witch regions/4 King": Protect(
            uses=[Use(card="regions/4", protects="King"), Use(card="regions/9", protects="Witch")]
        ),
    }
    for line, expected in cases.items():
        action = parse(s, 0, line)
        if expected is not None:
            assert action == expected
        assert parse(s, 0, RULES.format_action(s, 0, action)) == action
    assert RULES.format_action(s, 0, parse(s, 0, "protect regions/9 witch regions/4 kin")) == (
        "protect regions/4 King regions/9 Witch"
    )


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("protect regions/4", "usage: protect"),
        ("protect", "usage: protect"),
        ("protect Gallia Witch", "expected a region card"),
        ("choose tokens", "expected a region card"),
        ("caravan", "usage: caravan"),
    ],
)
def test_bad_africanus_notation(line: str, why: str) -> None:
    with pytest.raises(RulesError, match=why):
        RULES.parse_action(position(opts=options(True)), 0, line)


def test_help_for_each_africanus_decision() -> None:
    # Every decision met has help with a legal example, also the region-card reaction.
    seen = set()
    for seed in range(3):
        table = Table.new(6, seed, options(True))

        def watch(s: State) -> None:
            d = RULES.pending(s)
            for seat in [d.seat] if isinstance(d, Turn) else getattr(d, "seats", []):
                lines = RULES.notation_help(s, seat).splitlines()[:-1]
                assert lines and all("e.g. " in line for line in lines)
                seen.update(line.split()[0] for line in lines)

        table.play(["random"], watch)
    assert {"astronomer", "choose", "explorer", "explore", "sultan", "caravan", "protect"} <= seen


def test_render_text_shows_north_africa_diplomats_caravan_hands_and_discards() -> None:
    # T-4, issue 7 item 6: everything public about the Africanus components.
    t = africa_table(
        5,
        cards={"Sultan": 1, "Caravan": 2},
        cubes={"Gallia": [2, 1, 0, 0, 0], "Numidia": [0, 0, 3, 0, 0]},
        hands={0: ["RC01", "RC02"], 3: ["RC03"]},
    )
    t.state.africa.diplomats[1] = ["Gallia"]
    t.state.africa.diplomat_supply = 14
    t.state.africa.caravan = "Numidia"
    t.state.africa.discards = ["RC43"]
    t.state.africa.deck.pop()
    text = RULES.render_text(t.state, NAMES).splitlines()
    assert text[0] == "Rattus with Africanus, 5 players, turn 1; plague in Gallia"
    north = text.index("North Africa:")
    assert text[north + 1].split()[0] == "Mauretania"
    assert "Russia" not in "\n".join(text)
    gallia = next(line for line in text if line.startswith("Gallia"))
    assert gallia.split()[:5] == ["Gallia", "(plague)", ".", "2", "1*"]
    assert next(line for line in text if line.startswith("Numidia")).split()[:2] == [
        "Numidia",
        "(caravan)",
    ]
    assert (
        "Diplomats (*): Alice 0, Bob 1, Carol 0, Dave 0, Erin 0; in the palace 0; supply 14" in text
    )
    hands = "in hand: Alice 2, Bob 0, Carol 0, Dave 1, Erin 0"
    assert f"Region cards: deck {len(t.state.africa.deck)} face down; {hands}" in text
    assert "Discards (1): RC43 Bulgaria (?)" in text
    assert "RC01" not in "\n".join(text)


def test_render_text_of_a_reaction_and_of_the_cards_played() -> None:
    # T-7.3: who is asked, and each card played with the class card it protects.
    t = africa_table(
        tokens={"Italia": ["tokens/0"]},
        cubes={"Italia": [2, 0, 0]},
        cards={"Witch": 0},
        hands={0: ["RC43"]},
        supply=[],
        faces={"tokens/0": "X05"},
    )
    t.state.progress.placed = True
    t.act("plague Italia")
    assert isinstance(t.decision, Parallel)
    awaited, hint = RULES.render_text(t.state, NAMES[:3]).splitlines()[-2:]
    assert awaited.startswith("Awaiting Alice: T-7.3: X05 in Italia hits magic")
    assert hint == "Rules: pbem rules rattus T-7.3"
    s = RULES.apply_parallel(
        t.state, {0: RULES.parse_action(t.state, 0, "protect regions/0 Witch")}
    )
    text = RULES.render_text(s, NAMES[:3])
    assert "Played in Italia: Alice regions/0 for the Witch" in text
    # Issue 32: what a played card does, where it is shown.
    assert "(no hit through a protected class card for the rest of this region, T-7.3)" in text
    assert text.endswith(
        "shares to reveal the region cards played (T-7.3)\nRules: pbem rules rattus T-7.3"
    )


def test_render_private_shows_the_own_hand_and_the_astronomers_draw() -> None:
    # T-4, T-6.7: what only the holder knows, decrypted on its own machine.
    t = africa_table(cards={"Astronomer": 0}, hands={0: ["RC01"], 1: ["RC02"]})
    t.act("astronomer")
    text = RULES.render_private(t.state, 0, t.known(0)).splitlines()
    assert text[0] == "Your region cards: regions/0: RC01 Anglia (peasantry bourgeoisie)"
    assert text[1].startswith("Drawn, to keep one (choose <card>): regions/2: ")
    assert RULES.render_private(t.state, 1, t.known(1)) == (
        "Your region cards: regions/1: RC02 Gallia (peasantry church)"
    )
