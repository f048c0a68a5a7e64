"""Importing a copy of a game into the store (architecture §10): what ``Store.import_game`` does.

A copy is compared with the stored chain by step hash (``pbem.store.chain``). A copy that
extends the chain, or brings envelopes of the open batch, moves the head; a copy that is
behind changes nothing and says so; a call that crossed the called seat's answer in the
mail is void; a fork or one seat signing two different steps on one parent is refused,
with both signed steps as proof, and the refused copy is kept as evidence.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from pbem.format import gamefile
from pbem.format.canonical import canonical
from pbem.format.errors import Rejected
from pbem.format.gamefile import Batch, Envelope, GameFile
from pbem.format.i18n import N_
from pbem.ledger.audit import Comparison, compare, proof_text
from pbem.ledger.interruptions import INTERRUPTIONS
from pbem.ledger.position import Position
from pbem.ledger.replay import check_cached, replay_file
from pbem.ruleset import registry
from pbem.store.chain import Chain, digest, refusal, short_id
from pbem.store.head import Head, Imported

if TYPE_CHECKING:
    from pbem.store.store import Store

#: The interruptions a step can cross in the mail (an escrow's opening cannot: nothing
#: else is signed while the game waits for it).
CROSSING = frozenset({"call", "resign", "handover"})


def import_game(store: Store, game: GameFile, label: str) -> Imported:
    """Verify ``game`` against the stored chain, verifying only what is new, and keep
    what it adds; see the module doc for what is accepted."""
    with store.writing():
        gid = game.genesis.game
        row = store.db.execute("SELECT genesis FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            return _new(store, game, label)
        if row[0] != game.genesis.canonical_bytes():
            raise _refuse(
                store,
                game,
                label,
                f"{label}: claims game {short_id(gid)} but its genesis differs from the "
                "stored one (a forgery or a damaged file)",
            )
        chain = store._chain(gid)
        imported = _known(store, game, label)
        imported.seen = chain.seen_head(game)
        return imported


def _new(store: Store, game: GameFile, label: str) -> Imported:
    rules = registry.get(game.genesis.ruleset.id)
    try:
        replay = replay_file(game, rules, store.progress)
    except Rejected as exc:
        raise _refuse(store, game, label, f"{label}: {exc}") from exc
    gid = game.genesis.game
    store.register(game.genesis)
    new = store._write(gid, replay, label)
    return Imported("new", Head(store, gid, replay), new)


def _known(store: Store, game: GameFile, label: str) -> Imported:
    gid = game.genesis.game
    chain = store._chain(gid)
    k = chain.known_prefix(game.steps)
    if k == len(game.steps) and k <= len(chain.hashes):
        return _seen(store, game, label, len(chain.hashes) - k)
    if _drop_crossed(store, gid, chain, game, k):
        return _known(store, game, label)
    head = store.head(gid)
    pos = head.position
    if k == len(chain.hashes):  # after an open batch only an interruption may come
        return _extend(store, game, label, pos, k)
    step = game.steps[k]
    last = pos.interrupt if pos.interrupt is not None else pos.batch  # still signed
    if (
        k == len(chain.hashes) - 1
        and isinstance(step, Batch)
        and last is not None
        and (step.parent, step.decision) == (last.parent, last.decision)
    ):
        return _merge(store, game, label, pos, k, last)
    if isinstance(step, Batch) and k < len(chain.hashes) and len(game.steps) == k + 1:
        stored = set(chain.items[k])
        if {digest(e.canonical_bytes()) for e in step.envelopes} <= stored:
            return _seen(store, game, label, len(chain.hashes) - k)
    if _answered(store, chain, game, k):
        return _seen(store, game, label, len(chain.hashes) - k)
    return _diverged(store, game, label, k)


def _answered(store: Store, chain: Chain, game: GameFile, k: int) -> bool:
    """The copy ends with an interruption (a call, a resignation, a handover) that crossed
    in the mail a step the store holds where the copy parts from the chain (step ``k``,
    or more envelopes of the batch before it): the step wins, the interruption is void
    (architecture §11), and the copy is behind, not a fork. (The interruption's signers'
    stores drop it when the step reaches them: ``_drop_crossed``.)"""
    last = len(game.steps) - 1
    if k not in (last - 1, last) or k >= len(chain.hashes):
        return False
    tail = game.steps[last]
    if not isinstance(tail, Batch) or tail.decision not in CROSSING or not tail.envelopes:
        return False
    stored = [store._item(d) for d in chain.items[k]]
    if k == last - 1:  # the store's batch holds more envelopes than the copy's
        mine = game.steps[k]
        if not isinstance(mine, Batch):
            return False
        if not {digest(e.canonical_bytes()) for e in mine.envelopes} < set(chain.items[k]):
            return False
    else:
        ours = [i for i in stored if isinstance(i, Envelope) and i.decision in INTERRUPTIONS]
        if ours:  # two interruptions crossed: one the game went on after stays, else the first
            went_on = len(chain.hashes) > k + 1
            return ours[0].decision in CROSSING and (went_on or _first(ours[0], tail.envelopes[0]))
    return _voided_by(tail.envelopes[0], {i.seat for i in stored})


def _drop_crossed(store: Store, gid: str, chain: Chain, game: GameFile, k: int) -> bool:
    """The stored chain ends with an interruption, and where the copy parts from the chain
    it holds a step (or more envelopes of the batch before) that crossed the interruption
    in the mail: the step wins, the interruption is void (architecture §11), and the store
    drops it. The next import then takes the copy's steps. The seats that signed it may
    sign it again on the newer head if it is still due."""
    last = len(chain.hashes) - 1
    if last < 0 or k not in (last - 1, last) or k >= len(game.steps):
        return False
    first = store._item(chain.items[last][0])
    if not isinstance(first, Envelope) or first.decision not in CROSSING:
        return False
    theirs = game.steps[k]
    if isinstance(theirs, Batch) and theirs.decision in INTERRUPTIONS:
        # two interruptions crossed: one the game went on after stays, else the first
        went_on = len(game.steps) > k + 1
        wins = went_on or _first(theirs.envelopes[0], first)
        return k == last and theirs.decision in CROSSING and wins and _drop(store, gid, last)
    items = theirs.envelopes if isinstance(theirs, Batch) else [theirs]
    new = [i for i in items if digest(i.canonical_bytes()) not in set(chain.items[k])]
    if k == last - 1 and not new:
        return False  # an older copy of the batch, not a step that crossed
    return _voided_by(first, {i.seat for i in items}) and _drop(store, gid, last)


def void_open_call(store: Store, gid: str) -> None:
    """Drop the stored chain's last step, an open call that the seat it called is about to
    void by answering (``pbem.ledger.interruptions.answer_voids_call``): the answer is
    signed on the head before it, as every other store will take it (``_drop_crossed``)."""
    chain = store._chain(gid)
    last = len(chain.hashes) - 1
    first = store._item(chain.items[last][0]) if last >= 0 else None
    if not isinstance(first, Envelope) or first.decision != "call":
        raise Rejected(N_("the store's last step is not an open call"))  # a bug of the caller
    _drop(store, gid, last)


def _drop(store: Store, gid: str, index: int) -> bool:
    """Drop the stored steps from ``index`` on (a void interruption, the chain's last)."""
    for table in ("steps", "records"):
        store.db.execute(f"DELETE FROM {table} WHERE game = ? AND idx >= ?", (gid, index))
    store.db.execute("DELETE FROM checkpoints WHERE game = ?", (gid,))
    return True


def _first(one: Envelope, other: Envelope) -> bool:
    """Of two interruptions signed on one parent that crossed in the mail (say, a call on
    a late seat and its resignation), which stays, the same in every store: one after which
    a store already went on (it holds more steps), else the one whose decision and body hash
    lower (every signer of one interruption signs the same body, so the order does not
    depend on which envelopes a store holds). The other is void, and its signers sign it
    again on the newer head if it is still wanted."""

    def rank(env: Envelope) -> bytes:
        return hashlib.sha256(env.decision.encode() + b"\0" + canonical(env.body)).digest()

    return rank(one) < rank(other)


def _voided_by(first: Envelope, signed: set[int]) -> bool:
    """Whether steps signed by the seats ``signed`` void the interruption ``first``
    opened: a call, when the seats it called had answered; a resignation or a handover,
    when any seat had moved on (it is signed again on the newer head if still wanted)."""
    if first.decision != "call":
        return bool(signed)
    called = first.body.get("seats")
    if not isinstance(called, list) or not called or any(type(s) is not int for s in called):
        return False  # not a call's body: replaying the copy refuses it
    return set(called) <= signed


def _seen(store: Store, game: GameFile, label: str, behind: int) -> Imported:
    """A copy whose steps the store holds all of: nothing new. Its cached state is
    checked all the same (against a version seen, else by replaying it once)."""
    gid = game.genesis.game
    if game.state is None:  # a step bundle: nothing new, and no cached state to check
        return Imported("duplicate" if not behind else "behind", store.head(gid), [], behind=behind)
    state = digest(canonical(game.state.model_dump(mode="json")))
    known = store.db.execute(
        "SELECT 1 FROM versions WHERE game = ? AND steps = ? AND head = ? AND state = ?",
        (gid, len(game.steps), _last(game), state.hex()),
    ).fetchone()
    if known is None:
        try:
            replay_file(game, registry.get(game.genesis.ruleset.id), store.progress)
        except Rejected as exc:
            raise _refuse(store, game, label, f"{label}: {exc}") from exc
    head = store.head(gid)
    return Imported("duplicate" if not behind else "behind", head, [], behind=behind)


def _extend(store: Store, game: GameFile, label: str, pos: Position, k: int) -> Imported:
    signatures = pos.signatures
    try:
        for n, step in enumerate(game.steps[k:], k + 1):
            pos.add(step)
            if store.progress is not None:
                store.progress(n, len(game.steps))
        check_cached(pos, game.state)
    except Rejected as exc:
        raise _refuse(store, game, label, f"{label}: {exc}") from exc
    new = store._write(game.genesis.game, pos, label)
    added = pos.signatures - signatures
    return Imported("updated", Head(store, game.genesis.game, pos), new, added)


def _merge(
    store: Store, game: GameFile, label: str, pos: Position, k: int, last: Batch
) -> Imported:
    """The copy's step ``k`` is ``last``, the batch or the interruption the stored head
    is still collecting envelopes for, with envelopes the store may lack."""
    step = game.steps[k]
    assert isinstance(step, Batch)
    mine = {e.seat: e for e in last.envelopes}
    for env in step.envelopes:
        if env.seat in mine and mine[env.seat] != env:
            c = Comparison("equivocation", k, [mine[env.seat].model_dump(), env.model_dump()])
            raise _refuse(
                store, game, label, refusal(c, label, game, pos), proof=proof_text(c.proof)
            )
    new = [e for e in step.envelopes if e.seat not in mine]
    if not new and len(game.steps) == k + 1:
        return _seen(store, game, label, 0)
    signatures = pos.signatures
    try:
        for env in new:
            pos.add_envelope(env)
        if len(game.steps) > k + 1:  # the copy's step k, as it is, then what follows
            if not set(mine) <= {e.seat for e in step.envelopes}:
                raise Rejected(
                    N_("step {number} differs from the stored one (fork)").format(number=k + 1)
                )
            for later in game.steps[k + 1 :]:
                pos.add(later)
        if set(mine) <= {e.seat for e in step.envelopes} or pos.batch is not None:
            check_cached(pos, game.state)  # the copy's own position is the merged one
    except Rejected as exc:
        raise _refuse(store, game, label, f"{label}: {exc}") from exc
    gid = game.genesis.game
    new_records = store._write(gid, pos, label)
    added = pos.signatures - signatures
    return Imported("merged", Head(store, gid, pos), new_records, added)


def _diverged(store: Store, game: GameFile, label: str, k: int) -> Imported:
    """The copy parts from the chain at step ``k``: first the copy must be valid by
    itself (else it is only a bad file), then it is a fork or an equivocation."""
    gid = game.genesis.game
    try:
        replay_file(game, registry.get(game.genesis.ruleset.id), store.progress)
    except Rejected as exc:
        raise _refuse(store, game, label, f"{label}: {exc}") from exc
    stored = store.steps(gid, k + 1)
    head = store.head(gid)
    c = compare(stored, game.steps)
    if c.relation not in {"fork", "equivocation"}:
        c = Comparison("fork", k)
    raise _refuse(
        store, game, label, refusal(c, label, game, head.position), proof=proof_text(c.proof)
    )


def _refuse(
    store: Store, game: GameFile, label: str, reason: str, proof: str | None = None
) -> Rejected:
    """Keep a refused copy as evidence (it survives the rollback of the refusing
    transaction: it is written on its own) and return the error to raise."""
    data = gamefile.encode(game).encode()
    store._evidence.append((game.genesis.game, label, reason, data))
    return Rejected(reason, detail=proof)


def _last(game: GameFile) -> bytes:
    return digest(game.steps[-1].canonical_bytes()) if game.steps else b""
