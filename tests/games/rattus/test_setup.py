"""T-1 components, T-2 options, T-3 setup."""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.games.rattus import data
from pbem.games.rattus.actions import Place
from pbem.ruleset.rules import Chance, RulesError, Turn

from .harness import OPTIONS, RULES, Table, check_invariants, rng


@pytest.mark.parametrize(("seats", "count"), [(2, 8), (3, 10), (4, 12)])
def test_regions_in_use_by_player_count(seats: int, count: int) -> None:
    # T-1: Scandia and the seven before it with 2+, Bulgaria and Turcia with 3+, Russia and
    # Tartaria with 4.
    regions = data.board(seats).regions
    assert len(regions) == count
    assert ("Bulgaria" in regions) == (seats >= 3)
    assert ("Tartaria" in regions) == (seats == 4)


def test_neighbours_are_symmetric_and_match_the_confirmed_links() -> None:
    # T-1, T-10: Gallia-Hispania and Russia-Tartaria are neighbours, Germania-Turcia not.
    board = data.board(4)
    for a in board.regions:
        for b in board.neighbours(a):
            assert board.adjacent(b, a)
    assert board.adjacent("Gallia", "Hispania")
    assert board.adjacent("Russia", "Tartaria")
    assert not board.adjacent("Germania", "Turcia")


def test_links_to_regions_not_in_use_are_ignored() -> None:
    # T-1: Scandia-Russia exists on the board but Russia is not used with 3 players.
    assert "Russia" in data.board(4).neighbours("Scandia")
    assert data.board(3).neighbours("Scandia") == ("Anglia", "Germania")


def test_tokens_and_class_cards() -> None:
    # T-1: 49 tokens, 12 of them starting tokens; the six base classes and their icons.
    faces = data.tokens().tokens
    assert len(faces) == 49
    assert sum(t.start for t in faces) == 12
    icons = {c.name: c.icon for c in data.class_cards() if c.expansion == "base"}
    assert icons == {
        "Peasant": "peasantry",
        "Merchant": "bourgeoisie",
        "Monk": "church",
        "Knight": "chivalry",
        "Witch": "magic",
        "King": "royalty",
    }


def test_data_files_are_hashed_with_the_code() -> None:
    # architecture §2: the content hash covers the data files the rules read and the modules;
    # other files under data/ (a map for drawing the board) change no rule.
    names = {p.name for p in RULES.source_files()}
    assert {n for n in names if n.endswith(".json")} == set(data.FILES)
    assert {"__init__.py", "plague.py", "turn.py", "protection.py"} <= names


def test_options() -> None:
    # T-2: africanus is on or off, off by default.
    assert RULES.parse_options({}) == {"africanus": False}
    assert RULES.parse_options({"africanus": "off"}) == {"africanus": False}
    assert RULES.parse_options({"africanus": "ON"}) == {"africanus": True}
    with pytest.raises(RulesError, match="on or off"):
        RULES.parse_options({"africanus": "maybe"})
    with pytest.raises(RulesError, match="unknown option"):
        RULES.parse_options({"players": "5"})


@pytest.mark.parametrize("seats", [1, 5])
def test_base_game_takes_two_to_four_players(seats: int) -> None:
    # T-2: off: 2-4 players.
    with pytest.raises(RulesError, match="2 to 4"):
        RULES.setup(OPTIONS, seats)


def test_sealed_decks_split_starting_tokens() -> None:
    # T-3.3: starting tokens are a deck of their own, the other 37 another.
    decks = RULES.sealed_decks(OPTIONS, 3)
    assert len(decks["start"]) == 12 and len(decks["tokens"]) == 37
    assert all(data.faces()[i].start for i in decks["start"])


@pytest.mark.parametrize(("seats", "leftover"), [(2, 4), (3, 2), (4, 0)])
def test_one_starting_token_per_region_and_leftovers_join_the_supply(
    seats: int, leftover: int
) -> None:
    # T-3.1-3.3: cards in the supply, 20 cubes each, a starting token in each region.
    s = RULES.setup(OPTIONS, seats)
    assert isinstance(RULES.pending(s), Chance)
    assert all(len(r.tokens) == 1 and r.tokens[0].startswith("start/") for r in s.regions)
    assert sum(h.startswith("start/") for h in s.token_supply) == leftover
    assert len(s.token_supply) == leftover + 37
    assert s.cube_supply == [20] * seats
    assert all(c.holder is None for c in s.cards)


@pytest.mark.parametrize(("seats", "removed"), [(2, 12), (3, 6), (4, 0)])
def test_setup_draw_removes_tokens_unseen(seats: int, removed: int) -> None:
    # T-3.4: 12 removed with 2 players, 6 with 3, none with 4; nobody sees them.
    table = Table.new(seats, seed=7)
    s = table.state
    assert len(s.removed) == removed
    assert s.revealed == [] and table.private == []
    assert len(s.token_supply) == 49 - len(s.regions) - removed
    check_invariants(s)


def test_leftover_starting_tokens_are_mixed_into_the_supply() -> None:
    # T-3.3/3.4, rulings T-3: a leftover starting token may be removed or drawn at any point.
    removed, first = Counter[str](), Counter[bool]()
    for seed in range(40):
        s = RULES.resolve_chance(RULES.setup(OPTIONS, 2), rng(seed))
        removed.update(h.split("/")[0] for h in s.removed)
        first[s.token_supply[0].startswith("start/")] += 1
    assert removed["start"] > 0 and removed["tokens"] > 0
    assert first[True] > 0 and first[False] > 0


def test_plague_region_and_start_player_are_drawn_uniformly() -> None:
    # T-3.7: a random region in use, a random start player; every outcome occurs.
    plague, start = Counter[str](), Counter[int]()
    for seed in range(120):
        s = RULES.resolve_chance(RULES.setup(OPTIONS, 4), rng(seed))
        plague[s.plague or ""] += 1
        start[s.start_player or 0] += 1
    assert set(plague) == set(data.board(4).regions)
    assert set(start) == {0, 1, 2, 3}
    assert max(plague.values()) < 25 and min(start.values()) > 15


def test_starting_cubes_in_snake_order() -> None:
    # T-3.8: clockwise from the start player, then back counter-clockwise, 2 cubes each time.
    table = Table.new(3, seed=3)
    first = table.state.start_player
    assert first is not None
    order = []
    for region in ["Anglia", "Gallia", "Turcia", "Turcia", "Gallia", "Anglia"]:
        decision = table.decision
        assert isinstance(decision, Turn)
        order.append(decision.seat)
        table.act(f"place {region}")
    assert order == [(first + k) % 3 for k in (0, 1, 2, 2, 1, 0)]
    s = table.state
    assert s.phase == "turn" and s.active == first
    assert s.cube_supply == [16, 16, 16]
    assert sorted(sum(r.cubes) for r in s.regions if sum(r.cubes)) == [4, 4, 4]


def test_starting_cubes_only_into_regions_in_use() -> None:
    # T-1/T-3.8: Russia does not exist in a 3-player game.
    table = Table.new(3, seed=3)
    seat = table.state.active
    with pytest.raises(RulesError, match="not a region in use"):
        RULES.check(table.state, seat, Place(region="Russia"))
    with pytest.raises(RulesError, match="unknown region"):
        table.act("place Russia")
    with pytest.raises(RulesError, match=r"T-3\.8"):
        table.act("take Witch")
