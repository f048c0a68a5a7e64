"""The verified position of a game after some prefix of its steps, and how it takes one more.

This is the one place that decides whether a step is valid. A step is accepted only if its
signature, its hash link, its author (a seat that was awaited), its beacon preimage, and
what its kind requires (``pbem.core.steps``: the action under the rules, a sealed opening, a
decryption share, a shuffle pass) all check; the first failure is reported with the step,
the seat and the reason. A position holds only what checking the next step needs, never
the whole history, so it can be saved as a checkpoint (``pbem.core.checkpoint``) and
continued later: the store verifies only what it has not verified before.

Steps are numbered from 1 wherever people read them (``step 31`` is the 31st step after the
genesis, ``steps[30]`` in the file); the genesis is step 0.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from pydantic import BaseModel, ValidationError

from pbem.core.canonical import b64d, canonical
from pbem.core.errors import Rejected
from pbem.core.gamefile import Batch, CachedState, Entry, Envelope, Genesis, Signed, signing_message
from pbem.core.gamefile import step_hash as hash_of
from pbem.core.notes import check_notes
from pbem.core.randomness import Rng, chain_step, draw_value
from pbem.core.rules import (
    Chance,
    Over,
    Parallel,
    Reshuffle,
    Result,
    Reveal,
    RulesError,
    Ruleset,
    Turn,
)
from pbem.core.tabletop import Tabletop


class StepRejected(Rejected):
    """A step failed a check. The message names the step (from 1), the seat and the reason;
    ``index`` is the step's place in the file (from 0)."""

    def __init__(self, index: int, seat: int | None, names: list[str], reason: str) -> None:
        who = (
            f", seat {seat} ({names[seat]})" if seat is not None and 0 <= seat < len(names) else ""
        )
        super().__init__(f"step {index + 1}{who}: {reason}")
        self.index = index
        self.seat = seat
        self.reason = reason


@dataclass(frozen=True)
class Awaiting:
    """What the next signature must be.

    ``kind``: ``batch`` (envelopes from ``seats``, for ``decision``), ``turn`` (one entry by
    ``seats[0]``), ``beacon`` (a supply by ``seats[0]``), ``shuffle`` (a pass by
    ``seats[0]``), or ``over``. ``parent`` is the hash the next entry or envelope must name."""

    kind: str
    seats: tuple[int, ...]
    parent: str
    decision: str = ""
    prompt: str = ""


@dataclass
class Record:
    """One verified step, for ``pbem log`` and mail bodies. ``index`` counts from 0, as in
    the file; people read ``index + 1``."""

    index: int
    kind: str
    seats: list[int]
    summary: str
    hash: str
    consequences: list[str] = field(default_factory=list)
    """What followed by itself (``Ruleset.consequences``): coins paid out, cards handed on."""


