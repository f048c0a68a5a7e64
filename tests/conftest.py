"""Shared fixtures: the test ruleset ``guess`` registered, a fast KDF, a private keyring."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

from pbem.play.selfplay import StepClock, play_game
from pbem.play.signer import PROCESS_JOURNAL
from pbem.ruleset import registry

CLOCK_START = StepClock.START

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
    """Every test gets its own keyring and works in its own folder (whatever a command
    writes beside its input or in the working folder stays out of the checkout); key
    files use cheap Argon2id parameters."""
    monkeypatch.chdir(tmp_path)
    home = tmp_path / "pbem-home"
    monkeypatch.setenv("PBEM_HOME", str(home))
    monkeypatch.setenv("PBEM_TEST_FAST_KDF", "1")
    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START))
    monkeypatch.delenv("PBEM_AS", raising=False)
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    # No test reads or writes the keychain of the machine it runs on (tests/mail/
    # test_keychain.py gives a test one of its own), in this process or a pbem subprocess.
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    keyring.set_keyring(fail.Keyring())
    # English whatever the tester's locale (a test of the languages names its own)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LC_MESSAGES", "C")
    PROCESS_JOURNAL.clear()  # each test is a new table: seeded games repeat their ids
    return home


# ----- game files to check and mutate: small self-played games, made once per session ----


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


@pytest.fixture(scope="session")
def game_files(
    tmp_path_factory: pytest.TempPathFactory, guess_file: Path, peek_file: Path
) -> list[Path]:
    """Self-played files of every ruleset (the shipped games with greedy bots), and the
    examples: what the schemas and the conformance verifier are checked against."""
    out = tmp_path_factory.mktemp("games")
    made = [guess_file, peek_file]
    for ruleset, raw in (("rattaneer", {}), ("rattus", {}), ("rattus", {"africanus": "true"})):
        rules = registry.get(ruleset)
        folder = out / f"{ruleset}-{len(raw)}"
        report = play_game(
            rules, 3 if not raw else 2, 1, rules.parse_options(raw), ["greedy"], folder
        )
        assert report.path is not None
        made.append(report.path)
    examples = sorted((ROOT / "examples").glob("*/*.json"))
    return made + [p for p in examples if '"format"' in p.read_text()[:200]]
