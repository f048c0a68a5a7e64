"""An independent HPKE (RFC 9180) for tests: base mode, DHKEM(X25519, HKDF-SHA256),
HKDF-SHA256, ChaCha20-Poly1305, single shot, written from the RFC's §4, §5.1, §5.2, §7.

It exists to check ``pbem.crypto.hpke`` from outside: that ``cryptography`` implements the
suite pbem names (the suite ids enter every label, so another suite would not decrypt here),
that ``enc ‖ ct`` is the encoding, and to seal with a chosen ephemeral key (which the
library cannot), so that known-answer vectors pin sealed bytes. It is checked against
RFC 9180's own vector A.2.1. Never used by pbem itself.
"""

from __future__ import annotations

import hashlib
import hmac

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

KEM_SUITE = b"KEM" + (0x0020).to_bytes(2, "big")
HPKE_SUITE = b"HPKE" + b"".join(i.to_bytes(2, "big") for i in (0x0020, 0x0001, 0x0003))
MODE_BASE = b"\x00"


def _expand(prk: bytes, info: bytes, length: int) -> bytes:
    """HKDF-Expand (RFC 5869 §2.3) with SHA-256."""
    out, block = b"", b""
    for counter in range(1, -(-length // 32) + 1):
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
    return out[:length]


def labeled_extract(suite: bytes, salt: bytes, label: bytes, ikm: bytes) -> bytes:
    return hmac.new(salt, b"HPKE-v1" + suite + label + ikm, hashlib.sha256).digest()


def labeled_expand(suite: bytes, prk: bytes, label: bytes, info: bytes, length: int) -> bytes:
    return _expand(prk, length.to_bytes(2, "big") + b"HPKE-v1" + suite + label + info, length)


def _shared_secret(dh: bytes, enc: bytes, recipient: bytes) -> bytes:
    eae_prk = labeled_extract(KEM_SUITE, b"", b"eae_prk", dh)
    return labeled_expand(KEM_SUITE, eae_prk, b"shared_secret", enc + recipient, 32)


def _key_and_nonce(shared_secret: bytes, info: bytes) -> tuple[bytes, bytes]:
    psk_id_hash = labeled_extract(HPKE_SUITE, b"", b"psk_id_hash", b"")
    info_hash = labeled_extract(HPKE_SUITE, b"", b"info_hash", info)
    context = MODE_BASE + psk_id_hash + info_hash
    secret = labeled_extract(HPKE_SUITE, shared_secret, b"secret", b"")
    key = labeled_expand(HPKE_SUITE, secret, b"key", context, 32)
    return key, labeled_expand(HPKE_SUITE, secret, b"base_nonce", context, 12)


def seal(recipient: bytes, info: bytes, aad: bytes, plaintext: bytes, ephemeral: bytes) -> bytes:
    """SealBase with the ephemeral X25519 private key ``ephemeral`` (32 raw bytes)."""
    sk_e = X25519PrivateKey.from_private_bytes(ephemeral)
    enc = sk_e.public_key().public_bytes_raw()
    dh = sk_e.exchange(X25519PublicKey.from_public_bytes(recipient))
    key, nonce = _key_and_nonce(_shared_secret(dh, enc, recipient), info)
    return enc + ChaCha20Poly1305(key).encrypt(nonce, plaintext, aad)


def open_sealed(private: bytes, info: bytes, aad: bytes, sealed: bytes) -> bytes:
    """OpenBase for the X25519 private key ``private`` (32 raw bytes)."""
    sk_r = X25519PrivateKey.from_private_bytes(private)
    enc, ciphertext = sealed[:32], sealed[32:]
    dh = sk_r.exchange(X25519PublicKey.from_public_bytes(enc))
    shared = _shared_secret(dh, enc, sk_r.public_key().public_bytes_raw())
    key, nonce = _key_and_nonce(shared, info)
    return ChaCha20Poly1305(key).decrypt(nonce, ciphertext, aad)
