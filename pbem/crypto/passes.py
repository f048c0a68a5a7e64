"""Shuffle passes over a sealed deck (architecture §7, ``pbem.crypto.deck``): each seat in turn
re-randomizes every ciphertext and permutes them. The permutation and the re-randomizers are
derived from the seat's deck secret, the deck name and a pass id (HKDF-SHA256 info
``pass``, a SHA-256 counter stream ``perm``, SHA-512 ``rerand``), so the seat stores
nothing and can make the same pass again from its keyring. A pass is proved correct by
``pbem.crypto.shuffleproof`` when it is made; ``audit_shuffles`` re-runs every pass once
the secrets are disclosed at the end.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import NamedTuple

from pbem.crypto.deck import (
    _PASS,
    _PERM,
    _RERAND,
    Ciphertext,
    _hkdf,
    _nonzero_scalar,
    _rerandomize,
    _text,
    check_ciphertext,
    public_key,
    seal,
)
from pbem.crypto.group import DeckError, check_point, check_scalar, frame
from pbem.format.i18n import N_


def _pass_key(seat_secret: bytes, deck: str, pass_id: str) -> bytes:
    check_scalar(seat_secret, "deck secret")
    info = _PASS + frame(_text(deck, "deck name"), _text(pass_id, "pass id"))
    return _hkdf(seat_secret, info, 32)


def _permutation(pass_key: bytes, n: int) -> list[int]:
    """Fisher–Yates driven by SHA-256(perm ‖ key ‖ counter) blocks, each index drawn by
    rejection sampling over 64-bit words, so the permutation is exactly uniform."""
    buffer = b""
    counter = 0

    def below(bound: int) -> int:
        nonlocal buffer, counter
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            while len(buffer) < 8:
                buffer += hashlib.sha256(_PERM + pass_key + counter.to_bytes(8, "big")).digest()
                counter += 1
            value, buffer = int.from_bytes(buffer[:8], "big"), buffer[8:]
            if value < limit:
                return value % bound

    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def _rerandomizer(pass_key: bytes, position: int) -> bytes:
    return _nonzero_scalar(
        lambda attempt: hashlib.sha512(
            _RERAND + pass_key + frame(position.to_bytes(8, "big"), attempt.to_bytes(4, "big"))
        ).digest()
    )


def shuffle_permutation(seat_secret: bytes, deck: str, pass_id: str, n: int) -> list[int]:
    """The permutation of pass ``pass_id``: output position ``k`` holds input ``perm[k]``."""
    if n < 0:
        raise DeckError(N_("deck size must not be negative"))
    return _permutation(_pass_key(seat_secret, deck, pass_id), n)


class ShuffleWitness(NamedTuple):
    """What one pass does, derived from the seat's secret: output ``k`` is input
    ``permutation[k]`` re-randomized with ``rerandomizers[k]``. ``key`` (the pass key) also
    seeds the nonces of the pass's proof (``shuffleproof.prove``). Secret until disclosed."""

    permutation: list[int]
    rerandomizers: list[bytes]
    key: bytes


def shuffle_witness(seat_secret: bytes, deck: str, pass_id: str, n: int) -> ShuffleWitness:
    """The permutation and re-randomizers of pass ``pass_id`` on an ``n``-item deck, from
    ``HKDF(seat secret, pass‖deck‖pass id)``: nothing to store, and anyone holding the
    disclosed secret can re-derive them. ``pass_id`` must be unique for this seat and deck."""
    if n < 0:
        raise DeckError(N_("deck size must not be negative"))
    key = _pass_key(seat_secret, deck, pass_id)
    return ShuffleWitness(
        _permutation(key, n), [_rerandomizer(key, position) for position in range(n)], key
    )


def reencrypt(
    cts: Sequence[Ciphertext], joint_key: bytes, witness: ShuffleWitness
) -> list[Ciphertext]:
    """``out[k] = rerandomize(cts[perm[k]], J, r_k)`` for the pass ``witness`` describes.
    Ciphertexts and the joint key are taken as validated; plain bytes are validated."""
    checked = [check_ciphertext(ct, f"ciphertext {index}") for index, ct in enumerate(cts)]
    joint_key = check_point(joint_key, "joint key")
    if len(witness.permutation) != len(checked):
        raise DeckError(N_("the shuffle witness is for another deck size"))
    return [
        _rerandomize(checked[source], joint_key, r)
        for source, r in zip(witness.permutation, witness.rerandomizers, strict=True)
    ]


def shuffle(
    cts: Sequence[Ciphertext],
    joint_key: bytes,
    seat_secret: bytes,
    deck: str,
    pass_id: str,
) -> list[Ciphertext]:
    """One seat's shuffle pass: ``reencrypt`` with the pass's derived witness, so the pass
    is a pure function of public data and the seat's secret (without its proof)."""
    return reencrypt(cts, joint_key, shuffle_witness(seat_secret, deck, pass_id, len(cts)))


def check_shuffle(
    before: Sequence[Ciphertext],
    after: Sequence[Sequence[bytes]],
    joint_key: bytes,
    seat_secret: bytes,
    deck: str,
    pass_id: str,
) -> bool:
    """Whether ``after`` is exactly the pass ``shuffle(before, ...)`` (end-of-game audit).

    Re-running shows that the seat shuffled as its secret dictates. That every pass is a
    shuffle at all was proven when it arrived (``shuffleproof``); this review adds only
    that each seat followed its derivation. Raises ``DeckError`` if ``before``, the key or
    the secret is malformed; a malformed ``after`` just fails.
    """
    expected = shuffle(before, joint_key, seat_secret, deck, pass_id)
    try:
        got = [tuple(ct) for ct in after]
    except TypeError:
        return False
    return got == [tuple(ct) for ct in expected]


class ShufflePass(NamedTuple):
    """One pass as the file records it, plus the secret disclosed at the end of the game."""

    pass_id: str
    pubkey: bytes
    seat_secret: bytes
    after: Sequence[Ciphertext]
    who: str = ""
    """Who made the pass, for the audit's message (e.g. ``"seat 1 (bob)"``)."""


def audit_shuffles(
    deck: str,
    item_ids: Sequence[str],
    joint_key: bytes,
    passes: Sequence[ShufflePass],
) -> list[Ciphertext]:
    """Re-run a whole chain of passes from the public initial deck; return the final
    deck, or raise ``DeckError`` naming the first pass whose secret does not match its
    published key, or whose output is not what its secret gives. A review of a finished
    game, not what makes its shuffles sound (each pass's proof did that on arrival)."""
    current = seal(deck, item_ids, joint_key)
    for step in passes:
        label = f"deck {deck!r}, shuffle pass {step.pass_id!r}" + (
            f" by {step.who}" if step.who else ""
        )
        try:
            matches_key = public_key(step.seat_secret) == step.pubkey
        except DeckError as exc:
            raise DeckError(
                N_("{label}: disclosed deck secret is malformed ({exc})").format(
                    label=label, exc=exc
                )
            ) from None
        if not matches_key:
            raise DeckError(
                N_("{label}: disclosed deck secret does not match the seat's key").format(
                    label=label
                )
            )
        if not check_shuffle(current, step.after, joint_key, step.seat_secret, deck, step.pass_id):
            raise DeckError(
                N_(
                    "{label}: output is not the shuffle of its input under the disclosed secret"
                ).format(label=label)
            )
        current = [check_ciphertext(ct) for ct in step.after]
    return current
