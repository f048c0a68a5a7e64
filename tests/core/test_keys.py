"""Identities, cards and the keyring (architecture §4)."""

from __future__ import annotations

import json
import stat
import sys
import unicodedata
from pathlib import Path
from typing import Any

import platformdirs
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto.keyring import FAST_KDF_ENV, Keyring, default_home, new_kdf_params
from pbem.crypto.keys import Identity
from pbem.format.canonical import b64d, b64e, pretty
from pbem.format.card import IdentityCard, fingerprint_of
from pbem.format.errors import Rejected, UsageError

GAME = bytes(range(16))
OTHER_GAME = bytes(range(1, 17))
POSIX = sys.platform != "win32"


@pytest.fixture(autouse=True)
def fast_kdf(monkeypatch: pytest.MonkeyPatch) -> None:
    """Weak Argon2id for speed; the tests that need the real cost unset it."""
    monkeypatch.setenv(FAST_KDF_ENV, "1")
    monkeypatch.delenv("PBEM_HOME", raising=False)


@pytest.fixture
def ring(tmp_path: Path) -> Keyring:
    return Keyring(tmp_path / "home")


def key_path(ring: Keyring, name: str) -> Path:
    return ring.home / "keys" / f"{name}.json"


def read_json(path: Path) -> dict[str, Any]:
    value = json.loads(path.read_text())
    assert isinstance(value, dict)
    return value


def write_json(path: Path, value: Any) -> None:
    path.write_text(pretty(value))


# --------------------------------------------------------------------------- create / load


def test_unsealed_roundtrip_is_marked_explicitly(ring: Keyring) -> None:
    made = ring.create("alice", "alice@example.org", None)
    data = read_json(key_path(ring, "alice"))
    assert data["sealed"] is False
    assert b64d(data["root"]) == made.root
    assert not ring.needs_passphrase("alice")
    loaded = ring.load("alice", None)
    assert loaded.root == made.root
    assert loaded.card == made.card
    # A passphrase given for an unsealed key is ignored rather than refused: scripts may
    # export PBEM_PASSPHRASE for every identity.
    assert ring.load("alice", "whatever").root == made.root


def test_sealed_roundtrip_hides_the_root(ring: Keyring) -> None:
    made = ring.create("alice", "alice@example.org", "correct horse")
    text = key_path(ring, "alice").read_text()
    data = json.loads(text)
    assert data["sealed"] is True
    assert "root" not in data
    assert b64e(made.root) not in text
    assert data["kdf"]["name"] == "argon2id"
    assert len(b64d(data["kdf"]["salt"])) == 16
    assert len(b64d(data["nonce"])) == 12
    assert ring.needs_passphrase("alice")
    loaded = ring.load("alice", "correct horse")
    assert loaded.root == made.root
    assert loaded.card == made.card


def test_sealed_key_needs_its_passphrase(ring: Keyring) -> None:
    ring.create("alice", "alice@example.org", "pw")
    with pytest.raises(UsageError, match="passphrase is needed"):
        ring.load("alice", None)


def test_wrong_passphrase(ring: Keyring) -> None:
    ring.create("alice", "alice@example.org", "right")
    with pytest.raises(Rejected) as info:
        ring.load("alice", "wrong")
    assert str(info.value) == "wrong passphrase for identity 'alice'"
    assert info.value.exit_code == 1


def test_passphrase_is_unicode_normalized(ring: Keyring) -> None:
    composed = unicodedata.normalize("NFC", "café")
    decomposed = unicodedata.normalize("NFD", "café")
    assert composed != decomposed
    made = ring.create("alice", "alice@example.org", composed)
    assert ring.load("alice", decomposed).root == made.root


def test_empty_passphrase_is_refused(ring: Keyring) -> None:
    with pytest.raises(UsageError, match="--no-passphrase"):
        ring.create("alice", "alice@example.org", "")
    assert not key_path(ring, "alice").exists()


