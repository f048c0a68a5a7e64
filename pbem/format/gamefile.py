"""The game file (architecture §3, ``schemas/format.md``): one JSON document holding the genesis,
the append-only log of signed steps and a cached copy of the current public state.

Bytes verified are bytes signed. A file is parsed strictly (``pbem.format.canonical``), each
signed object is validated by a strict model (no coercion: ``"0"`` and ``true`` are not the
integer 0; every field required, so no default is ever filled in), and the canonical bytes
that signatures and hashes cover are those of the JSON value *as received*. The model must
re-encode to exactly those bytes; any difference is refused, naming the step, the seat and
the field. Whether the values are right (signatures, links, rules) is checked by
``pbem.ledger.replay``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar, overload

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from pbem.format.canonical import (
    MAX_SAFE_INTEGER,
    OutOfRange,
    b64_pattern,
    canonical,
    canonical_object,
    canonical_with_and_without,
    fast_encoding,
    format_path,
    parse,
    plain_text,
    pretty,
)
from pbem.format.card import IdentityCard
from pbem.format.errors import Rejected
from pbem.format.i18n import N_
from pbem.format.limits import read_input
from pbem.format.notes import Notes

FORMAT = "pbem/1"
S = TypeVar("S", bound="Signed")
MAX_SEATS = 255


def _binary(size: int, *, optional: bool = False) -> Any:
    """A string of exactly ``size`` bytes in canonical base64url (or ``""`` if optional),
    with a message that says so rather than quoting the pattern."""
    exact = b64_pattern(size).pattern
    pattern = re.compile(f"({exact})?" if optional else exact)

    def check(value: str) -> str:
        if not pattern.fullmatch(value):
            raise ValueError(
                N_("must be {size} bytes in canonical base64url without padding").format(size=size)
            )
        return value

    return Annotated[
        str,
        Field(json_schema_extra={"pattern": f"^{pattern.pattern}$"}),
        AfterValidator(check),
    ]


GameId = _binary(16)
Key = _binary(32)
Sig = _binary(64)
Hex32 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256, lowercase hex")]
Seat = Annotated[int, Field(ge=0, le=MAX_SEATS - 1)]
Time = Annotated[
    int, Field(ge=0, le=MAX_SAFE_INTEGER, description="claimed time, UTC seconds since 1970")
]
Decision = Annotated[str, Field(pattern=r"^[a-z]+(:[A-Za-z0-9_.-]+)?$")]


class Strict(BaseModel):
    """No coercion, no extra fields, nothing changed after validation."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


class Signed(Strict):
    """An object carrying a signature. Its canonical bytes, whole (for the step hash) and
    without ``signature`` (what the signature covers), are computed once, from the value
    as received when it was decoded."""

    KIND: ClassVar[str] = ""
    _bytes: tuple[bytes, bytes] | None = PrivateAttr(default=None)

    def keep_bytes(self, value: dict[str, Any], *, plain: bool = False) -> None:
        """Remember the canonical bytes of ``value``, the JSON this object was read from
        (``plain``: parsed from ``plain_text``)."""
        self._bytes = canonical_with_and_without(value, "signature", plain=plain)

    def _encoded(self) -> tuple[bytes, bytes]:
        private = self.__pydantic_private__  # read directly: attribute access is slow here
        assert private is not None
        if private["_bytes"] is None:
            self.keep_bytes(self.model_dump(mode="json"))
        return private["_bytes"]

    def __eq__(self, other: object) -> bool:
        """Two signed objects are the same when their canonical bytes are (the cached
        encoding is not part of what they are)."""
        if not isinstance(other, Signed) or type(self) is not type(other):
            return NotImplemented
        return self.canonical_bytes() == other.canonical_bytes()

    def __hash__(self) -> int:
        return hash(self.canonical_bytes())

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Any:
        copy = super().model_copy(update=update, deep=deep)
        copy._bytes = None  # the bytes of the original are not the copy's
        return copy

    def signed_part(self) -> bytes:
        """The canonical bytes the signature covers: the object without its signature."""
        return self._encoded()[1]

    def canonical_bytes(self) -> bytes:
        return self._encoded()[0]

    def signing_kind(self) -> str:
        return self.KIND


class RulesetPin(Strict):
    """Which rules the game is played under; a file made under other rules is refused."""

    id: str
    version: str
    hash: Hex32


class EscrowSetup(Strict):
    """Who holds the escrowed seat secrets (architecture §11): ``others`` (every other seat,
    all of them together), ``referees`` (the cards listed, who do not play), or ``none``
    (then a call can only end the game). ``deal`` is the creator's own escrow (its join
    envelope is the genesis); every other seat's is in its join envelope."""

    mode: Literal["others", "referees", "none"]
    referees: list[IdentityCard] = Field(max_length=MAX_SEATS)
    deal: dict[str, Any] | None


