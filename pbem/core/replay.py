"""Verified replay: from the genesis, check every step and re-run the rules.

This is the one place that decides whether a file is valid. Every command loads a game
through it, and ``pbem verify`` is nothing more than a replay plus a report. A step is
accepted only if its signature, its hash link, its author (a seat that was awaited), its
beacon preimage, its sealed opening and its action under the rules all check; the first
failure is reported with the step, the seat and the reason.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from pydantic import BaseModel, ValidationError

from pbem.core.canonical import b64d, canonical
from pbem.core.errors import Rejected
from pbem.core.gamefile import (
    FORMAT,
    Batch,
    CachedState,
    Entry,
    Envelope,
    GameFile,
    Genesis,
    signing_message,
    step_hash,
)
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
from pbem.core.sealing import open_sealed
from pbem.core.tabletop import Tabletop


class StepRejected(Rejected):
    """A step failed a check. The message names the step, the seat and the reason."""

    def __init__(self, index: int, seat: int | None, names: list[str], reason: str) -> None:
        who = (
            f", seat {seat} ({names[seat]})" if seat is not None and 0 <= seat < len(names) else ""
        )
        super().__init__(f"step {index}{who}: {reason}")
        self.index = index
        self.seat = seat
        self.reason = reason


@dataclass(frozen=True)
class Awaiting:
    """What the next signature must be.

    ``kind``: ``batch`` (envelopes from ``seats``, for ``decision``), ``turn`` (one entry by
    ``seats[0]``), ``beacon`` (a supply by ``seats[0]``), or ``over``. ``parent`` is the hash
    the next entry or envelope must name."""

    kind: str
    seats: tuple[int, ...]
    parent: str
    decision: str = ""
    prompt: str = ""


@dataclass
class Record:
    """One verified step, for ``pbem log`` and mail bodies."""

    index: int
    kind: str
    seats: list[int]
    summary: str
    hash: str


@dataclass
class Replay:
    """The verified position after some prefix of a game's steps."""

    rules: Ruleset
    genesis: Genesis
    genesis_hash: str
    names: list[str]
    state: BaseModel | None = None
    steps: list[Entry | Batch] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    beacons: list[bytes] = field(default_factory=list)
    revealed: list[int] = field(default_factory=list)
    awaiting: Awaiting | None = None
    result: Result | None = None
    sealed: dict[int, Any] = field(default_factory=dict)
    """Actions opened in the reveal batch being collected, by seat."""
    table: Tabletop | None = None
    """Deck keys, sealed decks, shares and shuffle passes (DESIGN §7)."""
    reveal: Reveal | None = None
    """The pending reveal of sealed items, while its shares are collected."""
    shares: dict[int, list[bytes]] = field(default_factory=dict)
    secrets: dict[int, bytes] = field(default_factory=dict)
    """Deck secrets disclosed at the end, by seat."""
    _final: Result | None = None
    _reshuffle: Reshuffle | None = None
    _author: int | None = None
    _setup_draw: bool = False

    # ----- construction -----------------------------------------------------------------

    @classmethod
    def start(cls, genesis: Genesis, rules: Ruleset) -> Replay:
        """Check the genesis and await the join batch."""
        names = [card.name for card in genesis.seats]
        replay = cls(rules=rules, genesis=genesis, genesis_hash=step_hash(genesis), names=names)
        replay._check_genesis()
        head = b64d(genesis.head, size=32, what="genesis head")
        replay.beacons = [b""] * len(genesis.seats)
        replay.revealed = [0] * len(genesis.seats)
        replay.beacons[genesis.creator] = head
        keys = [b""] * len(genesis.seats)
        keys[genesis.creator] = Tabletop.check_key(
            genesis.game, genesis.creator, genesis.deck_key, genesis.deck_proof
        )
        replay.table = Tabletop(genesis.game, keys)
        others = tuple(s for s in range(len(genesis.seats)) if s != genesis.creator)
        replay.awaiting = Awaiting("batch", others, replay.genesis_hash, "join")
        return replay

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
        if not 1 <= g.chain <= 1 << 20:
            raise Rejected(f"genesis: chain length {g.chain} is out of range")
        b64d(g.game, size=16, what="genesis game id")
        _verify(g.seats[g.creator].sign_key, "genesis", g, "genesis: the creator's signature")

    # ----- what the game awaits ------------------------------------------------------------

    @property
    def head_hash(self) -> str:
        """Hash of the last complete step (the genesis at first)."""
        return self.awaiting.parent if self.awaiting else self.genesis_hash

    @property
    def open_batch(self) -> Batch | None:
        """The last step when it is a batch still collecting envelopes."""
        if self.steps and isinstance(self.steps[-1], Batch):
            last = self.steps[-1]
            if (
                self.awaiting
                and self.awaiting.kind == "batch"
                and last.parent == self.awaiting.parent
            ):
                return last
        return None

    def remaining(self) -> tuple[int, ...]:
        """Seats whose signature the game waits for now."""
        if self.awaiting is None or self.awaiting.kind == "over":
            return ()
        batch = self.open_batch
        if self.awaiting.kind == "batch" and batch is not None:
            done = {env.seat for env in batch.envelopes}
            return tuple(s for s in self.awaiting.seats if s not in done)
        return self.awaiting.seats

    def extend(self, game: GameFile) -> None:
        """Verify a newer copy of this game and take its new steps and envelopes, as a
        recipient does who already verified the copy before: the prefix must be the same."""
        if game.genesis != self.genesis:
            raise Rejected("the file holds another game (different genesis)")
        known = len(self.steps)
        if len(game.steps) < known:
            raise Rejected(
                f"the file has {len(game.steps)} steps, fewer than the {known} already "
                "verified (rollback)"
            )
        open_batch = self.open_batch
        for i in range(known):
            mine, theirs = self.steps[i], game.steps[i]
            if mine == theirs:
                continue
            if i == known - 1 and open_batch is not None and isinstance(theirs, Batch):
                missing = [e for e in theirs.envelopes if e not in open_batch.envelopes]
                if theirs.parent != open_batch.parent or len(missing) + len(
                    open_batch.envelopes
                ) != len(theirs.envelopes):
                    raise StepRejected(
                        i, None, self.names, "differs from the copy verified before (fork)"
                    )
                _check_sorted(i, theirs, self.names)
                for env in missing:
                    self.add_envelope(env)
                continue
            raise StepRejected(i, None, self.names, "differs from the copy verified before (fork)")
        for step in game.steps[known:]:
            self.add(step)
        if game.state is not None:
            mine_state = self.cached()
            if game.state.steps != mine_state.steps or game.state.hash != mine_state.hash:
                raise Rejected(
                    f"cached state (after {game.state.steps} steps, hash {game.state.hash[:12]}) "
                    f"does not match the replay (after {mine_state.steps} steps, hash "
                    f"{mine_state.hash[:12]})"
                )
            if game.state.public != mine_state.public:
                raise Rejected("cached public state does not match the replay")

    # ----- adding steps -------------------------------------------------------------------------

    def add(self, step: Entry | Batch) -> None:
        """Verify and apply one whole step (a batch may be incomplete only if it is last)."""
        index = len(self.steps)
        if self.open_batch is not None:
            raise StepRejected(index, None, self.names, "follows a batch that is not complete")
        if isinstance(step, Entry):
            self._add_entry(index, step)
            return
        if step.envelopes == []:
            raise StepRejected(index, None, self.names, "empty batch")
        _check_sorted(index, step, self.names)
        first, *rest = step.envelopes
        self._start_batch(index, step, first)
        for env in rest:
            self.add_envelope(env)

    def _start_batch(self, index: int, batch: Batch, first: Envelope) -> None:
        aw = self._expect("batch", index, first.seat)
        if batch.decision != aw.decision:
            raise StepRejected(
                index, None, self.names, f"batch is for {batch.decision!r}, awaited {aw.decision!r}"
            )
        if batch.parent != aw.parent:
            raise StepRejected(
                index, None, self.names, "batch names the wrong parent (broken hash link)"
            )
        self.steps.append(Batch(parent=batch.parent, decision=batch.decision, envelopes=[]))
        self.add_envelope(first)

    def add_envelope(self, env: Envelope) -> None:
        """Verify one envelope of the open batch (starting a new batch if none is open)."""
        batch = self.open_batch
        if batch is None:
            self._start_batch(
                len(self.steps), Batch(parent=env.parent, decision=env.decision, envelopes=[]), env
            )
            return
        index = len(self.steps) - 1
        aw = self.awaiting
        assert aw is not None
        seat = env.seat
        if seat in {e.seat for e in batch.envelopes}:
            raise StepRejected(
                index, seat, self.names, "a second envelope by the same seat in one batch"
            )
        if seat not in aw.seats:
            raise StepRejected(
                index, seat, self.names, f"this seat is not awaited for {aw.decision!r}"
            )
        self._check_signed(index, env, "envelope", aw)
        if env.decision != aw.decision:
            raise StepRejected(
                index,
                seat,
                self.names,
                f"envelope is for {env.decision!r}, awaited {aw.decision!r}",
            )
        try:
            self._check_envelope_body(batch, env)
        except (Rejected, RulesError, ValidationError) as exc:
            raise StepRejected(index, seat, self.names, _reason(exc)) from exc
        envelopes = sorted([*batch.envelopes, env], key=lambda e: e.seat)
        self.steps[-1] = Batch(parent=batch.parent, decision=batch.decision, envelopes=envelopes)
        if len(envelopes) == len(aw.seats):
            try:
                self._complete_batch(self.steps[-1])
            except (Rejected, RulesError, ValidationError) as exc:
                if isinstance(exc, StepRejected):
                    raise
                raise StepRejected(index, None, self.names, _reason(exc)) from exc

    def _expect(self, kind: str, index: int, seat: int) -> Awaiting:
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

    def _check_signed(self, index: int, item: Entry | Envelope, kind: str, aw: Awaiting) -> None:
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
        _verify(
            self.genesis.seats[seat].sign_key,
            kind,
            item,
            str(StepRejected(index, seat, self.names, "bad signature")),
        )
        if isinstance(item, Envelope) and item.decision == "join":
            if item.preimage:
                raise StepRejected(index, seat, self.names, "a join envelope reveals no preimage")
            return
        try:
            value = b64d(item.preimage, size=32, what="preimage")
        except Rejected as exc:
            raise StepRejected(index, seat, self.names, _reason(exc)) from exc
        if self.revealed[seat] + 1 >= self.genesis.chain:
            raise StepRejected(index, seat, self.names, "the seat's beacon chain is used up")
        if chain_step(value) != self.beacons[seat]:
            raise StepRejected(
                index,
                seat,
                self.names,
                "beacon preimage does not follow the seat's chain (replayed or forged entry)",
            )

    def _consume_preimage(self, seat: int, preimage: str) -> bytes:
        value = b64d(preimage, size=32)
        self.beacons[seat] = value
        self.revealed[seat] += 1
        return value

    # ----- single entries ----------------------------------------------------------------------

    def _add_entry(self, index: int, entry: Entry) -> None:
        aw = self._expect(entry.kind, index, entry.seat)
        self._check_signed(index, entry, entry.kind, aw)
        seat = entry.seat
        state_before = self.state
        new_state = None
        try:
            if entry.kind == "turn":
                if set(entry.body) != {"action"}:
                    raise Rejected("a turn body holds exactly one 'action'")
                action = self.rules.load_action(entry.body["action"])
                self.rules.check(self.state, seat, action)
                new_state = self.rules.apply(self.state, seat, action)
                summary = self.rules.summary(state_before, seat, action, self.names)
            elif entry.kind == "shuffle":
                self.table.apply_shuffle(seat, entry.body, aw.parent)
                summary = f"{self.names[seat]} shuffled the sealed decks"
            else:
                if entry.body:
                    raise Rejected("a beacon body is empty")
                summary = f"{self.names[seat]} supplied randomness"
        except (Rejected, RulesError, ValidationError) as exc:
            raise StepRejected(index, seat, self.names, _reason(exc)) from exc
        value = self._consume_preimage(seat, entry.preimage)
        self.steps.append(entry)
        digest = step_hash(entry)
        self.records.append(Record(index, entry.kind, [seat], summary, digest))
        if entry.kind == "turn":
            self.state = new_state
        elif entry.kind == "shuffle":
            if seat + 1 < len(self.names):
                self.awaiting = Awaiting("shuffle", (seat + 1,), digest, "shuffle")
                return
            self.table.unshuffled = []
            if self._reshuffle is None:
                self._advance(digest, setup=True)
                return
            self.state = self.rules.apply_reshuffle(self.state, self._reshuffle)
            self._reshuffle = None
        elif self._setup_draw:
            self._setup_draw = False
            self._setup(value, digest)
            return
        else:
            self._resolve(
                Rng(draw_value(b"beacon", self._game_bytes, bytes.fromhex(aw.parent), value))
            )
        self._author = seat
        self._advance(digest)

    @property
    def _game_bytes(self) -> bytes:
        return b64d(self.genesis.game)

    def _setup(self, creator_preimage: bytes, digest: str) -> None:
        """The setup draw after the join: genesis hash, every head, the creator's preimage."""
        heads = self._heads
        value = draw_value(
            b"setup", self._game_bytes, bytes.fromhex(self.genesis_hash), *heads, creator_preimage
        )
        self._resolve(Rng(value))
        self._author = self.genesis.creator
        self._advance(digest)

    def _resolve(self, rng: Rng) -> None:
        self.state = self.rules.resolve_chance(self.state, rng)
        if isinstance(self.rules.pending(self.state), Chance):
            raise Rejected(f"ruleset {self.rules.id} left a chance pending after resolving one")

    # ----- batches -----------------------------------------------------------------------------

    def _check_envelope_body(self, batch: Batch, env: Envelope) -> None:
        kind = batch.decision.partition(":")[0]
        body = env.body
        if kind == "join":
            if set(body) != {"head", "deck_key", "deck_proof"}:
                raise Rejected("a join body holds exactly 'head', 'deck_key' and 'deck_proof'")
            b64d(body["head"], size=32, what="chain head")
            Tabletop.check_key(self.genesis.game, env.seat, body["deck_key"], body["deck_proof"])
        elif kind == "beacon":
            if body:
                raise Rejected("a beacon body is empty")
        elif kind == "share":
            assert self.reveal is not None
            self.shares[env.seat] = self.table.check_shares(
                env.seat, body, self.reveal, batch.parent
            )
        elif kind == "disclose":
            self.secrets[env.seat] = self.table.check_disclosure(env.seat, body)
        elif kind == "act":
            if set(body) != {"action"}:
                raise Rejected("an act body holds exactly one 'action'")
            self.rules.check(self.state, env.seat, self.rules.load_action(body["action"]))
        elif kind == "commit":
            if set(body) != {"commitment", "nonce", "ciphertext"}:
                raise Rejected("a commit body holds 'commitment', 'nonce' and 'ciphertext'")
            b64d(body["commitment"], size=32, what="commitment")
            for other in batch.envelopes:
                if other.body["commitment"] == body["commitment"]:
                    raise Rejected(f"copied commitment: identical to seat {other.seat}'s")
        elif kind == "reveal":
            if set(body) != {"key"}:
                raise Rejected("a reveal body holds exactly the 'key'")
            key = b64d(body["key"], size=32, what="key")
            commit_batch = self.commit_batch()
            committed = next(e for e in commit_batch.envelopes if e.seat == env.seat)
            action_json = open_sealed(
                key,
                committed.body,
                self.genesis.game,
                commit_batch.parent,
                env.seat,
                commit_batch.decision,
            )
            action = self.rules.load_action(action_json)
            try:
                self.rules.check(self.state, env.seat, action)
            except RulesError as exc:
                raise Rejected(f"the revealed action is illegal: {exc}") from exc
            self.sealed[env.seat] = action
        else:
            raise Rejected(f"unknown decision {batch.decision!r}")

    def commit_batch(self) -> Batch:
        """The latest commit batch (the one a reveal batch opens)."""
        return next(
            s
            for s in reversed(self.steps)
            if isinstance(s, Batch) and s.decision.startswith("commit:")
        )

    @property
    def _heads(self) -> list[bytes]:
        join = self.steps[0]
        assert isinstance(join, Batch)
        heads = {env.seat: b64d(env.body["head"]) for env in join.envelopes}
        heads[self.genesis.creator] = b64d(self.genesis.head)
        return [heads[s] for s in range(len(self.names))]

    def _complete_batch(self, batch: Batch) -> None:
        index = len(self.steps) - 1
        digest = step_hash(batch)
        kind, _, name = batch.decision.partition(":")
        preimages = []
        for env in batch.envelopes:
            if kind == "join":
                self.beacons[env.seat] = b64d(env.body["head"])
                self.table.keys[env.seat] = b64d(env.body["deck_key"])
            else:
                preimages.append(self._consume_preimage(env.seat, env.preimage))
        seats = [env.seat for env in batch.envelopes]
        if kind == "join":
            self.records.append(Record(index, "join", seats, "every seat joined", digest))
            self.state = self.rules.setup(self.genesis.options, len(self.names))
            self._setup_draw = isinstance(self.rules.pending(self.state), Chance)
            self._author = None
            items = self.rules.sealed_decks(self.genesis.options, len(self.names))
            if items:
                self.table.add_decks(items)
                self.awaiting = Awaiting("shuffle", (0,), digest, "shuffle")
            else:
                self._advance(digest, setup=True)
            return
        if kind == "disclose":
            self.table.audit(self.secrets, self.names)
            self.records.append(
                Record(index, kind, seats, "deck secrets disclosed; every shuffle audited", digest)
            )
            self.result = self._final
            self.awaiting = Awaiting("over", (), digest, "over")
            return
        if kind == "commit":
            who = ", ".join(self.names[s] for s in seats)
            self.records.append(Record(index, "commit", seats, f"sealed {name}: {who}", digest))
            self.awaiting = Awaiting("batch", tuple(seats), digest, f"reveal:{name}", "reveal")
            return
        if kind == "share":
            self._complete_reveal(index, seats, digest)
        elif kind == "beacon":
            self.records.append(Record(index, kind, seats, "randomness supplied", digest))
        else:
            self._apply_actions(batch, index, seats, digest)
        chance = isinstance(self.rules.pending(self.state), Chance)
        if chance and kind == "act":
            # Whoever signed an open action last knew every preimage in this batch when it
            # chose: the draw waits for preimages revealed after every choice was signed.
            self.awaiting = Awaiting("batch", tuple(seats), digest, "beacon", "supply randomness")
            return
        if chance:
            self._resolve(
                Rng(draw_value(b"batch", self._game_bytes, bytes.fromhex(batch.parent), *preimages))
            )
        self._author = None
        self._advance(digest)

    def _apply_actions(self, batch: Batch, index: int, seats: list[int], digest: str) -> None:
        kind, _, name = batch.decision.partition(":")
        if kind == "act":
            actions = {
                env.seat: self.rules.load_action(env.body["action"]) for env in batch.envelopes
            }
        else:
            actions, self.sealed = self.sealed, {}
        parts = [
            self.rules.summary(self.state, s, a, self.names) for s, a in sorted(actions.items())
        ]
        self.records.append(Record(index, kind, seats, f"{name}: " + "; ".join(parts), digest))
        self.state = self.rules.apply_parallel(self.state, actions)

    def _complete_reveal(self, index: int, seats: list[int], digest: str) -> None:
        reveal, shares = self.reveal, self.shares
        assert reveal is not None
        self.reveal, self.shares = None, {}
        if reveal.to is None:
            faces = self.table.open_public(reveal, shares)
            summary = "revealed " + ", ".join(f"{h}: {f}" for h, f in faces.items())
        else:
            faces = None
            self.table.record_private(reveal, shares)
            summary = f"{len(reveal.items)} sealed item(s) opened to {self.names[reveal.to]} alone"
        self.records.append(Record(index, "share", seats, summary, digest))
        self.state = self.rules.apply_reveal(self.state, reveal, faces)

    # ----- the next decision ---------------------------------------------------------------------

    def _advance(self, parent: str, *, setup: bool = False) -> None:
        decision = self.rules.pending(self.state)
        if isinstance(decision, Chance):
            supplier = self.genesis.creator if setup else self._supplier()
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
            self._reshuffle = decision
            self.awaiting = Awaiting(
                "shuffle", (0,), parent, "shuffle", f"shuffle deck {decision.deck}"
            )
        elif isinstance(decision, Over):
            if self.table.items:
                self._final = decision.result
                seats = tuple(range(len(self.names)))
                self.awaiting = Awaiting(
                    "batch", seats, parent, "disclose", "disclose deck secrets"
                )
            else:
                self.result = decision.result
                self.awaiting = Awaiting("over", (), parent, "over")

    def _supplier(self) -> int:
        """The seat after the author of the causing step: it could not know its own next
        preimage's effect when the author chose, and the author cannot know the preimage."""
        author = self._author if self._author is not None else self.genesis.creator
        return (author + 1) % len(self.names)

    # ----- reading out ---------------------------------------------------------------------------

    def signatures(self) -> int:
        """How many signatures the game holds (genesis, entries, envelopes)."""
        return 1 + sum(len(s.envelopes) if isinstance(s, Batch) else 1 for s in self.steps)

    def state_hash(self) -> str:
        data = self.state.model_dump(mode="json") if self.state is not None else None
        return hashlib.sha256(canonical(data)).hexdigest()

    def cached(self) -> CachedState:
        public = self.rules.view(self.state, None) if self.state is not None else None
        return CachedState(steps=len(self.steps), hash=self.state_hash(), public=public)

    def to_file(self) -> GameFile:
        return GameFile(
            format=FORMAT, genesis=self.genesis, steps=list(self.steps), state=self.cached()
        )


def _check_sorted(index: int, batch: Batch, names: list[str]) -> None:
    seats = [e.seat for e in batch.envelopes]
    if seats != sorted(set(seats)):
        raise StepRejected(
            index, None, names, "envelopes are not sorted by seat, or a seat appears twice"
        )


def _reason(exc: Exception) -> str:
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


def _verify(sign_key: str, kind: str, item: Entry | Envelope | Genesis, message: str) -> None:
    try:
        key = Ed25519PublicKey.from_public_bytes(b64d(sign_key, size=32, what="signing key"))
        key.verify(b64d(item.signature, size=64, what="signature"), signing_message(kind, item))
    except (InvalidSignature, Rejected, ValueError) as exc:
        raise Rejected(message) from exc


def replay_file(game: GameFile, rules: Ruleset) -> Replay:
    """Verify a whole file: every step, then the cached state against the replay."""
    replay = Replay.start(game.genesis, rules)
    replay.extend(game)
    return replay