def test_default_kdf_parameters_are_strong(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FAST_KDF_ENV)
    params = new_kdf_params()
    assert (params.memory_kib, params.iterations, params.lanes) == (64 * 1024, 3, 4)
    monkeypatch.setenv(FAST_KDF_ENV, "yes")  # only exactly "1" lowers the cost
    assert new_kdf_params().memory_kib == 64 * 1024
    monkeypatch.setenv(FAST_KDF_ENV, "1")
    assert new_kdf_params().memory_kib < 64 * 1024


def test_real_cost_roundtrip(ring: Keyring, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FAST_KDF_ENV)
    made = ring.create("alice", "alice@example.org", "pw")
    kdf = read_json(key_path(ring, "alice"))["kdf"]
    assert (kdf["memory_kib"], kdf["iterations"], kdf["lanes"]) == (65536, 3, 4)
    assert ring.load("alice", "pw").root == made.root


def test_loading_uses_the_stored_parameters(ring: Keyring, monkeypatch: pytest.MonkeyPatch) -> None:
    made = ring.create("alice", "alice@example.org", "pw")  # made with the fast cost
    monkeypatch.delenv(FAST_KDF_ENV)  # the default cost would derive another key
    assert ring.load("alice", "pw").root == made.root


@pytest.mark.skipif(not POSIX, reason="POSIX file modes")
def test_private_files_are_private(ring: Keyring) -> None:
    ring.create("alice", "alice@example.org", "pw")
    ring.create("bot", "bot@example.org", None)
    for name in ("alice", "bot"):
        assert stat.S_IMODE(key_path(ring, name).stat().st_mode) == 0o600
    assert stat.S_IMODE((ring.home / "keys").stat().st_mode) == 0o700
    # No temporary file is left behind by the atomic write.
    assert sorted(p.name for p in (ring.home / "keys").iterdir()) == ["alice.json", "bot.json"]


def test_missing_identity(ring: Keyring) -> None:
    with pytest.raises(UsageError) as info:
        ring.load("bob", "pw")
    assert str(info.value) == (
        f"no identity 'bob' in the keyring at {ring.home}; "
        "create one with 'pbem key new bob --email ADDRESS'"
    )
    assert info.value.exit_code == 2
    with pytest.raises(UsageError, match="no identity 'bob'"):
        ring.needs_passphrase("bob")


def test_existing_name_is_refused(ring: Keyring) -> None:
    ring.create("alice", "alice@example.org", None)
    before = key_path(ring, "alice").read_bytes()
    with pytest.raises(UsageError, match="already has an identity named 'alice'"):
        ring.create("alice", "other@example.org", None)
    # Names differing only in case are the same file on macOS and Windows.
    with pytest.raises(UsageError, match="already has an identity named 'alice'"):
        ring.create("ALICE", "other@example.org", None)
    assert key_path(ring, "alice").read_bytes() == before


@pytest.mark.parametrize(
    "name",
    ["", "a b", "../evil", "a/b", ".hidden", "-x", "x" * 65, "con", "NUL.x", "a\n", "a\u202eb"],
)
def test_unsafe_names_are_refused(ring: Keyring, name: str) -> None:
    with pytest.raises(UsageError, match="bad identity name"):
        ring.create(name, "a@example.org", None)
    assert not (ring.home / "keys").exists() or not any((ring.home / "keys").iterdir())


@pytest.mark.parametrize("name", ["a", "Alice_2", "bob.smith", "x-y", "9" * 64])
def test_safe_names_are_accepted(ring: Keyring, name: str) -> None:
    ring.create(name, "a@example.org", None)
    assert ring.load(name, None).card.name == name


@pytest.mark.parametrize(
    "email", ["", "bob", "bob@", "@x.org", "bob @x.org", "a@b.org\r\nBcc: c@d.org", "<a@b.org>"]
)
def test_bad_emails_are_refused(ring: Keyring, email: str) -> None:
    with pytest.raises(UsageError, match="bad email address"):
        ring.create("alice", email, None)


def test_identity_repr_hides_the_root(ring: Keyring) -> None:
    made = ring.create("alice", "alice@example.org", None)
    assert b64e(made.root) not in repr(made)
    assert made.root.hex() not in repr(made)
    assert made.card.fingerprint in repr(made)


