"""What this home has mailed of each game, so that ``pbem games`` and the board page can
say that a move signed here has not gone out yet ("signed, not sent") instead of reading
as if the others were awaited.

One row per game in the store's ``meta`` table (``sent:GAME``): how far the newest copy
mailed by any command of this home reached (``pbem send``, ``pbem play --send``, the board
page's sending, a message the robot queued). A seat's signing is *unsent* when the newest
copy holds an item it signed beyond that mark, another seat is awaited, and no other seat
has signed after it (whoever signed after it had it, so it went out somehow: by hand, or
from another home).

Reach is counted in half steps: ``2 * count`` for a copy of ``count`` steps, one more when
it carries the seat's envelope of the open batch (a parallel decision not closed yet).
"""

from __future__ import annotations

from pbem.format.card import IdentityCard
from pbem.ledger.position import Position
from pbem.store.store import Store

KEY = "sent:"


def _seat(position: Position, me: IdentityCard | None) -> int | None:
    keys = [card.sign_key for card in position.cards]
    return keys.index(me.sign_key) if me is not None and me.sign_key in keys else None


def _reach(position: Position, seat: int | None) -> int:
    """How far a copy at ``position`` carries what ``seat`` signed, in half steps."""
    batch = position.batch
    mine = batch is not None and any(env.seat == seat for env in batch.envelopes)
    return 2 * position.count + (1 if mine else 0)


def mark_sent(store: Store, game: str, me: IdentityCard, position: Position | None = None) -> None:
    """The copy of ``game`` at ``position`` (default: the store's newest) was mailed by
    ``me`` (or queued for the robot to send, or written as a message for a mail client):
    remember how far it reaches."""
    with store.writing():
        pos = position if position is not None else store.head(game).position
        reach = _reach(pos, _seat(pos, me))
        if reach > sent_reach(store, game):
            store.db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (KEY + game, str(reach))
            )


def sent_reach(store: Store, game: str) -> int:
    """How far the newest copy mailed from this home reached; -1 when none was."""
    with store.reading():
        row = store.db.execute("SELECT value FROM meta WHERE key = ?", (KEY + game,)).fetchone()
    try:
        return int(row[0]) if row else -1
    except (TypeError, ValueError):
        return -1  # unreadable: as if nothing was mailed, which only makes pbem say so


def unsent(store: Store, game: str, me: IdentityCard | None) -> bool:
    """Whether ``me`` signed something in the newest copy of ``game`` that was not mailed
    from here, while another seat is awaited (see the module doc)."""
    with store.reading():
        pos = store.head(game).position
        seat = _seat(pos, me)
        if seat is None:
            return False
        if not any(s != seat for s in pos.remaining()):
            return False
        if _reach(pos, seat) % 2:  # the seat's envelope of the open batch
            signed = _reach(pos, seat)
        else:
            acks = store.acknowledged(game, list(range(len(pos.cards))))
            last = acks[seat]
            if last is None or any(
                i is not None and i > last for s, i in acks.items() if s != seat
            ):
                return False
            signed = 2 * (last + 1)
        return signed > sent_reach(store, game)
