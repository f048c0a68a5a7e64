"""Canonical JSON (RFC 8785) and strict parsing of untrusted JSON.

Everything that is signed or hashed is encoded with JCS, so a file re-indented by a mail
client still verifies. Parsing refuses what JCS cannot round-trip or what an attacker could
use to make two readers disagree: duplicate keys, floats, NaN, integers outside JCS's exact
range (|n| > 2^53 − 1, and digit strings too long to be one), deep nesting, non-UTF-8.

Encoding has a fast path: for values whose object keys are all ASCII and whose integers lie
in the exact range (everything the game format holds), the C ``json`` encoder with sorted
keys and no spaces writes exactly the RFC 8785 bytes (``tests/core/test_canonical.py``
proves it on random values). Anything else goes to the ``rfc8785`` package.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

import rfc8785

from pbem.format.errors import Rejected
from pbem.format.i18n import N_
from pbem.format.limits import MAX_DEPTH, OverLimit, check_json

MAX_SAFE_INTEGER = 2**53 - 1
"""JCS writes numbers as IEEE doubles: beyond this an integer is no longer exact."""
_MAX_DIGITS = len(str(MAX_SAFE_INTEGER))
_B64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")
_FAST = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class OutOfRange(OverLimit):
    """An integer outside ±(2^53 − 1) in parsed JSON; ``path`` says where (keys and
    indexes from the top), so callers can name the step and the field. Refused on its
    digit string, before any conversion (``parse_int``)."""

    def __init__(self, path: list[str | int], text: str, what: str) -> None:
        self.shown = text if len(text) <= 24 else f"{text[:12]}… ({len(text)} digits)"
        super().__init__(f"{what}: integer out of range at {format_path(path)} ({self.shown})")
        self.path = path


def format_path(path: list[str | int]) -> str:
    """``["steps", 4, "body"]`` as ``steps[4].body``: how errors point into a file."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "the top level"


def _in_fast_domain(value: Any) -> bool:
    """Whether the C encoder's bytes are the RFC 8785 bytes of ``value``: only JSON types,
    ASCII keys (sorted the same by code point and by UTF-16 unit), exact integers. Floats
    are refused outright: the format has none."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                return False
        elif kind is dict:
            for key in item:
                if type(key) is not str or not key.isascii():
                    return False
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif kind is float:
            raise Rejected(
                N_("value cannot be canonically encoded: float {item!r}").format(item=item)
            )
        else:
            return False
    return True


def canonical(value: Any) -> bytes:
    """RFC 8785 bytes of a JSON value (ints, strings, bools, None, lists, dicts only)."""
    return _encode(value, _in_fast_domain(value))


def plain_text(data: bytes | str) -> bool:
    """Whether every string ``parse`` reads from ``data`` is ASCII: the text is ASCII and
    escapes nothing as ``\\u`` (the only way JSON text writes another character). Then
    every value parsed from it is in the C encoder's domain (``parse`` has already refused
    floats and inexact integers), and the scan of ``canonical`` is not needed."""
    marker = b"\\u" if isinstance(data, bytes) else "\\u"
    return data.isascii() and marker not in data  # type: ignore[operator]


def canonical_with_and_without(
    value: dict[str, Any], key: str, *, plain: bool = False
) -> tuple[bytes, bytes]:
    """The RFC 8785 bytes of an object, and of the same object without ``key``: a signed
    item's whole (its hash) and its signed part (without ``signature``), from one scan of
    the value (none when ``plain``: parsed from ``plain_text``) and two runs of the C
    encoder."""
    fast = plain or _in_fast_domain(value)
    without = _encode({k: v for k, v in value.items() if k != key}, fast)
    if not fast or key not in value:
        return _encode(value, fast), without
    # Splice the member in where its key sorts (ASCII keys: code point order is RFC 8785's).
    member = b'"' + key.encode("ascii") + b'":' + _encode(value[key], fast)
    after = {k: v for k, v in value.items() if k > key}
    tail = b"}" if not after else b"," + _encode(after, fast)[1:]
    if len(value) == 1:
        return b"{" + member + b"}", without
    if len(after) == len(value) - 1:  # the first key
        return b"{" + member + b"," + without[1:], without
    return without[: len(without) - len(tail)] + b"," + member + tail, without


def _encode(value: Any, fast: bool) -> bytes:
    if fast:
        try:
            return _FAST.encode(value).encode("utf-8")
        except UnicodeEncodeError as exc:  # a lone surrogate: not a Unicode string
            raise Rejected(N_("value cannot be canonically encoded: invalid Unicode")) from exc
    try:
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, TypeError, ValueError) as exc:
        raise Rejected(N_("value cannot be canonically encoded: {exc}").format(exc=exc)) from exc


def fast_encoding(value: Any) -> bytes:
    """The C encoder's bytes (sorted keys, no spaces, UTF-8): the canonical bytes for any
    value in the fast domain, and injective on every JSON value, so that equal bytes mean
    equal values (the store compares hashes of these before anything slower)."""
    try:
        return _FAST.encode(value).encode("utf-8")
    except (UnicodeEncodeError, TypeError, ValueError):
        return b""


def canonical_object(members: dict[str, bytes]) -> bytes:
    """The RFC 8785 bytes of an object whose (ASCII) keys map to the canonical bytes of
    their values: lets a signed item be encoded once and both its signed part (without
    ``signature``) and its whole be assembled from the same pieces."""
    return (
        b"{"
        + b",".join(b'"' + key.encode("ascii") + b'":' + members[key] for key in sorted(members))
        + b"}"
    )


def b64e(data: bytes) -> str:
    """Base64url without padding: how binary values appear in files."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64_pattern(size: int) -> re.Pattern[str]:
    """Exactly ``size`` bytes in canonical base64url without padding: the last character
    may only carry the bits that are left over, the rest zero."""
    full, rest = divmod(size * 8, 6)
    last = {0: "", 2: "[AQgw]", 4: "[AEIMQUYcgkosw048]"}[rest]
    return re.compile(f"[A-Za-z0-9_-]{{{full}}}{last}")


