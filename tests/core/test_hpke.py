"""HPKE to a player's box key (``pbem.crypto.hpke``): the suite and encoding it claims, checked
with an independent implementation from RFC 9180 (itself checked on the RFC's vector
A.2.1), round trips, and every way a message can fail to open."""

from __future__ import annotations

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto import hpke
from pbem.crypto.keys import X25519_INFO, Identity
from pbem.format.errors import Rejected
from tests.core import hpke_reference as ref

INFO, AAD = b"pbem/1/test\0context", b"public data"


def holder(n: int) -> Identity:
    return Identity(bytes([n]) * 32, f"holder{n}", f"holder{n}@example.org")


def box_secret(n: int) -> bytes:
    """The raw X25519 private key ``holder(n)`` derives (as ``pbem.crypto.keys`` does)."""
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=X25519_INFO)
    return hkdf.derive(bytes([n]) * 32)


def test_the_reference_reproduces_rfc9180_vector_a21() -> None:
    # RFC 9180 Appendix A.2.1: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20Poly1305,
    # base mode, sequence number 0.
    info = bytes.fromhex("4f6465206f6e2061204772656369616e2055726e")
    sk_e = bytes.fromhex("f4ec9b33b792c372c1d2c2063507b684ef925b8c75a42dbcbf57d63ccd381600")
    sk_r = bytes.fromhex("8057991eef8f1f1af18f4a9491d16a1ce333f695d4db8e38da75975c4478e0fb")
    pk_r = bytes.fromhex("4310ee97d88cc1f088a5576c77ab0cf5c3ac797f3d95139c6c84b5429c59662a")
    plaintext = bytes.fromhex("4265617574792069732074727574682c20747275746820626561757479")
    aad = bytes.fromhex("436f756e742d30")
    expected = bytes.fromhex(
        "1afa08d3dec047a643885163f1180476fa7ddb54c6a8029ea33f95796bf2ac4a"  # enc = pkEm
        "1c5250d8034ec2b784ba2cfd69dbdb8af406cfe3ff938e131f0def8c8b60b4db"
        "21993c62ce81883d2dd1b51a28"
    )
    assert ref.seal(pk_r, info, aad, plaintext, sk_e) == expected
    assert ref.open_sealed(sk_r, info, aad, expected) == plaintext


def test_pbem_seals_in_the_suite_and_encoding_it_names() -> None:
    recipient = holder(2)
    sealed = hpke.seal(recipient.card.box_key_bytes, b"a secret", INFO, AAD)
    assert len(sealed) == len(b"a secret") + hpke.OVERHEAD
    # The reference builds the suite id 0x0020/0x0001/0x0003 into every label: this opens
    # only if cryptography used that suite, base mode, and enc ‖ ct.
    assert hpke.SUITE_IDS == (0x0020, 0x0001, 0x0003)
    full_info = b"pbem/1/hpke\0" + len(INFO).to_bytes(4, "big") + INFO
    full_info += len(AAD).to_bytes(4, "big") + AAD
    assert hpke.hpke_info(INFO, AAD) == full_info
    assert ref.open_sealed(box_secret(2), full_info, b"", sealed) == b"a secret"
    with pytest.raises(InvalidTag):  # the caller's aad is in the info, not the AEAD's aad
        ref.open_sealed(box_secret(2), hpke.hpke_info(INFO, b""), AAD, sealed)


def test_pbem_opens_what_the_reference_seals() -> None:
    sealed = ref.seal(
        holder(2).card.box_key_bytes, hpke.hpke_info(INFO, AAD), b"", b"hello", bytes([7]) * 32
    )
    assert hpke.open(holder(2), sealed, INFO, AAD) == b"hello"


@pytest.mark.parametrize("plaintext", [b"", b"x", bytes(32), bytes(range(256)) * 5])
def test_round_trip_and_fresh_randomness(plaintext: bytes) -> None:
    recipient = holder(3)
    one = hpke.seal(recipient.card.box_key_bytes, plaintext, INFO, AAD)
    two = hpke.seal(recipient.card.box_key_bytes, plaintext, INFO, AAD)
    assert one != two  # a fresh ephemeral key each time
    assert hpke.open(recipient, one, INFO, AAD) == plaintext
    assert hpke.open(recipient, two, INFO, AAD) == plaintext


def sealed_to(n: int = 2) -> bytes:
    return hpke.seal(holder(n).card.box_key_bytes, b"secret", INFO, AAD)


def refused(identity: Identity, sealed: object, info: object = INFO, aad: object = AAD) -> str:
    with pytest.raises(Rejected) as caught:
        hpke.open(identity, sealed, info, aad, what="test message")  # type: ignore[arg-type]
    message = str(caught.value)
    assert "\n" not in message and message.startswith("test message")
    return message


def test_another_identity_cannot_open() -> None:
    assert "does not open for 'holder4'" in refused(holder(4), sealed_to(2))


@pytest.mark.parametrize(
    ("info", "aad"),
    [
        (INFO + b"x", AAD),
        (INFO, AAD + b"x"),
        (INFO, b""),
        (b"", AAD),
        (INFO + AAD[:1], AAD[1:]),  # the same bytes split elsewhere: framing tells them apart
        (AAD, INFO),
    ],
)
def test_another_context_does_not_open(info: bytes, aad: bytes) -> None:
    assert "does not open" in refused(holder(2), sealed_to(2), info, aad)


@pytest.mark.parametrize("at", [0, 31, 32, 40, -1])
def test_an_altered_byte_does_not_open(at: int) -> None:
    sealed = bytearray(sealed_to(2))
    sealed[at] ^= 1
    assert "does not open" in refused(holder(2), bytes(sealed))


def test_malformed_messages_are_refused_in_one_line() -> None:
    assert "too short" in refused(holder(2), sealed_to(2)[: hpke.OVERHEAD - 1])
    assert "too short" in refused(holder(2), b"")
    assert "must be bytes" in refused(holder(2), "not bytes")
    assert "does not open" in refused(holder(2), bytes(32) + sealed_to(2)[32:])  # zero enc
    with pytest.raises(Rejected, match="HPKE info must be bytes"):
        hpke.open(holder(2), sealed_to(2), "text", AAD)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("key", "match"),
    [
        (bytes(32), "not a usable X25519 public key"),  # small order: shared secret zero
        (bytes([1]) + bytes(31), "not a usable X25519 public key"),
        (bytes(31), "must be 32 bytes"),
        ("a key", "must be 32 bytes"),
    ],
)
def test_sealing_to_a_bad_key_is_refused(key: object, match: str) -> None:
    with pytest.raises(Rejected, match=f"^share: .*{match}"):
        hpke.seal(key, b"x", INFO, AAD, what="share")  # type: ignore[arg-type]


def test_sealing_refuses_a_plaintext_or_aad_that_is_not_bytes() -> None:
    with pytest.raises(Rejected, match="plaintext must be bytes"):
        hpke.seal(holder(2).card.box_key_bytes, "x", INFO, AAD)  # type: ignore[arg-type]
    with pytest.raises(Rejected, match="HPKE aad must be bytes"):
        hpke.seal(holder(2).card.box_key_bytes, b"x", INFO, None)  # type: ignore[arg-type]
