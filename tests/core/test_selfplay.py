"""Whole games of the test ruleset through the real file format, many seeds (architecture §9)."""

from __future__ import annotations

import pytest

from pbem.crypto.randomness import Rng, draw_value
from pbem.format import gamefile
from pbem.format.canonical import b64d
from pbem.ledger.replay import replay_file
from pbem.play.author import automatic, new_game
from pbem.play.selfplay import bot_identities, play_game
from pbem.ruleset import registry
from tests.helpers import commit_all, guess_game

RULES = registry.get("guess")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("sealed", [True, False])
def test_selfplay_verifies_over_many_seeds(players: int, sealed: bool, tmp_path) -> None:
    options = RULES.parse_options({"open": "false" if sealed else "true", "rounds": "4"})
    for seed in range(3):
        report = play_game(RULES, players, seed, options, ["random"], tmp_path)
        replay = replay_file(gamefile.read(report.path), RULES)
        assert replay.result == report.result
        assert len(report.result.scores) == players
        kinds = {r.kind for r in replay.records}
        assert {"join", "beacon", "turn"} <= kinds
        assert ("commit" in kinds) == sealed and ("reveal" in kinds) == sealed


def test_selfplay_is_deterministic(tmp_path) -> None:
    options = RULES.parse_options({})
    a = play_game(RULES, 3, 42, options, ["random"], tmp_path / "a")
    b = play_game(RULES, 3, 42, options, ["random"], tmp_path / "b")
    c = play_game(RULES, 3, 43, options, ["random"], tmp_path / "c")
    assert a.path.read_bytes() == b.path.read_bytes()
    assert a.path.read_bytes() != c.path.read_bytes()


def test_chance_after_a_batch_uses_the_batch_preimages() -> None:
    """A tie for closest is broken by a draw made right after the reveal batch, from the
    batch parent's hash and the preimages the batch revealed (architecture §5), with no beacon."""
    replay, ids = guess_game(3, seed=11)
    commit_all(replay, ids, [5, 5, 5])
    for ident in ids:
        automatic(replay, ident)
    batch = replay.steps[-1]
    assert batch.decision == "reveal:guess" and replay.awaiting.kind == "turn"
    preimages = [b64d(env.preimage) for env in batch.envelopes]
    value = draw_value(b"batch", b64d(replay.genesis.game), bytes.fromhex(batch.parent), *preimages)
    assert replay.state.leader == Rng(value).choice([0, 1, 2])
    assert replay.awaiting.seats == (replay.state.leader,)


def test_files_survive_a_mail_body(tmp_path) -> None:
    """No line over 998 characters (RFC 5322), ASCII only, no floats (architecture §3)."""
    report = play_game(RULES, 4, 5, RULES.parse_options({}), ["random"], tmp_path)
    text = report.path.read_text()
    assert text.isascii()
    assert max(len(line) for line in text.splitlines()) <= 998
    assert gamefile.decode(text.replace("\n", "\r\n")).steps == gamefile.decode(text).steps


def test_a_game_id_never_begins_with_a_dash() -> None:
    # A game id is typed on command lines (pbem play ID ...): "-x..." would read as an option.
    draws = iter([b"\xf8" + bytes(15), b"\x07" * 16])
    ids = bot_identities(1, 2)
    made = new_game(
        registry.get("guess"),
        registry.get("guess").parse_options({}),
        [i.card for i in ids],
        ids[0],
        entropy=lambda n: next(draws) if n == 16 else bytes(n),
    )
    assert made.genesis.game == "BwcHBwcHBwcHBwcHBwcHBw"
