"""Step bundles and step requests: what a game mail carries instead of the whole file
(``schemas/format.md`` §10).

A **bundle** is the steps a recipient lacks: the steps of a game from index ``index`` on,
following the step whose hash is ``after`` (the genesis's when ``index`` is 0). It carries
no genesis and no cached state: the recipient's store holds the game already, verifies the
steps against what it holds, and computes the state itself. A bundle whose ``after`` the
store does not hold is kept until the steps before it arrive, and the store asks for them
with a **request**: the game, the hash of the last step it holds (``have``) and how many
steps it holds (``index``). Whoever holds more answers with a bundle from there.

Both are JSON objects of their own media type, parsed as strictly as a game file (the same
parser, the same limits), and each names its game, so that a bundle is never applied to
another game: its steps are signed and name their parents, and the store checks every one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.format import gamefile
from pbem.format.canonical import b64_pattern, parse, pretty
from pbem.format.errors import Rejected
from pbem.format.gamefile import FORMAT
from pbem.format.i18n import N_

STEPS_TYPE = "application/vnd.pbem.steps+json"
REQUEST_TYPE = "application/vnd.pbem.request+json"
_HEX = frozenset("0123456789abcdef")


def _hash(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) != 64 or not set(value) <= _HEX:
        raise Rejected(N_("{what} must be a SHA-256 hash in lowercase hex").format(what=what))
    return value


def _index(value: Any, what: str) -> int:
    if type(value) is not int or not 0 <= value <= 1 << 24:
        raise Rejected(N_("{what} must be a whole number of steps").format(what=what))
    return value


def _fields(raw: Any, kind: str, keys: set[str], what: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise Rejected(N_("{what} is not a JSON object").format(what=what))
    if raw.get("format") != FORMAT or raw.get("kind") != kind:
        raise Rejected(N_("{what} is not a pbem/1 {kind} object").format(what=what, kind=kind))
    if set(raw) != keys:
        extra, missing = sorted(set(raw) - keys), sorted(keys - set(raw))
        raise Rejected(
            N_("{what}: unknown field {field}").format(what=what, field=extra[0])
            if extra
            else N_("{what}: no {field}").format(what=what, field=missing[0])
        )
    if not isinstance(raw["game"], str) or not b64_pattern(16).fullmatch(raw["game"]):
        raise Rejected(
            N_("{what}: game must be a game id (16 bytes in base64url)").format(what=what)
        )
    return raw


@dataclass(frozen=True)
class Bundle:
    """Steps ``index``, ``index + 1``… of ``game``, the first following step ``after``."""

    game: str
    after: str
    index: int
    steps: gamefile.Steps

    def encode(self) -> str:
        return encode_bundle(self.game, self.after, self.index, self.steps.file_value["steps"])


@dataclass(frozen=True)
class Request:
    """A store that holds ``index`` steps of ``game``, the last with hash ``have``, asks
    for what follows."""

    game: str
    have: str
    index: int

    def encode(self) -> str:
        value = {"format": FORMAT, "kind": "request", "game": self.game, "have": self.have}
        return pretty({**value, "index": self.index})


def encode_bundle(game: str, after: str, index: int, steps: list[Any]) -> str:
    """A bundle's text, from steps as JSON values (as the store keeps their bytes)."""
    value = {"format": FORMAT, "kind": "steps", "game": game, "after": after, "index": index}
    return pretty({**value, "steps": steps})


def decode_bundle(data: bytes | str, *, what: str = "step bundle") -> Bundle:
    """A bundle read strictly; its steps are validated as they are read (``Steps``)."""
    raw = _fields(parse(data, what=what), "steps", BUNDLE_KEYS, what)
    if not isinstance(raw["steps"], list) or not raw["steps"]:
        raise Rejected(N_("{what}: steps must be a list of at least one step").format(what=what))
    steps = gamefile.Steps({"steps": raw["steps"]}, what, gamefile.plain_text(data))
    return Bundle(
        raw["game"], _hash(raw["after"], f"{what}: after"), _index(raw["index"], what), steps
    )


def decode_request(data: bytes | str, *, what: str = "step request") -> Request:
    raw = _fields(parse(data, what=what), "request", REQUEST_KEYS, what)
    return Request(raw["game"], _hash(raw["have"], f"{what}: have"), _index(raw["index"], what))


BUNDLE_KEYS = {"format", "kind", "game", "after", "index", "steps"}
REQUEST_KEYS = {"format", "kind", "game", "have", "index"}
