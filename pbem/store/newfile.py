"""A head written as a new file, never over another one: named by the player (``-o``), or
named by the steps it holds (``game.s0007.json``). Below ``pbem.store.store``, which
writes its exports through it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pbem.format.errors import UsageError
from pbem.format.files import write_new
from pbem.format.i18n import N_

if TYPE_CHECKING:
    from pbem.store.head import Head
    from pbem.store.store import Store


def named_file(store: Store, head: Head, target: Path, *, record: bool = True) -> Path:
    """Write ``head`` to ``target`` (``-o``), which must not exist (or hold it already);
    with ``record``, it is the game's newest export (``Store.exported``)."""
    data = head.text().encode()
    if not ((target.is_file() and target.read_bytes() == data) or write_new(target, data)):
        raise UsageError(
            N_("{target}: exists already; pbem never writes over a file").format(target=target)
        )
    if record:
        store.exported(head.game, target)
    return target


def numbered_file(
    store: Store, head: Head, folder: Path, stem: str, *, record: bool = True
) -> Path:
    """Write ``head`` into ``folder`` as ``STEM.sNNNN.json`` (``-K`` added while step NNNN
    is a batch with K envelopes): names sort in game order. A file of that name with other
    content is never written over; ``~2``, ``~3``... are tried. With ``record``, it is
    the game's newest export (``Store.exported``)."""
    data = head.text().encode()
    pos = head.position
    name = f"{stem}.s{pos.count:04d}" + (f"-{len(pos.batch.envelopes)}" if pos.batch else "")
    for n in range(1, 1000):
        target = folder / (f"{name}.json" if n == 1 else f"{name}~{n}.json")
        if (target.is_file() and target.read_bytes() == data) or write_new(target, data):
            if record:
                store.exported(head.game, target)
            return target
    raise UsageError(
        N_("{folder}: too many files named {name}~N.json").format(folder=folder, name=name)
    )
