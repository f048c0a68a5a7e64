"""Games that survive a player who drops out (architecture §11): the interruptions.

An **interruption** is a batch that may follow the head of the file even while a batch is
still open there (it then concerns every seat that batch still awaits, and closes it):

- ``call``: once the deadline has passed by their own claimed times, every active seat not
  awaited signs a call naming the awaited seats, the awaited parent and the decision. When
  all have signed, a missing decision is made by the ruleset's stand-in, in the open, with
  randomness from the callers' chain links (architecture §5); a missing automatic step needs the
  seat's secret, so the escrow holders are asked to open it (``unseal``). With no escrow, a
  call can only end the game (``end``), scored as it stands.
- ``unseal``: each escrow holder publishes its decrypted share of the called seat's
  secret; once all have, the secret is public and the seat's automatic steps are made by
  the replay itself, from then on (``pbem.ledger.openseats``).
- ``resign``: the seat publishes its secret; from then on a stand-in decides for it and its
  automatic steps are made in the open. Deterministic: nobody can steer it.
- ``handover``: the seat (or, for a seat whose secret is public, nobody) gives the seat to
  a substitute identity: its secret sealed to the substitute (HPKE), the other active seats
  co-signing; from then on the substitute's key signs for the seat.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from pbem.crypto import deck, escrow
from pbem.crypto.group import check_scalar
from pbem.format.canonical import b64d, b64e, canonical
from pbem.format.card import IdentityCard
from pbem.format.errors import Rejected
from pbem.format.gamefile import Batch, Envelope
from pbem.format.i18n import N_
from pbem.format.words import a
from pbem.ledger.openseats import stand_in, stand_in_rng
from pbem.ledger.seats import active, holder_signers, signer_card
from pbem.ledger.terms import Awaiting, Record, StepRejected, reason_of
from pbem.ruleset.rules import RulesError

if TYPE_CHECKING:
    from pbem.ledger.position import Position

INTERRUPTIONS = frozenset({"call", "unseal", "resign", "handover"})


# ----- the interruptions ----------------------------------------------------------------------


def _body(env: Envelope, keys: set[str]) -> dict[str, Any]:
    if set(env.body) != keys:
        raise Rejected(
            N_("{a} body holds exactly {items}").format(
                a=a(env.decision), items=", ".join(sorted(keys))
            )
        )
    return env.body


def _seats(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not value or not all(type(s) is int for s in value):
        raise Rejected(N_("{what} must be a non-empty list of seat numbers").format(what=what))
    if value != sorted(set(value)):
        raise Rejected(N_("{what} must be sorted, each seat once").format(what=what))
    return value


class Call:
    """Every active seat not awaited names the awaited seats once the deadline passed."""

    def signers(self, pos: Position, body: dict[str, Any]) -> list[int]:
        called = _seats(body.get("seats"), "the called seats")
        return [s for s in active(pos) if s not in called]

    def check(self, pos: Position, batch: Batch, env: Envelope) -> None:
        body = _body(env, {"seats", "decision", "awaited", "end"})
        aw = pos.awaiting
        assert aw is not None
        called = _seats(body["seats"], "the called seats")
        remaining = sorted(pos.remaining())
        if pos.demand is not None:
            raise Rejected(N_("an escrow is being opened: no call until it is"))
        if aw.decision == "join":
            raise Rejected(
                N_(
                    "nobody can be called before every seat has joined: the game has not "
                    "begun (start it again without the missing seats)"
                )
            )
        if called != remaining:
            who = ", ".join(pos.names[s] for s in remaining) or "nobody"
            raise Rejected(
                N_("a call names every seat awaited now ({who}), no other").format(who=who)
            )
        if body["decision"] != aw.decision or body["awaited"] != aw.parent:
            raise Rejected(N_("the call names another decision than the one awaited"))
        if type(body["end"]) is not bool:
            raise Rejected(N_("'end' is true or false"))
        if env.seat in remaining:
            raise Rejected(N_("a seat that is awaited itself cannot call"))
        if batch.envelopes and canonical(batch.envelopes[0].body) != canonical(body):
            raise Rejected(N_("every caller names the same seats, decision and ending"))
        deadline = pos.genesis.deadline
        if not deadline:
            raise Rejected(N_("this game has no deadline: nobody can be called"))
        if env.time < pos.since + deadline:
            raise Rejected(
                N_(
                    "too early: by the caller's own clock the deadline passes at "
                    "{deadline}, not before (claimed {time})"
                ).format(deadline=pos.since + deadline, time=env.time)
            )
        if not body["end"] and pos.genesis.escrow.mode == "none" and not aw.is_decision:
            raise Rejected(N_("with no escrow, a call on an automatic step can only end the game"))
        if body["end"] and not pos.rules.can_end_early:
            raise Rejected(N_("{id} cannot be scored before its end").format(id=pos.rules.id))

    def complete(self, pos: Position, batch: Batch, digest: str) -> str:
        body = batch.envelopes[0].body
        called = body["seats"]
        names = ", ".join(pos.names[s] for s in called)
        if body["end"]:
            pos.end_early()
            return f"call on {names}: the game ends, scored as it stands"
        aw = pos.awaiting
        assert aw is not None
        if aw.is_decision:
            links = [b64d(e.preimage) for e in batch.envelopes]
            moves = []
            for seat in called:
                action = stand_in(pos, seat, stand_in_rng(pos, seat, links))
                pos.virtual[seat] = action
                moves.append(pos.rules.summary(pos.state, seat, action, pos.names))
            pos.close_after(digest)
            return f"call on {names}: the stand-in plays, in the open: {'; '.join(moves)}"
        (seat,) = called if len(called) == 1 else (None,)
        if seat is None:
            raise Rejected(N_("an escrow is opened for one seat at a time: call them one by one"))
        pos.demand = Awaiting("batch", tuple(holder_signers(pos.genesis, seat)), digest, "unseal")
        pos.unsealing = seat
        return f"call on {names}: the escrow holders are asked to open {names}'s secret"


class Unseal:
    """The escrow holders publish their decrypted shares of the called seat's secret."""

    def signers(self, pos: Position, body: dict[str, Any]) -> list[int]:
        assert pos.unsealing is not None
        return holder_signers(pos.genesis, pos.unsealing)

    def check(self, pos: Position, batch: Batch, env: Envelope) -> None:
        body = _body(env, {"seat", "share"})
        seat = pos.unsealing
        if pos.demand is None or seat is None or body["seat"] != seat:
            raise Rejected(N_("no escrow is being opened for that seat"))
        signers = holder_signers(pos.genesis, seat)
        if env.seat not in signers:
            raise Rejected(
                N_("this seat holds no share of {names}'s escrow").format(names=pos.names[seat])
            )
        share = escrow.decode_share(body["share"])
        index = signers.index(env.seat) + 1
        held = pos.escrows[seat]
        if not escrow.check_share(index, share, pos.table.keys[seat], held.commitments):
            raise Rejected(
                N_("the decrypted escrow share of holder {index} does not match").format(
                    index=index
                )
            )

    def complete(self, pos: Position, batch: Batch, digest: str) -> str:
        seat = pos.unsealing
        assert seat is not None
        signers = holder_signers(pos.genesis, seat)
        shares = {
            signers.index(e.seat) + 1: escrow.decode_share(e.body["share"]) for e in batch.envelopes
        }
        held = pos.escrows[seat]
        pos.published[seat] = escrow.combine(shares, pos.table.keys[seat], held.commitments)
        pos.demand, pos.unsealing = None, None
        pos.close_after(digest)
        return f"{pos.names[seat]}'s secret opened by its escrow holders: made in the open now"


