"""A game as a command finds it, and where its exports go: shared by the commands and the
board page. A command is given a game file (imported into the store first: only what is new
is verified) or the id of a stored game; the newest head is what it acts on.

One working file per game (architecture §10): the head is written over the game file the
command was given, or for a game named by its id over ``RULESET-SHORTID.json`` in the
current folder, atomically, and only when the store holds every step of what it replaces
and the file still holds the bytes pbem read (``replace_working``); anything else (a file
changed meanwhile, one holding steps the store lacks, another game's, a symbolic link, not
a regular file) is left as it is, and the head goes to a new file beside it, named by the
steps it holds (``game.s0007.json``), with the reason in one line. ``-o FILE`` writes
exactly FILE, never over an existing one; the setting ``files numbered`` (``pbem config``)
writes the numbered files always; ``pbem export --step K`` writes an older version (the
store keeps every step)."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.format import gamefile
from pbem.format.errors import Rejected, UsageError
from pbem.format.files import read_plain, replace_unchanged, write_new
from pbem.format.gamefile import Batch
from pbem.format.limits import MAX_FILE_BYTES, read_input
from pbem.format.words import plural
from pbem.ledger.position import Position
from pbem.ledger.replay import Replay
from pbem.ruleset import registry
from pbem.store.chain import Chain, digest, short_id
from pbem.store.head import Head, Imported
from pbem.store.newfile import named_file, numbered_file
from pbem.store.store import Store


@dataclass
class Opened:
    """A game as a command found it: the store's head, and the file it came from."""

    head: Head
    source: Path | None
    imported: Imported | None
    digest: bytes | None = None
    """The SHA-256 of the bytes read from ``source`` and imported: what the file must
    still hold for it to be replaced."""

    @property
    def position(self) -> Position:
        return self.head.position

    def notes(self, store: Store) -> list[str]:
        """What to tell the player about the file they gave: that it was behind the store's
        head, and where the head is (its newest export, or not exported yet)."""
        if self.imported is None or not self.imported.behind:
            return []
        read = self.read(store)
        export = read["head"]["export"]
        where = (
            f"newest export: {export}"
            if export
            else f"not exported yet: pbem export {short_id(self.head.game)}"
        )
        return [
            f"{self.source} holds {plural(read['read']['steps'], 'step')}; your store holds "
            f"{read['head']['steps']} ({where}); using that"
        ]

    def read(self, store: Store) -> dict[str, Any]:
        """What a reading command read and what it acted on, for ``--json``: ``read``
        (the file given and its steps) and ``head`` (the store's steps and the export that
        holds them, or None); nothing when the game was named by its id."""
        if self.source is None:
            return {}
        steps = self.position.count
        behind = self.imported.behind if self.imported is not None else 0
        export = newest_export(store, self.head.game, of_head=True)
        return {
            "read": {"file": str(self.source), "steps": steps - behind},
            "head": {"steps": steps, "export": export},
        }


def open_game(store: Store, target: str) -> Opened:
    """TARGET is a game file (imported first: only what is new is verified) or the id of a
    stored game, or its first characters."""
    path = Path(target)
    if path.suffix == ".json" or path.exists() or os.sep in target:
        return open_file(store, path)
    return Opened(store.head(store.resolve(target)), None, None)


def open_file(store: Store, path: Path) -> Opened:
    """A game file, imported (only what is new is verified), with the digest of the
    bytes that were read: the file is replaced later only while it still holds them."""
    data = read_input(path)
    imported = store.import_game(gamefile.decode(data, what=str(path), lazy=True), str(path))
    return Opened(imported.head, path, imported, hashlib.sha256(data).digest())


def newest_export(store: Store, game: str, *, of_head: bool = False) -> str | None:
    """The file the game's newest exported version was last written to (relative to the
    current folder when it is below it), or None; with ``of_head``, only a file that holds
    the head as the store has it now (steps received since were not exported)."""
    head = " AND version = (SELECT max(id) FROM versions WHERE game = ?)" if of_head else ""
    row = store.db.execute(
        f"SELECT path FROM exports WHERE game = ?{head} ORDER BY version DESC, written DESC "
        "LIMIT 1",
        (game, game) if of_head else (game,),
    ).fetchone()
    if row is None:
        return None
    path = Path(row[0])
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


_SUFFIX = re.compile(r"(\.s\d{4,}(-\d+)?(~\d+)?|\.\d{4,})$")


def export_place(opened: Opened) -> tuple[Path, str]:
    """Where an export of this game goes: beside the file it came from, named after it;
    for a game named by its id, the current folder, named by ruleset and short id."""
    if opened.source is not None:
        return opened.source.parent, _SUFFIX.sub("", opened.source.stem)
    pos = opened.position
    return Path.cwd(), f"{pos.rules.id}-{short_id(pos.genesis.game)}"


