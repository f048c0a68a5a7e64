"""Issue 32 item 1: a player reads and types names where the notation has ids: a token by
the region it lies in, a region card of their own by the region it names. The signed
notation keeps the ids; a name is turned into the listed move it names by the player's own
``pbem`` (``pbem.play.naming``), and a name that names none of the player's moves is
refused saying which moves it could have meant, none of them another player's."""

from __future__ import annotations

import pytest

from pbem.games.rattus.actions import Monk, Protect, RevealToken, Use
from pbem.play.naming import read_move
from pbem.ruleset.rules import RulesError

from .harness import RULES, africa_table
from .test_africanus_protection import (
    BULGARIA_WILD,
    GALLIA_MAGIC_ROYALTY,
    MAGIC,
    POLONIA_BOURGEOISIE_CHURCH,
    plague_on_italia,
)

HAND = [POLONIA_BOURGEOISIE_CHURCH, GALLIA_MAGIC_ROYALTY]
KNOWN = {"regions/0": POLONIA_BOURGEOISIE_CHURCH, "regions/1": GALLIA_MAGIC_ROYALTY}


def protecting() -> object:
    """Seat 0 is asked to play region cards against a magic token in Italia; seat 1 holds
    the wild Bulgaria card (regions/2)."""
    hands = {0: HAND, 1: [BULGARIA_WILD]}
    return plague_on_italia({"tokens/0": MAGIC}, [2, 0, 0], {"Witch": 0}, hands)


def read(t: object, seat: int, text: str, known: dict[str, str]) -> object:
    return read_move(RULES, t.state, seat, text, lambda: known)  # type: ignore[attr-defined]


def test_an_own_region_card_is_typed_by_its_region() -> None:
    t = protecting()
    by_id = RULES.parse_action(t.state, 0, "protect regions/1 Witch")
    assert read(t, 0, "protect Gallia Witch", KNOWN) == by_id
    assert read(t, 0, "PROTECT gall wit", KNOWN) == by_id  # any case, the start of a name
    assert read(t, 0, "protect regions/1 Witch", KNOWN) == by_id  # the id still reads
    assert RULES.format_action(t.state, 0, by_id) == "protect regions/1 Witch"  # as signed
    assert RULES.name_action(t.state, 0, by_id, KNOWN) == "protect Gallia Witch"
    assert RULES.name_action(t.state, 0, by_id, {}) == "protect regions/1 Witch"  # others


def test_another_players_card_names_no_move_and_the_refusal_tells_nothing_of_it() -> None:
    # The forged name: Bulgaria is seat 1's card; seat 0's moves are its own only.
    t = protecting()
    with pytest.raises(RulesError) as refused:
        read(t, 0, "protect Bulgaria Witch", KNOWN)
    message = str(refused.value)
    assert "\n" not in message
    assert message == (
        "expected a region card: the region of one of yours, or its handle like regions/4, "
        "not 'Bulgaria'; no move you can make now is called so (such as protect none, "
        "protect Gallia Witch)"
    )
    assert "regions/2" not in message and "Polonia" not in message  # it cannot protect
    with pytest.raises(RulesError, match="no move you can make now is called so"):
        read(t, 0, "protect Polonia Witch", KNOWN)  # own, but T-7.3: no magic icon


def test_two_cards_of_one_region_are_numbered_and_a_shared_start_is_ambiguous() -> None:
    # Both Mauretania cards show magic (RC13 church magic, RC30 bourgeoisie magic).
    hand = ["RC02", "RC13", "RC30"]
    t = plague_on_italia({"tokens/0": MAGIC}, [2, 0, 0], {"Witch": 0}, {0: hand})
    known = t.known(0)
    first = Protect(uses=[Use(card="regions/1", protects="Witch")])
    second = Protect(uses=[Use(card="regions/2", protects="Witch")])
    assert RULES.name_action(t.state, 0, first, known) == "protect Mauretania#1 Witch"
    assert RULES.name_action(t.state, 0, second, known) == "protect Mauretania#2 Witch"
    assert read(t, 0, "protect mauretania#2 witch", known) == second
    with pytest.raises(RulesError) as refused:
        read(t, 0, "protect Maur Witch", known)
    assert str(refused.value) == (
        "it names several of your moves: protect regions/1 Witch (protect Mauretania#1 Witch), "
        "protect regions/2 Witch (protect Mauretania#2 Witch); type one of them"
    )


def pending_reveal() -> object:
    """Two tokens in Italia: seat 0, who moved the plague there, says which to reveal."""
    t = africa_table(
        tokens={"Italia": ["tokens/0", "tokens/1"]},
        cubes={"Italia": [2, 0, 0]},
        cards={"Witch": 0},
        supply=[],
        faces={"tokens/0": MAGIC, "tokens/1": MAGIC},
    )
    t.state.progress.placed = True
    t.act("plague Italia")
    return t


def test_tokens_are_named_by_their_region_and_numbered_when_several() -> None:
    t = africa_table(tokens={"Gallia": ["tokens/0"], "Italia": ["tokens/1", "tokens/2"]})
    monk = Monk(token="tokens/0", target="Italia")
    assert RULES.name_action(t.state, 0, monk, {}) == "monk Gallia Italia"
    second = RevealToken(token="tokens/2")
    assert RULES.name_action(t.state, 0, second, {}) == "reveal Italia#2"
    assert RULES.format_action(t.state, 0, second) == "reveal tokens/2"


def test_a_token_typed_by_its_region_plays_the_move_of_its_handle() -> None:
    t = pending_reveal()
    assert read(t, 0, "reveal Italia#2", {}) == RevealToken(token="tokens/1")
    assert read(t, 0, "reveal tokens/1", {}) == RevealToken(token="tokens/1")
    with pytest.raises(RulesError, match=r"it names several of your moves: reveal tokens/0 "):
        read(t, 0, "reveal Italia", {})
    with pytest.raises(RulesError) as refused:
        read(t, 0, "reveal Gallia", {})
    assert "(such as reveal Italia#1, reveal Italia#2)" in str(refused.value)
