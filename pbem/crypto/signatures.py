"""Signatures as the ledger checks them: Ed25519 over a signed object's signing message
(DESIGN §3), each seat's public key decoded once per process."""

from __future__ import annotations

import functools

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from pbem.format.canonical import b64d
from pbem.format.errors import Rejected
from pbem.format.gamefile import Signed, signing_message


@functools.lru_cache(maxsize=256)
def _public_key(sign_key: str) -> Ed25519PublicKey:
    """A seat's key, decoded once: every step it signs is checked against it."""
    return Ed25519PublicKey.from_public_bytes(b64d(sign_key, size=32, what="signing key"))


def verify_signature(sign_key: str, item: Signed) -> None:
    """Refuse (``Rejected("bad signature")``) unless ``sign_key`` signed ``item``."""
    try:
        key = _public_key(sign_key)
        key.verify(b64d(item.signature, size=64, what="signature"), signing_message(item))
    except (InvalidSignature, Rejected, ValueError) as exc:
        raise Rejected("bad signature") from exc
