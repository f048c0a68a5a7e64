"""Shared fixtures: the test ruleset ``guess`` registered, a fast KDF, a private keyring."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULESETS = "tests.rulesets.guess:GuessGame,tests.rulesets.peek:PeekGame"

# The test rulesets are not installed packages: register it the way a developer would,
# for this process and for any `pbem` subprocess the tests start.
os.environ["PBEM_RULESETS"] = RULESETS
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own keyring; key files use cheap Argon2id parameters."""
    home = tmp_path / "pbem-home"
    monkeypatch.setenv("PBEM_HOME", str(home))
    monkeypatch.setenv("PBEM_TEST_FAST_KDF", "1")
    monkeypatch.delenv("PBEM_AS", raising=False)
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    return home
