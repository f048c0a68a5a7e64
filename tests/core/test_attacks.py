"""One forged attack per rejection that architecture §3 lists; each checks the message names the
step, the seat and the reason."""

from __future__ import annotations

import pytest

from pbem.format import gamefile
from pbem.format.canonical import b64e
from pbem.format.errors import Rejected
from pbem.format.gamefile import Batch, GameFile, RulesetPin
from pbem.ledger.audit import compare_files, merge_files
from pbem.ledger.replay import replay_file
from pbem.play.author import act, automatic
from pbem.play.signer import MemoryJournal, seal_key_for
from pbem.ruleset import registry
from tests.helpers import (
    Seeded,
    commit_all,
    forged_entry,
    forged_envelope,
    guess_game,
    resign_last,
)
from tests.rulesets.guess import Choose, Guess

RULES = registry.get("guess")


def verify(game: GameFile) -> None:
    replay_file(gamefile.decode(gamefile.encode(game)), RULES)


def at_turn() -> tuple:
    """A 2-seat game where seat 1's sealed guess won: seat 1 must bank or risk."""
    replay, ids = guess_game(2, seed=3)
    target = replay.state.target
    commit_all(replay, ids, [11 - target if target != 5 else 10, target])
    for ident in ids:
        automatic(replay, ident)
    assert replay.awaiting.kind == "turn" and replay.awaiting.seats == (1,)
    return replay, ids


def test_valid_game_verifies() -> None:
    replay, ids = at_turn()
    act(replay, ids[1], Choose(type="bank"))
    verify(replay.to_file())


def test_forged_signature_is_rejected() -> None:
    replay, ids = at_turn()
    act(replay, ids[1], Choose(type="bank"))
    game = replay.to_file()
    last = game.steps[-1]
    forged = last.model_copy(update={"body": {"action": {"type": "risk"}}})  # signature kept
    game = game.model_copy(update={"steps": [*game.steps[:-1], forged]})
    with pytest.raises(Rejected, match=r"step 5, seat 1 \(bot2\): bad signature"):
        verify(game)


def test_reordered_steps_break_the_hash_link() -> None:
    replay, _ = at_turn()
    game = replay.to_file()
    steps = list(game.steps)
    steps[2], steps[3] = steps[3], steps[2]
    with pytest.raises(
        Rejected, match=r"step 3: batch is for 'reveal:guess', awaited 'commit:guess'"
    ):
        verify(game.model_copy(update={"steps": steps}))


def test_dropped_step_breaks_the_hash_link() -> None:
    replay, ids = at_turn()
    act(replay, ids[1], Choose(type="risk"))
    automatic(replay, ids[0])  # seat 0 supplies the beacon
    game = replay.to_file()
    steps = [game.steps[0], game.steps[1], game.steps[2], game.steps[3], game.steps[5]]
    with pytest.raises(
        Rejected, match=r"step 5, seat 0 \(bot1\): a beacon by this seat was not awaited"
    ):
        verify(game.model_copy(update={"steps": steps}))


def test_step_by_a_seat_not_awaited() -> None:
    replay, ids = at_turn()
    entry = forged_entry(replay, ids[0], 0, "turn", {"action": {"type": "bank"}})
    game = replay.to_file()
    game = game.model_copy(update={"steps": [*game.steps, entry]})
    with pytest.raises(
        Rejected, match=r"step 5, seat 0 \(bot1\): a turn by this seat was not awaited"
    ):
        verify(game)


def test_illegal_action_is_rejected_with_the_rule() -> None:
    replay, ids = at_turn()
    act(replay, ids[1], Choose(type="bank"))
    game = resign_last(replay.to_file(), ids[1], body={"action": {"type": "guess", "value": 3}})
    with pytest.raises(
        Rejected, match=r"step 5, seat 1 \(bot2\): G-1: guess is not a legal action"
    ):
        verify(game)


def test_envelope_replayed_from_another_game() -> None:
    replay_a, ids = guess_game(2, seed=5)
    replay_b, _ = guess_game(2, seed=5)
    # Same seats, same seed, but a fresh game id: rebuild B with another entropy.
    from pbem.play.author import new_game

    replay_b = new_game(
        RULES, RULES.parse_options({}), [i.card for i in ids], ids[0], entropy=Seeded(99)
    )
    for ident in ids + ids:
        automatic(replay_b, ident)
    act(replay_a, ids[0], Guess(value=4), entropy=Seeded(1))
    stolen = replay_a.steps[-1].envelopes[0]
    copy = stolen.model_copy(update={"parent": replay_b.awaiting.parent})
    with pytest.raises(Rejected, match=r"seat 0 \(bot1\): belongs to another game"):
        replay_b.add_envelope(copy)


def test_reused_preimage_is_rejected() -> None:
    replay, ids = guess_game(2, seed=4)
    commit_all(replay, ids, [3, 4])
    old = replay.steps[-1].envelopes[0].preimage  # seat 0's commit already revealed this one
    key = seal_key_for(replay, ids[0], 0, replay.steps[-1].parent, "commit:guess")
    reused = forged_envelope(replay, ids[0], 0, {"key": b64e(key)}, preimage=old)
    with pytest.raises(Rejected, match=r"seat 0 \(bot1\): beacon preimage does not follow"):
        replay.add_envelope(reused)


