"""Sealed-deck primitives (architecture §7): keys, sealing, shuffle passes, shares and proofs.

Points are checked against an independent pure-Python model of edwards25519 (RFC 8032
arithmetic), so the validation tests do not merely restate libsodium.
"""

from __future__ import annotations

import copy
import hashlib
import pickle
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from nacl import bindings as nb

from pbem.crypto import deck as dk
from pbem.crypto import group
from pbem.crypto import passes as shuffle_passes
from pbem.crypto.group import BASE, IDENTITY, DeckError, L
from pbem.format.errors import Rejected

GAME = bytes(range(16))
DECK = "regions"
ITEMS = [f"card-{n:02d}" for n in range(12)]

# --- an independent model of edwards25519 ------------------------------------------------

P = 2**255 - 19
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
NEUTRAL = (0, 1, 1, 0)


def ref_add(p1, p2):
    a = (p1[1] - p1[0]) * (p2[1] - p2[0]) % P
    b = (p1[1] + p1[0]) * (p2[1] + p2[0]) % P
    c = 2 * p1[3] * p2[3] * D % P
    d = 2 * p1[2] * p2[2] % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def ref_mul(scalar, point):
    out = NEUTRAL
    while scalar:
        if scalar & 1:
            out = ref_add(out, point)
        point = ref_add(point, point)
        scalar >>= 1
    return out


def ref_is_neutral(point) -> bool:
    return point[0] % P == 0 and (point[1] - point[2]) % P == 0


def ref_decode(data: bytes, *, canonical: bool = True):
    number = int.from_bytes(data, "little")
    sign, y = number >> 255, number & ((1 << 255) - 1)
    if canonical and y >= P:
        return None
    y %= P
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P:
        return None
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


def ref_encode(point) -> bytes:
    zinv = pow(point[2], P - 2, P)
    x, y = point[0] * zinv % P, point[1] * zinv % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def ref_valid(data: bytes) -> bool:
    """Canonical, on the curve, not the identity, and of order L."""
    point = ref_decode(data)
    return point is not None and not ref_is_neutral(point) and ref_is_neutral(ref_mul(L, point))


def _torsion() -> list[bytes]:
    """All 8 points of small order, found by the model (not copied from a list)."""
    y = 2
    while True:
        point = ref_decode(y.to_bytes(32, "little"))
        if point is not None:
            t = ref_mul(L, point)  # lies in the torsion subgroup
            if not ref_is_neutral(ref_mul(4, t)):  # order 8: generates it
                return [ref_encode(ref_mul(k, t)) for k in range(8)]
        y += 1


TORSION = _torsion()


def _noncanonical() -> list[bytes]:
    """Encodings with y >= p (and the 'negative zero' x) that decode if one forgets to
    check canonicity."""
    out = []
    for k in range(19):
        for sign in (0, 1):
            data = ((P + k) | (sign << 255)).to_bytes(32, "little")
            if ref_decode(data, canonical=False) is not None:
                out.append(data)
    out.append((1 | (1 << 255)).to_bytes(32, "little"))
    return out


NONCANONICAL = _noncanonical()

# --- helpers ------------------------------------------------------------------------------


def seat_secrets(n: int, game: bytes = GAME) -> list[bytes]:
    return [dk.deck_secret(hashlib.sha256(b"root %d" % i).digest(), game) for i in range(n)]


def joint_secret(secrets: list[bytes]) -> bytes:
    return group.scalar_from_int(sum(int.from_bytes(x, "little") for x in secrets))


def decrypt(ct: dk.Ciphertext, secret: bytes) -> bytes:
    return group.sub(ct.c2, group.mul(secret, ct.c1))


def scalar(n: int) -> bytes:
    return group.scalar_from_int(n)


def public_open(ct, secrets, context=b"ctx") -> bytes:
    shares = []
    for x in secrets:
        point, proof = dk.share(ct, x, context)
        assert dk.verify_share(ct, dk.public_key(x), point, proof, context)
        shares.append(point)
    return dk.open_with_shares(ct, shares)


