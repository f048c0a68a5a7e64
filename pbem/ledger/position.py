"""The verified position of a game after some prefix of its steps, and how it takes one more.

This is the one place that decides whether a step is valid. A step is accepted only if its
signature, its hash link, its author (a seat that was awaited), its beacon preimage, and
what its kind requires (``pbem.ledger.steps``: the action under the rules, a sealed opening, a
decryption share, a shuffle pass) all check; the first failure is reported with the step,
the seat and the reason. A position holds only what checking the next step needs, never
the whole history, so it can be saved as a checkpoint (``pbem.ledger.checkpoint``) and
continued later: the store verifies only what it has not verified before.

What each kind of step requires is in ``pbem.ledger.steps``, the interruptions of a game
with dropouts in ``pbem.ledger.interruptions``, and what the replay makes by itself for
seats played in the open in ``pbem.ledger.settle``; this module ties them together.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ValidationError

from pbem.crypto.escrow import Escrow
from pbem.crypto.randomness import Rng, chain_step, draw_value
from pbem.crypto.signatures import verify_signature
from pbem.format.canonical import b64d, canonical
from pbem.format.card import IdentityCard
from pbem.format.errors import Rejected
from pbem.format.gamefile import Batch, CachedState, Entry, Envelope, Genesis
from pbem.format.gamefile import step_hash as hash_of
from pbem.format.i18n import N_
from pbem.format.notes import check_notes
from pbem.format.words import a, plural
from pbem.ledger.genesis import check_genesis
from pbem.ledger.interruptions import INTERRUPTIONS, add_interruption, describe_interrupt
from pbem.ledger.seats import check_escrow, signer_card
from pbem.ledger.settle import settle
from pbem.ledger.steps import add_entry, complete_batch, envelope_body
from pbem.ledger.tabletop import Tabletop
from pbem.ledger.terms import Awaiting, Record, StepRejected, reason_of
from pbem.ruleset.rules import (
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
    """Deck keys, sealed decks, shares and shuffle passes (architecture §7)."""
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
    # ----- seats and dropouts (architecture §11) -----
    cards: list[IdentityCard] = field(default_factory=list)
    """The identity in force at each seat: the genesis's, or a substitute's after a
    handover. Every step is checked against the key in force when it is made."""
    escrows: dict[int, Escrow] = field(default_factory=dict)
    """Each seat's escrowed secret: the commitments and the sealed shares."""
    published: dict[int, bytes] = field(default_factory=dict)
    """Seat secrets made public (a resignation, an escrow opened by a call): whatever
    such a seat owes without a decision is made by the replay itself, in the open."""
    resigned: set[int] = field(default_factory=set)
    """Seats that resigned: a stand-in decides for them, in the open."""
    handed: dict[int, str] = field(default_factory=dict)
    """Seats handed over: the seat secret sealed to the substitute (HPKE)."""
    latest: int = 0
    """The latest claimed time of anything signed so far."""
    since: int = 0
    """Since when the current decision has been awaited (by the claims signed so far)."""
    interrupt: Batch | None = None
    """A call, a resignation or a handover being signed (it may follow an open batch)."""
    virtual: dict[int, Any] = field(default_factory=dict)
    """What seats contribute to the batch awaited now without an envelope: a stand-in's
    action, or what a seat whose secret is public owes (made by the replay)."""
    unsealing: int | None = None
    """The seat whose escrow the holders are opening (after a call), if any."""
    demand: Awaiting | None = None
    """An interruption the game waits for before anything else (the escrow's opening)."""
    batch_at: int = 0
    """The step index of the open batch (an interruption may follow it)."""
    frozen: bool = False
    """The open batch was interrupted: it takes no more envelopes, it is closed for the
    seats it still awaits."""
    tail: str | None = None
    """The hash of an interruption the next step must follow (it names it as parent)."""
    links: dict[int, bytes] = field(default_factory=dict)
    """Chain links of open seats taken for the batch being completed, by seat."""
    proven: bool = False
    """The steps were verified before, by the store that holds these very bytes: their
    signatures and proofs (the costly part) are not checked again; every rule, link and
    form is. Only a walk of a stored game sets it (``pbem.view.history.walk``)."""

    # ----- construction -----------------------------------------------------------------

    @classmethod
    def start(cls, genesis: Genesis, rules: Ruleset, *, proven: bool = False) -> Position:
        """Check the genesis and await the join batch (``proven``: see the field)."""
        names = [card.name for card in genesis.seats]
        pos = cls(rules=rules, genesis=genesis, genesis_hash=hash_of(genesis), names=names)
        pos.proven = proven
        check_genesis(genesis, rules)
        pos.cards = list(genesis.seats)
        pos.latest = pos.since = genesis.time
        seats = len(genesis.seats)
        pos.beacons = [b""] * seats
        pos.heads = [b""] * seats
        pos.revealed = [0] * seats
        pos.heads[genesis.creator] = pos.beacons[genesis.creator] = b64d(genesis.head)
        keys = [b""] * seats
        keys[genesis.creator] = Tabletop.check_key(
            genesis.game, genesis.creator, genesis.deck_key, genesis.deck_proof
        )
        pos.table = Tabletop(genesis.game, keys, proven=proven)
        if genesis.escrow.mode != "none":
            try:
                escrow = check_escrow(pos, genesis.creator, genesis.escrow.deal)
            except Rejected as exc:
                raise Rejected(N_("genesis: the creator's escrow: {exc}").format(exc=exc)) from exc
            pos.escrows[genesis.creator] = escrow
        others = tuple(s for s in range(seats) if s != genesis.creator)
        pos.awaiting = Awaiting("batch", others, pos.genesis_hash, "join")
        return pos

    # ----- what the game awaits --------------------------------------------------------------

    @property
    def head_hash(self) -> str:
        """Hash of the last complete step (the genesis at first)."""
        return self.awaiting.parent if self.awaiting else self.genesis_hash

    @property
    def open_batch(self) -> Batch | None:
        """The last step when it is a batch still collecting envelopes."""
        return self.batch

    @functools.cached_property
    def game_bytes(self) -> bytes:
        return b64d(self.genesis.game)

    def remaining(self) -> tuple[int, ...]:
        """Seats whose signature the game waits for now."""
        if self.awaiting is None or self.awaiting.kind == "over":
            return ()
        if self.awaiting.kind == "batch":
            done = {env.seat for env in self.batch.envelopes} if self.batch else set()
            done |= set(self.virtual)
            return tuple(s for s in self.awaiting.seats if s not in done)
        return self.awaiting.seats

    @property
    def file_head(self) -> str:
        """The hash of the last step in the file: what an interruption names as parent."""
        if self.demand is not None:
            return self.demand.parent
        if self.batch is not None and not self.frozen:
            return hash_of(self.batch)
        return self.head_hash

    # ----- adding steps -------------------------------------------------------------------------

    def add(self, step: Entry | Batch) -> None:
        """Verify and apply one whole step (a batch may be incomplete only if it is last)."""
        interrupting = isinstance(step, Batch) and step.decision in INTERRUPTIONS
        if self.batch is not None and not interrupting:
            raise StepRejected(
                self.count, None, self.names, N_("follows a batch that is not complete")
            )
        if interrupting:
            for env in step.envelopes:
                self.add_envelope(env)
            return
        if isinstance(step, Entry):
            add_entry(self, step)
            self.settle()
            return
        seats = [e.seat for e in step.envelopes]
        if not seats:
            raise StepRejected(self.count, None, self.names, N_("empty batch"))
        if seats != sorted(set(seats)):
            raise StepRejected(
                self.count,
                None,
                self.names,
                N_("envelopes are not sorted by seat, or a seat appears twice"),
            )
        aw = self.awaiting
        assert aw is not None
        if aw.kind == "batch":
            if step.decision != aw.decision:
                raise StepRejected(
                    self.count,
                    None,
                    self.names,
                    N_("batch is for {decision!r}, awaited {decision2!r}").format(
                        decision=step.decision, decision2=aw.decision
                    ),
                )
            if step.parent != aw.parent:
                raise StepRejected(
                    self.count,
                    None,
                    self.names,
                    N_("batch names the wrong parent (broken hash link)"),
                )
        for env in step.envelopes:
            self.add_envelope(env)

    def add_envelope(self, env: Envelope) -> None:
        """Verify one envelope of the open batch (opening the batch if none is open)."""
        if env.decision in INTERRUPTIONS:
            index = add_interruption(self, env)
            if index is not None:  # complete: what follows it by itself, then
                try:
                    self.settle()
                except (Rejected, RulesError, ValueError) as exc:
                    if isinstance(exc, StepRejected):
                        raise
                    raise StepRejected(index, None, self.names, reason_of(exc)) from exc
            return
        if self.interrupt is not None or self.demand is not None or self.frozen:
            reason = N_("the game waits for the interruption signed after the open decision")
            if self.interrupt is not None:
                reason = N_(
                    "the game waits for the interruption signed after the open decision "
                    "({interruption}, {what})"
                ).format(interruption=a(self.interrupt.decision), what=describe_interrupt(self))
            raise StepRejected(self.count, env.seat, self.names, reason)
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
                    index, seat, self.names, N_("a second envelope by the same seat in one batch")
                )
            if seat not in aw.seats:
                raise StepRejected(
                    index,
                    seat,
                    self.names,
                    N_("this seat is not awaited for {decision!r}").format(decision=aw.decision),
                )
        link = self.check_signed(index, env, aw.parent)
        if env.decision != aw.decision:
            raise StepRejected(
                index,
                seat,
                self.names,
                N_("envelope is for {decision!r}, awaited {decision2!r}").format(
                    decision=env.decision, decision2=aw.decision
                ),
            )
        try:
            envelope_body(self, batch, env)
        except (Rejected, RulesError, ValidationError) as exc:
            raise StepRejected(index, seat, self.names, reason_of(exc)) from exc
        envelopes = sorted([*batch.envelopes, env], key=lambda e: e.seat)
        self.batch = self.last = batch.model_copy(update={"envelopes": envelopes})
        if opening:
            self.batch_at = index
            self.count += 1
        self.signatures += 1
        self.latest = max(self.latest, env.time)
        if env.decision != "join":
            self.consume_preimage(seat, link)
        self.taken.append((index, env))
        if len(envelopes) + len(self.virtual) == len(aw.seats):
            done, self.batch = self.batch, None
            try:
                complete_batch(self, done, index)
                self.settle()
            except (Rejected, RulesError, ValidationError) as exc:
                if isinstance(exc, StepRejected):
                    raise
                raise StepRejected(index, None, self.names, reason_of(exc)) from exc

    def expect(self, kind: str, index: int, seat: int) -> Awaiting:
        """What is awaited, if it is a ``kind`` by ``seat``; else the step is refused."""
        aw = self.awaiting
        assert aw is not None
        if aw.kind == "over":
            raise StepRejected(index, seat, self.names, N_("the game is over; no step may follow"))
        if aw.kind != kind or seat not in aw.seats:
            awaited = ", ".join(self.names[s] for s in aw.seats if 0 <= s < len(self.names))
            raise StepRejected(
                index,
                seat if 0 <= seat < len(self.names) else None,
                self.names,
                N_("{a} by this seat was not awaited (awaited: {kind} by {awaited})").format(
                    a=a(kind), kind=aw.kind, awaited=awaited
                ),
            )
        return aw

    def check_signed(self, index: int, item: Entry | Envelope, parent: str) -> bytes:
        """Game id, hash link, signature (by the key in force for the seat) and beacon
        preimage, in the order an auditor wants. Returns the preimage's bytes (empty for a
        join or a referee), for ``consume_preimage`` once the step is accepted."""
        seat = item.seat
        if item.game != self.genesis.game:
            raise StepRejected(
                index, seat, self.names, N_("belongs to another game (replayed from elsewhere)")
            )
        if item.parent != parent:
            raise StepRejected(
                index,
                seat,
                self.names,
                N_("names the wrong parent step (broken hash link or replay)"),
            )
        try:
            if not self.proven:
                verify_signature(signer_card(self, seat).sign_key, item)
        except Rejected as exc:  # a StepRejected, so that --json can name step and seat
            raise StepRejected(index, seat, self.names, N_("bad signature")) from exc
        try:
            check_notes(item.notes, seat, len(self.names))
        except Rejected as exc:
            raise StepRejected(index, seat, self.names, str(exc)) from exc
        if seat >= len(self.cards):  # a referee: it keeps no beacon chain here
            return b""
        if isinstance(item, Envelope) and item.decision == "join":
            if item.preimage:
                raise StepRejected(
                    index, seat, self.names, N_("a join envelope reveals no preimage")
                )
            return b""
        if not item.preimage:
            raise StepRejected(index, seat, self.names, N_("reveals no beacon preimage"))
        if self.revealed[seat] + 1 >= self.genesis.chain:
            raise StepRejected(index, seat, self.names, N_("the seat's beacon chain is used up"))
        link = b64d(item.preimage, size=32)
        if chain_step(link) != self.beacons[seat]:
            raise StepRejected(
                index,
                seat,
                self.names,
                N_("beacon preimage does not follow the seat's chain (replayed or forged entry)"),
            )
        return link

    def consume_preimage(self, seat: int, link: bytes) -> None:
        """The seat's chain moves on to ``link`` (checked by ``check_signed``)."""
        self.beacons[seat] = link
        self.revealed[seat] += 1

    # ----- randomness and the next decision ------------------------------------------------------

    def resolve(self, rng: Rng) -> None:
        self.state = self.rules.resolve_chance(self.state, rng)
        if isinstance(self.rules.pending(self.state), Chance):
            raise Rejected(
                N_("ruleset {id} left a chance pending after resolving one").format(
                    id=self.rules.id
                )
            )

    def draw(self, kind: bytes, *parts: bytes) -> None:
        """Resolve the pending chance from ``draw_value(kind, game id, *parts)`` (§5)."""
        self.resolve(Rng(draw_value(kind, self.game_bytes, *parts)))

    def advance(self, parent: str, *, setup: bool = False) -> None:
        """Await what the rules ask for next, after the step whose hash is ``parent``."""
        decision = self.rules.pending(self.state)
        if isinstance(decision, Chance):
            supplier = self.genesis.creator if setup else self.supplier()
            self.advance_to(Awaiting("beacon", (supplier,), parent, "beacon", decision.reason))
        elif isinstance(decision, Turn):
            self.advance_to(Awaiting("turn", (decision.seat,), parent, "turn", decision.prompt))
        elif isinstance(decision, Parallel):
            kind = "commit" if decision.sealed else "act"
            seats = tuple(sorted(decision.seats))
            name = f"{kind}:{decision.name}"
            self.advance_to(Awaiting("batch", seats, parent, name, decision.prompt))
        elif isinstance(decision, Reveal):
            for handle in decision.items:
                self.table.ciphertext(handle)
            self.reveal = decision
            seats = tuple(s for s in range(len(self.names)) if s != decision.to)
            who = "everyone" if decision.to is None else self.names[decision.to]
            prompt = f"open {plural(len(decision.items), 'sealed item')} to {who}"
            self.advance_to(Awaiting("batch", seats, parent, "share", prompt))
        elif isinstance(decision, Reshuffle):
            self.table.add_decks({decision.deck: decision.items})
            self.reshuffle = decision
            prompt = f"shuffle deck {decision.deck}"
            self.advance_to(Awaiting("shuffle", (0,), parent, "shuffle", prompt))
        elif isinstance(decision, Over):
            if self.table.items:
                self.final = decision.result
                seats = tuple(range(len(self.names)))
                prompt = "disclose deck secrets"
                self.advance_to(Awaiting("batch", seats, parent, "disclose", prompt))
            else:
                self.result = decision.result
                self.advance_to(Awaiting("over", (), parent, "over"))

    def advance_to(self, awaiting: Awaiting) -> None:
        """Await ``awaiting`` from now on (after the interruption that closed the last
        step, if one did: then it is the parent), with a fresh deadline."""
        if self.tail is not None:
            awaiting, self.tail = replace(awaiting, parent=self.tail), None
        self.awaiting = awaiting
        self.since = self.latest
        self.virtual = {}

    def note(self, text: str) -> None:
        """Add to the last history line what happened in the open after it."""
        if self.records:
            last = self.records[-1]
            last.summary = f"{last.summary}; in the open: {text}"

    def supplier(self) -> int:
        """The seat after the author of the causing step: it could not know its own next
        preimage's effect when the author chose, and the author cannot know the preimage.
        Seats whose secret is public are passed over: their links are known to all."""
        author = self.author if self.author is not None else self.genesis.creator
        n = len(self.names)
        for k in range(1, n + 1):
            seat = (author + k) % n
            if seat not in self.published and (seat != author or k == n):
                return seat
        raise Rejected(N_("every seat's secret is public: nobody can supply randomness"))

    def settle(self) -> None:
        """Make what the replay can make itself: the steps of seats whose secret is
        public, a stand-in's decisions (architecture §11)."""
        settle(self)

    def reparent(self, digest: str) -> None:
        """After an interruption: what was awaited is awaited after it, afresh."""
        aw = self.awaiting
        if aw is not None and aw.kind != "over":
            self.awaiting = replace(aw, parent=digest)
            self.since = self.latest
        self.tail = None

    def close_after(self, digest: str) -> None:
        """An interruption completed: what comes next follows it (and an open batch it
        interrupted is closed with what the stand-in or the open secrets give)."""
        if self.batch is None:
            self.reparent(digest)
        else:
            self.tail = digest

    def end_early(self) -> None:
        """A call with no escrow to open: the game ends, scored as it stands."""
        self.result = self.rules.result_now(self.state)
        self.batch = None
        self.advance_to(Awaiting("over", (), self.head_hash, "over"))

    # ----- reading out ---------------------------------------------------------------------------

    def state_hash(self) -> str:
        data = self.state.model_dump(mode="json") if self.state is not None else None
        return hashlib.sha256(canonical(data)).hexdigest()

    def cached(self) -> CachedState:
        public = self.rules.view(self.state, None) if self.state is not None else None
        return CachedState(steps=self.count, hash=self.state_hash(), public=public)
