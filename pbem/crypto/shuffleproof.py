"""Proofs that a shuffle pass is a shuffle (architecture §7): pure functions, no file format.

**Protocol.** The proof of a shuffle of Terelius and Wikström ("Proofs of Restricted
Shuffles", AFRICACRYPT 2010) as Haenni, Locher, Koenig and Dubuis give it in pseudo-code
("Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets", FC 2017 workshops,
``GenShuffleProof`` and ``CheckShuffleProof``), made non-interactive with Fiat–Shamir and
written additively over the ed25519 prime-order group (``pbem.crypto.group``): their
``g^x`` is ``x·B``, a product of elements is a sum of points, and their ciphertext
``(a, b) = (m·pk^r, g^r)`` is our ``(c2, c1) = (M + r·J, r·B)``. It proves that the N
output ciphertexts are the N input ciphertexts, each re-encrypted under the joint key J
and permuted: ``out[i] = in[ψ(i)] + (r̃_i·B, r̃_i·J)``, and reveals nothing about ψ or r̃.

Prover, knowing ψ and r̃ (indices from 0; generators ``H``, ``H_0..H_{N-1}``)::

    C_ψ(i) = r_ψ(i)·B + H_i                      permutation commitment
    u_j    = challenge(S, C, j)                  u'_i = u_ψ(i)
    Ĉ_i    = r̂_i·B + u'_i·Ĉ_{i-1}, Ĉ_{-1} = H      commitment chain
    t1 = ω1·B    t2 = ω2·B    t3 = ω3·B + Σ ω'_i·H_i
    t41 = −ω4·J + Σ ω'_i·out[i].c2    t42 = −ω4·B + Σ ω'_i·out[i].c1
    t̂_i = ω̂_i·B + ω'_i·Ĉ_{i-1}
    c  = challenge(S, C, Ĉ, t1, t2, t3, t41, t42, t̂)
    s1 = ω1 + c·Σ r_j              s2 = ω2 + c·Σ r̂_i·∏_{k>i} u'_k
    s3 = ω3 + c·Σ r_j·u_j          s4 = ω4 + c·Σ r̃_i·u'_i
    ŝ_i = ω̂_i + c·r̂_i              s'_i = ω'_i + c·u'_i

Checker: with ``C̄ = Σ C_j − Σ H_i`` and ``ĉ = Ĉ_{N-1} − (∏ u_j)·H``, recompute
``t1 = s1·B − c·C̄``, ``t2 = s2·B − c·ĉ``, ``t3 = s3·B + Σ s'_i·H_i − Σ (c·u_j)·C_j``,
``t41 = −s4·J + Σ s'_i·out[i].c2 − Σ (c·u_j)·in[j].c2``, ``t42`` likewise with ``c1`` and
``B`` for ``J``, ``t̂_i = ŝ_i·B + s'_i·Ĉ_{i-1} − c·Ĉ_i``, and accept iff the challenge of
these equals ``c``. The departures from the pseudo-code change nothing in the protocol:

- the proof carries the challenge ``c`` instead of the commitments ``t`` (5 + N points),
  which the checker recomputes, as a Schnorr signature does (smaller: 128 bytes an item);
- its hashes bind a caller's ``context`` (the engine's names game, deck, pass, seat and
  parent step) and the whole statement (N, J, inputs, outputs): strong Fiat–Shamir, so a
  proof made for one pass, deck, game, seat or step fails for any other;
- its randomness (``r``, ``r̂``, ``ω``) is derived, as RFC 6979 and EdDSA derive nonces,
  from the pass key (secret, from the seat's deck secret) and the whole statement with
  its context, so a seat stores nothing and the same nonce never serves two statements;
- every point of the proof must be in the prime-order subgroup and every scalar
  canonical; the points are validated by the multiplications the check makes anyway
  (``group.mul_checked``); inputs and outputs are ``Ciphertext``s, validated on decoding.

**Hash domains**, each ``b"pbem/1/shuffle/<name>\\0"`` then ``group.frame`` of the parts
(indices and N as 4-byte big-endian integers; lists of points concatenated):
``generator`` (``hash_to_point`` of index 0 for H, index i + 1 for ``H_i``), ``statement``
(SHA-512 of context, N, J, inputs, outputs: the 64-byte ``S``), ``nonce`` (SHA-512 of pass
key, S, label, index, reduced mod L; labels ``r``, ``rhat``, ``w1``..``w4``, ``what``,
``wprime``), ``perm-challenge`` (``u_j``: SHA-512 of S, C, j, mod L), ``challenge`` (``c``:
SHA-512 of S, C, Ĉ, t1, t2, t3, t41, t42, t̂, mod L).

**Encoding**: ``c ‖ s1 ‖ s2 ‖ s3 ‖ s4 ‖ C_0..C_{N-1} ‖ Ĉ_0..Ĉ_{N-1} ‖ ŝ_0..ŝ_{N-1} ‖
s'_0..s'_{N-1}``, every value 32 bytes (scalars little-endian below L, points canonical):
``32·(5 + 4N)`` bytes; an empty deck has the empty proof.

**What it makes sound.** A pass whose proof checks is a shuffle of its input, whatever
the seat did: a dropped, duplicated or substituted item cannot pass (soundness error about
N/2^252 in the random-oracle model, as the generators' discrete logarithms are unknown).
The end-of-game audit (``pbem.crypto.passes.audit_shuffles``) no longer guards this; it only reviews
that each seat shuffled as its disclosed secret dictates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from pbem.crypto import group
from pbem.crypto.deck import Ciphertext, check_ciphertext
from pbem.crypto.group import DeckError, L, Point, check_point, frame
from pbem.crypto.passes import ShuffleWitness
from pbem.format.i18n import N_

_GENERATOR = b"pbem/1/shuffle/generator\0"
_STATEMENT = b"pbem/1/shuffle/statement\0"
_NONCE = b"pbem/1/shuffle/nonce\0"
_PERM_CHALLENGE = b"pbem/1/shuffle/perm-challenge\0"
_CHALLENGE = b"pbem/1/shuffle/challenge\0"

ITEM_BYTES = 4 * group.SCALAR_BYTES
FIXED_BYTES = 5 * group.SCALAR_BYTES

_generators: list[Point] = []
_sums: list[Point] = [group.IDENTITY]


def proof_size(n: int) -> int:
    """Bytes in the proof of an ``n``-item pass: ``32·(5 + 4n)``, or 0 for an empty deck."""
    return FIXED_BYTES + ITEM_BYTES * n if n else 0


def generators(n: int) -> tuple[Point, list[Point]]:
    """``H`` and ``H_0..H_{n-1}``: independent generators nobody knows a discrete-log
    relation of (hash to the group). The same for every pass, so made once per process."""
    while len(_generators) <= n:
        point = group.hash_to_point(_GENERATOR, len(_generators).to_bytes(4, "big"))
        _generators.append(point)
        if len(_generators) > 1:
            _sums.append(group.add(_sums[-1], point))
    return _generators[0], _generators[1 : n + 1]


def _scalar(number: int) -> bytes:
    return number.to_bytes(32, "little")


def _hashed(h: hashlib._Hash) -> int:
    return int.from_bytes(h.digest(), "little") % L


def _index(i: int) -> bytes:
    return i.to_bytes(4, "big")


def _flat(cts: Sequence[Ciphertext]) -> bytes:
    return b"".join(ct.c1 + ct.c2 for ct in cts)


def _statement(
    context: bytes, joint_key: Point, before: Sequence[Ciphertext], after: Sequence[Ciphertext]
) -> bytes:
    if not isinstance(context, bytes):
        raise DeckError(N_("a shuffle proof's context must be bytes"))
    parts = frame(context, _index(len(before)), joint_key, _flat(before), _flat(after))
    return hashlib.sha512(_STATEMENT + parts).digest()


def _perm_challenges(statement: bytes, commitments: bytes, n: int) -> list[int]:
    prefix = hashlib.sha512(_PERM_CHALLENGE + frame(statement, commitments))
    out = []
    for j in range(n):
        h = prefix.copy()
        h.update(frame(_index(j)))
        out.append(_hashed(h))
    return out


def _challenge(statement: bytes, commitments: bytes, chain: bytes, *t: bytes) -> int:
    return _hashed(hashlib.sha512(_CHALLENGE + frame(statement, commitments, chain, *t)))


class _Nonces:
    """The proof's random scalars, derived from the pass key and the statement."""

    def __init__(self, key: bytes, statement: bytes) -> None:
        self._prefix = hashlib.sha512(_NONCE + frame(key, statement))

    def __call__(self, label: bytes, i: int = 0) -> int:
        h = self._prefix.copy()
        h.update(frame(label, _index(i)))
        return _hashed(h)


