"""Making signed steps: what a seat's own ``pbem`` does on its turn.

Every step made here goes straight through ``Replay.add``/``add_envelope``, the same checks
a recipient runs, so a command can never write a step that verification would refuse.
Per-game secrets (beacon chain, sealing keys) are derived from the identity and the game
id, so a seat needs nothing but its keyring to carry on from any machine.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import ValidationError

from pbem.crypto import deck, escrow, hpke
from pbem.crypto.keys import Identity, IdentityCard
from pbem.crypto.randomness import chain
from pbem.crypto.sealing import open_sealed, seal, seal_key
from pbem.crypto.seatsecret import derive
from pbem.format.canonical import b64d, b64e, canonical
from pbem.format.errors import Rejected, UsageError
from pbem.format.gamefile import (
    Entry,
    Envelope,
    EscrowSetup,
    Genesis,
    RulesetPin,
    Signed,
    message_for,
)
from pbem.ledger.awaiting import describe_awaiting
from pbem.ledger.interruptions import handover_info
from pbem.ledger.replay import Replay
from pbem.ledger.seats import holders
from pbem.ledger.tabletop import key_context
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import RulesError, Ruleset
from pbem.store.journal import Journal

S = TypeVar("S", bound=Signed)
Entropy = Callable[[int], bytes]
Clock = Callable[[], int]
DEFAULT_CHAIN = 8192


#: FOR TESTS ONLY: a fixed claimed time (UTC seconds) for every signature, so that seeded
#: games are the same on every run, and so that tests can move the clock (deadlines).
CLOCK_ENV = "PBEM_TEST_CLOCK"


def utc_now() -> int:
    """The signer's claimed time: whole UTC seconds. A claim, not a proof (DESIGN §11)."""
    fixed = os.environ.get(CLOCK_ENV)
    return int(fixed) if fixed is not None and fixed.isdigit() else int(time.time())


@lru_cache(maxsize=32)
def _chain(seed: bytes, length: int) -> tuple[bytes, ...]:
    return tuple(chain(seed, length))


def beacon_chain(x: bytes, game: str, length: int) -> tuple[bytes, ...]:
    """The seat's chain for this game, head first, derived from its seat secret."""
    return _chain(derive(x, b64d(game), "beacon"), length)


def new_game(
    rules: Ruleset,
    options: dict[str, Any],
    seats: list[IdentityCard],
    creator: Identity,
    *,
    deadline: int = 0,
    escrow: str = "none",
    referees: list[IdentityCard] | None = None,
    chain_length: int = DEFAULT_CHAIN,
    entropy: Entropy = os.urandom,
    clock: Clock = utc_now,
) -> Replay:
    """Sign a genesis; the creator must hold one of the seats. ``deadline``: seconds each
    decision may take before the others may call (0: no deadline); ``escrow``: who holds
    each seat's escrowed secret (``others``, ``referees`` or ``none``, DESIGN §11)."""
    keys = [card.sign_key for card in seats]
    if creator.card.sign_key not in keys:
        raise UsageError(f"the creator {creator.card.name!r} must take one of the seats")
    game = b64e(entropy(16))
    while game.startswith("-"):  # an id typed on a command line must not read as an option
        game = b64e(entropy(16))
    seat = keys.index(creator.card.sign_key)
    x = deck.deck_secret(creator.root, b64d(game))
    head = beacon_chain(x, game, chain_length)[0]
    pin = RulesetPin(id=rules.id, version=rules.version, hash=rules.content_hash())
    referees = referees or []
    setup = EscrowSetup.model_construct(mode=escrow, referees=referees, deal=None)
    genesis = Genesis.model_construct(seats=seats, creator=seat, escrow=setup)
    fields = {
        "game": game,
        "ruleset": pin.model_dump(),
        "options": options,
        "seats": [card.model_dump() for card in seats],
        "creator": seat,
        "head": b64e(head),
        "chain": chain_length,
        "deadline": deadline,
        "escrow": {
            "mode": escrow,
            "referees": [card.model_dump() for card in referees],
            "deal": escrow_deal(genesis, x, game, seat),
        },
        "time": clock(),
        **deck_key_fields(x, game, seat),
    }
    return Replay.start(sign_new(creator, Genesis, fields), rules)


