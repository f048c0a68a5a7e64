"""The store's database: one SQLite file in ``PBEM_HOME``, its tables, and how it is opened.

WAL mode, so a reader never waits for a writer (the log kept to about a megabyte, however
long a connection stays open); every change in an ``IMMEDIATE`` transaction, so two
processes (the robot and a player typing ``pbem play``) take turns and never interleave;
``synchronous=FULL``, so a commit survives a crash or ``kill -9``. A file that is not a
pbem store (damaged, foreign, or an empty file nobody should have left there) is refused
with one line naming it and is never written to.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

from pbem.crypto.keyring import default_home
from pbem.format import gamefile
from pbem.format.errors import Rejected, Unreadable, UsageError
from pbem.format.gamefile import S
from pbem.format.i18n import N_
from pbem.ledger.terms import Record

FILE_NAME = "store.sqlite"
APPLICATION_ID = 0x7062656D  # "pbem"
SCHEMA_VERSION = 3
BUSY_MS = 60_000
#: The write-ahead log is folded into the database every this many pages and then cut back
#: to ``WAL_BYTES``: a ``watch`` that runs for weeks keeps one connection open, and without
#: a limit its WAL would stay at its high-water mark (SQLite's default folds at 1,000 pages,
#: about 4 MB, and never shrinks the file).
WAL_PAGES = 256
WAL_BYTES = 1 << 20

SCHEMA = """
CREATE TABLE games (
  id TEXT PRIMARY KEY,              -- the game id
  ruleset TEXT NOT NULL,
  genesis BLOB NOT NULL,            -- canonical bytes of the genesis, as received
  added INTEGER NOT NULL,           -- local time it was first stored
  updated INTEGER NOT NULL          -- local time its head last moved
);
CREATE TABLE items (                -- every entry and envelope, once, by hash
  id INTEGER PRIMARY KEY,           -- in arrival order: rows fill their pages (a table
                                    -- keyed by the random hash left a third of each empty)
  hash BLOB NOT NULL UNIQUE,        -- SHA-256 of its canonical bytes
  game TEXT NOT NULL,
  data BLOB NOT NULL                -- its canonical bytes, as received (see pack)
);
CREATE TABLE steps (                -- the verified chain of each game
  game TEXT NOT NULL,
  idx INTEGER NOT NULL,             -- from 0, as in the file
  hash BLOB NOT NULL,               -- the step's hash (a batch: as complete as stored)
  items BLOB NOT NULL,              -- its items' hashes, 32 bytes each, in seat order
  complete INTEGER NOT NULL,
  PRIMARY KEY (game, idx)
) WITHOUT ROWID;
CREATE TABLE records (              -- what each step did, for pbem log and mail
  game TEXT NOT NULL,
  idx INTEGER NOT NULL,
  kind TEXT NOT NULL,
  seats TEXT NOT NULL,              -- JSON list
  summary TEXT NOT NULL,
  PRIMARY KEY (game, idx)
) WITHOUT ROWID;
CREATE TABLE checkpoints (          -- the verified position at each game's head
  game TEXT PRIMARY KEY,
  count INTEGER NOT NULL,           -- steps it covers
  head BLOB NOT NULL,               -- hash of its last step: it is trusted for that only
  data BLOB NOT NULL
);
CREATE TABLE versions (             -- every version seen or made: a head pointer
  id INTEGER PRIMARY KEY,
  game TEXT NOT NULL,
  steps INTEGER NOT NULL,
  envelopes INTEGER NOT NULL,       -- envelopes of its last step, if a batch
  head BLOB NOT NULL,               -- hash of its last step as it was then
  state TEXT NOT NULL,              -- SHA-256 of its cached state's canonical bytes
  source TEXT NOT NULL,
  added INTEGER NOT NULL
);
CREATE INDEX versions_by_game ON versions (game, steps, envelopes);
CREATE TABLE exports (              -- files written from the store
  path TEXT PRIMARY KEY,
  game TEXT NOT NULL,
  version INTEGER NOT NULL,
  written INTEGER NOT NULL
);
CREATE INDEX exports_by_game ON exports (game, version);
CREATE TABLE journal (              -- everything this player's identities signed
  game TEXT NOT NULL,
  parent TEXT NOT NULL,
  seat INTEGER NOT NULL,
  decision TEXT NOT NULL,
  item BLOB NOT NULL,               -- the signed item's hash (its bytes are in items)
  signed INTEGER NOT NULL,
  export TEXT,                      -- the first file it was exported in
  PRIMARY KEY (game, parent, seat, decision)
) WITHOUT ROWID;
CREATE TABLE refused (              -- copies refused, kept as evidence
  id INTEGER PRIMARY KEY,
  game TEXT,
  label TEXT NOT NULL,
  reason TEXT NOT NULL,
  data BLOB NOT NULL,
  received INTEGER NOT NULL
);
CREATE TABLE mailboxes (            -- the robot: how far each IMAP mailbox was read
  key TEXT PRIMARY KEY,
  uidvalidity INTEGER NOT NULL,
  last INTEGER NOT NULL
);
CREATE TABLE messages (             -- the robot: messages taken, by Message-ID or hash
  key TEXT PRIMARY KEY,
  seen INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE notified (             -- the robot: positions it has told the player about
  who TEXT NOT NULL,
  game TEXT NOT NULL,
  head TEXT NOT NULL,
  PRIMARY KEY (who, game)
) WITHOUT ROWID;
CREATE TABLE outbox (               -- the robot: mail to send, kept until a server took it
  id INTEGER PRIMARY KEY,
  queued INTEGER NOT NULL,
  message BLOB NOT NULL,
  sent INTEGER
);
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
"""

#: What each schema version adds to the one before, applied in order to an older store
#: when it is opened (in one transaction: a store is upgraded whole or not at all).
UPGRADES = {
    2: """
CREATE TABLE pending (              -- step bundles whose first step follows one not held
  id INTEGER PRIMARY KEY,
  game TEXT NOT NULL,
  after TEXT NOT NULL,              -- the hash of the step the bundle follows
  idx INTEGER NOT NULL,             -- the index of its first step
  data BLOB NOT NULL,               -- the bundle as received
  received INTEGER NOT NULL,
  UNIQUE (game, after, data)
);
CREATE TABLE asked (                -- requests for missing steps sent, so each goes once
  game TEXT NOT NULL,
  have TEXT NOT NULL,
  asked INTEGER NOT NULL,
  PRIMARY KEY (game, have)
) WITHOUT ROWID;
""",
    3: """
CREATE TABLE quarantine (           -- mail refused by an input limit: read, never imported
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,         -- as the robot remembers messages (Message-ID, digest)
  label TEXT NOT NULL,              -- its Message-ID, subject or where it was read
  reason TEXT NOT NULL,
  received INTEGER NOT NULL
);
""",
}


class Damaged(Unreadable):
    """The store file is damaged (a page overwritten, a table missing, a row that does not
    decode): one line with exit 2, as for any file that cannot be read; nothing is written
    to it, and what verifies is rebuilt from the steps where it can be (a checkpoint)."""


def damaged(reason: object, home: Path | None = None) -> Damaged:
    path = store_path(home if home is not None else default_home())
    return Damaged(
        N_(
            "{path}: the store is damaged ({reason}); it was left as it is (move it away and "
            "receive or open your game files again to start afresh)"
        ).format(path=path, reason=reason)
    )


def pack(data: bytes) -> bytes:
    """An item's canonical bytes as the items table keeps them: zlib-compressed when that
    is smaller (the keys, ciphertexts and proofs in base64 shrink by about a fifth), else
    as they are. Lossless: ``unpack`` gives back exactly the bytes that were signed."""
    packed = zlib.compress(data, 9)
    return packed if len(packed) < len(data) else data


def unpack(blob: bytes) -> bytes:
    """The canonical bytes ``pack`` kept. A canonical item is a JSON object, so it starts
    with ``{``; a zlib stream never does (its first byte is 0x78 here)."""
    if not isinstance(blob, bytes):
        raise damaged(N_("an item of type {kind}").format(kind=type(blob).__name__))
    try:
        return blob if blob[:1] == b"{" else zlib.decompress(blob)
    except zlib.error as exc:
        raise damaged(N_("an item does not unpack: {exc}").format(exc=exc)) from None


def store_path(home: Path) -> Path:
    return home / FILE_NAME


def _refuse(path: Path, why: str) -> UsageError:
    return UsageError(
        N_("{path}: {why}; it was left as it is (move it away to start afresh)").format(
            path=path, why=why
        )
    )


def connect(path: Path) -> sqlite3.Connection:
    """Open the store at ``path``, creating it if there is no file there."""
    if not path.exists():
        _create(path)
    try:
        db = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None)
    except sqlite3.Error as exc:
        raise _refuse(path, f"cannot open the store ({exc})") from None
    db.text_factory = _text
    try:
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        db.close()
        raise _refuse(path, f"not a pbem store ({exc})") from None
    if app != APPLICATION_ID:
        db.close()
        raise _refuse(path, "not a pbem store (another program's database)")
    if version < 1:
        db.close()
        raise _refuse(path, f"not a pbem store (schema {version})")
    if version < SCHEMA_VERSION:
        try:
            _upgrade(db, version)
        except sqlite3.DatabaseError as exc:  # tables of a later schema in an earlier one
            db.close()
            raise _refuse(path, f"schema {version} cannot be upgraded ({exc}): damaged") from None
    elif version != SCHEMA_VERSION:
        db.close()
        newer = f"schema {version}; this pbem reads {SCHEMA_VERSION} and older"
        raise _refuse(path, f"a store of a newer pbem ({newer})")
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
        db.execute(f"PRAGMA journal_size_limit = {WAL_BYTES}")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a damaged schema page
        db.close()
        raise _refuse(path, f"damaged ({type(exc).__name__})") from None
    return db


def _text(data: bytes) -> str:
    """A TEXT value as read: pbem writes UTF-8, so anything else is damage (exit 2)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise damaged(N_("a text that is not UTF-8")) from None


def _upgrade(db: sqlite3.Connection, version: int) -> None:
    """Bring a store of an older schema up to ``SCHEMA_VERSION``, in one transaction."""
    with transaction(db):
        if db.execute("PRAGMA user_version").fetchone()[0] != version:
            return  # another process upgraded it meanwhile
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in UPGRADES[step].split(";"):
                if statement.strip():
                    db.execute(statement)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _create(path: Path) -> None:
    """Make a new store beside ``path`` and move it into place, so that a store file exists
    only once it is complete (a crash leaves none, never an empty one)."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(
            N_("cannot create {parent}: {strerror}").format(
                parent=path.parent, strerror=exc.strerror
            )
        ) from None
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    db = sqlite3.connect(tmp, isolation_level=None)
    try:
        db.executescript(SCHEMA + "".join(UPGRADES[v] for v in sorted(UPGRADES)))
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    finally:
        db.close()
    os.chmod(tmp, 0o600)
    try:
        os.link(tmp, path)  # fails if another process made the store meanwhile: keep theirs
    except FileExistsError:
        pass
    finally:
        tmp.unlink()


def now() -> int:
    """The local time the store records (when a game was added, a version made, a copy
    refused): whole seconds, for people, never for the games' rules."""
    return int(time.time())


@contextlib.contextmanager
def transaction(db: sqlite3.Connection, *, immediate: bool = True) -> Iterator[sqlite3.Connection]:
    """One transaction: IMMEDIATE (the default) takes the writer lock at once (others wait up
    to a minute), and everything in it is committed together or not at all; otherwise a
    read transaction, which sees one snapshot of the database from its first read on (WAL:
    it never waits for a writer)."""
    db.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def read_stored(model: type[S], data: bytes, home: Path) -> S:
    """A signed object as the store kept it, or ``Damaged`` when the row was changed on
    disk (the store verified it before keeping it, so this is damage, not bad input)."""
    try:
        return gamefile.load_stored(model, data)
    except (ValueError, Rejected, TypeError, AttributeError) as exc:
        raise damaged(
            N_("a stored {lower} does not read").format(lower=model.__name__.lower()), home
        ) from exc


def record_text(record: Record) -> str:
    """A record's summary and consequences, one per line, as the records table keeps them."""
    return "\n".join([record.summary, *record.consequences])


def record_fields(text: str, head: str) -> tuple[str, str, list[str]]:
    summary, *consequences = text.split("\n")
    return summary, head, consequences
