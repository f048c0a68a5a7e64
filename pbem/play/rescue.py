"""Signing the steps that keep a game going when a player drops out (architecture §11): a call
on the seats that are late, an escrow holder's share when a call opens an escrow, a
resignation, a handover to a substitute and its acceptance. Like every signature, each
goes through the journal first (``pbem.play.author``), so nobody signs two different ones
for one decision. ``pbem.ledger.interruptions`` says what the replay checks and does with them."""

from __future__ import annotations

from typing import Any

from pbem.crypto import escrow
from pbem.crypto.keys import Identity
from pbem.format.canonical import b64e, canonical
from pbem.format.card import IdentityCard
from pbem.format.errors import Rejected, UsageError
from pbem.format.gamefile import Envelope
from pbem.ledger.interruptions import handover_secret
from pbem.ledger.position import Position
from pbem.ledger.seats import active, holder_signers, holders, signer_card
from pbem.play.signer import Clock, _always, _publish, next_preimage, seat_secret, utc_now
from pbem.store.journal import Journal


def signer_of(pos: Position, identity: Identity) -> int:
    """The signer number of ``identity``: the seat it holds now, or ``seats + r`` for
    escrow referee r."""
    n = len(pos.cards)
    for signer in range(n + len(pos.genesis.escrow.referees)):
        if signer_card(pos, signer).sign_key == identity.card.sign_key:
            return signer
    raise UsageError(f"{identity.card.name!r} holds no seat in this game and is no referee")


def _sign(
    pos: Position,
    identity: Identity,
    signer: int,
    decision: str,
    body: dict[str, Any],
    clock: Clock,
    journal: Journal | None,
    same: Any = None,
) -> None:
    """Sign an envelope of an interruption and add it (the replay's checks decide)."""
    preimage = ""
    if signer < len(pos.cards):
        preimage = next_preimage(pos, identity, signer)
    fields = {
        "kind": "envelope",
        "game": pos.genesis.game,
        "parent": pos.interrupt.parent if pos.interrupt is not None else pos.file_head,
        "decision": decision,
        "seat": signer,
        "body": body,
        "preimage": preimage,
        "notes": [],
    }
    same = same or (lambda earlier: canonical(earlier.body) == canonical(body))
    pos.add_envelope(_publish(pos, identity, Envelope, fields, clock, journal, same))


def call(
    pos: Position,
    identity: Identity,
    *,
    end: bool = False,
    clock: Clock = utc_now,
    journal: Journal | None = None,
) -> list[int]:
    """Sign a call on every seat the game awaits now (the deadline must have passed by
    this signer's clock), or join the call other seats opened. Returns the called seats."""
    aw = pos.awaiting
    if aw is None or aw.kind == "over":
        raise Rejected("the game is over: nobody to call")
    if pos.interrupt is not None and pos.interrupt.decision == "call":
        body = dict(pos.interrupt.envelopes[0].body)
        if body["end"] != end:
            raise Rejected(
                "the open call "
                + ("ends" if body["end"] else "does not end")
                + " the game: sign it as it is, or let it be"
            )
    else:
        body = {
            "seats": sorted(pos.remaining()),
            "decision": aw.decision,
            "awaited": aw.parent,
            "end": end,
        }
    seat = signer_of(pos, identity)
    _sign(pos, identity, seat, "call", body, clock, journal)
    return body["seats"]


def _alone(pos: Position, seat: int, what: str) -> None:
    """A resignation or a handover is signed while the game waits for ``seat`` alone: then
    no other seat can sign the next step meanwhile, and the two cannot cross in the mail
    and split the game (architecture §11). The ledger accepts them at other times too; pbem
    does not make them then."""
    if pos.interrupt is None and tuple(pos.remaining()) != (seat,):
        waiting = ", ".join(pos.names[s] for s in pos.remaining()) or "nobody"
        raise UsageError(
            f"{what} when the game waits for you alone (your turn, or the last answer of a "
            f"decision), so that it cannot cross another player's move; it waits for {waiting}"
        )


