"""The local store: the one home of a player's games (architecture §10).

Like git's object store, it keeps the genesis and each entry and envelope once, by hash; a
game's verified chain of steps; a version as a pointer to a head, not a copy; a checkpoint
at each game's head, from which replay continues; the journal of everything this player
signed; refused copies with the reason, as evidence. Game files and mail attachments are
its imports (``pbem.store.importing``) and exports. Data flows one way:

    file or mail -> import (verify what is new) -> head -> rules and author
                 -> save (journal first) -> export

Any number of processes may share a store. Every change is one ``IMMEDIATE`` transaction
(``writing``), so writers take turns; everything read together is read in one transaction
(``reading``), from one snapshot of the database, so a head, its steps and its history are
always of the same moment while another process writes. A position is saved only onto
the chain it was verified on: a step made on a head that another process has moved on
meanwhile is never kept.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pbem.crypto.keyring import default_home
from pbem.format import gamefile
from pbem.format.bundle import Bundle
from pbem.format.canonical import canonical
from pbem.format.errors import InternalError, UsageError
from pbem.format.gamefile import (
    Batch,
    Entry,
    Envelope,
    GameFile,
    Genesis,
    step_hash,
)
from pbem.format.i18n import N_
from pbem.ledger.checkpoint import CheckpointError, restore, snapshot
from pbem.ledger.position import Position
from pbem.ledger.replay import Progress, Replay
from pbem.ledger.terms import Record
from pbem.ruleset import registry
from pbem.store.chain import Chain, digest, short_id, split
from pbem.store.db import (
    connect,
    damaged,
    now,
    pack,
    read_stored,
    record_fields,
    record_text,
    store_path,
    transaction,
    unpack,
)
from pbem.store.head import Head, Imported
from pbem.store.newfile import named_file, numbered_file

if TYPE_CHECKING:
    from pbem.store.bundles import Pending


class Store:
    """The store under ``home`` (``PBEM_HOME`` by default)."""

    def __init__(self, home: Path | None = None, progress: Progress | None = None) -> None:
        self.home = home if home is not None else default_home()
        self.progress = progress
        """Told ``(k, n)`` as steps are verified (a command's progress line), if given."""
        self.path = store_path(self.home)
        self._db: sqlite3.Connection | None = None
        self._depth = 0
        self._mode: Literal["read", "write"] | None = None
        """The transaction open on this store's connection, if any."""
        self._evidence: list[tuple[str, str, str, bytes]] = []

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = connect(self.path)
            from pbem.store.migrate import migrate_old_layout

            migrate_old_layout(self)
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @contextlib.contextmanager
    def writing(self) -> Iterator[Store]:
        """One ``IMMEDIATE`` transaction around everything inside: the writer lock is taken
        at once (other processes wait), and all is kept together or not at all. Nested
        calls join the outer one; a write inside ``reading`` is a bug (a snapshot that
        other processes may have moved past cannot be written from)."""
        if self._mode == "read":
            raise InternalError(N_("the store was written while it was only being read"))
        with self._transaction("write"):
            yield self

    @contextlib.contextmanager
    def reading(self) -> Iterator[Store]:
        """One read transaction around everything inside: all of it sees the database as
        it was at its first read, whatever other processes commit meanwhile. Nested in
        either kind of transaction, it joins it."""
        with self._transaction("read"):
            yield self

    @contextlib.contextmanager
    def _transaction(self, mode: Literal["read", "write"]) -> Iterator[None]:
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        try:
            with transaction(self.db, immediate=mode == "write"):
                self._depth, self._mode = 1, mode
                try:
                    yield
                finally:
                    self._depth, self._mode = 0, None
        finally:
            if mode == "write":
                self._keep_evidence()

    def _keep_evidence(self) -> None:
        """Refused copies, written after the transaction that refused them (which rolls
        back): evidence is kept even when the command fails."""
        evidence, self._evidence = self._evidence, []
        if evidence:
            with transaction(self.db):
                self.db.executemany(
                    "INSERT INTO refused (game, label, reason, data, received) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(*e, now()) for e in evidence],
                )

    # ----- reading ---------------------------------------------------------------------------

    def ids(self) -> list[str]:
        ids = [row[0] for row in self.db.execute("SELECT id FROM games ORDER BY id")]
        if not all(isinstance(i, str) for i in ids):
            raise damaged(N_("a game id that is not text"), self.home)
        return ids

    def resolve(self, prefix: str) -> str:
        """The full id of the one stored game whose id starts with ``prefix``."""
        if not prefix or not prefix.replace("-", "").replace("_", "").isalnum():
            raise UsageError(N_("bad game id {prefix!r}").format(prefix=prefix))
        matches = [g for g in self.ids() if g.startswith(prefix)]
        if len(matches) != 1:
            what = "no stored game" if not matches else f"{len(matches)} stored games"
            raise UsageError(
                N_("{what} with an id starting {prefix!r} (see: pbem games)").format(
                    what=what, prefix=prefix
                )
            )
        return matches[0]

    def genesis(self, game: str) -> Genesis:
        row = self.db.execute("SELECT genesis FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise UsageError(
                N_("game {short_id} is not in the store").format(short_id=short_id(game))
            )
        return read_stored(Genesis, row[0], self.home)

    def head(self, game: str, read: Head | None = None) -> Head:
        """The verified position at the game's head, from its checkpoint, read in one
        transaction. ``read`` is a head of the game this process took from the store earlier:
        it is given back as it is, without restoring the checkpoint again, when the store's
        head is still the one it holds (no process has added to the game since) and its
        position is untouched (no step was added to it in memory). A checkpoint that is
        missing or cannot be read (an older store, a damaged row) is made again by verifying
        the stored steps, and kept when the store may be written."""
        if self._mode is None:
            with self.reading():
                found = self._current(game, read)
            if found is not None:
                return found
            with self.writing():
                return self._current(game, read) or self._rebuilt(game)
        return self._current(game, read) or self._rebuilt(game)

    def _current(self, game: str, read: Head | None) -> Head | None:
        """``read`` while it is current, else the head restored from the checkpoint; None
        when there is no usable checkpoint for the stored chain."""
        if read is not None and read.game == game and read.mark == self._mark(game, read.position):
            return read
        genesis = self.genesis(game)
        row = self.db.execute(
            "SELECT count, head, data FROM checkpoints WHERE game = ?", (game,)
        ).fetchone()
        chain = self._chain(game)
        last = chain.hashes[-1] if chain.hashes else b""
        if row is None or row[0] != len(chain.hashes) or row[1] != last:
            return None
        try:
            rules = registry.get(genesis.ruleset.id)
            position = restore(row[2], genesis, step_hash(genesis), rules)
        except CheckpointError:
            return None
        return Head(self, game, position)

    def _rebuilt(self, game: str) -> Head:
        """The head verified afresh from the stored steps; its checkpoint is kept when this
        transaction may write."""
        genesis = self.genesis(game)
        replay = Replay.start(genesis, registry.get(genesis.ruleset.id))
        steps = self.steps(game)
        for n, step in enumerate(steps, 1):
            replay.add(step)
            if self.progress is not None:
                self.progress(n, len(steps))
        last = self._last_step(game)
        if replay.count != len(steps) or (last[0] + 1 if last else 0) != len(steps):
            # the rows were verified when they were stored: they (or their index) changed since
            why = f"game {short_id(game)}: its step rows do not read as one chain"
            raise damaged(why, self.home)
        if self._mode == "write":
            self._checkpoint(game, replay)
        return Head(self, game, replay)

    def _mark(self, game: str, position: Position) -> tuple[Any, ...]:
        """What says a head is still the store's: its checkpoint row, and how many signed
        items the position holds and has taken since it was read."""
        row = self.db.execute(
            "SELECT count, head FROM checkpoints WHERE game = ?", (game,)
        ).fetchone()
        return (row, position.signatures, len(position.taken))

    def _stamp(
        self, game: str, position: Position
    ) -> tuple[str, list[tuple[bytes, list[bytes]]], tuple[Any, ...]]:
        """A new ``Head``'s digest, tail and mark, read in the transaction that made or
        read its position: the hash of the step the position ends with; the steps that may
        still change (from the open batch on, else the last step), each as its hash and
        its items' hashes; and ``_mark``."""
        n = position.count
        if not n:
            return position.genesis_hash, [], self._mark(game, position)
        start = position.batch_at if position.batch is not None else n - 1
        rows = self.db.execute(
            "SELECT hash, items FROM steps WHERE game = ? AND idx >= ? AND idx < ? ORDER BY idx",
            (game, start, n),
        ).fetchall()
        if len(rows) != n - start:
            raise InternalError(
                N_("game {short_id}: a position of {n} steps has no step {n} in the store").format(
                    short_id=short_id(game), n=n
                )
            )
        tail = [(row[0], split(row[1])) for row in rows]
        return tail[-1][0].hex(), tail, self._mark(game, position)

    def _chain(self, game: str) -> Chain:
        return Chain.read(self.db, game)

    def chain_hashes(self, game: str) -> list[bytes]:
        """The hashes of the game's stored steps, in order."""
        return self._chain(game).hashes

    def _item(self, key: bytes) -> Any:
        row = self.db.execute("SELECT data FROM items WHERE hash = ?", (key,)).fetchone()
        if row is None:
            raise damaged(N_("item {item} is missing").format(item=key.hex()[:12]), self.home)
        data = unpack(row[0])
        try:
            value = json.loads(data)
        except ValueError:
            raise damaged(N_("a stored item is not JSON"), self.home) from None
        kind = value.get("kind") if isinstance(value, dict) else None
        return read_stored(Envelope if kind == "envelope" else Entry, data, self.home)

    def steps(self, game: str, upto: int | None = None, since: int = 0) -> list[Entry | Batch]:
        """The stored steps of a game (those from index ``since`` up to ``upto``), as models:
        ask for the few that are needed, for each one read is validated again."""
        with self.reading():
            chain = self._chain(game)
            out: list[Entry | Batch] = []
            for digests in chain.items[since:upto]:
                items = [self._item(d) for d in digests]
                if isinstance(items[0], Envelope):
                    first = items[0]
                    out.append(
                        Batch.model_construct(
                            kind="batch",
                            parent=first.parent,
                            decision=first.decision,
                            envelopes=items,
                        )
                    )
                else:
                    out.append(items[0])
        return out

    def acknowledged(self, game: str, seats: list[int]) -> dict[int, int | None]:
        """For each signer in ``seats`` (a seat, or ``seats + r`` for escrow referee r):
        the index of the last stored step holding an item it signed since its present
        holder took the seat. It held every step before that one (the item names its
        parent). None: nothing yet, so it may hold no step (nor the genesis, before the
        join, or after a handover the substitute's first file)."""
        left, found = set(seats), {}
        with self.reading():
            chain = self._chain(game)
            for index in range(len(chain.items) - 1, -1, -1):
                for key in chain.items[index]:
                    item = self._item(key)
                    handed = item.decision == "handover" if isinstance(item, Envelope) else False
                    seat = item.body.get("seat") if handed else item.seat
                    if seat in left:  # a handover: the seat's present holder began there
                        found[seat] = None if handed else index
                        left.discard(seat)
                if not left:
                    break
        return {seat: found.get(seat) for seat in seats}

    def records(self, game: str, upto: int | None = None) -> list[Record]:
        """The history lines of the stored steps (those before index ``upto``)."""
        with self.reading():
            rows = self.db.execute(
                "SELECT idx, kind, seats, summary FROM records WHERE game = ? ORDER BY idx",
                (game,),
            ).fetchall()
            chain = self._chain(game)
        end = len(chain.hashes) if upto is None else min(upto, len(chain.hashes))
        try:
            if not all(isinstance(k, str) and isinstance(t, str) for _, k, _, t in rows):
                raise TypeError("not text")
            return [
                Record(idx, kind, _seats(seats), *record_fields(summary, chain.hashes[idx].hex()))
                for idx, kind, seats, summary in rows
                if idx < end
            ]
        except (ValueError, TypeError, AttributeError, IndexError) as exc:
            why = f"a history line does not read ({type(exc).__name__})"
            raise damaged(why, self.home) from None

    # ----- exporting -------------------------------------------------------------------------

    def export(self, game: str, folder: Path, stem: str, read: Head | None = None) -> Path:
        """Write the head of ``game`` into ``folder`` as a new file named by step
        (``pbem.store.newfile.numbered_file``); ``read``: the head as this process last
        read or made it (see ``head``)."""
        with self.reading():
            head = self.head(game, read)
            head.text()  # made and checked in this snapshot of the store
        return numbered_file(self, head, folder, stem)

    def export_to(self, game: str, target: Path, read: Head | None = None) -> Path:
        """Write the head of ``game`` to ``target``, which must not exist (or hold it)."""
        with self.reading():
            head = self.head(game, read)
            head.text()  # made and checked in this snapshot of the store
        return named_file(self, head, target)

    def exported(self, game: str, target: Path) -> None:
        """``target`` now holds the game's newest version: remembered as its newest
        export, and it carries everything signed here (``carried``)."""
        path = str(target.resolve())
        with self.writing():
            version = self.db.execute(
                "SELECT max(id) FROM versions WHERE game = ?", (game,)
            ).fetchone()[0]
            self.db.execute(
                "INSERT OR REPLACE INTO exports (path, game, version, written) VALUES (?, ?, ?, ?)",
                (path, game, version or 0, now()),
            )
            self.carried(game, path)

    def carried(self, game: str, where: str) -> None:
        """Everything signed here in ``game`` is now carried by ``where`` (a file written,
        a message sent or queued): the journal stops naming it as in no file yet
        (``Journal.unwritten``); in the caller's transaction if there is one."""
        with self.writing():
            self.db.execute(
                "UPDATE journal SET export = ? WHERE game = ? AND export IS NULL", (where, game)
            )

    # ----- importing -------------------------------------------------------------------------

    def import_file(self, path: Path) -> Imported:
        return self.import_game(gamefile.read(path, lazy=True), str(path))

    def import_bundle(self, bundle: Bundle, label: str) -> Imported | Pending:
        """Take the steps of a bundle (``pbem.store.bundles``), or keep it until the steps
        before it arrive."""
        from pbem.store import bundles

        return bundles.import_bundle(self, bundle, label)

    def import_game(self, game: GameFile, label: str) -> Imported:
        """Verify ``game`` against the stored chain, verifying only what is new, and keep
        what it adds (``pbem.store.importing``); then take the step bundles kept for the
        steps it brought (``pbem.store.bundles``)."""
        from pbem.store import bundles, importing

        with self.writing():
            imported = importing.import_game(self, game, label)
            bundles.take_pending(self, game.genesis.game)
        return imported

    # ----- saving what was signed or verified --------------------------------------------------

    def save(self, head: Head, source: str) -> Head:
        """Keep what ``head``'s position took since it was read from the store (steps signed
        here): the items, the steps, the history, a new checkpoint and a version; returns the
        new head. Only onto the chain it was read from: if another process moved the game
        on meanwhile, nothing is kept (``InternalError``; a caller reads and signs in one
        ``writing`` transaction, so that this never happens). A game new to the store (a
        genesis signed here) is registered with it, so that it is listed and opened."""
        with self.writing():
            if self.db.execute("SELECT 1 FROM games WHERE id = ?", (head.game,)).fetchone() is None:
                self.register(head.position.genesis)
            if head.mark[0] != self._mark(head.game, head.position)[0]:
                raise InternalError(
                    N_(
                        "game {short_id}: another process moved the game on since it was "
                        "read; nothing was kept"
                    ).format(short_id=short_id(head.game))
                )
            self._write(head.game, head.position, source)
            return Head(self, head.game, head.position)

    def register(self, genesis: Genesis) -> None:
        """List a new game (its genesis verified by the caller); its steps come with
        ``save`` or an import."""
        when = now()
        self.db.execute(
            "INSERT INTO games (id, ruleset, genesis, added, updated) VALUES (?, ?, ?, ?, ?)",
            (genesis.game, genesis.ruleset.id, genesis.canonical_bytes(), when, when),
        )

    def _write(self, gid: str, pos: Position, source: str) -> list[Record]:
        db = self.db
        touched: dict[int, list[Entry | Envelope]] = {}
        for index, item in pos.taken:
            data = item.canonical_bytes()
            db.execute(
                "INSERT OR IGNORE INTO items (hash, game, data) VALUES (?, ?, ?)",
                (digest(data), gid, pack(data)),
            )
            touched.setdefault(index, []).append(item)
        for index, items in sorted(touched.items()):
            self._write_step(gid, pos, index, items)
        for record in pos.records:
            db.execute(
                "INSERT OR REPLACE INTO records (game, idx, kind, seats, summary) "
                "VALUES (?, ?, ?, ?, ?)",
                (gid, record.index, record.kind, json.dumps(record.seats), record_text(record)),
            )
        new, pos.taken, pos.records = pos.records, [], []
        self._checkpoint(gid, pos)
        last = db.execute(
            "SELECT hash, items FROM steps WHERE game = ? ORDER BY idx DESC LIMIT 1", (gid,)
        ).fetchone()
        envelopes = len(split(last[1])) if pos.batch is not None and last else 0
        state = digest(canonical(pos.cached().model_dump(mode="json"))).hex()
        db.execute(
            "INSERT INTO versions (game, steps, envelopes, head, state, source, added) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (gid, pos.count, envelopes, last[0] if last else b"", state, source, now()),
        )
        db.execute("UPDATE games SET updated = ? WHERE id = ?", (now(), gid))
        return new

    def _write_step(self, gid: str, pos: Position, index: int, items: list[Any]) -> None:
        if isinstance(items[0], Entry):
            step: Entry | Batch = items[0]
            complete = True
        else:
            row = self.db.execute(
                "SELECT items FROM steps WHERE game = ? AND idx = ?", (gid, index)
            ).fetchone()
            known = [] if row is None else split(row[0])
            envelopes = {e.seat: e for e in (self._item(d) for d in known)}
            envelopes.update((e.seat, e) for e in items)
            first = items[0]
            step = Batch.model_construct(
                kind="batch",
                parent=first.parent,
                decision=first.decision,
                envelopes=[envelopes[s] for s in sorted(envelopes)],
            )
            complete = index < pos.count - 1 or pos.batch is None
        digests = [step] if isinstance(step, Entry) else step.envelopes
        self.db.execute(
            "INSERT OR REPLACE INTO steps (game, idx, hash, items, complete) "
            "VALUES (?, ?, ?, ?, ?)",
            (
                gid,
                index,
                digest(step.canonical_bytes()),
                b"".join(digest(i.canonical_bytes()) for i in digests),
                int(complete),
            ),
        )

    def _last_step(self, gid: str) -> tuple[int, bytes] | None:
        """The index and hash of the game's last stored step (None before the first)."""
        return self.db.execute(
            "SELECT idx, hash FROM steps WHERE game = ? ORDER BY idx DESC LIMIT 1", (gid,)
        ).fetchone()

    def _checkpoint(self, gid: str, pos: Position) -> None:
        """The checkpoint of ``pos``, for the step it ends with (which must be the stored
        chain's last: a checkpoint is trusted for its exact head only)."""
        rows = self._last_step(gid)
        if (rows[0] + 1 if rows else 0) != pos.count:
            raise InternalError(
                N_("game {short_id}: a checkpoint of {count} steps for a chain of {value}").format(
                    short_id=short_id(gid), count=pos.count, value=rows[0] + 1 if rows else 0
                )
            )
        head = rows[1] if rows else b""
        self.db.execute(
            "INSERT OR REPLACE INTO checkpoints (game, count, head, data) VALUES (?, ?, ?, ?)",
            (gid, pos.count, head, snapshot(pos)),
        )


def _seats(text: str) -> list[int]:
    """A history line's seats as the records table keeps them: a JSON list of seat numbers."""
    seats = json.loads(text)
    if not isinstance(seats, list) or not all(type(s) is int for s in seats):
        raise TypeError("seats")
    return seats
