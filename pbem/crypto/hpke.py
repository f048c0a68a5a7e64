"""Public-key encryption to a player's X25519 box key: HPKE (RFC 9180), nothing of our own.

A thin wrapper over ``cryptography.hazmat.primitives.hpke`` (cryptography ≥ 47) that fixes
one suite and one encoding, and turns every failure into one ``Rejected`` line. Used for
escrow shares (``pbem.crypto.escrow``), for handing a seat's secrets to a substitute, and
later for sealed notes between players.

The suite, in RFC 9180's registry (§7):

- mode ``mode_base`` (0x00): the sender is anonymous; whoever needs to know who sent a
  message signs the envelope that carries it (every pbem step is signed);
- KEM ``DHKEM(X25519, HKDF-SHA256)``, ``kem_id`` 0x0020;
- KDF ``HKDF-SHA256``, ``kdf_id`` 0x0001;
- AEAD ``ChaCha20Poly1305``, ``aead_id`` 0x0003.

A sealed message is RFC 9180's single-shot output: ``enc ‖ ct``, where ``enc`` is the
sender's 32-byte ephemeral X25519 public key and ``ct`` the AEAD ciphertext (the plaintext's
length plus a 16-byte tag), so ``len(sealed) = len(plaintext) + 48``.

Binding: the caller gives an ``info`` (what the message is: a domain tag and a context) and
an ``aad`` (public data it belongs to). ``cryptography``'s one-shot API takes only ``info``,
and RFC 9180 §8.1 says single-shot users should put auxiliary authenticated data there, so
the HPKE info is ``"pbem/1/hpke\\0" ‖ frame(info, aad)`` and the AEAD's own associated data is
empty. Both enter the key schedule: a message sealed under one (info, aad) opens under no
other, and the framing splits the two one way only.

Sealing is randomized: each call draws a fresh ephemeral key (the library takes none from
the caller), so sealing the same plaintext twice gives different bytes. Whatever must be
reproduced is therefore stored as signed, never re-sealed.

The recipient's private key never leaves ``pbem.crypto.keys.Identity``: ``open`` asks the
identity to decrypt (``Identity.hpke_open``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey
from cryptography.hazmat.primitives.hpke import AEAD, KDF, KEM, Suite

from pbem.crypto.group import frame
from pbem.format.errors import Rejected
from pbem.format.i18n import N_

if TYPE_CHECKING:
    from pbem.crypto.keys import Identity

#: RFC 9180 identifiers of the suite: (kem_id, kdf_id, aead_id).
SUITE_IDS = (0x0020, 0x0001, 0x0003)
SUITE = Suite(KEM.X25519, KDF.HKDF_SHA256, AEAD.CHACHA20_POLY1305)
ENC_BYTES = 32
TAG_BYTES = 16
#: Bytes a sealed message has beyond its plaintext.
OVERHEAD = ENC_BYTES + TAG_BYTES
BOX_KEY_BYTES = 32
DOMAIN = b"pbem/1/hpke\0"


class HpkeError(Rejected, ValueError):
    """A key, sealed message or context is malformed, or a message does not open."""


def hpke_info(info: bytes, aad: bytes) -> bytes:
    """The RFC 9180 ``info`` pbem passes for a caller's (info, aad)."""
    for value, name in ((info, "info"), (aad, "aad")):
        if not isinstance(value, bytes):
            raise HpkeError(
                N_("HPKE {name} must be bytes, not {kind}").format(
                    name=name, kind=type(value).__name__
                )
            )
    return DOMAIN + frame(info, aad)


def seal(
    recipient_box_key: bytes, plaintext: bytes, info: bytes, aad: bytes, *, what: str = "message"
) -> bytes:
    """``enc ‖ ct``: ``plaintext`` encrypted to the X25519 public key ``recipient_box_key``
    (32 raw bytes, as in an identity card), bound to ``info`` and ``aad``. A key of small
    order (which would make the shared secret public) is refused, naming ``what``."""
    if not isinstance(plaintext, bytes):
        raise HpkeError(
            N_("{what}: the plaintext must be bytes, not {kind}").format(
                what=what, kind=type(plaintext).__name__
            )
        )
    full_info = hpke_info(info, aad)
    if not isinstance(recipient_box_key, bytes) or len(recipient_box_key) != BOX_KEY_BYTES:
        raise HpkeError(
            N_("{what}: the recipient's box key must be {box_key_bytes} bytes").format(
                what=what, box_key_bytes=BOX_KEY_BYTES
            )
        )
    try:
        return SUITE.encrypt(
            plaintext, X25519PublicKey.from_public_bytes(recipient_box_key), info=full_info
        )
    except ValueError:  # the X25519 shared secret is all zeros: a small-order key
        raise HpkeError(
            N_("{what}: the recipient's box key is not a usable X25519 public key").format(
                what=what
            )
        ) from None


def open(
    identity: Identity, sealed: bytes, info: bytes, aad: bytes, *, what: str = "message"
) -> bytes:
    """The plaintext of ``sealed`` (from ``seal``) for ``identity``, under the same ``info``
    and ``aad``; ``HpkeError`` naming ``what`` if it is malformed, was sealed to another key,
    was altered, or belongs to another context (HPKE cannot tell these apart, by design)."""
    full_info = hpke_info(info, aad)
    if not isinstance(sealed, bytes):
        raise HpkeError(
            N_("{what} must be bytes, not {kind}").format(what=what, kind=type(sealed).__name__)
        )
    if len(sealed) < OVERHEAD:
        raise HpkeError(
            N_("{what} is too short for an HPKE message ({count} bytes)").format(
                what=what, count=len(sealed)
            )
        )
    try:
        return identity.hpke_open(SUITE, sealed, full_info)
    except (InvalidTag, ValueError):
        raise HpkeError(
            N_(
                "{what} does not open for {identity!r}: sealed to another key, "
                "altered, or made for another context"
            ).format(what=what, identity=identity.name)
        ) from None