def run_passes(secrets, items=ITEMS, deck=DECK):
    pubs = [dk.public_key(x) for x in secrets]
    jk = dk.joint_key(pubs)
    current = dk.seal(deck, items, jk)
    made = []
    for seat, x in enumerate(secrets):
        pass_id = f"setup/{seat}"
        current = shuffle_passes.shuffle(current, jk, x, deck, pass_id)
        made.append(shuffle_passes.ShufflePass(pass_id, pubs[seat], x, current))
    return jk, made


# --- the model itself ---------------------------------------------------------------------


def test_model_agrees_on_base_point_and_torsion():
    assert ref_valid(BASE) and ref_encode(ref_decode(BASE)) == BASE
    assert IDENTITY in TORSION and len(set(TORSION)) == 8
    assert all(ref_is_neutral(ref_mul(8, ref_decode(t))) for t in TORSION)
    assert NONCANONICAL  # the rejection test below has something to reject


# --- point and scalar validation ----------------------------------------------------------


@pytest.mark.parametrize("bad", TORSION, ids=lambda b: b.hex()[:8])
def test_small_order_points_rejected(bad):
    with pytest.raises(DeckError, match="not a valid point"):
        group.check_point(bad)


@pytest.mark.parametrize("bad", NONCANONICAL, ids=lambda b: b.hex()[-8:])
def test_noncanonical_encodings_rejected(bad):
    with pytest.raises(DeckError, match="not a valid point"):
        group.check_point(bad)


def test_mixed_order_point_rejected():
    good = dk.item_point(DECK, "x")
    for torsion in TORSION[1:]:
        mixed = nb.crypto_core_ed25519_add(good, torsion)  # on the curve, not in the subgroup
        assert ref_decode(mixed) is not None and not ref_valid(mixed)
        with pytest.raises(DeckError):
            group.check_point(mixed, "deck key 2")


def test_check_point_shape_errors_name_the_value():
    with pytest.raises(DeckError, match="joint key must be 32 bytes, not 31"):
        group.check_point(BASE[:31], "joint key")
    with pytest.raises(DeckError, match="must be bytes"):
        group.check_point(BASE.hex(), "joint key")
    # a DeckError is both what library callers expect and what the CLI reports
    assert issubclass(DeckError, ValueError) and issubclass(DeckError, Rejected)


@settings(max_examples=150, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_check_point_matches_model_on_random_bytes(data):
    if ref_valid(data):
        assert group.check_point(data) == data
    else:
        with pytest.raises(DeckError):
            group.check_point(data)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, L - 1), st.integers(0, 7))
def test_check_point_matches_model_on_subgroup_and_mixed_points(k, t):
    point = nb.crypto_core_ed25519_add(group.mul_base(scalar(k)), TORSION[t])
    assert ref_valid(point) == (TORSION[t] == IDENTITY)
    if TORSION[t] == IDENTITY:
        assert group.check_point(point) == point
    else:
        with pytest.raises(DeckError):
            group.check_point(point)


def _agrees_with_check_point(data: bytes) -> None:
    """``mul_checked`` (validation by libsodium's multiplication) accepts exactly what
    ``check_point`` (and the model) accepts, and multiplies correctly."""
    k = scalar(12345)
    try:
        expected = group.check_point(data)
    except DeckError:
        with pytest.raises(DeckError, match="shared key is not a valid point"):
            group.mul_checked(k, data, "shared key")
        with pytest.raises(DeckError, match="not a valid point"):
            group.mul_checked(group.ZERO, data)  # zero scalar: check_point's own path
        return
    point, product = group.mul_checked(k, data)
    assert point == expected and isinstance(point, group.Point)
    assert product == group.mul(k, expected)


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(1, L - 1), st.integers(0, 7))
def test_validation_by_multiplication_matches_check_point(data, k, t):
    _agrees_with_check_point(data)
    _agrees_with_check_point(nb.crypto_core_ed25519_add(group.mul_base(scalar(k)), TORSION[t]))


@pytest.mark.parametrize("bad", [*TORSION, *NONCANONICAL, b"\x01" * 31, "text"])
def test_validation_by_multiplication_refuses_every_bad_encoding(bad):
    with pytest.raises(DeckError):
        group.mul_checked(scalar(7), bad)


