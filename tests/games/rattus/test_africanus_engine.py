"""Africanus through the engine: region cards as a sealed deck (T-3.5, T-4), dealt and
drawn privately, reshuffled under a new deck name (T-6.7), played against the plague in a
parallel reaction, revealed, and checked by everyone (T-7.3)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pbem.crypto import deck
from pbem.crypto.keys import Identity
from pbem.crypto.randomness import Rng
from pbem.format import gamefile
from pbem.format.errors import Rejected
from pbem.games.rattus import data, flow, regiondeck
from pbem.games.rattus.actions import Protect, Use
from pbem.games.rattus.bots import greedy
from pbem.ledger.replay import Replay, replay_file
from pbem.play.author import act, automatic, knowledge, new_game, private_knowledge
from pbem.play.selfplay import bot_identities
from pbem.play.signer import deck_secret
from tests.helpers import Seeded, fixed_clock, forged_envelope

from .harness import RULES, options, protect_knowingly
from .secrecy import Scanner


def started(seats: int, seed: int, classes: str) -> tuple[Replay, list[Identity]]:
    ids = bot_identities(seed, seats)
    opts = options(True, classes)
    replay = new_game(
        RULES, opts, [i.card for i in ids], ids[0], entropy=Seeded(seed), clock=fixed_clock
    )
    return replay, ids


def drive(
    replay: Replay, ids: list[Identity], stop: Callable[[Replay], bool], prefer: tuple[str, ...]
) -> None:
    """Every automatic step; then the awaited seat decides: region cards chosen knowing its
    hand, else the first legal action written as a ``prefer`` line begins, else the greedy
    bot's choice."""
    rng = Rng(b"drive".ljust(32, b"\0"))
    seals = Seeded(5)
    while not stop(replay):
        seat = replay.remaining()[0]
        if automatic(replay, ids[seat], clock=fixed_clock):
            continue
        s = replay.state
        if flow.stage(s) == "protect":
            action = protect_knowingly(s, seat, private_knowledge(replay, ids[seat]), rng)
        else:
            legal = [
                a
                for a in RULES.legal_actions(s, seat)
                if RULES.format_action(s, seat, a).startswith(prefer)
            ]
            action = (
                legal[0] if legal else greedy(RULES, s, seat, knowledge(replay, ids[seat]), rng)
            )
        act(replay, ids[seat], action, entropy=seals, clock=fixed_clock)


def test_hands_are_dealt_privately() -> None:
    # T-3.5, T-4: three cards each, opened to the holder alone; nobody else can open them.
    replay, ids = started(3, 1, "Peasant,Monk,Witch,King,Astronomer,Sultan")
    drive(replay, ids, lambda r: r.state is not None and flow.stage(r.state) == "start", ())
    hands = replay.state.africa.hands
    table = deck.item_table(regiondeck.DECK, replay.table.items[regiondeck.DECK])
    for seat, ident in enumerate(ids):
        known = private_knowledge(replay, ident)
        assert set(known) == set(hands[seat])
        assert all(card in data.region_cards() for card in known.values())
        other = deck_secret(ids[(seat + 1) % 3], replay.genesis.game)
        private = next(p for p in replay.table.private if p.to == seat)
        with pytest.raises(deck.DeckError):
            deck.identify(deck.open_private(private.cts[0], private.shares[0], other), table)


