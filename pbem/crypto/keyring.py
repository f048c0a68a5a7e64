"""The local keyring: own identities sealed in key files, other players' cards (architecture §4).

On disk (``PBEM_HOME``, else the platform's user data directory)::

    keys/NAME.json    own identities: the root secret, sealed with Argon2id +
                      ChaCha20-Poly1305 (mode 0600), next to the public card
    cards/NAME.json   other players' cards, imported after checking their fingerprint

Argon2id is used rather than ``cryptography``'s PKCS#8 encryption because the latter
stretches the passphrase with only 2,048 PBKDF2 rounds.
"""

from __future__ import annotations

import builtins
import hashlib
import hmac
import os
import threading
import unicodedata
from pathlib import Path
from typing import Literal, NamedTuple

from cryptography.exceptions import InvalidTag, UnsupportedAlgorithm
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.argon2 import Argon2id
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from pbem.crypto.keys import ROOT_BYTES, Identity
from pbem.format.canonical import b64d, b64e, canonical, parse, pretty
from pbem.format.card import (
    IdentityCard,
    check_email,
    check_lang,
    check_name,
    first_error,
    is_name,
    normalize_fingerprint,
)
from pbem.format.errors import Rejected, UsageError
from pbem.format.files import atomic_write, default_home
from pbem.format.i18n import N_
from pbem.format.limits import read_input

KEY_FILE_FORMAT = "pbem-key/1"

#: One Argon2id derivation at a time in this process: two at once with several lanes
#: never return in the installed ``cryptography`` (OpenSSL's), which hung ``pbem ui``
#: when two signings came together (and every later one with it).
_DERIVING = threading.Lock()
KEY_FILE_DOMAIN = b"pbem/1/keyfile\0"

#: Environment variables read by this module (and only here).
#: FOR TESTS ONLY: when set to "1", new key files are sealed with a deliberately weak
#: Argon2id cost so that test suites run fast. Loading always uses the parameters stored in
#: the file, so this never weakens an existing key; it must never be set for real keys.
FAST_KDF_ENV = "PBEM_TEST_FAST_KDF"


# --------------------------------------------------------------------------- key files


class KdfParams(BaseModel):
    """Argon2id parameters as stored in a key file. Bounds keep a damaged or hostile file
    from asking for terabytes of memory; loading always uses what the file says."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)

    name: Literal["argon2id"] = "argon2id"
    salt: str
    memory_kib: int = Field(ge=8, le=4 * 1024 * 1024)
    iterations: int = Field(ge=1, le=64)
    lanes: int = Field(ge=1, le=64)

    @model_validator(mode="after")
    def _check(self) -> KdfParams:
        if self.memory_kib < 8 * self.lanes:
            raise ValueError("memory_kib must be at least 8 per lane")
        try:
            salt = b64d(self.salt, what="salt")
        except Rejected as exc:
            raise ValueError(str(exc)) from None
        if not 8 <= len(salt) <= 64:
            raise ValueError("salt must be 8 to 64 bytes")
        return self

    def derive(self, passphrase: str) -> bytes:
        """The 32-byte sealing key. The passphrase is NFC-normalized so that the same text
        typed on another system (which may compose accents differently) still opens it."""
        data = unicodedata.normalize("NFC", passphrase).encode("utf-8")
        try:
            kdf = Argon2id(
                salt=b64d(self.salt, what="salt"),
                length=32,
                iterations=self.iterations,
                lanes=self.lanes,
                memory_cost=self.memory_kib,
            )
        except UnsupportedAlgorithm as exc:  # pragma: no cover - depends on the build
            raise UsageError(
                N_("this cryptography build has no Argon2id: {exc}").format(exc=exc)
            ) from None
        with _DERIVING:
            return kdf.derive(data)


def new_kdf_params() -> KdfParams:
    """Parameters for a new key file: RFC 9106's second recommendation (64 MiB, 3 passes,
    4 lanes), about 0.2 s. The one place that reads ``PBEM_TEST_FAST_KDF`` (tests only)."""
    salt = b64e(os.urandom(16))
    if os.environ.get(FAST_KDF_ENV) == "1":
        return KdfParams(salt=salt, memory_kib=64, iterations=1, lanes=1)
    return KdfParams(salt=salt, memory_kib=64 * 1024, iterations=3, lanes=4)


class KeyFile(BaseModel):
    """The JSON of ``keys/NAME.json``. Sealed: ``kdf``, ``check``, ``nonce`` and
    ``ciphertext``; ``check`` (a hash of the sealing key) tells a wrong passphrase from a
    damaged file, and costs a guesser nothing it lacked: each guess still needs Argon2id.
    Unsealed (``--no-passphrase``, for bots and tests): ``root`` in the clear, and
    ``"sealed": false`` says so explicitly."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)

    format: Literal["pbem-key/1"]
    card: IdentityCard
    sealed: bool
    kdf: KdfParams | None = None
    check: str | None = None
    cipher: Literal["chacha20-poly1305"] | None = None
    nonce: str | None = None
    ciphertext: str | None = None
    root: str | None = None

    @model_validator(mode="after")
    def _shape(self) -> KeyFile:
        sealed_fields = (self.kdf, self.check, self.cipher, self.nonce, self.ciphertext)
        if self.sealed and (None in sealed_fields or self.root is not None):
            raise ValueError(
                "a sealed key needs kdf, check, cipher, nonce and ciphertext, and no root"
            )
        if not self.sealed and (self.root is None or any(f is not None for f in sealed_fields)):
            raise ValueError("an unsealed key needs root and nothing of a sealed one")
        return self

    def associated_data(self) -> bytes:
        return sealing_context(self.card, self.kdf)

    def to_json(self) -> str:
        return pretty(self.model_dump(exclude_none=True))


