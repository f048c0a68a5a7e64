"""What each kind of step must satisfy, and what it does to the position.

``pbem.ledger.position`` checks what every signed item shares (the awaited seat, the game id,
the hash link, the signature, the beacon preimage); here each kind of step has its own small
checker, in the order a game meets them:

- entries: ``turn`` (a public action under the rules), ``beacon`` (a chain link for a draw,
  or the setup draw), ``shuffle`` (a seat's pass over the sealed decks);
- batches, by decision: ``join`` (chain heads and deck keys), ``act`` (open actions),
  ``commit`` and ``reveal`` (sealed actions, architecture §6), ``beacon`` (links for a draw after
  open actions), ``share`` (decryption shares, §7), ``disclose`` (deck secrets at the end).

A checker validates before it changes anything, so a refused item leaves the position as it
was (the store relies on that only loosely: it never keeps a position that refused a step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from pbem.crypto.group import check_point
from pbem.crypto.sealing import open_sealed
from pbem.format.canonical import b64d
from pbem.format.errors import Rejected
from pbem.format.gamefile import Batch, Entry, Envelope
from pbem.format.gamefile import step_hash as hash_of
from pbem.format.i18n import N_
from pbem.ledger.openseats import open_link
from pbem.ledger.seats import check_escrow
from pbem.ledger.tabletop import Tabletop
from pbem.ledger.terms import Awaiting, Record, StepRejected, reason_of
from pbem.ruleset.rules import Chance, RulesError

if TYPE_CHECKING:
    from pbem.ledger.position import Position

# ----- single entries ---------------------------------------------------------------------


class EntryKind(Protocol):
    def check(self, pos: Position, entry: Entry) -> tuple[str, Any]:
        """Validate; return the history line and what ``apply`` needs."""

    def apply(
        self, pos: Position, entry: Entry, prepared: Any, link: bytes, digest: str, aw: Awaiting
    ) -> None:
        """Move the position on, once the entry's chain link is taken."""


class TurnEntry:
    """A public action of the seat whose turn it is (architecture §2)."""

    def check(self, pos: Position, entry: Entry) -> tuple[str, Any]:
        if set(entry.body) != {"action"}:
            raise Rejected(N_("a turn body holds exactly one 'action'"))
        action = pos.rules.load_action(entry.body["action"])
        pos.rules.check(pos.state, entry.seat, action)
        new_state = pos.rules.apply(pos.state, entry.seat, action)
        return pos.rules.summary(pos.state, entry.seat, action, pos.names), new_state

    def apply(
        self, pos: Position, entry: Entry, prepared: Any, link: bytes, digest: str, aw: Awaiting
    ) -> None:
        pos.state = prepared
        pos.author = entry.seat
        pos.advance(digest)


class BeaconEntry:
    """A chain link for a draw (architecture §5): the setup draw from every head and the creator's
    link, or a draw after a single entry from its hash and the next seat's link."""

    def check(self, pos: Position, entry: Entry) -> tuple[str, Any]:
        if entry.body:
            raise Rejected(N_("a beacon body is empty"))
        return N_("{name} supplied randomness").format(name=pos.names[entry.seat]), None

    def apply(
        self, pos: Position, entry: Entry, prepared: Any, link: bytes, digest: str, aw: Awaiting
    ) -> None:
        if pos.setup_draw:
            pos.setup_draw = False
            pos.draw(b"setup", bytes.fromhex(pos.genesis_hash), *pos.heads, link)
            pos.author = pos.genesis.creator
        else:
            pos.draw(b"beacon", bytes.fromhex(aw.parent), link)
            pos.author = entry.seat
        pos.advance(digest)