def test_points_are_made_only_by_validation_or_arithmetic():
    raw = bytes(dk.item_point(DECK, "x"))
    with pytest.raises(TypeError, match="check_point"):
        group.Point(raw)
    with pytest.raises(TypeError, match="takes Points"):
        group.add(raw, BASE)  # libsodium's addition would take any curve point
    with pytest.raises(TypeError, match="takes Points"):
        group.mul(scalar(3), raw)
    point = group.check_point(raw)
    assert isinstance(point, group.Point) and type(point[:31]) is bytes
    assert isinstance(group.add(point, BASE), group.Point)
    assert copy.deepcopy(point) is point and pickle.loads(pickle.dumps(point)) == point
    with pytest.raises(DeckError, match="not a valid point"):
        group.check_point(IDENTITY)  # the identity Point is never valid input


def test_a_point_from_a_validated_ciphertext_never_vouches_for_its_new_partner(monkeypatch):
    # Issue 13: reusing one validated half must not make a pair that arrived unvalidated
    # trusted. A Ciphertext holds only Points, and a received half is never a Point.
    secrets = seat_secrets(2)
    jk = dk.joint_key(dk.public_key(x) for x in secrets)
    ct = dk.seal(DECK, ITEMS, jk)[0]
    mixed = nb.crypto_core_ed25519_add(ct.c2, TORSION[3])  # looks fine to libsodium's add
    with pytest.raises(TypeError, match="check_ciphertext"):
        dk.Ciphertext(ct.c1, mixed)
    with pytest.raises(DeckError, match="ciphertext c2 is not a valid point"):
        dk.check_ciphertext((ct.c1, mixed))
    with pytest.raises(DeckError, match="ciphertext 0 c2"):
        shuffle_passes.shuffle([(ct.c1, mixed)], jk, secrets[0], DECK, "p")
    with pytest.raises(DeckError, match="ciphertext c1"):
        dk.share((mixed, ct.c1), secrets[0], b"ctx")
    # and what was validated is not validated again: a whole pass checks no point
    calls = []
    real = nb.crypto_core_ed25519_is_valid_point
    monkeypatch.setattr(
        nb, "crypto_core_ed25519_is_valid_point", lambda p: calls.append(p) or real(p)
    )
    cts = dk.seal(DECK, ITEMS, jk)
    assert dk.check_ciphertext(cts[0]) is cts[0]
    shuffle_passes.shuffle(cts, jk, secrets[1], DECK, "p")
    assert calls == []
    dk.check_ciphertext((bytes(ct.c1), bytes(ct.c2)))
    assert len(calls) == 2


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (L.to_bytes(32, "little"), "not a canonical scalar"),
        ((L + 1).to_bytes(32, "little"), "not a canonical scalar"),
        (b"\xff" * 32, "not a canonical scalar"),
        (bytes(32), "must not be zero"),
        (bytes(31), "must be 32 bytes"),
    ],
)
def test_bad_scalars_rejected(value, message):
    with pytest.raises(DeckError, match=message):
        group.check_scalar(value, "re-randomizer")


@given(st.integers(0, L - 1), st.integers(0, L - 1), st.binary(min_size=64, max_size=64))
def test_scalar_arithmetic_agrees_with_libsodium(a, b, wide):
    x, y = scalar(a), scalar(b)
    assert group.scalar_add(x, y) == nb.crypto_core_ed25519_scalar_add(x, y)
    assert group.scalar_mul(x, y) == nb.crypto_core_ed25519_scalar_mul(x, y)
    assert group.reduce64(wide) == nb.crypto_core_ed25519_scalar_reduce(wide)


@given(st.integers(0, 2**256 - 1))
def test_check_scalar_is_exactly_below_l(n):
    data = n.to_bytes(32, "little")
    if n < L:
        assert group.check_scalar(data, nonzero=False) == data
    else:
        with pytest.raises(DeckError):
            group.check_scalar(data, nonzero=False)


# --- keys ---------------------------------------------------------------------------------