def key_check(key: bytes) -> str:
    """A 16-byte commitment to the sealing key, stored to recognize a wrong passphrase."""
    return b64e(hashlib.sha256(b"pbem/1/keycheck\0" + key).digest()[:16])


def sealing_context(card: IdentityCard, kdf: KdfParams | None) -> bytes:
    """Associated data of the seal: the file format, the public card and the KDF
    parameters, so that none of them can be swapped without the seal breaking."""
    value = {
        "format": KEY_FILE_FORMAT,
        "card": card.model_dump(),
        "kdf": kdf.model_dump() if kdf else None,
    }
    return KEY_FILE_DOMAIN + canonical(value)


def seal_identity(identity: Identity, passphrase: str | None) -> KeyFile:
    """The key file for an identity; ``None`` stores the root unsealed."""
    if passphrase is None:
        return KeyFile(
            format=KEY_FILE_FORMAT, card=identity.card, sealed=False, root=b64e(identity.root)
        )
    if passphrase == "":
        raise UsageError(N_("empty passphrase; use --no-passphrase to store the key unsealed"))
    kdf = new_kdf_params()
    nonce = os.urandom(12)
    key = kdf.derive(passphrase)
    ciphertext = ChaCha20Poly1305(key).encrypt(
        nonce, identity.root, sealing_context(identity.card, kdf)
    )
    return KeyFile(
        format=KEY_FILE_FORMAT,
        card=identity.card,
        sealed=True,
        kdf=kdf,
        check=key_check(key),
        cipher="chacha20-poly1305",
        nonce=b64e(nonce),
        ciphertext=b64e(ciphertext),
    )


# --------------------------------------------------------------------------- the keyring


def _new_language(known: IdentityCard, card: IdentityCard) -> bool:
    """Whether ``card`` is ``known`` with another language only (``pbem key lang``): the
    same name, address and keys, and signed by those keys (a card with a language is)."""
    same = ("name", "email", "sign_key", "box_key", "fingerprint")
    return card.signature is not None and all(
        getattr(known, key) == getattr(card, key) for key in same
    )


def _nfc(name: str) -> str:
    """A name as typed, or as a file system gives it back, in normal form NFC."""
    return unicodedata.normalize("NFC", name) if isinstance(name, str) else name


class ImportResult(NamedTuple):
    """What :meth:`Keyring.import_card` kept, and whether it was new."""

    card: IdentityCard
    added: bool


#: The passphrase of an identity, for scripts (a person is asked at the terminal instead).
PASSPHRASE_ENV = "PBEM_PASSPHRASE"