class ShuffleEntry:
    """A seat's shuffle pass over every deck not yet shuffled by all (architecture §7)."""

    def check(self, pos: Position, entry: Entry) -> tuple[str, Any]:
        pos.table.apply_shuffle(entry.seat, entry.body, entry.parent)
        return N_("{name} shuffled the sealed decks").format(name=pos.names[entry.seat]), None

    def apply(
        self, pos: Position, entry: Entry, prepared: Any, link: bytes, digest: str, aw: Awaiting
    ) -> None:
        if entry.seat + 1 < len(pos.names):
            pos.advance_to(Awaiting("shuffle", (entry.seat + 1,), digest, "shuffle"))
            return
        pos.table.unshuffled = []
        if pos.reshuffle is None:
            pos.advance(digest, setup=True)
            return
        pos.state = pos.rules.apply_reshuffle(pos.state, pos.reshuffle)
        pos.reshuffle = None
        pos.author = entry.seat
        pos.advance(digest)


ENTRIES: dict[str, EntryKind] = {
    "turn": TurnEntry(),
    "beacon": BeaconEntry(),
    "shuffle": ShuffleEntry(),
}


def add_entry(pos: Position, entry: Entry) -> None:
    index = pos.count
    aw = pos.expect(entry.kind, index, entry.seat)
    link = pos.check_signed(index, entry, aw.parent)
    kind = ENTRIES[entry.kind]
    try:
        summary, prepared = kind.check(pos, entry)
    except (Rejected, RulesError, ValueError) as exc:
        raise StepRejected(index, entry.seat, pos.names, reason_of(exc)) from exc
    pos.consume_preimage(entry.seat, link)
    digest = hash_of(entry)
    pos.count += 1
    pos.signatures += 1
    pos.latest = max(pos.latest, entry.time)
    pos.last = entry
    pos.taken.append((index, entry))
    before = pos.state
    pos.records.append(Record(index, entry.kind, [entry.seat], summary, digest))
    kind.apply(pos, entry, prepared, link, digest, aw)
    pos.records[-1].consequences = consequences(pos, before)


# ----- batches ------------------------------------------------------------------------------


class BatchKind(Protocol):
    def body(self, pos: Position, batch: Batch, env: Envelope) -> None:
        """Check one envelope's body in the context of the batch so far."""

    def complete(self, pos: Position, batch: Batch, index: int, digest: str) -> str:
        """Act on the complete batch; return its history line."""


class Join:
    """Every seat but the creator publishes its chain head and its deck key, with a proof
    that it knows the key's secret (a rogue key could otherwise cancel the others')."""

    def body(self, pos: Position, batch: Batch, env: Envelope) -> None:
        body = env.body
        if set(body) != {"head", "deck_key", "deck_proof", "escrow"}:
            raise Rejected(
                N_("a join body holds exactly 'head', 'deck_key', 'deck_proof' and 'escrow'")
            )
        b64d(body["head"], size=32, what="chain head")
        key = Tabletop.check_key(pos.genesis.game, env.seat, body["deck_key"], body["deck_proof"])
        if pos.genesis.escrow.mode == "none":
            if body["escrow"] is not None:
                raise Rejected(N_("this game has no escrow: the join escrows nothing"))
            return
        pos.table.keys[env.seat] = key  # the escrow's commitments start from it
        try:
            pos.escrows[env.seat] = check_escrow(pos, env.seat, body["escrow"])
        except Rejected:
            pos.table.keys[env.seat] = b""
            raise

    def complete(self, pos: Position, batch: Batch, index: int, digest: str) -> str:
        for env in batch.envelopes:
            pos.heads[env.seat] = pos.beacons[env.seat] = b64d(env.body["head"])
            pos.table.keys[env.seat] = check_point(b64d(env.body["deck_key"]), "deck key")
        pos.state = pos.rules.setup(pos.genesis.options, len(pos.names))
        pos.setup_draw = isinstance(pos.rules.pending(pos.state), Chance)
        pos.author = None
        items = pos.rules.sealed_decks(pos.genesis.options, len(pos.names))
        if items:
            pos.table.add_decks(items)
            pos.advance_to(Awaiting("shuffle", (0,), digest, "shuffle"))
        else:
            pos.advance(digest, setup=True)
        return N_("every seat joined")