class Resign:
    """A seat gives up: it publishes its secret; a stand-in plays it from now on."""

    def signers(self, pos: Position, body: dict[str, Any]) -> list[int]:
        return [body["seat"]] if type(body.get("seat")) is int else []

    def check(self, pos: Position, batch: Batch, env: Envelope) -> None:
        body = _body(env, {"seat", "secret"})
        if body["seat"] != env.seat:
            raise Rejected(N_("a resignation is signed by the seat that resigns"))
        _concerns(pos, [env.seat])
        x = check_scalar(b64d(body["secret"], size=32, what="seat secret"), "seat secret")
        if deck.public_key(x) != pos.table.keys[env.seat]:
            raise Rejected(N_("the published secret does not match the seat's deck key"))

    def complete(self, pos: Position, batch: Batch, digest: str) -> str:
        seat = batch.envelopes[0].seat
        pos.published[seat] = b64d(batch.envelopes[0].body["secret"])
        pos.resigned.add(seat)
        pos.close_after(digest)
        return f"{pos.names[seat]} resigned: a stand-in plays the seat, in the open"


class Handover:
    """A seat passes to a substitute: the seat (unless its secret is public) and every
    other active seat sign; the substitute's key signs for the seat from then on."""

    def signers(self, pos: Position, body: dict[str, Any]) -> list[int]:
        seat = body.get("seat")
        if type(seat) is not int:
            return []
        others = [s for s in active(pos) if s != seat]
        return sorted([*others, *([] if seat in pos.published else [seat])])

    def check(self, pos: Position, batch: Batch, env: Envelope) -> None:
        body = _body(env, {"seat", "card", "secret"})
        seat = body["seat"]
        if type(seat) is not int or not 0 <= seat < len(pos.cards):
            raise Rejected(N_("a handover names a seat"))
        card = IdentityCard.from_value(body["card"], what="the substitute's card")
        if any(c.sign_key == card.sign_key for c in pos.cards) or any(
            c.sign_key == card.sign_key for c in pos.genesis.seats
        ):
            raise Rejected(N_("{card} holds a seat in this game already").format(card=card.name))
        if env.seat not in self.signers(pos, body):
            raise Rejected(N_("a handover is signed by the seat itself and the other active seats"))
        first = batch.envelopes[0].body if batch.envelopes else body
        if canonical(first) != canonical(body):
            raise Rejected(N_("every signer of a handover names the same seat, card and secret"))
        if seat in pos.published:
            if body["secret"] != "":
                raise Rejected(N_("a seat whose secret is public is handed over without one"))
        else:
            b64d(body["secret"], what="sealed seat secret")
        if pos.batch is not None:
            raise Rejected(N_("a seat is handed over when no decision is half answered"))

    def complete(self, pos: Position, batch: Batch, digest: str) -> str:
        body = batch.envelopes[0].body
        seat = body["seat"]
        card = IdentityCard.from_value(body["card"])
        before = pos.names[seat]
        pos.cards[seat] = card
        pos.names[seat] = card.name
        pos.resigned.discard(seat)
        if body["secret"]:
            pos.handed[seat] = body["secret"]
        pos.reparent(digest)
        return f"{before}'s seat handed over to {card.name} [{card.fingerprint}]"


