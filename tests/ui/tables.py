"""A player's home for the board page's tests: a keyring holding one sealed identity
(bot1), and a store holding a Rattaneer game at bot1's Morning placement (with a deadline)
and a Rattus game at the start of bot1's turn, the other seats played by seeded bots."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pbem.crypto.keyring import Keyring, seal_identity
from pbem.crypto.keys import Identity
from pbem.format import gamefile
from pbem.format.gamefile import GameFile
from pbem.games.rattus import flow
from pbem.ledger.replay import Replay
from pbem.play.author import act, new_game
from pbem.play.selfplay import bot_identities
from pbem.ruleset import registry
from pbem.store.store import Store
from tests.helpers import Seeded, fixed_clock, play_until

PASSPHRASE = "correct horse battery staple"
PLAYERS = 3
DEADLINE = 2 * 86400
"""The Rattaneer game's: two days a decision (the Rattus game has none)."""


@dataclass(frozen=True)
class Table:
    rattaneer: GameFile
    rattus: GameFile
    ids: tuple[Identity, ...]


def _morning(r: Replay) -> bool:
    return r.awaiting.decision == "commit:place"


def _turn(r: Replay) -> bool:
    s = r.state
    return (
        s is not None
        and r.awaiting.kind == "turn"
        and flow.stage(s) == "turn"
        and s.active == 0
        and not s.progress.took
        and any(not r.tokens for r in s.regions)  # somewhere to be refused a placement
    )


@cache
def table() -> Table:
    """Both games, made once per test session."""
    ids = bot_identities(19, PLAYERS)
    cards = [i.card for i in ids]
    rattaneer = registry.get("rattaneer")
    morning = new_game(
        rattaneer,
        rattaneer.parse_options({}),
        cards,
        ids[0],
        entropy=Seeded(19),
        clock=fixed_clock,
        deadline=DEADLINE,
    )
    play_until(morning, list(ids), _morning)
    for seat in (1, 2):  # the others have sealed theirs: bot1's placement is the last one
        place = rattaneer.legal_actions(morning.state, seat)[seat]
        act(morning, ids[seat], place, entropy=Seeded(seat), clock=fixed_clock)
    rattus = registry.get("rattus")
    turn = new_game(
        rattus, rattus.parse_options({}), cards, ids[0], entropy=Seeded(20), clock=fixed_clock
    )
    play_until(turn, list(ids), _turn)
    return Table(morning.to_file(), turn.to_file(), tuple(ids))


def furnish(home: Path) -> Table:
    """Put bot1's sealed key and both games into ``home``."""
    t = table()
    keyring = Keyring(home)
    keyring.keys_dir.mkdir(parents=True, exist_ok=True)
    me = t.ids[0]
    (keyring.keys_dir / f"{me.card.name}.json").write_text(seal_identity(me, PASSPHRASE).to_json())
    store = Store(home)
    for game in (t.rattaneer, t.rattus):
        store.import_game(game, "dealt for the test")
    store.close()
    return t


def file_text(game: GameFile) -> str:
    return gamefile.encode(game)


def _protecting(r: Replay) -> bool:
    s = r.state
    return (
        s is not None
        and flow.stage(s) == "protect"
        and s.resolution is not None
        and 0 in s.resolution.asked
        and 0 in r.remaining()
    )


@cache
def protect_game() -> GameFile:
    """A Rattus game with Africanus where bot1 is asked whether to protect cubes (T-7.3),
    the other seats played by seeded bots: the decision of the page on a phone."""
    ids = bot_identities(19, PLAYERS)
    rattus = registry.get("rattus")
    game = new_game(
        rattus,
        rattus.parse_options({"africanus": "on"}),
        [i.card for i in ids],
        ids[0],
        entropy=Seeded(21),
        clock=fixed_clock,
    )
    play_until(game, list(ids), _protecting)
    return game.to_file()
