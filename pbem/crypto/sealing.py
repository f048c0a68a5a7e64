"""Sealed commitments for simultaneous hidden actions (architecture §6).

A seat commits to its action with ``H(domain, game, parent, seat, salt, action)`` and
publishes the action encrypted with ChaCha20-Poly1305 under a key derived from its identity,
the game id, the parent step and the decision. The reveal publishes only that key: anyone
can then decrypt, and check that the plaintext opens the commitment. Because the key is
derived, a seat can reveal from any machine that holds its keyring.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from pbem.format.canonical import b64d, b64e, canonical, parse
from pbem.format.errors import Rejected
from pbem.format.i18n import N_

Entropy = Callable[[int], bytes]


def seal_key(
    root_secret: Callable[[str, bytes], bytes], parent: str, seat: int, decision: str
) -> bytes:
    """The per-decision key: ``root_secret(label, extra)`` is ``Identity.game_secret`` bound
    to the game id."""
    return root_secret("seal", _context(parent, seat, decision))


def _context(parent: str, seat: int, decision: str) -> bytes:
    return canonical([parent, seat, decision])


def commitment(game: str, parent: str, seat: int, salt: bytes, action: Any) -> bytes:
    """``SHA-256(domain, game id, parent hash, seat, salt, canonical action)``."""
    return hashlib.sha256(
        b"pbem/1/commit\0" + canonical([game, parent, seat, b64e(salt), action])
    ).digest()


def _aad(game: str, parent: str, seat: int, decision: str) -> bytes:
    return b"pbem/1/seal\0" + canonical([game, parent, seat, decision])


def seal(
    key: bytes, game: str, parent: str, seat: int, decision: str, action: Any, entropy: Entropy
) -> dict[str, str]:
    """The body of a commit envelope. Salt and nonce are fresh random values: a seat that
    seals twice on one parent (say, after changing its mind) must never reuse a nonce."""
    salt = entropy(32)
    nonce = entropy(12)
    plaintext = canonical({"action": action, "salt": b64e(salt)})
    ciphertext = ChaCha20Poly1305(key).encrypt(nonce, plaintext, _aad(game, parent, seat, decision))
    return {
        "commitment": b64e(commitment(game, parent, seat, salt, action)),
        "nonce": b64e(nonce),
        "ciphertext": b64e(ciphertext),
    }


def open_sealed(
    key: bytes, body: dict[str, Any], game: str, parent: str, seat: int, decision: str
) -> Any:
    """Decrypt a commit body with a revealed key and check that it opens the commitment.
    Returns the action (JSON); raises ``Rejected`` saying what failed."""
    try:
        nonce = b64d(body["nonce"], size=12, what="nonce")
        ciphertext = b64d(body["ciphertext"], what="ciphertext")
        committed = b64d(body["commitment"], size=32, what="commitment")
    except KeyError as exc:
        raise Rejected(N_("commit envelope lacks {args!r}").format(args=exc.args[0])) from exc
    try:
        plaintext = ChaCha20Poly1305(key).decrypt(
            nonce, ciphertext, _aad(game, parent, seat, decision)
        )
    except InvalidTag as exc:
        raise Rejected(N_("the revealed key does not open the commitment")) from exc
    opened = parse(plaintext, what="sealed action")
    if not isinstance(opened, dict) or set(opened) != {"action", "salt"}:
        raise Rejected(N_("the sealed action is malformed"))
    salt = b64d(opened["salt"], size=32, what="salt")
    if commitment(game, parent, seat, salt, opened["action"]) != committed:
        raise Rejected(N_("the revealed action does not match the commitment"))
    return opened["action"]
