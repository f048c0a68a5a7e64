"""The example's tests run from a checkout without installing it: its package folder is
put on the path (pytest does so for this file's folder) and registered as a developer
registers a game, by ``PBEM_RULESETS``."""

from __future__ import annotations

import os

import pytest

TARGET = "goofspiel:Goofspiel"


@pytest.fixture(autouse=True)
def _registered(monkeypatch: pytest.MonkeyPatch) -> None:
    known = os.environ.get("PBEM_RULESETS", "")
    if TARGET not in known.split(","):
        monkeypatch.setenv("PBEM_RULESETS", ",".join(filter(None, [known, TARGET])))
