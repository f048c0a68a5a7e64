"""Every way issue 14 lists to abuse a dropout is refused with one line naming the step,
the seat and the reason (architecture §11)."""

from __future__ import annotations

import pytest

from pbem.crypto import escrow
from pbem.crypto.signatures import sign_item
from pbem.format.canonical import b64e
from pbem.format.errors import Rejected
from pbem.format.gamefile import Envelope
from pbem.ledger.interruptions import handover_secret
from pbem.play.author import act, automatic, private_knowledge
from pbem.play.rescue import call, handover, resign
from pbem.play.signer import deck_secret, next_preimage
from tests.dropouts.table import Table
from tests.helpers import Seeded
from tests.rulesets.guess import Guess


def at_guess(players: int = 3, escrow_mode: str = "others") -> Table:
    """A ``guess`` game awaiting the sealed guesses; seats 0 and 1 have guessed."""
    t = Table("guess", players, {"rounds": "2"}, escrow=escrow_mode)
    t.play(until=lambda r: r.awaiting.decision.startswith("commit:"))
    for seat in range(players - 1):
        act(t.replay, t.who(seat), Guess(value=seat + 2), clock=t.clock, entropy=Seeded(seat))
    return t


def envelope(t: Table, seat: int, decision: str, body: dict, **fields: object) -> Envelope:
    """An envelope for an interruption, signed by ``seat`` with its next link."""
    r = t.replay
    values = {
        "kind": "envelope",
        "game": r.genesis.game,
        "parent": r.interrupt.parent if r.interrupt else r.file_head,
        "decision": decision,
        "seat": seat,
        "time": t.now,
        "body": body,
        "preimage": next_preimage(r, t.who(seat), seat),
        "notes": [],
        "signature": "",
        **fields,
    }
    return sign_item(t.who(seat), Envelope.model_construct(**values))


def test_a_call_before_the_deadline_by_the_callers_own_clock_is_refused() -> None:
    t = at_guess()
    t.now += 60  # a minute, not an hour
    with pytest.raises(Rejected, match=r"step 4, seat 0 \(bot1\): too early: by the caller"):
        call(t.replay, t.who(0), clock=t.clock)


def test_a_call_by_a_seat_that_is_itself_awaited_is_refused() -> None:
    t = Table("guess", 3, {"rounds": "2"})
    t.play(until=lambda r: r.awaiting.decision.startswith("commit:"))
    act(t.replay, t.who(0), Guess(value=2), clock=t.clock, entropy=Seeded(1))
    t.now += 2 * t.deadline
    body = {"seats": [2], "decision": "commit:guess", "awaited": t.replay.awaiting.parent}
    forged = envelope(t, 1, "call", {**body, "end": False})
    with pytest.raises(Rejected, match=r"seat 1 \(bot2\): a call names every seat awaited"):
        t.replay.add_envelope(forged)
    forged = envelope(t, 1, "call", {**body, "seats": [1, 2], "end": False})
    with pytest.raises(Rejected, match=r"seat 1 \(bot2\): a seat that is awaited itself"):
        t.replay.add_envelope(forged)


def test_a_call_naming_a_seat_that_is_not_awaited_is_refused() -> None:
    t = at_guess()
    t.now += 2 * t.deadline
    aw = t.replay.awaiting
    body = {"seats": [1], "decision": aw.decision, "awaited": aw.parent, "end": False}
    with pytest.raises(Rejected, match=r"seat 0 \(bot1\): a call names every seat awaited now"):
        t.replay.add_envelope(envelope(t, 0, "call", body))


def test_a_call_missing_a_co_signer_takes_no_effect_and_nothing_may_pass_it() -> None:
    t = at_guess()
    t.now += 2 * t.deadline
    call(t.replay, t.who(0), clock=t.clock)
    assert t.replay.interrupt is not None and t.replay.remaining() == (2,)
    with pytest.raises(Rejected, match=r"seat 2 \(bot3\): the game waits for the interruption"):
        act(t.replay, t.who(2), Guess(value=9), clock=t.clock, entropy=Seeded(9))


def test_a_resignation_signed_by_another_seat_is_refused() -> None:
    t = at_guess()
    x = deck_secret(t.ids[2], t.replay.genesis.game)
    forged = envelope(t, 0, "resign", {"seat": 2, "secret": b64e(x)})
    with pytest.raises(Rejected, match=r"seat 0 \(bot1\): a resignation is signed by the seat"):
        t.replay.add_envelope(forged)
    wrong = envelope(t, 2, "resign", {"seat": 2, "secret": b64e(bytes([1]) + bytes(31))})
    with pytest.raises(Rejected, match=r"seat 2 \(bot3\): the published secret does not match"):
        t.replay.add_envelope(wrong)


