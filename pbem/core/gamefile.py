"""The game file (DESIGN §3): one JSON document holding the genesis, the append-only log of
signed steps and a cached copy of the current public state.

These models only describe shapes; what the values must satisfy (signatures, links, rules)
is checked by ``pbem.core.replay``. Binary values are base64url strings, hashes lowercase
hex, and there are no floats anywhere.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pbem.core.canonical import canonical, parse, pretty
from pbem.core.errors import Rejected, UsageError
from pbem.core.keys import IdentityCard

FORMAT = "pbem/1"

Hex32 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
B64 = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]*$")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RulesetPin(Strict):
    """Which rules the game is played under; a file made under other rules is refused."""

    id: str
    version: str
    hash: Hex32


class Genesis(Strict):
    """Signed by the creator; fixes the game id, rules, options and seats."""

    game: B64
    ruleset: RulesetPin
    options: dict[str, Any]
    seats: list[IdentityCard]
    creator: int
    head: B64 = Field(description="the creator's beacon chain head (DESIGN §5)")
    deck_key: B64 = Field(description="the creator's deck key for sealed decks (DESIGN §7)")
    deck_proof: B64 = Field(description="proof that the creator knows the deck key's secret")
    chain: int = Field(description="length of every seat's beacon hash chain")
    signature: B64 = ""


class Entry(Strict):
    """A single signed step: a public turn action, a beacon supply, or a seat's shuffle pass
    of the sealed decks (each seat in turn, right after the join).

    ``preimage`` is the author's next beacon chain value: every signed entry reveals one, so
    the chain doubles as a counter of what the seat has signed."""

    kind: Literal["turn", "beacon", "shuffle"]
    game: B64
    parent: Hex32
    seat: int
    body: dict[str, Any]
    preimage: B64
    signature: B64 = ""


class Envelope(Strict):
    """One seat's signed part of a parallel decision. ``decision`` is ``join``,
    ``act:NAME`` (open actions), ``commit:NAME`` or ``reveal:NAME`` (sealed ones, §6),
    ``beacon`` (preimages for a draw that follows open actions),
    ``share`` (decryption shares for a reveal of sealed items, §7) or ``disclose`` (deck
    secrets at the end). A join envelope publishes the seat's chain head and deck key and
    reveals no preimage."""

    kind: Literal["envelope"] = "envelope"
    game: B64
    parent: Hex32
    decision: str
    seat: int
    body: dict[str, Any]
    preimage: B64 = ""
    signature: B64 = ""


class Batch(Strict):
    """The envelopes of one parallel decision, sorted by seat, all naming ``parent``.
    Complete when every awaited seat has one; only then may a step follow it."""

    kind: Literal["batch"] = "batch"
    parent: Hex32
    decision: str
    envelopes: list[Envelope]


Step = Annotated[Entry | Batch, Field(discriminator="kind")]


class CachedState(Strict):
    """For readers in a hurry only: ``pbem verify`` recomputes and compares it."""

    steps: int
    hash: Hex32
    public: dict[str, Any] | None


class GameFile(Strict):
    format: str
    genesis: Genesis
    steps: list[Step]
    state: CachedState | None = None


def step_hash(step: Entry | Batch | Genesis) -> str:
    """SHA-256 of the canonical bytes of a whole step (signatures included)."""
    return hashlib.sha256(canonical(step.model_dump(mode="json"))).hexdigest()


def signed_part(entry: Entry | Envelope | Genesis) -> bytes:
    """The canonical bytes a signature covers: the entry without its signature."""
    data = entry.model_dump(mode="json")
    data.pop("signature")
    return canonical(data)


def signing_message(kind: str, entry: Entry | Envelope | Genesis) -> bytes:
    """``b"pbem/1/" + kind + b"\\0" + JCS(entry without signature)`` (DESIGN §3)."""
    return b"pbem/1/" + kind.encode() + b"\0" + signed_part(entry)


def decode(data: bytes | str, *, what: str = "game file") -> GameFile:
    """Parse untrusted bytes into a GameFile: strict JSON, the right format, the right shapes.
    Every failure is one line naming the first problem."""
    raw = parse(data, what=what)
    if not isinstance(raw, dict):
        raise Rejected(f"{what} is not a JSON object")
    fmt = raw.get("format")
    if fmt != FORMAT:
        raise Rejected(f"{what} has format {fmt!r}; this pbem reads {FORMAT!r} only")
    try:
        return GameFile.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise Rejected(f"{what} is malformed at {where}: {first['msg']}") from exc


def encode(game: GameFile) -> str:
    """The file's text: pretty, ASCII, short lines (it must survive a mail body)."""
    return pretty(game.model_dump(mode="json", exclude_none=False))


def read(path: Path) -> GameFile:
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise UsageError(f"{path}: no such file") from exc
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from exc
    return decode(data, what=str(path))
