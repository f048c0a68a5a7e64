"""Draw streams and beacon chains (architecture §5)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from pbem.crypto.randomness import Rng, chain, chain_step, draw_value


def test_same_seed_same_stream_other_seed_other_stream() -> None:
    a, b, c = Rng(b"s" * 32), Rng(b"s" * 32), Rng(b"t" * 32)
    draws_a = [a.below(1000) for _ in range(50)]
    assert draws_a == [b.below(1000) for _ in range(50)]
    assert draws_a != [c.below(1000) for _ in range(50)]


@given(st.integers(1, 10**12), st.binary(min_size=1, max_size=32))
def test_below_stays_in_range(n: int, seed: bytes) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))


def test_below_is_roughly_uniform() -> None:
    rng = Rng(b"uniform")
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(850 < c < 1150 for c in counts.values())


@given(st.lists(st.integers(), max_size=30), st.binary(max_size=8))
def test_shuffle_is_a_permutation(items: list[int], seed: bytes) -> None:
    assert sorted(Rng(seed).shuffle(items)) == sorted(items)


def test_forks_are_independent() -> None:
    rng = Rng(b"x")
    assert [rng.fork("a").below(10**9) for _ in range(3)] != [
        rng.fork("b").below(10**9) for _ in range(3)
    ]


def test_chain_links_back_to_its_head() -> None:
    values = chain(b"seed", 50)
    assert len(values) == 50
    for k in range(1, 50):
        assert chain_step(values[k]) == values[k - 1]
    assert chain_step(b"seed") == values[-1]


def test_draw_value_separates_parts() -> None:
    assert draw_value(b"ab", b"c") != draw_value(b"a", b"bc")
