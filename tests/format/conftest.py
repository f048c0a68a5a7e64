"""Game files to mutate: small self-played games of the test rulesets, made once."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core import registry
from pbem.core.selfplay import play_game


@pytest.fixture(scope="session")
def guess_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3-seat ``guess`` game: a join batch, beacon entries, sealed commitments
    and reveals, public turns, a cached state with zeros in it."""
    out = tmp_path_factory.mktemp("guess")
    rules = registry.get("guess")
    report = play_game(rules, 3, 5, rules.parse_options({"rounds": "2"}), ["random"], out)
    assert report.path is not None
    return report.path


@pytest.fixture(scope="session")
def peek_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3-seat ``peek`` game: sealed decks, shuffle passes, decryption shares,
    the end-of-game disclosure."""
    out = tmp_path_factory.mktemp("peek")
    rules = registry.get("peek")
    report = play_game(rules, 3, 2, rules.parse_options({}), ["random"], out)
    assert report.path is not None
    return report.path
