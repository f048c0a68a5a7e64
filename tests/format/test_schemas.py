"""The published JSON Schemas mean what the code means (issue 11): every file the tests
make and every example validates with the ``jsonschema`` package, and each schema refuses
the mutations that the code refuses."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pbem.cli.schema import DIALECT, INTEGER_NOTE, all_schemas
from pbem.format import gamefile
from pbem.format.errors import Rejected

SCHEMAS = all_schemas()


def validator(stem: str) -> jsonschema.Draft202012Validator:
    schema = SCHEMAS[stem]
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_every_schema_is_draft_2020_12_with_an_id_and_no_discriminator() -> None:
    for stem, schema in SCHEMAS.items():
        assert schema["$schema"] == DIALECT and schema["$id"] == f"urn:pbem:schema:{stem}"
        jsonschema.Draft202012Validator.check_schema(schema)
        assert '"discriminator"' not in json.dumps(schema), stem


def test_every_game_file_validates(game_files: list[Path]) -> None:
    check = validator("game-file")
    cards = validator("identity-card")
    for path in game_files:
        data = json.loads(path.read_text())
        check.validate(data)
        for card in data["genesis"]["seats"]:
            cards.validate(card)


def _entry(d: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in d["steps"] if s["kind"] != "batch")


def _envelope(d: dict[str, Any]) -> dict[str, Any]:
    return d["steps"][0]["envelopes"][0]


def _set(getter: Callable[[dict[str, Any]], dict[str, Any]], key: str, value: Any) -> Callable:
    def mutate(d: dict[str, Any]) -> None:
        getter(d)[key] = value

    return mutate


def _delete(getter: Callable[[dict[str, Any]], dict[str, Any]], key: str) -> Callable:
    def mutate(d: dict[str, Any]) -> None:
        del getter(d)[key]

    return mutate


def _genesis(d: dict[str, Any]) -> dict[str, Any]:
    return d["genesis"]


def _state(d: dict[str, Any]) -> dict[str, Any]:
    return d["state"]


def _top(d: dict[str, Any]) -> dict[str, Any]:
    return d


def _first_batch(d: dict[str, Any]) -> dict[str, Any]:
    return d["steps"][0]


MUTATIONS = {
    "seat as a string": _set(_entry, "seat", "0"),
    "seat as a bool": _set(_envelope, "seat", True),
    "seat -1": _set(_entry, "seat", -1),
    "chain as a string": _set(_genesis, "chain", "8192"),
    "creator false": _set(_genesis, "creator", False),
    "join envelope without kind": _delete(_envelope, "kind"),
    "join envelope without preimage": _delete(_envelope, "preimage"),
    "entry without time": _delete(_entry, "time"),
    "steps count as a string": _set(_state, "steps", "10"),
    "missing signature": _delete(_entry, "signature"),
    "empty signature": _set(_entry, "signature", ""),
    "3-byte signature": _set(_entry, "signature", "AAAA"),
    "signature with padding": _set(_entry, "signature", "A" * 86 + "=="),
    "format pbem/2": _set(_top, "format", "pbem/2"),
    "1-byte game id": _set(_genesis, "game", "AA"),
    "sign key not a key": _set(lambda d: d["genesis"]["seats"][0], "sign_key", "!!not a key!!"),
    "fingerprint garbage": _set(lambda d: d["genesis"]["seats"][0], "fingerprint", "abcd"),
    "email with a header": _set(lambda d: d["genesis"]["seats"][0], "email", "a@b.org\nBcc: c"),
    "no seats": _set(_genesis, "seats", []),
    "batch with no envelopes": _set(_first_batch, "envelopes", []),
    "batch with no kind": _delete(_first_batch, "kind"),
    "hash not hex": _set(_entry, "parent", "X" * 64),
    "time beyond the exact range": _set(_entry, "time", 2**53),
    "unknown field": _set(_entry, "extra", 1),
    "unknown step kind": _set(_entry, "kind", "move"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_the_schema_refuses_what_the_code_refuses(name: str, guess_file: Path) -> None:
    data = json.loads(guess_file.read_text())
    validator("game-file").validate(data)
    mutated = copy.deepcopy(data)
    MUTATIONS[name](mutated)
    assert not validator("game-file").is_valid(mutated), name


def test_every_integer_says_it_is_written_without_a_fraction(game_files: list[Path]) -> None:
    """Issue 34: JSON Schema's integer type takes ``"seat": 0.0``, which pbem refuses (no
    schema can tell 0.0 from 0): every integer of every schema says so in its comment, and
    pbem refuses such a file in one line."""

    def integers(node: Any) -> list[dict[str, Any]]:
        if isinstance(node, dict):
            own = [node] if node.get("type") == "integer" else []
            return own + [i for v in node.values() for i in integers(v)]
        if isinstance(node, list):
            return [i for v in node for i in integers(v)]
        return []

    for stem, schema in SCHEMAS.items():
        for node in integers(schema):
            assert node.get("$comment") == INTEGER_NOTE, (stem, node)
    seat = SCHEMAS["game-file"]["$defs"]["Envelope"]["properties"]["seat"]
    assert seat["$comment"] == INTEGER_NOTE
    text = game_files[0].read_text()
    assert '"seat": 0,' in text
    forged = text.replace('"seat": 0,', '"seat": 0.0,', 1)
    validator("game-file").validate(json.loads(forged))  # what a schema cannot refuse
    with pytest.raises(Rejected, match=r"number 0\.0 is not an integer: floats are not allowed"):
        gamefile.decode(forged.encode())