@dataclass
class Position:
    """The verified game after ``count`` steps (the last may be a batch still open)."""

    rules: Ruleset
    genesis: Genesis
    genesis_hash: str
    names: list[str]
    count: int = 0
    """Steps taken, an open batch included."""
    signatures: int = 1
    """Signatures verified: the genesis, every entry and every envelope."""
    state: BaseModel | None = None
    beacons: list[bytes] = field(default_factory=list)
    """Each seat's last revealed chain link (its head at first)."""
    revealed: list[int] = field(default_factory=list)
    heads: list[bytes] = field(default_factory=list)
    awaiting: Awaiting | None = None
    result: Result | None = None
    table: Tabletop | None = None
    """Deck keys, sealed decks, shares and shuffle passes (DESIGN §7)."""
    reveal: Reveal | None = None
    """The pending reveal of sealed items, while its shares are collected."""
    final: Result | None = None
    """The result, once the rules say the game is over, until the secrets are disclosed."""
    reshuffle: Reshuffle | None = None
    author: int | None = None
    """The seat of the last single entry whose consequences may need a beacon."""
    setup_draw: bool = False
    commit: Batch | None = None
    """The latest complete commit batch: the reveal batch opens it."""
    batch: Batch | None = None
    """The batch being collected, with the envelopes verified so far."""
    last: Entry | Batch | None = None
    """The last step taken (complete, or the open batch)."""
    sealed: dict[int, Any] = field(default_factory=dict)
    """Actions opened in the reveal batch being collected, by seat."""
    shares: dict[int, list[bytes]] = field(default_factory=dict)
    secrets: dict[int, bytes] = field(default_factory=dict)
    """Deck secrets disclosed at the end, by seat."""
    records: list[Record] = field(default_factory=list)
    """The steps verified since this position was started or restored."""
    taken: list[tuple[int, Entry | Envelope]] = field(default_factory=list)
    """The entries and envelopes verified since then, with the index of their step."""

    # ----- construction -----------------------------------------------------------------

    @classmethod
    def start(cls, genesis: Genesis, rules: Ruleset) -> Position:
        """Check the genesis and await the join batch."""
        names = [card.name for card in genesis.seats]
        pos = cls(rules=rules, genesis=genesis, genesis_hash=hash_of(genesis), names=names)
        pos._check_genesis()
        seats = len(genesis.seats)
        pos.beacons = [b""] * seats
        pos.heads = [b""] * seats
        pos.revealed = [0] * seats
        pos.heads[genesis.creator] = pos.beacons[genesis.creator] = b64d(genesis.head)
        keys = [b""] * seats
        keys[genesis.creator] = Tabletop.check_key(
            genesis.game, genesis.creator, genesis.deck_key, genesis.deck_proof
        )
        pos.table = Tabletop(genesis.game, keys)
        others = tuple(s for s in range(seats) if s != genesis.creator)
        pos.awaiting = Awaiting("batch", others, pos.genesis_hash, "join")
        return pos

    def _check_genesis(self) -> None:
        g = self.genesis
        pin = g.ruleset
        if pin.id != self.rules.id:
            raise Rejected(f"genesis: the game is {pin.id!r}, not {self.rules.id!r}")
        if pin.version != self.rules.version or pin.hash != self.rules.content_hash():
            raise Rejected(
                f"genesis: the game was made under {pin.id} {pin.version} (rules hash "
                f"{pin.hash[:12]}), but this pbem has {self.rules.id} {self.rules.version} "
                f"(rules hash {self.rules.content_hash()[:12]}); use the pbem release the "
                "game was created with"
            )
        n = len(g.seats)
        if not self.rules.min_seats <= n <= self.rules.max_seats:
            raise Rejected(
                f"genesis: {pin.id} takes {self.rules.min_seats} to {self.rules.max_seats} "
                f"seats, not {n}"
            )
        if len({card.sign_key for card in g.seats}) != n:
            raise Rejected("genesis: two seats share one identity")
        if not 0 <= g.creator < n:
            raise Rejected(f"genesis: creator seat {g.creator} does not exist")
        verify_signature(
            g.seats[g.creator].sign_key, g, "genesis: the creator's signature does not verify"
        )

    # ----- what the game awaits --------------------------------------------------------------

    @property
    def head_hash(self) -> str:
        """Hash of the last complete step (the genesis at first)."""
        return self.awaiting.parent if self.awaiting else self.genesis_hash

    @property
    def open_batch(self) -> Batch | None:
        """The last step when it is a batch still collecting envelopes."""
        return self.batch

    @property
    def game_bytes(self) -> bytes:
        return b64d(self.genesis.game)

    def remaining(self) -> tuple[int, ...]:
        """Seats whose signature the game waits for now."""
        if self.awaiting is None or self.awaiting.kind == "over":
            return ()
        if self.awaiting.kind == "batch" and self.batch is not None:
            done = {env.seat for env in self.batch.envelopes}
            return tuple(s for s in self.awaiting.seats if s not in done)
        return self.awaiting.seats

    # ----- adding steps -------------------------------------------------------------------------

    def add(self, step: Entry | Batch) -> None:
        """Verify and apply one whole step (a batch may be incomplete only if it is last)."""
        from pbem.core.steps import add_entry

        if self.batch is not None:
            raise StepRejected(self.count, None, self.names, "follows a batch that is not complete")
        if isinstance(step, Entry):
            add_entry(self, step)
            return
        seats = [e.seat for e in step.envelopes]
        if not seats:
            raise StepRejected(self.count, None, self.names, "empty batch")
        if seats != sorted(set(seats)):
            raise StepRejected(
                self.count,
                None,
                self.names,
                "envelopes are not sorted by seat, or a seat appears twice",
            )
        aw = self.awaiting
        assert aw is not None
        if aw.kind == "batch":
            if step.decision != aw.decision:
                raise StepRejected(
                    self.count,
                    None,
                    self.names,
                    f"batch is for {step.decision!r}, awaited {aw.decision!r}",
                )
            if step.parent != aw.parent:
                raise StepRejected(
                    self.count, None, self.names, "batch names the wrong parent (broken hash link)"
                )
        for env in step.envelopes:
            self.add_envelope(env)

    def add_envelope(self, env: Envelope) -> None:
        """Verify one envelope of the open batch (opening the batch if none is open)."""
        from pbem.core.steps import complete_batch, envelope_body

        opening = self.batch is None
        seat = env.seat
        if opening:
            index = self.count
            aw = self.expect("batch", index, seat)
            batch = Batch.model_construct(
                kind="batch", parent=aw.parent, decision=aw.decision, envelopes=[]
            )
        else:
            index, aw, batch = self.count - 1, self.awaiting, self.batch
            assert aw is not None and batch is not None
            if seat in {e.seat for e in batch.envelopes}:
                raise StepRejected(
                    index, seat, self.names, "a second envelope by the same seat in one batch"
                )
            if seat not in aw.seats:
                raise StepRejected(
                    index, seat, self.names, f"this seat is not awaited for {aw.decision!r}"
                )
        self.check_signed(index, env, aw)
        if env.decision != aw.decision:
            raise StepRejected(
                index,
                seat,
                self.names,
                f"envelope is for {env.decision!r}, awaited {aw.decision!r}",
            )
        try:
            envelope_body(self, batch, env)
        except (Rejected, RulesError, ValidationError) as exc:
            raise StepRejected(index, seat, self.names, reason_of(exc)) from exc
        envelopes = sorted([*batch.envelopes, env], key=lambda e: e.seat)
        self.batch = self.last = Batch.model_construct(
            kind="batch", parent=batch.parent, decision=batch.decision, envelopes=envelopes
        )
        if opening:
            self.count += 1
        self.signatures += 1
        self.taken.append((index, env))
        if len(envelopes) == len(aw.seats):
            done, self.batch = self.batch, None
            try:
                complete_batch(self, done, index)
            except (Rejected, RulesError, ValidationError) as exc:
                if isinstance(exc, StepRejected):
                    raise
                raise StepRejected(index, None, self.names, reason_of(exc)) from exc

    def expect(self, kind: str, index: int, seat: int) -> Awaiting:
        """What is awaited, if it is a ``kind`` by ``seat``; else the step is refused."""
        aw = self.awaiting
        assert aw is not None
        if aw.kind == "over":
            raise StepRejected(index, seat, self.names, "the game is over; no step may follow")
        if aw.kind != kind or seat not in aw.seats:
            awaited = ", ".join(self.names[s] for s in aw.seats if 0 <= s < len(self.names))
            raise StepRejected(
                index,
                seat if 0 <= seat < len(self.names) else None,
                self.names,
                f"a {kind} by this seat was not awaited (awaited: {aw.kind} by {awaited})",
            )
        return aw

    def check_signed(self, index: int, item: Entry | Envelope, aw: Awaiting) -> None:
        """Game id, hash link, signature and beacon preimage, in the order an auditor wants."""
        seat = item.seat
        if item.game != self.genesis.game:
            raise StepRejected(
                index, seat, self.names, "belongs to another game (replayed from elsewhere)"
            )
        if item.parent != aw.parent:
            raise StepRejected(
                index, seat, self.names, "names the wrong parent step (broken hash link or replay)"
            )
        try:
            verify_signature(self.genesis.seats[seat].sign_key, item, "bad signature")
        except Rejected as exc:  # a StepRejected, so that --json can name step and seat
            raise StepRejected(index, seat, self.names, str(exc)) from exc
        try:
            check_notes(item.notes, seat, len(self.names))
        except Rejected as exc:
            raise StepRejected(index, seat, self.names, str(exc)) from exc
        if isinstance(item, Envelope) and item.decision == "join":
            if item.preimage:
                raise StepRejected(index, seat, self.names, "a join envelope reveals no preimage")
            return
        if not item.preimage:
            raise StepRejected(index, seat, self.names, "reveals no beacon preimage")
        if self.revealed[seat] + 1 >= self.genesis.chain:
            raise StepRejected(index, seat, self.names, "the seat's beacon chain is used up")
        if chain_step(b64d(item.preimage, size=32)) != self.beacons[seat]:
            raise StepRejected(
                index,
                seat,
                self.names,
                "beacon preimage does not follow the seat's chain (replayed or forged entry)",
            )

    def consume_preimage(self, seat: int, preimage: str) -> bytes:
        value = b64d(preimage, size=32)
        self.beacons[seat] = value
        self.revealed[seat] += 1
        return value

    # ----- randomness and the next decision ------------------------------------------------------

    def resolve(self, rng: Rng) -> None:
        self.state = self.rules.resolve_chance(self.state, rng)
        if isinstance(self.rules.pending(self.state), Chance):
            raise Rejected(f"ruleset {self.rules.id} left a chance pending after resolving one")

    def draw(self, kind: bytes, *parts: bytes) -> None:
        """Resolve the pending chance from ``draw_value(kind, game id, *parts)`` (§5)."""
        self.resolve(Rng(draw_value(kind, self.game_bytes, *parts)))

    def advance(self, parent: str, *, setup: bool = False) -> None:
        """Await what the rules ask for next, after the step whose hash is ``parent``."""
        decision = self.rules.pending(self.state)
        if isinstance(decision, Chance):
            supplier = self.genesis.creator if setup else self.supplier()
            self.awaiting = Awaiting("beacon", (supplier,), parent, "beacon", decision.reason)
        elif isinstance(decision, Turn):
            self.awaiting = Awaiting("turn", (decision.seat,), parent, "turn", decision.prompt)
        elif isinstance(decision, Parallel):
            kind = "commit" if decision.sealed else "act"
            self.awaiting = Awaiting(
                "batch",
                tuple(sorted(decision.seats)),
                parent,
                f"{kind}:{decision.name}",
                decision.prompt,
            )
        elif isinstance(decision, Reveal):
            for handle in decision.items:
                self.table.ciphertext(handle)
            self.reveal = decision
            seats = tuple(s for s in range(len(self.names)) if s != decision.to)
            who = "everyone" if decision.to is None else self.names[decision.to]
            prompt = f"open {len(decision.items)} sealed item(s) to {who}"
            self.awaiting = Awaiting("batch", seats, parent, "share", prompt)
        elif isinstance(decision, Reshuffle):
            self.table.add_decks({decision.deck: decision.items})
            self.reshuffle = decision
            prompt = f"shuffle deck {decision.deck}"
            self.awaiting = Awaiting("shuffle", (0,), parent, "shuffle", prompt)
        elif isinstance(decision, Over):
            if self.table.items:
                self.final = decision.result
                seats = tuple(range(len(self.names)))
                prompt = "disclose deck secrets"
                self.awaiting = Awaiting("batch", seats, parent, "disclose", prompt)
            else:
                self.result = decision.result
                self.awaiting = Awaiting("over", (), parent, "over")

    def supplier(self) -> int:
        """The seat after the author of the causing step: it could not know its own next
        preimage's effect when the author chose, and the author cannot know the preimage."""
        author = self.author if self.author is not None else self.genesis.creator
        return (author + 1) % len(self.names)

    # ----- reading out ---------------------------------------------------------------------------

    def state_hash(self) -> str:
        data = self.state.model_dump(mode="json") if self.state is not None else None
        return hashlib.sha256(canonical(data)).hexdigest()

    def cached(self) -> CachedState:
        public = self.rules.view(self.state, None) if self.state is not None else None
        return CachedState(steps=self.count, hash=self.state_hash(), public=public)


def reason_of(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return (
            f"malformed action at {where}: {first['msg']}"
            if where
            else f"malformed action: {first['msg']}"
        )
    if isinstance(exc, StepRejected):
        return exc.reason
    return str(exc)


@functools.lru_cache(maxsize=256)
def _public_key(sign_key: str) -> Ed25519PublicKey:
    """A seat's key, decoded once: every step it signs is checked against it."""
    return Ed25519PublicKey.from_public_bytes(b64d(sign_key, size=32, what="signing key"))


def verify_signature(sign_key: str, item: Signed, message: str) -> None:
    try:
        key = _public_key(sign_key)
        key.verify(b64d(item.signature, size=64, what="signature"), signing_message(item))
    except (InvalidSignature, Rejected, ValueError) as exc:
        raise Rejected(message) from exc
