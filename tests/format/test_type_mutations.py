"""Property: changing the JSON type of any one scalar of a valid file (an int written as a
string or a bool, a string as a number, a bool as an int, null as something else) is
refused; it cannot leave the signed bytes unchanged (issue 11)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.format import gamefile
from pbem.format.canonical import canonical
from pbem.format.errors import Rejected
from pbem.ledger.replay import replay_file
from pbem.ruleset import registry


def scalars(value: Any, path: tuple = ()) -> list[tuple]:
    """Every scalar of a JSON value, by path."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in scalars(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in scalars(v, (*path, i))]
    return [path]


def other_types(value: Any) -> list[Any]:
    """Values of other JSON types that a lax reader would take for ``value``."""
    if type(value) is bool:
        return [int(value), str(value).lower(), None]
    if type(value) is int:
        return [str(value), value == 1, f" {value} ", None] + ([False] if value == 0 else [])
    if type(value) is str:
        out: list[Any] = [None, True]
        if value.isdigit() and len(value) < 16:
            out.append(int(value))
        return out
    return [0, False, ""]


def set_at(data: Any, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def accepted(data: dict[str, Any]) -> bool:
    try:
        game = gamefile.decode(json.dumps(data))
        replay_file(game, registry.get(game.genesis.ruleset.id))
    except Rejected:
        return False
    return True


def mutated(data: st.DataObject, source: Path) -> tuple[dict[str, Any], tuple, Any]:
    """A copy of ``source`` with one scalar, drawn by ``data``, of another JSON type."""
    copy = json.loads(source.read_text())
    path = data.draw(st.sampled_from(scalars(copy)))
    old = copy
    for key in path:
        old = old[key]
    new = data.draw(st.sampled_from(other_types(old)))
    set_at(copy, path, new)
    return copy, path, new


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_type_mutation_is_refused(data: st.DataObject, guess_file: Path) -> None:
    copy, path, new = mutated(data, guess_file)
    assert canonical(copy) != canonical(json.loads(guess_file.read_text()))
    assert not accepted(copy), f"accepted with {path} = {new!r}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_type_mutation_of_a_deck_game_is_refused(data: st.DataObject, peek_file: Path) -> None:
    copy, path, new = mutated(data, peek_file)
    assert not accepted(copy), f"accepted with {path} = {new!r}"