def _concerns(pos: Position, seats: list[int]) -> None:
    """An interruption may follow an open batch only if it concerns every seat that batch
    still awaits (then it closes it); otherwise nothing may be open."""
    if pos.batch is not None and sorted(pos.remaining()) != sorted(seats):
        raise Rejected(
            N_(
                "wait until the other seats of the open decision have answered (or "
                "resign on a turn)"
            )
        )


KINDS: dict[str, Any] = {
    "call": Call(),
    "unseal": Unseal(),
    "resign": Resign(),
    "handover": Handover(),
}


def still_to_sign(pos: Position) -> list[IdentityCard]:
    """Whose signatures the open interruption still needs (nobody when none is open): they
    must get the file, as the seats it calls must, who may still act and void it."""
    batch = pos.interrupt
    if batch is None:
        return []
    signers = KINDS[batch.decision].signers(pos, batch.envelopes[0].body)
    done = {e.seat for e in batch.envelopes}
    return [signer_card(pos, s) for s in signers if s not in done]


def answer_voids_call(pos: Position, seat: int) -> bool:
    """Whether ``seat``, answering the decision it is awaited for now, voids the open call
    not yet signed by every caller: a called seat that answers is no longer late
    (architecture §11). Its answer then follows the head before the call, which every
    store drops when the answer reaches it, as the store's rule for a call and an answer
    that crossed in the mail says (``pbem.store.importing._voided_by``): the call is void
    once every seat it called has answered. So one caller alone cannot freeze the seats
    it called."""
    batch = pos.interrupt
    if batch is None or batch.decision != "call" or seat not in pos.remaining():
        return False
    called = set(batch.envelopes[0].body["seats"])
    answered = {e.seat for e in pos.batch.envelopes} if pos.batch is not None else set()
    return seat in called and called <= answered | {seat}