def _inputs(
    before: Sequence[Ciphertext], after: Sequence[Ciphertext], joint_key: bytes
) -> tuple[list[Ciphertext], list[Ciphertext], Point]:
    ins = [check_ciphertext(ct, f"input {k}") for k, ct in enumerate(before)]
    outs = [check_ciphertext(ct, f"output {k}") for k, ct in enumerate(after)]
    if len(ins) != len(outs):
        raise DeckError(
            N_("a shuffle of {count} items must output {count}, not {count2}").format(
                count=len(ins), count2=len(outs)
            )
        )
    return ins, outs, check_point(joint_key, "joint key")


def prove(
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    joint_key: bytes,
    witness: ShuffleWitness,
    context: bytes,
) -> bytes:
    """The proof that ``after`` is ``before`` re-encrypted and permuted as ``witness``
    says (``pbem.crypto.passes.reencrypt``), bound to ``context``. Deterministic: the same
    pass in the same context gives the same bytes."""
    ins, outs, joint = _inputs(before, after, joint_key)
    n = len(ins)
    psi = list(witness.permutation)
    if sorted(psi) != list(range(n)) or len(witness.rerandomizers) != n:
        raise DeckError(N_("the shuffle witness is not a permutation of this deck"))
    if n == 0:
        return b""
    h, hs = generators(n)
    mul, base, add = group.mul, group.mul_base, group.add
    statement = _statement(context, joint, ins, outs)
    nonce = _Nonces(witness.key, statement)

    r = [nonce(b"r", j) for j in range(n)]
    commitments: list[Point] = [group.IDENTITY] * n
    for i, j in enumerate(psi):
        commitments[j] = add(base(_scalar(r[j])), hs[i])
    flat_c = b"".join(commitments)
    u = _perm_challenges(statement, flat_c, n)
    u_perm = [u[j] for j in psi]

    r_hat = [nonce(b"rhat", i) for i in range(n)]
    chain, previous = [], h
    for i in range(n):
        previous = add(base(_scalar(r_hat[i])), mul(_scalar(u_perm[i]), previous))
        chain.append(previous)

    w1, w2, w3, w4 = (nonce(b"w%d" % k) for k in range(1, 5))
    w_hat = [nonce(b"what", i) for i in range(n)]
    w_prime = [nonce(b"wprime", i) for i in range(n)]
    wp = [_scalar(w) for w in w_prime]
    t3 = group.total([base(_scalar(w3)), *(mul(wp[i], hs[i]) for i in range(n))])
    t41 = group.total([mul(_scalar(L - w4), joint), *(mul(wp[i], outs[i].c2) for i in range(n))])
    t42 = group.total([base(_scalar(L - w4)), *(mul(wp[i], outs[i].c1) for i in range(n))])
    t_hat = [add(base(_scalar(w_hat[i])), mul(wp[i], chain[i - 1] if i else h)) for i in range(n)]
    c = _challenge(
        statement,
        flat_c,
        b"".join(chain),
        base(_scalar(w1)),
        base(_scalar(w2)),
        t3,
        t41,
        t42,
        b"".join(t_hat),
    )

    tail = [1] * n  # tail[i] = ∏_{k>i} u'_k
    for i in range(n - 2, -1, -1):
        tail[i] = tail[i + 1] * u_perm[i + 1] % L
    rerand = [int.from_bytes(x, "little") for x in witness.rerandomizers]
    s = [
        (w1 + c * sum(r)) % L,
        (w2 + c * sum(a * b for a, b in zip(r_hat, tail, strict=True))) % L,
        (w3 + c * sum(a * b for a, b in zip(r, u, strict=True))) % L,
        (w4 + c * sum(a * b for a, b in zip(rerand, u_perm, strict=True))) % L,
    ]
    s_hat = [(w_hat[i] + c * r_hat[i]) % L for i in range(n)]
    s_prime = [(w_prime[i] + c * u_perm[i]) % L for i in range(n)]
    scalars = [c, *s]
    return b"".join(
        [*map(_scalar, scalars), flat_c, *chain, *map(_scalar, s_hat), *map(_scalar, s_prime)]
    )


