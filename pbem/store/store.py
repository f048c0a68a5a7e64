"""The local store: the one home of a player's games (DESIGN §10).

Like git's object store, it keeps the genesis and each entry and envelope once, by hash; a
game's verified chain of steps; a version as a pointer to a head, not a copy; a checkpoint
at each game's head, from which replay continues; the journal of everything this player
signed; refused copies with the reason, as evidence. Game files and mail attachments are
its imports and exports. Data flows one way:

    file or mail -> import (verify what is new) -> head -> rules and author
                 -> save (journal first) -> export

A copy is compared with the chain by step hash. A hash covers everything signed before it,
so a file that differs anywhere is verified from where it differs; steps already verified
are never verified again, and the checkpoint is used only for the exact head it was made
at. A copy that extends the chain, or brings envelopes of the open batch, moves the head; a
copy that is behind changes nothing and says so; a fork or one seat signing two different
steps on one parent is refused, with both signed steps as proof. Email addresses play no
part: a copy is accepted on its signatures alone.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pbem.crypto.keyring import default_home
from pbem.format import gamefile
from pbem.format.canonical import canonical, pretty
from pbem.format.errors import Rejected, UsageError
from pbem.format.files import write_new
from pbem.format.gamefile import FORMAT, Batch, Entry, Envelope, GameFile, Genesis, step_hash
from pbem.ledger.audit import Comparison, compare, proof_text
from pbem.ledger.checkpoint import restore, snapshot
from pbem.ledger.position import Position
from pbem.ledger.replay import Progress, Replay, check_cached, replay_file
from pbem.ledger.terms import Record
from pbem.ruleset import registry
from pbem.store.chain import Chain, digest, head_label, refusal, short_id, split
from pbem.store.db import connect, pack, store_path, transaction, unpack

Status = Literal["new", "updated", "merged", "duplicate", "behind"]


def _now() -> int:
    return int(time.time())


@dataclass
class Head:
    """A game as the store holds it: the verified position at its head, and its history."""

    store: Store
    game: str
    position: Position
    mark: tuple[Any, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.mark = self.store._mark(self.game, self.position)

    @property
    def records(self) -> list[Record]:
        return self.store.records(self.game)

    @property
    def digest(self) -> str:
        """The hash of the last step (of the genesis before any), as hex."""
        row = self.store.db.execute(
            "SELECT hash FROM steps WHERE game = ? ORDER BY idx DESC LIMIT 1", (self.game,)
        ).fetchone()
        return row[0].hex() if row else self.position.genesis_hash

    @property
    def label(self) -> str:
        """The head as people compare versions: steps, envelopes of an open batch, hash."""
        batch = self.position.batch
        return head_label(self.position.count, len(batch.envelopes) if batch else 0, self.digest)

    def file(self) -> GameFile:
        return gamefile.decode(self.text())

    def text(self) -> str:
        """The head as a game file, exactly as the store holds it."""
        return self.store.file_text(self.game, self.position)


@dataclass
class Imported:
    """What one import did. ``new_steps``: history lines the store did not have before;
    ``behind``: how many steps the copy was behind the head (0 when it was not)."""

    status: Status
    head: Head
    new_steps: list[Record]
    envelopes_added: int = 0
    behind: int = 0
    seen: str = ""
    """The hash of the copy's last complete step (the genesis's before any): what a player
    holding that copy would have moved on."""


class Store:
    """The store under ``home`` (``PBEM_HOME`` by default)."""

    def __init__(self, home: Path | None = None, progress: Progress | None = None) -> None:
        self.home = home if home is not None else default_home()
        self.progress = progress
        """Told ``(k, n)`` as steps are verified (a command's progress line), if given."""
        self.path = store_path(self.home)
        self._db: sqlite3.Connection | None = None
        self._depth = 0
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
        """One transaction around everything inside (nested calls join the outer one)."""
        if self._depth:
            self._depth += 1
            try:
                yield self
            finally:
                self._depth -= 1
            return
        try:
            with transaction(self.db):
                self._depth = 1
                try:
                    yield self
                finally:
                    self._depth = 0
        finally:
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
                    [(*e, _now()) for e in evidence],
                )

    # ----- reading ---------------------------------------------------------------------------

    def ids(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT id FROM games ORDER BY id")]

    def resolve(self, prefix: str) -> str:
        """The full id of the one stored game whose id starts with ``prefix``."""
        if not prefix or not prefix.replace("-", "").replace("_", "").isalnum():
            raise UsageError(f"bad game id {prefix!r}")
        matches = [g for g in self.ids() if g.startswith(prefix)]
        if len(matches) != 1:
            what = "no stored game" if not matches else f"{len(matches)} stored games"
            raise UsageError(f"{what} with an id starting {prefix!r} (see: pbem games)")
        return matches[0]

    def genesis(self, game: str) -> Genesis:
        row = self.db.execute("SELECT genesis FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise UsageError(f"game {short_id(game)} is not in the store")
        return gamefile.load_stored(Genesis, row[0])

    def head(self, game: str, read: Head | None = None) -> Head:
        """The verified position at the game's head, from its checkpoint. ``read`` is a head
        of the game this process took from the store earlier: it is given back as it is,
        without restoring the checkpoint again, when the store's head is still the one it
        holds (no process has added to the game since) and its position is untouched (no
        step was added to it in memory)."""
        if read is not None and read.game == game and read.mark == self._mark(game, read.position):
            return read
        genesis = self.genesis(game)
        rules = registry.get(genesis.ruleset.id)
        row = self.db.execute(
            "SELECT count, head, data FROM checkpoints WHERE game = ?", (game,)
        ).fetchone()
        chain = self._chain(game)
        last = chain.hashes[-1] if chain.hashes else b""
        if row is not None and row[0] == len(chain.hashes) and row[1] == last:
            position = restore(row[2], genesis, step_hash(genesis), rules)
        else:  # no checkpoint for this head (an older store): verify once, keep one
            position = self._rebuild(game, genesis)
            with self.writing():
                self._checkpoint(game, position)
        return Head(self, game, position)

    def _mark(self, game: str, position: Position) -> tuple[Any, ...]:
        """What says a head is still the store's: its checkpoint row, and how many signed
        items the position holds and has taken since it was read."""
        row = self.db.execute(
            "SELECT count, head FROM checkpoints WHERE game = ?", (game,)
        ).fetchone()
        return (row, position.signatures, len(position.taken))

    def _rebuild(self, game: str, genesis: Genesis) -> Position:
        replay = Replay.start(genesis, registry.get(genesis.ruleset.id))
        steps = self.steps(game)
        for n, step in enumerate(steps, 1):
            replay.add(step)
            if self.progress is not None:
                self.progress(n, len(steps))
        return replay

    def _chain(self, game: str) -> Chain:
        return Chain.read(self.db, game)

    def _item(self, key: bytes) -> Any:
        row = self.db.execute("SELECT data FROM items WHERE hash = ?", (key,)).fetchone()
        if row is None:
            raise UsageError("the store is missing an item it lists (damaged?)")
        data = unpack(row[0])
        value = json.loads(data)
        model = Envelope if value.get("kind") == "envelope" else Entry
        return gamefile.load_stored(model, data)

    def steps(self, game: str, upto: int | None = None, since: int = 0) -> list[Entry | Batch]:
        """The stored steps of a game (those from index ``since`` up to ``upto``), as models:
        ask for the few that are needed, for each one read is validated again."""
        chain = self._chain(game)
        out: list[Entry | Batch] = []
        for digests in chain.items[since:upto]:
            items = [self._item(d) for d in digests]
            if isinstance(items[0], Envelope):
                first = items[0]
                out.append(
                    Batch.model_construct(
                        kind="batch", parent=first.parent, decision=first.decision, envelopes=items
                    )
                )
            else:
                out.append(items[0])
        return out

    def records(self, game: str) -> list[Record]:
        rows = self.db.execute(
            "SELECT idx, kind, seats, summary FROM records WHERE game = ? ORDER BY idx", (game,)
        ).fetchall()
        chain = self._chain(game)
        return [
            Record(idx, kind, json.loads(seats), *_unlines(summary, chain.hashes[idx].hex()))
            for idx, kind, seats, summary in rows
            if idx < len(chain.hashes)
        ]

    def file_text(self, game: str, position: Position) -> str:
        """The game file of the head ``position``: the bytes the store keeps, as stored."""
        genesis = self.db.execute("SELECT genesis FROM games WHERE id = ?", (game,)).fetchone()
        data = {
            "format": FORMAT,
            "genesis": json.loads(genesis[0]),
            "steps": self._step_values(game),
            "state": position.cached().model_dump(mode="json"),
        }
        return pretty(data)

    def _step_values(self, game: str) -> list[Any]:
        """The steps as JSON values, straight from the stored bytes (no models)."""
        items = dict(self.db.execute("SELECT hash, data FROM items WHERE game = ?", (game,)))
        out = []
        for digests in self._chain(game).items:
            values = [json.loads(unpack(items[d])) for d in digests]
            if values[0]["kind"] == "envelope":
                first = values[0]
                batch = {"decision": first["decision"], "envelopes": values, "kind": "batch"}
                out.append({**batch, "parent": first["parent"]})
            else:
                out.append(values[0])
        return out

    # ----- exporting -------------------------------------------------------------------------

    def export(self, game: str, folder: Path, stem: str, read: Head | None = None) -> Path:
        """Write the head of ``game`` into ``folder`` as ``STEM.sNNNN.json`` (``-K`` added
        while step NNNN is a batch with K envelopes): names sort in game order. A file of
        that name with other content is never written over; ``~2``, ``~3``... are tried.
        ``read``: the head as this process last read or made it (see ``head``)."""
        head = self.head(game, read)
        data = head.text().encode()
        pos = head.position
        name = f"{stem}.s{pos.count:04d}" + (f"-{len(pos.batch.envelopes)}" if pos.batch else "")
        for n in range(1, 1000):
            target = folder / (f"{name}.json" if n == 1 else f"{name}~{n}.json")
            if (target.is_file() and target.read_bytes() == data) or write_new(target, data):
                self._exported(game, target)
                return target
        raise UsageError(f"{folder}: too many files named {name}~N.json")

    def export_to(self, game: str, target: Path, read: Head | None = None) -> Path:
        """Write the head of ``game`` to ``target``, which must not exist (or hold it)."""
        data = self.head(game, read).text().encode()
        if not ((target.is_file() and target.read_bytes() == data) or write_new(target, data)):
            raise UsageError(f"{target}: exists already; pbem never writes over a file")
        self._exported(game, target)
        return target

    def _exported(self, game: str, target: Path) -> None:
        path = str(target.resolve())
        with self.writing():
            version = self.db.execute(
                "SELECT max(id) FROM versions WHERE game = ?", (game,)
            ).fetchone()[0]
            self.db.execute(
                "INSERT OR REPLACE INTO exports (path, game, version, written) VALUES (?, ?, ?, ?)",
                (path, game, version or 0, _now()),
            )
            self.db.execute(
                "UPDATE journal SET export = ? WHERE game = ? AND export IS NULL", (path, game)
            )

    # ----- importing -------------------------------------------------------------------------

    def import_file(self, path: Path) -> Imported:
        return self.import_game(gamefile.read(path, lazy=True), str(path))

    def import_game(self, game: GameFile, label: str) -> Imported:
        """Verify ``game`` against the stored chain, verifying only what is new, and keep
        what it adds; see the module doc for what is accepted."""
        with self.writing():
            gid = game.genesis.game
            row = self.db.execute("SELECT genesis FROM games WHERE id = ?", (gid,)).fetchone()
            if row is None:
                return self._new(game, label)
            if row[0] != game.genesis.canonical_bytes():
                raise self._refuse(
                    game,
                    label,
                    f"{label}: claims game {short_id(gid)} but its genesis differs from the "
                    "stored one (a forgery or a damaged file)",
                )
            chain = self._chain(gid)
            imported = self._known(game, label)
            imported.seen = chain.seen_head(game)
            return imported

    def _new(self, game: GameFile, label: str) -> Imported:
        rules = registry.get(game.genesis.ruleset.id)
        try:
            replay = replay_file(game, rules, self.progress)
        except Rejected as exc:
            raise self._refuse(game, label, f"{label}: {exc}") from exc
        gid = game.genesis.game
        now = _now()
        self.db.execute(
            "INSERT INTO games (id, ruleset, genesis, added, updated) VALUES (?, ?, ?, ?, ?)",
            (gid, rules.id, game.genesis.canonical_bytes(), now, now),
        )
        new = self._write(gid, replay, label)
        return Imported("new", Head(self, gid, replay), new)

    def _known(self, game: GameFile, label: str) -> Imported:
        gid = game.genesis.game
        chain = self._chain(gid)
        k = chain.known_prefix(game.steps)
        if k == len(game.steps) and k <= len(chain.hashes):
            return self._seen(game, label, len(chain.hashes) - k)
        if self._void_call(gid, chain, game, k):
            return self._known(game, label)
        head = self.head(gid)
        pos = head.position
        if k == len(chain.hashes):  # after an open batch only an interruption may come
            return self._extend(game, label, pos, k)
        step = game.steps[k]
        last = pos.interrupt if pos.interrupt is not None else pos.batch  # still signed
        if (
            k == len(chain.hashes) - 1
            and isinstance(step, Batch)
            and last is not None
            and (step.parent, step.decision) == (last.parent, last.decision)
        ):
            return self._merge(game, label, pos, k, last)
        if isinstance(step, Batch) and k < len(chain.hashes) and len(game.steps) == k + 1:
            stored = set(chain.items[k])
            if {digest(e.canonical_bytes()) for e in step.envelopes} <= stored:
                return self._seen(game, label, len(chain.hashes) - k)
        if self._answered_call(chain, game, k):
            return self._seen(game, label, len(chain.hashes) - k)
        return self._diverged(game, label, k)

    def _answered_call(self, chain: Chain, game: GameFile, k: int) -> bool:
        """The copy ends with a call signed after step ``k``, a batch of which the store
        holds more: among them the called seats' own envelopes. They had answered, so the
        call is void (DESIGN §11): the copy is behind, not a fork. (Its signers' stores
        drop the call when the answer reaches them.)"""
        if k >= len(chain.hashes) or len(game.steps) != k + 2:
            return False
        batch, call = game.steps[k], game.steps[k + 1]
        if not (isinstance(batch, Batch) and isinstance(call, Batch)) or call.decision != "call":
            return False
        if not {digest(e.canonical_bytes()) for e in batch.envelopes} <= set(chain.items[k]):
            return False
        called = call.envelopes[0].body.get("seats") if call.envelopes else None
        answered = {self._item(d).seat for d in chain.items[k]}
        if not isinstance(called, list) or not called or any(type(s) is not int for s in called):
            return False  # not a call's body: replaying the copy refuses it
        return set(called) <= answered

    def _void_call(self, gid: str, chain: Chain, game: GameFile, k: int) -> bool:
        """The stored chain ends with a call, and the copy holds the called seats' own
        steps where it parts from the chain: they had acted after all, the call is void
        (DESIGN §11), and the store drops it. The next import then merges their steps."""
        last = len(chain.hashes) - 1
        if last < 1 or k not in (last - 1, last):
            return False
        tail = self._item(chain.items[last][0])
        if not isinstance(tail, Envelope) or tail.decision != "call":
            return False
        theirs = game.steps[k]
        signed = {e.seat for e in theirs.envelopes} if isinstance(theirs, Batch) else {theirs.seat}
        if not set(tail.body["seats"]) <= signed:
            return False
        for table in ("steps", "records"):
            self.db.execute(f"DELETE FROM {table} WHERE game = ? AND idx >= ?", (gid, last))
        self.db.execute("DELETE FROM checkpoints WHERE game = ?", (gid,))
        return True

    def _seen(self, game: GameFile, label: str, behind: int) -> Imported:
        """A copy whose steps the store holds all of: nothing new. Its cached state is
        checked all the same (against a version seen, else by replaying it once)."""
        gid = game.genesis.game
        state = digest(canonical(game.state.model_dump(mode="json")))
        known = self.db.execute(
            "SELECT 1 FROM versions WHERE game = ? AND steps = ? AND head = ? AND state = ?",
            (gid, len(game.steps), _last(game), state.hex()),
        ).fetchone()
        if known is None:
            try:
                replay_file(game, registry.get(game.genesis.ruleset.id), self.progress)
            except Rejected as exc:
                raise self._refuse(game, label, f"{label}: {exc}") from exc
        head = self.head(gid)
        return Imported("duplicate" if not behind else "behind", head, [], behind=behind)

    def _extend(self, game: GameFile, label: str, pos: Position, k: int) -> Imported:
        signatures = pos.signatures
        try:
            for n, step in enumerate(game.steps[k:], k + 1):
                pos.add(step)
                if self.progress is not None:
                    self.progress(n, len(game.steps))
            check_cached(pos, game.state)
        except Rejected as exc:
            raise self._refuse(game, label, f"{label}: {exc}") from exc
        new = self._write(game.genesis.game, pos, label)
        added = pos.signatures - signatures
        return Imported("updated", Head(self, game.genesis.game, pos), new, added)

    def _merge(self, game: GameFile, label: str, pos: Position, k: int, last: Batch) -> Imported:
        """The copy's step ``k`` is ``last``, the batch or the interruption the stored head
        is still collecting envelopes for, with envelopes the store may lack."""
        step = game.steps[k]
        assert isinstance(step, Batch)
        mine = {e.seat: e for e in last.envelopes}
        for env in step.envelopes:
            if env.seat in mine and mine[env.seat] != env:
                c = Comparison("equivocation", k, [mine[env.seat].model_dump(), env.model_dump()])
                raise self._refuse(
                    game, label, refusal(c, label, game, pos), proof=proof_text(c.proof)
                )
        new = [e for e in step.envelopes if e.seat not in mine]
        if not new and len(game.steps) == k + 1:
            return self._seen(game, label, 0)
        signatures = pos.signatures
        try:
            for env in new:
                pos.add_envelope(env)
            if len(game.steps) > k + 1:  # the copy's step k, as it is, then what follows
                if not set(mine) <= {e.seat for e in step.envelopes}:
                    raise Rejected(f"step {k + 1} differs from the stored one (fork)")
                for later in game.steps[k + 1 :]:
                    pos.add(later)
            if set(mine) <= {e.seat for e in step.envelopes} or pos.batch is not None:
                check_cached(pos, game.state)  # the copy's own position is the merged one
        except Rejected as exc:
            raise self._refuse(game, label, f"{label}: {exc}") from exc
        gid = game.genesis.game
        new_records = self._write(gid, pos, label)
        added = pos.signatures - signatures
        return Imported("merged", Head(self, gid, pos), new_records, added)

    def _diverged(self, game: GameFile, label: str, k: int) -> Imported:
        """The copy parts from the chain at step ``k``: first the copy must be valid by
        itself (else it is only a bad file), then it is a fork or an equivocation."""
        gid = game.genesis.game
        try:
            replay_file(game, registry.get(game.genesis.ruleset.id), self.progress)
        except Rejected as exc:
            raise self._refuse(game, label, f"{label}: {exc}") from exc
        stored = self.steps(gid, k + 1)
        head = self.head(gid)
        c = compare(stored, game.steps)
        if c.relation not in {"fork", "equivocation"}:
            c = Comparison("fork", k)
        raise self._refuse(
            game, label, refusal(c, label, game, head.position), proof=proof_text(c.proof)
        )

    def _refuse(
        self, game: GameFile, label: str, reason: str, proof: str | None = None
    ) -> Rejected:
        """Keep a refused copy as evidence (it survives the rollback of the refusing
        transaction: it is written on its own) and return the error to raise."""
        data = gamefile.encode(game).encode()
        self._evidence.append((game.genesis.game, label, reason, data))
        return Rejected(reason, detail=proof)

    # ----- saving what was signed or verified --------------------------------------------------

    def save(self, pos: Position, source: str) -> list[Record]:
        """Keep what ``pos`` took since it was read from the store (steps signed here):
        the items, the steps, the history, a new checkpoint and a version. Returns the
        history lines it added."""
        with self.writing():
            return self._write(pos.genesis.game, pos, source)

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
                (gid, record.index, record.kind, json.dumps(record.seats), _lines(record)),
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
            (gid, pos.count, envelopes, last[0] if last else b"", state, source, _now()),
        )
        db.execute("UPDATE games SET updated = ? WHERE id = ?", (_now(), gid))
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

    def _checkpoint(self, gid: str, pos: Position) -> None:
        row = self.db.execute(
            "SELECT hash FROM steps WHERE game = ? ORDER BY idx DESC LIMIT 1", (gid,)
        ).fetchone()
        head = row[0] if row else b""
        self.db.execute(
            "INSERT OR REPLACE INTO checkpoints (game, count, head, data) VALUES (?, ?, ?, ?)",
            (gid, pos.count, head, snapshot(pos)),
        )


def _lines(record: Record) -> str:
    """A record's summary and consequences, one per line, as the records table keeps them."""
    return "\n".join([record.summary, *record.consequences])


def _unlines(text: str, head: str) -> tuple[str, str, list[str]]:
    summary, *consequences = text.split("\n")
    return summary, head, consequences


def _last(game: GameFile) -> bytes:
    return digest(game.steps[-1].canonical_bytes()) if game.steps else b""