# --------------------------------------------------------------------------- damaged files


def test_truncated_key_file(ring: Keyring) -> None:
    ring.create("alice", "alice@example.org", "pw")
    path = key_path(ring, "alice")
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(Rejected, match=f"key file {path} is not valid JSON"):
        ring.load("alice", "pw")


def test_key_file_not_json(ring: Keyring) -> None:
    ring.create("alice", "alice@example.org", None)
    path = key_path(ring, "alice")
    path.write_text("this is not { json")
    with pytest.raises(Rejected, match=f"key file {path} is not valid JSON"):
        ring.load("alice", None)
    path.write_text("[1, 2]")
    with pytest.raises(Rejected, match=f"key file {path} is damaged"):
        ring.load("alice", None)


def flip_first_byte(text: str) -> str:
    raw = bytearray(b64d(text))
    raw[0] ^= 1
    return b64e(bytes(raw))


@pytest.mark.parametrize("field", ["ciphertext", "nonce"])
def test_altered_seal_is_damage_not_a_wrong_passphrase(ring: Keyring, field: str) -> None:
    ring.create("alice", "alice@example.org", "pw")
    path = key_path(ring, "alice")
    data = read_json(path)
    data[field] = flip_first_byte(data[field])
    write_json(path, data)
    with pytest.raises(Rejected, match=f"key file {path} is damaged: the sealed key does not"):
        ring.load("alice", "pw")


def test_altered_card_in_sealed_file(ring: Keyring) -> None:
    # The card is not encrypted but is bound to the seal as associated data.
    ring.create("alice", "alice@example.org", "pw")
    path = key_path(ring, "alice")
    data = read_json(path)
    data["card"]["email"] = "mallory@example.org"
    write_json(path, data)
    with pytest.raises(Rejected, match=f"key file {path} is damaged"):
        ring.load("alice", "pw")


def test_swapped_card_in_unsealed_file(ring: Keyring, tmp_path: Path) -> None:
    ring.create("alice", "alice@example.org", None)
    other = Keyring(tmp_path / "other").create("alice", "alice@example.org", None)
    path = key_path(ring, "alice")
    data = read_json(path)
    data["card"] = other.card.model_dump()
    write_json(path, data)
    with pytest.raises(Rejected, match=f"key file {path} is damaged: its card does not match"):
        ring.load("alice", None)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"format": "pbem-key/9"}, "format"),
        ({"sealed": "yes"}, "sealed"),
        ({"extra": 1}, "extra"),
        ({"root": None}, "unsealed key needs root"),
        ({"root": "AAAA"}, "root must be 32 bytes"),
        ({"kdf": {"salt": "AAAAAAAAAAAAAAAAAAAAAA"}}, "kdf"),
    ],
)
def test_malformed_unsealed_key_file(ring: Keyring, change: dict[str, Any], reason: str) -> None:
    ring.create("alice", "alice@example.org", None)
    path = key_path(ring, "alice")
    data = read_json(path)
    data.update(change)
    write_json(path, {k: v for k, v in data.items() if v is not None})
    with pytest.raises(Rejected) as info:
        ring.load("alice", None)
    message = str(info.value)
    assert message.startswith(f"key file {path} is damaged: ")
    assert reason in message
    assert "\n" not in message


def test_hostile_kdf_cost_is_refused_before_running(ring: Keyring) -> None:
    ring.create("alice", "alice@example.org", "pw")
    path = key_path(ring, "alice")
    data = read_json(path)
    data["kdf"]["memory_kib"] = 1 << 40  # a terabyte: must be refused, not attempted
    write_json(path, data)
    with pytest.raises(Rejected, match=f"key file {path} is damaged: kdf.memory_kib"):
        ring.load("alice", "pw")


def test_key_file_under_another_name(ring: Keyring) -> None:
    ring.create("alice", "alice@example.org", None)
    key_path(ring, "alice").rename(key_path(ring, "bob"))
    with pytest.raises(Rejected, match="holds the card of 'alice'"):
        ring.load("bob", None)


# --------------------------------------------------------------------------- cards