class _Reader:
    """Cuts a proof into its fields, naming the one that is malformed."""

    def __init__(self, proof: bytes) -> None:
        self._proof, self._at = proof, 0

    def take(self, count: int) -> list[bytes]:
        out = [self._proof[k : k + 32] for k in range(self._at, self._at + 32 * count, 32)]
        self._at += 32 * count
        return out

    def scalars(self, count: int, what: str) -> list[int]:
        out = []
        for k, raw in enumerate(self.take(count)):
            number = int.from_bytes(raw, "little")
            if number >= L:
                name = what if count == 1 else f"{what} {k}"
                raise DeckError(
                    N_("shuffle proof {name} is not a canonical scalar").format(name=name)
                )
            out.append(number)
        return out


def check(
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    joint_key: bytes,
    proof: bytes,
    context: bytes,
) -> None:
    """Accept ``proof`` that ``after`` is a re-encryption and permutation of ``before``
    under ``joint_key`` in ``context``, or raise ``DeckError`` saying what is wrong."""
    ins, outs, joint = _inputs(before, after, joint_key)
    n = len(ins)
    if not isinstance(proof, bytes) or len(proof) != proof_size(n):
        size = len(proof) if isinstance(proof, bytes) else type(proof).__name__
        raise DeckError(
            N_("a shuffle proof of {n} items is {proof_size} bytes, not {size}").format(
                n=n, proof_size=proof_size(n), size=size
            )
        )
    if n == 0:
        return
    read = _Reader(proof)
    c, s1, s2, s3, s4 = (read.scalars(1, name)[0] for name in ("c", "s1", "s2", "s3", "s4"))
    raw_c, raw_chain = read.take(n), read.take(n)
    s_hat, s_prime = read.scalars(n, "ŝ"), read.scalars(n, "s'")
    h, hs = generators(n)
    mul, base, add, total = group.mul, group.mul_base, group.add, group.total

    statement = _statement(context, joint, ins, outs)
    flat_c = b"".join(raw_c)
    u = _perm_challenges(statement, flat_c, n)
    minus_cu = [_scalar((L - c * uj % L) % L) for uj in u]
    sp = [_scalar(x) for x in s_prime]
    commitments, c_terms = [], []
    for j in range(n):
        point, term = group.mul_checked(minus_cu[j], raw_c[j], f"shuffle proof commitment {j}")
        commitments.append(point)
        c_terms.append(term)
    minus_c = _scalar((L - c) % L)
    chain, t_hat, previous = [], [], h
    for i in range(n):
        point, term = group.mul_checked(minus_c, raw_chain[i], f"shuffle proof chain {i}")
        t_hat.append(total([base(_scalar(s_hat[i])), mul(sp[i], previous), term]))
        chain.append(point)
        previous = point

    product = 1
    for uj in u:
        product = product * uj % L
    c_bar = group.sub(total(commitments), _sums[n])
    c_hat = group.sub(chain[-1], mul(_scalar(product), h))
    t1 = add(base(_scalar(s1)), mul(minus_c, c_bar))
    t2 = add(base(_scalar(s2)), mul(minus_c, c_hat))
    t3 = total([base(_scalar(s3)), *(mul(sp[i], hs[i]) for i in range(n)), *c_terms])
    minus_s4 = _scalar((L - s4) % L)
    t41 = total(
        [
            mul(minus_s4, joint),
            *(mul(sp[i], outs[i].c2) for i in range(n)),
            *(mul(minus_cu[j], ins[j].c2) for j in range(n)),
        ]
    )
    t42 = total(
        [
            base(minus_s4),
            *(mul(sp[i], outs[i].c1) for i in range(n)),
            *(mul(minus_cu[j], ins[j].c1) for j in range(n)),
        ]
    )
    expected = _challenge(statement, flat_c, b"".join(chain), t1, t2, t3, t41, t42, b"".join(t_hat))
    if expected != c:
        raise DeckError(
            N_(
                "the shuffle proof does not verify: the output is not a "
                "re-encryption and permutation of the input, or the proof was made "
                "for another pass"
            )
        )
