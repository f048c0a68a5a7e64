"""Games that survive a player who drops out (DESIGN §11): calls, escrow, resignation,
handover, and seats played in the open.

An **interruption** is a batch that may follow the head of the file even while a batch is
still open there (it then concerns every seat that batch still awaits, and closes it):

- ``call``: once the deadline has passed by their own claimed times, every active seat not
  awaited signs a call naming the awaited seats, the awaited parent and the decision. When
  all have signed, a missing decision is made by the ruleset's stand-in, in the open, with
  randomness from the callers' chain links (DESIGN §5); a missing automatic step needs the
  seat's secret, so the escrow holders are asked to open it (``unseal``). With no escrow, a
  call can only end the game (``end``), scored as it stands.
- ``unseal``: each escrow holder publishes its decrypted share of the called seat's
  secret; once all have, the secret is public and the seat's automatic steps are made by
  the replay itself, from then on.
- ``resign``: the seat publishes its secret; from then on a stand-in decides for it and its
  automatic steps are made in the open. Deterministic: nobody can steer it.
- ``handover``: the seat (or, for a seat whose secret is public, nobody) gives the seat to
  a substitute identity: its secret sealed to the substitute (HPKE), the other active seats
  co-signing; from then on the substitute's key signs for the seat.

A seat whose secret is public is **open**: whatever it owes without a decision (shares, a
reveal, a beacon link in a batch, a shuffle pass, the disclosure) is computed by every
replay alike, so it is never awaited; and it never supplies a beacon alone (its links are
known to all, so an author could grind its own step against them).
"""

from __future__ import annotations

import hashlib
from typing import Any

from pbem.core import deck, escrow
from pbem.core.canonical import b64d, b64e, canonical
from pbem.core.errors import Rejected
from pbem.core.escrow import Escrow
from pbem.core.gamefile import Batch, Envelope, Genesis
from pbem.core.group import check_scalar
from pbem.core.keys import IdentityCard
from pbem.core.position import CHOICES, Awaiting, Position
from pbem.core.randomness import Rng, chain, draw_value
from pbem.core.rules import RulesError
from pbem.core.sealing import open_sealed, seal_key
from pbem.core.seatsecret import derive
from pbem.core.words import a

INTERRUPTIONS = frozenset({"call", "unseal", "resign", "handover"})


# ----- who holds what ------------------------------------------------------------------------


def holders(genesis: Genesis, seat: int) -> list[IdentityCard]:
    """The escrow holders of ``seat``'s secret, in order: holder i is at position i − 1."""
    if genesis.escrow.mode == "referees":
        return list(genesis.escrow.referees)
    if genesis.escrow.mode == "others":
        return [c for s, c in enumerate(genesis.seats) if s != seat]
    return []


def holder_signers(genesis: Genesis, seat: int) -> list[int]:
    """The signer numbers of ``seat``'s escrow holders: seats, or ``len(seats) + r`` for
    referee r (referees sign only the opening of an escrow)."""
    n = len(genesis.seats)
    if genesis.escrow.mode == "referees":
        return [n + r for r in range(len(genesis.escrow.referees))]
    return [s for s in range(n) if s != seat]


def check_escrow(pos: Position, seat: int, deal: Any) -> Escrow:
    """A seat's escrow as published at its join: the right shape for its holders, and
    commitments that start from its own deck key (so it can share no other secret)."""
    n = len(holders(pos.genesis, seat))
    value = escrow.decode_escrow(deal, n)
    escrow.check_commitments(pos.table.keys[seat], value.commitments, n)
    return value


def signer_card(pos: Position, signer: int) -> IdentityCard:
    """The card whose key signs for ``signer``: the seat's in force, or a referee's."""
    n = len(pos.cards)
    if signer < n:
        return pos.cards[signer]
    return pos.genesis.escrow.referees[signer - n]


def due(pos: Position) -> int | None:
    """When the deadline of what is awaited now passes (UTC seconds, by the claimed times
    signed so far), or None when the game has no deadline or awaits nothing."""
    aw = pos.awaiting
    if not pos.genesis.deadline or aw is None or aw.kind == "over" or not pos.remaining():
        return None
    return pos.since + pos.genesis.deadline


def waiting(pos: Position, now: int) -> str:
    """How long the awaited seats have been awaited and when their deadline passes, in
    words (empty when nothing is awaited)."""
    if pos.awaiting is None or pos.awaiting.kind == "over" or not pos.remaining():
        return ""
    names = ", ".join(pos.names[s] for s in pos.remaining())
    line = f"{names} awaited since {_when(pos.since)} ({_span(now - pos.since)})"
    deadline = due(pos)
    if deadline is None:
        return line + "; no deadline"
    if now >= deadline:
        return line + f"; the deadline passed {_span(now - deadline)} ago: the others may call"
    return line + f"; the deadline passes at {_when(deadline)} (in {_span(deadline - now)})"


