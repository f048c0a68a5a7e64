"""Mental-poker primitives for sealed decks (architecture §7): pure functions, no file format.

ElGamal over the ed25519 prime-order group (see ``pbem.crypto.group``). Every seat has a
per-game deck secret ``x_s`` and public key ``X_s = x_s·B``; the deck is encrypted under
the joint key ``J = Σ X_s``, so no seat alone can open anything.

- An item is the point ``item_point(deck, id)``, hashed from its id.
- A ciphertext is ``(c1, c2) = (r·B, M + r·J)``.
- The deck starts as an *open* encryption of the item list with the public randomness
  ``r = 1`` (``encrypt_open``): anyone can check it, and it hides nothing yet.
- Each seat in turn runs a *shuffle pass* (``pbem.crypto.passes``): re-randomizes every
  ciphertext and permutes them. The permutation and the re-randomizers are derived from
  the seat's deck secret, the deck name and a pass id, so the seat stores nothing. Every
  pass carries a
  zero-knowledge proof that it is a shuffle (``pbem.crypto.shuffleproof``), checked when it
  arrives: that proof is what makes shuffles sound. Once the secrets are disclosed at the
  end of the game anyone can also re-run every pass (``pbem.crypto.passes``), a review
  that players like but that no longer guards anything the proofs do not.
  One honest seat suffices for nobody to know where an item went.
- Opening needs a decryption share ``x_s·c1`` from every seat, each with a Chaum–Pedersen
  proof that it used the secret behind ``X_s``. Publicly: all shares are published.
  Privately to seat ``s``: only the others publish theirs; ``s`` adds its own locally, and
  what is public (``c2`` minus the others' shares ``= M + x_s·c1``) is still an ElGamal
  encryption under ``X_s`` alone.

What the caller (the engine) must enforce, because these functions cannot see it:

- every seat's key is accepted only with a valid ``prove_key`` proof bound to the game and
  the seat; without it the last seat to publish could choose ``X = Y - Σ others`` for a
  ``Y`` it knows the log of, and open every card alone (rogue-key attack);
- a seat makes a share only for a ciphertext that the rules say is being revealed, from
  the deck in the signed state, never for a ciphertext a message hands it (a share of a
  chosen ``c1`` decrypts whichever card has that ``c1``);
- a pass id is never reused by one seat on one deck (a reshuffle gets a new one), and the
  share ``context`` names the game, deck, position and step, so a proof cannot be replayed;
- every pass's proof must be checked before its output is used (``shuffleproof.check``),
  bound to the game, deck, pass, seat and step.

Validated values are typed (``group.Point``, ``Ciphertext``): they are made only by
validation or by arithmetic on validated values, and are never validated again.

Derivation labels, all ``b"pbem/1/deck/<name>\\0"`` followed by length-framed parts:
``secret`` (HKDF-SHA256 info for the deck secret), ``item`` (hash to point), ``pass``
(HKDF-SHA256 info for a pass key), ``perm`` (SHA-256 counter stream of a permutation),
``rerand`` (SHA-512 re-randomizers), ``share`` / ``share-nonce`` (Chaum–Pedersen challenge
and nonce), ``key`` / ``key-nonce`` (Schnorr proof of the deck key).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto import group
from pbem.crypto.group import BASE, DeckError, Point, check_point, check_scalar, frame
from pbem.format.i18n import N_

PROOF_BYTES = 64
MIN_ROOT_BYTES = 32

_SECRET = b"pbem/1/deck/secret\0"
_ITEM = b"pbem/1/deck/item\0"
_PASS = b"pbem/1/deck/pass\0"
_PERM = b"pbem/1/deck/perm\0"
_RERAND = b"pbem/1/deck/rerand\0"
_SHARE = b"pbem/1/deck/share\0"
_SHARE_NONCE = b"pbem/1/deck/share-nonce\0"
_KEY = b"pbem/1/deck/key\0"
_KEY_NONCE = b"pbem/1/deck/key-nonce\0"


class Ciphertext(tuple[Point, Point]):
    """An ElGamal ciphertext ``(r·B, M + r·J)``: two Points, neither the identity.

    Made only from Points (``check_ciphertext`` validates received bytes; this module's
    arithmetic makes the rest), so holding a Ciphertext means both halves were validated
    or computed, and nothing validates them again. A pair of bytes is never one, not even
    when one half was taken from a validated ciphertext: the other half is still checked.
    """

    __slots__ = ()

    def __new__(cls, c1: Point, c2: Point) -> Ciphertext:
        if not (isinstance(c1, Point) and isinstance(c2, Point)):
            raise TypeError("a Ciphertext holds Points; check_ciphertext validates bytes")
        if c1 == group.IDENTITY or c2 == group.IDENTITY:
            raise DeckError(N_("ciphertext component would be the identity"))
        return tuple.__new__(cls, (c1, c2))

    @property
    def c1(self) -> Point:
        return self[0]

    @property
    def c2(self) -> Point:
        return self[1]

    def __copy__(self) -> Ciphertext:
        return self

    def __deepcopy__(self, memo: object) -> Ciphertext:
        return self

    def __reduce__(self) -> tuple[object, tuple[tuple[bytes, bytes]]]:
        return (check_ciphertext, ((bytes(self[0]), bytes(self[1])),))


# --- scalars derived without randomness -------------------------------------------------


def _nonzero_scalar(derive: Callable[[int], bytes]) -> bytes:
    """The first non-zero scalar among ``reduce(derive(0))``, ``reduce(derive(1))``, ...

    A zero is a 2**-252 event, but a zero secret, re-randomizer or nonce would be a
    disaster (and libsodium refuses to multiply by it), so retrying deterministically
    costs nothing and keeps every derivation total.
    """
    attempt = 0
    while True:
        scalar = group.reduce64(derive(attempt))
        if scalar != group.ZERO:
            return scalar
        attempt += 1


def _hkdf(key: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=info).derive(key)


def _text(value: str, what: str) -> bytes:
    if not isinstance(value, str) or not value:
        raise DeckError(N_("{what} must be a non-empty string").format(what=what))
    return value.encode("utf-8")


# --- keys -------------------------------------------------------------------------------


def deck_secret(root: bytes, game_id: bytes) -> bytes:
    """The seat's deck secret for one game: HKDF-SHA256 of the identity's root secret with
    info ``secret‖frame(game id, attempt)``, 64 bytes reduced mod ``L``, never zero.

    Derived, not stored, so a player can resume on another machine from the keyring
    alone (architecture §4); one per game, so disclosing it for the end-of-game audit reveals
    nothing about other games.
    """
    if not isinstance(root, bytes) or len(root) < MIN_ROOT_BYTES:
        raise DeckError(
            N_("root secret must be at least {min_root_bytes} bytes").format(
                min_root_bytes=MIN_ROOT_BYTES
            )
        )
    if not isinstance(game_id, bytes) or not game_id:
        raise DeckError(N_("game id must be non-empty bytes"))
    return _nonzero_scalar(
        lambda attempt: _hkdf(root, _SECRET + frame(game_id, attempt.to_bytes(4, "big")), 64)
    )


def public_key(secret: bytes) -> Point:
    """``secret·B``: the seat's published deck key."""
    return group.mul_base(check_scalar(secret, "deck secret"))


