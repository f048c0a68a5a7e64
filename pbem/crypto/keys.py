"""Identities (architecture §4): the private side.

An identity is one random 32-byte root secret. Everything else is derived from it with
HKDF-SHA256: the Ed25519 signing key, the X25519 encryption key and every per-game secret
(beacon seeds, commitment keys, deck keys). So the keyring (:mod:`pbem.crypto.keyring`) is
the only state a player has to keep, and a game can be resumed on any machine that holds
it. Its public half is an identity card (``pbem.format.card``).
"""

from __future__ import annotations

import os
import re

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.hpke import Suite
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.format.card import IdentityCard, check_email, check_name
from pbem.format.errors import Rejected
from pbem.format.i18n import N_

ROOT_BYTES = 32
GAME_ID_BYTES = 16
ED25519_INFO = b"pbem/1/ed25519"
X25519_INFO = b"pbem/1/x25519"
_LABEL_PATTERN = re.compile(r"[a-z0-9][a-z0-9._/-]{0,63}")

# --------------------------------------------------------------------------- the private side


def _hkdf(secret: bytes, *, info: bytes, salt: bytes | None = None, length: int = 32) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(secret)


class Identity:
    """The private side of an identity: a root secret and what is derived from it.

    Keys are derived rather than stored so that the key file holds a single secret and so
    that per-game secrets can be recomputed anywhere (architecture §4).
    """

    __slots__ = ("_box", "_root", "_sign", "card")

    def __init__(self, root: bytes, name: str, email: str, lang: str | None = None) -> None:
        if not isinstance(root, bytes) or len(root) != ROOT_BYTES:
            raise ValueError(f"an identity root secret is {ROOT_BYTES} bytes")
        self._root = root
        self._sign = Ed25519PrivateKey.from_private_bytes(_hkdf(root, info=ED25519_INFO))
        self._box = X25519PrivateKey.from_private_bytes(_hkdf(root, info=X25519_INFO))
        self.card = IdentityCard.from_keys(
            check_name(name),
            check_email(email),
            self._sign.public_key().public_bytes_raw(),
            self._box.public_key().public_bytes_raw(),
            lang,
            self._sign.sign,  # Ed25519 is deterministic: the same card every time
        )

    @classmethod
    def generate(cls, name: str, email: str, lang: str | None = None) -> Identity:
        """A new identity with a fresh random root secret (its card signed with ``lang``
        when one is given)."""
        return cls(os.urandom(ROOT_BYTES), name, email, lang)

    def with_lang(self, lang: str | None) -> Identity:
        """The same identity, its card asking for mail in ``lang`` (None: no language)."""
        return Identity(self._root, self.card.name, self.card.email, lang)

    def __repr__(self) -> str:
        # Never show the root secret, even in a traceback or a debugger.
        return f"Identity({self.card.name!r}, {self.card.fingerprint})"

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def root(self) -> bytes:
        """The root secret, for core modules that derive their own keys from it."""
        return self._root

    def sign(self, message: bytes) -> bytes:
        """Raw 64-byte Ed25519 signature; domain separation is the caller's job."""
        return self._sign.sign(message)

    def hpke_open(self, suite: Suite, sealed: bytes, info: bytes) -> bytes:
        """Open an HPKE (RFC 9180, base mode) message sealed to this identity's box key.
        The suite and the info are ``pbem.crypto.hpke``'s (call ``hpke.open``, which checks
        the input and words the errors); this method exists so that the X25519 private key
        never leaves the object. Raises ``InvalidTag`` when the message does not open."""
        return suite.decrypt(sealed, self._box, info=info)

    def shared_secret(self, peer: IdentityCard) -> bytes:
        """Raw X25519 shared secret with another player (feed it to a KDF before use)."""
        return self._box.exchange(X25519PublicKey.from_public_bytes(peer.box_key_bytes))

    def game_secret(
        self, game_id: bytes, label: str, extra: bytes = b"", *, length: int = 32
    ) -> bytes:
        """A secret for one purpose in one game, recomputable from the keyring alone.

        HKDF-SHA256 with salt = game id and info = ``b"pbem/1/" + label + b"\\0" + extra``.
        The label may not contain NUL, so (label, extra) is read back unambiguously. Game
        ids have a fixed length because HMAC pads short salts with zeros: ``x`` and
        ``x + b"\\0"`` would give the same secrets.
        """
        if not isinstance(game_id, bytes) or len(game_id) != GAME_ID_BYTES:
            # Game ids come from files, so a wrong one is a rejected file, not a bug.
            size = len(game_id) if isinstance(game_id, bytes) else "?"
            raise Rejected(
                N_("a game id must be {game_id_bytes} bytes, not {size}").format(
                    game_id_bytes=GAME_ID_BYTES, size=size
                )
            )
        if not _LABEL_PATTERN.fullmatch(label):
            raise ValueError(f"bad secret label {label!r}: lowercase letters, digits, ._/-")
        info = b"pbem/1/" + label.encode("ascii") + b"\0" + extra
        return _hkdf(self._root, salt=game_id, info=info, length=length)
