"""A game's chain of steps as the store keeps it, and how a copy stands against it
(architecture §10).

The store keeps one row a step: the step's hash, the hashes of its items (its entry, or the
envelopes of a batch) and whether the step is complete. A copy is compared with that chain
by hash alone: a hash covers everything signed before it, so the steps a copy shares with
the chain are known without reading them again, and the first step that differs is where
verification starts, or where a fork or an equivocation is found.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from typing import Any

from pbem.format.gamefile import Batch, Entry, GameFile, step_hash
from pbem.format.i18n import N_
from pbem.format.words import plural
from pbem.ledger.audit import Comparison
from pbem.ledger.position import Position
from pbem.store.db import damaged

DIGEST = 32
"""The size of a SHA-256 item hash: a step's items are its row's hashes, end to end."""


def digest(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def short_id(game: str) -> str:
    """The first 8 characters of a game id: enough to tell one's games apart."""
    return game[:8]


@dataclass
class Chain:
    """A game's stored steps: hash, item hashes and completeness per index."""

    hashes: list[bytes]
    items: list[list[bytes]]
    complete: list[bool]

    @classmethod
    def read(cls, db: sqlite3.Connection, game: str) -> Chain:
        rows = db.execute(
            "SELECT hash, items, complete, idx FROM steps WHERE game = ? ORDER BY idx", (game,)
        ).fetchall()
        for index, (hash_, items, _, idx) in enumerate(rows):
            shape = isinstance(hash_, bytes) and len(hash_) == DIGEST and isinstance(items, bytes)
            if not shape or idx != index or not items or len(items) % DIGEST:
                raise damaged(
                    N_("step {number} of game {short_id} is not a step row").format(
                        number=index + 1, short_id=short_id(game)
                    )
                )
        return cls(
            [r[0] for r in rows],
            [split(r[1]) for r in rows],
            [bool(r[2]) for r in rows],
        )

    def known_prefix(self, steps: Any) -> int:
        """How many of ``steps`` the chain holds, by hash: steps received but never read
        (``gamefile.Steps``) are compared without being validated, for what matches was
        verified when it was stored."""
        chain = self.hashes
        matches = getattr(steps, "matches", None)  # steps as received: by their bytes
        for i in range(min(len(steps), len(chain))):
            same = (
                matches(i, chain[i])
                if matches is not None
                else digest(steps[i].canonical_bytes()) == chain[i]
            )
            if not same:
                return i
        return min(len(steps), len(chain))

    def seen_head(self, game: GameFile) -> str:
        """The parent a move made on ``game`` would name: its last step, unless that is a
        batch still open in it (the stored chain holds it with more envelopes, or not at
        all yet): then the batch's parent. The genesis before any step."""
        if not game.steps:
            return step_hash(game.genesis)
        index = len(game.steps) - 1
        tail = Chain(self.hashes[index:], [], [])
        complete = index < len(self.hashes) - 1 and tail.known_prefix(game.steps[index:]) == 1
        last = game.steps[index]
        return last.parent if isinstance(last, Batch) and not complete else step_hash(last)


def split(items: bytes) -> list[bytes]:
    """A row's item hashes, one by one."""
    return [items[i : i + DIGEST] for i in range(0, len(items), DIGEST)]


def head_label(count: int, envelopes: int, digest: str) -> str:
    """A head as people can compare it: step count, envelopes of an open batch, hash."""
    if not count:
        return "no steps yet (genesis only)"
    extra = f", its last with {plural(envelopes, 'envelope')}" if envelopes else ""
    return f"{count} steps{extra}, head {digest[:12]}"


def _label_of(steps: list[Entry | Batch]) -> str:
    last = steps[-1] if steps else None
    envelopes = len(last.envelopes) if isinstance(last, Batch) else 0
    return head_label(len(steps), envelopes, step_hash(last) if last else "")


def refusal(c: Comparison, label: str, game: GameFile, stored: Position) -> str:
    """The one line that refuses a copy which forks from the stored chain, or in which a
    seat signed a second, different step: both heads named, so either can be checked."""
    names = stored.names
    theirs = f"{label} ({_label_of(game.steps)})"
    ours = f"your copy ({head_label(stored.count, 0, stored.head_hash)})"
    where = f"game {short_id(game.genesis.game)}"
    if c.relation == "equivocation":
        seat = c.proof[0]["seat"]
        return (
            f"{where}: equivocation refused: seat {seat} ({names[seat]}) signed two different "
            f"steps at step {c.index + 1}: {theirs} vs {ours}"
        )
    return f"{where}: fork refused: {theirs} and {ours} part at step {c.index + 1}"
