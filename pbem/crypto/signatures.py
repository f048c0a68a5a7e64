"""Signatures (architecture §3): Ed25519 over a signed object's signing message, made with an
identity's key (``sign_new``) and checked against a card's (``verify_signature``, each
seat's public key decoded once per process)."""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from pydantic import ValidationError

from pbem.crypto.keys import Identity
from pbem.format.canonical import b64d, b64e
from pbem.format.errors import Rejected
from pbem.format.gamefile import Entry, Signed, message_for, signing_message
from pbem.format.i18n import N_

S = TypeVar("S", bound=Signed)


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
        raise Rejected(N_("bad signature")) from exc


def sign_new(identity: Identity, model: type[S], fields: dict[str, Any]) -> S:
    """Sign ``fields`` as a ``model`` (genesis, entry or envelope) and validate the result
    strictly, as a recipient will: what we sign is exactly what verifies."""
    kind = fields["kind"] if model is Entry else model.KIND
    signature = b64e(identity.sign(message_for(kind, fields)))
    try:
        return model.model_validate({**fields, "signature": signature})
    except ValidationError as exc:
        raise Rejected(
            N_("cannot sign a malformed {lower}: {exc}").format(
                lower=model.__name__.lower(), exc=exc
            )
        ) from exc


def sign_item(identity: Identity, item: S) -> S:
    """Sign an existing object again (tests forge with it: signing is all a forger needs)."""
    fields = item.model_dump(mode="json")
    fields.pop("signature")
    return sign_new(identity, type(item), fields)
