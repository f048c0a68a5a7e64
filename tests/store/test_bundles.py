"""Step bundles (issue 27, ``schemas/format.md`` §10): a store takes the steps it lacks,
keeps a bundle that comes before the steps it follows and asks for those, takes a bundle
twice as once, and refuses a forged one as it refuses a forged file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.format import gamefile
from pbem.format.bundle import Bundle, decode_bundle, decode_request, encode_bundle
from pbem.format.errors import Rejected
from pbem.format.gamefile import step_hash
from pbem.store.bundles import Pending
from pbem.store.head import Imported
from pbem.store.store import Store
from tests.format.vectors import VECTORS
from tests.helpers import guess_game, play_until


def game_text(rounds: int = 2) -> str:
    replay, ids = guess_game(players=3, seed=4, rounds=str(rounds))
    play_until(replay, ids, lambda r: r.result is not None)
    return gamefile.encode(replay.to_file())


def prefix(text: str, count: int) -> bytes:
    """The game file of the first ``count`` steps, with the cached state they give."""
    raw = json.loads(text)
    game = gamefile.decode(text)
    from pbem.ledger.replay import Replay
    from pbem.ruleset import registry

    replay = Replay.start(game.genesis, registry.get(game.genesis.ruleset.id))
    for step in game.steps[:count]:
        replay.add(step)
    raw["steps"] = raw["steps"][:count]
    raw["state"] = replay.cached().model_dump(mode="json")
    return gamefile.encode(gamefile.decode(json.dumps(raw))).encode()


def bundle(text: str, start: int, end: int | None = None) -> Bundle:
    raw = json.loads(text)
    game = gamefile.decode(text)
    after = step_hash(game.steps[start - 1]) if start else step_hash(game.genesis)
    data = encode_bundle(raw["genesis"]["game"], after, start, raw["steps"][start:end])
    return decode_bundle(data)


def test_a_bundle_extends_the_store_and_twice_is_once(tmp_path: Path) -> None:
    text = game_text()
    store = Store(tmp_path / "home")
    first = store.import_game(gamefile.decode(prefix(text, 5)), "first five steps")
    total = len(json.loads(text)["steps"])
    taken = store.import_bundle(bundle(text, 5), "the rest")
    assert isinstance(taken, Imported) and taken.status == "updated"
    assert taken.head.position.count == total and taken.head.position.result is not None
    assert taken.head.text() == gamefile.encode(gamefile.decode(text))  # the same file
    again = store.import_bundle(bundle(text, 5), "the rest again")
    assert isinstance(again, Imported) and again.status == "duplicate"
    older = store.import_bundle(bundle(text, 2, 6), "an older part")
    assert isinstance(older, Imported) and older.status in {"duplicate", "behind"}
    assert first.head.game == taken.head.game


def test_a_bundle_before_its_parent_is_kept_asked_for_and_taken_when_it_comes(
    tmp_path: Path,
) -> None:
    """Nothing a mail brings is dropped: a bundle that overtook the one before it waits,
    the store asks for the steps it lacks (once for the gap), and takes both in order as
    soon as the missing one arrives."""
    text = game_text()
    store = Store(tmp_path / "home")
    store.import_game(gamefile.decode(prefix(text, 3)), "first three steps")
    late = store.import_bundle(bundle(text, 8), "steps from 9 on")
    assert isinstance(late, Pending) and late.index == 8 and late.request is not None
    assert late.request.index == 3  # what the store holds: ask from there
    again = store.import_bundle(bundle(text, 8), "steps from 9 on, again")
    assert isinstance(again, Pending) and again.request is None  # asked once for the gap
    missing = store.import_bundle(bundle(text, 3, 8), "steps 4 to 8")
    assert isinstance(missing, Imported)
    head = store.head(missing.head.game)
    assert head.position.count == len(json.loads(text)["steps"])
    assert store.db.execute("SELECT count(*) FROM pending").fetchone()[0] == 0


def test_a_bundle_of_a_game_the_store_lacks_asks_for_the_whole_file(tmp_path: Path) -> None:
    text = game_text()
    store = Store(tmp_path / "home")
    kept = store.import_bundle(bundle(text, 4), "steps of an unknown game")
    assert isinstance(kept, Pending) and kept.request is not None
    assert kept.request.index == 0 and kept.request.have == "0" * 64
    store.import_game(gamefile.decode(prefix(text, 4)), "the file")  # takes the kept steps
    assert store.head(kept.game).position.result is not None
    assert store.db.execute("SELECT count(*) FROM pending").fetchone()[0] == 0


def test_a_forged_step_in_a_bundle_is_refused_and_kept_as_evidence(tmp_path: Path) -> None:
    text = game_text()
    store = Store(tmp_path / "home")
    store.import_game(gamefile.decode(prefix(text, 5)), "first five steps")
    raw = json.loads(text)
    steps = raw["steps"][5:]
    first = steps[0]
    target = first["envelopes"][0] if first["kind"] == "batch" else first
    target["time"] += 1  # the signature no longer covers it
    after = step_hash(gamefile.decode(text).steps[4])
    forged = decode_bundle(encode_bundle(raw["genesis"]["game"], after, 5, steps))
    with pytest.raises(Rejected, match=r"step 6.*bad signature"):
        store.import_bundle(forged, "a forged bundle")
    assert store.db.execute("SELECT count(*) FROM refused").fetchone()[0] == 1
    assert store.head(raw["genesis"]["game"]).position.count == 5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kind": "file"}, "not a pbem/1 steps object"),
        ({"extra": 1}, "unknown field extra"),
        ({"after": "ABC"}, "after must be a SHA-256 hash"),
        ({"index": -1}, "whole number of steps"),
        ({"index": "3"}, "whole number of steps"),
        ({"steps": []}, "at least one step"),
        ({"game": "not an id"}, "game must be a game id"),
    ],
)
def test_a_malformed_bundle_is_refused_in_one_line(change: dict, message: str) -> None:
    raw = json.loads((VECTORS / "guess-bundle.json").read_text())
    with pytest.raises(Rejected, match=message):
        decode_bundle(json.dumps({**raw, **change}))


def test_a_request_is_read_strictly() -> None:
    good = {"format": "pbem/1", "kind": "request", "game": "A" * 22, "have": "0" * 64}
    assert decode_request(json.dumps({**good, "index": 0})).index == 0
    with pytest.raises(Rejected, match="no index"):
        decode_request(json.dumps(good))


def test_the_vector_bundle_applies_to_the_vector_game(tmp_path: Path) -> None:
    """``format.md`` §10: ``guess-bundle.json`` holds the last two steps of
    ``guess.json``; a store that holds the others takes it and ends where the file ends."""
    text = (VECTORS / "guess.json").read_text()
    vector = decode_bundle((VECTORS / "guess-bundle.json").read_text())
    store = Store(tmp_path / "home")
    store.import_game(gamefile.decode(prefix(text, vector.index)), "the prefix")
    taken = store.import_bundle(vector, "the vector")
    assert isinstance(taken, Imported)
    assert taken.head.text() == gamefile.encode(gamefile.decode(text))


def test_what_each_seat_acknowledged_is_the_last_step_it_signed(tmp_path: Path) -> None:
    text = game_text()
    store = Store(tmp_path / "home")
    head = store.import_game(gamefile.decode(text), "the game").head
    acks = store.acknowledged(head.game, [0, 1, 2])
    steps = gamefile.decode(text).steps
    for seat, index in acks.items():
        assert index is not None
        step = steps[index]
        signed = [e.seat for e in step.envelopes] if hasattr(step, "envelopes") else [step.seat]
        assert seat in signed
        later = steps[index + 1 :]
        assert all(
            seat not in ([e.seat for e in s.envelopes] if hasattr(s, "envelopes") else [s.seat])
            for s in later
        )