def _schnorr_challenge(context: bytes, pubkey: bytes, commitment: bytes) -> bytes:
    return group.reduce64(hashlib.sha512(_KEY + frame(context, BASE, pubkey, commitment)).digest())


def prove_key(secret: bytes, context: bytes) -> bytes:
    """A Schnorr proof (challenge ‖ response, 64 bytes) that the publisher of
    ``public_key(secret)`` knows ``secret``. ``context`` must name the game and the seat.

    Required for every key that enters ``joint_key``: it is what stops a rogue key.
    The nonce is derived from the secret and the message (as in EdDSA), so no randomness
    is needed and a repeated call gives the same proof.
    """
    check_scalar(secret, "deck secret")
    pubkey = group.mul_base(secret)
    nonce = _nonzero_scalar(
        lambda attempt: hashlib.sha512(
            _KEY_NONCE + secret + frame(context, pubkey, attempt.to_bytes(4, "big"))
        ).digest()
    )
    challenge = _schnorr_challenge(context, pubkey, group.mul_base(nonce))
    response = group.scalar_add(nonce, group.scalar_mul(challenge, secret))
    return challenge + response


def verify_key(pubkey: bytes, proof: bytes, context: bytes) -> bool:
    """Whether ``proof`` shows knowledge of the secret of ``pubkey`` in ``context``.
    False for anything malformed."""
    try:
        challenge, response = _split_proof(proof)
        pubkey, e_key = group.mul_checked(challenge, pubkey, "deck key")
    except DeckError:
        return False
    if not isinstance(context, bytes):
        return False
    commitment = group.sub(group.mul_base(response), e_key)
    return _schnorr_challenge(context, pubkey, commitment) == challenge