def resign(
    pos: Position, identity: Identity, *, clock: Clock = utc_now, journal: Journal | None = None
) -> None:
    """Give up the seat: its secret is published, a stand-in plays it from now on. Only
    while the game waits for this seat alone (``_alone``)."""
    seat = signer_of(pos, identity)
    _alone(pos, seat, "resign")
    x = seat_secret(pos, identity, seat)
    _sign(pos, identity, seat, "resign", {"seat": seat, "secret": b64e(x)}, clock, journal)


def handover(
    pos: Position,
    identity: Identity,
    card: IdentityCard,
    *,
    seat: int | None = None,
    clock: Clock = utc_now,
    journal: Journal | None = None,
) -> None:
    """Hand ``identity``'s seat (or, for a seat whose secret is public, ``seat``) to
    ``card``, while the game waits for the signer alone (``_alone``); or, as another
    active seat, co-sign the handover already open to ``card``."""
    signer = signer_of(pos, identity)
    if pos.interrupt is None:
        _alone(pos, signer, "a seat is handed over")
    if pos.interrupt is not None and pos.interrupt.decision == "handover":
        body = dict(pos.interrupt.envelopes[0].body)
        if body["card"] != card.model_dump():
            raise Rejected("the open handover is to someone else: sign it as it is, or not")
    else:
        given = signer if seat is None else seat
        if given in pos.published:
            secret = ""
        elif given == signer:
            x = seat_secret(pos, identity, given)
            secret = handover_secret(x, card, pos.genesis.game, given)
        else:
            raise Rejected("only the seat itself can hand over a seat whose secret is not public")
        body = {"seat": given, "card": card.model_dump(), "secret": secret}
    # The sealed secret is fresh randomness: what was signed before is used again.
    _sign(pos, identity, signer, "handover", body, clock, journal, _always)


def unseal(
    pos: Position, identity: Identity, *, clock: Clock = utc_now, journal: Journal | None = None
) -> bool:
    """As an escrow holder of the seat whose escrow a call opens, publish the decrypted
    share. False when nothing is asked of ``identity``."""
    seat = pos.unsealing
    if pos.demand is None or seat is None:
        return False
    signer = signer_of(pos, identity)
    signers = holder_signers(pos.genesis, seat)
    done = {e.seat for e in pos.interrupt.envelopes} if pos.interrupt is not None else set()
    if signer not in signers or signer in done:
        return False
    index = signers.index(signer) + 1
    share = escrow.open_share(
        identity,
        pos.escrows[seat],
        pos.table.keys[seat],
        pos.genesis.game,
        seat,
        index,
    )
    body = {"seat": seat, "share": escrow.encode_share(share)}
    _sign(pos, identity, signer, "unseal", body, clock, journal)
    return True


def check_my_shares(pos: Position, identity: Identity) -> None:
    """As an escrow holder, open the share every other seat sealed to this identity and
    check it against the commitments: a seat that dealt a bad share is refused at once,
    by name (only the holder can see its own share)."""
    for seat, held in pos.escrows.items():
        cards = holders(pos.genesis, seat)
        keys = [c.sign_key for c in cards]
        if identity.card.sign_key not in keys:
            continue
        index = keys.index(identity.card.sign_key) + 1
        try:
            escrow.open_share(identity, held, pos.table.keys[seat], pos.genesis.game, seat, index)
        except Rejected as exc:
            raise Rejected(
                f"seat {seat} ({pos.names[seat]}) escrowed a share for you that does not "
                f"match its commitments ({exc}): the game cannot go on with it"
            ) from exc


def callers(pos: Position) -> list[int]:
    """Who would sign a call now: every active seat not awaited."""
    waiting = set(pos.remaining())
    return [s for s in active(pos) if s not in waiting]
