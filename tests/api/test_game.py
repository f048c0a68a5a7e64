"""Issue 31: the public API plays through the store and the journal as the commands do:
every seat held here makes its automatic steps by itself, ``awaiting`` is None at the end,
a move is refused as ``pbem play`` refuses it, equivocation is impossible, and an export
verifies and never writes over a file."""

from __future__ import annotations

from pathlib import Path

import pytest

import pbem
from pbem.play.selfplay import bot_identities
from tests.helpers import ok


def players(n: int = 3) -> list[pbem.Identity]:
    return bot_identities(31, n)


def play_out(game: pbem.Game, seats: list[pbem.Identity], bot: str = "random") -> pbem.Status:
    """Every decision chosen by ``bot`` and played, until the game is over."""
    while not (status := game.status()).over:
        assert status.deciding, status.next  # never stuck on an automatic step
        for seat in status.deciding:
            game.play(game.choose(bot, as_=seats[seat]), as_=seats[seat])
    return status


def test_a_whole_bot_game_through_the_api_verifies(tmp_path: Path) -> None:
    seats = players()
    game = pbem.Game.new("guess", seats, as_=seats[0], options={"rounds": "2"})
    first = game.status()
    assert first.step > 0 and first.deciding == (0, 1, 2)  # joins and the draw made alone
    assert first.awaiting == (0, 1, 2)
    end = play_out(game, seats)
    assert end.awaiting is None and end.deciding == () and end.result is not None
    assert end.next == "nothing: the game is over"
    path = game.export(tmp_path)
    assert path.parent == tmp_path and path.name.startswith(f"guess-{game.id[:8]}.s")
    verdict = pbem.verify(path)
    assert (verdict.game, verdict.steps, verdict.result) == (game.id, end.step, end.result)
    assert pbem.Store().ids() == [game.id]  # the player's own store (PBEM_HOME)
    assert "OK" in ok("verify", path).stdout  # and the command line agrees


def test_moves_are_the_notation_and_refusals_are_pbem_errors() -> None:
    seats = players(2)
    game = pbem.Game.new("guess", seats, as_=seats[0], options={"open": "true"})
    assert game.legal_moves("bot1") == [f"guess {v}" for v in range(1, 11)]
    assert game.legal_moves(seats[1]) == game.legal_moves(1)
    with pytest.raises(pbem.Rejected, match="a guess is a number from 1 to 10"):
        game.play("guess 11", as_=seats[0])
    game.play("guess 4", as_=seats[0])
    assert game.legal_moves(0) == []  # answered: nothing to decide until bob has
    with pytest.raises(pbem.Rejected, match="you signed your act:guess for step 3 already"):
        game.play("guess 5", as_=seats[0])
    with pytest.raises(pbem.UsageError, match="holds no seat"):
        game.legal_moves("mallory")


def test_no_second_move_for_one_decision_from_another_copy(tmp_path: Path) -> None:
    """Two ``Game`` objects on one store, or a file read again: the store's journal holds
    what was signed, so a different sealed move for the same decision is refused."""
    seats = players(2)
    game = pbem.Game.new("guess", seats, as_=seats[0])
    early = game.export(tmp_path / "early.json")
    game.play("guess 3", as_=seats[0])
    again = pbem.Game.open(early)  # the same store: the file is a copy behind
    assert again.id == game.id and again.status().step == game.status().step
    for move in ("guess 7", "guess 3"):
        with pytest.raises(pbem.Rejected, match="that would be equivocation"):
            again.play(move, as_=seats[0])
    batch = again.position.batch
    assert batch is not None and [e.seat for e in batch.envelopes] == [0]  # one commitment


def test_a_game_travels_between_two_homes_by_file(tmp_path: Path) -> None:
    """Alice's store and Bob's: each plays its own seat; the files carry the game."""
    alice, bob = players(2)
    mine = pbem.Game.new("guess", [alice, bob.card], as_=alice, store=tmp_path / "a")
    sent = mine.export(tmp_path / "to-bob.json")
    theirs = pbem.Game.open(sent, store=tmp_path / "b", players=[bob])
    assert theirs.status().awaiting == (0,)  # bob joined; alice's beacon is due
    back = theirs.export(tmp_path / "to-alice.json")
    mine = pbem.Game.open(back, store=tmp_path / "a", players=[alice])
    assert mine.status().deciding == (0, 1)
    assert pbem.Store(tmp_path / "b").ids() == [mine.id]


def test_an_export_never_writes_over_a_file(tmp_path: Path) -> None:
    seats = players(2)
    game = pbem.Game.new("guess", seats, as_=seats[0])
    taken = tmp_path / "taken.json"
    taken.write_text("mine")
    with pytest.raises(pbem.UsageError, match="exists already"):
        game.export(taken)
    assert taken.read_text() == "mine"
    assert game.export(tmp_path) != game.export(tmp_path / "other.json")


def test_bots_by_name_for_any_game() -> None:
    bot = pbem.bots.get("greedy")
    assert repr(bot) == "pbem.bots.get('greedy')"
    with pytest.raises(pbem.UsageError, match="unknown bot 'clever'"):
        pbem.bots.get("clever")
    seats = players(3)
    game = pbem.Game.new("guess", seats, as_=seats[0], options={"rounds": "1"})
    with pytest.raises(pbem.UsageError, match="unknown bot 'greedy' for guess"):
        game.choose(bot, as_=seats[0])  # rattaneer has one; the test game none
    assert play_out(game, seats, "random").over
