"""T-7.2 and T-7.3 with Africanus: class icons hit every card of their class, and region
cards played in one parallel reaction protect a class card for the rest of a region."""

from __future__ import annotations

import pytest

from pbem.games.rattus.actions import Protect, Use
from pbem.games.rattus.state import region
from pbem.ruleset.rules import Parallel, Reveal, RulesError, Turn

from .harness import RULES, Table, africa_table, check_invariants

ISLAM = "X14"  # threshold 2, islam (a starting token)
MAGIC = "X05"  # threshold 1, magic
MAGIC_ROYALTY = "X24"  # threshold 3, magic royalty
MAGIC_M_A = "X12"  # threshold 2, magic, M, A
ITALIA_ISLAM = "RC06"  # Italia: peasantry islam
GALLIA_MAGIC_ROYALTY = "RC19"  # Gallia: magic royalty
BULGARIA_WILD = "RC43"  # Bulgaria: ?
POLONIA_BOURGEOISIE_CHURCH = "RC07"


def plague_on_italia(
    tokens: dict[str, str], cubes: list[int], cards: dict[str, int], hands: dict[int, list[str]]
) -> Table:
    """Seat 0 moves the plague from Gallia into Italia, whose tokens (handle: face) are
    revealed in the given order; no token is left to spread."""
    t = africa_table(
        tokens={"Italia": list(tokens)},
        cubes={"Italia": cubes},
        cards=cards,
        hands=hands,
        supply=[],
        faces=tokens,
    )
    t.state.progress.placed = True
    t.act("plague Italia")
    if isinstance(t.decision, Turn):  # more than one token: the player on turn orders them
        t.act(f"reveal {next(iter(tokens))}")
    return t


def test_one_islam_icon_hits_sultan_and_explorer_once_each() -> None:
    # T-7.2: a player holding the Sultan and the Explorer loses 2 cubes to one islam icon.
    t = plague_on_italia({"start/0": ISLAM}, [3, 0, 0], {"Sultan": 0, "Explorer": 0}, {})
    assert region(t.state, "Italia").cubes == [1, 0, 0]


def test_protecting_one_of_two_islam_cards_loses_the_other_cube() -> None:
    # T-7.3: one card protects one class card; the Explorer's hit still costs a cube.
    t = plague_on_italia(
        {"start/0": ISLAM}, [3, 0, 0], {"Sultan": 0, "Explorer": 0}, {0: [ITALIA_ISLAM]}
    )
    assert t.decision == Parallel(seats=[0], name="protect", prompt=t.decision.prompt)
    t.react({0: "protect regions/0 Sultan"})
    assert region(t.state, "Italia").cubes == [2, 0, 0]
    assert t.state.africa.hands[0] == [] and t.state.africa.discards == [ITALIA_ISLAM]
    check_invariants(t.state, t.faces)


def test_played_cards_are_revealed_to_everyone_before_the_hits() -> None:
    # T-7.3, T-4: the reaction, then a public reveal of exactly the cards played.
    t = plague_on_italia(
        {"start/0": ISLAM}, [3, 0, 0], {"Sultan": 0, "Explorer": 0}, {0: [ITALIA_ISLAM]}
    )
    s = RULES.apply_parallel(t.state, {0: Protect(uses=[Use(card="regions/0", protects="Sultan")])})
    assert RULES.pending(s) == Reveal(items=["regions/0"])
    assert region(s, "Italia").cubes == [3, 0, 0]


def test_a_wild_card_protects_any_class() -> None:
    # T-7.3: "?" is wild.
    t = plague_on_italia({"tokens/0": MAGIC}, [2, 0, 0], {"Witch": 0}, {0: [BULGARIA_WILD]})
    t.react({0: "protect regions/0 Witch"})
    assert region(t.state, "Italia").cubes == [2, 0, 0]


def test_a_two_icon_card_protects_only_the_chosen_class() -> None:
    # T-7.3: a card with two icons still protects one class card, chosen when played.
    t = plague_on_italia(
        {"tokens/0": MAGIC_ROYALTY},
        [3, 0, 0],
        {"Witch": 0, "King": 0},
        {0: [GALLIA_MAGIC_ROYALTY]},
    )
    with pytest.raises(RulesError, match="each region card protects one class card"):
        t.react({0: "protect regions/0 Witch regions/0 King"})
    t.react({0: "protect regions/0 Witch"})
    assert region(t.state, "Italia").cubes == [2, 0, 0]


def test_nothing_protects_against_m_or_a() -> None:
    # T-7.3: M and A hit whatever is played; the Witch's holder keeps only the icon's cube.
    t = plague_on_italia(
        {"tokens/0": MAGIC_M_A}, [3, 1, 0], {"Witch": 0}, {0: [BULGARIA_WILD], 1: ["RC44"]}
    )
    assert t.decision.seats == [0]  # seat 1 is hit by A only: no card can help it
    t.react({0: "protect regions/0 Witch"})
    assert region(t.state, "Italia").cubes == [1, 0, 0]  # M and A: 2 of seat 0's 3