def test_the_astronomer_draws_through_a_reshuffled_deck() -> None:
    # T-6.7, T-6 (deck empty): the face-up discards are sealed and shuffled by every seat as
    # a new deck, regions-2; the Astronomer's draw from it is still private.
    replay, ids = started(2, 2, "Peasant,Merchant,Monk,King,Astronomer,Sultan")
    drive(replay, ids, lambda r: "regions-2" in r.table.items, ("take Astronomer", "astronomer"))
    assert replay.awaiting.kind == "shuffle" and replay.awaiting.prompt == "shuffle deck regions-2"
    assert sorted(replay.state.africa.discards) == replay.table.items["regions-2"]
    before = len(replay.records)
    drive(replay, ids, lambda r: flow.stage(r.state) == "choose", ())
    assert [r.kind for r in replay.records[before : before + 2]] == ["shuffle", "shuffle"]
    drawn = replay.state.africa.draw.cards
    assert any(h.startswith("regions-2/") for h in drawn)
    seat = replay.state.active
    assert set(drawn) <= set(private_knowledge(replay, ids[seat]))
    assert not set(drawn) & set(private_knowledge(replay, ids[1 - seat]))
    text = gamefile.encode(replay.to_file())
    scanner = Scanner(RULES, replay.genesis.options, 2)
    scanner.scan(replay.to_file())
    scanner.final(text)
    assert replay_file(gamefile.decode(text), RULES).state == replay.state


@pytest.fixture(scope="module")
def cheat_chance() -> tuple[bytes, int, Use]:
    """A file awaiting region cards in which an asked seat holds a card that does not show
    the icon of a class card hit; that seat, and the play it must not make."""
    replay, ids = started(4, 3, "Peasant,Merchant,Knight,Witch,King,Sultan")

    def cheat(r: Replay) -> tuple[int, Use] | None:
        if r.awaiting.decision != "act:protect" or r.open_batch is not None:
            return None
        for seat in r.remaining():
            known = private_knowledge(r, ids[seat])
            for action in RULES.legal_actions(r.state, seat):
                for use in action.uses:
                    card = data.region_cards()[known[use.card]]
                    if not regiondeck.shows(card, data.icons()[use.protects]):
                        return seat, use
        return None

    drive(replay, ids, lambda r: cheat(r) is not None, ())
    found = cheat(replay)
    assert found is not None
    return gamefile.encode(replay.to_file()).encode(), *found


def test_an_honest_player_cannot_sign_a_card_without_the_icon(cheat_chance) -> None:
    # T-7.3, check_private: the seat's own pbem reads its hand and refuses to sign.
    text, seat, use = cheat_chance
    replay = replay_file(gamefile.decode(text), RULES)
    ids = bot_identities(3, 4)
    with pytest.raises(Rejected, match=r"T-7\.3: you played regions"):
        act(replay, ids[seat], Protect(uses=[use]))


def test_everyone_refuses_the_card_once_revealed_naming_the_seat(cheat_chance) -> None:
    # T-7.3: a cheat signs it anyway; the public reveal shows the card, and the step that
    # completes the reveal is refused, naming the seat.
    text, seat, use = cheat_chance
    replay = replay_file(gamefile.decode(text), RULES)
    ids = bot_identities(3, 4)
    body = {"action": RULES.dump_action(Protect(uses=[use]))}
    replay.add_envelope(forged_envelope(replay, ids[seat], seat, body))
    while replay.awaiting.decision == "act:protect":
        act(replay, ids[replay.remaining()[0]], Protect())
    with pytest.raises(Rejected, match=rf"T-7\.3: seat {seat} played {use.card} \(RC"):
        for ident in ids * 2:
            automatic(replay, ident)


def test_region_cards_are_played_and_revealed_through_the_engine(cheat_chance) -> None:
    # T-7.3: honest players play fitting cards; the reveal and the hits verify for everyone.
    text, _, _ = cheat_chance
    replay = replay_file(gamefile.decode(text), RULES)
    ids = bot_identities(3, 4)
    played = []

    def revealed_cards(r: Replay) -> bool:
        if r.records[-1].summary.startswith("protect:") and "protect regions" in (
            r.records[-1].summary
        ):
            played.append(r.records[-1].summary)
        return r.result is not None or (
            bool(played) and r.records[-1].summary.startswith("revealed regions")
        )

    drive(replay, ids, revealed_cards, ())
    assert played, "nobody played a region card in this game"
    assert replay.state.resolution is None or replay.state.resolution.played
    final = replay_file(replay.to_file(), RULES)
    assert final.state == replay.state