def test_card_signature_verification(ring: Keyring) -> None:
    alice = ring.create("alice", "alice@example.org", None)
    bob = ring.create("bob", "bob@example.org", None)
    signature = alice.sign(b"hello")
    assert len(signature) == 64
    assert alice.card.verify(b"hello", signature)
    assert not alice.card.verify(b"hellO", signature)
    assert not bob.card.verify(b"hello", signature)
    assert not alice.card.verify(b"hello", signature[:-1])
    assert not alice.card.verify(b"hello", bytes(64))


def test_fingerprint_shape_and_binding(ring: Keyring) -> None:
    card = ring.create("alice", "alice@example.org", None).card
    groups = card.fingerprint.split("-")
    assert [len(g) for g in groups] == [4] * 5
    assert card.fingerprint == fingerprint_of(card.sign_key_bytes, card.box_key_bytes)
    swapped = fingerprint_of(card.box_key_bytes, card.sign_key_bytes)
    assert swapped != card.fingerprint


def other_keys() -> tuple[str, str]:
    raw = serialization.Encoding.Raw, serialization.PublicFormat.Raw
    sign = Ed25519PrivateKey.generate().public_key().public_bytes(*raw)
    box = X25519PrivateKey.generate().public_key().public_bytes(*raw)
    return b64e(sign), b64e(box)


@pytest.mark.parametrize("field", ["sign_key", "box_key"])
def test_card_with_substituted_key_is_rejected(ring: Keyring, field: str) -> None:
    card = ring.create("alice", "alice@example.org", None).card.model_dump()
    sign, box = other_keys()
    card[field] = sign if field == "sign_key" else box
    with pytest.raises(Rejected, match=r"fingerprint .* does not match the keys"):
        IdentityCard.from_value(card)


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("fingerprint", "AAAA-AAAA-AAAA-AAAA-AAAA", "does not match the keys"),
        ("fingerprint", "abcd", "must look like"),
        ("sign_key", "AAAA", "must be 32 bytes"),
        ("sign_key", b64e(bytes(32)), "not a valid Ed25519"),  # a small-order point
        ("box_key", b64e(bytes(32)), "not a usable X25519"),  # a small-order point
        ("name", "a b", "bad identity name"),
        ("email", "a@b.org\nBcc: c@d.org", "bad email address"),
        ("name", 5, "name"),
    ],
)
def test_malformed_cards_are_rejected(ring: Keyring, field: str, value: Any, reason: str) -> None:
    card = ring.create("alice", "alice@example.org", None).card.model_dump()
    card[field] = value
    with pytest.raises(Rejected) as info:
        IdentityCard.from_value(card, what="card file x.json")
    message = str(info.value)
    assert message.startswith("card file x.json is not a valid identity card: ")
    assert reason in message
    assert "\n" not in message


def test_card_key_must_be_canonical_base64url(ring: Keyring) -> None:
    card = ring.create("alice", "alice@example.org", None).card.model_dump()
    card["sign_key"] += "="
    with pytest.raises(Rejected, match="canonical base64url"):
        IdentityCard.from_value(card)


def test_card_refuses_unknown_fields(ring: Keyring) -> None:
    card = ring.create("alice", "alice@example.org", None).card.model_dump()
    card["trusted"] = True
    with pytest.raises(Rejected, match="trusted"):
        IdentityCard.from_value(card)


# --------------------------------------------------------------------------- import / export


@pytest.fixture
def two(tmp_path: Path) -> tuple[Keyring, Keyring]:
    return Keyring(tmp_path / "alice"), Keyring(tmp_path / "bob")


def test_import_export_roundtrip(two: tuple[Keyring, Keyring], tmp_path: Path) -> None:
    alices, bobs = two
    alice = alices.create("alice", "alice@example.org", "pw")
    bobs.create("bob", "bob@example.org", None)
    file = tmp_path / "alice.card.json"
    file.write_text(pretty(alices.export("alice").model_dump()))
    card, added = bobs.import_card(file)
    assert added
    assert card == alice.card
    assert bobs.card("alice") == alice.card
    assert bobs.export("alice") == alice.card  # forwarding a card is allowed
    assert bobs.list() == [(bobs.card("bob"), True), (alice.card, False)]
    assert bobs.import_card(file) == (alice.card, False)  # again: nothing changes
    with pytest.raises(UsageError, match=r"'alice' is another player's card \(imported\)"):
        bobs.load("alice", "pw")  # a card is not a private key