def escrow_deal(genesis: Genesis, x: bytes, game: str, seat: int) -> dict[str, Any] | None:
    """The seat's secret shared among its escrow holders (DESIGN §11), or None."""
    holding = holders(genesis, seat)
    if genesis.escrow.mode == "none" or not holding:
        return None
    dealt = escrow.deal(x, [c.box_key_bytes for c in holding], game, seat)
    return escrow.encode_escrow(dealt)


def deck_secret(identity: Identity, game: str) -> bytes:
    """The seat's per-game secret for sealed decks, derived from its identity (DESIGN §7);
    everything else the seat derives for the game comes from it (``seat_secret``)."""
    return _deck_secret(identity.root, game)


@lru_cache(maxsize=32)
def _deck_secret(root: bytes, game: str) -> bytes:
    """Derived once per seat and game (an HKDF each signature cost more than its Ed25519
    signing), kept in memory only, as ``_chain`` keeps the beacon chain it derives."""
    return deck.deck_secret(root, b64d(game))


def seat_secret(replay: Replay, identity: Identity, seat: int) -> bytes:
    """The secret of ``seat`` for ``identity``: sealed to it by a handover, else derived
    from its own identity (it holds the seat from the start)."""
    sealed = replay.handed.get(seat)
    if sealed is not None and replay.cards[seat].sign_key == identity.card.sign_key:
        info = handover_info(replay.genesis.game, seat)
        return hpke.open(identity, b64d(sealed), info, b"", what="the handed-over seat secret")
    return deck_secret(identity, replay.genesis.game)


def deck_key_fields(x: bytes, game: str, seat: int) -> dict[str, str]:
    """The seat's public deck key and the proof that it knows the secret behind it."""
    return {
        "deck_key": b64e(deck.public_key(x)),
        "deck_proof": b64e(deck.prove_key(x, key_context(game, seat))),
    }


def seat_of(replay: Replay, identity: Identity) -> int:
    """The seat ``identity`` holds now (a handover moves a seat to another identity); one
    clear line if it holds none."""
    for index, card in enumerate(replay.cards):
        if card.sign_key == identity.card.sign_key:
            return index
    raise UsageError(f"{identity.card.name!r} holds no seat in this game")


def sign_new(identity: Identity, model: type[S], fields: dict[str, Any]) -> S:
    """Sign ``fields`` as a ``model`` (genesis, entry or envelope) and validate the result
    strictly, as a recipient will: what we sign is exactly what verifies."""
    kind = fields["kind"] if model is Entry else model.KIND
    signature = b64e(identity.sign(message_for(kind, fields)))
    try:
        return model.model_validate({**fields, "signature": signature})
    except ValidationError as exc:
        raise Rejected(f"cannot sign a malformed {model.__name__.lower()}: {exc}") from exc


def sign_item(identity: Identity, item: S) -> S:
    """Sign an existing object again (tests forge with it: signing is all a forger needs)."""
    fields = item.model_dump(mode="json")
    fields.pop("signature")
    return sign_new(identity, type(item), fields)


def next_preimage(replay: Replay, identity: Identity, seat: int) -> str:
    """The beacon chain value the seat's next signed entry must reveal."""
    x = seat_secret(replay, identity, seat)
    values = beacon_chain(x, replay.genesis.game, replay.genesis.chain)
    return b64e(values[replay.revealed[seat] + 1])


def _publish(
    replay: Replay,
    identity: Identity,
    model: type[S],
    fields: dict[str, Any],
    clock: Clock,
    journal: Journal | None,
    same: Callable[[Any], bool],
) -> S:
    """Sign ``fields`` now, unless the journal holds what this seat signed for this
    decision before: the same again (``same`` says so) is used as it was, anything else is
    refused, since two different signed steps on one parent are equivocation."""
    decision = fields.get("decision", fields["kind"])
    if journal is not None:
        earlier = journal.recall(fields["game"], fields["parent"], fields["seat"], decision)
        if earlier is not None:
            if same(earlier):
                return earlier
            index = replay.count if replay.batch is None else replay.count - 1
            raise Rejected(
                f"you signed a different {decision} for step {index + 1} already "
                f"({journal.where(earlier)}); pbem will not sign a second one for the same "
                "decision: that would be equivocation"
            )
    item = sign_new(identity, model, {**fields, "time": clock()})
    if journal is not None:
        journal.record(item)
    return item