def describe_interrupt(pos: Position) -> str:
    """Who has signed the open interruption, and who must still."""
    if pos.interrupt is None:
        return ""
    signed = ", ".join(signer_card(pos, e.seat).name for e in pos.interrupt.envelopes)
    still = ", ".join(card.name for card in still_to_sign(pos))
    return f"signed by {signed}; still to sign: {still or 'nobody'}"


# ----- adding interruptions, and what the replay makes itself --------------------------------


def add_interruption(pos: Position, env: Envelope) -> int | None:
    """Verify one envelope of an interruption (opening it if none is open). Once the
    interruption is complete it acts, and its step's index is returned: the caller then
    settles what the replay makes itself (``pbem.ledger.settle``)."""
    kind = KINDS[env.decision]
    opening = pos.interrupt is None
    index = pos.count if opening else pos.count - 1
    seat = env.seat
    fail = lambda reason: StepRejected(index, seat, pos.names, reason)  # noqa: E731
    if pos.awaiting is None or pos.awaiting.kind == "over":
        raise fail(N_("the game is over; no step may follow"))
    if opening:
        if pos.demand is not None and env.decision != pos.demand.decision:
            raise fail(
                N_("the game waits for the {decision} of an escrow first").format(
                    decision=pos.demand.decision
                )
            )
        if pos.demand is None and env.decision == "unseal":
            raise fail(N_("no escrow is being opened"))
        batch = Batch.model_construct(
            kind="batch", parent=pos.file_head, decision=env.decision, envelopes=[]
        )
    else:
        batch = pos.interrupt
        assert batch is not None
        if env.decision != batch.decision:
            raise fail(
                N_("envelope is for {decision!r}, awaited {decision2!r}").format(
                    decision=env.decision, decision2=batch.decision
                )
            )
        if seat in {e.seat for e in batch.envelopes}:
            raise fail(N_("a second envelope by the same seat in one batch"))
    try:
        signers = kind.signers(pos, batch.envelopes[0].body if batch.envelopes else env.body)
    except (Rejected, KeyError, TypeError) as exc:
        raise fail(reason_of(exc)) from exc
    if not 0 <= seat < len(pos.cards) + len(pos.genesis.escrow.referees):
        raise StepRejected(
            index, None, pos.names, N_("signer {seat} does not exist").format(seat=seat)
        )
    link = pos.check_signed(index, env, batch.parent)
    try:
        kind.check(pos, batch, env)
    except (Rejected, RulesError, ValueError) as exc:
        raise fail(reason_of(exc)) from exc
    if seat not in signers or (seat >= len(pos.cards) and env.decision != "unseal"):
        raise fail(N_("this seat does not sign this {decision}").format(decision=env.decision))
    envelopes = sorted([*batch.envelopes, env], key=lambda e: e.seat)
    pos.interrupt = pos.last = Batch.model_construct(
        kind="batch", parent=batch.parent, decision=batch.decision, envelopes=envelopes
    )
    if opening:
        pos.count += 1
        pos.frozen = pos.batch is not None
    pos.signatures += 1
    pos.latest = max(pos.latest, env.time)
    pos.taken.append((index, env))
    if seat < len(pos.cards):
        pos.consume_preimage(seat, link)
    if len(envelopes) < len(signers):
        return None
    done, pos.interrupt = pos.interrupt, None
    digest = digest_of(done)
    record = Record(index, env.decision, [e.seat for e in envelopes], "", digest)
    pos.records.append(record)
    try:
        record.summary = kind.complete(pos, done, digest) + record.summary
    except (Rejected, RulesError, ValueError) as exc:
        if isinstance(exc, StepRejected):
            raise
        raise StepRejected(index, None, pos.names, reason_of(exc)) from exc
    return index


def handover_secret(x: bytes, card: IdentityCard, game: str, seat: int) -> str:
    """The seat secret sealed to the substitute (HPKE, bound to game and seat)."""
    from pbem.crypto import hpke

    info = b"pbem/1/handover\0" + canonical([game, seat])
    return b64e(hpke.seal(card.box_key_bytes, x, info, b"", what="handed-over secret"))


def handover_info(game: str, seat: int) -> bytes:
    return b"pbem/1/handover\0" + canonical([game, seat])


def digest_of(batch: Batch) -> str:
    return hashlib.sha256(batch.canonical_bytes()).hexdigest()