class Keyring:
    """Own identities (``keys/``) and other players' cards (``cards/``) in one directory.

    Names are compared ignoring case: on the case-insensitive file systems of macOS and
    Windows ``Bob.json`` and ``bob.json`` are the same file, so they must be the same name
    everywhere.
    """

    def __init__(self, home: Path | None = None) -> None:
        self.home = Path(home) if home is not None else default_home()
        self.keys_dir = self.home / "keys"
        self.cards_dir = self.home / "cards"

    def __repr__(self) -> str:
        return f"Keyring({str(self.home)!r})"

    # ---- paths and files

    def _ensure_dirs(self) -> None:
        try:
            self.home.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.keys_dir.mkdir(mode=0o700, exist_ok=True)
            self.cards_dir.mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:
            raise UsageError(
                N_("cannot create the keyring at {home}: {strerror}").format(
                    home=self.home, strerror=exc.strerror
                )
            ) from None

    @staticmethod
    def _names_in(directory: Path) -> dict[str, Path]:
        """File stems of ``directory`` by lowercase name (temporary files are skipped)."""
        out: dict[str, Path] = {}
        try:
            entries = sorted(directory.iterdir())
        except (FileNotFoundError, NotADirectoryError):
            return out  # nothing stored yet; creating the directory will say what is wrong
        except OSError as exc:
            raise UsageError(
                N_("cannot read {directory}: {strerror}").format(
                    directory=directory, strerror=exc.strerror
                )
            ) from None
        for path in entries:
            stem = _nfc(path.stem)  # macOS's HFS+ gives the names back decomposed (NFD)
            if path.suffix == ".json" and is_name(stem):
                out[stem.lower()] = path
        return out

    def _key_path(self, name: str) -> Path | None:
        return self._names_in(self.keys_dir).get(check_name(_nfc(name)).lower())

    def _card_path(self, name: str) -> Path | None:
        return self._names_in(self.cards_dir).get(check_name(_nfc(name)).lower())

    def _read_key_file(self, path: Path) -> KeyFile:
        value = parse(read_input(path), what=f"key file {path}")
        if not isinstance(value, dict):
            raise Rejected(N_("key file {path} is damaged: not a JSON object").format(path=path))
        try:
            key_file = KeyFile.model_validate(value)
        except ValidationError as exc:
            raise Rejected(
                N_("key file {path} is damaged: {first_error}").format(
                    path=path, first_error=first_error(exc)
                )
            ) from None
        if key_file.card.name != _nfc(path.stem):
            raise Rejected(
                N_("key file {path} is damaged: it holds the card of {name!r}").format(
                    path=path, name=key_file.card.name
                )
            )
        return key_file

    def _read_card_file(self, path: Path) -> IdentityCard:
        card = IdentityCard.from_json(read_input(path), what=f"card file {path}")
        if card.name != _nfc(path.stem):
            raise Rejected(
                N_("card file {path} is damaged: it holds the card of {card!r}").format(
                    path=path, card=card.name
                )
            )
        return card

    def _missing(self, name: str) -> UsageError:
        if self._card_path(name) is not None:
            return UsageError(
                N_(
                    "{name!r} is another player's card (imported), not an identity of "
                    "yours: pbem signs only as your own identities (marked * in pbem key "
                    "list)"
                ).format(name=name)
            )
        return UsageError(
            N_(
                "no identity {name!r} in the keyring at {home}; create one with "
                "'pbem key new {name} --email ADDRESS'"
            ).format(name=name, home=self.home)
        )

    # ---- own identities

    def check_new(self, name: str, email: str, lang: str | None = None) -> None:
        """Raise the error :meth:`create` would raise for these arguments, so that a
        command can fail before asking for a passphrase twice."""
        check_name(name)
        check_email(email)
        if lang is not None:
            check_lang(lang)
        clash = self._key_path(name) or self._card_path(name)
        if clash is not None:
            kind = "an identity" if clash.parent == self.keys_dir else "a card"
            raise UsageError(
                N_(
                    "the keyring at {home} already has {kind} named {stem!r}; choose another name"
                ).format(home=self.home, kind=kind, stem=clash.stem)
            )

    def create(
        self, name: str, email: str, passphrase: str | None, lang: str | None = None
    ) -> Identity:
        """Make a new identity and store it; ``passphrase=None`` stores it unsealed. With
        ``lang``, its card asks for mail in that language (and is signed)."""
        self.check_new(name, email, lang)
        identity = Identity.generate(name, email, lang)
        self._write_key(self.keys_dir / f"{name}.json", identity, passphrase)
        return identity

    def set_lang(self, name: str, lang: str | None, passphrase: str | None) -> Identity:
        """Make the card of the own identity ``name`` ask for mail in ``lang`` (None: in
        no language of its own), signed again, and seal the key file again with the
        same passphrase (its seal covers the card). Games already begun keep the card
        they began with: the new one is for the games to come (export it again)."""
        if lang is not None:
            check_lang(lang)
        identity = self.load(name, passphrase).with_lang(lang)
        path = self._key_path(name)
        if path is None:  # pragma: no cover - load found it
            raise self._missing(name)
        self._write_key(path, identity, passphrase)
        return identity

    def _write_key(self, path: Path, identity: Identity, passphrase: str | None) -> None:
        key_file = seal_identity(identity, passphrase)
        self._ensure_dirs()
        try:
            atomic_write(path, key_file.to_json().encode("ascii"), mode=0o600)
        except OSError as exc:
            raise UsageError(
                N_("cannot write {path}: {strerror}").format(path=path, strerror=exc.strerror)
            ) from None

    def has_identity(self, name: str) -> bool:
        """True when the private key of ``name`` is in this keyring."""
        return self._key_path(name) is not None

    def needs_passphrase(self, name: str) -> bool:
        """Whether loading ``name`` needs a passphrase (so the CLI asks only when useful)."""
        path = self._key_path(name)
        if path is None:
            raise self._missing(name)
        return self._read_key_file(path).sealed

    def load(self, name: str, passphrase: str | None) -> Identity:
        """Open an own identity. The keys of the card stored beside the secret must be the
        ones the secret derives. A sealed file also binds the whole card (name and email
        too) as associated data; an unsealed one cannot protect them from whoever can
        write it, and that person can read the secret anyway."""
        path = self._key_path(name)
        if path is None:
            raise self._missing(name)
        key_file = self._read_key_file(path)
        card = key_file.card
        if key_file.sealed:
            if passphrase is None:
                raise UsageError(
                    N_("identity {card!r} is sealed: its passphrase is needed").format(
                        card=card.name
                    )
                )
            root = self._unseal(key_file, passphrase, path)
        else:
            try:
                root = b64d(key_file.root or "", size=ROOT_BYTES, what="root")
            except Rejected as exc:
                raise Rejected(
                    N_("key file {path} is damaged: {exc}").format(path=path, exc=exc)
                ) from None
        identity = Identity(root, card.name, card.email, card.lang)
        if identity.card != card:
            raise Rejected(
                N_("key file {path} is damaged: its card does not match its secret").format(
                    path=path
                )
            )
        return identity

    @staticmethod
    def _unseal(key_file: KeyFile, passphrase: str, path: Path) -> bytes:
        if not (key_file.kdf and key_file.check and key_file.nonce and key_file.ciphertext):
            raise Rejected(
                N_("key file {path} is damaged: incomplete seal").format(path=path)
            )  # KeyFile forbids
        try:
            nonce = b64d(key_file.nonce, size=12, what="nonce")
            ciphertext = b64d(key_file.ciphertext, size=ROOT_BYTES + 16, what="ciphertext")
        except Rejected as exc:
            raise Rejected(
                N_("key file {path} is damaged: {exc}").format(path=path, exc=exc)
            ) from None
        key = key_file.kdf.derive(passphrase)
        if not hmac.compare_digest(key_check(key), key_file.check):
            raise Rejected(
                N_("wrong passphrase for identity {name!r}").format(name=key_file.card.name)
            )
        try:
            return ChaCha20Poly1305(key).decrypt(nonce, ciphertext, key_file.associated_data())
        except InvalidTag:
            raise Rejected(
                N_(
                    "key file {path} is damaged: the sealed key does not open with its "
                    "card (the right passphrase, but an altered file)"
                ).format(path=path)
            ) from None

    # ---- cards

    def card(self, name: str) -> IdentityCard:
        """The card of ``name``: an own identity's, else an imported one."""
        key_path = self._key_path(name)
        if key_path is not None:
            return self._read_key_file(key_path).card
        card_path = self._card_path(name)
        if card_path is not None:
            return self._read_card_file(card_path)
        raise UsageError(
            N_(
                "no identity or card {name!r} in the keyring at {home}; import their "
                "card with 'pbem key import FILE' or create one with 'pbem key new "
                "{name} --email ADDRESS'"
            ).format(name=name, home=self.home)
        )

    def export(self, name: str) -> IdentityCard:
        """The public card to hand to other players (own, or forwarding an imported one)."""
        return self.card(name)

    def import_card(self, card: IdentityCard | Path | str) -> ImportResult:
        """Keep another player's card (a card, or the path of a card file).

        ``added`` is False when the very same card was already there. Refuses a different card
        under a known name (a changed key must be a deliberate act: delete the old file),
        a card with the name or keys of an own identity, and a second name for known keys.
        """
        if not isinstance(card, IdentityCard):
            path = Path(card)
            card = IdentityCard.from_json(read_input(path), what=f"card file {path}")
        for own, is_own in self.list():
            same_name = own.name.lower() == card.name.lower()
            if own == card and not is_own:
                return ImportResult(card, added=False)
            if not is_own and _new_language(own, card):
                self._ensure_dirs()  # the player's own word, signed: it replaces the card
                return self._write_card(card, self.cards_dir / f"{own.name}.json")
            if is_own and (
                same_name or own.sign_key == card.sign_key or own.box_key == card.box_key
            ):
                raise Rejected(
                    N_(
                        "card {card!r} collides with your own identity {own!r}; it was not imported"
                    ).format(card=card.name, own=own.name)
                )
            if same_name:
                raise Rejected(
                    N_(
                        "a different card named {own!r} is already in the keyring "
                        "(fingerprint {fingerprint}, new card {fingerprint2}); if the new "
                        "one is right, delete {number} and import again"
                    ).format(
                        own=own.name,
                        fingerprint=own.fingerprint,
                        fingerprint2=card.fingerprint,
                        number=self.cards_dir / (own.name + ".json"),
                    )
                )
            if own.sign_key == card.sign_key or own.box_key == card.box_key:
                raise Rejected(
                    N_(
                        "card {card!r} has the keys of the card {own!r} already in the "
                        "keyring; it was not imported"
                    ).format(card=card.name, own=own.name)
                )
        self._ensure_dirs()
        return self._write_card(card, self.cards_dir / f"{card.name}.json")

    @staticmethod
    def _write_card(card: IdentityCard, target: Path) -> ImportResult:
        try:
            atomic_write(target, pretty(card.model_dump()).encode("ascii"), mode=0o644)
        except OSError as exc:
            raise UsageError(
                N_("cannot write {target}: {strerror}").format(target=target, strerror=exc.strerror)
            ) from None
        return ImportResult(card, added=True)

    def find_by_fingerprint(self, fingerprint: str) -> IdentityCard | None:
        """The card with this fingerprint (as typed: any case, spaces or dashes), if any."""
        wanted = normalize_fingerprint(fingerprint)
        return next((c for c, _ in self.list() if c.fingerprint == wanted), None)

    def find_by_sign_key(self, sign_key: str | bytes) -> IdentityCard | None:
        """The card with this Ed25519 public key (raw bytes or base64url), if any."""
        wanted = b64e(sign_key) if isinstance(sign_key, bytes) else sign_key
        return next((c for c, _ in self.list() if c.sign_key == wanted), None)

    def list(self) -> builtins.list[tuple[IdentityCard, bool]]:
        """Every card with whether its private key is here, own identities first, then by
        name. A damaged file is reported, not skipped: silence would hide a lost key."""
        own = [(self._read_key_file(p).card, True) for p in self._names_in(self.keys_dir).values()]
        others = [(self._read_card_file(p), False) for p in self._names_in(self.cards_dir).values()]
        return sorted(own, key=lambda e: e[0].name.lower()) + sorted(
            others, key=lambda e: e[0].name.lower()
        )
