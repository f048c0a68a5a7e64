"""Escrowed seat secrets (``pbem.crypto.escrow``) and what is derived from them
(``pbem.crypto.seatsecret``): round trips for 1 to 5 holders, every forged deal, copied share
and bad published share refused with one line, every decoder's refusals, and the
known-answer vector quoted in the spec (``schemas/vectors/escrow.json``)."""

from __future__ import annotations

import json

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto import deck, escrow, group, hpke
from pbem.crypto.escrow import Escrow
from pbem.crypto.group import BASE, L, frame
from pbem.crypto.keys import Identity
from pbem.crypto.seatsecret import derive
from pbem.format.canonical import b64e, canonical
from pbem.format.errors import Rejected
from pbem.format.resources import resource_dir
from tests.core import hpke_reference as ref
from tests.core.test_deck import TORSION
from tests.core.test_hpke import box_secret

VECTOR = resource_dir("schemas") / "vectors" / "escrow.json"
GAME_ID = bytes(range(16))
GAME = b64e(GAME_ID)
OTHER_GAME = b64e(bytes(16))
SECRET = deck.deck_secret(bytes([1]) * 32, GAME_ID)
KEY = deck.public_key(SECRET)


def holders(n: int, first: int = 2) -> list[Identity]:
    return [Identity(bytes([first + i]) * 32, f"h{first + i}", "h@example.org") for i in range(n)]


def box_keys(people: list[Identity]) -> list[bytes]:
    return [p.card.box_key_bytes for p in people]


def dealt(n: int, seat: int = 0, game: str = GAME, x: bytes = SECRET) -> tuple:
    people = holders(n)
    return people, escrow.deal(x, box_keys(people), game, seat)


def open_all(people: list[Identity], esc: Escrow, seat: int = 0) -> dict[int, bytes]:
    return {
        i: escrow.open_share(person, esc, KEY, GAME, seat, i) for i, person in enumerate(people, 1)
    }


def one_line(caught: pytest.ExceptionInfo) -> str:
    message = str(caught.value)
    assert isinstance(caught.value, Rejected) and "\n" not in message
    return message


# --- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_every_holder_opens_a_matching_share_and_all_together_give_the_secret(n: int) -> None:
    people, esc = dealt(n)
    assert len(esc.commitments) == n - 1 and len(esc.shares) == n
    assert all(len(s) == escrow.SEALED_SHARE_BYTES == 80 for s in esc.shares)
    decoded = escrow.decode_escrow(escrow.encode_escrow(esc), n)
    assert decoded == esc
    shares = open_all(people, decoded)
    for i, share in shares.items():
        assert escrow.check_share(i, share, KEY, decoded.commitments)
        assert escrow.decode_share(escrow.encode_share(share)) == share
    assert escrow.combine(shares, KEY, decoded.commitments) == SECRET


def test_one_holder_holds_the_secret_itself() -> None:
    people, esc = dealt(1)
    assert esc.commitments == () and open_all(people, esc) == {1: SECRET}


def test_the_polynomial_is_derived_and_the_sealing_randomized() -> None:
    people, first = dealt(3)
    _, second = dealt(3)
    assert first.commitments == second.commitments  # deterministic, like RFC 6979 nonces
    assert first.shares != second.shares  # HPKE draws a fresh ephemeral key
    assert open_all(people, first) == open_all(people, second)
    # Another game, another holder list, another order: unrelated polynomials.
    assert dealt(3, game=OTHER_GAME)[1].commitments != first.commitments
    reordered = escrow.deal(SECRET, box_keys(people[::-1]), GAME, 0)
    assert reordered.commitments != first.commitments
    assert escrow.deal(SECRET, box_keys(holders(3, 9)), GAME, 0).commitments != first.commitments


def test_a_holder_at_two_indexes_of_two_deals_learns_nothing() -> None:
    # Without holder keys in the derivation, holder A at index 1 of (A, B) and index 2 of
    # (B, A) would hold f(1) and f(2): the whole secret when n = 2.
    a, b = holders(2)
    one = escrow.deal(SECRET, box_keys([a, b]), GAME, 0)
    two = escrow.deal(SECRET, box_keys([b, a]), GAME, 0)
    s1 = escrow.open_share(a, one, KEY, GAME, 0, 1)
    s2 = escrow.open_share(a, two, KEY, GAME, 0, 2)
    with pytest.raises(Rejected, match="do not match"):
        escrow.combine({1: s1, 2: s2}, KEY, one.commitments)


