"""Issue 31: ``Store.save`` of a game signed here and new to the store registers it (it
kept the steps but listed no game, so nothing could open it)."""

from __future__ import annotations

from pathlib import Path

from pbem.play.author import automatic, new_game
from pbem.play.selfplay import bot_identities
from pbem.ruleset import registry
from pbem.store.head import Head
from pbem.store.store import Store


def test_saving_a_new_game_lists_it_and_its_head_opens(tmp_path: Path) -> None:
    rules = registry.get("guess")
    ids = bot_identities(3, 2)
    replay = new_game(rules, rules.parse_options({}), [i.card for i in ids], ids[0])
    store = Store(tmp_path / "home")
    with store.writing():
        head = Head(store, replay.genesis.game, replay)
        assert automatic(replay, ids[1]) == 1  # the other seat's join
        store.save(head, "signed here")
    assert store.ids() == [replay.genesis.game]
    reopened = store.head(replay.genesis.game)
    assert reopened.position.count == replay.count == 1
    assert reopened.position.awaiting == replay.awaiting  # the join kept: a beacon next
    assert reopened.text() == Store(tmp_path / "home").head(replay.genesis.game).text()
