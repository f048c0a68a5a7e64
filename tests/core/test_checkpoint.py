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
