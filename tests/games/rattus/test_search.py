"""The search's guesses of what a seat cannot see (pbem.games.rattus.search.deal): at every
decision of whole games, each determinization keeps every public face and everything the
seat knows, and deals the rest of each deck, each item once."""

from __future__ import annotations

from collections import Counter

from pbem.bots.simulate import World
from pbem.crypto.randomness import Rng
from pbem.games.rattus import regiondeck, setup
from pbem.games.rattus.actions import Swap
from pbem.games.rattus.search import RattusSearch, deal
from pbem.games.rattus.state import WitchLook
from pbem.ruleset.knowledge import Knowledge

from .harness import AFRICANUS, RULES, face, position, rng


def test_every_guess_keeps_what_is_known_and_deals_each_item_once() -> None:
    # T-4: tokens and region cards are sealed; what is revealed or opened to the seat is
    # not guessed. Checked also while a revealed token waits for region cards (T-7.3).
    world = World.new(RULES, AFRICANUS, 4, rng(3, "world"))
    greedy = RULES.bot("greedy")
    decks = setup.sealed_decks(world.state.options, 4)
    checked = Counter()
    while not world.over():
        s = world.state
        for seat in world.awaited():
            known = world.knowledge(seat).opened
            faces = deal(s, known, rng(checked["decisions"], "deal"))
            for deck in ("start", "tokens"):
                dealt = [f for h, f in faces.items() if h.startswith(f"{deck}/")]
                assert sorted(dealt) == sorted(decks[deck])
            public = {t.handle: t.face for t in s.revealed}
            if s.resolution is not None and s.resolution.token is not None:
                public[s.resolution.token] = s.resolution.face
                checked["mid-resolution"] += 1
            for handle, item in {**public, **known}.items():
                assert faces[handle] == item == world.faces[handle]
            cards = [faces[h] for hand in s.africa.hands for h in hand] + [
                faces[h] for h in s.africa.deck
            ]
            assert not Counter(cards) - Counter(regiondeck.card_ids(4))
            checked["decisions"] += 1
        world.play(
            {
                seat: greedy(RULES, world.state, seat, world.knowledge(seat), rng(seat))
                for seat in world.awaited()
            }
        )
    assert checked["decisions"] > 50 and checked["mid-resolution"]


def test_other_seats_know_their_own_hands_in_the_guess() -> None:
    world = World.new(RULES, AFRICANUS, 3, rng(4, "world"))
    s = world.state
    guess = RattusSearch().world(RULES, s, world.knowledge(0), Rng(bytes(32)))
    assert guess.opened[0] == dict(world.knowledge(0).opened)
    for seat in (1, 2):
        assert set(guess.opened[seat]) == set(s.africa.hands[seat])


def test_mcts_swaps_the_deadly_token_away() -> None:
    # T-6.5: the Witch has looked: a token that breaks out at 1 cube and hits the majority
    # and the Knight lies among seat 0's cubes, a harmless one (6) among seat 1's. The token
    # supply is empty, so the final plague follows this turn (T-9.1, T-9.3): keeping loses
    # the game, swapping wins it.
    deadly, harmless = "tokens/0", "tokens/1"
    s = position(
        2,
        tokens={"Italia": [deadly], "Scandia": [harmless]},
        cubes={"Italia": [4, 0], "Scandia": [0, 4]},
        cards={"Witch": 0, "Knight": 0},
        supply=[],
    )
    s.progress.placed, s.progress.took, s.progress.used = True, True, ["Witch"]
    s.witch = WitchLook(tokens=[deadly, harmless], seen=True)
    known = {
        deadly: face(1, ["chivalry"], m=True),
        harmless: face(6, ["bourgeoisie", "church", "peasantry"]),
    }
    assert [a.type for a in RULES.legal_actions(s, 0)] == ["keep", "swap"]
    choice = RULES.bot("mcts:8")(RULES, s, 0, Knowledge(0, known), Rng(bytes(32)))
    assert choice == Swap()
