"""Sealed commitments (architecture §6)."""

from __future__ import annotations

import pytest

from pbem.crypto.sealing import open_sealed, seal
from pbem.format.canonical import b64d, b64e
from pbem.format.errors import Rejected

GAME, PARENT = b64e(bytes(16)), "ab" * 32
KEY = bytes(range(32))


def sealed(action: object = {"type": "guess", "value": 4}, seat: int = 1) -> dict[str, str]:
    counter = iter(range(1000))
    return seal(
        KEY, GAME, PARENT, seat, "commit:guess", action, lambda n: bytes([next(counter)] * n)
    )


def test_seal_opens_with_its_key() -> None:
    body = sealed()
    assert open_sealed(KEY, body, GAME, PARENT, 1, "commit:guess") == {"type": "guess", "value": 4}


def test_the_action_is_not_in_the_body() -> None:
    body = sealed({"type": "guess", "value": 4})
    assert "guess" not in str(body) and b"guess" not in b64d(body["ciphertext"])


def test_wrong_key_does_not_open() -> None:
    with pytest.raises(Rejected, match="does not open the commitment"):
        open_sealed(bytes(32), sealed(), GAME, PARENT, 1, "commit:guess")


def test_bound_to_seat_parent_and_decision() -> None:
    body = sealed()
    for seat, parent, decision in [
        (2, PARENT, "commit:guess"),
        (1, "cd" * 32, "commit:guess"),
        (1, PARENT, "commit:x"),
    ]:
        with pytest.raises(Rejected, match="does not open"):
            open_sealed(KEY, body, GAME, parent, seat, decision)


def test_swapped_commitment_is_caught() -> None:
    body = sealed()
    other = sealed({"type": "guess", "value": 5})
    body["commitment"] = other["commitment"]
    with pytest.raises(Rejected, match="does not match the commitment"):
        open_sealed(KEY, body, GAME, PARENT, 1, "commit:guess")
