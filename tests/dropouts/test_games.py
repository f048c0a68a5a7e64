"""Issue 14's whole games (architecture §11): each through the real file format, verified from
its genesis, and scanned: no secret of a seat whose secret was never published is in the
file."""

from __future__ import annotations

from pbem.format import gamefile
from pbem.ledger.checkpoint import restore, snapshot
from pbem.ledger.interruptions import describe_interrupt
from pbem.mail.compose import choose_recipients
from pbem.play.author import act, private_knowledge
from pbem.play.rescue import call, callers, handover, resign
from pbem.store.store import Store
from tests.dropouts.table import Table, silent_at
from tests.dropouts.test_attacks import at_guess
from tests.helpers import Seeded
from tests.rulesets.guess import Guess


def test_a_rattaneer_seat_that_never_commits_is_called_and_the_stand_in_places() -> None:
    # placements, architecture §11 calls: the stand-in's placement is public and checked.
    t = Table("rattaneer", 3, seed=3)
    t.play(until=silent_at("commit:"))
    t.silent = {2}
    t.play()
    assert t.replay.remaining() == (2,)
    assert t.call_late() == [2]
    call = next(r for r in t.replay.records if r.kind == "call")
    assert "the stand-in plays, in the open: bot3 places pirates" in call.summary
    t.silent = set()  # bot3 comes back at its next decision
    t.play()
    assert t.replay.result is not None and t.finish().result == t.replay.result


def test_a_seat_that_commits_but_never_reveals_is_opened_by_its_escrow() -> None:
    t = Table("rattaneer", 3, seed=4)
    t.play(until=silent_at("reveal:"))
    t.silent = {1}
    t.play()
    assert t.replay.remaining() == (1,)
    t.call_late()
    assert t.replay.demand is not None  # the holders are asked to open bot2's secret
    t.play()  # the holders (bot1, bot3) publish their shares: bot2's reveal is made
    assert 1 in t.replay.published
    opened = next(r for r in t.replay.records if r.kind == "unseal")
    assert "bot2's secret opened by its escrow holders" in opened.summary
    t.silent = set()
    t.play()
    assert t.replay.result is not None
    t.finish()


def test_a_rattus_seat_that_never_sends_its_decryption_shares_is_opened() -> None:
    t = Table("rattus", 3, seed=5)
    # a share bot3 owes: one opened to bot3 alone is owed by the others only
    t.play(until=lambda r: r.count > 8 and silent_at("share")(r) and 2 in r.remaining())
    t.silent = {2}
    t.play()
    assert t.replay.remaining() == (2,) and t.replay.awaiting.decision == "share"
    t.call_late()
    t.play()
    assert 2 in t.replay.published
    t.play()  # bot3 is silent still: its shares are made in the open from now on,
    # but it decides for itself: when it must, it is called again (a stand-in decides).
    while t.replay.result is None:
        assert t.replay.remaining() == (2,)
        t.call_late()
        t.play()
    t.finish()


def test_a_seat_resigns_mid_game_and_the_game_is_played_to_the_end() -> None:
    t = Table("rattus", 3, seed=6)
    t.play(until=lambda r: r.count > 20 and r.awaiting.kind == "turn" and r.remaining() == (1,))
    resign(t.replay, t.who(1), clock=t.clock)
    assert 1 in t.replay.resigned and 1 in t.replay.published
    t.silent = {1}  # the stand-in plays it: nothing is awaited from it again
    t.play()
    assert t.replay.result is not None
    stand_ins = [r for r in t.replay.records if "the stand-in plays" in r.summary]
    assert stand_ins
    t.finish()


def test_a_seat_handed_over_is_played_by_the_substitute_with_its_hand() -> None:
    t = Table("rattus", 3, {"africanus": "true"}, seed=7)
    # pbem hands a seat over on its own turn (nothing else can be signed meanwhile)
    t.play(until=lambda r: r.count > 15 and r.awaiting.kind == "turn" and r.remaining() == (1,))
    knew = private_knowledge(t.replay, t.who(1))
    assert knew  # bot2 holds region cards
    giver = t.who(1)
    handover(t.replay, giver, t.spare.card, clock=t.clock)
    for seat in (0, 2):
        handover(t.replay, t.who(seat), t.spare.card, clock=t.clock)
    assert t.replay.cards[1] == t.spare.card and t.who(1) is t.spare
    assert private_knowledge(t.replay, t.spare) == knew  # the whole private knowledge
    t.play()
    assert t.replay.result is not None
    t.finish()


