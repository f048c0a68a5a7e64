"""The local game store: idempotent imports, merges in any order, and refusals that name
both heads and the step where they part."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pbem.core.author import act, automatic
from pbem.core.errors import Rejected
from pbem.core.gamefile import step_hash
from pbem.core.keys import Identity
from pbem.core.replay import Replay
from pbem.core.store import Store
from tests.helpers import Seeded, commit_all, fixed_clock, guess_game
from tests.rulesets.guess import Choose, Guess


def settle(replay: Replay, ids: list[Identity]) -> None:
    """Everyone makes the steps they owe without deciding (reveals, beacons)."""
    while any(automatic(replay, i, clock=fixed_clock) for i in ids):
        pass


def files(tmp_path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(tmp_path)): p.read_bytes() for p in tmp_path.rglob("*.json")}


def test_importing_twice_changes_nothing(tmp_path: Path) -> None:
    replay, _ = guess_game(3)
    store = Store(tmp_path)
    first = store.import_game(replay.to_file(), "copy")
    assert first.status == "new" and len(first.new_steps) == len(replay.steps)
    before = files(tmp_path)
    again = store.import_game(replay.to_file(), "copy")
    assert again.status == "duplicate" and again.new_steps == []
    assert files(tmp_path) == before


def test_a_newer_copy_advances_and_an_old_one_seen_before_is_a_duplicate(tmp_path: Path) -> None:
    replay, ids = guess_game(2)
    old = replay.to_file()
    store = Store(tmp_path)
    store.import_game(old, "old")
    commit_all(replay, ids, [3, 4])
    settle(replay, ids)
    result = store.import_game(replay.to_file(), "new")
    assert result.status == "updated" and result.new_steps
    assert store.head(replay.genesis.game) == replay.to_file()
    assert store.import_game(old, "old again").status == "duplicate"


def test_a_stale_copy_is_refused_naming_both_heads(tmp_path: Path) -> None:
    replay, ids = guess_game(2)
    store = Store(tmp_path)
    store.import_game(replay.to_file(), "v1")
    act(replay, ids[0], Guess(value=3), clock=fixed_clock)
    stale = replay.to_file()  # never imported
    act(replay, ids[1], Guess(value=5), clock=fixed_clock)
    settle(replay, ids)
    store.import_game(replay.to_file(), "v3")
    with pytest.raises(Rejected) as err:
        store.import_game(stale, "the late copy")
    message = str(err.value)
    assert "stale copy refused: the late copy" in message
    assert f"head {step_hash(stale.steps[-1])[:12]}" in message
    assert f"the stored head ({len(replay.steps)} steps" in message
    assert f"head {step_hash(replay.steps[-1])[:12]}" in message
    assert "agree up to step" in message
    refused = list((tmp_path / "games" / replay.genesis.game / "refused").iterdir())
    assert len(refused) == 1  # kept as evidence, never lost


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
def test_envelopes_from_different_copies_merge_in_any_order(
    tmp_path: Path, order: tuple[int, ...]
) -> None:
    base, ids = guess_game(3)
    copies = []
    for seat, value in enumerate((2, 5, 9)):
        own = copy.deepcopy(base)
        act(own, ids[seat], Guess(value=value), entropy=Seeded(value), clock=fixed_clock)
        copies.append(own.to_file())
    store = Store(tmp_path)
    store.import_game(base.to_file(), "start")
    statuses = [store.import_game(copies[i], f"copy {i}").status for i in order]
    assert statuses == ["updated", "merged", "merged"]
    head = store.head(base.genesis.game)
    assert head is not None
    assert [e.seat for e in head.steps[-1].envelopes] == [0, 1, 2]  # type: ignore[union-attr]
    reference = copy.deepcopy(base)
    commit_all(reference, ids, [2, 5, 9])
    assert head.steps == reference.to_file().steps


def test_equivocation_is_refused_with_both_signed_steps(tmp_path: Path) -> None:
    replay, ids = guess_game(2)
    commit_all(replay, ids, [3, 8])
    settle(replay, ids)
    awaited = replay.remaining()[0]
    bank, risk = copy.deepcopy(replay), copy.deepcopy(replay)
    act(bank, ids[awaited], Choose(type="bank"), clock=fixed_clock)
    act(risk, ids[awaited], Choose(type="risk"), clock=fixed_clock)
    store = Store(tmp_path)
    store.import_game(bank.to_file(), "bank copy")
    with pytest.raises(Rejected) as err:
        store.import_game(risk.to_file(), "risk copy")
    index = len(replay.steps)
    assert str(err.value).startswith(
        f"game {replay.genesis.game[:8]}: equivocation refused: seat {awaited} "
        f"({replay.names[awaited]}) signed two different steps at step {index}: risk copy ("
    )
    assert "vs the stored head" in str(err.value)
    assert err.value.detail is not None and '"equivocation"' in err.value.detail
    assert store.head(replay.genesis.game) == bank.to_file()


def test_a_forged_genesis_under_a_known_game_id_is_refused(tmp_path: Path) -> None:
    replay, _ = guess_game(2)
    other, _ = guess_game(2, seed=9)
    store = Store(tmp_path)
    store.import_game(replay.to_file(), "real")
    forged = other.to_file().model_copy(
        update={
            "genesis": other.genesis.model_copy(update={"game": replay.genesis.game}),
            "steps": [],
        }
    )
    with pytest.raises(Rejected, match="genesis differs from the stored one"):
        store.import_game(forged, "forged")


def test_games_lists_state_and_whose_move(tmp_path: Path) -> None:
    replay, _ = guess_game(3)
    store = Store(tmp_path)
    store.import_game(replay.to_file(), "copy")
    (summary,) = store.summaries()
    assert summary["ruleset"] == "guess" and summary["awaiting"] == replay.names
    assert summary["over"] is False and "to choose guess" in summary["next"]
    assert store.resolve(replay.genesis.game[:5]) == replay.genesis.game