def joint_key(pubkeys: Iterable[bytes]) -> Point:
    """``J = Σ X_s``: the key the deck is encrypted under. Every key is checked (the
    identity and small-order points are refused); a repeated key is refused too, since it
    can only be a copy of another seat's key."""
    keys = [check_point(key, f"deck key {index}") for index, key in enumerate(pubkeys)]
    if not keys:
        raise DeckError(N_("a joint key needs at least one deck key"))
    if len(set(keys)) != len(keys):
        raise DeckError(N_("two seats published the same deck key"))
    out = group.total(keys)
    if out == group.IDENTITY:
        raise DeckError(N_("the deck keys sum to the identity"))
    return out


# --- items ------------------------------------------------------------------------------


def item_point(deck: str, item_id: str) -> Point:
    """The point that stands for item ``item_id`` of deck ``deck``: a hash to the group
    (``group.hash_to_point``), so nobody knows a discrete-log relation between items or
    with the keys, and the same id in two decks gives unrelated points."""
    return group.hash_to_point(_ITEM, _text(deck, "deck name"), _text(item_id, "item id"))


def item_table(deck: str, item_ids: Iterable[str]) -> dict[bytes, str]:
    """Reverse lookup from point to item id, for ``identify``. Ids must be distinct."""
    table: dict[bytes, str] = {}
    for item_id in item_ids:
        point = item_point(deck, item_id)
        if point in table:
            raise DeckError(
                N_("item id {item_id!r} appears twice in deck {deck!r}").format(
                    item_id=item_id, deck=deck
                )
            )
        table[point] = item_id
    return table


def identify(point: bytes, candidates: Mapping[bytes, str]) -> str:
    """The id of the item an opened point stands for; ``DeckError`` if it is none of them
    (a wrong share slipped through, or the deck was tampered with)."""
    try:
        return candidates[point]
    except (KeyError, TypeError):
        raise DeckError(N_("opened point is not an item of this deck")) from None


# --- ciphertexts ------------------------------------------------------------------------


def check_ciphertext(ct: Sequence[bytes], what: str = "ciphertext") -> Ciphertext:
    """A ``Ciphertext`` from a pair of bytes, each half validated by ``check_point`` (a
    half that is already a Point is not validated again); a Ciphertext as it is."""
    if isinstance(ct, Ciphertext):
        return ct
    try:
        c1, c2 = ct
    except (TypeError, ValueError):
        raise DeckError(N_("{what} must be a pair of points").format(what=what)) from None
    return Ciphertext(check_point(c1, f"{what} c1"), check_point(c2, f"{what} c2"))


def encrypt_open(point: bytes, joint_key: bytes) -> Ciphertext:
    """The initial, public sealing of an item: ``(B, M + J)``, i.e. randomness ``r = 1``.

    Deliberately not secret: everyone can rebuild and check the initial deck from the item
    list and the joint key. A fixed non-zero ``r`` (rather than ``r = 0``, which gives
    ``c1`` = identity) keeps every ciphertext ever stored a pair of valid points, so one
    check fits all. Hiding comes from the shuffle passes.
    """
    point = check_point(point, "item point")
    return Ciphertext(BASE, group.add(point, check_point(joint_key, "joint key")))


def seal(deck: str, item_ids: Sequence[str], joint_key: bytes) -> list[Ciphertext]:
    """The initial deck: ``encrypt_open`` of every item, in the given (public) order."""
    item_table(deck, item_ids)  # refuses repeated ids
    return [encrypt_open(item_point(deck, item_id), joint_key) for item_id in item_ids]


def rerandomize(ct: Ciphertext, joint_key: bytes, r: bytes) -> Ciphertext:
    """``(c1 + r·B, c2 + r·J)``: the same plaintext, unlinkable to ``ct`` without the keys.
    ``ct`` and ``joint_key`` are checked; callers inside this module pass checked values
    to ``_rerandomize``."""
    ct = check_ciphertext(ct)
    joint_key = check_point(joint_key, "joint key")
    check_scalar(r, "re-randomizer")
    return _rerandomize(ct, joint_key, r)


def _rerandomize(ct: Ciphertext, joint_key: Point, r: bytes) -> Ciphertext:
    return Ciphertext(
        group.add(ct.c1, group.mul_base(r)), group.add(ct.c2, group.mul(r, joint_key))
    )


# --- decryption shares ------------------------------------------------------------------


def _split_proof(proof: bytes) -> tuple[bytes, bytes]:
    if not isinstance(proof, bytes) or len(proof) != PROOF_BYTES:
        raise DeckError(N_("proof must be {proof_bytes} bytes").format(proof_bytes=PROOF_BYTES))
    challenge = check_scalar(proof[:32], "proof challenge", nonzero=False)
    response = check_scalar(proof[32:], "proof response", nonzero=False)
    return challenge, response