class Genesis(Signed):
    """Signed by the creator; fixes the game id, rules, options and seats."""

    KIND: ClassVar[str] = "genesis"
    game: GameId
    ruleset: RulesetPin
    options: dict[str, Any]
    seats: list[IdentityCard] = Field(min_length=1, max_length=MAX_SEATS)
    creator: Seat
    head: Key = Field(description="the creator's beacon chain head (architecture §5)")
    deck_key: Key = Field(description="the creator's deck key for sealed decks (architecture §7)")
    deck_proof: Sig = Field(description="proof that the creator knows the deck key's secret")
    chain: int = Field(ge=1, le=1 << 20, description="length of every seat's beacon chain")
    deadline: int = Field(
        ge=0, le=MAX_SAFE_INTEGER, description="seconds each decision may take; 0: none"
    )
    escrow: EscrowSetup
    time: Time
    signature: Sig


class Entry(Signed):
    """A single signed step: a public turn action, a beacon supply, or a seat's shuffle pass
    of the sealed decks (each seat in turn, right after the join).

    ``preimage`` is the author's next beacon chain value: every signed entry reveals one, so
    the chain doubles as a counter of what the seat has signed."""

    kind: Literal["turn", "beacon", "shuffle"]
    game: GameId
    parent: Hex32
    seat: Seat
    time: Time
    body: dict[str, Any]
    preimage: Key
    notes: Notes = Field(description="notes and press (pbem.format.notes), usually none")
    signature: Sig

    def signing_kind(self) -> str:
        return self.kind


class Envelope(Signed):
    """One seat's signed part of a parallel decision. ``decision`` is ``join``,
    ``act:NAME`` (open actions), ``commit:NAME`` or ``reveal:NAME`` (sealed ones, §6),
    ``beacon`` (preimages for a draw that follows open actions),
    ``share`` (decryption shares for a reveal of sealed items, §7) or ``disclose`` (deck
    secrets at the end). A join envelope publishes the seat's chain head and deck key and
    reveals no preimage (``""``)."""

    KIND: ClassVar[str] = "envelope"
    kind: Literal["envelope"]
    game: GameId
    parent: Hex32
    decision: Decision
    seat: Seat
    time: Time
    body: dict[str, Any]
    preimage: _binary(32, optional=True)  # type: ignore[valid-type]
    notes: Notes = Field(description="notes and press (pbem.format.notes), usually none")
    signature: Sig


class Batch(Strict):
    """The envelopes of one parallel decision, sorted by seat, all naming ``parent``.
    Complete when every awaited seat has one; only then may a step follow it. A batch is
    not signed as a unit: each envelope is."""

    kind: Literal["batch"]
    parent: Hex32
    decision: Decision
    envelopes: list[Envelope] = Field(min_length=1)

    def canonical_bytes(self) -> bytes:
        return canonical_object(
            {
                "decision": canonical(self.decision),
                "envelopes": b"[" + b",".join(e.canonical_bytes() for e in self.envelopes) + b"]",
                "kind": b'"batch"',
                "parent": canonical(self.parent),
            }
        )


Step = Entry | Batch


class CachedState(Strict):
    """For readers in a hurry only: ``pbem verify`` recomputes it and compares the
    canonical bytes."""

    steps: int = Field(ge=0, le=MAX_SAFE_INTEGER)
    hash: Hex32
    public: dict[str, Any] | None


class GameFile(Strict):
    format: Literal["pbem/1"]
    genesis: Genesis
    steps: list[Entry | Batch]
    state: CachedState


def step_hash(step: Step | Genesis) -> str:
    """SHA-256 (hex) of the canonical bytes of a whole step, signatures included."""
    return hashlib.sha256(step.canonical_bytes()).hexdigest()


def signing_message(item: Signed) -> bytes:
    """``b"pbem/1/" + kind + b"\\0" + JCS(object without signature)`` (architecture §3)."""
    return b"pbem/1/" + item.signing_kind().encode() + b"\0" + item.signed_part()


def message_for(kind: str, fields: dict[str, Any]) -> bytes:
    """The signing message of an object not yet signed, from its fields."""
    return b"pbem/1/" + kind.encode() + b"\0" + canonical(fields)


# ----- decoding --------------------------------------------------------------------------