def test_a_two_player_game_with_a_referee_escrow() -> None:
    t = Table("rattaneer", 2, escrow="referees", referees=1, seed=8)
    t.play(until=silent_at("reveal:"))
    t.silent = {1}
    t.play()
    t.call_late()
    assert t.replay.demand is not None and t.replay.demand.seats == (2,)  # the referee
    t.play()  # the referee's robot opens the escrow
    assert 1 in t.replay.published
    t.silent = set()
    t.play()
    assert t.replay.result is not None
    t.finish()


def test_with_no_escrow_a_call_ends_the_game_scored_as_it_stands() -> None:
    t = Table("rattaneer", 2, escrow="none", seed=9)
    t.play(until=silent_at("commit:"))
    t.silent = {1}
    t.play()
    t.call_late(end=True)
    assert t.replay.result is not None and t.replay.awaiting.kind == "over"
    ended = next(r for r in t.replay.records if r.kind == "call")
    assert "the game ends, scored as it stands" in ended.summary
    assert t.finish().result == t.replay.result


def test_a_call_on_a_seat_that_had_acted_is_void_and_its_step_is_kept(tmp_path) -> None:
    """bot3's guess was on its way when bot1 called it: the store that holds the call
    takes bot3's guess from the copy that brings it, and drops the call."""
    t = at_guess()
    before = gamefile.encode(t.replay.to_file())
    t.now += 2 * t.deadline
    call(t.replay, t.who(0), clock=t.clock)  # bot2 has not co-signed yet
    with_call = gamefile.encode(t.replay.to_file())
    late = Table("guess", 3, {"rounds": "2"})  # the same game, on bot3's machine
    late.replay = late.replay.__class__.start(t.replay.genesis, t.rules)
    late.replay.take(t.replay.genesis, gamefile.decode(before).steps)
    act(late.replay, t.who(2), Guess(value=7), clock=t.clock, entropy=Seeded(7))
    answered = gamefile.encode(late.replay.to_file())
    store = Store(tmp_path / "home")
    store.import_game(gamefile.decode(with_call), "with the call")
    imported = store.import_game(gamefile.decode(answered), "bot3's guess")
    assert imported.status == "merged"
    pos = imported.head.position
    assert pos.interrupt is None and pos.awaiting.decision == "reveal:guess"
    assert [r.kind for r in store.records(pos.genesis.game)][-1] == "commit"


def test_a_call_being_signed_is_mailed_to_whoever_must_still_sign_it() -> None:
    # architecture §11: a call takes effect once every other active seat has signed it; a turn
    # awaits one seat, so the mail of a half-signed call must name the co-signers too.
    t = Table("guess", 3)
    t.play(until=lambda r: r.awaiting is not None and r.awaiting.kind == "turn")
    (late,) = t.replay.remaining()
    t.silent = {late}
    t.now += t.deadline + 1
    first, second = callers(t.replay)
    call(t.replay, t.who(first), clock=t.clock)
    sender = t.who(first).card
    to = choose_recipients(t.replay, sender, "awaited", "none").to
    assert to == [t.replay.cards[second], t.replay.cards[late]]
    assert f"still to sign: {t.replay.names[second]}" in describe_interrupt(t.replay)


def test_a_checkpoint_after_a_handover_names_the_seat_as_the_substitute() -> None:
    # architecture §11: from the handover on, the substitute's card is the seat's; the store's
    # checkpoint restored the genesis names, so status named the old player again.
    t = Table("guess", 3)
    t.play(until=lambda r: r.count > 4 and r.awaiting.kind == "turn")
    mover = t.replay.awaiting.seats[0]  # pbem hands a seat over on its own turn
    for seat in (mover, *(s for s in range(3) if s != mover)):
        handover(t.replay, t.who(seat), t.spare.card, clock=t.clock)
    assert t.replay.names[mover] == t.spare.card.name
    again = restore(snapshot(t.replay), t.replay.genesis, t.replay.genesis_hash, t.rules)
    assert again.names == t.replay.names and again.cards == t.replay.cards
