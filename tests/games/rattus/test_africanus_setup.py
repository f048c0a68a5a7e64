"""Africanus: T-1 board and components, T-2 options and class selection, T-3 setup."""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.games.rattus import data, diplomats, regiondeck
from pbem.games.rattus.state import region
from pbem.ruleset.rules import Chance, Reveal, RulesError, Turn

from .harness import AFRICANUS, RULES, Table, check_invariants, options, rng

NORTH_AFRICA = ["Mauretania", "Numidia", "Ifriqiya", "Cyrenaica", "Aegyptus"]


@pytest.mark.parametrize(("seats", "count"), [(2, 8), (3, 10), (4, 12), (5, 15), (6, 17)])
def test_regions_in_use_by_player_count(seats: int, count: int) -> None:
    # T-1: North Africa with 5-6 players; with 5 no Russia and no Tartaria.
    regions = data.board(seats, True).regions
    assert len(regions) == count
    assert all((n in regions) == (seats >= 5) for n in NORTH_AFRICA)
    assert ("Russia" in regions) == (seats in (4, 6)) == ("Tartaria" in regions)


def test_north_africa_is_linked_to_europe() -> None:
    # T-1, T-10: a chain of five regions, joined to Hispania, Italia and Turcia.
    board = data.board(6, True)
    assert board.neighbours("Mauretania") == ("Hispania", "Numidia")
    assert board.adjacent("Italia", "Ifriqiya") and board.adjacent("Turcia", "Aegyptus")
    assert board.neighbours("Cyrenaica") == ("Ifriqiya", "Aegyptus")
    for a in board.regions:
        assert all(board.adjacent(b, a) for b in board.neighbours(a))
    assert "Russia" not in data.board(5, True).neighbours("Polonia")


def test_africanus_components() -> None:
    # T-1: 65 tokens, 17 starting ones with the islam icon among them; 51 region cards, each
    # region 3 times; four islam classes.
    tokens = data.tokens(True).tokens
    assert len(tokens) == 65 and sum(t.start for t in tokens) == 17
    assert any("islam" in t.icons for t in tokens if t.start)
    cards = data.region_cards()
    assert len(cards) == 51
    assert set(Counter(c.region for c in cards.values()).values()) == {3}
    assert sum(data.WILD in c.icons for c in cards.values()) == 9
    islam = [c.name for c in data.class_cards() if c.icon == "islam"]
    assert islam == ["Astronomer", "Explorer", "Sultan", "Caravan"]
    assert {"rattus-tokens-africanus.json", "rattus-region-cards.json"} <= {
        p.name for p in RULES.source_files()
    }


@pytest.mark.parametrize("seats", [1, 7])
def test_africanus_takes_two_to_six_players(seats: int) -> None:
    # T-2: on: 2-6 players.
    with pytest.raises(RulesError, match="Africanus takes 2 to 6"):
        RULES.setup(AFRICANUS, seats)


@pytest.mark.parametrize(("seats", "removed"), [(2, 27), (3, 21), (4, 15), (5, 6), (6, 0)])
def test_tokens_and_unseen_removal(seats: int, removed: int) -> None:
    # T-3.3, T-3.4 [ruling]: a starting token in each region in use, the rest join the
    # supply; 3 tokens removed unseen per region not in use.
    table = Table.new(seats, 1, AFRICANUS)
    s = table.state
    regions = len(data.board(seats, True).regions)
    assert all(len(r.tokens) == 1 and r.tokens[0].startswith("start/") for r in s.regions)
    assert len(s.removed) == removed
    assert len(s.token_supply) == 65 - regions - removed
    check_invariants(s, table.faces)


def test_region_cards_of_unused_regions_are_removed_and_three_dealt_each() -> None:
    # T-3.5: only cards of regions in use; 3 to each player, the rest face down.
    decks = RULES.sealed_decks(AFRICANUS, 2)
    assert len(decks[regiondeck.DECK]) == 24
    used = set(data.board(2, True).regions)
    assert all(data.region_cards()[c].region in used for c in decks[regiondeck.DECK])
    s = RULES.setup(AFRICANUS, 2)
    assert [len(h) for h in s.africa.hands] == [3, 3] and len(s.africa.deck) == 18


def test_hands_are_opened_to_each_holder_before_the_starting_cubes() -> None:
    # T-3.5, T-4: after the setup draw each hand is opened to its holder alone, in turn.
    s = RULES.setup(AFRICANUS, 3)
    assert isinstance(RULES.pending(s), Chance)
    s = RULES.resolve_chance(s, rng(1))
    for seat in range(3):
        reveal = RULES.pending(s)
        assert reveal == Reveal(items=s.africa.hands[seat], to=seat)
        s = RULES.apply_reveal(s, reveal, None)
    assert isinstance(RULES.pending(s), Turn) and s.phase == "start"


