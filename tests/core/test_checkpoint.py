"""A checkpoint restores a position exactly: continuing from it gives the same game as
continuing the original (the store relies on this to skip re-verifying known steps)."""

from __future__ import annotations

import pytest

from pbem.ledger.checkpoint import restore, snapshot
from pbem.ledger.position import Position
from pbem.ledger.replay import replay_file
from pbem.play.selfplay import play_game
from pbem.ruleset import registry


def continued(game, upto: int) -> Position:
    """Replay steps[:upto], checkpoint, restore, then take the rest from the restored one."""
    rules = registry.get(game.genesis.ruleset.id)
    pos = Position.start(game.genesis, rules)
    for step in game.steps[:upto]:
        pos.add(step)
    again = restore(snapshot(pos), game.genesis, pos.genesis_hash, rules)
    assert snapshot(again) == snapshot(pos)
    for step in game.steps[upto:]:
        again.add(step)
    return again


@pytest.mark.parametrize(("ruleset", "players"), [("guess", 3), ("peek", 3), ("rattus", 2)])
def test_restored_positions_continue_to_the_same_end(ruleset: str, players: int) -> None:
    rules = registry.get(ruleset)
    report = play_game(rules, players, 4, rules.parse_options({}), ["random"], None)
    from pbem.format import gamefile

    game = gamefile.decode(report.text)
    whole = replay_file(game, rules)
    for upto in sorted({1, 2, 3, len(game.steps) // 2, len(game.steps) - 1}):
        pos = continued(game, upto)
        assert pos.cached() == whole.cached() and pos.result == whole.result
        assert pos.state_hash() == whole.state_hash()


def test_a_checkpoint_in_the_middle_of_a_batch_continues_it() -> None:
    """Open batches are checkpointed with what they collected so far: sealed openings,
    decryption shares, commitments."""
    from pbem.format import gamefile
    from pbem.format.gamefile import Batch

    rules = registry.get("peek")
    game = gamefile.decode(play_game(rules, 3, 4, {}, ["random"], None).text)
    whole = replay_file(game, rules)
    batches = [i for i, s in enumerate(game.steps) if isinstance(s, Batch) and len(s.envelopes) > 1]
    assert len(batches) > 3
    for i in batches:
        pos = Position.start(game.genesis, rules)
        for step in game.steps[:i]:
            pos.add(step)
        first, *rest = game.steps[i].envelopes
        pos.add_envelope(first)
        again = restore(snapshot(pos), game.genesis, pos.genesis_hash, rules)
        for env in rest:
            again.add_envelope(env)
        for step in game.steps[i + 1 :]:
            again.add(step)
        assert again.cached() == whole.cached(), game.steps[i].decision


def test_a_checkpoint_holds_no_secret_a_seat_opened_or_made_in_memory() -> None:
    """The author's table keeps the faces a seat opened and the passes and shares it made
    (issue 13), in memory only: the checkpoint the store writes holds none of it."""
    import zlib

    from pbem.crypto import deck
    from pbem.format.canonical import b64e
    from pbem.play.author import automatic, new_game, private_knowledge
    from pbem.play.selfplay import bot_identities
    from pbem.play.signer import deck_secret
    from tests.helpers import Seeded

    rules = registry.get("peek")
    ids = bot_identities(3, 3)
    replay = new_game(
        rules, rules.parse_options({}), [i.card for i in ids], ids[0], entropy=Seeded(3)
    )
    while any(automatic(replay, ident) for ident in ids):
        pass
    hand = private_knowledge(replay, ids[0])  # opened, and kept on the table
    assert hand and replay.table.private[0].opened
    text = zlib.decompress(snapshot(replay)).decode()
    secret = deck_secret(ids[0], replay.genesis.game)
    for face in hand.values():
        point = deck.item_point("cards", face)
        assert b64e(point) not in text and point.hex() not in text
    assert b64e(secret) not in text and secret.hex() not in text


# ----- every field, and games with dropouts (issue 25) ---------------------------------------


def test_a_checkpoint_keeps_every_field_of_the_position_but_those_it_names() -> None:
    """A field a checkpoint forgets makes a restored position differ from the replay as
    soon as that field is read (issue 25: ``links``, read by the draw after a reveal batch
    that followed a resignation, was not kept). So every field of ``Position`` is either
    in the snapshot or in ``NOT_KEPT``, with its reason there."""
    import dataclasses
    import json
    import zlib

    from pbem.ledger.checkpoint import NOT_KEPT

    rules = registry.get("guess")
    from pbem.format import gamefile

    options = rules.parse_options({})
    game = gamefile.decode(play_game(rules, 3, 4, options, ["random"], None).text)
    pos = Position.start(game.genesis, rules)
    kept = set(json.loads(zlib.decompress(snapshot(pos)))) - {"version"}
    fields = {f.name for f in dataclasses.fields(Position)}
    assert kept | NOT_KEPT == fields and not kept & NOT_KEPT, fields - kept - NOT_KEPT


def _continues_alike(game, window: int = 12) -> None:
    """A checkpoint taken after any step of ``game``, restored and continued for the next
    ``window`` steps (a forgotten field shows at the next draw or decision that reads it),
    agrees with the replay after every one of them (state hash and cached state)."""
    rules = registry.get(game.genesis.ruleset.id)
    whole = []
    pos = Position.start(game.genesis, rules)
    for step in game.steps:
        pos.add(step)
        whole.append((pos.state_hash(), pos.cached(), snapshot(pos)))
    for upto in range(1, len(game.steps)):
        again = restore(whole[upto - 1][2], game.genesis, pos.genesis_hash, rules)
        for k, step in enumerate(game.steps[upto : upto + window], upto):
            again.add(step)
            seen = (again.state_hash(), again.cached())
            assert seen == whole[k][:2], f"restored after step {upto}: differs at step {k + 1}"


def test_a_position_restored_after_a_call_and_a_resignation_draws_as_the_replay() -> None:
    """R-6.5, architecture §11: the evidence of issue 25. Three Rattaneer seats; carol is
    called at a sealed morning, play goes on, bob resigns, alice and carol play on. A draw
    after a reveal batch takes the chain links of the open seats (bob's) made for the
    batch before; a position restored from a checkpoint must draw exactly as the replay."""
    from pbem.format import gamefile
    from pbem.play.rescue import resign
    from tests.dropouts.table import Table, silent_at

    table = Table("rattaneer", 3, seed=2)
    table.play(until=silent_at("commit:"))
    table.silent = {2}
    table.play()
    assert table.call_late() == [2]
    table.silent = set()
    table.play(until=lambda r: r.count > 12 and r.awaiting.decision.startswith("commit:"))
    table.alone(1)
    resign(table.replay, table.who(1), clock=table.clock)
    table.play(until=lambda r: r.count > 60)
    game = gamefile.decode(gamefile.encode(table.replay.to_file()))
    assert {getattr(s, "decision", "") for s in game.steps} >= {"call", "resign"}
    _continues_alike(game)


def _quiet_after(n: int):
    """Stop once more than ``n`` steps are taken and nothing is half answered."""
    return lambda r: r.count > n and r.batch is None and r.interrupt is None


@pytest.mark.parametrize(
    ("ruleset", "players", "seed"), [("rattaneer", 3, 3), ("rattus", 3, 4), ("peek", 3, 5)]
)
def test_positions_restored_anywhere_in_games_with_dropouts_continue_alike(
    ruleset: str, players: int, seed: int
) -> None:
    """architecture §10, §11: a call on a silent seat (a stand-in's decision, or its escrow
    opened for an automatic step) and a resignation; a checkpoint taken after any step
    continues as the replay does."""
    from pbem.format import gamefile
    from pbem.play.rescue import resign
    from tests.dropouts.table import Table

    table = Table(ruleset, players, seed=seed)
    table.play(until=_quiet_after(6))
    table.silent = {players - 1}
    table.play()
    assert table.call_late()
    table.silent = set()
    table.play(until=_quiet_after(table.replay.count + 4))
    assert table.replay.result is None, "the game ended before the resignation"
    table.alone(0)
    resign(table.replay, table.who(0), clock=table.clock)
    table.play(until=lambda r: r.count > 70)
    game = gamefile.decode(gamefile.encode(table.replay.to_file()))
    decisions = {getattr(s, "decision", "") for s in game.steps}
    assert {"call", "resign"} <= decisions
    _continues_alike(game)
