"""A game as a command finds it, and where its exports go: shared by the commands and the
board page. A command is given a game file (imported into the store first: only what is new
is verified) or the id of a stored game; the newest head is what it acts on. A new export is
written beside the file it came from, named by the steps it holds (``game.s0007.json``), or
in the current folder for a game named by its id; never over an existing file."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.format.words import plural
from pbem.ledger.position import Position
from pbem.store.chain import short_id
from pbem.store.head import Head, Imported
from pbem.store.store import Store


@dataclass
class Opened:
    """A game as a command found it: the store's head, and the file it came from."""

    head: Head
    source: Path | None
    imported: Imported | None

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
        imported = store.import_file(path)
        return Opened(imported.head, path, imported)
    return Opened(store.head(store.resolve(target)), None, None)


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


def export_head(
    store: Store, opened: Opened, explicit: Path | None = None, read: Head | None = None
) -> Path:
    """Write the head as a new file (never over an existing one) and return its path;
    ``read``: the head as this process last made it (``Store.head``)."""
    if explicit is not None:
        return store.export_to(opened.head.game, explicit, read)
    folder, stem = export_place(opened)
    return store.export(opened.head.game, folder, stem, read)