def test_six_starting_cubes_in_two_snake_passes_of_three() -> None:
    # T-3.8: with 5-6 players 6 each, 3 per placement, the same snake.
    table = Table.new(5, 2, AFRICANUS)
    start = table.state.start_player
    order = []
    while table.state.phase == "start":
        order.append(table.state.active)
        table.act(f"place {table.state.regions[len(order) % 15].name}")
    clockwise = [(start + i) % 5 for i in range(5)]
    assert order == clockwise + clockwise[::-1]
    assert table.state.cube_supply == [14] * 5


def test_four_starting_cubes_up_to_four_players() -> None:
    # T-3.8 (source: 4 each with 4 players or fewer, as in the base game).
    table = Table.new(4, 2, AFRICANUS)
    while table.state.phase == "start":
        table.act("place Gallia")
    assert table.state.cube_supply == [16] * 4


@pytest.mark.parametrize(("seats", "count"), [(2, 6), (4, 6), (5, 8), (6, 8)])
def test_classes_are_drawn_at_setup(seats: int, count: int) -> None:
    # T-2: 6 class cards with 2-4 players, 8 with 5-6, at random (the setup draw).
    seen: Counter[str] = Counter()
    for seed in range(12):
        s = Table.new(seats, seed, AFRICANUS).state
        names = [c.name for c in s.cards]
        assert len(names) == count and len(set(names)) == count
        assert all(c.holder is None for c in s.cards)
        seen.update(names)
    assert set(seen) == {c.name for c in data.class_cards()}


def test_the_creator_may_list_the_classes() -> None:
    # T-2: "unless the creator lists them"; names may be shortened, any case and order.
    opts = options(True, "sult, EXPL,Peasant,monk,Witch,king")
    assert opts["classes"] == ["Peasant", "Monk", "Witch", "King", "Explorer", "Sultan"]
    s = Table.new(3, 1, opts).state
    assert [c.name for c in s.cards] == opts["classes"]
    assert s.africa.diplomat_supply == diplomats.SUPPLY


@pytest.mark.parametrize(
    ("raw", "seats", "why"),
    [
        ({"classes": "Peasant,Monk,Witch,King,Sultan,Caravan"}, 3, "only with the Africanus"),
        ({"africanus": "on", "classes": "Peasant,Monk,Witch,King,Sultan"}, 3, "with 6 class"),
        ({"africanus": "on", "classes": "Peasant,Monk,Witch,King,Sultan,Caravan"}, 5, "with 8"),
        ({"africanus": "on", "classes": "Peasant,Peasant,Witch,King,Sultan,Monk"}, 3, "twice"),
        ({"africanus": "on", "classes": "Peasant,Doctor,Witch,King,Sultan,Monk"}, 3, "Doctor"),
    ],
)
def test_bad_class_lists_are_refused(raw: dict[str, str], seats: int, why: str) -> None:
    # T-2: the list must fit the players and name different classes of the ten.
    with pytest.raises(RulesError, match=why):
        RULES.setup(RULES.parse_options(raw), seats)


def test_diplomats_only_with_the_sultan() -> None:
    # T-3.6: with the Sultan in play, 15 diplomats beside the board; else none.
    with_sultan = Table.new(2, 1, options(True, "Peasant,Monk,Witch,King,Sultan,Caravan"))
    without = Table.new(2, 1, options(True, "Peasant,Monk,Witch,King,Explorer,Caravan"))
    assert with_sultan.state.africa.diplomat_supply == 15
    assert without.state.africa.diplomat_supply == 0


def test_the_caravan_is_placed_after_the_starting_cubes_by_the_last_player() -> None:
    # T-3.9 [rulings T-3.9]: the player who plays last in a round (right of the start player) puts
    # the caravan into any region; then the start player begins.
    table = Table.new(4, 3, options(True, "Peasant,Monk,Witch,King,Sultan,Caravan"))
    while table.state.phase == "start":
        table.act("place Gallia")
    start = table.state.start_player
    assert table.state.phase == "caravan" and table.state.active == (start - 1) % 4
    assert "T-3.9" in table.decision.prompt
    table.act("caravan Tartaria")
    assert table.state.africa.caravan == "Tartaria"
    assert table.state.phase == "turn" and table.state.active == start
    assert region(table.state, "Tartaria").cubes == [0, 0, 0, 0]
