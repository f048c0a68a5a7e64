"""A bot is handed what its seat may know and nothing else (pbem.ruleset.knowledge).

Whole games through the engine, with real sealed decks and sealed commitments: at every
bot call, the knowledge handed over is exactly the items opened to that seat (each with its
true face, found by opening the item with every seat's secret, as no single seat can) and
its own sealed action, never an item opened to another seat only, nor another seat's
sealed action."""

from __future__ import annotations

import pytest

from pbem.crypto import deck
from pbem.crypto.keys import Identity
from pbem.crypto.randomness import Rng
from pbem.ledger.replay import Replay
from pbem.ledger.tabletop import share_context
from pbem.play.author import act, automatic, knowledge, new_game, own_sealed_action
from pbem.play.selfplay import bot_identities
from pbem.play.signer import deck_secret
from pbem.ruleset import registry
from pbem.ruleset.knowledge import Knowledge
from tests.helpers import Seeded


def true_face(replay: Replay, secrets: list[bytes], handle: str) -> str:
    """The item under a handle, opened with every seat's share (what no one seat can do)."""
    table = replay.table
    ct = table.ciphertext(handle)
    context = share_context(table.game, "truth", handle)
    point = deck.open_with_shares(ct, [deck.share(ct, s, context)[0] for s in secrets])
    return deck.identify(point, table.table_of(handle.partition("/")[0]))


def check(replay: Replay, secrets: list[bytes], seat: int, mind: Knowledge) -> None:
    mine = {h for p in replay.table.private if p.to == seat for h in p.handles}
    theirs = {h for p in replay.table.private if p.to != seat for h in p.handles} - mine
    assert mind.seat == seat
    assert set(mind.opened) == mine, "exactly the items opened to this seat"
    assert not set(mind.opened) & theirs, "no item opened to another seat only"
    for handle, item in mind.opened.items():
        assert item == true_face(replay, secrets, handle)


def play(
    ruleset: str, options: dict[str, str], seats: int, seed: int, bot: str
) -> tuple[Replay, int, set[str]]:
    """A whole game through the engine; returns it, the number of bot calls, and the kinds
    of private items the bots were handed."""
    rules = registry.get(ruleset)
    ids = bot_identities(seed, seats)
    replay = new_game(
        rules, rules.parse_options(options), [i.card for i in ids], ids[0], entropy=Seeded(seed)
    )
    game = replay.genesis.game
    secrets = [deck_secret(i, game) for i in ids]
    chosen = rules.bot(bot)
    rng = Rng(bytes([seed]) * 32)
    calls, kinds = 0, set()
    while replay.result is None:
        seat = replay.remaining()[0]
        if automatic(replay, ids[seat]):
            continue
        mind = knowledge(replay, ids[seat])
        check(replay, secrets, seat, mind)
        assert mind.sealed is None  # a seat decides before it commits
        kinds |= {h.partition("/")[0] for h in mind.opened}
        calls += 1
        act(replay, ids[seat], chosen(rules, replay.state, seat, mind, rng), entropy=Seeded(calls))
        _check_sealed(replay, ids)
    return replay, calls, kinds


def _check_sealed(replay: Replay, ids: list[Identity]) -> None:
    """While a sealed decision is open, each seat's knowledge holds its own committed action
    and nobody else's."""
    aw = replay.awaiting
    if aw is None or not aw.decision.startswith("commit:"):
        return
    batch = replay.open_batch
    committed = {e.seat for e in batch.envelopes} if batch else set()
    for seat, ident in enumerate(ids):
        sealed = knowledge(replay, ident).sealed
        if seat in committed:
            assert sealed is not None and sealed == own_sealed_action(replay, ident)
        else:
            assert sealed is None


def test_rattus_bots_see_their_hands_and_looks_only() -> None:
    # T-4: region cards in hand and the Witch's look are known to their holder alone; the
    # Astronomer's draw too (T-6.7).
    options = {"africanus": "on", "classes": "Peasant,Merchant,Witch,King,Astronomer,Sultan"}
    replay, calls, kinds = play("rattus", options, 3, 2, "random")
    assert calls > 50 and {"regions", "tokens"} <= kinds
    assert any(p.to is not None for p in replay.table.private)


def test_a_sealed_placement_is_known_to_its_seat_alone() -> None:
    # R-5.2 / architecture §6: between commit and reveal a seat knows its own placement only.
    replay, calls, _ = play("rattaneer", {}, 3, 1, "greedy")
    assert calls > 10 and replay.result is not None


def test_knowledge_is_read_only() -> None:
    source = {"regions/1": "R01"}
    mind = Knowledge(0, source)
    source["regions/2"] = "R02"
    assert dict(mind.opened) == {"regions/1": "R01"}
    with pytest.raises(TypeError):
        mind.opened["regions/3"] = "R03"  # type: ignore[index]
