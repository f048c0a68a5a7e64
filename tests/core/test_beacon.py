"""Who supplies randomness, and from what (architecture §5)."""

from __future__ import annotations

from pbem.crypto.randomness import Rng, chain_step, draw_value
from pbem.format.canonical import b64d
from pbem.play.author import act, automatic
from pbem.play.signer import beacon_chain, deck_secret
from pbem.ruleset.rules import Turn
from tests.helpers import commit_all, guess_game
from tests.rulesets.guess import Choose, Guess


def test_setup_draw_is_supplied_by_the_creator_from_all_heads() -> None:
    replay, _ = guess_game(3, seed=21)
    join, beacon = replay.steps[0], replay.steps[1]
    assert join.decision == "join" and [e.seat for e in join.envelopes] == [1, 2]
    assert beacon.kind == "beacon" and beacon.seat == replay.genesis.creator == 0
    heads = [b64d(replay.genesis.head)] + [b64d(e.body["head"]) for e in join.envelopes]
    game = b64d(replay.genesis.game)
    value = draw_value(
        b"setup", game, bytes.fromhex(replay.genesis_hash), *heads, b64d(beacon.preimage)
    )
    expected = Rng(value).below(10) + 1  # the first target drawn from 1..10
    assert replay.state.target == expected
    assert chain_step(b64d(beacon.preimage)) == heads[0]


def test_a_turn_is_followed_by_a_beacon_from_the_next_seat() -> None:
    replay, ids = guess_game(3, seed=22)
    target = replay.state.target
    commit_all(replay, ids, [target, (target % 10) + 1, (target % 10) + 1])
    for ident in ids:
        automatic(replay, ident)
    assert replay.rules.pending(replay.state) == Turn(seat=0, prompt="bank or risk")
    act(replay, ids[0], Choose(type="risk"))
    turn_hash = replay.records[-1].hash
    assert replay.awaiting.kind == "beacon" and replay.awaiting.seats == (1,)
    assert automatic(replay, ids[2]) == 0  # not seat 2's to supply
    assert automatic(replay, ids[0]) == 0  # nor the author's
    score_before = replay.state.scores[0]
    automatic(replay, ids[1])
    beacon = replay.steps[-1]
    value = draw_value(
        b"beacon", b64d(replay.genesis.game), bytes.fromhex(turn_hash), b64d(beacon.preimage)
    )
    won = Rng(value).below(2) == 1
    assert replay.state.scores[0] == score_before + (3 if won else 0)


def test_chains_are_derived_from_the_seat_secret_and_game() -> None:
    """From the seat secret, itself derived from the identity and the game: whoever holds
    the secret (the seat, or its escrow holders after a call) makes the same links."""
    replay, ids = guess_game(2, seed=23)
    x = deck_secret(ids[0], replay.genesis.game)
    chain = beacon_chain(x, replay.genesis.game, replay.genesis.chain)
    assert b64d(replay.genesis.head) == chain[0]
    other, _ = guess_game(2, seed=24)
    y = deck_secret(ids[0], other.genesis.game)
    assert beacon_chain(y, other.genesis.game, other.genesis.chain)[0] != chain[0]


def test_a_draw_after_open_actions_waits_for_a_beacon_batch() -> None:
    """The last seat to sign an open action knew every preimage of its batch when it chose;
    so the draw takes preimages revealed in a beacon batch after all choices (architecture §5)."""
    replay, ids = guess_game(3, seed=25, open="true")
    for ident in ids:
        act(replay, ident, Guess(value=5))  # a three-way tie: broken by a draw
    act_batch = replay.steps[-1]
    assert act_batch.decision == "act:guess"
    assert replay.awaiting.decision == "beacon" and replay.awaiting.seats == (0, 1, 2)
    assert replay.state.leader is None
    for ident in ids:
        automatic(replay, ident)
    beacon = replay.steps[-1]
    assert beacon.decision == "beacon" and beacon.parent == replay.records[-2].hash
    preimages = [b64d(env.preimage) for env in beacon.envelopes]
    value = draw_value(
        b"batch", b64d(replay.genesis.game), bytes.fromhex(beacon.parent), *preimages
    )
    assert replay.state.leader == Rng(value).choice([0, 1, 2])
    assert replay.records[-1].summary == "randomness supplied"