# --- a dealer that cheats -------------------------------------------------------------------


def forged(values: list[bytes], commitments: tuple, people: list[Identity], seat: int = 0):
    """An escrow whose shares are ``values``, sealed exactly as a dealer seals them: anyone
    can seal to a holder's public key, so only the check against the commitments helps."""
    aad = escrow.deal_aad(KEY, commitments)
    n = len(people)
    shares = tuple(
        hpke.seal(p.card.box_key_bytes, v, escrow.share_info(GAME, seat, i, n), aad)
        for i, (p, v) in enumerate(zip(people, values, strict=True), 1)
    )
    return Escrow(commitments, shares)


def test_a_share_that_does_not_match_the_commitments_is_refused_by_its_holder() -> None:
    people, esc = dealt(3)
    good = open_all(people, esc)
    bad = group.scalar_add(good[2], group.ONE)
    cheat = forged([good[1], bad, good[3]], esc.commitments, people)
    assert escrow.open_share(people[0], cheat, KEY, GAME, 0, 1) == good[1]
    with pytest.raises(Rejected) as caught:
        escrow.open_share(people[1], cheat, KEY, GAME, 0, 2)
    assert one_line(caught) == "escrow share 2 does not match the seat's commitments"


def test_commitments_to_a_secret_other_than_the_deck_key_are_refused() -> None:
    # The dealer shares some x' of its choosing, with honest commitments to x''s polynomial,
    # while its published deck key is X = x·B: A_0 is X, so no share matches.
    people = holders(2)
    other = deck.deck_secret(bytes([9]) * 32, GAME_ID)
    a1 = group.scalar_from_int(12345)
    values = [group.scalar_from_int(int.from_bytes(other, "little") + i * 12345) for i in (1, 2)]
    cheat = forged(values, (group.mul_base(a1),), people)
    for i, person in enumerate(people, 1):
        with pytest.raises(Rejected, match=f"escrow share {i} does not match"):
            escrow.open_share(person, cheat, KEY, GAME, 0, i)
    # Nor can the dealer publish A_0 itself: an escrow has exactly n − 1 commitments.
    with_a0 = escrow.encode_escrow(cheat)
    with_a0["commitments"].insert(0, b64e(group.mul_base(other)))
    with pytest.raises(Rejected) as caught:
        escrow.decode_escrow(with_a0, 2)
    assert one_line(caught) == "an escrow for 2 holders has 1 commitments, not 2"


def test_a_share_that_is_not_a_scalar_is_refused_by_its_holder() -> None:
    people, esc = dealt(2)
    for value, match in [(bytes(31), "holds 31 bytes"), (L.to_bytes(32, "little"), "canonical")]:
        cheat = forged([value, value], esc.commitments, people)
        with pytest.raises(Rejected, match=f"escrow share 1 .*{match}"):
            escrow.open_share(people[0], cheat, KEY, GAME, 0, 1)


# --- copied shares --------------------------------------------------------------------------


def test_a_share_for_another_holder_seat_or_game_does_not_open() -> None:
    people, esc = dealt(3)
    a, b, _ = people
    for person, seat, game in [(b, 0, GAME), (a, 1, GAME), (a, 0, OTHER_GAME)]:
        with pytest.raises(Rejected) as caught:
            escrow.open_share(person, esc, KEY, game, seat, 1)
        assert one_line(caught).startswith("escrow share 1 does not open for")


def test_a_share_moved_to_another_index_or_deal_does_not_open() -> None:
    people, esc = dealt(2)
    swapped = esc._replace(shares=esc.shares[::-1])  # holder 1's share now at index 2
    with pytest.raises(Rejected, match="escrow share 2 does not open for 'h2'"):
        escrow.open_share(people[0], swapped, KEY, GAME, 0, 2)
    other_secret = deck.deck_secret(bytes([8]) * 32, GAME_ID)
    other_key = deck.public_key(other_secret)
    other = escrow.deal(other_secret, box_keys(people), GAME, 0)
    transplanted = other._replace(shares=esc.shares)  # another deal's commitments and key
    with pytest.raises(Rejected, match="escrow share 1 does not open"):
        escrow.open_share(people[0], transplanted, other_key, GAME, 0, 1)


