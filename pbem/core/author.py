"""Making signed steps: what a seat's own ``pbem`` does on its turn.

Every step made here goes straight through ``Replay.add``/``add_envelope``, the same checks
a recipient runs, so a command can never write a step that verification would refuse.
Per-game secrets (beacon chain, sealing keys) are derived from the identity and the game
id, so a seat needs nothing but its keyring to carry on from any machine.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pbem.core import deck
from pbem.core.canonical import b64d, b64e
from pbem.core.errors import Rejected, UsageError
from pbem.core.gamefile import Entry, Envelope, Genesis, RulesetPin, signing_message
from pbem.core.keys import Identity, IdentityCard
from pbem.core.knowledge import Knowledge
from pbem.core.randomness import chain
from pbem.core.replay import Replay
from pbem.core.rules import RulesError, Ruleset
from pbem.core.sealing import open_sealed, seal, seal_key
from pbem.core.tabletop import key_context

Entropy = Callable[[int], bytes]
DEFAULT_CHAIN = 8192


@lru_cache(maxsize=32)
def _chain(seed: bytes, length: int) -> tuple[bytes, ...]:
    return tuple(chain(seed, length))


def beacon_chain(identity: Identity, game: str, length: int) -> tuple[bytes, ...]:
    """The seat's chain for this game, head first, derived from its identity."""
    return _chain(identity.game_secret(b64d(game), "beacon"), length)


def new_game(
    rules: Ruleset,
    options: dict[str, Any],
    seats: list[IdentityCard],
    creator: Identity,
    *,
    chain_length: int = DEFAULT_CHAIN,
    entropy: Entropy = os.urandom,
) -> Replay:
    """Sign a genesis; the creator must hold one of the seats."""
    keys = [card.sign_key for card in seats]
    if creator.card.sign_key not in keys:
        raise UsageError(f"the creator {creator.card.name!r} must take one of the seats")
    game = b64e(entropy(16))
    head = beacon_chain(creator, game, chain_length)[0]
    seat = keys.index(creator.card.sign_key)
    genesis = Genesis(
        game=game,
        ruleset=RulesetPin(id=rules.id, version=rules.version, hash=rules.content_hash()),
        options=options,
        seats=seats,
        creator=keys.index(creator.card.sign_key),
        head=b64e(head),
        chain=chain_length,
        **deck_key_fields(creator, game, seat),
    )
    genesis = sign_item(creator, "genesis", genesis)
    return Replay.start(genesis, rules)


def deck_secret(identity: Identity, game: str) -> bytes:
    """The seat's per-game secret for sealed decks, derived from its identity (DESIGN §7)."""
    return deck.deck_secret(identity.root, b64d(game))


def deck_key_fields(identity: Identity, game: str, seat: int) -> dict[str, str]:
    """The seat's public deck key and the proof that it knows the secret behind it."""
    secret = deck_secret(identity, game)
    return {
        "deck_key": b64e(deck.public_key(secret)),
        "deck_proof": b64e(deck.prove_key(secret, key_context(game, seat))),
    }


def seat_of(replay: Replay, identity: Identity) -> int:
    """The seat held by ``identity``; one clear line if it holds none."""
    for index, card in enumerate(replay.genesis.seats):
        if card.sign_key == identity.card.sign_key:
            return index
    raise UsageError(f"{identity.card.name!r} holds no seat in this game")


def sign_item(identity: Identity, kind: str, item: Any) -> Any:
    signature = identity.sign(signing_message(kind, item))
    return item.model_copy(update={"signature": b64e(signature)})


def next_preimage(replay: Replay, identity: Identity, seat: int) -> str:
    """The beacon chain value the seat's next signed entry must reveal."""
    values = beacon_chain(identity, replay.genesis.game, replay.genesis.chain)
    return b64e(values[replay.revealed[seat] + 1])


def _envelope(replay: Replay, identity: Identity, seat: int, body: dict[str, Any]) -> None:
    aw = replay.awaiting
    assert aw is not None
    preimage = "" if aw.decision == "join" else next_preimage(replay, identity, seat)
    env = Envelope(
        game=replay.genesis.game,
        parent=aw.parent,
        decision=aw.decision,
        seat=seat,
        body=body,
        preimage=preimage,
    )
    replay.add_envelope(sign_item(identity, "envelope", env))


def _entry(replay: Replay, identity: Identity, seat: int, kind: str, body: dict[str, Any]) -> None:
    aw = replay.awaiting
    assert aw is not None
    entry = Entry(
        kind=kind,
        game=replay.genesis.game,
        parent=aw.parent,
        seat=seat,
        body=body,
        preimage=next_preimage(replay, identity, seat),
    )
    replay.add(sign_item(identity, kind, entry))


def seal_key_for(
    replay: Replay, identity: Identity, seat: int, parent: str, decision: str
) -> bytes:
    game = b64d(replay.genesis.game)
    return seal_key(
        lambda label, extra: identity.game_secret(game, label, extra), parent, seat, decision
    )


