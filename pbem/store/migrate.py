"""Moving a store of the earlier layout (a folder per game, a file per version) into the
SQLite store, once, on first open. Nothing is lost: every version is imported (and
verified) in the order it was kept, every refused copy is kept as evidence, the robot's
memory and its outbox come along, and the old files stay where they were."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.format import gamefile
from pbem.format.errors import PbemError

if TYPE_CHECKING:
    from pbem.store.store import Store

DONE = "migrated-from-folders"


def migrate_old_layout(store: Store) -> None:
    db = store.db
    if db.execute("SELECT 1 FROM meta WHERE key = ?", (DONE,)).fetchone():
        return
    games, mail = store.home / "games", store.home / "mail"
    if games.is_dir() or mail.is_dir():
        with store.writing():
            for folder in sorted(p for p in games.glob("*") if p.is_dir()):
                _game(store, folder)
            _robot(store, mail)
    with store.writing():
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')", (DONE,))


def _game(store: Store, folder: Path) -> None:
    versions = sorted((folder / "versions").glob("*.json"))
    for path in [*versions, folder / "head.json"]:
        if not path.is_file():
            continue
        with contextlib.suppress(PbemError):  # a refused version is kept as evidence
            store.import_game(gamefile.read(path), f"{path} (earlier store)")
    for path in sorted((folder / "refused").glob("*.json")):
        store.db.execute(
            "INSERT INTO refused (game, label, reason, data, received) VALUES (?, ?, ?, ?, ?)",
            (folder.name, str(path), "refused by the earlier store", path.read_bytes(), 0),
        )


def _robot(store: Store, mail: Path) -> None:
    db = store.db
    memory = mail / "robot.json"
    if memory.is_file():
        try:
            state = json.loads(memory.read_bytes())
        except ValueError:
            state = {}
        for key, box in (state.get("mailboxes") or {}).items():
            db.execute(
                "INSERT OR REPLACE INTO mailboxes (key, uidvalidity, last) VALUES (?, ?, ?)",
                (key, int(box.get("uidvalidity", 0)), int(box.get("last", 0))),
            )
        for key in state.get("messages") or []:
            db.execute("INSERT OR IGNORE INTO messages (key, seen) VALUES (?, 0)", (str(key),))
        for key, head in (state.get("notified") or {}).items():
            who, _, game = str(key).partition(" ")
            db.execute(
                "INSERT OR REPLACE INTO notified (who, game, head) VALUES (?, ?, ?)",
                (who, game, str(head)),
            )
    for folder, sent in (("outbox", None), ("sent", 0)):
        for path in sorted((mail / folder).glob("*.eml")):
            db.execute(
                "INSERT INTO outbox (queued, message, sent) VALUES (0, ?, ?)",
                (path.read_bytes(), sent),
            )
