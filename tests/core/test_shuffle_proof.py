"""The proof of a shuffle (``pbem.crypto.shuffleproof``): completeness, soundness against
each way of cheating, binding to its context, every field of the encoding, and the
known-answer vectors quoted in the format spec (``schemas/vectors/shuffle-proof.json``).
Engine-level refusals (at the step, naming the seat) are in ``test_sealed_decks.py``."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from nacl import bindings as nb

from pbem.crypto import deck as dk
from pbem.crypto import group, passes, shuffleproof
from pbem.crypto.group import BASE, DeckError, L
from pbem.format.canonical import b64d, b64e
from pbem.format.resources import resource_dir
from pbem.ledger.tabletop import encode_deck, pass_id, shuffle_context
from tests.core.test_deck import TORSION

VECTORS = resource_dir("schemas") / "vectors" / "shuffle-proof.json"
CONTEXT = b"test context"
FIELDS = ["c", "s1", "s2", "s3", "s4", "C", "chain", "s_hat", "s_prime"]


def secrets_for(seed: int, seats: int = 3) -> list[bytes]:
    return [
        dk.deck_secret(hashlib.sha256(b"shuffle proof %d %d" % (seed, s)).digest(), bytes(16))
        for s in range(seats)
    ]


def random_pass(n: int, seed: int) -> tuple[list[dk.Ciphertext], bytes, passes.ShuffleWitness]:
    """A deck of ``n`` random items after one seat's pass, the joint key and the witness of
    a second seat's pass over it."""
    rng = random.Random(seed)
    secrets = secrets_for(seed)
    jk = dk.joint_key(dk.public_key(x) for x in secrets)
    items = [f"item-{rng.getrandbits(64):x}" for _ in range(n)]
    before = passes.shuffle(dk.seal("deck", items, jk), jk, secrets[0], "deck", "deck/0")
    return before, jk, passes.shuffle_witness(secrets[1], "deck", "deck/1", n)


def honest_pass(n: int, seed: int) -> tuple:
    """``random_pass`` re-encrypted as its witness says, with the proof of it."""
    before, jk, witness = random_pass(n, seed)
    after = passes.reencrypt(before, jk, witness)
    return before, after, jk, witness, shuffleproof.prove(before, after, jk, witness, CONTEXT)


def field_offset(name: str, n: int, k: int = 0) -> int:
    """Where the ``k``-th value of field ``name`` starts in a proof of ``n`` items."""
    if name in FIELDS[:5]:
        return 32 * FIELDS.index(name)
    return 32 * (5 + n * FIELDS[5:].index(name) + k)


def mutated(proof: bytes, name: str, n: int, k: int = 0) -> bytes:
    """The proof with one field changed to another well-formed value: a scalar plus one,
    a point plus the base point."""
    at = field_offset(name, n, k)
    value = proof[at : at + 32]
    if name in ("C", "chain"):
        new = group.add(group.check_point(value), BASE)
    else:
        new = group.scalar_from_int(int.from_bytes(value, "little") + 1)
    return proof[:at] + new + proof[at + 32 :]


def refused(before, after, jk, proof, context=CONTEXT, match="does not verify") -> None:
    with pytest.raises(DeckError, match=match):
        shuffleproof.check(before, after, jk, proof, context)


@pytest.mark.parametrize("n", [1, 2, 3, 17, 65])
def test_an_honest_pass_always_proves(n: int) -> None:
    for seed in range(3 if n < 65 else 1):
        before, after, jk, _, proof = honest_pass(n, seed)
        assert len(proof) == shuffleproof.proof_size(n) == 32 * (5 + 4 * n)
        shuffleproof.check(before, after, jk, proof, CONTEXT)


def test_an_empty_deck_has_the_empty_proof() -> None:
    jk = dk.joint_key(dk.public_key(x) for x in secrets_for(0))
    witness = passes.shuffle_witness(secrets_for(0)[0], "deck", "deck/0", 0)
    assert shuffleproof.prove([], [], jk, witness, CONTEXT) == b""
    shuffleproof.check([], [], jk, b"", CONTEXT)
    refused([], [], jk, bytes(32), match="0 items is 0 bytes, not 32")


def test_the_proof_is_deterministic_and_its_nonces_differ_by_context() -> None:
    before, after, jk, witness, one = honest_pass(5, 1)
    assert shuffleproof.prove(before, after, jk, witness, CONTEXT) == one
    other = shuffleproof.prove(before, after, jk, witness, b"another context")
    blocks = {one[k : k + 32] for k in range(0, len(one), 32)}
    assert not blocks & {other[k : k + 32] for k in range(0, len(other), 32)}