def automatic(replay: Replay, identity: Identity) -> int:
    """Make every step the seat owes that needs no decision: its join, its shuffle of the
    sealed decks, a beacon supply, the reveal of its sealed action once all have committed,
    decryption shares, and its deck secret at the end. Returns how many it made."""
    seat = seat_of(replay, identity)
    made = 0
    while seat in replay.remaining():
        aw = replay.awaiting
        assert aw is not None
        game = replay.genesis.game
        if aw.decision == "join":
            head = beacon_chain(identity, game, replay.genesis.chain)[0]
            body = {"head": b64e(head), **deck_key_fields(identity, game, seat)}
            _envelope(replay, identity, seat, body)
        elif aw.kind == "beacon":
            _entry(replay, identity, seat, "beacon", {})
        elif aw.decision == "beacon":
            _envelope(replay, identity, seat, {})
        elif aw.kind == "shuffle":
            body = replay.table.shuffle_body(seat, deck_secret(identity, game))
            _entry(replay, identity, seat, "shuffle", body)
        elif aw.decision == "share":
            assert replay.reveal is not None
            body = replay.table.share_body(replay.reveal, aw.parent, deck_secret(identity, game))
            _envelope(replay, identity, seat, body)
        elif aw.decision == "disclose":
            _envelope(replay, identity, seat, {"deck_secret": b64e(deck_secret(identity, game))})
        elif aw.decision.startswith("reveal:"):
            commit = replay.commit_batch()
            key = seal_key_for(replay, identity, seat, commit.parent, commit.decision)
            _envelope(replay, identity, seat, {"key": b64e(key)})
        else:
            break
        made += 1
    return made


def act(replay: Replay, identity: Identity, action: Any, *, entropy: Entropy = os.urandom) -> None:
    """Sign the seat's decision: a turn entry, an open envelope, or a sealed commitment."""
    seat = seat_of(replay, identity)
    aw = replay.awaiting
    if aw is None or seat not in replay.remaining() or aw.kind not in {"turn", "batch"}:
        raise Rejected(f"it is not {replay.names[seat]}'s move: {describe_awaiting(replay)}")
    if aw.kind == "batch" and not aw.decision.startswith(("act:", "commit:")):
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
        _entry(replay, identity, seat, "turn", {"action": data})
    elif aw.decision.startswith("act:"):
        _envelope(replay, identity, seat, {"action": data})
    else:
        key = seal_key_for(replay, identity, seat, aw.parent, aw.decision)
        body = seal(key, replay.genesis.game, aw.parent, seat, aw.decision, data, entropy)
        _envelope(replay, identity, seat, body)


def own_sealed_action(replay: Replay, identity: Identity) -> Any | None:
    """The seat's own committed action until everyone has revealed, decrypted locally."""
    seat = seat_of(replay, identity)
    aw = replay.awaiting
    if aw is None or not aw.decision.startswith(("commit:", "reveal:")):
        return None
    batch = replay.open_batch if aw.decision.startswith("commit:") else replay.commit_batch()
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
    return replay.table.known_to(seat, deck_secret(identity, replay.genesis.game))


def knowledge(replay: Replay, identity: Identity) -> Knowledge:
    """Everything the seat may know beyond the public state, and nothing else: what a bot
    holding the seat is given (``pbem.core.knowledge``)."""
    return Knowledge(
        seat_of(replay, identity),
        private_knowledge(replay, identity),
        own_sealed_action(replay, identity),
    )


def describe_awaiting(replay: Replay) -> str:
    """In words: who must do what now."""
    aw = replay.awaiting
    if aw is None:
        return "nothing"
    if aw.kind == "over":
        return "nothing: the game is over"
    names = ", ".join(replay.names[s] for s in replay.remaining())
    what = {
        "join": "to join",
        "beacon": "to supply randomness (automatic)",
        "shuffle": "to shuffle the sealed decks (automatic)",
        "share": "to send decryption shares (automatic)",
        "disclose": "to disclose their deck secrets (automatic)",
        "turn": f"to move ({aw.prompt})" if aw.prompt else "to move",
    }
    if aw.decision in what:
        return f"{names} {what[aw.decision]}"
    if aw.kind == "turn":
        return f"{names} {what['turn']}"
    kind, _, name = aw.decision.partition(":")
    if kind == "reveal":
        return f"{names} to reveal their sealed {name} (automatic)"
    if kind == "commit":
        batch = replay.open_batch
        done = ", ".join(replay.names[e.seat] for e in batch.envelopes) if batch else ""
        return (
            f"{names} to choose {name} (sealed)"
            + (f": {aw.prompt}" if aw.prompt else "")
            + (f"; committed already: {done}" if done else "")
        )
    return f"{names} to choose {name}" + (f": {aw.prompt}" if aw.prompt else "")