_SIZED = {size: b64_pattern(size) for size in (12, 16, 32, 64)}
_TO_STANDARD = bytes.maketrans(b"-_", b"+/")
_PAD = (b"", b"", b"==", b"=")  # by length mod 4 (1 cannot be canonical)


def b64d(text: str, *, size: int | None = None, what: str = "value") -> bytes:
    """Decode canonical base64url without padding; with ``size``, insist on that many bytes.
    Only the one encoding of each byte string is accepted (no padding, zero trailing bits),
    so a value cannot be rewritten into another string that decodes the same."""
    pattern = _SIZED.get(size) if size is not None else None
    if pattern is not None and isinstance(text, str) and pattern.fullmatch(text):
        return binascii.a2b_base64(
            text.encode("ascii").translate(_TO_STANDARD) + _PAD[len(text) % 4]
        )
    if not isinstance(text, str) or not _B64URL.fullmatch(text):
        raise Rejected(N_("{what} is not base64url").format(what=what))
    bare = text.rstrip("=")
    if len(bare) % 4 == 1:
        raise Rejected(N_("{what} is not base64url (truncated)").format(what=what))
    data = base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    if b64e(data) != text:
        raise Rejected(
            N_("{what} is not canonical base64url (no padding, zero trailing bits)").format(
                what=what
            )
        )
    if size is not None and len(data) != size:
        raise Rejected(
            N_("{what} must be {size} bytes, not {count}").format(
                what=what, size=size, count=len(data)
            )
        )
    return data


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise Rejected(N_("duplicate key {key!r} in JSON").format(key=key))
            seen.add(key)
    return out


class _BigInt:
    """Stands for an integer too large to be exact, while its place is searched for."""

    def __init__(self, text: str) -> None:
        self.text = text


class _TooBig(Exception):
    pass


def _exact_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS or abs(value := int(text)) > MAX_SAFE_INTEGER:
        raise _TooBig
    return value