def cheats(before: list[dk.Ciphertext], jk: bytes, honest: list[dk.Ciphertext]) -> dict:
    """Outputs a dishonest seat might publish instead of ``honest`` (same length)."""
    r = group.scalar_from_int(987654321)
    duplicated = [*honest[:-1], dk.rerandomize(honest[0], jk, r)]
    planted = dk.rerandomize(dk.encrypt_open(dk.item_point("deck", "item-planted"), jk), jk, r)
    substituted = [planted, *honest[1:]]
    swapped = [honest[1], honest[0], *honest[2:]]
    shifted = [
        dk.Ciphertext(honest[0].c1, group.add(honest[0].c2, dk.item_point("deck", "x"))),
        *honest[1:],
    ]
    return {
        "duplicated item": duplicated,
        "item re-encrypted to another": substituted,
        "plaintext shifted": shifted,
        "wrong permutation of the right set": swapped,
    }


CHEATS = ["duplicated item", "item re-encrypted to another", "plaintext shifted"]


@pytest.mark.parametrize("cheat", [*CHEATS, "wrong permutation of the right set"])
@pytest.mark.parametrize("n", [2, 3, 17])
def test_no_cheat_gets_through_with_any_proof_the_prover_can_make(n: int, cheat: str) -> None:
    before, jk, witness = random_pass(n, n)
    honest = passes.reencrypt(before, jk, witness)
    forged = cheats(before, jk, honest)[cheat]
    # the honest pass's proof, and the prover's algorithm run over the cheat itself
    for proof in (
        shuffleproof.prove(before, honest, jk, witness, CONTEXT),
        shuffleproof.prove(before, forged, jk, witness, CONTEXT),
    ):
        refused(before, forged, jk, proof)


def test_a_valid_shuffle_under_another_permutation_proves_with_its_own_witness() -> None:
    # Soundness is about being a shuffle: a seat that shuffles validly but not as its
    # secret dictates passes the proof (the end-of-game audit reports it, harmlessly).
    before, jk, witness = random_pass(6, 2)
    other = passes.ShuffleWitness(witness.permutation[::-1], witness.rerandomizers, witness.key)
    after = passes.reencrypt(before, jk, other)
    shuffleproof.check(
        before, after, jk, shuffleproof.prove(before, after, jk, other, CONTEXT), CONTEXT
    )
    refused(
        before,
        passes.reencrypt(before, jk, witness),
        jk,
        shuffleproof.prove(before, after, jk, other, CONTEXT),
    )


def test_the_proof_is_bound_to_context_key_and_input() -> None:
    before, after, jk, _, proof = honest_pass(4, 3)
    refused(before, after, jk, proof, context=CONTEXT + b"!")
    other_key = dk.joint_key(dk.public_key(x) for x in secrets_for(99))
    refused(before, after, other_key, proof)
    refused([before[1], before[0], *before[2:]], after, jk, proof)


@pytest.mark.parametrize("name", FIELDS)
def test_each_field_mutated_is_refused(name: str) -> None:
    n = 3
    before, after, jk, _, proof = honest_pass(n, 4)
    for k in range(1 if name in FIELDS[:5] else n):
        refused(before, after, jk, mutated(proof, name, n, k))


@pytest.mark.parametrize("name", FIELDS)
def test_each_field_malformed_is_refused_naming_it(name: str) -> None:
    n = 2
    before, after, jk, _, proof = honest_pass(n, 5)
    at = field_offset(name, n, n - 1 if name not in FIELDS[:5] else 0)
    if name in ("C", "chain"):
        bad, match = TORSION[3], "is not a valid point"
    else:
        bad, match = (L + 5).to_bytes(32, "little"), "is not a canonical scalar"
    label = {"C": "commitment 1", "chain": "chain 1", "s_hat": "ŝ 1", "s_prime": "s' 1"}
    refused(
        before,
        after,
        jk,
        proof[:at] + bad + proof[at + 32 :],
        match=f"{label.get(name, name)} {match}",
    )


def test_a_point_with_a_small_order_component_in_the_proof_is_refused() -> None:
    before, after, jk, _, proof = honest_pass(2, 6)
    at = field_offset("chain", 2, 0)
    tainted = nb.crypto_core_ed25519_add(proof[at : at + 32], TORSION[1])
    refused(
        before, after, jk, proof[:at] + tainted + proof[at + 32 :], match="chain 0 is not a valid"
    )


