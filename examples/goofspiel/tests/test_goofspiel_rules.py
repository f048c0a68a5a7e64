"""Goofspiel's rules, one test per numbered section of ``goofspiel/rules.md`` (cited in
each test's name or docstring), on positions built by hand; then whole games through the
engine: sealed, shuffled, signed, verified."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from goofspiel import Bid, Goofspiel, GoofspielState, match, prize_id

import pbem
from pbem.ruleset.rulebook import citations

RULES = Goofspiel()


def table(cards: int = 5, seats: int = 3) -> GoofspielState:
    return RULES.setup(RULES.parse_options({"cards": str(cards)}), seats)


def turned_up(state: GoofspielState, value: int) -> GoofspielState:
    """The top prize turned up, showing ``value`` (G-3.1)."""
    reveal = RULES.pending(state)
    assert isinstance(reveal, pbem.Reveal) and reveal.to is None
    return RULES.apply_reveal(state, reveal, {reveal.items[0]: prize_id(value)})


def test_g_1_1_hands_and_the_prize_deck_hold_one_card_of_each_value() -> None:
    assert RULES.parse_options({}) == {"cards": 13}
    state = table(cards=5, seats=2)
    assert state.hands == [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]]
    assert RULES.sealed_decks({"cards": 5}, 2) == {"prizes": [prize_id(v) for v in range(1, 6)]}
    for bad in ("2", "14", "five", "٣"):
        with pytest.raises(pbem.RulesError, match=r"G-1\.1"):
            RULES.parse_options({"cards": bad})
    with pytest.raises(pbem.RulesError, match="unknown option 'suits'"):
        RULES.parse_options({"suits": "4"})


def test_g_2_1_the_prizes_are_sealed_handles_until_turned_up() -> None:
    state = table()
    assert state.prizes == [f"prizes/{i}" for i in range(5)] and state.prize is None
    assert RULES.pending(state) == pbem.Reveal(items=["prizes/0"])


def test_g_3_1_the_top_prize_is_turned_up_for_everyone() -> None:
    state = turned_up(table(), 4)
    assert (state.prize, state.round, state.phase) == (4, 1, "bid")
    assert state.prizes == [f"prizes/{i}" for i in range(1, 5)]


def test_g_3_2_every_player_bids_at_once_and_sealed() -> None:
    state = turned_up(table(seats=3), 4)
    decision = RULES.pending(state)
    assert isinstance(decision, pbem.Parallel)
    assert (decision.seats, decision.sealed) == ([0, 1, 2], True)
    assert "G-3.2" in decision.prompt
    assert RULES.legal_actions(state, 1) == [Bid(card=c) for c in range(1, 6)]
    assert RULES.parse_action(state, 0, "bid 3") == Bid(card=3)
    for text in ("3", "bid", "bid three", "bid 3 4"):
        with pytest.raises(pbem.RulesError, match=r"G-3\.2: expected 'bid N'"):
            RULES.parse_action(state, 0, text)
    with pytest.raises(pbem.RulesError, match=r"G-1\.1"):
        RULES.parse_action(state, 0, "bid 6")
    with pytest.raises(pbem.RulesError, match=r"G-3\.2"):
        RULES.check(table(), 0, Bid(card=1))  # no prize turned up yet


# --8<-- [start:tests]
def test_g_3_3_the_one_highest_bid_wins_the_prize() -> None:
    state = turned_up(table(seats=3), 4)
    after = RULES.apply_parallel(state, {0: Bid(card=2), 1: Bid(card=5), 2: Bid(card=3)})
    assert after.scores == [0, 4, 0] and after.bids == [2, 5, 3]
    lines = RULES.consequences(state, after, ["ann", "bo", "cy"])
    assert lines == ["bids ann 2, bo 5, cy 3: bo wins the 4"]


def test_g_3_3_a_tie_for_the_highest_bid_discards_the_prize() -> None:
    state = turned_up(table(seats=3), 4)
    after = RULES.apply_parallel(state, {0: Bid(card=5), 1: Bid(card=5), 2: Bid(card=3)})
    assert after.scores == [0, 0, 0]
    (line,) = RULES.consequences(state, after, ["a", "b", "c"])
    assert line == "bids a 5, b 5, c 3: a tie, the 4 is discarded (G-3.3)"


# --8<-- [end:tests]


def test_g_3_4_a_card_bid_is_spent() -> None:
    state = turned_up(table(seats=2), 1)
    after = RULES.apply_parallel(state, {0: Bid(card=5), 1: Bid(card=1)})
    assert after.hands == [[1, 2, 3, 4], [2, 3, 4, 5]]
    again = turned_up(after, 2)
    with pytest.raises(pbem.RulesError, match=r"G-3\.4: the 5 is not in your hand"):
        RULES.check(again, 0, Bid(card=5))
    assert Bid(card=5) not in RULES.legal_actions(again, 0)


def test_g_4_1_after_the_last_prize_the_highest_score_wins_and_ties_share() -> None:
    state = table(cards=3, seats=2)
    for value, bids in ((3, (3, 1)), (1, (1, 3)), (2, (2, 2))):
        state = turned_up(state, value)
        state = RULES.apply_parallel(state, {0: Bid(card=bids[0]), 1: Bid(card=bids[1])})
    over = RULES.pending(state)
    assert isinstance(over, pbem.Over)
    assert over.result == pbem.Result(scores=[3, 1], winners=[0])
    state.scores = [2, 2]
    assert RULES.pending(state).result.winners == [0, 1]  # type: ignore[union-attr]


def test_the_match_bot_bids_the_prize_or_the_nearest_card() -> None:
    state = turned_up(table(seats=2), 3)
    rng = pbem.Rng(b"match")
    assert match(RULES, state, 0, pbem.Knowledge(0), rng) == Bid(card=3)
    state.hands[0] = [1, 2, 4, 5]
    assert match(RULES, state, 0, pbem.Knowledge(0), rng) == Bid(card=4)  # the higher of two


def test_every_section_a_message_cites_is_in_the_rules_text() -> None:
    """Every string of the code cites only sections ``rules.md`` has."""
    source = Path(__file__).resolve().parents[1] / "goofspiel" / "__init__.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    cited = {c for s in strings if isinstance(s, str) for c in citations(s)}
    book = RULES.rulebook()
    assert book is not None and cited
    assert all(book.get(c) is not None for c in cited), sorted(cited)
    assert all(c.startswith("G-") for c in cited)  # its own sections, no other game's


@pytest.mark.parametrize("seats", [2, 4])
def test_a_whole_game_is_sealed_shuffled_signed_and_verified(tmp_path: Path, seats: int) -> None:
    """Through the public API: every seat held here, the match bot deciding for them."""
    players = [pbem.Identity.generate(f"p{i}", f"p{i}@example.org") for i in range(seats)]
    game = pbem.Game.new(
        "goofspiel", players, as_=players[0], options={"cards": "4"}, store=tmp_path / "home"
    )
    while not (status := game.status()).over:
        for seat in status.deciding:
            game.play(game.choose("match", as_=players[seat]), as_=players[seat])
    verdict = pbem.verify(game.export(tmp_path))
    assert verdict.result == status.result and sum(status.result.scores) <= 1 + 2 + 3 + 4
    assert status.view is not None and status.view["hands"] == [[]] * seats