def test_reveal_that_does_not_open() -> None:
    replay, ids = guess_game(2, seed=4)
    commit_all(replay, ids, [3, 4])
    aw = replay.awaiting
    assert aw.decision == "reveal:guess"
    bad = forged_envelope(replay, ids[0], 0, {"key": b64e(bytes(32))})
    with pytest.raises(
        Rejected, match=r"seat 0 \(bot1\): the revealed key does not open the commitment"
    ):
        replay.add_envelope(bad)


def test_copied_commitment_is_rejected() -> None:
    replay, ids = guess_game(2, seed=4)
    act(replay, ids[0], Guess(value=6), entropy=Seeded(2))
    theirs = replay.open_batch.envelopes[0]
    copy = forged_envelope(replay, ids[1], 1, dict(theirs.body))
    with pytest.raises(
        Rejected, match=r"seat 1 \(bot2\): copied commitment: identical to seat 0's"
    ):
        replay.add_envelope(copy)


def test_changed_ruleset_hash_is_refused() -> None:
    replay, _ = guess_game(2)
    game = replay.to_file()
    pin = RulesetPin(id="guess", version="1", hash="0" * 64)
    genesis = game.genesis.model_copy(update={"ruleset": pin})
    with pytest.raises(Rejected, match=r"made under guess 1 .* this pbem has guess 1"):
        verify(game.model_copy(update={"genesis": genesis}))


def test_unknown_format_is_refused() -> None:
    replay, _ = guess_game(2)
    text = gamefile.encode(replay.to_file()).replace('"pbem/1"', '"pbem/9"', 1)
    with pytest.raises(Rejected, match=r"has format 'pbem/9'; this pbem reads 'pbem/1' only"):
        gamefile.decode(text)


def test_cached_state_that_does_not_match() -> None:
    replay, _ = guess_game(2)
    game = replay.to_file()
    state = game.state.model_copy(update={"hash": "1" * 64})
    with pytest.raises(Rejected, match=r"cached state .* does not match the replay"):
        verify(game.model_copy(update={"state": state}))


def test_step_appended_twice() -> None:
    replay, ids = at_turn()
    act(replay, ids[1], Choose(type="bank"))
    game = replay.to_file()
    doubled = game.model_copy(update={"steps": [*game.steps, game.steps[-1]]})
    with pytest.raises(
        Rejected, match=r"step 6, seat 1 \(bot2\): a turn by this seat was not awaited"
    ):
        verify(doubled)


def test_equivocation_is_caught_with_proof() -> None:
    replay, ids = at_turn()
    base = replay.to_file()
    act(replay, ids[1], Choose(type="bank"))
    one = replay.to_file()
    replay2 = replay_file(base, RULES)
    act(replay2, ids[1], Choose(type="risk"), journal=MemoryJournal())  # a forger's own code
    two = replay2.to_file()
    findings = compare_files([one, two], ["a.json", "b.json"])
    assert findings[0].relation == "equivocation"
    assert "seat 1 signed two different steps on the same parent at step 4" in findings[0].message
    assert '"bank"' in findings[0].proof and '"risk"' in findings[0].proof
    with pytest.raises(Rejected, match="equivocation") as caught:
        merge_files([one, two], ["a.json", "b.json"])
    assert caught.value.detail is not None and "signature" in caught.value.detail


def test_equivocating_envelopes_in_a_batch() -> None:
    replay, ids = guess_game(2, seed=8)
    base = replay.to_file()
    act(replay, ids[0], Guess(value=2), entropy=Seeded(5))
    other = replay_file(base, RULES)
    act(other, ids[0], Guess(value=9), entropy=Seeded(6), journal=MemoryJournal())
    findings = compare_files([replay.to_file(), other.to_file()], ["x", "y"])
    assert findings[0].relation == "equivocation"


def test_batch_with_envelope_for_wrong_decision() -> None:
    replay, ids = guess_game(2, seed=4)
    aw = replay.awaiting
    env = forged_envelope(
        replay, ids[0], 0, {"action": {"type": "guess", "value": 3}}, decision="act:guess"
    )
    game = replay.to_file()
    batch = Batch(kind="batch", parent=aw.parent, decision="act:guess", envelopes=[env])
    with pytest.raises(Rejected, match="batch is for 'act:guess', awaited 'commit:guess'"):
        verify(game.model_copy(update={"steps": [*game.steps, batch]}))


def test_act_signs_no_second_sealed_move_for_one_decision_on_another_copy() -> None:
    """Issue 31: two copies of one position (a script that read the file twice) got two
    different sealed moves from the low-level ``act``. Without a store's journal it now
    remembers in the process's own, as ``pbem play`` does in the store's: the same move
    again is the step signed before; another is refused as equivocation."""
    replay, ids = guess_game(2, seed=9)
    base = replay.to_file()
    act(replay, ids[0], Guess(value=2), entropy=Seeded(5))
    first = replay.batch.envelopes[0]
    again = replay_file(base, RULES)
    act(again, ids[0], Guess(value=2), entropy=Seeded(6))
    assert again.batch.envelopes[0] == first  # the same sealed envelope, not a new salt
    other = replay_file(base, RULES)
    with pytest.raises(Rejected, match="equivocation"):
        act(other, ids[0], Guess(value=9), entropy=Seeded(7))
    assert other.batch is None or not other.batch.envelopes
