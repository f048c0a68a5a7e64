"""Who must do what next, in words and as the questions commands ask (is a decision
awaited? is it this seat's?): for ``status``, ``verify``, mails and pages. Apart from
``author`` so that a command that only reads (``pbem verify``) need not import what signing
needs (escrow, dropouts, journal)."""

from __future__ import annotations

from pbem.format.card import IdentityCard
from pbem.format.gamefile import Envelope
from pbem.format.i18n import N_
from pbem.format.words import a
from pbem.ledger.position import Position


def needs_decision(position: Position) -> bool:
    """Whether the awaited seats must decide (a turn, an open or sealed choice), as opposed
    to steps pbem makes for them (join, beacon, shuffle, shares, reveals)."""
    return position.awaiting is not None and position.awaiting.is_decision


def decides(position: Position, seat: int | None) -> bool:
    """Whether ``seat`` must choose now. Not while a call or a handover is being signed,
    nor while an escrow is opened: the game waits for those first, and a call decides for
    the seats it names."""
    return (
        seat is not None
        and seat in position.remaining()
        and needs_decision(position)
        and position.interrupt is None
        and position.demand is None
    )


def waits_for(position: Position, card: IdentityCard | None) -> bool:
    """Whether the game waits for ``card``'s signature now: while a call or a handover
    is being signed, only for its signers who have not signed it yet; else for the seats
    awaited (to decide, or for a step pbem makes for them)."""
    if card is None:
        return False
    if position.interrupt is not None:
        from pbem.ledger.interruptions import still_to_sign

        return card in still_to_sign(position)
    if position.demand is not None:  # an escrow's opening: its holders, referees too
        from pbem.ledger.seats import signer_card

        holders = position.demand.seats
        return any(signer_card(position, s).sign_key == card.sign_key for s in holders)
    return any(position.cards[s].sign_key == card.sign_key for s in position.remaining())


def cosigners(position: Position, me: IdentityCard | None) -> list[IdentityCard]:
    """Who, besides ``me``, must still sign the call or handover being signed (nobody
    when none is): they must get the file, first of all."""
    if position.interrupt is None:
        return []
    from pbem.ledger.interruptions import still_to_sign

    return [c for c in still_to_sign(position) if me is None or c.sign_key != me.sign_key]


def describe_awaiting(replay: Position) -> str:
    """In words: who must do what now, and the call or handover being signed, if any
    (until it is complete, the game waits for its signers). In English, as ``--json``
    gives it; marked, so that a person reads it in their language (``i18n.localize``)."""
    awaited = _awaited(replay)
    if replay.interrupt is None:
        return awaited
    from pbem.ledger.interruptions import describe_interrupt

    being = f"{a(replay.interrupt.decision)} ({describe_interrupt(replay)})"
    return N_("{awaited}; being signed: {being}").format(awaited=awaited, being=being)


#: What the seats awaited do, by decision, for the decisions pbem names itself.
_DOING = {
    "join": N_("{names} to join"),
    "beacon": N_("{names} to supply randomness (automatic)"),
    "shuffle": N_("{names} to shuffle the sealed decks (automatic)"),
    "share": N_("{names} to send decryption shares (automatic)"),
    "disclose": N_("{names} to disclose their deck secrets (automatic)"),
}


def _awaited(replay: Position) -> str:
    aw = replay.awaiting
    if aw is None:
        return N_("nothing")
    if aw.kind == "over":
        return N_("nothing: the game is over")
    if replay.demand is not None and replay.unsealing is not None:
        from pbem.ledger.seats import signer_card

        done = {e.seat for e in replay.interrupt.envelopes} if replay.interrupt else set()
        holders = [signer_card(replay, s).name for s in replay.demand.seats if s not in done]
        return N_("{holders} to open {name}'s escrowed secret (automatic)").format(
            holders=", ".join(holders), name=replay.names[replay.unsealing]
        )
    names = ", ".join(replay.names[s] for s in replay.remaining())
    if aw.decision in _DOING:
        return _DOING[aw.decision].format(names=names)
    if aw.decision == "turn" or aw.kind == "turn":
        if aw.prompt:
            return N_("{names} to move ({prompt})").format(names=names, prompt=aw.prompt)
        return N_("{names} to move").format(names=names)
    kind, _, name = aw.decision.partition(":")
    if kind == "reveal":
        return N_("{names} to reveal their sealed {name} (automatic)").format(
            names=names, name=name
        )
    if kind == "commit":
        batch = replay.open_batch
        done = ", ".join(replay.names[e.seat] for e in batch.envelopes) if batch else ""
        said = {
            (False, False): N_("{names} to choose {name} (sealed)"),
            (True, False): N_("{names} to choose {name} (sealed): {prompt}"),
            (False, True): N_("{names} to choose {name} (sealed); committed already: {done}"),
            (True, True): N_(
                "{names} to choose {name} (sealed): {prompt}; committed already: {done}"
            ),
        }[bool(aw.prompt), bool(done)]
        return said.format(names=names, name=name, prompt=aw.prompt, done=done)
    if aw.prompt:
        return N_("{names} to choose {name}: {prompt}").format(
            names=names, name=name, prompt=aw.prompt
        )
    return N_("{names} to choose {name}").format(names=names, name=name)


def signature_due(position: Position, me: IdentityCard | None, target: str) -> list[str]:
    """The command that adds ``me``'s signature to the call or handover being signed, as
    a line, when that signature is due (else no line)."""
    batch = position.interrupt
    if not waits_for(position, me):
        return []
    if batch is None:
        opening = position.demand is not None  # nobody has made a share yet
        due = N_("your escrow share is due: pbem play {game}").format(game=target)
        return [due] if opening else []
    command = _cosign(position, batch.envelopes[0], target)
    return [N_("your signature is due: {command}").format(command=command)]


def _cosign(position: Position, first: Envelope, target: str) -> str:
    """The command that adds one's signature to the interruption ``first`` opened."""
    body = first.body
    if first.decision == "call":
        seats = " ".join(position.names[s] for s in body["seats"])
        return f"pbem call {target} {seats}" + (" --end" if body["end"] else "")
    if first.decision == "handover":
        return f"pbem handover {target} --to {body['card']['name']}"
    return f"pbem play {target}"


def owes_automatic(position: Position, seat: int | None) -> bool:
    """Whether ``seat`` is awaited for a step that needs no decision of its player."""
    aw = position.awaiting
    if seat is None or aw is None or seat not in position.remaining():
        return False
    return not aw.is_decision


def seat_of_card(position: Position, card: IdentityCard | None) -> int | None:
    if card is None:
        return None
    keys = [c.sign_key for c in position.cards]
    return keys.index(card.sign_key) if card.sign_key in keys else None
