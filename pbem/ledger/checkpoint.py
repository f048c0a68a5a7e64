"""Checkpoints: a verified position written down, so replay continues where it stopped.

The store keeps one per game, at its head. A checkpoint is trusted as the store itself is
(the player's own database, written only after verification, like git's objects), and only
for the exact step it was made at: the store looks it up by the hash of the last step, and a
hash covers everything signed before it, so a file that differs anywhere earlier never
meets it. It is JSON (no pickle: a database file must not be able to run code), compressed.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from pbem.crypto import escrow
from pbem.crypto.deck import Ciphertext
from pbem.crypto.group import Point, stored_point
from pbem.format.card import IdentityCard
from pbem.format.gamefile import Batch, Envelope, Genesis
from pbem.ledger.position import Position
from pbem.ledger.seats import holders
from pbem.ledger.tabletop import PrivateReveal, Tabletop
from pbem.ledger.terms import Awaiting
from pbem.ruleset.rules import Reshuffle, Result, Reveal, Ruleset

VERSION = 3
"""Version 3 keeps ``links`` (the chain links of open seats taken for a batch, which a draw
after a later batch still reads); a checkpoint of another version is made again from the
stored steps (``Store.head``)."""

#: Fields of a ``Position`` a checkpoint does not keep, and why: the rules and the genesis
#: are the store's already; the names are the cards'; the history lines and the items taken
#: are written to the store with the checkpoint; ``last`` is the open batch or interruption;
#: ``proven`` is a page's walk's alone (a position read back checks every new step in full).
NOT_KEPT = frozenset(
    {"rules", "genesis", "genesis_hash", "names", "records", "taken", "last", "proven"}
)


class CheckpointError(ValueError):
    """A checkpoint that cannot be restored: another version, or damaged. The store then
    verifies the stored steps again (they are the record; a checkpoint only saves time)."""


def _points(values: list[bytes]) -> list[str]:
    return [v.hex() for v in values]


def _cts(cts: list[Ciphertext]) -> list[list[str]]:
    return [[ct.c1.hex(), ct.c2.hex()] for ct in cts]


def _point(text: str) -> Point:
    """Points are kept in hex: a checkpoint is read at every command, and hex is what
    Python decodes fastest."""
    return stored_point(bytes.fromhex(text))


def _uncts(data: list[list[str]]) -> list[Ciphertext]:
    return [Ciphertext(_point(c1), _point(c2)) for c1, c2 in data]


def _model(value: Any) -> Any:
    return value.model_dump(mode="json") if value is not None else None


def _batch(batch: Batch | None) -> Any:
    if batch is None:
        return None
    return {
        "parent": batch.parent,
        "decision": batch.decision,
        "envelopes": [e.model_dump(mode="json") for e in batch.envelopes],
    }


def _unbatch(data: Any) -> Batch | None:
    if data is None:
        return None
    envelopes = [Envelope.model_validate(e) for e in data["envelopes"]]
    return Batch.model_construct(
        kind="batch", parent=data["parent"], decision=data["decision"], envelopes=envelopes
    )


def _table(table: Tabletop) -> dict[str, Any]:
    return {
        "keys": _points(table.keys),
        "items": table.items,
        "decks": {name: _cts(cts) for name, cts in table.decks.items()},
        "passes": {
            name: [[seat, _cts(after)] for seat, after in passes]
            for name, passes in table.passes.items()
        },
        "unshuffled": table.unshuffled,
        "private": [
            {
                "to": p.to,
                "handles": p.handles,
                "cts": _cts(p.cts),
                "shares": [_points(s) for s in p.shares],
            }
            for p in table.private
        ],
    }


def _untable(game: str, data: dict[str, Any]) -> Tabletop:
    return Tabletop(
        game,
        [_point(k) if k else b"" for k in data["keys"]],
        items=data["items"],
        decks={name: _uncts(cts) for name, cts in data["decks"].items()},
        passes={
            name: [(seat, _uncts(after)) for seat, after in passes]
            for name, passes in data["passes"].items()
        },
        unshuffled=data["unshuffled"],
        private=[
            PrivateReveal(
                p["to"],
                p["handles"],
                _uncts(p["cts"]),
                [[_point(s) for s in x] for x in p["shares"]],
            )
            for p in data["private"]
        ],
    )


def snapshot(pos: Position) -> bytes:
    """The position as compressed JSON (everything but the rules and the genesis, which
    the store keeps already, and the history lines, which it keeps per step)."""
    awaiting = None if pos.awaiting is None else _awaiting(pos.awaiting)
    data = {
        "version": VERSION,
        "count": pos.count,
        "signatures": pos.signatures,
        "state": _model(pos.state),
        "beacons": _points(pos.beacons),
        "revealed": pos.revealed,
        "heads": _points(pos.heads),
        "awaiting": awaiting,
        "result": _model(pos.result),
        "table": _table(pos.table) if pos.table is not None else None,
        "reveal": _model(pos.reveal),
        "final": _model(pos.final),
        "reshuffle": _model(pos.reshuffle),
        "author": pos.author,
        "setup_draw": pos.setup_draw,
        "commit": _batch(pos.commit),
        "batch": _batch(pos.batch),
        "sealed": {str(s): pos.rules.dump_action(a) for s, a in pos.sealed.items()},
        "shares": {str(s): _points(v) for s, v in pos.shares.items()},
        "secrets": {str(s): v.hex() for s, v in pos.secrets.items()},
        "cards": [c.model_dump() for c in pos.cards],
        "escrows": {str(s): escrow.encode_escrow(e) for s, e in pos.escrows.items()},
        "published": {str(s): v.hex() for s, v in pos.published.items()},
        "resigned": sorted(pos.resigned),
        "handed": {str(s): v for s, v in pos.handed.items()},
        "latest": pos.latest,
        "since": pos.since,
        "interrupt": _batch(pos.interrupt),
        "virtual": {str(s): _virtual(pos, v) for s, v in pos.virtual.items()},
        "unsealing": pos.unsealing,
        "demand": None if pos.demand is None else _awaiting(pos.demand),
        "frozen": pos.frozen,
        "batch_at": pos.batch_at,
        "tail": pos.tail,
        "links": {str(s): v.hex() for s, v in pos.links.items()},
    }
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 6)


def restore(blob: bytes, genesis: Genesis, genesis_hash: str, rules: Ruleset) -> Position:
    """The position a ``snapshot`` wrote, for the game of ``genesis``; ``CheckpointError``
    when the blob is of another version or cannot be read."""
    try:
        data = json.loads(zlib.decompress(blob))
        if not isinstance(data, dict) or data.get("version") != VERSION:
            version = data.get("version") if isinstance(data, dict) else None
            raise CheckpointError(f"checkpoint version {version!r}, not {VERSION}")
        return _restore(data, genesis, genesis_hash, rules)
    except CheckpointError:
        raise
    except (zlib.error, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise CheckpointError(f"damaged checkpoint ({type(exc).__name__})") from exc


def _restore(data: dict[str, Any], genesis: Genesis, genesis_hash: str, rules: Ruleset) -> Position:
    aw = data["awaiting"]
    cards = [IdentityCard.model_validate(c) for c in data["cards"]]
    pos = Position(
        rules=rules,
        genesis=genesis,
        genesis_hash=genesis_hash,
        names=[card.name for card in cards],  # the seats' in force: a handover renames one
        count=data["count"],
        signatures=data["signatures"],
        state=rules.load_state(data["state"]) if data["state"] is not None else None,
        beacons=[bytes.fromhex(v) for v in data["beacons"]],
        revealed=data["revealed"],
        heads=[bytes.fromhex(v) for v in data["heads"]],
        awaiting=None if aw is None else _unawaiting(aw),
        result=Result.model_validate(data["result"]) if data["result"] else None,
        table=_untable(genesis.game, data["table"]) if data["table"] is not None else None,
        reveal=Reveal.model_validate(data["reveal"]) if data["reveal"] else None,
        final=Result.model_validate(data["final"]) if data["final"] else None,
        reshuffle=Reshuffle.model_validate(data["reshuffle"]) if data["reshuffle"] else None,
        author=data["author"],
        setup_draw=data["setup_draw"],
        commit=_unbatch(data["commit"]),
        batch=_unbatch(data["batch"]),
        sealed={int(s): rules.load_action(a) for s, a in data["sealed"].items()},
        shares={int(s): [_point(p) for p in v] for s, v in data["shares"].items()},
        secrets={int(s): bytes.fromhex(v) for s, v in data["secrets"].items()},
        cards=cards,
        published={int(s): bytes.fromhex(v) for s, v in data["published"].items()},
        resigned=set(data["resigned"]),
        handed={int(s): v for s, v in data["handed"].items()},
        latest=data["latest"],
        since=data["since"],
        interrupt=_unbatch(data["interrupt"]),
        unsealing=data["unsealing"],
        demand=None if data["demand"] is None else _unawaiting(data["demand"]),
        frozen=data["frozen"],
        batch_at=data["batch_at"],
        tail=data["tail"],
        links={int(s): bytes.fromhex(v) for s, v in data["links"].items()},
    )
    pos.escrows = {
        int(s): escrow.decode_escrow(e, len(holders(genesis, int(s))))
        for s, e in data["escrows"].items()
    }
    pos.virtual = {int(s): _unvirtual(pos, v) for s, v in data["virtual"].items()}
    pos.last = pos.interrupt or pos.batch
    return pos


def _awaiting(aw: Awaiting) -> list[Any]:
    return [aw.kind, list(aw.seats), aw.parent, aw.decision, aw.prompt]


def _unawaiting(data: list[Any]) -> Awaiting:
    return Awaiting(data[0], tuple(data[1]), data[2], data[3], data[4])


def _virtual(pos: Position, value: Any) -> Any:
    """A contribution made in the open: a stand-in's action, a secret, shares, a link."""
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, list):
        return {"points": _points(value)}
    return {"action": pos.rules.dump_action(value)}


def _unvirtual(pos: Position, data: dict[str, Any]) -> Any:
    if "bytes" in data:
        return bytes.fromhex(data["bytes"])
    if "points" in data:
        return [_point(p) for p in data["points"]]
    return pos.rules.load_action(data["action"])