def _where(path: list[str | int], raw: Any) -> tuple[str, str]:
    """Where in a file ``path`` points, as people read it: the place (``step 4, seat 1
    (bea)``; the seat only when the file states it as a proper integer) and the field."""
    genesis = raw.get("genesis") if isinstance(raw, dict) else None
    seats = genesis.get("seats") if isinstance(genesis, dict) else None
    listed = seats if isinstance(seats, list) else []  # as written: maybe not even a list
    names = [c.get("name") if isinstance(c, dict) else None for c in listed]
    if path[:1] in (["genesis"], ["state"]):
        return ("genesis" if path[0] == "genesis" else "cached state"), _field(path[1:])
    if path[:1] != ["steps"] or len(path) < 2:
        return "file", _field(path)
    index, rest = path[1], path[2:]
    node: Any = raw["steps"][index]
    if rest[:1] == ["envelopes"] and len(rest) >= 2 and isinstance(rest[1], int):
        node = node["envelopes"][rest[1]] if isinstance(node, dict) else None
        rest = rest[2:]
    who = f"step {index + 1}"
    if isinstance(node, dict) and "seat" in node:
        seat = node["seat"]
        if type(seat) is int and 0 <= seat < len(names):
            who += f", seat {seat} ({names[seat]})"
        else:  # as written, so the reader sees what is wrong with it
            who += f", seat {json.dumps(seat)[:20]}"
    return who, _field(rest)


def _field(path: list[str | int]) -> str:
    return format_path(path) if path else ""


def _problem(path: list[str | int], raw: Any, message: str) -> Rejected:
    who, field = _where(path, raw)
    return Rejected(f"{who}: field {field}: {message}" if field else f"{who}: {message}")


def _validate(model: type[BaseModel], value: Any, path: list[str | int], raw: Any) -> Any:
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = [p for p in first["loc"] if p not in {"function-after[_fingerprint_matches()]"}]
        message = first["msg"].removeprefix("Value error, ")
        raise _problem([*path, *loc], raw, message) from exc


def _same_bytes(
    item: Signed, value: dict[str, Any], path: list[str | int], raw: Any, plain: bool
) -> None:
    """Keep the canonical bytes of the value as received (what signatures and hashes
    cover); the model must dump back to that value exactly. Strict validation already
    refuses coercion (so ``==`` cannot confuse ``true`` with ``1`` here); this catches any
    default or normalization a model might add."""
    if item.__dict__ == value:  # plain fields, as received: nothing to dump
        item.keep_bytes(value, plain=plain)
        return
    dumped = item.model_dump(mode="json")
    if dumped != value:
        key = next(k for k in sorted(dumped.keys() | value.keys()) if dumped.get(k) != value.get(k))
        raise _problem(
            [*path, key], raw, "does not re-encode as received (a coerced type or a default)"
        )
    item.keep_bytes(value, plain=plain)


def _step(value: Any, index: int, raw: Any, plain: bool) -> Step:
    path: list[str | int] = ["steps", index]
    kind = value.get("kind") if isinstance(value, dict) else None
    if not isinstance(kind, str):
        raise Rejected(
            N_("step {number}: field kind: not a string (turn, beacon, shuffle or batch)").format(
                number=index + 1
            )
        )
    if kind == "batch":
        batch = _validate(Batch, value, path, raw)
        for k, (env, env_value) in enumerate(zip(batch.envelopes, value["envelopes"], strict=True)):
            _same_bytes(env, env_value, [*path, "envelopes", k], raw, plain)
        return batch
    if kind in {"turn", "beacon", "shuffle"}:
        entry = _validate(Entry, value, path, raw)
        _same_bytes(entry, value, path, raw, plain)
        return entry
    shown = repr(kind) if len(kind) <= 40 else repr(kind[:40]) + "…"
    raise Rejected(
        N_("step {number}: unknown step kind {shown} (turn, beacon, shuffle or batch)").format(
            number=index + 1, shown=shown
        )
    )


