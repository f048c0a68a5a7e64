"""Canonical JSON and strict parsing (architecture §3: RFC 8785, no floats)."""

from __future__ import annotations

import re

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.format.canonical import (
    _FAST,
    _in_fast_domain,
    b64d,
    b64e,
    canonical,
    canonical_with_and_without,
    parse,
    plain_text,
    pretty,
)
from pbem.format.errors import Rejected
from pbem.format.limits import MAX_FILE_BYTES

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(json_values)
def test_canonical_round_trips(value: object) -> None:
    encoded = canonical(value)
    assert parse(encoded) == value
    assert canonical(parse(encoded)) == encoded


@given(st.dictionaries(st.text(max_size=6), st.integers(-1000, 1000), max_size=6))
def test_canonical_ignores_key_order(value: dict[str, int]) -> None:
    reordered = dict(reversed(list(value.items())))
    assert canonical(reordered) == canonical(value)


@given(st.binary(max_size=80))
def test_base64url_round_trips(data: bytes) -> None:
    text = b64e(data)
    assert "=" not in text and "+" not in text and "/" not in text
    assert b64d(text) == data


def test_canonical_is_rfc8785() -> None:
    assert canonical({"b": [1, "é"], "a": None}) == '{"a":null,"b":[1,"é"]}'.encode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"a": 1, "a": 2}', "duplicate key 'a'"),
        (b"[1.5]", "floats are not allowed"),
        (b"[1e3]", "floats are not allowed"),
        (b"[NaN]", "NaN is not allowed"),
        (b"[" * 65 + b"]" * 65, "nested deeper than 64"),
        (b'{"a": "\xff"}', "not UTF-8 (byte 7)"),
        (b'{"a": ', "not valid JSON (line 1, column 7"),
    ],
)
def test_strict_parse_rejects(data: bytes, message: str) -> None:
    with pytest.raises(Rejected, match=re.escape(message)):
        parse(data)


def test_strict_parse_rejects_huge_input() -> None:
    with pytest.raises(Rejected, match="larger than 64 MiB"):
        parse(b" " * (MAX_FILE_BYTES + 1))


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert parse('["' + "[" * 200 + '"]') == ["[" * 200]


def test_b64d_checks_size_and_alphabet() -> None:
    with pytest.raises(Rejected, match="must be 32 bytes"):
        b64d(b64e(b"x"), size=32)
    with pytest.raises(Rejected, match="not base64url"):
        b64d("a+b/")


# Issue 13: the fast path (the C encoder) is RFC 8785 on the whole domain it is used for.
any_text = st.text(st.characters(codec="utf-8"), max_size=12)  # every scalar value, no surrogate
format_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | any_text,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(any_text, inner, max_size=5),
    max_leaves=40,
)


@settings(max_examples=2000)
@given(format_values)
def test_the_fast_path_is_rfc8785_wherever_it_is_taken(value: object) -> None:
    if _in_fast_domain(value):
        assert _FAST.encode(value).encode("utf-8") == rfc8785.dumps(value)
    assert canonical(value) == rfc8785.dumps(value)


ascii_keyed = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | any_text,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(st.characters(codec="ascii"), max_size=8), inner, max_size=5)
    ),
    max_leaves=40,
)


@given(ascii_keyed)
def test_ascii_keys_are_always_in_the_fast_domain(value: object) -> None:
    """So the fast path is taken for every item of the format (whose keys are ASCII)."""
    assert _in_fast_domain(value)


@settings(max_examples=1000)
@given(
    st.dictionaries(
        st.sampled_from(["", "a", "seat", "signature", "signatures", "time", "~"]) | any_text,
        format_values,
        max_size=6,
    )
)
def test_a_signed_item_whole_and_signed_part_are_each_rfc8785(value: dict[str, object]) -> None:
    whole, part = canonical_with_and_without(value, "signature")
    assert whole == rfc8785.dumps(value)
    assert part == rfc8785.dumps({k: v for k, v in value.items() if k != "signature"})


@given(format_values)
def test_plain_text_parses_to_the_fast_domain(value: object) -> None:
    text = pretty(value)  # the file layout: ASCII, escapes as \\u
    if plain_text(text):
        assert _in_fast_domain(parse(text))


def test_outside_the_fast_domain_the_reference_encoder_decides() -> None:
    value = {"é": 1, "e": [2**53 - 1, "\U0001f600"], "\u20ac": None}
    assert not _in_fast_domain(value)
    assert canonical(value) == rfc8785.dumps(value)
    assert not plain_text(pretty(value)) and plain_text('{"a": "b"}')
