"""Merging copies of one game (architecture §3): the same file whatever the order of arrival."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.format import gamefile
from pbem.format.errors import Rejected
from pbem.ledger.audit import compare, merge_files
from pbem.ledger.replay import replay_file
from pbem.play.author import act, automatic
from pbem.play.signer import MemoryJournal
from pbem.ruleset import registry
from tests.helpers import Seeded, fixed_clock, guess_game
from tests.rulesets.guess import Guess


def copies_with_envelopes(players: int, groups: list[list[int]]) -> list[gamefile.GameFile]:
    """One copy per group; each copy holds the sealed guesses of the seats in its group."""
    base, ids = guess_game(players, seed=players)
    start = base.to_file()
    rules = base.rules
    out = []
    for group in groups:
        replay = replay_file(start, rules)
        for seat in group:
            act(replay, ids[seat], Guess(value=seat + 1), entropy=Seeded(seat), clock=fixed_clock)
        out.append(replay.to_file())
    return out


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 5).flatmap(lambda n: st.tuples(st.just(n), st.permutations(range(n)))))
def test_merge_is_order_independent(case: tuple[int, list[int]]) -> None:
    players, order = case
    groups = [[seat] for seat in order]
    copies = copies_with_envelopes(players, groups)
    names = [f"copy{s}" for s in order]
    results = {
        gamefile.encode(merge_files([copies[i] for i in perm], [names[i] for i in perm]).to_file())
        for perm in itertools.islice(itertools.permutations(range(players)), 6)
    }
    assert len(results) == 1
    merged = gamefile.decode(results.pop())
    assert merged.steps[-1].decision == "reveal:guess" or len(merged.steps[-1].envelopes) == players


def test_overlapping_copies_merge_to_the_union() -> None:
    a, b = copies_with_envelopes(3, [[0, 1], [1, 2]])
    assert compare(a.steps, b.steps).relation == "mergeable"
    merged = merge_files([a, b], ["a", "b"])
    assert merged.awaiting.decision == "reveal:guess"


def test_a_copy_behind_is_absorbed() -> None:
    a, b = copies_with_envelopes(3, [[0], [0, 2]])
    assert compare(a.steps, b.steps).relation == "behind"
    assert merge_files([a, b], ["a", "b"]).to_file() == merge_files([b, a], ["b", "a"]).to_file()


def test_merged_reveals_continue_the_game() -> None:
    copies = copies_with_envelopes(2, [[0], [1]])
    replay = merge_files(copies, ["a", "b"])
    _, ids = guess_game(2, seed=2)
    for ident in ids:
        automatic(replay, ident, clock=fixed_clock)
    assert replay.awaiting.kind in {"turn", "beacon"}


def test_extend_takes_new_envelopes_of_the_open_batch() -> None:
    """A recipient who verified a copy with seat 2's envelope takes a newer copy that also
    holds seat 0's, without verifying the prefix again."""
    (only_two,) = copies_with_envelopes(3, [[2]])
    (both,) = copies_with_envelopes(3, [[2, 0]])
    recipient = replay_file(only_two, registry.get("guess"))
    recipient.extend(both)
    assert [e.seat for e in recipient.open_batch.envelopes] == [0, 2]
    assert recipient.remaining() == (1,)


def test_extend_refuses_a_rollback_and_a_fork() -> None:
    rules = registry.get("guess")
    (ahead,) = copies_with_envelopes(2, [[0, 1]])
    recipient = replay_file(ahead, rules)
    older = ahead.model_copy(update={"steps": ahead.steps[:2]})
    with pytest.raises(Rejected, match=r"fewer than the 3 already verified \(rollback\)"):
        recipient.extend(older)
    base, ids = guess_game(2, seed=12)  # another table than the copies above
    start = base.to_file()
    one, two = replay_file(start, rules), replay_file(start, rules)
    act(one, ids[0], Guess(value=3), entropy=Seeded(1), clock=fixed_clock)
    act(two, ids[0], Guess(value=4), entropy=Seeded(2), clock=fixed_clock, journal=MemoryJournal())
    with pytest.raises(Rejected, match=r"step 3: differs from the copy verified before \(fork\)"):
        one.extend(two.to_file())