def test_an_escrow_with_fewer_holders_does_not_open_as_one_with_more() -> None:
    people, esc = dealt(2)
    padded = Escrow((*esc.commitments, group.mul_base(group.ONE)), (*esc.shares, esc.shares[0]))
    with pytest.raises(Rejected, match="escrow share 1 does not open"):
        escrow.open_share(people[0], padded, KEY, GAME, 0, 1)


# --- published shares and opening -----------------------------------------------------------


def test_a_published_share_that_does_not_match_is_refused() -> None:
    people, esc = dealt(3)
    shares = open_all(people, esc)
    assert not escrow.check_share(1, group.scalar_add(shares[1], group.ONE), KEY, esc.commitments)
    assert not escrow.check_share(2, shares[1], KEY, esc.commitments)  # holder 1's, as 2's
    assert not escrow.check_share(1, shares[1], BASE, esc.commitments)  # another seat's key
    assert not escrow.check_share(1, group.ZERO, KEY, esc.commitments)
    wrong = {**shares, 3: group.scalar_add(shares[3], group.ONE)}
    with pytest.raises(Rejected) as caught:
        escrow.combine(wrong, KEY, esc.commitments)
    assert one_line(caught) == (
        "escrow does not open: the shares of holders 3 do not match the seat's commitments"
    )


def test_combining_without_every_share_fails_clearly() -> None:
    people, esc = dealt(3)
    shares = open_all(people, esc)
    del shares[2]
    with pytest.raises(Rejected) as caught:
        escrow.combine(shares, KEY, esc.commitments)
    assert one_line(caught) == (
        "escrow cannot be opened: the shares of holders 2 are missing (all 3 are needed)"
    )
    with pytest.raises(Rejected, match="escrow has holders 1 to 3, not 0, 4"):
        escrow.combine({**open_all(people, esc), 4: SECRET, 0: SECRET}, KEY, esc.commitments)
    with pytest.raises(Rejected, match="shares of holders 1, 2, 3 are missing"):
        escrow.combine({}, KEY, esc.commitments)


@pytest.mark.parametrize(
    ("index", "share", "match"),
    [
        (0, SECRET, "index is an integer from 1 to 2"),
        (3, SECRET, "index is an integer from 1 to 2"),
        (True, SECRET, "index is an integer"),
        (1, L.to_bytes(32, "little"), "escrow share 1 is not a canonical scalar"),
        (1, bytes(31), "escrow share 1 must be 32 bytes"),
        (1, "AAAA", "escrow share 1 must be bytes"),
    ],
)
def test_check_share_refuses_malformed_input(index: object, share: object, match: str) -> None:
    _, esc = dealt(2)
    with pytest.raises(Rejected, match=match):
        escrow.check_share(index, share, KEY, esc.commitments)  # type: ignore[arg-type]


# --- dealing refuses bad arguments ----------------------------------------------------------


@pytest.mark.parametrize(
    ("keys", "game", "seat", "match"),
    [
        ([], GAME, 0, "needs 1 to 255 holders, not 0"),
        ([bytes([k]) * 32 for k in range(256)], GAME, 0, "needs 1 to 255 holders, not 256"),
        ("dup", GAME, 0, "appears twice"),
        ([b"short"], GAME, 0, "escrow holder 1: a box key is 32 bytes"),
        ([bytes(32)], GAME, 0, "escrow share 1: the recipient's box key is not a usable"),
        (None, "AAAA", 0, "escrow game id must be 16 bytes"),
        (None, GAME, 255, "escrow seat must be an integer from 0 to 254"),
        (None, GAME, "0", "escrow seat must be an integer"),
    ],
)
def test_deal_refuses_bad_holders_and_contexts(
    keys: object, game: str, seat: object, match: str
) -> None:
    people = box_keys(holders(2))
    keys = people if keys is None else [people[0], people[0]] if keys == "dup" else keys
    with pytest.raises(Rejected) as caught:
        escrow.deal(SECRET, keys, game, seat)  # type: ignore[arg-type]
    assert match in one_line(caught)


def test_deal_refuses_a_secret_that_is_not_a_scalar() -> None:
    with pytest.raises(Rejected, match="seat secret must not be zero"):
        escrow.deal(group.ZERO, box_keys(holders(1)), GAME, 0)


# --- decoders -------------------------------------------------------------------------------

