"""pbem and an independent verifier written from ``schemas/format.md`` agree on every file
the tests make or mutate (issue 11): both accept the valid ones, both refuse each mutation
(one exception, said below)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from pbem.format import gamefile
from pbem.format.errors import Rejected
from pbem.ledger.replay import replay_file
from pbem.ruleset import registry
from tests.conformance.verifier import Invalid, verify
from tests.format.test_schemas import MUTATIONS
from tests.format.vectors import VECTORS


def pbem_accepts(data: bytes) -> bool:
    try:
        game = gamefile.decode(data)
        replay_file(game, registry.get(game.genesis.ruleset.id))
    except Rejected:
        return False
    return True


def independent_accepts(data: bytes) -> bool:
    try:
        verify(data)
    except Invalid:
        return False
    return True


def test_both_accept_every_file_the_tests_make(game_files: list[Path]) -> None:
    for path in [*game_files, VECTORS / "guess.json"]:
        data = path.read_bytes()
        assert verify(data) == len(json.loads(data)["steps"]), path
        assert pbem_accepts(data), path


def test_a_reindented_file_is_the_same_file(guess_file: Path) -> None:
    data = json.dumps(json.loads(guess_file.read_text()), indent=4, sort_keys=False).encode()
    assert independent_accepts(data) and pbem_accepts(data)


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_both_refuse_each_mutation(name: str, guess_file: Path) -> None:
    data: dict[str, Any] = json.loads(guess_file.read_text())
    mutated = copy.deepcopy(data)
    MUTATIONS[name](mutated)
    raw = json.dumps(mutated, indent=1).encode()
    assert not independent_accepts(raw), name
    assert not pbem_accepts(raw), name


@pytest.mark.parametrize(
    "text",
    ['{"a": 1, "a": 2}', "[1.0]", "[NaN]", f"[{2**53}]", "[" * 65 + "]" * 65],
)
def test_both_refuse_what_strict_parsing_refuses(text: str, guess_file: Path) -> None:
    data = guess_file.read_text()
    bad = data.replace('"format": "pbem/1"', f'"format": "pbem/1", "x": {text}', 1)
    assert bad != data
    assert not independent_accepts(bad.encode()) and not pbem_accepts(bad.encode())


def test_a_false_for_zero_in_the_cached_public_state(guess_file: Path) -> None:
    """The one mutation they judge apart: the public view is the rules' output, which only
    a verifier that runs the rules can recompute (format.md §7)."""
    data = json.loads(guess_file.read_text())
    seat = data["state"]["public"]["scores"].index(0)
    data["state"]["public"]["scores"][seat] = False
    raw = json.dumps(data).encode()
    assert independent_accepts(raw) and not pbem_accepts(raw)


def test_a_broken_commitment_is_refused_by_both(guess_file: Path) -> None:
    data = json.loads(guess_file.read_text())
    reveal = next(
        s for s in data["steps"] if s["kind"] == "batch" and s["decision"].startswith("reveal:")
    )
    reveal["envelopes"][0]["body"]["key"] = "A" * 43
    raw = json.dumps(data).encode()
    assert not independent_accepts(raw) and not pbem_accepts(raw)