class Act:
    """Open parallel actions: each checked when it arrives, applied together."""

    def body(self, pos: Position, batch: Batch, env: Envelope) -> None:
        if set(env.body) != {"action"}:
            raise Rejected(N_("an act body holds exactly one 'action'"))
        pos.rules.check(pos.state, env.seat, pos.rules.load_action(env.body["action"]))

    def complete(self, pos: Position, batch: Batch, index: int, digest: str) -> str:
        actions = {e.seat: pos.rules.load_action(e.body["action"]) for e in batch.envelopes}
        actions.update(pos.virtual)  # stand-ins' actions, in the open
        summary = _apply_parallel(pos, batch, actions)
        if isinstance(pos.rules.pending(pos.state), Chance):
            # Whoever signed an open action last knew every preimage in this batch when it
            # chose: the draw waits for preimages revealed after every choice was signed.
            seats = tuple(e.seat for e in batch.envelopes)
            pos.advance_to(Awaiting("batch", seats, digest, "beacon", "supply randomness"))
            return summary
        _after_batch(pos, batch, digest)
        return summary


class Commit:
    """Sealed actions (architecture §6): a commitment and the action encrypted; nothing shows
    until every seat has committed."""

    def body(self, pos: Position, batch: Batch, env: Envelope) -> None:
        body = env.body
        if set(body) != {"commitment", "nonce", "ciphertext"}:
            raise Rejected(N_("a commit body holds 'commitment', 'nonce' and 'ciphertext'"))
        b64d(body["commitment"], size=32, what="commitment")
        for other in batch.envelopes:
            if other.body["commitment"] == body["commitment"]:
                raise Rejected(
                    N_("copied commitment: identical to seat {seat}'s").format(seat=other.seat)
                )

    def complete(self, pos: Position, batch: Batch, index: int, digest: str) -> str:
        seats = tuple(e.seat for e in batch.envelopes)
        name = batch.decision.partition(":")[2]
        pos.commit = batch
        stand_ins = dict(pos.virtual)  # decided in the open: nothing to reveal
        summary = N_("sealed {name}: {seats}").format(
            name=name, seats=", ".join(pos.names[s] for s in seats)
        )
        pos.advance_to(Awaiting("batch", seats, digest, f"reveal:{name}", "reveal"))
        pos.sealed.update(stand_ins)
        return summary


class RevealSealed:
    """Each seat publishes the key of its commitment; everyone checks that it opens the
    commitment and that the action it holds is legal."""

    def body(self, pos: Position, batch: Batch, env: Envelope) -> None:
        if set(env.body) != {"key"}:
            raise Rejected(N_("a reveal body holds exactly the 'key'"))
        key = b64d(env.body["key"], size=32, what="key")
        commit = pos.commit
        assert commit is not None
        committed = next(e for e in commit.envelopes if e.seat == env.seat)
        action_json = open_sealed(
            key, committed.body, pos.genesis.game, commit.parent, env.seat, commit.decision
        )
        action = pos.rules.load_action(action_json)
        try:
            pos.rules.check(pos.state, env.seat, action)
        except RulesError as exc:
            raise Rejected(N_("the revealed action is illegal: {exc}").format(exc=exc)) from exc
        pos.sealed[env.seat] = action

    def complete(self, pos: Position, batch: Batch, index: int, digest: str) -> str:
        actions, pos.sealed = {**pos.sealed, **pos.virtual}, {}
        pos.commit = None
        summary = _apply_parallel(pos, batch, actions)
        _after_batch(pos, batch, digest)
        return summary


class BeaconBatch:
    """Links for a draw after open actions, revealed after every action was signed."""

    def body(self, pos: Position, batch: Batch, env: Envelope) -> None:
        if env.body:
            raise Rejected(N_("a beacon body is empty"))

    def complete(self, pos: Position, batch: Batch, index: int, digest: str) -> str:
        _after_batch(pos, batch, digest)
        return N_("randomness supplied")