@pytest.mark.skipif(not POSIX, reason="POSIX file modes")
def test_imported_card_file_is_public(two: tuple[Keyring, Keyring]) -> None:
    alices, bobs = two
    bobs.import_card(alices.create("alice", "alice@example.org", None).card)
    path = bobs.home / "cards" / "alice.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert IdentityCard.from_json(path.read_bytes()) == alices.card("alice")


def test_import_refuses_a_different_card_under_a_known_name(
    two: tuple[Keyring, Keyring], tmp_path: Path
) -> None:
    alices, bobs = two
    real = alices.create("alice", "alice@example.org", None).card
    fake = Keyring(tmp_path / "mallory").create("alice", "alice@example.org", None).card
    bobs.import_card(real)
    with pytest.raises(Rejected, match="a different card named 'alice' is already"):
        bobs.import_card(fake)
    assert bobs.card("alice") == real
    moved = fake.model_copy(update={"email": "alice@elsewhere.org"})
    with pytest.raises(Rejected, match="a different card named 'alice'"):
        bobs.import_card(IdentityCard.from_value(moved.model_dump()))


def test_import_refuses_a_card_colliding_with_an_own_identity(
    two: tuple[Keyring, Keyring],
) -> None:
    alices, bobs = two
    bob = bobs.create("bob", "bob@example.org", None)
    impostor = alices.create("bob", "bob@example.org", None).card
    with pytest.raises(Rejected, match="collides with your own identity 'bob'"):
        bobs.import_card(impostor)
    with pytest.raises(Rejected, match="collides with your own identity 'bob'"):
        bobs.import_card(bob.card)  # one's own card, re-imported
    renamed = bob.card.model_copy(update={"name": "notbob"})
    with pytest.raises(Rejected, match="collides with your own identity 'bob'"):
        bobs.import_card(renamed)
    assert bobs.list() == [(bob.card, True)]


def test_import_refuses_known_keys_under_a_second_name(two: tuple[Keyring, Keyring]) -> None:
    alices, bobs = two
    alice = alices.create("alice", "alice@example.org", None).card
    bobs.import_card(alice)
    with pytest.raises(Rejected, match="has the keys of the card 'alice'"):
        bobs.import_card(alice.model_copy(update={"name": "alias"}))


def test_create_refuses_the_name_of_an_imported_card(two: tuple[Keyring, Keyring]) -> None:
    alices, bobs = two
    bobs.import_card(alices.create("alice", "alice@example.org", None).card)
    with pytest.raises(UsageError, match="already has a card named 'alice'"):
        bobs.create("Alice", "me@example.org", None)


def test_import_of_a_tampered_card_file(two: tuple[Keyring, Keyring], tmp_path: Path) -> None:
    alices, bobs = two
    data = alices.create("alice", "alice@example.org", None).card.model_dump()
    data["box_key"] = other_keys()[1]
    file = tmp_path / "alice.card.json"
    write_json(file, data)
    with pytest.raises(Rejected, match=f"card file {file} is not a valid identity card"):
        bobs.import_card(file)
    assert bobs.list() == []


def test_import_of_a_missing_file(ring: Keyring, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"nope\.json: no such file"):
        ring.import_card(tmp_path / "nope.json")


