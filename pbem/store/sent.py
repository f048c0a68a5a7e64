"""What this home signed and what it mailed of each game, so that ``pbem games`` and the
board page can say that a move signed here has not gone out yet ("signed, not sent")
instead of reading as if the others were awaited.

Marks in the store's ``meta`` table, each how far a copy of the game reached:
``signed:GAME:SEAT`` when a player of this home signed moves in it (``pbem play``, the board
page: ``play_moves``), ``sent:GAME`` when a copy was mailed from this home (``pbem send``,
``pbem play --send``, the board page's sending, a message the robot queued; a message
written for a mail client with ``--eml`` counts too). A signing is *unsent* while it
reaches beyond the copy mailed, another seat is awaited, and no other seat signed a step
beyond it (whoever did had it: it went out somehow, by hand or from another home; an
envelope signed beside it in the same open batch proves nothing, and is not beyond). Games
with no ``signed`` mark (imported, or signed before this record existed) are never said
unsent: the mark says what is known, nothing is guessed.

Reach is counted in half steps: ``2 * count`` for a copy of ``count`` steps (an open batch
counts as its step), one more when it carries the signer's envelope of the open batch (a
parallel decision not closed yet); a step at index ``i`` reaches ``2 * i + 2``.
"""

from __future__ import annotations

from pbem.format.card import IdentityCard
from pbem.ledger.position import Position
from pbem.store.head import Head
from pbem.store.store import Store

SIGNED, SENT, MAILED = "signed:", "sent:", "mailed:"


def _seat(position: Position, me: IdentityCard | None) -> int | None:
    keys = [card.sign_key for card in position.cards]
    return keys.index(me.sign_key) if me is not None and me.sign_key in keys else None


def _reach(position: Position, seat: int | None) -> int:
    """How far a copy at ``position`` carries what ``seat`` signed, in half steps."""
    batch = position.batch
    mine = batch is not None and any(env.seat == seat for env in batch.envelopes)
    return 2 * position.count + (1 if mine else 0)


def _mark(store: Store, key: str, me: IdentityCard, position: Position) -> None:
    reach = _reach(position, _seat(position, me))
    with store.writing():
        if reach > _read(store, key):
            store.db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, str(reach))
            )


def _read(store: Store, key: str) -> int:
    with store.reading():
        row = store.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    try:
        return int(row[0]) if row else -1
    except (TypeError, ValueError):
        return -1  # unreadable: as if the mark were not there


def _signed_key(game: str, seat: int) -> str:
    return f"{SIGNED}{game}:{seat}"


def mark_signed(store: Store, game: str, me: IdentityCard, position: Position) -> None:
    """``me`` signed moves (or automatic steps) of ``game``, which are now at ``position``."""
    seat = _seat(position, me)
    if seat is not None:
        _mark(store, _signed_key(game, seat), me, position)


def mark_sent(store: Store, game: str, me: IdentityCard, position: Position | None = None) -> None:
    """The copy of ``game`` at ``position`` (default: the store's newest) was mailed by
    ``me`` (or queued for the robot to send, or written as a message for a mail client)."""
    with store.writing():
        _mark(
            store, SENT + game, me, position if position is not None else store.head(game).position
        )


def sent_reach(store: Store, game: str) -> int:
    """How far the newest copy mailed from this home reached; -1 when none was."""
    return _read(store, SENT + game)


def unsent(store: Store, game: str, me: IdentityCard | None, read: Head | None = None) -> bool:
    """Whether ``me`` signed something in ``game`` here that was not mailed from here,
    while another seat is awaited (see the module doc). ``read``: the game's head as the
    caller took it (``Store.head``: given back unless the store moved on)."""
    with store.reading():
        pos = store.head(game, read).position
        seat = _seat(pos, me)
        if seat is None or not any(s != seat for s in pos.remaining()):
            return False
        signed = _read(store, _signed_key(game, seat))
        if signed <= sent_reach(store, game):
            return False
        others = [s for s in range(len(pos.cards)) if s != seat]
        after = store.acknowledged(game, others).values()
        return not any(i is not None and 2 * i + 2 > signed for i in after)


def _mailed_key(game: str, card: IdentityCard) -> str:
    return f"{MAILED}{game}:{card.sign_key}"


def mark_mailed(store: Store, game: str, cards: list[IdentityCard], after: int) -> None:
    """A message carrying ``game``'s steps before index ``after`` went to these players
    (queued, or written for a mail client): the next one to them carries the steps from
    ``after`` on (``pbem.mail.compose.carried``). Keyed by each player's key, so that a
    seat handed to a substitute gets the whole file. A message lost on the way costs a
    step request from the receiving store (the robot answers it) or the reminder at the
    deadline, which carries everything from what the late seats acknowledged."""
    if after <= 0:
        return
    with store.writing():
        for card in cards:
            key = _mailed_key(game, card)
            if after > _read(store, key):
                store.db.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, str(after))
                )


def mailed(store: Store, game: str, card: IdentityCard) -> int | None:
    """The index of the first step no message from this home carried to ``card``'s
    player yet (``mark_mailed``), or None when none carried any."""
    index = _read(store, _mailed_key(game, card))
    return index if index >= 0 else None