def _when(seconds: int) -> str:
    import datetime

    moment = datetime.datetime.fromtimestamp(seconds, tz=datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _span(seconds: int) -> str:
    seconds = max(0, seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    return f"{minutes}m"


def still_to_sign(pos: Position) -> list[IdentityCard]:
    """Whose signatures the open interruption still needs (nobody when none is open): they
    must get the file, as the seats it calls must, who may still act and void it."""
    batch = pos.interrupt
    if batch is None:
        return []
    signers = KINDS[batch.decision].signers(pos, batch.envelopes[0].body)
    done = {e.seat for e in batch.envelopes}
    return [signer_card(pos, s) for s in signers if s not in done]


def describe_interrupt(pos: Position) -> str:
    """Who has signed the open interruption, and who must still."""
    if pos.interrupt is None:
        return ""
    signed = ", ".join(signer_card(pos, e.seat).name for e in pos.interrupt.envelopes)
    still = ", ".join(card.name for card in still_to_sign(pos))
    return f"signed by {signed}; still to sign: {still or 'nobody'}"


def active(pos: Position) -> list[int]:
    return [s for s in range(len(pos.cards)) if s not in pos.resigned]


# ----- secrets in the open ------------------------------------------------------------------


def _chain_of(pos: Position, seat: int) -> tuple[bytes, ...]:
    x = pos.published[seat]
    return _chains(x, pos.genesis.game, pos.genesis.chain)


_CHAINS: dict[tuple[bytes, str, int], tuple[bytes, ...]] = {}


def _chains(x: bytes, game: str, length: int) -> tuple[bytes, ...]:
    key = (x, game, length)
    if key not in _CHAINS:
        _CHAINS[key] = tuple(chain(derive(x, b64d(game), "beacon"), length))
    return _CHAINS[key]


def open_link(pos: Position, seat: int) -> bytes:
    """The next chain link of an open seat, taken as if it had signed it."""
    value = _chain_of(pos, seat)[pos.revealed[seat] + 1]
    pos.beacons[seat] = value
    pos.revealed[seat] += 1
    return value


def open_contribution(pos: Position, batch: Batch, seat: int) -> Any:
    """What an open seat owes to the awaited batch, made here from its public secret; None
    if it owes a decision (only a resigned seat's stand-in answers that)."""
    kind = batch.decision.partition(":")[0]
    x = pos.published[seat]
    if kind == "share":
        assert pos.reveal is not None
        return [deck_share(pos, handle, x) for handle in pos.reveal.items]
    if kind == "disclose":
        return x
    if kind == "beacon":
        return b""
    if kind == "reveal":
        commit = pos.commit
        assert commit is not None
        mine = next((e for e in commit.envelopes if e.seat == seat), None)
        if mine is None:
            return None
        key = seal_key(
            lambda label, extra: derive(x, b64d(pos.genesis.game), label, extra),
            commit.parent,
            seat,
            commit.decision,
        )
        opened = open_sealed(key, mine.body, pos.genesis.game, commit.parent, seat, commit.decision)
        return pos.rules.load_action(opened)
    return None


def deck_share(pos: Position, handle: str, x: bytes) -> Any:
    from pbem.core.group import mul

    return mul(x, pos.table.ciphertext(handle).c1)


def stand_in_rng(pos: Position, seat: int, parts: list[bytes]) -> Rng:
    """The randomness of a stand-in's decision: from values fixed before anyone could
    compute the outcome (DESIGN §5): the callers' links, or a resigned seat's own next
    link (fixed since its join), with the game and the parent it answers."""
    return Rng(
        draw_value(b"stand-in", pos.game_bytes, bytes.fromhex(pos.head_hash), bytes([seat]), *parts)
    )


def stand_in(pos: Position, seat: int, rng: Rng) -> Any:
    """The ruleset's stand-in's decision for ``seat`` now."""
    try:
        action = pos.rules.stand_in(pos.state, seat, rng)
        pos.rules.check(pos.state, seat, action)
    except RulesError as exc:
        raise Rejected(f"the stand-in for seat {seat} found no legal move: {exc}") from exc
    return action


# ----- the interruptions ----------------------------------------------------------------------


def _body(env: Envelope, keys: set[str]) -> dict[str, Any]:
    if set(env.body) != keys:
        raise Rejected(f"{a(env.decision)} body holds exactly {', '.join(sorted(keys))}")
    return env.body


def _seats(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not value or not all(type(s) is int for s in value):
        raise Rejected(f"{what} must be a non-empty list of seat numbers")
    if value != sorted(set(value)):
        raise Rejected(f"{what} must be sorted, each seat once")
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
            raise Rejected("an escrow is being opened: no call until it is")
        if called != remaining:
            who = ", ".join(pos.names[s] for s in remaining) or "nobody"
            raise Rejected(f"a call names every seat awaited now ({who}), no other")
        if body["decision"] != aw.decision or body["awaited"] != aw.parent:
            raise Rejected("the call names another decision than the one awaited")
        if type(body["end"]) is not bool:
            raise Rejected("'end' is true or false")
        if env.seat in remaining:
            raise Rejected("a seat that is awaited itself cannot call")
        if batch.envelopes and canonical(batch.envelopes[0].body) != canonical(body):
            raise Rejected("every caller names the same seats, decision and ending")
        deadline = pos.genesis.deadline
        if not deadline:
            raise Rejected("this game has no deadline: nobody can be called")
        if env.time < pos.since + deadline:
            raise Rejected(
                f"too early: by the caller's own clock the deadline passes at "
                f"{pos.since + deadline}, not before (claimed {env.time})"
            )
        if not body["end"] and pos.genesis.escrow.mode == "none" and not aw.is_decision:
            raise Rejected("with no escrow, a call on an automatic step can only end the game")
        if body["end"] and not pos.rules.can_end_early:
            raise Rejected(f"{pos.rules.id} cannot be scored before its end")

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
            raise Rejected("an escrow is opened for one seat at a time: call them one by one")
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
            raise Rejected("no escrow is being opened for that seat")
        share = escrow.decode_share(body["share"])
        index = holder_signers(pos.genesis, seat).index(env.seat) + 1
        held = pos.escrows[seat]
        if not escrow.check_share(index, share, pos.table.keys[seat], held.commitments):
            raise Rejected(f"the decrypted escrow share of holder {index} does not match")

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
            raise Rejected("a resignation is signed by the seat that resigns")
        _concerns(pos, [env.seat])
        x = check_scalar(b64d(body["secret"], size=32, what="seat secret"), "seat secret")
        if deck.public_key(x) != pos.table.keys[env.seat]:
            raise Rejected("the published secret does not match the seat's deck key")

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
            raise Rejected("a handover names a seat")
        card = IdentityCard.from_value(body["card"], what="the substitute's card")
        if any(c.sign_key == card.sign_key for c in pos.cards) or any(
            c.sign_key == card.sign_key for c in pos.genesis.seats
        ):
            raise Rejected(f"{card.name} holds a seat in this game already")
        if env.seat not in self.signers(pos, body):
            raise Rejected("a handover is signed by the seat itself and the other active seats")
        first = batch.envelopes[0].body if batch.envelopes else body
        if canonical(first) != canonical(body):
            raise Rejected("every signer of a handover names the same seat, card and secret")
        if seat in pos.published:
            if body["secret"] != "":
                raise Rejected("a seat whose secret is public is handed over without one")
        else:
            b64d(body["secret"], what="sealed seat secret")
        if pos.batch is not None:
            raise Rejected("a seat is handed over when no decision is half answered")

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
            "wait until the other seats of the open decision have answered (or resign on a turn)"
        )


KINDS: dict[str, Any] = {
    "call": Call(),
    "unseal": Unseal(),
    "resign": Resign(),
    "handover": Handover(),
}


# ----- adding interruptions, and what the replay makes itself --------------------------------


def add_interruption(pos: Position, env: Envelope) -> None:
    """Verify one envelope of an interruption (opening it if none is open)."""
    from pbem.core.position import StepRejected, reason_of

    kind = KINDS[env.decision]
    opening = pos.interrupt is None
    index = pos.count if opening else pos.count - 1
    seat = env.seat
    fail = lambda reason: StepRejected(index, seat, pos.names, reason)  # noqa: E731
    if pos.awaiting is None or pos.awaiting.kind == "over":
        raise fail("the game is over; no step may follow")
    if opening:
        if pos.demand is not None and env.decision != pos.demand.decision:
            raise fail(f"the game waits for the {pos.demand.decision} of an escrow first")
        if pos.demand is None and env.decision == "unseal":
            raise fail("no escrow is being opened")
        batch = Batch.model_construct(
            kind="batch", parent=pos.file_head, decision=env.decision, envelopes=[]
        )
    else:
        batch = pos.interrupt
        assert batch is not None
        if env.decision != batch.decision:
            raise fail(f"envelope is for {env.decision!r}, awaited {batch.decision!r}")
        if seat in {e.seat for e in batch.envelopes}:
            raise fail("a second envelope by the same seat in one batch")
    try:
        signers = kind.signers(pos, batch.envelopes[0].body if batch.envelopes else env.body)
    except (Rejected, KeyError, TypeError) as exc:
        raise fail(reason_of(exc)) from exc
    if not 0 <= seat < len(pos.cards) + len(pos.genesis.escrow.referees):
        raise StepRejected(index, None, pos.names, f"signer {seat} does not exist")
    link = pos.check_signed(index, env, batch.parent)
    try:
        kind.check(pos, batch, env)
    except (Rejected, RulesError, ValueError) as exc:
        raise fail(reason_of(exc)) from exc
    if seat not in signers or (seat >= len(pos.cards) and env.decision != "unseal"):
        raise fail(f"this seat does not sign this {env.decision}")
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
        return
    done, pos.interrupt = pos.interrupt, None
    digest = digest_of(done)
    from pbem.core.position import Record

    record = Record(index, env.decision, [e.seat for e in envelopes], "", digest)
    pos.records.append(record)
    try:
        record.summary = kind.complete(pos, done, digest) + record.summary
        pos.settle()
    except (Rejected, RulesError, ValueError) as exc:
        if isinstance(exc, StepRejected):
            raise
        raise StepRejected(index, None, pos.names, reason_of(exc)) from exc


def settle(pos: Position) -> None:
    """Make what nobody needs to sign: whatever open seats owe without a decision, and
    the decisions of resigned seats (or of called ones) by the stand-in, until the game
    waits for a signature again."""
    from pbem.core.steps import complete_batch

    while (aw := pos.awaiting) is not None and aw.kind != "over" and pos.demand is None:
        if pos.interrupt is not None:
            return
        if aw.kind == "batch":
            owed = pos.remaining()
            if owed and not any(s in pos.published or s in pos.resigned for s in owed):
                return  # every seat still owed signs for itself
            batch = pos.batch or Batch.model_construct(
                kind="batch", parent=aw.parent, decision=aw.decision, envelopes=[]
            )
            for seat in owed:
                made = _made_here(pos, batch, seat)
                if made is not None:
                    pos.virtual[seat] = made
            if pos.remaining():
                return
            index = pos.batch_at if pos.batch is not None else pos.count
            pos.batch, pos.frozen = None, False
            complete_batch(pos, batch, index)
            continue
        seat = aw.seats[0]
        if aw.kind == "turn" and (seat in pos.virtual or seat in pos.resigned):
            _turn_in_the_open(pos, seat)
        elif aw.kind == "shuffle" and seat in pos.published:
            _shuffle_in_the_open(pos, seat)
        else:
            return


def _made_here(pos: Position, batch: Batch, seat: int) -> Any:
    if seat in pos.published:
        made = open_contribution(pos, batch, seat)
        if made is not None:
            return made
    if seat in pos.resigned and batch.decision.startswith(CHOICES):
        link = _chain_of(pos, seat)[pos.revealed[seat] + 1]
        return stand_in(pos, seat, stand_in_rng(pos, seat, [link]))
    return None


def _turn_in_the_open(pos: Position, seat: int) -> None:
    """A turn decided by the stand-in (a called seat's, or a resigned seat's)."""
    action = pos.virtual.pop(seat, None)
    if action is None:
        link = _chain_of(pos, seat)[pos.revealed[seat] + 1]
        action = stand_in(pos, seat, stand_in_rng(pos, seat, [link]))
    if seat in pos.published:
        open_link(pos, seat)
    summary = pos.rules.summary(pos.state, seat, action, pos.names)
    pos.state = pos.rules.apply(pos.state, seat, action)
    pos.note(f"the stand-in plays {summary}")
    pos.author = seat
    pos.advance(pos.head_hash)


def _shuffle_in_the_open(pos: Position, seat: int) -> None:
    """An open seat's shuffle pass, made by every replay alike from its public secret."""
    aw = pos.awaiting
    assert aw is not None
    body = pos.table.shuffle_body(seat, pos.published[seat], aw.parent)
    pos.table.apply_shuffle(seat, body, aw.parent)
    open_link(pos, seat)
    pos.note(f"{pos.names[seat]}'s shuffle pass")
    if seat + 1 < len(pos.names):
        pos.advance_to(Awaiting("shuffle", (seat + 1,), aw.parent, "shuffle"))
        return
    pos.table.unshuffled = []
    if pos.reshuffle is None:
        pos.advance(aw.parent, setup=True)
        return
    pos.state = pos.rules.apply_reshuffle(pos.state, pos.reshuffle)
    pos.reshuffle = None
    pos.author = seat
    pos.advance(aw.parent)


def handover_secret(x: bytes, card: IdentityCard, game: str, seat: int) -> str:
    """The seat secret sealed to the substitute (HPKE, bound to game and seat)."""
    from pbem.core import hpke

    info = b"pbem/1/handover\0" + canonical([game, seat])
    return b64e(hpke.seal(card.box_key_bytes, x, info, b"", what="handed-over secret"))


def handover_info(game: str, seat: int) -> bytes:
    return b"pbem/1/handover\0" + canonical([game, seat])


def digest_of(batch: Batch) -> str:
    return hashlib.sha256(batch.canonical_bytes()).hexdigest()
