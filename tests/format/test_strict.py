"""Bytes verified are bytes signed (architecture §3, issue 11): every file below was once
accepted by ``pbem verify`` although an independent verifier rejects it; each must now be
refused with exit 1 and one line naming the step, the seat and the field, writing nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.cli.main import main

Mutation = Callable[[dict[str, Any]], None]


def refused(tmp_path: Path, source: Path, mutate: Mutation) -> str:
    """Write a mutated copy, run ``pbem verify`` on it, and return its one error line."""
    data = json.loads(source.read_text())
    mutate(data)
    target = tmp_path / "mutated.json"
    target.write_text(json.dumps(data, indent=1))
    before = sorted(tmp_path.iterdir()), target.read_bytes()
    result = CliRunner().invoke(main, ["verify", str(target)])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: error: "), result.stderr
    assert "Traceback" not in result.output
    assert (sorted(tmp_path.iterdir()), target.read_bytes()) == before
    return lines[0]


def first(data: dict[str, Any], kind: str) -> dict[str, Any]:
    """The first step of ``kind`` (an entry kind, or a batch decision) whose seat is 0."""
    for step in data["steps"]:
        if step["kind"] == kind and step.get("seat") == 0:
            return step
        if step["kind"] == "batch" and step["decision"] == kind:
            return step
    raise AssertionError(f"no {kind} step")


def index_of(data: dict[str, Any], step: dict[str, Any]) -> int:
    return next(i for i, s in enumerate(data["steps"]) if s is step)


@pytest.mark.parametrize("value", ["0", " 0 ", "+00", True])
def test_a_coerced_seat_in_an_entry_is_refused(
    tmp_path: Path, guess_file: Path, value: Any
) -> None:
    data = json.loads(guess_file.read_text())
    index = index_of(data, first(data, "beacon"))

    def mutate(d: dict[str, Any]) -> None:
        d["steps"][index]["seat"] = value

    line = refused(tmp_path, guess_file, mutate)
    assert f"step {index + 1}, seat {json.dumps(value)}: field seat: " in line


@pytest.mark.parametrize("value", ["0", " 0 ", "+00", True])
def test_a_coerced_seat_in_an_envelope_is_refused(
    tmp_path: Path, guess_file: Path, value: Any
) -> None:
    data = json.loads(guess_file.read_text())
    index = index_of(data, first(data, "commit:guess"))

    def mutate(d: dict[str, Any]) -> None:
        d["steps"][index]["envelopes"][0]["seat"] = value

    line = refused(tmp_path, guess_file, mutate)
    assert f"step {index + 1}, seat {json.dumps(value)}: field seat: " in line


def test_a_bool_for_a_seat_one_is_refused(tmp_path: Path, guess_file: Path) -> None:
    data = json.loads(guess_file.read_text())
    index = index_of(data, first(data, "commit:guess"))

    def mutate(d: dict[str, Any]) -> None:
        d["steps"][index]["envelopes"][1]["seat"] = True  # True == 1 in Python

    assert f"step {index + 1}, seat true: field seat: " in refused(tmp_path, guess_file, mutate)


@pytest.mark.parametrize(
    ("field", "value"), [("chain", "8192"), ("creator", False), ("creator", "0")]
)
def test_a_coerced_genesis_field_is_refused(
    tmp_path: Path, guess_file: Path, field: str, value: Any
) -> None:
    def mutate(d: dict[str, Any]) -> None:
        d["genesis"][field] = value

    assert f"genesis: field {field}: " in refused(tmp_path, guess_file, mutate)


@pytest.mark.parametrize("field", ["kind", "preimage", "time"])
def test_a_join_envelope_with_a_field_deleted_is_refused(
    tmp_path: Path, guess_file: Path, field: str
) -> None:
    def mutate(d: dict[str, Any]) -> None:
        del d["steps"][0]["envelopes"][0][field]

    line = refused(tmp_path, guess_file, mutate)
    assert f"step 1, seat 1 (bot2): field {field}: Field required" in line


def test_a_false_for_a_zero_in_the_cached_state_is_refused(
    tmp_path: Path, guess_file: Path
) -> None:
    data = json.loads(guess_file.read_text())
    seat = data["state"]["public"]["scores"].index(0)

    def mutate(d: dict[str, Any]) -> None:
        d["state"]["public"]["scores"][seat] = False  # False == 0 in Python

    line = refused(tmp_path, guess_file, mutate)
    assert (
        f"cached state: field public.scores[{seat}]: the file has false where the replay computes 0"
    ) in line


@pytest.mark.parametrize("value", ["10", True, None])
def test_cached_step_count_of_another_type_is_refused(
    tmp_path: Path, guess_file: Path, value: Any
) -> None:
    def mutate(d: dict[str, Any]) -> None:
        d["state"]["steps"] = value

    assert "cached state: field steps: " in refused(tmp_path, guess_file, mutate)


def test_a_coerced_field_in_an_action_is_refused(tmp_path: Path, guess_file: Path) -> None:
    """An action inside a signed body is the ruleset's: still no coercion (the ruleset
    validates it strictly, and it must dump back to the bytes signed)."""
    data = json.loads(guess_file.read_text())
    index = index_of(data, next(s for s in data["steps"] if s["kind"] == "turn"))

    def mutate(d: dict[str, Any]) -> None:
        d["steps"][index]["body"]["action"]["type"] = ["bank"]

    line = refused(tmp_path, guess_file, mutate)
    assert f"step {index + 1}, seat " in line


@pytest.mark.parametrize("pad", ["=", "A"])
def test_a_signature_spelled_another_way_is_refused(
    tmp_path: Path, guess_file: Path, pad: str
) -> None:
    """A signature with padding or non-zero trailing bits decodes to the same 64 bytes,
    but is another step (its hash differs): only the canonical spelling is accepted."""
    data = json.loads(guess_file.read_text())
    index = index_of(data, first(data, "beacon"))

    def mutate(d: dict[str, Any]) -> None:
        sig = d["steps"][index]["signature"]
        d["steps"][index]["signature"] = sig + "=" if pad == "=" else sig[:-1] + "B"

    line = refused(tmp_path, guess_file, mutate)
    assert f"step {index + 1}, seat 0 (bot1): field signature: must be 64 bytes" in line


def test_verify_of_two_copies_never_calls_a_coerced_copy_the_same(
    tmp_path: Path, guess_file: Path
) -> None:
    data = json.loads(guess_file.read_text())
    data["genesis"]["chain"] = str(data["genesis"]["chain"])
    other = tmp_path / "other.json"
    other.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["verify", str(guess_file), str(other)])
    assert result.exit_code == 1
    assert "same game, same steps" not in result.output
    assert "genesis: field chain" in result.stderr


@pytest.mark.parametrize("kind", [["turn"], {"turn": 1}, 7, None])
def test_a_step_kind_that_is_not_a_string_is_refused(
    tmp_path: Path, guess_file: Path, kind: Any
) -> None:
    # Found by benchmarks/fuzz_format.py: a list here was a traceback.
    def mutate(d: dict[str, Any]) -> None:
        d["steps"][1]["kind"] = kind

    assert "step 2: field kind: not a string" in refused(tmp_path, guess_file, mutate)
