"""A head as the bytes that leave the store: a game file (``head_text``) or a step bundle
(``head_bundle``), each checked before it is handed out (architecture §10: bytes written are
bytes verified). Read back strictly as a recipient reads them, every step must hash as the
store's verified chain says, and a file's cached state must cover exactly those steps; a
difference is a bug in pbem (``InternalError``: exit 3, nothing written or mailed)."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from pbem.format import gamefile
from pbem.format.bundle import decode_bundle, encode_bundle
from pbem.format.canonical import pretty
from pbem.format.errors import InternalError
from pbem.format.gamefile import FORMAT, CachedState
from pbem.format.i18n import N_
from pbem.store.chain import digest, short_id
from pbem.store.db import damaged, unpack

if TYPE_CHECKING:
    from pbem.store.head import Head
    from pbem.store.store import Store


def head_text(store: Store, head: Head) -> str:
    """The game file of ``head``: its steps as the store keeps their bytes, and its
    position's cached state: the store's complete steps up to the head's open batch (or
    its last step), which never change, then the steps from there as the head read them
    (an open batch may have grown since, a call been dropped). Checked before it is
    handed out (architecture §10: bytes written are bytes verified): read back strictly,
    every step must hash as the head says, and the cached state must cover exactly
    those steps. A difference, or a position changed after it was read, is a bug:
    ``InternalError``, and nothing is written or mailed."""
    genesis, values, hashes, stored = _head_steps(store, head)
    cached = head.position.cached()
    text = pretty(
        {
            "format": FORMAT,
            "genesis": json.loads(genesis),
            "steps": values,
            "state": cached.model_dump(mode="json"),
        }
    )
    _check_export(store, head.game, text, hashes, cached, stored)
    return text


def head_bundle(store: Store, head: Head, since: int) -> str:
    """The steps of ``head`` from index ``since`` on as a step bundle (``schemas/format.md``
    §10), checked as ``head_text`` checks a file."""
    genesis, values, hashes, stored = _head_steps(store, head)
    after = hashes[since - 1].hex() if since else hashlib.sha256(genesis).hexdigest()
    text = encode_bundle(head.game, after, since, values[since:])
    copy = decode_bundle(text, what=f"the step bundle of game {short_id(head.game)}")
    steps, mine = copy.steps, hashes[since:]
    if len(steps) != len(mine) or not all(steps.matches(i, h) for i, h in enumerate(mine)):
        _changed_on_disk(store, head.game, steps, mine, stored - since)
        raise InternalError(
            N_(
                "game {short_id}: the steps about to be mailed are not what the "
                "store verified; nothing was sent"
            ).format(short_id=short_id(head.game))
        )
    return text


def _head_steps(store: Store, head: Head) -> tuple[bytes, list[Any], list[bytes], int]:
    """The genesis's bytes, the steps ``head`` covers, as JSON values and hashes, and how
    many of them come from the stored chain (the rest from the head itself)."""
    game, pos = head.game, head.position
    if head.mark[1:] != (pos.signatures, len(pos.taken)):
        raise InternalError(
            N_("game {short_id}: a head was changed after it was read").format(
                short_id=short_id(game)
            )
        )
    start = pos.count - len(head.tail)
    with store.reading():
        genesis = store.db.execute("SELECT genesis FROM games WHERE id = ?", (game,)).fetchone()
        chain = store._chain(game)
        if len(chain.hashes) < start:
            raise InternalError(
                N_(
                    "game {short_id}: the steps of the head read at {label} are no "
                    "longer in the store"
                ).format(short_id=short_id(game), label=head.label)
            )
        rows = [*chain.items[:start], *(items for _, items in head.tail)]
        values = _step_values(store, game, rows)
    hashes = [*chain.hashes[:start], *(digest for digest, _ in head.tail)]
    return bytes(genesis[0]), values, hashes, start


def _step_values(store: Store, game: str, rows: list[list[bytes]]) -> list[Any]:
    """The steps of ``rows`` (each its items' hashes) as JSON values, straight from the
    stored bytes (no models)."""
    items = dict(store.db.execute("SELECT hash, data FROM items WHERE game = ?", (game,)))
    out = []
    for digests in rows:
        values = [_item_value(items, d) for d in digests]
        if values[0]["kind"] == "envelope":
            first = values[0]
            batch = {"decision": first["decision"], "envelopes": values, "kind": "batch"}
            out.append({**batch, "parent": first["parent"]})
        else:
            out.append(values[0])
    return out


def _item_value(items: dict[bytes, bytes], key: bytes) -> Any:
    """An item's JSON value from its stored bytes, which must still hash to ``key`` (the
    store keeps items by hash: anything else is a damaged store, not a bug)."""
    data = unpack(items[key]) if key in items else None
    if data is None or digest(data) != key:
        raise damaged(
            (N_("item {item} is changed") if data else N_("item {item} is missing")).format(
                item=key.hex()[:12]
            )
        )
    return json.loads(data)


def _check_export(
    store: Store, game: str, text: str, hashes: list[bytes], cached: CachedState, stored: int
) -> None:
    """The bytes about to be written or mailed, read back as any recipient reads them:
    every step must be the stored, verified one, and the cached state must cover them all.
    A difference is a bug in pbem (``InternalError``: exit 3, nothing written or sent),
    unless the store was changed on disk (``_changed_on_disk``)."""
    copy = gamefile.decode(text, what=f"the export of game {short_id(game)}", lazy=True)
    steps = copy.steps
    assert isinstance(steps, gamefile.Steps)
    same = len(steps) == len(hashes) and all(steps.matches(i, h) for i, h in enumerate(hashes))
    if not same:
        _changed_on_disk(store, game, steps, hashes, stored)
    if not same or copy.state != cached or cached.steps != len(hashes):
        raise InternalError(
            N_(
                "game {short_id}: the file about to be written is not what the store "
                "verified; nothing was written or sent"
            ).format(short_id=short_id(game))
        )


def _changed_on_disk(
    store: Store, game: str, steps: gamefile.Steps, hashes: list[bytes], stored: int
) -> None:
    """One of the first ``stored`` steps, made of items that hash as the store keeps them
    (``_item_value``), does not hash as the store's chain says: the chain was changed on
    disk, and the store is damaged (exit 2), not pbem wrong."""
    if len(steps) != len(hashes):
        return
    changed = next((i for i in range(max(stored, 0)) if not steps.matches(i, hashes[i])), None)
    if changed is not None:
        why = f"the hash of a step of game {short_id(game)} is changed"
        raise damaged(why, store.home)
