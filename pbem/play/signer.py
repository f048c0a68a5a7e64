"""How a seat signs (architecture §4, §5, §10): its claimed time, its per-game secrets (the
beacon chain, the deck secret, a handed-over seat's secret, the key of a sealed action),
all derived from the identity and the game id, so that a seat needs nothing but its keyring
to carry on from any machine; and the one way an entry or an envelope is published: the
journal first (``pbem.store.journal``), so that a seat never signs two different steps for
one decision, then straight through ``Replay.add``/``add_envelope``, the checks every
recipient runs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Protocol, TypeVar

from pbem.crypto import deck, escrow, hpke
from pbem.crypto.keys import Identity
from pbem.crypto.randomness import chain
from pbem.crypto.sealing import seal_key
from pbem.crypto.seatsecret import derive
from pbem.crypto.signatures import sign_new
from pbem.format.canonical import b64d, b64e, canonical
from pbem.format.errors import Rejected, UsageError
from pbem.format.gamefile import Entry, Envelope, Genesis, Signed
from pbem.ledger.interruptions import handover_info
from pbem.ledger.replay import Replay
from pbem.ledger.seats import holders
from pbem.ledger.tabletop import key_context
from pbem.store.journal import decision as decision_of

S = TypeVar("S", bound=Signed)
Entropy = Callable[[int], bytes]
Clock = Callable[[], int]
DEFAULT_CHAIN = 8192


#: FOR TESTS ONLY: a fixed claimed time (UTC seconds) for every signature, so that seeded
#: games are the same on every run, and so that tests can move the clock (deadlines).
CLOCK_ENV = "PBEM_TEST_CLOCK"


def utc_now() -> int:
    """The signer's claimed time: whole UTC seconds. A claim, not a proof (architecture §11)."""
    fixed = os.environ.get(CLOCK_ENV)
    return int(fixed) if fixed is not None and fixed.isdigit() else int(time.time())


@lru_cache(maxsize=32)
def _chain(seed: bytes, length: int) -> tuple[bytes, ...]:
    return tuple(chain(seed, length))


def beacon_chain(x: bytes, game: str, length: int) -> tuple[bytes, ...]:
    """The seat's chain for this game, head first, derived from its seat secret."""
    return _chain(derive(x, b64d(game), "beacon"), length)


def escrow_deal(genesis: Genesis, x: bytes, game: str, seat: int) -> dict[str, Any] | None:
    """The seat's secret shared among its escrow holders (architecture §11), or None."""
    holding = holders(genesis, seat)
    if genesis.escrow.mode == "none" or not holding:
        return None
    dealt = escrow.deal(x, [c.box_key_bytes for c in holding], game, seat)
    return escrow.encode_escrow(dealt)


def deck_secret(identity: Identity, game: str) -> bytes:
    """The seat's per-game secret for sealed decks, derived from its identity (architecture §7);
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
        x = hpke.open(identity, b64d(sealed), info, b"", what="the handed-over seat secret")
        if replay.table is not None and not _is_secret_of(x, replay.table.keys[seat]):
            # Only the substitute can open it, so only here can it be found wrong: at once,
            # by name, rather than at the seat's first decryption, in the deck's words.
            raise Rejected(
                f"the seat {seat} was handed over to {identity.card.name} with a secret that "
                "is not the seat's (it does not match the seat's deck key): the seat cannot be "
                "played with it; once its deadline passes, the other players can call it"
            )
        return x
    return deck_secret(identity, replay.genesis.game)


def _is_secret_of(x: bytes, key: bytes) -> bool:
    try:
        return deck.public_key(x) == key
    except (Rejected, ValueError):
        return False


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


def next_preimage(replay: Replay, identity: Identity, seat: int) -> str:
    """The beacon chain value the seat's next signed entry must reveal."""
    x = seat_secret(replay, identity, seat)
    values = beacon_chain(x, replay.genesis.game, replay.genesis.chain)
    return b64e(values[replay.revealed[seat] + 1])


class Remembers(Protocol):
    """What signing asks of a journal (``pbem.store.journal.Journal``, or ``MemoryJournal``):
    what this seat signed for a decision, to keep what it signs, and where it went."""

    def recall(
        self, game: str, parent: str, seat: int, decision: str
    ) -> Entry | Envelope | None: ...

    def record(self, item: Entry | Envelope) -> None: ...

    def where(self, item: Entry | Envelope) -> str: ...


class MemoryJournal:
    """A journal kept in memory, for signing with no store: a self-played game's, and the
    process's own (``PROCESS_JOURNAL``) for whatever signs without a journal, so that the
    low-level ``act`` cannot sign two different moves for one decision on two copies of a
    position either (architecture §10). It lasts as long as the object does."""

    def __init__(self) -> None:
        self._items: dict[tuple[str, str, int, str], Entry | Envelope] = {}

    def recall(self, game: str, parent: str, seat: int, decision: str) -> Entry | Envelope | None:
        return self._items.get((game, parent, seat, decision))

    def record(self, item: Entry | Envelope) -> None:
        self._items[(item.game, item.parent, item.seat, decision_of(item))] = item

    def where(self, item: Entry | Envelope) -> str:
        return "in this process: not in any store"

    def clear(self) -> None:
        """Forget everything (a test that plays a new table in the same process)."""
        self._items.clear()


#: What was signed in this process with no journal given (see ``MemoryJournal``).
PROCESS_JOURNAL = MemoryJournal()


def _publish(
    replay: Replay,
    identity: Identity,
    model: type[S],
    fields: dict[str, Any],
    clock: Clock,
    journal: Remembers | None,
    same: Callable[[Any], bool],
) -> S:
    """Sign ``fields`` now, unless the journal (the process's own when none is given) holds
    what this seat signed for this decision before: the same again (``same`` says so) is
    used as it was, anything else is refused, since two different signed steps on one parent
    are equivocation."""
    decision = fields.get("decision", fields["kind"])
    journal = PROCESS_JOURNAL if journal is None else journal
    earlier = journal.recall(fields["game"], fields["parent"], fields["seat"], decision)
    if earlier is not None:
        if same(earlier):
            return earlier  # type: ignore[return-value]
        index = replay.count if replay.batch is None else replay.count - 1
        raise Rejected(
            f"you signed a different {decision} for step {index + 1} already "
            f"({journal.where(earlier)}); pbem will not sign a second one for the same "
            "decision: that would be equivocation"
        )
    item = sign_new(identity, model, {**fields, "time": clock()})
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
    journal: Remembers | None = None,
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
    journal: Remembers | None = None,
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