def test_card_lookup(two: tuple[Keyring, Keyring]) -> None:
    alices, bobs = two
    bob = bobs.create("bob", "bob@example.org", None).card
    alice = alices.create("alice", "alice@example.org", None).card
    bobs.import_card(alice)
    assert bobs.card("ALICE") == alice  # names ignore case, as file systems may
    typed = alice.fingerprint.replace("-", " ").lower()
    assert bobs.find_by_fingerprint(typed) == alice
    assert bobs.find_by_fingerprint(bob.fingerprint) == bob
    assert bobs.find_by_fingerprint("AAAA-AAAA-AAAA-AAAA-AAAA") is None
    assert bobs.find_by_sign_key(alice.sign_key) == alice
    assert bobs.find_by_sign_key(bob.sign_key_bytes) == bob
    assert bobs.find_by_sign_key(b64e(bytes(32))) is None
    with pytest.raises(UsageError, match="no identity or card 'carol'"):
        bobs.card("carol")


def test_damaged_card_file_is_reported_by_list(two: tuple[Keyring, Keyring]) -> None:
    alices, bobs = two
    bobs.import_card(alices.create("alice", "alice@example.org", None).card)
    path = bobs.home / "cards" / "alice.json"
    path.write_text("{")
    with pytest.raises(Rejected, match=f"card file {path} is not valid JSON"):
        bobs.list()


def test_empty_keyring(ring: Keyring) -> None:
    assert ring.list() == []
    assert not ring.home.exists()  # reading never creates the directory


# --------------------------------------------------------------------------- derivation


def hkdf(secret: bytes, info: bytes, salt: bytes | None = None) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(secret)


def test_keys_are_derived_from_the_root_as_specified() -> None:
    # Pinned: changing a derivation would lose every existing identity and game.
    root = bytes(range(32))
    identity = Identity(root, "alice", "alice@example.org")
    raw = serialization.Encoding.Raw, serialization.PublicFormat.Raw
    sign = Ed25519PrivateKey.from_private_bytes(hkdf(root, b"pbem/1/ed25519"))
    box = X25519PrivateKey.from_private_bytes(hkdf(root, b"pbem/1/x25519"))
    assert identity.card.sign_key_bytes == sign.public_key().public_bytes(*raw)
    assert identity.card.box_key_bytes == box.public_key().public_bytes(*raw)
    expected = hkdf(root, b"pbem/1/seal\0ctx", salt=GAME)
    assert identity.game_secret(GAME, "seal", b"ctx") == expected


def test_game_secrets_are_deterministic_and_distinct(ring: Keyring) -> None:
    made = ring.create("alice", "alice@example.org", "pw")
    loaded = ring.load("alice", "pw")
    other = ring.create("bob", "bob@example.org", None)
    base = made.game_secret(GAME, "beacon")
    assert len(base) == 32
    assert loaded.game_secret(GAME, "beacon") == base  # resumable from the keyring alone
    variants = {
        base,
        made.game_secret(OTHER_GAME, "beacon"),
        made.game_secret(GAME, "seal"),
        made.game_secret(GAME, "beacon", b"x"),
        made.game_secret(GAME, "beacon", b"\0"),
        other.game_secret(GAME, "beacon"),
    }
    assert len(variants) == 6
    assert len(made.game_secret(GAME, "deck", length=64)) == 64


def test_game_secret_refuses_ambiguous_input(ring: Keyring) -> None:
    made = ring.create("alice", "alice@example.org", None)
    with pytest.raises(Rejected, match="game id must be 16 bytes, not 17"):
        made.game_secret(GAME + b"\0", "beacon")
    with pytest.raises(ValueError, match="bad secret label"):
        made.game_secret(GAME, "a\0b")
    with pytest.raises(ValueError, match="bad secret label"):
        made.game_secret(GAME, "")


def test_shared_secret_agrees(ring: Keyring) -> None:
    alice = ring.create("alice", "alice@example.org", None)
    bob = ring.create("bob", "bob@example.org", None)
    assert alice.shared_secret(bob.card) == bob.shared_secret(alice.card)


# --------------------------------------------------------------------------- home


def test_default_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "h"))
    assert default_home() == tmp_path / "h"
    assert Keyring().home == tmp_path / "h"
    monkeypatch.delenv("PBEM_HOME")
    assert default_home() == Path(platformdirs.user_data_dir("pbem"))


def test_unwritable_home_is_a_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(UsageError, match="cannot create the keyring"):
        Keyring(blocker / "home").create("alice", "alice@example.org", None)
