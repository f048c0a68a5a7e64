"""The journal: everything this player's identities signed, by (game, parent, seat,
decision), kept in the store before any export is written (architecture §10).

Signing twice for one decision is how a player equivocates by accident: two different
moves on one parent, from two folders or two copies of a file. The author asks the journal
first; what it signed before is used again (the same move, or an automatic step, whose body
is fixed), and a different move is refused, naming the step and where its export went.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.format import gamefile
from pbem.format.gamefile import Entry, Envelope
from pbem.store.db import pack, unpack

if TYPE_CHECKING:
    from pbem.store.store import Store


def _digest(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


class Journal:
    def __init__(self, store: Store) -> None:
        self.store = store

    def recall(self, game: str, parent: str, seat: int, decision: str) -> Entry | Envelope | None:
        row = self.store.db.execute(
            "SELECT i.data FROM journal j JOIN items i ON i.hash = j.item "
            "WHERE j.game = ? AND j.parent = ? AND j.seat = ? AND j.decision = ?",
            (game, parent, seat, decision),
        ).fetchone()
        if row is None:
            return None
        data = unpack(row[0])
        model = Envelope if json.loads(data)["kind"] == "envelope" else Entry
        return gamefile.load_stored(model, data)

    def signed_on(self, game: str, parent: str, seat: int) -> Entry | Envelope | None:
        """What ``seat`` signed on ``parent``, whatever the decision, if anything."""
        row = self.store.db.execute(
            "SELECT decision FROM journal WHERE game = ? AND parent = ? AND seat = ?",
            (game, parent, seat),
        ).fetchone()
        return self.recall(game, parent, seat, row[0]) if row else None

    def record(self, item: Entry | Envelope) -> None:
        """Keep ``item`` (its bytes too) in the journal, in the caller's transaction."""
        data = item.canonical_bytes()
        digest = _digest(data)
        db = self.store.db
        with self.store.writing():
            db.execute(
                "INSERT OR IGNORE INTO items (hash, game, data) VALUES (?, ?, ?)",
                (digest, item.game, pack(data)),
            )
            db.execute(
                "INSERT INTO journal (game, parent, seat, decision, item, signed) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (item.game, item.parent, item.seat, decision(item), digest, int(time.time())),
            )

    def unwritten(self, game: str, seat: int) -> list[tuple[int, str]]:
        """The steps of the stored chain holding what ``seat`` signed here that no export
        holds yet, as (step number, decision): what a command killed between keeping its
        step and writing its file left behind. The step is safe in the store; only the
        file that would carry it to the others is missing, and any export writes it."""
        rows = self.store.db.execute(
            "SELECT item, decision FROM journal WHERE game = ? AND seat = ? AND export IS NULL",
            (game, seat),
        ).fetchall()
        if not rows:
            return []
        index = {d: n for n, items in enumerate(self.store._chain(game).items, 1) for d in items}
        return sorted((index[item], what) for item, what in rows if item in index)

    def where(self, item: Entry | Envelope) -> str:
        """Where the signed ``item`` went: the file it was first exported in, if any."""
        row = self.store.db.execute(
            "SELECT export FROM journal WHERE item = ?", (_digest(item.canonical_bytes()),)
        ).fetchone()
        if not row or not row[0]:
            return "not exported yet: only in your store"
        path = Path(row[0])
        with contextlib.suppress(ValueError):
            path = path.relative_to(Path.cwd())
        return f"in {path}"


def decision(item: Entry | Envelope) -> str:
    """What an item decides: an envelope its decision, an entry its kind."""
    return item.decision if isinstance(item, Envelope) else item.kind
