"""A game's head as the store held it when it was read, and what one import did.

A ``Head`` is read in one transaction (``Store.reading``): the verified position, the hash
of the last step it covers and that step's items are taken from the same snapshot of the
database, so they always describe the same steps, however many processes share the store.
Its ``text()`` is that head as a game file, exactly, even after other processes have added
to the game: the steps before its open batch (or before its last step) are complete steps of
the store's chain, which never change; from there on, the head keeps the steps as it read
them (an open batch only grows, and a call answered in time is dropped); the cached state
is its position's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pbem.format import gamefile
from pbem.format.gamefile import GameFile
from pbem.ledger.position import Position
from pbem.ledger.terms import Record
from pbem.store.chain import head_label
from pbem.store.texts import head_text

if TYPE_CHECKING:
    from pbem.store.store import Store

Status = Literal["new", "updated", "merged", "duplicate", "behind"]


@dataclass
class Head:
    """A game as the store holds it: the verified position at its head, the hash of the
    last step it covers (``digest``, hex; the genesis's before any step), and the store's
    mark of that moment (``Store.head`` gives a head back unchanged while it is current)."""

    store: Store
    game: str
    position: Position
    digest: str = field(init=False)
    tail: list[tuple[bytes, list[bytes]]] = field(init=False, repr=False)
    """The steps that may still change, as the head read them: from the open batch (or
    the last step) on, each step's hash and its items' hashes."""
    mark: tuple[Any, ...] = field(init=False, repr=False)
    _text: str | None = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        self.digest, self.tail, self.mark = self.store._stamp(self.game, self.position)

    @property
    def records(self) -> list[Record]:
        """The history lines of the steps this head covers."""
        return self.store.records(self.game, upto=self.position.count)

    @property
    def label(self) -> str:
        """The head as people compare versions: steps, envelopes of an open batch, hash."""
        batch = self.position.batch
        return head_label(self.position.count, len(batch.envelopes) if batch else 0, self.digest)

    def file(self) -> GameFile:
        return gamefile.decode(self.text())

    def text(self) -> str:
        """The head as a game file, exactly as the store holds it (made once)."""
        if self._text is None:
            self._text = head_text(self.store, self)
        return self._text


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