class Share:
    """Decryption shares for a reveal of sealed items, each with its proof (architecture §7)."""

    def body(self, pos: Position, batch: Batch, env: Envelope) -> None:
        assert pos.reveal is not None
        pos.shares[env.seat] = pos.table.check_shares(env.seat, env.body, pos.reveal, batch.parent)

    def complete(self, pos: Position, batch: Batch, index: int, digest: str) -> str:
        reveal, shares = pos.reveal, {**pos.shares, **pos.virtual}
        assert reveal is not None
        pos.reveal, pos.shares = None, {}
        if reveal.to is None:
            faces = pos.table.open_public(reveal, shares)
            opened = ", ".join(f"{h}: {f}" for h, f in faces.items())
            summary = N_("revealed {faces}").format(faces=opened)
        else:
            faces = None
            pos.table.record_private(reveal, shares)
            opened = (
                N_("{count} sealed item opened to {name} alone")
                if len(reveal.items) == 1
                else N_("{count} sealed items opened to {name} alone")
            )
            summary = opened.format(count=len(reveal.items), name=pos.names[reveal.to])
        pos.state = pos.rules.apply_reveal(pos.state, reveal, faces)
        _after_batch(pos, batch, digest)
        return summary


class Disclose:
    """Every seat's deck secret at the end: checked against its key, then every shuffle is
    re-run (a review of the game; the shuffle proofs are what make shuffles sound)."""

    def body(self, pos: Position, batch: Batch, env: Envelope) -> None:
        pos.secrets[env.seat] = pos.table.check_disclosure(env.seat, env.body)

    def complete(self, pos: Position, batch: Batch, index: int, digest: str) -> str:
        pos.table.audit({**pos.secrets, **pos.virtual}, pos.names)
        pos.result = pos.final
        pos.advance_to(Awaiting("over", (), digest, "over"))
        return N_("deck secrets disclosed; every shuffle audited")


BATCHES: dict[str, BatchKind] = {
    "join": Join(),
    "act": Act(),
    "commit": Commit(),
    "reveal": RevealSealed(),
    "beacon": BeaconBatch(),
    "share": Share(),
    "disclose": Disclose(),
}


def _kind(batch: Batch) -> BatchKind:
    kind = BATCHES.get(batch.decision.partition(":")[0])
    if kind is None:
        raise Rejected(N_("unknown decision {decision!r}").format(decision=batch.decision))
    return kind


def envelope_body(pos: Position, batch: Batch, env: Envelope) -> None:
    _kind(batch).body(pos, batch, env)


def complete_batch(pos: Position, batch: Batch, index: int) -> None:
    """Take the chain links of a complete batch (those of open seats too, made here), then
    act on it. A batch made up entirely in the open (every seat it awaited is open or a
    stand-in) is no step of the file: its history line joins the last one."""
    digest = hash_of(batch) if batch.envelopes else pos.head_hash
    if batch.decision != "join":  # the envelopes' links were taken as they arrived
        for seat in sorted(pos.virtual):
            if seat in pos.published:
                pos.links[seat] = open_link(pos, seat)
    before = pos.state
    summary = _kind(batch).complete(pos, batch, index, digest)
    seats = [e.seat for e in batch.envelopes]
    kind = batch.decision.partition(":")[0]
    if batch.envelopes:
        pos.records.append(Record(index, kind, seats, summary, digest, consequences(pos, before)))
    else:
        pos.note(summary)


def consequences(pos: Position, before: Any) -> list[str]:
    """What the rules did by themselves in the step just taken, for the history."""
    if before is None or pos.state is None or before is pos.state:
        return []
    return pos.rules.consequences(before, pos.state, pos.names)


def _apply_parallel(pos: Position, batch: Batch, actions: dict[int, Any]) -> str:
    name = batch.decision.partition(":")[2]
    parts = [pos.rules.summary(pos.state, s, a, pos.names) for s, a in sorted(actions.items())]
    pos.state = pos.rules.apply_parallel(pos.state, actions)
    return f"{name}: " + "; ".join(parts)


def _after_batch(pos: Position, batch: Batch, digest: str) -> None:
    """A draw from the batch's links if the rules need one (architecture §5), then what is next.
    The links are the envelopes' and those of open seats made here, in seat order."""
    if isinstance(pos.rules.pending(pos.state), Chance):
        links = {e.seat: b64d(e.preimage) for e in batch.envelopes} | pos.links
        pos.draw(b"batch", bytes.fromhex(batch.parent), *(links[s] for s in sorted(links)))
    pos.author = None
    pos.links = {}
    pos.advance(digest)