def test_deck_secret_is_derived_canonical_and_separated():
    root = hashlib.sha256(b"root").digest()
    secret = dk.deck_secret(root, GAME)
    assert secret == dk.deck_secret(root, GAME)  # resumable from the keyring alone
    assert group.check_scalar(secret) == secret
    assert secret != dk.deck_secret(root, GAME[::-1])
    assert secret != dk.deck_secret(hashlib.sha256(b"other").digest(), GAME)


def test_deck_secret_known_answer():
    # Frozen: an audit of a finished game re-derives nothing, but a resumed game does.
    assert dk.deck_secret(bytes(32), bytes(16)).hex() == KAT_SECRET


def test_deck_secret_refuses_weak_inputs():
    with pytest.raises(DeckError, match="root secret"):
        dk.deck_secret(bytes(16), GAME)
    with pytest.raises(DeckError, match="game id"):
        dk.deck_secret(bytes(32), b"")


def test_nonzero_scalar_retries_on_zero():
    outputs = {0: bytes(64), 1: L.to_bytes(64, "little"), 2: (5).to_bytes(64, "little")}
    assert dk._nonzero_scalar(outputs.__getitem__) == scalar(5)


def test_joint_key_is_the_key_of_the_summed_secrets():
    secrets = seat_secrets(4)
    jk = dk.joint_key(dk.public_key(x) for x in secrets)
    assert jk == group.mul_base(joint_secret(secrets))


def test_joint_key_refuses_bad_sets():
    pubs = [dk.public_key(x) for x in seat_secrets(2)]
    with pytest.raises(DeckError, match="same deck key"):
        dk.joint_key([pubs[0], pubs[1], pubs[0]])
    with pytest.raises(DeckError, match="deck key 1 is not a valid point"):
        dk.joint_key([pubs[0], IDENTITY])
    with pytest.raises(DeckError, match="deck key 1"):
        dk.joint_key([pubs[0], TORSION[3]])
    with pytest.raises(DeckError, match="at least one"):
        dk.joint_key([])
    with pytest.raises(DeckError, match="identity"):
        dk.joint_key([pubs[0], group.sub(IDENTITY, pubs[0])])


def test_key_proof_binds_key_and_context():
    x, y = seat_secrets(2)
    proof = dk.prove_key(x, b"game/seat 0")
    assert dk.verify_key(dk.public_key(x), proof, b"game/seat 0")
    assert not dk.verify_key(dk.public_key(x), proof, b"game/seat 1")  # copied to a seat
    assert not dk.verify_key(dk.public_key(y), proof, b"game/seat 0")
    # the rogue key Y - X: its maker knows log(Y) but not log(Y - X), so cannot prove it
    rogue = group.sub(dk.public_key(y), dk.public_key(x))
    assert not dk.verify_key(rogue, dk.prove_key(y, b"game/seat 1"), b"game/seat 1")
    assert not dk.verify_key(dk.public_key(x), proof[:32] + bytes(32), b"game/seat 0")
    assert not dk.verify_key(TORSION[2], proof, b"game/seat 0")


# --- items --------------------------------------------------------------------------------


def test_item_points_are_valid_distinct_and_framed():
    points = [dk.item_point(DECK, item) for item in ITEMS]
    assert all(ref_valid(p) for p in points)
    assert len(set(points)) == len(points)
    assert dk.item_point(DECK, "a") == dk.item_point(DECK, "a")
    assert dk.item_point("ab", "c") != dk.item_point("a", "bc")
    assert dk.item_point("tokens", "a") != dk.item_point(DECK, "a")


def test_item_point_known_answer():
    assert dk.item_point("regions", "Gallia").hex() == KAT_ITEM


def test_item_table_and_identify():
    table = dk.item_table(DECK, ITEMS)
    assert dk.identify(dk.item_point(DECK, "card-03"), table) == "card-03"
    with pytest.raises(DeckError, match="not an item"):
        dk.identify(dk.item_point("tokens", "card-03"), table)
    with pytest.raises(DeckError, match="appears twice"):
        dk.item_table(DECK, ["a", "b", "a"])
    with pytest.raises(DeckError, match="item id"):
        dk.item_point(DECK, "")


# --- sealing and re-randomizing -----------------------------------------------------------


