"""The scan for hidden faces (``secrecy.py``) finds one where there is one."""

from __future__ import annotations

import pytest

from pbem.crypto import deck
from pbem.format.canonical import b64e
from pbem.format.gamefile import CachedState, GameFile

from .harness import AFRICANUS, RULES
from .secrecy import Scanner
from .test_africanus_engine import started

POINT = deck.item_point("regions", "RC07")


@pytest.fixture(scope="module")
def game() -> GameFile:
    return started(2, 1, "Peasant,Monk,Witch,King,Astronomer,Sultan")[0].to_file()


def scanner() -> Scanner:
    return Scanner(RULES, AFRICANUS, 2)


def test_a_clean_file_passes(game: GameFile) -> None:
    scanner().scan(game)


@pytest.mark.parametrize("planted", [b64e(POINT), POINT.hex(), "RC07"])
def test_a_planted_face_is_found(game: GameFile, planted: str) -> None:
    # T-4: an item point (base64url or hex) or a hidden id anywhere in a step or the genesis.
    genesis = game.genesis.model_copy(update={"options": {"note": planted}})
    with pytest.raises(AssertionError):
        scanner().scan(game.model_copy(update={"genesis": genesis}))
    with pytest.raises(AssertionError):
        scanner().final(f'{{"note": "{planted}"}}')


def test_a_hidden_id_in_the_public_state_is_found(game: GameFile) -> None:
    state = CachedState(steps=0, hash="0" * 64, public={"revealed": [], "note": "RC07"})
    with pytest.raises(AssertionError, match="public state"):
        scanner().scan(game.model_copy(update={"state": state}))
