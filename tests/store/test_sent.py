"""What the store remembers of moves signed and mail sent (``pbem.store.sent``): a move
signed here (``play_moves``) is "signed, not sent" until a copy reaching it was mailed
from the home, or until another seat signed a step after it (who had it, then); the
others' envelopes closing the same parallel decision prove nothing; a game with nothing
signed here is never said unsent; an unreadable mark reads as no mark."""

from __future__ import annotations

from pathlib import Path

from pbem.crypto.keys import Identity
from pbem.ledger.awaiting import needs_decision
from pbem.ledger.replay import Replay
from pbem.play.author import new_game
from pbem.play.playing import play_moves
from pbem.play.selfplay import bot_identities
from pbem.ruleset import registry
from pbem.store.sent import SENT, mark_sent, sent_reach, unsent
from pbem.store.store import Store
from tests.helpers import Seeded, fixed_clock, play_until


def _store(home: Path, ruleset: str, stop: object) -> tuple[Store, str, list[Identity]]:
    """A 3-player game played by seeded bots until ``stop``, in a store of ``home``."""
    ids = bot_identities(19, 3)
    rules = registry.get(ruleset)
    replay = new_game(
        rules,
        rules.parse_options({}),
        [i.card for i in ids],
        ids[0],
        entropy=Seeded(7),
        clock=fixed_clock,
    )
    play_until(replay, ids, stop)  # type: ignore[arg-type]
    store = Store(home)
    store.import_game(replay.to_file(), "dealt")
    return store, replay.genesis.game, ids


def _play(store: Store, game: str, who: Identity, seat: int) -> None:
    """The first legal move of ``seat`` (or the automatic steps it owes), signed as
    ``pbem play`` signs it."""
    pos = store.head(game).position
    moves = []
    if needs_decision(pos):
        action = pos.rules.legal_actions(pos.state, seat)[0]
        moves = [pos.rules.format_action(pos.state, seat, action)]
    play_moves(store, game, who, moves, "test")


def _morning(r: Replay) -> bool:
    return r.awaiting.decision == "commit:place"


def test_an_envelope_is_unsent_until_mailed_or_answered(_isolated_home: Path) -> None:
    store, game, ids = _store(_isolated_home, "rattaneer", _morning)
    me = ids[0].card
    assert not any(unsent(store, game, i.card) for i in ids), "nothing signed here yet"
    _play(store, game, ids[0], 0)
    assert unsent(store, game, me)
    assert not unsent(store, game, ids[1].card), "bot2 signed nothing here"
    _play(store, game, ids[1], 1)
    assert unsent(store, game, me), "signed beside mine, in the open batch: proves nothing"
    assert unsent(store, game, ids[1].card)
    mark_sent(store, game, me)
    assert not unsent(store, game, me) and not unsent(store, game, ids[1].card)
    _play(store, game, ids[2], 2)  # closes the batch, then bot3's reveal: after mine
    assert unsent(store, game, ids[2].card)
    assert not unsent(store, game, me)
    store.close()


def test_a_signing_others_signed_after_was_sent_somehow(_isolated_home: Path) -> None:
    store, game, ids = _store(_isolated_home, "rattaneer", _morning)
    _play(store, game, ids[0], 0)
    _play(store, game, ids[1], 1)
    _play(store, game, ids[2], 2)  # closes the batch, then bot3's reveal: after both
    assert not unsent(store, game, ids[0].card) and not unsent(store, game, ids[1].card)
    assert unsent(store, game, ids[2].card)
    assert sent_reach(store, game) == -1, "nothing was mailed"
    store.close()


def _turn(r: Replay) -> bool:
    return r.awaiting.kind == "turn" and r.remaining() == (0,) and r.count > 8


def test_a_move_the_next_seat_answered_was_sent_somehow(_isolated_home: Path) -> None:
    store, game, ids = _store(_isolated_home, "rattus", _turn)
    me = ids[0].card
    while 0 in store.head(game).position.remaining():
        _play(store, game, ids[0], 0)
    assert unsent(store, game, me)
    signed = store.acknowledged(game, [0])[0]
    assert signed is not None
    # the others sign on: beside my share of the open batch first, then beyond it
    while max(i or 0 for i in store.acknowledged(game, [1, 2]).values()) <= signed:
        assert unsent(store, game, me), "nothing signed beyond mine yet"
        seat = store.head(game).position.remaining()[0]
        assert seat != 0
        _play(store, game, ids[seat], seat)
    assert not unsent(store, game, me), "the next seat signed after: it had the move"
    assert sent_reach(store, game) == -1, "nothing was mailed"
    store.close()


def test_an_unreadable_mark_reads_as_no_mark(_isolated_home: Path) -> None:
    store, game, ids = _store(_isolated_home, "rattaneer", _morning)
    _play(store, game, ids[0], 0)
    mark_sent(store, game, ids[0].card)
    assert sent_reach(store, game) == 2 * store.head(game).position.count + 1
    assert not unsent(store, game, ids[0].card)
    with store.writing():
        store.db.execute("UPDATE meta SET value = 'not a number' WHERE key = ?", (SENT + game,))
    assert sent_reach(store, game) == -1
    assert unsent(store, game, ids[0].card)
    store.close()
