"""The robot's memory, in the store (architecture §10): how far each IMAP mailbox was read, the
messages taken, the positions the player was told about, and the outbox. Each change is a
transaction of its own, so a crash or a dropped connection costs at most re-reading one
message (and importing it twice changes nothing), and mail queued is never lost."""

from __future__ import annotations

import time
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.policy import default
from email.utils import getaddresses

from pbem.store.sent import mark_mailed
from pbem.store.store import Store

#: The header of a game mail that says where the next message to its recipients starts
#: (``pbem.mail.compose``): the index after the last step it carries complete.
NEXT_HEADER = "X-Pbem-Next"


@dataclass
class Waiting:
    """A message waiting in the outbox, as ``pbem games`` lists it."""

    game: str
    subject: str
    to: str
    queued: int


class Memory:
    def __init__(self, store: Store) -> None:
        self.store = store

    def mailbox(self, key: str, uidvalidity: int) -> int:
        """The last UID taken from mailbox ``key``; 0 when its UIDVALIDITY changed (the
        mailbox was rebuilt, so UIDs start over)."""
        row = self.store.db.execute(
            "SELECT uidvalidity, last FROM mailboxes WHERE key = ?", (key,)
        ).fetchone()
        return row[1] if row and row[0] == uidvalidity else 0

    def last_read(self, key: str) -> tuple[int, int]:
        """The UIDVALIDITY and the last UID taken from mailbox ``key`` ((0, 0): none)."""
        row = self.store.db.execute(
            "SELECT uidvalidity, last FROM mailboxes WHERE key = ?", (key,)
        ).fetchone()
        return (row[0], row[1]) if row else (0, 0)

    def read_up_to(self, key: str, uidvalidity: int, uid: int) -> None:
        with self.store.writing():
            self.store.db.execute(
                "INSERT OR REPLACE INTO mailboxes (key, uidvalidity, last) VALUES (?, ?, ?)",
                (key, uidvalidity, uid),
            )

    def seen(self, key: str) -> bool:
        row = self.store.db.execute("SELECT 1 FROM messages WHERE key = ?", (key,)).fetchone()
        return row is not None

    def mark_seen(self, key: str) -> None:
        with self.store.writing():
            self.store.db.execute(
                "INSERT OR IGNORE INTO messages (key, seen) VALUES (?, ?)", (key, int(time.time()))
            )

    def quarantine(self, key: str, label: str, reason: str) -> None:
        """Record a message refused by an input limit (once per message), so that
        ``pbem games`` can say what was put aside, and why."""
        with self.store.writing():
            self.store.db.execute(
                "INSERT OR IGNORE INTO quarantine (key, label, reason, received) "
                "VALUES (?, ?, ?, ?)",
                (key, label[:200], reason[:500], int(time.time())),
            )

    def quarantined(self) -> list[tuple[str, str, int]]:
        """The messages quarantined, newest first: label, reason, when (UTC seconds)."""
        return list(
            self.store.db.execute("SELECT label, reason, received FROM quarantine ORDER BY id DESC")
        )

    def notified(self, who: str, game: str) -> str | None:
        row = self.store.db.execute(
            "SELECT head FROM notified WHERE who = ? AND game = ?", (who, game)
        ).fetchone()
        return row[0] if row else None

    def mark_notified(self, who: str, game: str, head: str) -> None:
        with self.store.writing():
            self.store.db.execute(
                "INSERT OR REPLACE INTO notified (who, game, head) VALUES (?, ?, ?)",
                (who, game, head),
            )

    def queue(self, message: EmailMessage) -> None:
        """Keep ``message`` until a server takes it; what it carries of a game counts as
        mailed to its recipients from now on (``mailed``), in the same transaction."""
        with self.store.writing():
            self.store.db.execute(
                "INSERT INTO outbox (queued, message, sent) VALUES (?, ?, NULL)",
                (int(time.time()), message.as_bytes()),
            )
            mailed(self.store, message)

    def outbox(self) -> list[tuple[int, bytes]]:
        """Mail waiting to be sent, oldest first."""
        return [(number, message) for number, message, _ in self.unsent()]

    def unsent(self) -> list[tuple[int, bytes, int]]:
        """Mail waiting to be sent, oldest first, with when it was queued (UTC seconds)."""
        return list(
            self.store.db.execute(
                "SELECT id, message, queued FROM outbox WHERE sent IS NULL ORDER BY id"
            )
        )

    def waiting(self) -> list[Waiting]:
        """The messages not yet sent, oldest first (their headers only are read)."""
        found = []
        parser = BytesHeaderParser(policy=default)
        for _, raw, queued in self.unsent():
            headers = parser.parsebytes(raw)
            subject = " ".join(str(headers["Subject"] or "").split())
            game = str(headers["X-Pbem-Game"] or "")
            found.append(Waiting(game, subject, str(headers["To"] or ""), queued))
        return found

    def sent(self, message_id: int) -> None:
        with self.store.writing():
            self.store.db.execute(
                "UPDATE outbox SET sent = ? WHERE id = ?", (int(time.time()), message_id)
            )


def mailed(store: Store, message: Message, most: int | None = None) -> None:
    """Mark what a game mail carries (up to ``X-Pbem-Next`` of ``X-Pbem-Game``, at most
    ``most``) as mailed to the players it is addressed to (``pbem.store.sent.mark_mailed``):
    a message queued in the outbox or written for the player's own mail client, and a
    message received (it went to the others it names too: this home need not mail them
    those steps again; a claim that was not true costs a step request)."""
    game, after = str(message["X-Pbem-Game"] or ""), str(message[NEXT_HEADER] or "")
    if not game or not after.isdigit() or game not in store.ids():
        return
    to = {addr.lower() for _, addr in getaddresses([str(message[h] or "") for h in ("To", "Cc")])}
    pos = store.head(game).position
    cards = [c for c in [*pos.cards, *pos.genesis.escrow.referees] if c.email.lower() in to]
    mark_mailed(store, game, cards, min(int(after), pos.count if most is None else most))
