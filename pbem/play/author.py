"""Making signed steps: what a seat's own ``pbem`` does on its turn: a new game's genesis,
the steps a seat owes without a decision (``automatic``), its decisions (``act``), and
what it may know that others may not (its hand, its peeks, its own sealed action).

Every step made here goes through ``pbem.play.signer`` and so through the same checks a
recipient runs: a command can never write a step that verification would refuse.
"""

from __future__ import annotations

import os
from typing import Any

from pbem.crypto import deck
from pbem.crypto.keys import Identity
from pbem.crypto.sealing import open_sealed, seal
from pbem.crypto.signatures import sign_new
from pbem.format.canonical import b64d, b64e, canonical
from pbem.format.card import IdentityCard
from pbem.format.errors import Rejected, UsageError
from pbem.format.gamefile import Envelope, EscrowSetup, Genesis, RulesetPin
from pbem.ledger.awaiting import describe_awaiting
from pbem.ledger.replay import Replay
from pbem.play.rescue import check_my_shares, signer_of, unseal
from pbem.play.signer import (
    DEFAULT_CHAIN,
    Clock,
    Entropy,
    Remembers,
    _always,
    _entry,
    _envelope,
    beacon_chain,
    deck_key_fields,
    escrow_deal,
    seal_key_for,
    seat_of,
    seat_secret,
    utc_now,
)
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import RulesError, Ruleset


def default_escrow(seats: int) -> str:
    """Who holds the seats' escrowed secrets when the creator does not say (architecture
    §11): the other seats with three or more, nobody with two (the other player would
    hold them alone)."""
    return "others" if seats >= 3 else "none"


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
    each seat's escrowed secret (``others``, ``referees`` or ``none``, architecture §11)."""
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
    replay = Replay.start(sign_new(creator, Genesis, fields), rules)  # checks the options
    try:  # and what needs the number of seats (a start seat), before anything is kept
        rules.setup(options, len(seats))
    except RulesError as exc:
        raise UsageError(f"{rules.id}: {exc}") from exc
    return replay


def automatic(
    replay: Replay,
    identity: Identity,
    *,
    clock: Clock = utc_now,
    journal: Remembers | None = None,
) -> int:
    """Make every step the seat owes that needs no decision: its join, its shuffle of the
    sealed decks, a beacon supply, the reveal of its sealed action once all have committed,
    decryption shares, its deck secret at the end, and, as an escrow holder, its share when
    a call opens an escrow. Returns how many it made."""
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
    journal: Remembers | None = None,
    notes: list[dict[str, Any]] | None = None,
) -> None:
    """Sign the seat's decision: a turn entry, an open envelope, or a sealed commitment,
    with ``notes`` (``pbem.crypto.notes``: JSON as signed) if any. Signing the same
    decision again gives what was signed before (its notes included), and signing a
    different one is refused (architecture §10): the ``journal`` remembers, the store's for
    a player, else the process's own (``pbem.play.signer.PROCESS_JOURNAL``), so that two
    copies of one position cannot get two different moves even here."""
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