class Steps(Sequence[Step]):
    """A file's steps as received: each validated when it is first read (with the same
    strict checks and one-line errors as ``decode``), and each recognisable by its hash
    without being validated, so that the store skips what it verified before."""

    def __init__(self, raw: dict[str, Any], what: str, plain: bool) -> None:
        self._raw, self._values, self._what, self._plain = raw, raw["steps"], what, plain
        self._decoded: dict[int, Step] = {}

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> list[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | list[Step]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if index < 0:
            index += len(self)
        if index not in self._decoded:
            try:
                self._decoded[index] = _step(self._values[index], index, self._raw, self._plain)
            except Rejected as exc:
                raise Rejected(N_("{what}: {exc}").format(what=self._what, exc=exc)) from exc
        return self._decoded[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Steps):
            return self._values == other._values
        return isinstance(other, list) and list(self) == other

    __hash__ = None  # type: ignore[assignment]

    @property
    def file_value(self) -> dict[str, Any]:
        """The whole file as it was parsed (kept as evidence when it is refused)."""
        return self._raw

    def matches(self, index: int, digest: bytes) -> bool:
        """Whether step ``index``, as received, has the SHA-256 ``digest`` of its
        canonical bytes. The C encoder is tried first: if its bytes hash to ``digest``,
        they are those canonical bytes, and the value received is the one they encode."""
        value = self._values[index]
        if hashlib.sha256(fast_encoding(value)).digest() == digest:
            return True
        return hashlib.sha256(canonical(value)).digest() == digest


def decode(data: bytes | str, *, what: str = "game file", lazy: bool = False) -> GameFile:
    """Parse untrusted bytes into a GameFile: strict JSON, the right format, the right
    shapes, re-encoding to the bytes received. Every failure is one line naming the first
    problem: the step, the seat and the field. With ``lazy``, the steps are validated as
    they are read (``Steps``)."""
    try:
        raw = parse(data, what=what)
    except OutOfRange as exc:
        who, field = _where(exc.path, _partial(data))
        raise Rejected(
            N_("{what}: {who}: integer out of range at {field} ({shown})").format(
                what=what, who=who, field=field, shown=exc.shown
            )
        ) from exc
    if not isinstance(raw, dict):
        raise Rejected(N_("{what} is not a JSON object").format(what=what))
    fmt = raw.get("format")
    if fmt != FORMAT:
        shown = repr(fmt) if isinstance(fmt, str) else "missing or not a string"
        raise Rejected(
            N_("{what} has format {shown}; this pbem reads {format!r} only").format(
                what=what, shown=shown, format=FORMAT
            )
        )
    extra = set(raw) - {"format", "genesis", "steps", "state"}
    missing = {"genesis", "steps", "state"} - set(raw)
    if extra or missing:
        problem = (
            N_("unknown field {field!r}").format(field=sorted(extra)[0])
            if extra
            else N_("no {field!r}").format(field=sorted(missing)[0])
        )
        raise Rejected(N_("{what}: {problem}").format(what=what, problem=problem))
    try:
        genesis = _validate(Genesis, raw["genesis"], ["genesis"], raw)
        _same_bytes(genesis, raw["genesis"], ["genesis"], raw, plain_text(data))
        if not isinstance(raw["steps"], list):
            raise Rejected(N_("field steps must be a list"))
        state = _validate(CachedState, raw["state"], ["state"], raw)
    except Rejected as exc:
        raise Rejected(N_("{what}: {exc}").format(what=what, exc=exc)) from exc
    steps: Any = Steps(raw, what, plain_text(data))
    if not lazy:
        steps = list(steps)
    return GameFile.model_construct(format=FORMAT, genesis=genesis, steps=steps, state=state)


def _partial(data: bytes | str) -> Any:
    """The file with its too-large integers as strings, only to name where they are."""
    try:
        return json.loads(data, parse_int=lambda text: int(text) if len(text) < 20 else text)
    except ValueError:
        return {}


def decode_item(data: bytes | str, *, what: str = "item") -> Entry | Envelope:
    """One signed entry or envelope on its own (as a mail recipient takes a step that
    extends a copy it has), parsed and checked as strictly as inside a file."""
    raw, plain = parse(data, what=what), plain_text(data)
    if isinstance(raw, dict) and raw.get("kind") == "envelope":
        env = _validate(Envelope, raw, [], raw)
        _same_bytes(env, raw, [], raw, plain)
        return env
    step = _step(raw, 0, {"steps": [raw]}, plain)
    if not isinstance(step, Entry):
        raise Rejected(
            N_("{what}: an entry or an envelope was expected, not a batch").format(what=what)
        )
    return step


def load_stored(model: type[S], data: bytes) -> S:
    """A signed object read back from the store, which keeps its canonical bytes as they
    were verified: validated again (cheap) and given those bytes, so its hash and signature
    are computed over exactly what was received."""
    value = json.loads(data)
    item = model.model_validate(value)
    item.keep_bytes(value, plain=plain_text(data))
    if item.canonical_bytes() != data:
        raise Rejected(
            N_("a stored {lower} is not in canonical form").format(lower=model.__name__.lower())
        )
    return item


def encode(game: GameFile) -> str:
    """The file's text: pretty, ASCII, short lines (it must survive a mail body)."""
    if hasattr(game.steps, "file_value"):  # as received, nothing re-encoded
        return pretty(game.steps.file_value)
    return pretty(game.model_dump(mode="json"))


def read(path: Path, *, lazy: bool = False) -> GameFile:
    """A game file from disk: a regular file within the size limit (``read_input``)."""
    return decode(read_input(path), what=str(path), lazy=lazy)