def test_a_handover_needs_the_seat_itself_and_goes_to_nobody_seated() -> None:
    t = Table("guess", 3, {"rounds": "2"})
    t.play(until=lambda r: r.awaiting.kind == "turn" or r.awaiting.decision.startswith("commit"))
    while t.replay.batch is not None or t.replay.awaiting.kind != "turn":
        t.play(until=lambda r: r.awaiting.kind == "turn")
        if t.replay.batch is not None:
            break
    mover = t.replay.awaiting.seats[0]  # pbem hands a seat over on its own turn only
    other = (mover + 1) % 3
    with pytest.raises(Rejected, match="holds a seat in this game already"):
        handover(t.replay, t.who(mover), t.ids[other].card, clock=t.clock)
    with pytest.raises(Rejected, match="only the seat itself can hand over"):
        handover(t.replay, t.who(mover), t.spare.card, seat=other, clock=t.clock)
    body = {"seat": 1, "card": t.spare.card.model_dump(), "secret": b64e(b"not sealed at all")}
    t.replay.add_envelope(envelope(t, 0, "handover", body))
    t.replay.add_envelope(envelope(t, 2, "handover", body))
    assert t.replay.interrupt is not None  # without bot2's own signature: no effect
    assert t.replay.cards[1] == t.ids[1].card


def test_an_escrow_share_that_does_not_match_is_refused_by_its_holder() -> None:
    """A seat deals its escrow from another polynomial: only the holder can see its share,
    and the holder's pbem refuses to go on, naming the seat."""
    t = Table("guess", 3, {"rounds": "2"})
    r = t.replay
    automatic(r, t.who(1), clock=t.clock)  # bot2 joins honestly
    game = r.genesis.game
    x = deck_secret(t.ids[2], game)
    other = deck_secret(t.ids[0], game)
    cheat = escrow.deal(other, [c.box_key_bytes for c in (t.ids[0].card, t.ids[1].card)], game, 2)
    honest = escrow.deal(x, [c.box_key_bytes for c in (t.ids[0].card, t.ids[1].card)], game, 2)
    bad = honest._replace(shares=cheat.shares)
    from pbem.play.signer import beacon_chain, deck_key_fields

    body = {
        "head": b64e(beacon_chain(x, game, r.genesis.chain)[0]),
        **deck_key_fields(x, game, 2),
        "escrow": escrow.encode_escrow(bad),
    }
    join = envelope(t, 2, "join", body, parent=r.awaiting.parent, preimage="")
    r.add_envelope(join)
    with pytest.raises(Rejected, match=r"seat 2 \(bot3\) escrowed a share for you that does not"):
        automatic(r, t.who(0), clock=t.clock)


def test_a_decrypted_share_that_does_not_match_is_refused() -> None:
    t2 = Table("guess", 3, {"rounds": "2"}, seed=2)
    t2.play(until=lambda r: r.awaiting.decision.startswith("reveal:"))
    automatic(t2.replay, t2.who(0), clock=t2.clock)
    automatic(t2.replay, t2.who(1), clock=t2.clock)
    t2.now += 2 * t2.deadline
    for seat in (0, 1):
        call(t2.replay, t2.who(seat), clock=t2.clock)
    assert t2.replay.demand is not None
    wrong = {"seat": 2, "share": escrow.encode_share(bytes([7]) + bytes(31))}
    with pytest.raises(Rejected, match=r"seat 0 \(bot1\): the decrypted escrow share of holder"):
        t2.replay.add_envelope(envelope(t2, 0, "unseal", wrong))
    # issue 34: by a seat that holds no share (here the called seat): said so, not
    # "2 is not in list"
    with pytest.raises(Rejected, match=r"seat 2 \(bot3\): this seat holds no share of bot3's"):
        t2.replay.add_envelope(envelope(t2, 2, "unseal", wrong))


def test_a_resignation_as_the_last_seat_to_answer_closes_the_decision() -> None:
    t = at_guess()
    resign(t.replay, t.who(2), clock=t.clock)
    assert 2 in t.replay.resigned
    assert t.replay.awaiting.decision == "reveal:guess" and t.replay.remaining() == (0, 1)


def test_a_handover_with_a_secret_that_is_not_the_seat_s_is_refused_by_the_substitute() -> None:
    """Issue 34: bot2 hands its seat over with another secret sealed to the substitute
    (only the substitute can open it, so the other seats co-sign in good faith). The
    substitute's pbem refuses it at once, saying so (before: accepted, and the substitute
    failed later, "opened point is not an item of this deck")."""
    t = Table("rattus", 3, {"africanus": "true"}, seed=7)
    t.play(until=lambda r: r.count > 15 and r.awaiting.kind == "turn" and r.remaining() == (1,))
    game = t.replay.genesis.game
    wrong = deck_secret(t.ids[0], game)  # a valid secret, but another seat's
    body = {
        "seat": 1,
        "card": t.spare.card.model_dump(),
        "secret": handover_secret(wrong, t.spare.card, game, 1),
    }
    t.replay.add_envelope(envelope(t, 1, "handover", body))
    for seat in (0, 2):
        handover(t.replay, t.who(seat), t.spare.card, clock=t.clock)
    assert t.replay.cards[1] == t.spare.card
    refusal = r"the seat 1 was handed over to bot4 with a secret that is not the seat's"
    with pytest.raises(Rejected, match=refusal):
        automatic(t.replay, t.spare, clock=t.clock)
    with pytest.raises(Rejected, match=refusal):
        private_knowledge(t.replay, t.spare)