TWO = escrow.encode_escrow(dealt(2)[1])
A1, S1 = TWO["commitments"][0], TWO["shares"][0]


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ([], "escrow must be an object with exactly 'commitments' and 'shares'"),
        ({"commitments": [A1]}, "exactly 'commitments' and 'shares'"),
        ({**TWO, "x": 1}, "exactly 'commitments' and 'shares'"),
        ({**TWO, "shares": "AA"}, "escrow commitments and shares must be lists"),
        ({**TWO, "commitments": []}, "an escrow for 2 holders has 1 commitments, not 0"),
        ({**TWO, "shares": [S1]}, "an escrow for 2 holders has 2 shares, not 1"),
        ({**TWO, "commitments": [A1 + "="]}, "escrow commitment 1 is not canonical base64url"),
        ({**TWO, "commitments": [A1[:-1]]}, "escrow commitment 1"),
        ({**TWO, "commitments": [7]}, "escrow commitment 1 is not base64url"),
        ({**TWO, "commitments": [b64e(bytes(33))]}, "escrow commitment 1 must be 32 bytes"),
        ({**TWO, "commitments": [b64e(TORSION[1])]}, "escrow commitment 1 is not a valid point"),
        ({**TWO, "commitments": [b64e(group.IDENTITY)]}, "escrow commitment 1 is not a valid"),
        ({**TWO, "commitments": [b64e(b"\xff" * 32)]}, "escrow commitment 1 is not a valid"),
        ({**TWO, "shares": [S1, S1[:-1]]}, "escrow share 2"),
        ({**TWO, "shares": [S1, b64e(bytes(79))]}, "escrow share 2 must be 80 bytes, not 79"),
        ({**TWO, "shares": [S1, None]}, "escrow share 2 is not base64url"),
        ({**TWO, "shares": [S1, S1[:-1] + "B"]}, "escrow share 2 is not canonical base64url"),
    ],
)
def test_decode_escrow_refuses_malformed_input_naming_it(value: object, match: str) -> None:
    with pytest.raises(Rejected) as caught:
        escrow.decode_escrow(value, 2)
    assert match in one_line(caught)


@pytest.mark.parametrize("holders_count", [0, 256, True, "2"])
def test_decode_escrow_refuses_a_bad_holder_count(holders_count: object) -> None:
    with pytest.raises(Rejected, match="escrow"):
        escrow.decode_escrow(TWO, holders_count)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (b64e(L.to_bytes(32, "little")), "escrow share is not a canonical scalar"),
        (b64e(bytes(31)), "escrow share must be 32 bytes"),
        (b64e(bytes(32)) + "=", "escrow share is not canonical base64url"),
        (b64e(bytes(32))[:-1] + "B", "escrow share is not canonical base64url"),
        (32, "escrow share is not base64url"),
        ("", "escrow share must be 32 bytes, not 0"),
    ],
)
def test_decode_share_refuses_malformed_input_naming_it(text: object, match: str) -> None:
    with pytest.raises(Rejected) as caught:
        escrow.decode_share(text)
    assert match in one_line(caught)


def test_a_zero_share_is_a_valid_encoding() -> None:  # f(i) = 0 happens, with chance 1/L
    assert escrow.decode_share(b64e(bytes(32))) == bytes(32)


def test_check_commitments_names_what_is_wrong() -> None:
    with pytest.raises(Rejected, match=r"^deck key is not a valid point"):
        escrow.check_commitments(TORSION[2], [], 1)
    with pytest.raises(Rejected, match=r"^escrow commitment 2 is not a valid point"):
        escrow.check_commitments(KEY, [BASE, TORSION[3]], 3)
    with pytest.raises(Rejected, match="has 2 commitments, not 1"):
        escrow.check_commitments(KEY, [BASE], 3)


# --- what is derived from the seat secret ---------------------------------------------------


def test_derive_separates_purposes_games_secrets_and_extras() -> None:
    values = {
        derive(SECRET, GAME_ID, "beacon"),
        derive(SECRET, GAME_ID, "seal"),
        derive(SECRET, GAME_ID, "seal", b"x"),
        derive(SECRET, bytes(16), "beacon"),
        derive(deck.deck_secret(bytes([2]) * 32, GAME_ID), GAME_ID, "beacon"),
    }
    assert len(values) == 5 and all(len(v) == 32 for v in values)
    assert derive(SECRET, GAME_ID, "beacon") == derive(SECRET, GAME_ID, "beacon")
    assert len(derive(SECRET, GAME_ID, "escrow", length=64)) == 64
    with pytest.raises(ValueError, match="unknown seat secret purpose 'deck'"):
        derive(SECRET, GAME_ID, "deck")
    with pytest.raises(Rejected, match="a game id must be 16 bytes"):
        derive(SECRET, GAME_ID[:15], "beacon")
    with pytest.raises(Rejected, match="seat secret is not a canonical scalar"):
        derive(L.to_bytes(32, "little"), GAME_ID, "beacon")