def working_file(opened: Opened) -> Path:
    """The game's one working file: the file the command was given, or for a game named by
    its id ``RULESET-SHORTID.json`` in the current folder."""
    if opened.source is not None:
        return opened.source
    pos = opened.position
    return Path.cwd() / f"{pos.rules.id}-{short_id(pos.genesis.game)}.json"


@dataclass
class Written:
    """Where an export went, and why the working file was left as it is (one line), if
    it was."""

    path: Path
    kept: str | None = None


def export_head(
    store: Store,
    opened: Opened,
    explicit: Path | None = None,
    read: Head | None = None,
    *,
    numbered: bool = False,
) -> Written:
    """Write the head: to ``explicit`` (``-o``: a new file, never over an existing one);
    with ``numbered``, as a new file named by step; else over the working file when it
    may be replaced (``replace_working``), or as a new file beside it, saying why not.
    ``read``: the head as this process last made it (``Store.head``)."""
    game = opened.head.game
    if explicit is not None:
        return Written(store.export_to(game, explicit, read))
    folder, stem = export_place(opened)
    if numbered:
        return Written(store.export(game, folder, stem, read))
    target = working_file(opened)
    why = replace_working(store, game, target, opened.digest, read)
    if why is None:
        return Written(target)
    return Written(store.export(game, folder, stem, read), f"{target} was left as it is: {why}")


def replace_working(
    store: Store, game: str, target: Path, seen: bytes | None, read: Head | None = None
) -> str | None:
    """Write the head of ``game`` over ``target`` (or as ``target`` when there is none),
    atomically, when the store holds every step of what it replaces: ``target`` is a
    regular file (a symbolic link is never followed nor replaced), still holds the bytes
    read from it (``seen``, when the command read it), and is a copy of the game whose
    steps are all in the store. None when it was written; else why not, and nothing
    changed."""
    with store.reading():
        head = store.head(game, read)
        data = head.text().encode()
        chain = Chain.read(store.db, game)
        genesis = store.genesis(game).canonical_bytes()
    if not os.path.lexists(target):
        if not write_new(target, data):
            return "it was made while pbem wrote it"
        store.exported(game, target)
        return None
    if target.is_symlink():
        return "it is a symbolic link (pbem replaces a file, never a link)"
    now = read_plain(target, MAX_FILE_BYTES)
    if now is None:
        return "it is not a regular file pbem can read"
    held = hashlib.sha256(now).digest()
    if seen is not None and held != seen:
        return "it changed since pbem read it"
    why = _unheld(now, game, genesis, chain)
    if why is not None:
        return why
    if now != data and not replace_unchanged(target, data, held, MAX_FILE_BYTES):
        return "it changed while pbem wrote the new version"
    store.exported(game, target)
    return None


def _unheld(data: bytes, game: str, genesis: bytes, chain: Chain) -> str | None:
    """Why the store does not hold every step of the file ``data``, or None when it does:
    the same game (its genesis byte for byte), each step one of the stored chain by hash,
    a last batch still open in the file made of envelopes the stored step holds. The
    cached state is not compared: it is made again from the steps."""
    try:
        copy = gamefile.decode(data, what="the file", lazy=True)
    except Rejected:
        return "it is not a game file pbem reads"
    if copy.genesis.game != game or copy.genesis.canonical_bytes() != genesis:
        return "it is a file of another game"
    steps, known = copy.steps, chain.known_prefix(copy.steps)
    if known == len(steps):
        return None
    if known == len(steps) - 1 and known < len(chain.items):
        try:
            last = steps[known]
        except Rejected:
            last = None
        if isinstance(last, Batch):
            stored = set(chain.items[known])
            if all(digest(e.canonical_bytes()) in stored for e in last.envelopes):
                return None
    return "it holds steps your store lacks"


def export_step(store: Store, opened: Opened, k: int, explicit: Path | None = None) -> Path:
    """Write the game as it stood after its first ``k`` steps (numbered as ``pbem log``
    numbers them; 0: the genesis alone), verified again from the genesis, to ``explicit``
    or as a new file named by step beside the game file (in the current folder for a game
    named by its id); never over an existing file. Not an export of the head: the
    journal and the newest export are left as they are."""
    game = opened.head.game
    count = opened.position.count
    if not 0 <= k <= count:
        raise UsageError(f"--step {k}: the game has steps 0 to {count} (see: pbem log)")
    with store.reading():
        genesis = store.genesis(game)
        replay = Replay.start(genesis, registry.get(genesis.ruleset.id))
        for n, step in enumerate(store.steps(game, upto=k), 1):
            replay.add(step)
            if store.progress is not None:
                store.progress(n, k)
        version = Head(store, game, replay)
        version.text()  # made and checked in this snapshot of the store
    if explicit is not None:
        return named_file(store, version, explicit, record=False)
    folder, stem = export_place(opened)
    return numbered_file(store, version, folder, stem, record=False)