def test_wrong_lengths_and_types_are_refused() -> None:
    before, after, jk, witness, proof = honest_pass(3, 7)
    refused(before, after, jk, proof[:-1], match="3 items is 544 bytes, not 543")
    refused(before, after, jk, proof + bytes(32), match="not 576")
    refused(before, after, jk, b64e(proof), match="not str")
    refused(before, after[:-1], jk, proof, match="must output 3, not 2")
    refused(before, after, jk, proof, context="text", match="context must be bytes")
    as_bytes = [(bytes(ct.c1), bytes(ct.c2)) for ct in after]  # validated, then accepted
    shuffleproof.check(before, as_bytes, jk, proof, CONTEXT)
    with pytest.raises(DeckError, match="output 0 c2"):
        shuffleproof.check(before, [(after[0].c1, TORSION[2]), *after[1:]], jk, proof, CONTEXT)
    with pytest.raises(DeckError, match="not a permutation"):
        bad = passes.ShuffleWitness([0, 0, 1], witness.rerandomizers, witness.key)
        shuffleproof.prove(before, after, jk, bad, CONTEXT)


def test_generators_are_hashed_to_the_group_and_distinct() -> None:
    h, hs = shuffleproof.generators(40)
    assert len({h, *hs}) == 41 and BASE not in {h, *hs}
    assert h == group.hash_to_point(b"pbem/1/shuffle/generator\0", (0).to_bytes(4, "big"))
    assert hs[39] == group.hash_to_point(b"pbem/1/shuffle/generator\0", (40).to_bytes(4, "big"))
    assert shuffleproof.generators(3) == (h, hs[:3])


# --- known-answer vectors -----------------------------------------------------------------


def vector() -> dict:
    """A 3-item pass by seat 1 of a 2-seat game, everything from fixed secrets."""
    game, parent, name = b64e(bytes(range(16))), "ab" * 32, "regions"
    secrets = [dk.deck_secret(bytes([s + 1]) * 32, b64d(game)) for s in range(2)]
    keys = [dk.public_key(x) for x in secrets]
    jk = dk.joint_key(keys)
    items = ["alpha", "beta", "gamma"]
    before = passes.shuffle(dk.seal(name, items, jk), jk, secrets[0], name, pass_id(name, 0))
    witness = passes.shuffle_witness(secrets[1], name, pass_id(name, 1), 3)
    after = passes.reencrypt(before, jk, witness)
    context = shuffle_context(game, name, 1, parent)
    proof = shuffleproof.prove(before, after, jk, witness, context)
    h, hs = shuffleproof.generators(3)
    statement = shuffleproof._statement(context, jk, before, after)
    u = shuffleproof._perm_challenges(statement, proof[160 : 160 + 96], 3)
    return {
        "about": "pbem shuffle proof known-answer vector (docs-shuffle-proof.md); "
        "binary values base64url without padding",
        "game": game,
        "deck": name,
        "items": items,
        "seat": 1,
        "pass": pass_id(name, 1),
        "parent": parent,
        "deck_secrets": [b64e(x) for x in secrets],
        "deck_keys": [b64e(k) for k in keys],
        "joint_key": b64e(jk),
        "context_hex": context.hex(),
        "generators": [b64e(h), *(b64e(x) for x in hs)],
        "input": encode_deck(before),
        "permutation": witness.permutation,
        "rerandomizers": [b64e(r) for r in witness.rerandomizers],
        "output": encode_deck(after),
        "statement_hex": statement.hex(),
        "perm_challenges": [b64e(group.scalar_from_int(x)) for x in u],
        "proof": b64e(proof),
        "proof_bytes": len(proof),
    }


def test_known_answer_vectors() -> None:
    stored = json.loads(VECTORS.read_text())
    assert vector() == stored
    before = [dk.check_ciphertext([b64d(c) for c in pair]) for pair in stored["input"]]
    after = [dk.check_ciphertext([b64d(c) for c in pair]) for pair in stored["output"]]
    jk = b64d(stored["joint_key"])
    context = bytes.fromhex(stored["context_hex"])
    shuffleproof.check(before, after, jk, b64d(stored["proof"]), context)
    refused(before, after, jk, b64d(stored["proof"]), context=context[:-1])