def _share_challenge(
    context: bytes, pubkey: bytes, ct: Ciphertext, share_point: bytes, a1: bytes, a2: bytes
) -> bytes:
    transcript = frame(context, BASE, pubkey, ct.c1, ct.c2, share_point, a1, a2)
    return group.reduce64(hashlib.sha512(_SHARE + transcript).digest())


def share(
    ct: Ciphertext, secret: bytes, context: bytes, pubkey: Point | None = None
) -> tuple[Point, bytes]:
    """This seat's decryption share ``S = x·c1`` of ``ct``, with a Chaum–Pedersen proof
    that ``log_B(X) = log_c1(S)``, i.e. that ``S`` was made with the published key.

    Proof = challenge ‖ response (64 bytes): nonce ``k`` from SHA-512(share-nonce ‖ x ‖
    message) as in EdDSA (deterministic, distinct for every message), ``A1 = k·B``,
    ``A2 = k·c1``, ``e = SHA-512(share ‖ frame(context, B, X, c1, c2, S, A1, A2)) mod L``,
    ``z = k + e·x``. ``context`` must bind game, deck, position and step. A caller making
    several shares passes ``pubkey = public_key(secret)`` once, which leaves each share its
    floor (two multiplications, one base multiplication); a wrong one only gives a proof
    that does not verify.
    """
    ct = check_ciphertext(ct)
    check_scalar(secret, "deck secret")
    if not isinstance(context, bytes):
        raise DeckError(N_("share context must be bytes"))
    pubkey = group.mul_base(secret) if pubkey is None else check_point(pubkey, "deck key")
    share_point = group.mul(secret, ct.c1)
    nonce = _nonzero_scalar(
        lambda attempt: hashlib.sha512(
            _SHARE_NONCE
            + secret
            + frame(context, pubkey, ct.c1, ct.c2, share_point, attempt.to_bytes(4, "big"))
        ).digest()
    )
    challenge = _share_challenge(
        context, pubkey, ct, share_point, group.mul_base(nonce), group.mul(nonce, ct.c1)
    )
    response = group.scalar_add(nonce, group.scalar_mul(challenge, secret))
    return share_point, challenge + response


def checked_share(
    ct: Ciphertext, pubkey: bytes, share_point: bytes, proof: bytes, context: bytes
) -> Point:
    """``share_point`` as a Point if it is ``x·c1`` for the ``x`` behind ``pubkey``, by the
    Chaum–Pedersen proof: recompute ``A1 = z·B − e·X``, ``A2 = z·c1 − e·S`` and the
    challenge; else ``DeckError``. ``pubkey`` and ``share_point`` are validated by the
    multiplications ``e·X`` and ``e·S`` themselves (``group.mul_checked``), so checking a
    share costs its floor: three multiplications, one base multiplication, two
    subtractions."""
    ct = check_ciphertext(ct)
    challenge, response = _split_proof(proof)
    if not isinstance(context, bytes):
        raise DeckError(N_("share context must be bytes"))
    pubkey, e_key = group.mul_checked(challenge, pubkey, "deck key")
    point, e_share = group.mul_checked(challenge, share_point, "decryption share")
    a1 = group.sub(group.mul_base(response), e_key)
    a2 = group.sub(group.mul(response, ct.c1), e_share)
    if _share_challenge(context, pubkey, ct, point, a1, a2) != challenge:
        raise DeckError(N_("the decryption share's proof does not verify"))
    return point


def verify_share(
    ct: Ciphertext, pubkey: bytes, share_point: bytes, proof: bytes, context: bytes
) -> bool:
    """Whether ``checked_share`` accepts; anything malformed gives False."""
    try:
        checked_share(ct, pubkey, share_point, proof, context)
    except (DeckError, TypeError):
        return False
    return True


def open_with_shares(ct: Ciphertext, shares: Iterable[bytes]) -> Point:
    """``c2 − Σ shares``: the item point when ``shares`` are every seat's (verified)
    shares of ``ct``. Pass the result to ``identify``. Shares that ``checked_share``
    returned are Points and are not validated again; bytes are."""
    ct = check_ciphertext(ct)
    checked = [check_point(s, f"decryption share {index}") for index, s in enumerate(shares)]
    return group.sub(ct.c2, group.total(checked))


def open_private(ct: Ciphertext, other_shares: Iterable[bytes], own_secret: bytes) -> Point:
    """A private reveal to the seat holding ``own_secret``: the others' published shares
    plus its own share, computed locally and never published. Without ``own_secret`` the
    public data only gives ``M + x·c1``, an ElGamal ciphertext under that seat's key."""
    ct = check_ciphertext(ct)
    check_scalar(own_secret, "deck secret")
    return open_with_shares(ct, [*other_shares, group.mul(own_secret, ct.c1)])
