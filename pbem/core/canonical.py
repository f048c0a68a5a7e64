"""Canonical JSON (RFC 8785) and strict parsing of untrusted JSON.

Everything that is signed or hashed is encoded with JCS, so a file re-indented by a mail
client still verifies. Parsing refuses what JCS cannot round-trip or what an attacker could
use to make two readers disagree: duplicate keys, floats, NaN, deep nesting, non-UTF-8.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import rfc8785

from pbem.core.errors import Rejected

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 64
_B64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")


def canonical(value: Any) -> bytes:
    """RFC 8785 bytes of a JSON value (ints, strings, bools, None, lists, dicts only)."""
    try:
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, TypeError, ValueError) as exc:
        raise Rejected(f"value cannot be canonically encoded: {exc}") from exc


def b64e(data: bytes) -> str:
    """Base64url without padding: how binary values appear in files."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64d(text: str, *, size: int | None = None, what: str = "value") -> bytes:
    """Decode base64url (padding optional); with ``size``, insist on that many bytes."""
    if not isinstance(text, str) or not _B64URL.fullmatch(text):
        raise Rejected(f"{what} is not base64url")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as exc:
        raise Rejected(f"{what} is not base64url") from exc
    if size is not None and len(data) != size:
        raise Rejected(f"{what} must be {size} bytes, not {len(data)}")
    return data


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise Rejected(f"duplicate key {key!r} in JSON")
        out[key] = value
    return out


def _no_float(text: str) -> Any:
    raise Rejected(f"number {text} is not an integer: floats are not allowed")


def _no_constant(text: str) -> Any:
    raise Rejected(f"{text} is not allowed in JSON")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _check_depth(text: str) -> None:
    """Refuse deep nesting before ``json`` recurses into it. Strings are cut out first (their
    brackets do not nest); the scan runs over the brackets alone."""
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_DEPTH:
            raise Rejected(f"JSON is nested deeper than {MAX_DEPTH} levels")


def parse(data: bytes | str, *, what: str = "file") -> Any:
    """Parse untrusted JSON strictly; every refusal is a one-line ``Rejected``."""
    if isinstance(data, bytes):
        if len(data) > MAX_FILE_BYTES:
            raise Rejected(f"{what} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Rejected(f"{what} is not UTF-8 (byte {exc.start})") from exc
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]
    _check_depth(text)
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_float=_no_float,
            parse_constant=_no_constant,
        )
    except json.JSONDecodeError as exc:
        raise Rejected(
            f"{what} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc


def pretty(value: Any) -> str:
    """The file layout: sorted keys, two-space indent, ASCII only, so that lines stay short
    (under 998 characters, for mail bodies) and any transport keeps the bytes."""
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=True) + "\n"