def test_open_sealing_is_public_and_decrypts():
    secrets = seat_secrets(3)
    jk = dk.joint_key(dk.public_key(x) for x in secrets)
    cts = dk.seal(DECK, ITEMS, jk)
    assert all(ct.c1 == BASE for ct in cts)
    assert [group.sub(ct.c2, jk) for ct in cts] == [dk.item_point(DECK, i) for i in ITEMS]
    assert [decrypt(ct, joint_secret(secrets)) for ct in cts] == [
        dk.item_point(DECK, i) for i in ITEMS
    ]


@settings(max_examples=25, deadline=None)
@given(st.integers(1, L - 1), st.sampled_from(ITEMS))
def test_rerandomize_keeps_the_plaintext_and_changes_both_halves(r, item):
    secrets = seat_secrets(2)
    jk = dk.joint_key(dk.public_key(x) for x in secrets)
    assume(r != L - 1)  # c1 = B + (L - 1)·B is the identity: refused, tested below
    ct = dk.encrypt_open(dk.item_point(DECK, item), jk)
    out = dk.rerandomize(ct, jk, scalar(r))
    assert out.c1 != ct.c1 and out.c2 != ct.c2
    assert decrypt(out, joint_secret(secrets)) == dk.item_point(DECK, item)


def test_rerandomize_refuses_bad_inputs():
    jk = dk.joint_key([dk.public_key(x) for x in seat_secrets(2)])
    ct = dk.encrypt_open(dk.item_point(DECK, "a"), jk)
    with pytest.raises(DeckError, match="re-randomizer"):
        dk.rerandomize(ct, jk, (L + 3).to_bytes(32, "little"))
    with pytest.raises(DeckError, match="ciphertext c1"):
        dk.rerandomize((TORSION[5], ct.c2), jk, scalar(3))
    with pytest.raises(DeckError, match="identity"):  # r = -1 would make c1 = B - B
        dk.rerandomize(ct, jk, scalar(-1))


# --- shuffle passes -----------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_seal_shuffle_open_round_trip(seats):
    secrets = seat_secrets(seats)
    _, passes = run_passes(secrets)
    final = passes[-1].after
    table = dk.item_table(DECK, ITEMS)
    opened = [
        dk.identify(public_open(ct, secrets, b"ctx %d" % i), table) for i, ct in enumerate(final)
    ]
    assert Counter(opened) == Counter(ITEMS)
    assert opened != ITEMS  # 1/12! chance of a false alarm for these fixed secrets: none
    assert not {ct.c1 for ct in final} & {BASE}


def test_shuffle_output_is_the_derived_permutation_of_rerandomized_input():
    secrets = seat_secrets(2)
    jk = dk.joint_key(dk.public_key(x) for x in secrets)
    before = dk.seal(DECK, ITEMS, jk)
    after = shuffle_passes.shuffle(before, jk, secrets[0], DECK, "p")
    perm = shuffle_passes.shuffle_permutation(secrets[0], DECK, "p", len(ITEMS))
    xj = joint_secret(secrets)
    assert [decrypt(ct, xj) for ct in after] == [decrypt(before[k], xj) for k in perm]
    assert not {ct.c1 for ct in after} & {ct.c1 for ct in before}
    assert not {ct.c2 for ct in after} & {ct.c2 for ct in before}
    assert after == shuffle_passes.shuffle(before, jk, secrets[0], DECK, "p")  # nothing to store


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 60), st.text(min_size=1, max_size=8), st.integers(1, L - 1))
def test_shuffle_permutation_is_a_permutation(n, pass_id, secret):
    perm = shuffle_passes.shuffle_permutation(scalar(secret), DECK, pass_id, n)
    assert sorted(perm) == list(range(n))


def test_shuffle_permutation_differs_across_seats_passes_and_decks():
    a, b = seat_secrets(2)
    perms = {
        tuple(shuffle_passes.shuffle_permutation(a, DECK, "setup/0", 48)),
        tuple(shuffle_passes.shuffle_permutation(b, DECK, "setup/0", 48)),
        tuple(shuffle_passes.shuffle_permutation(a, DECK, "setup/1", 48)),
        tuple(shuffle_passes.shuffle_permutation(a, "tokens", "setup/0", 48)),
        tuple(range(48)),
    }
    assert len(perms) == 5