# --- known-answer vector --------------------------------------------------------------------


def vector() -> dict:
    """Seat 0's secret (from the root 01…01) dealt to two holders (roots 02…02, 03…03), the
    shares sealed by the reference HPKE with the ephemeral keys 04…04 and 05…05."""
    people = holders(2)
    keys = box_keys(people)
    esc = escrow.deal(SECRET, keys, GAME, 0)
    coefficient_info = b"pbem/1/seat/escrow\0" + frame(b"".join(keys), b"\0\0\0\1", bytes(4))
    shares = {i: escrow.open_share(p, esc, KEY, GAME, 0, i) for i, p in enumerate(people, 1)}
    aad = escrow.deal_aad(KEY, esc.commitments)
    infos = [escrow.share_info(GAME, 0, i, 2) for i in (1, 2)]
    sealed = tuple(
        ref.seal(keys[i], hpke.hpke_info(infos[i], aad), b"", shares[i + 1], bytes([4 + i]) * 32)
        for i in range(2)
    )
    seal_extra = canonical(["ab" * 32, 0, "commit:place"])
    return {
        "about": "pbem escrow known-answer vector (docs-escrow.md); binary values base64url "
        "without padding, *_hex in hexadecimal",
        "game": GAME,
        "seat": 0,
        "seat_secret": b64e(SECRET),
        "deck_key": b64e(KEY),
        "holder_roots": [b64e(bytes([n]) * 32) for n in (2, 3)],
        "holder_box_secrets": [b64e(box_secret(n)) for n in (2, 3)],
        "holder_box_keys": [b64e(k) for k in keys],
        "coefficient_info_hex": coefficient_info.hex(),
        "coefficients": [b64e(derive_coefficient(coefficient_info))],
        "shares": [b64e(shares[1]), b64e(shares[2])],
        "lagrange": [b64e(group.scalar_from_int(2)), b64e(group.scalar_from_int(-1))],
        "share_info_hex": [info.hex() for info in infos],
        "aad_hex": aad.hex(),
        "hpke_info_hex": [hpke.hpke_info(info, aad).hex() for info in infos],
        "ephemeral_secrets": [b64e(bytes([n]) * 32) for n in (4, 5)],
        "escrow": escrow.encode_escrow(Escrow(esc.commitments, sealed)),
        "derived": {
            "beacon": b64e(derive(SECRET, GAME_ID, "beacon")),
            "seal_extra": seal_extra.decode("ascii"),
            "seal": b64e(derive(SECRET, GAME_ID, "seal", seal_extra)),
        },
    }


def derive_coefficient(info: bytes) -> bytes:
    """a_1 written out from the spec: HKDF-SHA256(x, salt = game id, info), 64 bytes, mod L."""
    okm = HKDF(algorithm=hashes.SHA256(), length=64, salt=GAME_ID, info=info).derive(SECRET)
    return group.reduce64(okm)


def test_known_answer_vector() -> None:
    stored = json.loads(VECTOR.read_text())
    assert vector() == stored
    esc = escrow.decode_escrow(stored["escrow"], 2)
    assert esc.commitments == (
        group.mul_base(derive_coefficient(bytes.fromhex(stored["coefficient_info_hex"]))),
    )
    people = holders(2)
    shares = {i: escrow.open_share(p, esc, KEY, GAME, 0, i) for i, p in enumerate(people, 1)}
    assert [b64e(shares[i]) for i in (1, 2)] == stored["shares"]
    assert escrow.combine(shares, KEY, esc.commitments) == SECRET
    # The holders' private keys in the file open the shares without pbem.
    for i in range(2):
        info = bytes.fromhex(stored["hpke_info_hex"][i])
        secret = box_secret(2 + i)
        assert ref.open_sealed(secret, info, b"", esc.shares[i]) == shares[i + 1]
