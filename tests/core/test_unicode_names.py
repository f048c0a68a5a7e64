"""Identity names in any script (issue 30): letters, digits and marks of one script (UTS
#39 highly restrictive), NFC and unchanged by NFKC, no invisible characters, short enough
for a file name; and the card's optional ``lang``, signed with the card."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from pbem.crypto.keyring import FAST_KDF_ENV, Keyring
from pbem.crypto.keys import Identity
from pbem.format.canonical import pretty
from pbem.format.card import IdentityCard, check_name
from pbem.format.errors import Rejected, UsageError
from pbem.format.scripts import mixed_scripts


@pytest.fixture(autouse=True)
def fast_kdf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FAST_KDF_ENV, "1")


@pytest.fixture
def ring(tmp_path: Path) -> Keyring:
    return Keyring(tmp_path / "home")


@pytest.mark.parametrize(
    "name",
    [
        "花子",
        "さくら",
        "王小明",
        "José",
        "山田ハナコ",
        "Αλέξης",
        "김민준",
        "陳ㄅㄆ",
        "Tarō山田",
        "x" * 64,
    ],
)
def test_names_in_any_script_are_accepted(ring: Keyring, name: str) -> None:
    ring.create(name, "a@example.org", None)
    assert ring.load(name, None).card.name == name
    assert (ring.home / "keys" / f"{name}.json").is_file()
    assert [c.name for c, _ in ring.list()] == [name]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("pаypal", "mixes the scripts Latin, Cyrillic"),  # a Cyrillic а
        ("Αpple", "mixes the scripts Greek, Latin"),  # a Greek Α
        ("さくらㄅ", "mixes the scripts Hiragana, Bopomofo"),
        ("bob\u202egnp", "invisible or control character U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("bo\u200bb", "U+200B (ZERO WIDTH SPACE)"),
        ("a\x07", "U+0007"),
        ("Jose\u0301", "not in Unicode normal form NFC"),
        ("ｈａｎａ", "compatibility characters"),
        ("𠀀" * 49, "too long"),
        ("花子/x", "use 1 to 64 letters"),
        ("・花子", "use 1 to 64 letters"),
    ],
)
def test_unsafe_or_confusable_names_are_refused(ring: Keyring, name: str, said: str) -> None:
    with pytest.raises(UsageError, match="bad identity name") as caught:
        ring.create(name, "a@example.org", None)
    assert said in str(caught.value)
    assert not (ring.home / "keys").exists() or not any((ring.home / "keys").iterdir())


def test_japanese_chinese_and_korean_may_mix_with_latin_and_han() -> None:
    assert mixed_scripts("Hanako花子ハナ") == []
    assert mixed_scripts("王ㄅ") == []
    assert mixed_scripts("王김") == []
    assert mixed_scripts("김ハナ") == ["Hangul", "Katakana"]


def test_a_name_typed_decomposed_finds_the_identity(ring: Keyring) -> None:
    ring.create("José", "j@example.org", None)
    assert ring.card(unicodedata.normalize("NFD", "José")).name == "José"
    with pytest.raises(UsageError, match="already has an identity"):
        ring.check_new("JOSÉ", "x@example.org")


def test_a_key_file_stored_decomposed_is_read(ring: Keyring) -> None:
    """macOS's HFS+ gives file names back in NFD."""
    ring.create("José", "j@example.org", None)
    stored = ring.home / "keys" / "José.json"
    stored.rename(ring.home / "keys" / (unicodedata.normalize("NFD", "José") + ".json"))
    assert ring.load("José", None).card.name == "José"


def test_the_card_file_is_ascii_and_the_name_survives(ring: Keyring) -> None:
    made = ring.create("王小明", "w@example.org", None)
    text = pretty(made.card.model_dump())
    assert text.isascii()
    assert IdentityCard.from_json(text) == made.card


def test_a_card_with_a_language_is_signed_and_kept(ring: Keyring) -> None:
    made = ring.create("さくら", "s@example.org", "pass", "ja")
    assert made.card.lang == "ja" and made.card.signature
    assert ring.load("さくら", "pass").card == made.card
    again = ring.set_lang("さくら", "zh-Hant", "pass")
    assert again.card.lang == "zh-Hant" and again.card.fingerprint == made.card.fingerprint
    assert ring.load("さくら", "pass").card == again.card
    cleared = ring.set_lang("さくら", None, "pass")
    assert cleared.card.lang is None and "signature" not in cleared.card.model_dump()


def test_a_card_without_a_language_is_as_before() -> None:
    card = Identity.generate("bob", "b@example.org").card
    assert sorted(card.model_dump()) == ["box_key", "email", "fingerprint", "name", "sign_key"]
    assert "lang" not in IdentityCard.model_json_schema()["required"]


def test_a_language_changed_after_signing_is_refused() -> None:
    card = Identity.generate("花子", "h@example.org", "ja").card.model_dump()
    forged = {**card, "lang": "zh-Hans"}
    with pytest.raises(Rejected, match="signature does not match the card") as caught:
        IdentityCard.from_json(json.dumps(forged))
    assert "name, email or lang was changed after 花子 signed it" in str(caught.value)
    renamed = {**card, "name": "花江"}
    with pytest.raises(Rejected, match="signature does not match the card"):
        IdentityCard.from_value(renamed)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"signature": None}, "null is not allowed"),
        ({"lang": None}, "null is not allowed"),
        ({"lang": "fr"}, "lang"),
        ({"drop": "signature"}, "lang and signature go together"),
        ({"drop": "lang"}, "lang and signature go together"),
    ],
)
def test_a_malformed_language_is_refused(change: dict[str, object], said: str) -> None:
    card = Identity.generate("bob", "b@example.org", "en").card.model_dump()
    drop = change.pop("drop", None)
    card.update(change)
    if drop:
        del card[drop]
    with pytest.raises(Rejected, match=said):
        IdentityCard.from_value(card)


def test_a_language_needs_a_valid_value(ring: Keyring) -> None:
    with pytest.raises(UsageError, match="bad language 'fr'"):
        ring.create("bob", "b@example.org", None, "fr")


def test_check_name_keeps_every_ascii_name() -> None:
    for name in ("a", "Alice_2", "bob.smith", "x-y", "9" * 64):
        assert check_name(name) == name


def test_a_card_with_a_new_language_replaces_the_one_imported(tmp_path: Path) -> None:
    """``pbem key lang`` makes a card that differs in its language only, signed by the
    player: importing it replaces the card kept before; any other change is still refused."""
    theirs, mine = Keyring(tmp_path / "theirs"), Keyring(tmp_path / "mine")
    old = theirs.create("花子", "h@example.org", None).card
    assert mine.import_card(old).added
    new = theirs.set_lang("花子", "ja", None).card
    assert mine.import_card(new).added and mine.card("花子") == new
    assert not mine.import_card(new).added
    other = Keyring(tmp_path / "other").create("花子", "h@example.org", None, "ja").card
    with pytest.raises(Rejected, match="a different card named '花子'"):
        mine.import_card(other)
    unsigned = theirs.set_lang("花子", None, None).card
    with pytest.raises(Rejected, match="a different card named '花子'"):
        mine.import_card(unsigned)  # a card without a language says nothing new, signed
