"""``pbem status``, ``moves`` and ``log``: looking at a game. Reading never signs and never
writes a game file (architecture §10): these import the file they are given, so the store knows
what the player has seen, and say so when it was behind; when the player owes automatic
steps they name the command that makes them. A passphrase is asked only to decrypt the
player's own private items (``--as``)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import click

from pbem.cli.common import (
    acting_card,
    as_option,
    awaited,
    complete_own_identity,
    emit,
    game_argument,
    identity,
    json_option,
    own_card,
    read_as,
    reports_errors,
    said_read,
)
from pbem.cli.progress import Progress
from pbem.format.errors import UsageError
from pbem.format.i18n import N_, _, localize, ngettext

if TYPE_CHECKING:  # the core is imported by the command that runs: a TAB completes without it
    from pbem.format.card import IdentityCard
    from pbem.ledger.position import Position
    from pbem.store.exports import Opened
    from pbem.store.store import Store


def _owed(opened: Opened, target: str, seat: int | None) -> list[str]:
    from pbem.ledger.awaiting import describe_awaiting, owes_automatic

    if owes_automatic(opened.position, seat):
        return [
            _("you owe an automatic step ({what}): pbem play {game} makes it").format(
                what=localize(describe_awaiting(opened.position)), game=target
            )
        ]
    return []


def _needs_secrets(position: Position, seat: int) -> bool:
    """Whether the seat has anything private to decrypt here: items opened to it alone,
    or its own sealed choice still sealed."""
    aw = position.awaiting
    batch = None
    if aw is not None and aw.decision.startswith("commit:"):
        batch = position.batch
    elif aw is not None and aw.decision.startswith("reveal:"):
        batch = position.commit
    sealed = batch is not None and any(e.seat == seat for e in batch.envelopes)
    opened = position.table is not None and any(p.to == seat for p in position.table.private)
    return sealed or opened


@click.command()
@game_argument
@as_option
@json_option
@reports_errors
def status(target: str, as_name: str | None, as_json: bool) -> None:
    """Show the table, and what is awaited from whom (GAME: a file or a stored game's id)."""
    from pbem.ledger.awaiting import seat_of_card, signature_due
    from pbem.ledger.deadlines import due, waiting
    from pbem.play.signer import utc_now
    from pbem.store.exports import open_game
    from pbem.store.store import Store

    store = Store(progress=Progress())
    opened = open_game(store, target)
    pos = opened.position
    me = own_card(as_name, pos.cards)
    seat = seat_of_card(pos, me)
    board = pos.rules.render_text(pos.state, pos.names) if pos.state is not None else ""
    report: dict[str, Any] = {
        "game": pos.genesis.game,
        "ruleset": pos.rules.id,
        "steps": pos.count,
        **awaited(pos),
        "view": pos.rules.view(pos.state, None) if pos.state is not None else None,
        **said_read(opened, store, as_json),
    }
    out = [
        _("{ruleset} game {game}, step {step}").format(
            ruleset=pos.rules.id, game=pos.genesis.game, step=pos.count
        )
    ]
    seat_line = _("seat {i}: {name} <{email}> [{fingerprint}]")
    out += [
        "  " + seat_line.format(i=i, name=c.name, email=c.email, fingerprint=c.fingerprint)
        for i, c in enumerate(pos.cards)
    ]
    if board:
        out.append(board)
    referee = me is not None and me in pos.genesis.escrow.referees
    if as_name is not None and seat is None and not referee:
        raise UsageError(
            N_("{name!r} holds no seat in this game and is no referee").format(name=as_name)
        )
    mine = me.name if me is not None and seat is not None else None
    try:
        if mine is not None and _needs_secrets(pos, seat):
            out += _private(pos, seat, mine, report)
        notes = _recent_notes(store, opened, mine, seat)
    except UsageError as exc:
        if as_name is not None or os.environ.get("PBEM_AS"):
            raise
        out.append(_("(your private view is not shown: {why})").format(why=localize(str(exc))))
        notes = _recent_notes(store, opened, None, seat)
    if pos.result is not None:
        result = pos.result
        report["result"] = result.model_dump()
        winners = ", ".join(pos.names[s] for s in result.winners)
        scores = ", ".join(f"{n} {s}" for n, s in zip(pos.names, result.scores, strict=True))
        out.append(
            _("game over: {winners} won; scores {scores}").format(winners=winners, scores=scores)
        )
    report["notes"] = notes
    if notes:
        out.append(_("notes in the last steps:"))
        note_line = _("step {step}: {text}")
        out += ["  " + note_line.format(step=n["step"], text=n["text"]) for n in notes]
    out.append(_("awaiting: {next}").format(next=localize(report["next"])))
    waited = waiting(pos, utc_now())
    if waited:
        out.append(localize(waited))
    report["waiting"] = waited
    report["deadline"] = due(pos)
    out += signature_due(pos, me, target)
    out += _owed(opened, target, seat)
    emit(as_json, report, out)


#: ``status`` shows the notes signed into this many of the last steps.
RECENT = 3


def _recent_notes(
    store: Store, opened: Opened, as_name: str | None, seat: int | None
) -> list[dict[str, Any]]:
    """The notes of the last steps (the open batch included); sealed ones to ``as_name``
    decrypted here, which asks its passphrase only when there is one to open."""
    from pbem.crypto.notes import step_notes

    pos = opened.position
    first = max(0, pos.count - RECENT)
    steps = store.steps(opened.head.game, since=first)
    recent = [(first + k, step_notes(step)) for k, step in enumerate(steps)]
    if as_name is not None and any(n.to == seat for _, shown in recent for n in shown):
        reader = identity(as_name, pos.cards)
        recent = [(i, step_notes(steps[i - first], reader, seat)) for i, _ in recent]
    return [{"step": i + 1, "text": n.line(pos.names, seat)} for i, shown in recent for n in shown]


def _known(
    pos: Position, seat: int, me: IdentityCard, as_name: str | None
) -> dict[str, str] | None:
    """What the seat privately knows, so that ``moves`` offers no move its ``pbem`` would
    refuse to sign (T-7.3: a region card that cannot protect that class); None when
    nothing is private, or when the identity was implied and cannot be opened unasked."""
    from pbem.play.author import private_knowledge

    if not _needs_secrets(pos, seat):
        return None
    try:
        return private_knowledge(pos, identity(me.name, pos.cards))
    except UsageError:
        if as_name is not None or os.environ.get("PBEM_AS"):
            raise
        return None


def _private(pos: Position, seat: int, as_name: str, report: dict[str, Any]) -> list[str]:
    """What only ``as_name`` may see, decrypted here with its own keys."""
    from pbem.play.author import own_sealed_action, private_knowledge

    me = identity(as_name, pos.cards)
    out = []
    known = private_knowledge(pos, me)
    if known and pos.state is not None:
        report["private"] = known
        out.append(_("only you know (decrypted here):"))
        out.append(pos.rules.render_private(pos.state, seat, known))
    sealed = own_sealed_action(pos, me)
    if sealed is not None:
        text = pos.rules.format_action(pos.state, seat, sealed)
        report["own_sealed"] = text
        out.append(_("your sealed choice (only you can see it): {choice}").format(choice=text))
    return out


@click.command()
@game_argument
@as_option
@click.option("--limit", default=30, show_default=True, help="List at most this many moves.")
@json_option
@reports_errors
def moves(target: str, as_name: str | None, limit: int, as_json: bool) -> None:
    """List your legal moves now by name, each with its notation (ids) in brackets where
    it differs: either may be typed to pbem play."""
    from pbem.ledger.awaiting import decides, describe_awaiting, needs_decision, seat_of_card
    from pbem.ledger.interruptions import answer_voids_call, describe_interrupt
    from pbem.play.naming import named_moves
    from pbem.store.exports import open_game
    from pbem.store.store import Store

    store = Store(progress=Progress())
    opened = open_game(store, target)
    pos = opened.position
    me = acting_card(as_name, pos.cards)
    seat = seat_of_card(pos, me)
    if seat is None:
        raise UsageError(N_("{name!r} holds no seat in this game").format(name=me.name))
    read = said_read(opened, store, as_json)
    aw = pos.awaiting
    voids = needs_decision(pos) and answer_voids_call(pos, seat)  # it may still answer
    if not decides(pos, seat) and not voids:
        report = {"moves": [], **awaited(pos), **read}
        lines = [
            _("nothing for you to decide now; awaiting: {what}").format(
                what=localize(describe_awaiting(pos))
            )
        ]
        emit(as_json, report, [*lines, *_owed(opened, target, seat)])
        return
    assert aw is not None
    known = _known(pos, seat, me, as_name)
    listed = named_moves(pos.rules, pos.state, seat, known or {})
    texts = [notation for notation, _, _ in listed]
    names = [name for _, name, _ in listed]
    help_text = pos.rules.notation_help(pos.state, seat)
    sample = pos.rules.samples(pos.state, seat)
    report = {"moves": texts, "named": names, "help": help_text, "prompt": aw.prompt}
    report |= {"sample": sample, **read}
    out = [_("your decision: {prompt}").format(prompt=localize(aw.prompt or aw.decision))]
    if voids:
        out.append(
            _("a call on you is being signed ({call}): your move voids it").format(
                call=localize(describe_interrupt(pos))
            )
        )
    if help_text:
        out.append(help_text)
    n = len(texts)
    if sample and n > limit:
        head = ngettext(
            "a sample of {n} legal move (there are too many to list; any move you type is "
            "judged by the rules when you play it, and refused with the reason if illegal), "
            "the first {limit}:",
            "a sample of {n} legal moves (there are too many to list; any move you type is "
            "judged by the rules when you play it, and refused with the reason if illegal), "
            "the first {limit}:",
            n,
        )
    elif sample:
        head = ngettext(
            "a sample of {n} legal move (there are too many to list; any move you type is "
            "judged by the rules when you play it, and refused with the reason if illegal):",
            "a sample of {n} legal moves (there are too many to list; any move you type is "
            "judged by the rules when you play it, and refused with the reason if illegal):",
            n,
        )
    elif n > limit:
        head = ngettext(
            "{n} legal move, the first {limit}:", "{n} legal moves, the first {limit}:", n
        )
    else:
        head = ngettext("{n} legal move:", "{n} legal moves:", n)
    out.append(head.format(n=n, limit=limit))
    width = max((len(n) for n in names[:limit]), default=0)
    out += [
        f"  {n:<{width}}  ({t})" if n != t else f"  {t}"
        for t, n in zip(texts[:limit], names[:limit], strict=True)
    ]
    out.append(
        _('play one with: pbem play {game} "{move}"').format(
            game=target, move=names[0] if names else "..."
        )
    )
    emit(as_json, report, out)


@click.command()
@game_argument
@click.option(
    "--as",
    "as_name",
    metavar="NAME",
    help="Also read the notes sealed to this identity of your keyring (decrypted here).",
    shell_complete=complete_own_identity,
)
@json_option
@reports_errors
def log(target: str, as_name: str | None, as_json: bool) -> None:
    """The verified history, one line per step (numbered from 1; the genesis is step 0),
    with what followed by itself (coins paid out, cards handed on) and the notes signed
    into each step indented below it."""
    from pbem.crypto.notes import step_notes
    from pbem.ledger.awaiting import seat_of_card
    from pbem.ledger.logbook import with_open_batch
    from pbem.ledger.seats import signer_card
    from pbem.store.exports import open_game
    from pbem.store.store import Store

    store = Store(progress=Progress())
    opened = open_game(store, target)
    pos = opened.position
    reader = read_as(as_name, pos.cards)
    seat = seat_of_card(pos, reader.card) if reader is not None else None
    if reader is not None and seat is None:
        raise UsageError(N_("{name!r} holds no seat in this game").format(name=as_name))
    steps = store.steps(opened.head.game)
    rows = []
    read = said_read(opened, store, as_json)
    lines: list[str] = []
    for r in with_open_batch(pos, opened.head.records):
        notes = [n.line(pos.names, seat) for n in step_notes(steps[r.index], reader, seat)]
        rows.append(
            {
                "step": r.index + 1,
                "kind": r.kind,
                "seats": [signer_card(pos, s).name for s in r.seats],  # referees too
                "summary": r.summary,
                "hash": r.hash,
                "notes": notes,
                "consequences": r.consequences,
            }
        )
        # the summary alone is a message: the step's number and kind are not words of it
        lines.append(f"{r.index + 1:4d} {r.kind:7s} {localize(r.summary)}")
        lines += [f"             {localize(c)}" for c in r.consequences]
        lines += ["             " + _("note: {text}").format(text=n) for n in notes]

    emit(as_json, {"steps": rows, **read}, lines)