def test_shuffle_permutation_is_not_visibly_biased():
    # 600 passes over 3 items: each of the 6 orders should come up about 100 times.
    (secret,) = seat_secrets(1)
    permutation = shuffle_passes.shuffle_permutation
    orders = (tuple(permutation(secret, DECK, f"p{i}", 3)) for i in range(600))
    counts = Counter(orders)
    assert len(counts) == 6
    assert all(60 <= c <= 140 for c in counts.values()), counts


def test_shuffle_permutation_known_answer():
    perm = shuffle_passes.shuffle_permutation(scalar(7), "regions", "setup/0", 10)
    assert perm == KAT_PERM


def test_shuffle_rejects_invalid_input_naming_its_position():
    secrets = seat_secrets(2)
    jk = dk.joint_key(dk.public_key(x) for x in secrets)
    cts = dk.seal(DECK, ITEMS, jk)
    cts[4] = (cts[4].c1, TORSION[6])
    with pytest.raises(DeckError, match="ciphertext 4 c2"):
        shuffle_passes.shuffle(cts, jk, secrets[0], DECK, "p")
    cts[4] = None
    with pytest.raises(DeckError, match="ciphertext 4 must be a pair of points"):
        shuffle_passes.shuffle(cts, jk, secrets[0], DECK, "p")


def test_check_shuffle_accepts_the_honest_pass_only():
    secrets = seat_secrets(3)
    jk, passes = run_passes(secrets)
    before, honest = passes[0].after, passes[1].after
    args = (jk, secrets[1], DECK, "setup/1")
    assert shuffle_passes.check_shuffle(before, honest, *args)
    swapped = list(honest)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not shuffle_passes.check_shuffle(before, swapped, *args)
    assert not shuffle_passes.check_shuffle(before, honest[:-1], *args)
    assert not shuffle_passes.check_shuffle(before, honest, jk, secrets[1], DECK, "setup/2")
    assert not shuffle_passes.check_shuffle(before, honest, jk, secrets[2], DECK, "setup/1")
    assert not shuffle_passes.check_shuffle(before, [*honest[:-1], None], *args)


def test_audit_accepts_honest_chain():
    secrets = seat_secrets(4)
    jk, passes = run_passes(secrets)
    assert shuffle_passes.audit_shuffles(DECK, ITEMS, jk, passes) == list(passes[-1].after)


def test_audit_names_the_pass_that_swapped_in_a_duplicate():
    secrets = seat_secrets(4)
    jk, passes = run_passes(secrets)
    # seat 2 replaces one card by a fresh re-encryption of another: still 12 valid
    # ciphertexts, but one item twice and one gone
    cheat = list(passes[2].after)
    cheat[0] = dk.rerandomize(cheat[1], jk, scalar(123456789))
    passes[2] = passes[2]._replace(after=cheat)
    after = shuffle_passes.shuffle(cheat, jk, secrets[3], DECK, "setup/3")
    passes[3] = passes[3]._replace(after=after)
    table = dk.item_table(DECK, ITEMS)
    opened = Counter(dk.identify(public_open(ct, secrets), table) for ct in passes[3].after)
    assert opened != Counter(ITEMS) and max(opened.values()) == 2  # the cheat is real
    with pytest.raises(DeckError, match=r"shuffle pass 'setup/2': output is not the shuffle"):
        shuffle_passes.audit_shuffles(DECK, ITEMS, jk, passes)


def test_audit_names_a_pass_whose_disclosed_secret_is_not_its_key():
    secrets = seat_secrets(3)
    jk, passes = run_passes(secrets)
    passes[1] = passes[1]._replace(seat_secret=secrets[0])
    with pytest.raises(DeckError, match=r"pass 'setup/1': disclosed deck secret does not match"):
        shuffle_passes.audit_shuffles(DECK, ITEMS, jk, passes)
    passes[1] = passes[1]._replace(seat_secret=bytes(32))
    with pytest.raises(DeckError, match=r"pass 'setup/1': disclosed deck secret is malformed"):
        shuffle_passes.audit_shuffles(DECK, ITEMS, jk, passes)