def _mark_int(text: str) -> int | _BigInt:
    try:
        return _exact_int(text)
    except _TooBig:
        return _BigInt(text)


def _no_float(text: str) -> Any:
    raise Rejected(
        N_("number {text} is not an integer: floats are not allowed").format(text=text[:40])
    )


def _no_constant(text: str) -> Any:
    raise Rejected(N_("{text} is not allowed in JSON").format(text=text))


def _loads(text: str, parse_int: Any) -> Any:
    return json.loads(
        text,
        object_pairs_hook=_no_duplicates,
        parse_float=_no_float,
        parse_int=parse_int,
        parse_constant=_no_constant,
    )


def _check_depth(value: Any) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` (later readers recurse into values)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise Rejected(
                N_("JSON is nested deeper than {max_depth} levels").format(max_depth=MAX_DEPTH)
            )
        children = item.values() if type(item) is dict else item
        stack.extend((v, depth + 1) for v in children if type(v) is dict or type(v) is list)


def _find_big(value: Any, path: list[str | int], what: str) -> None:
    """Raise ``OutOfRange`` at the first too-large integer (marked by ``_mark_int``)."""
    if isinstance(value, _BigInt):
        raise OutOfRange(path, value.text, what)
    if isinstance(value, dict | list):
        pairs = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in pairs:
            _find_big(item, [*path, key], what)


def parse(data: bytes | str, *, what: str = "file") -> Any:
    """Parse untrusted JSON strictly; every refusal is a one-line ``Rejected`` (an
    ``OutOfRange`` for a too-large integer, naming where it is; an ``OverLimit`` for text
    too large or too deep, refused before parsing: ``check_json`` measures the depth of
    balanced text exactly, so the parsed value is not walked again)."""
    check_json(data, what)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Rejected(
                N_("{what} is not UTF-8 (byte {start})").format(what=what, start=exc.start)
            ) from exc
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        try:
            value = _loads(text, _exact_int)
        except _TooBig:
            value = _loads(text, _mark_int)  # again, to say where the integer is
            _check_depth(value)
            _find_big(value, [], what)
    except json.JSONDecodeError as exc:
        raise Rejected(
            N_("{what} is not valid JSON (line {lineno}, column {colno}: {msg})").format(
                what=what, lineno=exc.lineno, colno=exc.colno, msg=exc.msg
            )
        ) from exc
    except RecursionError as exc:  # unbalanced text deeper than the stack: never JSON
        raise OverLimit(
            N_("{what}: JSON is nested deeper than {max_depth} levels").format(
                what=what, max_depth=MAX_DEPTH
            )
        ) from exc
    except OutOfRange:
        raise  # its reader says where, in the file's own terms (``gamefile.decode``)
    except Rejected as exc:  # a duplicate key, a float: which file, with several to read
        raise Rejected(N_("{what}: {exc}").format(what=what, exc=exc)) from exc
    return value


def value_end(text: str, what: str) -> int:
    """Where the JSON value at the start of ``text`` ends (text may follow it, as after a
    game file pasted in a mail), found without converting a number or trusting the depth:
    the value itself is then read by ``parse``. ``Rejected`` if there is no whole value."""
    check_json(text, what)
    scanner = json.JSONDecoder(parse_int=_mark_int, parse_float=str, parse_constant=str)
    try:
        return scanner.raw_decode(text)[1]
    except json.JSONDecodeError as exc:
        raise Rejected(
            N_("{what} is truncated or damaged (line {lineno})").format(
                what=what, lineno=exc.lineno
            )
        ) from exc
    except RecursionError as exc:  # unbalanced text deeper than the stack
        raise OverLimit(
            N_("{what}: JSON is nested deeper than {max_depth} levels").format(
                what=what, max_depth=MAX_DEPTH
            )
        ) from exc


def pretty(value: Any) -> str:
    """The file layout: sorted keys, one-space indent, ASCII only, so that lines stay short
    (under 998 characters, for mail bodies) and any transport keeps the bytes."""
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=True) + "\n"