def _always(earlier: Any) -> bool:
    """An automatic step signed before is used again as it was: its body is fixed, but
    for the fresh randomness of what it seals (an escrow's shares)."""
    return True


def _same_body(body: dict[str, Any]) -> Callable[[Any], bool]:
    return lambda earlier: canonical(earlier.body) == canonical(body)


def _awaited_fields(
    replay: Replay,
    seat: int,
    body: dict[str, Any],
    preimage: str,
    notes: list[dict[str, Any]] | None,
) -> dict[str, Any]:
    """What an entry and an envelope for the decision awaited now both sign."""
    assert replay.awaiting is not None
    return {
        "game": replay.genesis.game,
        "parent": replay.awaiting.parent,
        "seat": seat,
        "body": body,
        "preimage": preimage,
        "notes": notes or [],
    }


def _envelope(
    replay: Replay,
    identity: Identity,
    seat: int,
    body: dict[str, Any],
    clock: Clock,
    journal: Journal | None = None,
    same: Callable[[Any], bool] | None = None,
    notes: list[dict[str, Any]] | None = None,
) -> None:
    aw = replay.awaiting
    assert aw is not None
    preimage = "" if aw.decision == "join" else next_preimage(replay, identity, seat)
    fields = _awaited_fields(replay, seat, body, preimage, notes)
    fields |= {"kind": "envelope", "decision": aw.decision}
    item = _publish(replay, identity, Envelope, fields, clock, journal, same or _same_body(body))
    replay.add_envelope(item)


def _entry(
    replay: Replay,
    identity: Identity,
    seat: int,
    kind: str,
    body: dict[str, Any],
    clock: Clock,
    journal: Journal | None = None,
    same: Callable[[Any], bool] | None = None,
    notes: list[dict[str, Any]] | None = None,
) -> None:
    preimage = next_preimage(replay, identity, seat)
    fields = _awaited_fields(replay, seat, body, preimage, notes) | {"kind": kind}
    same = same or _same_body(body)
    replay.add(_publish(replay, identity, Entry, fields, clock, journal, same))


def seal_key_for(
    replay: Replay, identity: Identity, seat: int, parent: str, decision: str
) -> bytes:
    """The key of the seat's sealed action, derived from its seat secret (so whoever
    holds the secret, the seat or its escrow holders after a call, can reveal it)."""
    x = seat_secret(replay, identity, seat)
    game = b64d(replay.genesis.game)
    return seal_key(lambda label, extra: derive(x, game, label, extra), parent, seat, decision)


def automatic(
    replay: Replay,
    identity: Identity,
    *,
    clock: Clock = utc_now,
    journal: Journal | None = None,
) -> int:
    """Make every step the seat owes that needs no decision: its join, its shuffle of the
    sealed decks, a beacon supply, the reveal of its sealed action once all have committed,
    decryption shares, its deck secret at the end, and, as an escrow holder, its share when
    a call opens an escrow. Returns how many it made."""
    from pbem.play.rescue import check_my_shares, signer_of, unseal

    made = int(unseal(replay, identity, clock=clock, journal=journal))
    if signer_of(replay, identity) >= len(replay.cards):
        return made  # a referee: it owes nothing else
    seat = seat_of(replay, identity)
    if replay.escrows and replay.awaiting is not None and replay.awaiting.decision != "join":
        check_my_shares(replay, identity)
    while seat in replay.remaining() and replay.interrupt is None and replay.demand is None:
        aw = replay.awaiting
        assert aw is not None
        game = replay.genesis.game
        x = seat_secret(replay, identity, seat)
        if aw.decision == "join":
            head = beacon_chain(x, game, replay.genesis.chain)[0]
            body = {
                "head": b64e(head),
                **deck_key_fields(x, game, seat),
                "escrow": escrow_deal(replay.genesis, x, game, seat),
            }
            _envelope(replay, identity, seat, body, clock, journal, _always)
        elif aw.kind == "beacon":
            _entry(replay, identity, seat, "beacon", {}, clock, journal, _always)
        elif aw.decision == "beacon":
            _envelope(replay, identity, seat, {}, clock, journal, _always)
        elif aw.kind == "shuffle":
            body = replay.table.shuffle_body(seat, x, aw.parent)
            _entry(replay, identity, seat, "shuffle", body, clock, journal, _always)
        elif aw.decision == "share":
            assert replay.reveal is not None
            body = replay.table.share_body(seat, replay.reveal, aw.parent, x)
            _envelope(replay, identity, seat, body, clock, journal, _always)
        elif aw.decision == "disclose":
            secret = {"deck_secret": b64e(x)}
            _envelope(replay, identity, seat, secret, clock, journal, _always)
        elif aw.decision.startswith("reveal:"):
            commit = replay.commit
            assert commit is not None
            key = seal_key_for(replay, identity, seat, commit.parent, commit.decision)
            _envelope(replay, identity, seat, {"key": b64e(key)}, clock, journal, _always)
        else:
            break
        made += 1
    return made