def test_protection_lasts_over_every_token_of_the_region() -> None:
    # T-7.3: for the rest of this region's resolution; the card is discarded at its end.
    t = plague_on_italia(
        {"tokens/0": MAGIC, "tokens/1": MAGIC_ROYALTY},
        [4, 0, 0],
        {"Witch": 0},
        {0: [BULGARIA_WILD]},
    )
    s = RULES.apply_parallel(
        t.state, {0: RULES.parse_action(t.state, 0, "protect regions/0 Witch")}
    )
    s = RULES.apply_reveal(s, RULES.pending(s), {"regions/0": BULGARIA_WILD})
    assert RULES.pending(s) == Reveal(items=["tokens/1"])  # the last token: no question
    assert s.resolution.played[0].face == BULGARIA_WILD
    assert s.africa.discards == []  # still in play: the region is not done
    s = RULES.apply_reveal(s, RULES.pending(s), {"tokens/1": MAGIC_ROYALTY})
    assert s.resolution is None
    assert region(s, "Italia").cubes == [4, 0, 0]  # the second magic hit is also saved
    assert s.africa.discards == [BULGARIA_WILD]


def test_only_players_who_could_protect_themselves_are_asked_all_at_once() -> None:
    # T-7.3: hit through a class icon, holding cards, and a cube to save; one reaction.
    t = plague_on_italia(
        {"tokens/0": MAGIC_ROYALTY},
        [2, 2, 2],
        {"Witch": 0, "King": 1},
        {0: [BULGARIA_WILD], 1: [POLONIA_BOURGEOISIE_CHURCH], 2: ["RC44"]},
    )
    assert isinstance(t.decision, Parallel) and t.decision.seats == [0, 1]  # seat 2: not hit
    t.react({0: "protect none", 1: "protect none"})
    assert region(t.state, "Italia").cubes == [1, 1, 2]


@pytest.mark.parametrize(
    ("cubes", "hands", "why"),
    [
        ([1, 0, 0], {0: [BULGARIA_WILD]}, "below the threshold: no hit"),
        ([3, 0, 0], {}, "no region card in hand"),
    ],
)
def test_nobody_is_asked_when_it_cannot_matter(
    cubes: list[int], hands: dict[int, list[str]], why: str
) -> None:
    # T-7.3 [rulings T-7.3]: no question when no card could change anything.
    t = plague_on_italia({"tokens/0": MAGIC_ROYALTY}, cubes, {"Witch": 0}, hands)
    assert not isinstance(t.decision, Parallel), why
    assert t.state.revealed[0].face == MAGIC_ROYALTY


def test_a_player_losing_everything_to_m_and_a_is_not_asked() -> None:
    # T-7.3 [rulings T-7.3]: one cube, taken by A anyway: the card could save nothing.
    t = plague_on_italia({"tokens/0": MAGIC_M_A}, [1, 2, 0], {"Witch": 0}, {0: [BULGARIA_WILD]})
    assert not isinstance(t.decision, Parallel)
    assert t.state.revealed[0].losses == [1, 2, 0]


def test_what_a_player_may_play() -> None:
    # T-7.3: own cards only, for a class card this token hits, by an asked player.
    t = plague_on_italia(
        {"tokens/0": MAGIC}, [2, 2, 0], {"Witch": 0, "King": 0}, {0: [BULGARIA_WILD], 1: ["RC44"]}
    )
    for line, why in [
        ("protect regions/0 King", "does not hit your King"),
        ("protect regions/1 Witch", "not a region card in your hand"),
    ]:
        with pytest.raises(RulesError, match=why):
            t.react({0: line})
    with pytest.raises(RulesError, match="not asked"):
        RULES.check(t.state, 1, Protect())
    legal = RULES.legal_actions(t.state, 0)
    assert legal == [Protect(), Protect(uses=[Use(card="regions/0", protects="Witch")])]


def test_a_card_without_the_icon_is_refused_before_signing() -> None:
    # T-7.3 with check_private: the player's own pbem reads its hand and refuses.
    t = plague_on_italia(
        {"tokens/0": MAGIC}, [2, 0, 0], {"Witch": 0}, {0: [POLONIA_BOURGEOISIE_CHURCH]}
    )
    with pytest.raises(RulesError, match=r"T-7\.3: you played regions/0 \(RC07"):
        t.react({0: "protect regions/0 Witch"})


def test_everyone_refuses_a_card_without_the_icon_once_revealed() -> None:
    # T-7.3: a cheat that skipped its own check is caught at the reveal, naming the seat.
    t = plague_on_italia(
        {"tokens/0": MAGIC}, [2, 0, 0], {"Witch": 0}, {0: [POLONIA_BOURGEOISIE_CHURCH]}
    )
    cheat = Protect(uses=[Use(card="regions/0", protects="Witch")])
    s = RULES.apply_parallel(t.state, {0: cheat})
    reveal = RULES.pending(s)
    with pytest.raises(RulesError, match=r"T-7\.3: seat 0 played regions/0 \(RC07, Polonia"):
        RULES.apply_reveal(s, reveal, {"regions/0": POLONIA_BOURGEOISIE_CHURCH})


def test_region_cards_protect_in_the_final_plague() -> None:
    # T-9.3: region cards may be played in the final plague too.
    t = africa_table(
        tokens={"Italia": ["tokens/0"], "Polonia": ["tokens/1"]},
        cubes={"Italia": [2, 0, 0], "Polonia": [0, 1, 0]},
        cards={"Witch": 0},
        hands={0: [BULGARIA_WILD]},
        faces={"tokens/0": MAGIC, "tokens/1": "X08"},
    )
    t.state.phase, t.state.trigger, t.state.final_regions = "final_plague", 0, ["Italia", "Polonia"]
    t.act("resolve Italia")
    assert isinstance(t.decision, Parallel) and t.decision.seats == [0]
    t.react({0: "protect regions/0 Witch"})
    assert region(t.state, "Italia").cubes == [2, 0, 0]
