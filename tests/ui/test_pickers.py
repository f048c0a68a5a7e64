"""Pickers against the rules, at every decision of self-played games: every legal action
can be clicked word by word (in any order where the action is a set), each word is among
those the page outlines before it is clicked, each click is accepted and the last one
gives exactly that action; a click that no legal action fits is
refused with the message the ruleset's ``check`` gives for it; the decisions that are not
clicked are the legal actions as buttons. Then the queue of a turn of several moves (T-5)
and the deadline column."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from pbem.format.errors import UsageError
from pbem.games.rattaneer.state import State as RattaneerState
from pbem.games.rattus import flow
from pbem.games.rattus.notation import USAGE
from pbem.games.rattus.state import State as RattusState
from pbem.games.rattus.state import board_of
from pbem.ledger.replay import Replay
from pbem.play.author import new_game
from pbem.play.selfplay import bot_identities
from pbem.ruleset import registry
from pbem.ruleset.rules import RulesError, Turn
from pbem.ui.decide import Ask, decide
from pbem.ui.pages import deadline
from pbem.ui.pickers import Picker, WordPicker, picker_for
from tests.helpers import Seeded, fixed_clock, play_until
from tests.ui.tables import table

SAMPLE = 2
"""Legal actions clicked per verb and position: every kind is met many times over a game."""


AFRICANUS = (("africanus", "on"),)
RATTUS_SEEDS = range(1, 13)
"""Seeds of games to play until every verb has been offered (which class cards come out
is the setup's draw; two or three games usually have them all)."""


@cache
def decisions(
    ruleset: str, players: int, options: tuple[tuple[str, str], ...], seed: int = 5
) -> list[Any]:
    """(state, seat) at every decision of a seeded random game, to its end."""
    rules = registry.get(ruleset)
    ids = bot_identities(players, players)
    replay = new_game(
        rules,
        rules.parse_options(dict(options)),
        [i.card for i in ids],
        ids[0],
        entropy=Seeded(seed),
        clock=fixed_clock,
    )
    found: list[Any] = []
    seen: set[tuple[int, int]] = set()

    def stop(r: Replay) -> bool:
        aw = r.awaiting
        choosing = aw.is_decision
        for seat in r.remaining() if choosing else ():
            if (r.count, seat) not in seen:
                seen.add((r.count, seat))
                found.append((r.state, seat))
        return r.result is not None

    play_until(replay, ids, stop, seed=b"pickers")
    return found


SETS = {"witch": 1, "spread": 1, "protect": 2}
"""Rattus actions whose words are a set of groups (the models sort them), by group size:
a player may click them in any order."""


def clicks(verb: str, words: list[str], rng: random.Random) -> list[str]:
    """The words of a move in an order a player may click them."""
    if verb not in SETS:
        return words
    n = SETS[verb]
    groups = [words[i : i + n] for i in range(0, len(words), n)]
    rng.shuffle(groups)
    return [w for g in groups for w in g]


def legal_by_verb(rules: Any, state: Any, seat: int) -> Iterator[Any]:
    by_verb: dict[str, list[Any]] = {}
    for action in rules.legal_actions(state, seat):
        by_verb.setdefault(rules.format_action(state, seat, action).split()[0], []).append(action)
    for actions in by_verb.values():
        yield from actions[:SAMPLE] + actions[SAMPLE:][-1:]


def covering(rules: Any) -> Iterator[tuple[Any, int]]:
    """The decisions of seeded games, game after game until every verb was offered."""
    offered: set[str] = set()
    for seed in RATTUS_SEEDS:
        for state, seat in decisions("rattus", 3, AFRICANUS, seed):
            offered |= {
                rules.format_action(state, seat, a).split()[0]
                for a in rules.legal_actions(state, seat)
            }
            yield state, seat
        if offered >= set(USAGE):
            return


def test_every_legal_rattus_action_can_be_clicked() -> None:  # T-5, T-6, T-7.3
    rules = registry.get("rattus")
    rng = random.Random(1)
    met: Counter[str] = Counter()
    for state, seat in covering(rules):
        picker = picker_for(rules, state, seat)
        assert isinstance(picker, WordPicker)
        for action in legal_by_verb(rules, state, seat):
            text = rules.format_action(state, seat, action)
            verb, *words = text.split()
            met[verb] += 1
            if text in picker.buttons():
                assert picker.typed(text).text == text
                continue
            picked: list[str] = []
            for word in clicks(verb, words, rng):
                assert word in picker.judge(verb, picked).next, "the page outlines it"
                picked.append(word)
                judged = picker.judge(verb, picked)
                assert judged.status != "refused", (text, picked, judged.message)
            assert judged.status == "legal", (text, picked)
            assert rules.parse_action(state, seat, judged.text) == action
    assert set(met) == set(USAGE), f"the games never offered {sorted(set(USAGE) - set(met))}"


def test_a_rattus_click_no_move_fits_is_refused_in_the_rules_words() -> None:  # T-5 C.1
    rules = registry.get("rattus")
    refusals = 0
    for state, seat in decisions("rattus", 3, AFRICANUS, RATTUS_SEEDS[0]):
        if flow.stage(state) != "turn" or state.progress.placed is False:
            continue
        picker = picker_for(rules, state, seat)
        if "plague" not in picker.moves:
            continue
        assert isinstance(state, RattusState) and state.plague is not None
        far = [
            r.name
            for r in state.regions
            if r.name != state.plague and r.name not in board_of(state).neighbours(state.plague)
        ]
        judged = picker.judge("plague", [far[0]])
        assert judged.status == "refused" and judged.picks == []
        with pytest.raises(RulesError) as said:
            rules.check(state, seat, rules.parse_action(state, seat, f"plague {far[0]}"))
        assert judged.message == str(said.value)
        assert "is not a neighbour of" in judged.message
        refusals += 1
    assert refusals > 3


def test_a_card_of_ones_hand_is_named_by_its_place_in_the_hand() -> None:  # T-7.3
    """Before the passphrase the page cannot know what a card shows, but it knows which
    handles are the reader's: "card 2 of your hand", never ``regions/4``; another
    player's card keeps no name (nothing of theirs is offered to click)."""
    rules = registry.get("rattus")
    named = 0
    for state, seat in decisions("rattus", 3, AFRICANUS, RATTUS_SEEDS[0]):
        assert isinstance(state, RattusState) and state.africa is not None
        hand = state.africa.hands[seat]
        other = [h for s, cards in enumerate(state.africa.hands) if s != seat for h in cards]
        if not hand or not other:
            continue
        names = picker_for(rules, state, seat).names([*hand, other[0]])
        assert names[hand[-1]] == f"card {len(hand)} of your hand"
        assert other[0] not in names
        named += 1
    assert named > 3


def test_every_rattaneer_decision_by_clicks_or_buttons() -> None:
    rules = registry.get("rattaneer")
    placements = 0
    for state, seat in decisions("rattaneer", 3, ()):
        assert isinstance(state, RattaneerState)
        picker = picker_for(rules, state, seat)
        legal = rules.legal_actions(state, seat)
        if state.phase != "morning":
            assert type(picker) is Picker
            assert picker.buttons() == [rules.format_action(state, seat, a) for a in legal]
            for text in picker.buttons():
                assert picker.typed(text).status == "legal"
            continue
        for place in legal[:3]:
            words = [*map(str, place.pirates), *map(str, place.henchmen)]
            words += ["X"] * (state.players[seat].henchmen - len(place.henchmen))
            for k in range(1, len(words) + 1):
                judged = picker.judge("pirates", words[:k])
                assert judged.status != "refused", (words[:k], judged.message)
                assert words[k] in judged.next if k < len(words) else not judged.more
            assert judged.status == "legal"
            assert rules.parse_action(state, seat, judged.text) == place
            placements += 1
        same = picker.judge("pirates", ["4", "4"])
        assert (same.status, same.picks) == ("refused", ["4"])
        assert same.message == "R-5.1: your two pirates must be on different areas"
    assert placements > 10


def test_a_turn_is_queued_move_by_move_while_it_goes_on() -> None:  # T-5
    t = table()
    rules = registry.get("rattus")
    replay = Replay.start(t.rattus.genesis, rules)
    for step in t.rattus.steps:
        replay.add(step)
    state = replay.state
    assert isinstance(state, RattusState)
    card = next(c.name for c in state.cards if c.holder != 0)
    answer = decide(replay, 0, Ask(picks=[card]))
    assert answer.queue == [f"take {card}"] and answer.ready == [f"take {card}"]
    assert answer.board is not None and "data-pick=" in answer.board
    assert answer.judged.status == "partial" and "T-5" in answer.asked
    # the Knight (T-6.4): one step is a legal move that a second click may extend
    place = next(r.name for r in state.regions if r.tokens)
    queue = ["take Knight", f"place {place}"]
    assert state.plague is not None
    step = board_of(state).neighbours(state.plague)[0]
    knight = decide(replay, 0, Ask(queue=queue, picks=[step]))
    assert (knight.judged.status, knight.judged.more) == ("legal", True)
    after = state
    for text in [*queue, f"plague {step}"]:
        after = rules.apply(after, 0, rules.parse_action(after, 0, text))
    pending = rules.pending(after)
    assert isinstance(pending, Turn) and pending.seat == 0, "it spreads: the turn goes on"
    assert knight.goes_on
    assert knight.ready == [*queue, f"plague {step}"]
    with pytest.raises(UsageError, match="no longer fit the game"):
        decide(replay, 0, Ask(queue=[f"take {card}", f"take {card}"]))
    with pytest.raises(UsageError, match="no decision of yours"):
        decide(replay, 1, Ask())


def test_the_deadline_shows_only_where_the_game_has_one() -> None:  # architecture §11
    t = table()
    replay = Replay.start(t.rattus.genesis, registry.get("rattus"))
    assert deadline(replay) == ""
    rules = registry.get("guess")
    ids = bot_identities(2, 2)
    dated = new_game(
        rules, rules.parse_options({}), [i.card for i in ids], ids[0], deadline=3 * 86400
    )
    assert deadline(dated) == (
        "bot2 awaited since 2026-01-01 00:00 UTC (0m); "
        "the deadline passes at 2026-01-04 00:00 UTC (in 3d 0h)"
    )