# --- decryption shares --------------------------------------------------------------------


@pytest.fixture(scope="module")
def dealt():
    secrets = seat_secrets(3)
    _, passes = run_passes(secrets)
    return secrets, [dk.public_key(x) for x in secrets], passes[-1].after


def test_share_verifies_and_is_deterministic(dealt):
    secrets, pubs, cts = dealt
    point, proof = dk.share(cts[0], secrets[1], b"ctx")
    assert point == group.mul(secrets[1], cts[0].c1)
    assert len(proof) == dk.PROOF_BYTES
    assert dk.verify_share(cts[0], pubs[1], point, proof, b"ctx")
    assert dk.share(cts[0], secrets[1], b"ctx") == (point, proof)


def test_share_with_the_wrong_secret_fails(dealt):
    secrets, pubs, cts = dealt
    point, proof = dk.share(cts[0], secrets[2], b"ctx")
    assert not dk.verify_share(cts[0], pubs[1], point, proof, b"ctx")


def test_share_bound_to_context_and_ciphertext(dealt):
    secrets, pubs, cts = dealt
    point, proof = dk.share(cts[0], secrets[1], b"game/deck/0/step 7")
    assert not dk.verify_share(cts[0], pubs[1], point, proof, b"game/deck/0/step 8")
    same_c1 = dk.Ciphertext(cts[0].c1, cts[1].c2)
    assert not dk.verify_share(same_c1, pubs[1], point, proof, b"game/deck/0/step 7")


def test_forged_share_proofs_fail(dealt):
    secrets, pubs, cts = dealt
    ct, pub = cts[0], pubs[1]
    point, proof = dk.share(ct, secrets[1], b"ctx")
    e, z = int.from_bytes(proof[:32], "little"), int.from_bytes(proof[32:], "little")
    forged = {
        "challenge+1": (point, scalar(e + 1) + proof[32:]),
        "response+1": (point, proof[:32] + scalar(z + 1)),
        "share+B": (group.add(point, BASE), proof),
        "share of other seat": (group.mul(secrets[2], ct.c1), proof),
        "zero proof": (point, bytes(64)),
    }
    for name, (p, pr) in forged.items():
        assert not dk.verify_share(ct, pub, p, pr, b"ctx"), name


def test_noncanonical_response_is_refused(dealt):
    secrets, pubs, cts = dealt
    point, proof = dk.share(cts[0], secrets[1], b"ctx")
    z = int.from_bytes(proof[32:], "little")
    heavy = (z + L).to_bytes(32, "little")
    # libsodium would multiply by z + L just as by z: only the canonical check stops it
    assert nb.crypto_scalarmult_ed25519_base_noclamp(heavy) == group.mul_base(proof[32:])
    assert not dk.verify_share(cts[0], pubs[1], point, proof[:32] + heavy, b"ctx")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 64 * 8 - 1))
