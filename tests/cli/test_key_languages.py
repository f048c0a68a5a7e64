"""``pbem key new --lang`` and ``pbem key lang`` (issue 30), and the refusal of a name in
the reader's language, through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli.main import main
from pbem.crypto.keyring import FAST_KDF_ENV
from pbem.format.card import IdentityCard


@pytest.fixture(autouse=True)
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("PBEM_HOME", str(home))
    monkeypatch.setenv(FAST_KDF_ENV, "1")
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    return home


def run(*args: str, code: int = 0, env: dict[str, str] | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def test_a_card_made_with_a_language_exports_it_signed(tmp_path: Path) -> None:
    made = json.loads(
        run(
            "key",
            "new",
            "さくら",
            "--email",
            "s@example.org",
            "--no-passphrase",
            "--lang",
            "ja",
            "--json",
        ).stdout
    )
    assert made["lang"] == "ja" and made["name"] == "さくら"
    out = tmp_path / "card.json"
    run("key", "export", "さくら", "-o", str(out))
    card = IdentityCard.from_json(out.read_bytes())
    assert card.lang == "ja" and card.signature is not None
    assert out.read_bytes().isascii()


def test_the_language_is_changed_with_the_passphrase(tmp_path: Path) -> None:
    secret = {"PBEM_PASSPHRASE": "secret"}
    run("key", "new", "José", "--email", "j@example.org", env=secret)
    said = run("key", "lang", "José", "zh-Hans", env=secret).stdout
    assert "the card of José asks for mail in zh-Hans now" in said
    shown = json.loads(run("key", "export", "José", "--json").stdout)
    assert shown["lang"] == "zh-Hans"
    run("key", "lang", "José", "--clear", env=secret)
    assert "lang" not in json.loads(run("key", "export", "José", "--json").stdout)
    wrong = run("key", "lang", "José", "ja", code=1, env={"PBEM_PASSPHRASE": "nope"})
    assert "wrong passphrase" in wrong.stderr
    refused = run("key", "lang", "José", "fr", code=2)
    assert "'fr'" in refused.stderr


def test_a_name_typed_decomposed_is_kept_composed() -> None:
    made = json.loads(
        run(
            "key", "new", "Jose\u0301", "--email", "j@example.org", "--no-passphrase", "--json"
        ).stdout
    )
    assert made["name"] == "Jos\u00e9"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ja", "文字体系 Latin, Cyrillic が混ざっています"),
        ("zh-Hant", "混用了文字 Latin, Cyrillic"),
        ("zh-Hans", "混用了文字 Latin, Cyrillic"),
    ],
)
def test_a_confusable_name_is_refused_in_the_readers_language(lang: str, said: str) -> None:
    args = ["key", "new", "pаypal", "--email", "p@example.org", "--no-passphrase"]
    result = run("--lang", lang, *args, code=2)
    assert said in result.stderr
    english = run(*args, "--json", code=2).stdout
    assert run("--lang", lang, *args, "--json", code=2).stdout == english
    assert "mixes the scripts Latin, Cyrillic" in json.loads(english)["error"]
