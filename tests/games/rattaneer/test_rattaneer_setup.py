"""R-1, R-2, R-9: components, options, setup, and the card set."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from pbem.crypto.randomness import Rng
from pbem.games.rattaneer import load_cards
from pbem.games.rattaneer.cards import DEFAULT_CARDS
from pbem.games.rattaneer.state import HENCHMEN_PER_COLOUR
from pbem.ruleset.rules import Chance, Parallel, RulesError


def test_card_set_is_the_reconstruction_of_r9():
    # labelled as a reconstruction, with the explanation.
    raw = json.loads(DEFAULT_CARDS.read_text())
    assert raw["reconstruction"] is True
    assert "not found" in raw["explanation"] and "R-9" in raw["explanation"]
    cards = load_cards()
    # 20 companions; cost/VP as listed.
    assert [c.id for c in cards.companions] == [f"C{i:02}" for i in range(1, 21)]
    assert [(c.cost, c.vp) for c in cards.companions] == [
        (1, 1), (1, 1), (2, 2), (2, 2), (2, 2), (3, 3), (3, 3), (4, 4), (4, 4), (5, 5),
        (2, 0), (2, 0), (3, 1), (3, 1), (2, 1), (4, 2), (1, 0), (3, 2), (4, 3), (5, 4),
    ]  # fmt: skip
    bonuses = {c.id: (c.bonus.counts, c.bonus.per, c.bonus.vp) for c in cards.companions if c.bonus}
    assert bonuses == {
        "C11": ("face_down_plunder", 3, 1),
        "C12": ("other_companions", 1, 1),
        "C13": ("most_island_henchmen", 1, 2),
        "C14": ("coins", 4, 1),
        "C15": ("ships_used", 1, 2),
        "C16": ("sea_areas_won", 1, 1),
        "C17": ("no_other_companion", 1, 3),
    }
    # 48 sea cards.
    shapes = [(c.kind, c.strength, c.vp if c.kind == "plunder" else c.capacity) for c in cards.sea]
    sea = Counter(
        shape for shape, c in zip(shapes, cards.sea, strict=True) for _ in range(c.copies)
    )
    assert sea == {
        ("plunder", 1, 1): 6, ("plunder", 2, 2): 8, ("plunder", 2, 3): 6, ("plunder", 3, 4): 8,
        ("plunder", 4, 5): 6, ("plunder", 5, 6): 4, ("plunder", 6, 8): 2,
        ("ship", 1, 1): 4, ("ship", 2, 2): 4,
    }  # fmt: skip
    assert len(cards.sea_deck()) == 48
    #
    assert cards.treasure_spots == [8, 6, 5, 4, 3, 2]
    assert sorted(cards.treasure(t).vp for t in cards.treasure_deck()) == [
        2, 3, 3, 4, 4, 5, 5, 6, 6, 8
    ]  # fmt: skip
    assert cards.treasures_drawn == 5


def _write(tmp_path: Path, change) -> Path:
    raw = json.loads(DEFAULT_CARDS.read_text())
    change(raw)
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(raw))
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda raw: raw.pop("reconstruction"), "reconstruction"),
        (lambda raw: raw["companions"][1].update(id="C01"), "unique"),
        (lambda raw: raw["companions"][0].update(id="pass"), "not a word"),
        (lambda raw: raw["sea"][0].update(kind="gold"), "kind"),
        (lambda raw: raw["companions"][0].update(cost=-1), "cost"),
        (lambda raw: raw.update(treasures_drawn=11), "treasures_drawn"),
    ],
)
def test_card_file_is_validated_at_load(tmp_path, change, message):
    # any card file must fit the schema; a bad one is refused with the reason.
    with pytest.raises(RulesError, match=message):
        load_cards(_write(tmp_path, change))


@pytest.mark.parametrize(
    ("seats", "neutral", "sea_offset"), [(2, 2, 1), (3, 1, 2), (4, 0, 2), (5, 0, 3)]
)
def test_setup(table, rules, seats, neutral, sea_offset):
    # the table after setup, for every player count.
    state = rules.setup(rules.parse_options({}), seats)
    assert isinstance(rules.pending(state), Chance)  # the setup draw
    for start in range(seats):
        state = table(seats, start=start)
        assert isinstance(rules.pending(state), Parallel)
        assert state.workshop == seats
        assert len(state.tavern) == 2 and len(state.companion_deck) == 18
        assert [len(s) for s in state.seas] == [2] * 6 and len(state.sea_deck) == 36
        assert all(p.coins == 2 and p.henchmen == 1 for p in state.players)
        assert state.neutral == neutral
        assert state.island_treasures == 0 and len(state.treasure_box) == 10  # R-2.7 (off)
        assert state.land_priority == start
        assert state.sea_priority == (start + sea_offset) % seats
        assert state.round == 1 and state.spots == [None] * 6
        assert all(HENCHMEN_PER_COLOUR - p.henchmen == 7 for p in state.players)


def test_setup_with_treasures_puts_five_unseen_on_the_island(table):
    # five treasure cards lie on area 10, face down: their number is known, not
    # which they are (RULINGS 3), so the box still holds all ten.
    state = table(3, treasures="true")
    assert state.island_treasures == 5
    assert state.treasure_box == load_cards().treasure_deck()


def test_decks_are_drawn_from_sorted_multisets(rules):
    # R-2 / architecture §5: decks are never shuffled ahead; each draw takes from what remains.
    before = rules.setup({"start_seat": 0}, 3)
    assert before.sea_deck == sorted(before.sea_deck) == load_cards().sea_deck()
    one = rules.resolve_chance(before, Rng(bytes(32)))
    other = rules.resolve_chance(before, Rng(b"\1" * 32))
    assert one.sea_deck == sorted(one.sea_deck)
    assert sorted(one.sea_deck + [c for s in one.seas for c in s]) == before.sea_deck
    assert one.seas != other.seas  # the draw depends on the randomness given
    assert before.phase == "setup"  # the input state is untouched


def test_random_start_player(rules):
    # without start_seat, the start player is drawn.
    starts = {
        rules.resolve_chance(rules.setup({}, 5), Rng(bytes([i]) * 32)).land_priority
        for i in range(40)
    }
    assert starts == set(range(5))


def test_options(rules):
    assert rules.parse_options({}) == {"treasures": False, "tavern_keep": 3}
    assert rules.parse_options({"treasures": "yes", "tavern_keep": "4", "start_seat": "1"}) == {
        "treasures": True,
        "tavern_keep": 4,
        "start_seat": 1,
    }
    for raw, message in [
        ({"treasure": "1"}, "no option treasure"),
        ({"treasures": "maybe"}, "true or false"),
        ({"tavern_keep": "five"}, "whole number"),
        ({"tavern_keep": "5"}, "R-7.B"),
        ({"tavern_keep": "0"}, "R-7.B"),
        ({"start_seat": "-1"}, "seat number"),
    ]:
        with pytest.raises(RulesError, match=message):
            rules.parse_options(raw)
    with pytest.raises(RulesError, match=re.escape("start_seat 3 is not a seat of 3 players")):
        rules.setup(rules.parse_options({"start_seat": "3"}), 3)
    with pytest.raises(RulesError, match=re.escape("2 to 5 players")):
        rules.setup({}, 6)


def test_ruleset_identity(rules):
    assert (rules.id, rules.version, rules.min_seats, rules.max_seats) == ("rattaneer", "1.1", 2, 5)
    names = {p.name for p in rules.source_files()}
    assert {"cards.json", "__init__.py", "day.py"} <= names
    assert len(rules.content_hash()) == 64