def test_any_flipped_proof_bit_fails(dealt, bit):
    secrets, pubs, cts = dealt
    point, proof = dk.share(cts[2], secrets[0], b"ctx")
    bad = bytearray(proof)
    bad[bit // 8] ^= 1 << (bit % 8)
    assert not dk.verify_share(cts[2], pubs[0], point, bytes(bad), b"ctx")


@pytest.mark.parametrize(
    "field", ["ct", "pubkey", "share", "proof", "context"], ids=lambda f: f"garbage {f}"
)
def test_verify_share_says_false_to_garbage(dealt, field):
    secrets, pubs, cts = dealt
    point, proof = dk.share(cts[0], secrets[0], b"ctx")
    args = {"ct": cts[0], "pubkey": pubs[0], "share": point, "proof": proof, "context": b"ctx"}
    assert dk.verify_share(args["ct"], args["pubkey"], args["share"], args["proof"], b"ctx")
    args[field] = {
        "ct": (TORSION[1], cts[0].c2),
        "pubkey": IDENTITY,
        "share": TORSION[4],
        "proof": proof[:63],
        "context": "ctx",
    }[field]
    assert not dk.verify_share(
        args["ct"], args["pubkey"], args["share"], args["proof"], args["context"]
    )


def test_public_open_needs_every_share(dealt):
    secrets, _, cts = dealt
    table = dk.item_table(DECK, ITEMS)
    shares = [dk.share(cts[5], x, b"ctx")[0] for x in secrets]
    assert dk.identify(dk.open_with_shares(cts[5], shares), table) in ITEMS
    for missing in range(len(secrets)):
        partial = shares[:missing] + shares[missing + 1 :]
        assert dk.open_with_shares(cts[5], partial) not in table
    with pytest.raises(DeckError, match="decryption share 1"):
        dk.open_with_shares(cts[5], [shares[0], TORSION[7]])


def test_private_reveal_opens_only_with_the_receivers_secret(dealt):
    secrets, pubs, cts = dealt
    table = dk.item_table(DECK, ITEMS)
    ct, receiver = cts[3], 1
    published = []
    for seat, x in enumerate(secrets):
        if seat != receiver:
            point, proof = dk.share(ct, x, b"peek")
            assert dk.verify_share(ct, pubs[seat], point, proof, b"peek")
            published.append(point)
    item = dk.identify(dk.open_private(ct, published, secrets[receiver]), table)
    # Everything public (c1, c2, every published share, every key) does not give the item:
    public_guess = dk.open_with_shares(ct, published)
    assert public_guess not in table
    assert public_guess != dk.item_point(DECK, item)
    assert public_guess == group.add(dk.item_point(DECK, item), group.mul(secrets[receiver], ct.c1))
    for other in range(len(secrets)):
        if other != receiver:
            assert dk.open_private(ct, published, secrets[other]) not in table


# --- frozen vectors (a change here breaks resumed games and audits of old files) ----------

KAT_SECRET = "f1ecc76c6ad1d8a0be8a2ef895d74f412b37eab962cc1514eaa2ba037450c607"
KAT_ITEM = "7d7628bda0146780fee3481493a380fee652faa47a75f136b1d4107578bfe4c9"
KAT_PERM = [8, 1, 6, 9, 5, 2, 4, 7, 3, 0]


def _frame(*parts: bytes) -> bytes:
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def test_derivations_follow_the_documented_labels():
    """Re-derive from the labels in the module docstring, with hashlib and HKDF only."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    def hkdf(key, info, n):
        return HKDF(algorithm=hashes.SHA256(), length=n, salt=None, info=info).derive(key)

    root, game = bytes(32), bytes(16)
    okm = hkdf(root, b"pbem/1/deck/secret\0" + _frame(game, bytes(4)), 64)
    assert dk.deck_secret(root, game) == scalar(int.from_bytes(okm, "little"))

    h = hashlib.sha512(b"pbem/1/deck/item\0" + _frame(b"regions", b"Gallia")).digest()
    halves = [
        nb.crypto_core_ed25519_from_uniform(h[:32]),
        nb.crypto_core_ed25519_from_uniform(h[32:]),
    ]
    assert dk.item_point("regions", "Gallia") == nb.crypto_core_ed25519_add(*halves)

    key = hkdf(scalar(7), b"pbem/1/deck/pass\0" + _frame(b"regions", b"setup/0"), 32)
    stream = b"".join(
        hashlib.sha256(b"pbem/1/deck/perm\0" + key + c.to_bytes(8, "big")).digest()
        for c in range(8)
    )
    words = [int.from_bytes(stream[i : i + 8], "big") for i in range(0, len(stream), 8)]
    order = list(range(10))
    for i in range(9, 0, -1):  # no word is rejected for such small bounds (2**-60)
        j = words.pop(0) % (i + 1)
        order[i], order[j] = order[j], order[i]
    assert shuffle_passes.shuffle_permutation(scalar(7), "regions", "setup/0", 10) == order

    r0 = hashlib.sha512(b"pbem/1/deck/rerand\0" + key + _frame(bytes(8), bytes(4))).digest()
    jk = dk.public_key(scalar(11))
    before = [dk.encrypt_open(dk.item_point("regions", f"c{i}"), jk) for i in range(10)]
    out = shuffle_passes.shuffle(before, jk, scalar(7), "regions", "setup/0")
    assert out[0] == dk.rerandomize(before[order[0]], jk, group.reduce64(r0))
