"""Issue 16: a person plays against computer opponents by mail. Seats are held by bots
through their own robots (``pbem watch --bot mcts:16``, the search bot on a small budget,
and the ``bot.NAME`` setting); the test plays only the person's decisions, as in
``test_game_by_mail``."""

from __future__ import annotations

from pathlib import Path

from pbem.ledger.replay import Replay
from pbem.mail.botseat import bot_rng
from pbem.store.db import unpack
from pbem.store.journal import decision
from tests.helpers import commit_all, guess_game
from tests.mail.conftest import Player, make_players
from tests.mail.servers import Certs, Dovecot, Smtp
from tests.mail.test_game_by_mail import play_by_mail


def decisions_signed_by(final: Replay, seat: int) -> list[bytes]:
    """The seat's decisions in the final game (turns, open and sealed choices), as bytes."""
    return [
        item.canonical_bytes()
        for _, item in final.taken
        if item.seat == seat and decision(item).startswith(("turn", "act:", "commit:"))
    ]


def journaled(player: Player) -> set[bytes]:
    """Everything ``player``'s own pbem signed (its journal keeps the signed bytes)."""
    rows = player.store().db.execute("SELECT i.data FROM journal j JOIN items i ON i.hash = j.item")
    return {unpack(bytes(data)) for (data,) in rows}


def test_a_person_plays_rattaneer_against_a_bot_by_mail(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    duo = make_players(tmp_path, smtp, imap, certs, ("alice", "bob"))
    bob = duo[1]
    robots = {"bob": ["--bot", "mcts:16"]}
    final, table = play_by_mail(duo, tmp_path, smtp, "rattaneer", "greedy", robots=robots)

    # The test made alice's decisions only; bob's robot, searching, made all of bob's.
    assert len(table.decisions) == len(decisions_signed_by(final, 0))
    assert not bob.notes.exists()  # nobody was asked to decide
    for seat, bot in ((1, bob),):
        own = decisions_signed_by(final, seat)
        played = [e for e in table.events[bot.name] if e.startswith("bot mcts:16 played ")]
        assert own and len(played) == len(own), (bot.name, len(own), played[:3])
        assert set(own) <= journaled(bot)  # signed in the bot's own home, with its key
        assert all(e.endswith(f"in rattaneer game {e.split()[-1]}") for e in played)
    assert final.result is not None


def test_the_bot_setting_of_an_identity_holds_its_seat(
    trio: list[Player], tmp_path: Path, smtp: Smtp
) -> None:
    """``pbem config set bot.NAME SPEC``: ``pbem watch --as NAME`` plays with that bot
    without being told; the other players' robots, without the setting, do not."""
    carol = trio[2]
    carol.run("config", "set", "bot.carol", "random")
    final, table = play_by_mail(trio, tmp_path, smtp, "guess", "random", "rounds=1")
    played = [e for e in table.events["carol"] if e.startswith("bot random played ")]
    assert played and len(played) == len(decisions_signed_by(final, 2))
    assert set(decisions_signed_by(final, 2)) <= journaled(carol)
    assert not any("bot" in e for name in ("alice", "bob") for e in table.events[name])


def test_a_bot_draws_the_same_on_a_restart_and_what_no_other_seat_can_derive() -> None:
    """The stream is fixed by the seat's secret, the game and the step: a robot restarted
    on the same position chooses the same; another seat (or anyone without the secret)
    gets another stream; the next step, another draw."""
    replay, ids = guess_game(players=2)
    draws = [bot_rng(replay, ident).below(1 << 62) for ident in ids]
    assert bot_rng(replay, ids[0]).below(1 << 62) == draws[0]
    assert draws[0] != draws[1]
    commit_all(replay, ids, [3, 5])
    assert bot_rng(replay, ids[0]).below(1 << 62) != draws[0]