def act(
    replay: Replay,
    identity: Identity,
    action: Any,
    *,
    entropy: Entropy = os.urandom,
    clock: Clock = utc_now,
    journal: Journal | None = None,
    notes: list[dict[str, Any]] | None = None,
) -> None:
    """Sign the seat's decision: a turn entry, an open envelope, or a sealed commitment,
    with ``notes`` (``pbem.crypto.notes``: JSON as signed) if any. With a ``journal``,
    signing the same decision again gives what was signed before (its notes included),
    and signing a different one is refused (DESIGN §10)."""
    seat = seat_of(replay, identity)
    aw = replay.awaiting
    if aw is None or seat not in replay.remaining() or aw.kind not in {"turn", "batch"}:
        raise Rejected(f"it is not {replay.names[seat]}'s move: {describe_awaiting(replay)}")
    if aw.kind == "batch" and not aw.is_decision:
        raise Rejected(f"nothing to decide now: {describe_awaiting(replay)}")
    try:
        replay.rules.check(replay.state, seat, action)
        if replay.table.private:
            known = private_knowledge(replay, identity)
            replay.rules.check_private(replay.state, seat, action, known)
    except RulesError as exc:
        raise Rejected(str(exc)) from exc
    data = replay.rules.dump_action(action)
    if aw.kind == "turn":
        _entry(replay, identity, seat, "turn", {"action": data}, clock, journal, notes)
    elif aw.decision.startswith("act:"):
        _envelope(replay, identity, seat, {"action": data}, clock, journal, notes=notes)
    else:
        key = seal_key_for(replay, identity, seat, aw.parent, aw.decision)
        body = seal(key, replay.genesis.game, aw.parent, seat, aw.decision, data, entropy)

        def same(earlier: Envelope) -> bool:  # the sealed action, not its fresh salt
            opened = open_sealed(
                key, earlier.body, replay.genesis.game, aw.parent, seat, aw.decision
            )
            return canonical(opened) == canonical(data)

        _envelope(replay, identity, seat, body, clock, journal, same, notes)


def own_sealed_action(replay: Replay, identity: Identity) -> Any | None:
    """The seat's own committed action until everyone has revealed, decrypted locally."""
    seat = seat_of(replay, identity)
    aw = replay.awaiting
    if aw is None or not aw.decision.startswith(("commit:", "reveal:")):
        return None
    batch = replay.open_batch if aw.decision.startswith("commit:") else replay.commit
    env = next((e for e in batch.envelopes if e.seat == seat), None) if batch else None
    if batch is None or env is None:
        return None
    key = seal_key_for(replay, identity, seat, batch.parent, batch.decision)
    return replay.rules.load_action(
        open_sealed(key, env.body, replay.genesis.game, batch.parent, seat, batch.decision)
    )


def private_knowledge(replay: Replay, identity: Identity) -> dict[str, str]:
    """Sealed items opened to this seat alone (its hand, what it peeked), decrypted here."""
    seat = seat_of(replay, identity)
    return replay.table.known_to(seat, seat_secret(replay, identity, seat))


def knowledge(replay: Replay, identity: Identity) -> Knowledge:
    """Everything the seat may know beyond the public state, and nothing else: what a bot
    holding the seat is given (``pbem.ruleset.knowledge``)."""
    return Knowledge(
        seat_of(replay, identity),
        private_knowledge(replay, identity),
        own_sealed_action(replay, identity),
    )
