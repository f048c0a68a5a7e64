"""Step bundles in the store (architecture §10, ``schemas/format.md`` §10): taking the steps
a mail brings, keeping a bundle that arrived before the steps it follows, asking for those,
and making a bundle of what a player lacks.

A bundle is verified as a copy of the game whose first steps are the store's own: the
same import (``pbem.store.importing``), so it is accepted, merged, found behind, voided or
refused exactly as a whole file would be, without a cached state to compare. One that
follows a step the store does not hold is kept (``pending``) and taken as soon as the
missing steps arrive; nothing a mail brings is dropped.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from pbem.format.bundle import Bundle, Request, decode_bundle
from pbem.format.gamefile import FORMAT, GameFile, Step, step_hash
from pbem.store import importing
from pbem.store.chain import Chain, short_id
from pbem.store.db import now
from pbem.store.head import Head, Imported
from pbem.store.texts import head_bundle

if TYPE_CHECKING:
    from pbem.store.store import Store


@dataclass
class Pending:
    """A bundle kept because the store lacks the steps before it: ``request`` asks for
    them (None when the request was sent already for this gap)."""

    game: str
    index: int
    request: Request | None


class Joined(Sequence[Step]):
    """The store's steps up to a bundle's first, then the bundle's: the copy of the game a
    bundle stands for. The stored steps are known by their hashes and read only if needed."""

    def __init__(self, store: Store, game: str, chain: Chain, bundle: Bundle) -> None:
        self._store, self.game, self._chain, self._bundle = store, game, chain, bundle
        self._index = bundle.index

    def __len__(self) -> int:
        return self._index + len(self._bundle.steps)

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> list[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | list[Step]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if index < 0:
            index += len(self)
        if index < self._index:
            return self._store.steps(self.game, upto=index + 1, since=index)[0]
        return self._bundle.steps[index - self._index]

    def __iter__(self) -> Iterator[Step]:
        return (self[i] for i in range(len(self)))

    def matches(self, index: int, digest: bytes) -> bool:
        if index < self._index:
            return self._chain.hashes[index] == digest
        return self._bundle.steps.matches(index - self._index, digest)

    @property
    def file_value(self) -> dict[str, Any]:
        """What was received, kept as evidence if the bundle is refused."""
        return {"format": FORMAT, "bundle": self._bundle.steps.file_value["steps"]}


def import_bundle(store: Store, bundle: Bundle, label: str) -> Imported | Pending:
    """Take ``bundle`` as the store takes a copy of the game, if the store holds the step it
    follows; else keep it, and ask for what is missing. Bundles kept before that now
    follow the chain are taken too."""
    with store.writing():
        joined = _joined(store, bundle)
        if joined is None:
            return _keep(store, bundle, label)
        imported = _take(store, joined, label)
        take_pending(store, bundle.game)
        return imported


def _take(store: Store, joined: Joined, label: str) -> Imported:
    """Import the copy of the game a bundle stands for, as any copy is imported."""
    genesis = store.genesis(joined.game)
    copy = GameFile.model_construct(format=FORMAT, genesis=genesis, steps=joined, state=None)
    return importing.import_game(store, copy, label)


def _joined(store: Store, bundle: Bundle) -> Joined | None:
    """The copy ``bundle`` stands for, if the store holds the step it follows."""
    if bundle.game not in store.ids():
        return None
    chain = store._chain(bundle.game)
    if bundle.index > len(chain.hashes):
        return None
    before = (
        chain.hashes[bundle.index - 1].hex()
        if bundle.index
        else step_hash(store.genesis(bundle.game))
    )
    if before != bundle.after:
        return None
    return Joined(store, bundle.game, chain, bundle)


def _keep(store: Store, bundle: Bundle, label: str) -> Pending:
    """Keep a bundle that follows a step the store lacks, and say what to ask for (once
    for each gap: the request names the store's head)."""
    store.db.execute(
        "INSERT OR IGNORE INTO pending (game, after, idx, data, received) VALUES (?, ?, ?, ?, ?)",
        (bundle.game, bundle.after, bundle.index, bundle.encode().encode(), now()),
    )
    have, index = _holds(store, bundle.game)
    asked = store.db.execute(
        "SELECT 1 FROM asked WHERE game = ? AND have = ?", (bundle.game, have)
    ).fetchone()
    if asked is not None:
        return Pending(bundle.game, bundle.index, None)
    store.db.execute(
        "INSERT OR REPLACE INTO asked (game, have, asked) VALUES (?, ?, ?)",
        (bundle.game, have, now()),
    )
    return Pending(bundle.game, bundle.index, Request(bundle.game, have, index))


def _holds(store: Store, game: str) -> tuple[str, int]:
    """The hash of the last step the store holds of ``game`` and how many it holds (the
    game's id and 0 when it holds not even the genesis: then the whole file is asked)."""
    if game not in store.ids():
        return "0" * 64, 0
    chain = store._chain(game)
    if chain.hashes:
        return chain.hashes[-1].hex(), len(chain.hashes)
    return step_hash(store.genesis(game)), 0


def take_pending(store: Store, game: str) -> list[Imported]:
    """Take every kept bundle of ``game`` that now follows the stored chain, until none
    does; a kept bundle the chain has gone past is dropped (all it held is stored)."""
    taken: list[Imported] = []
    while True:
        rows = store.db.execute(
            "SELECT id, data FROM pending WHERE game = ? ORDER BY idx, id", (game,)
        ).fetchall()
        progress = False
        for row_id, data in rows:
            bundle = decode_bundle(bytes(data), what=f"a kept step bundle of {short_id(game)}")
            joined = _joined(store, bundle)
            if joined is None:
                continue
            store.db.execute("DELETE FROM pending WHERE id = ?", (row_id,))
            taken.append(_take(store, joined, "a kept step bundle"))
            progress = True
        if not progress:
            return taken


def bundle_text(head: Head, since: int) -> str:
    """The steps of ``head`` from index ``since`` on, as a bundle, checked as an export is
    (``pbem.store.texts``): the steps a player who holds ``since`` steps lacks."""
    return head_bundle(head.store, head, since)


def bundle_name(head: Head, since: int) -> str:
    """``<ruleset>-<short id>-s<from>-s<to>-<short head hash>.steps.json``."""
    pos = head.position
    return (
        f"{pos.rules.id}-{short_id(head.game)}-s{since:04d}-s{pos.count:04d}-"
        f"{head.digest[:8]}.steps.json"
    )
