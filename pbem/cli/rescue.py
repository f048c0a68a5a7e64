"""``pbem call``, ``resign`` and ``handover``: keeping a game going when a player drops
out (architecture §11). Each signs (journal first) on your newest copy of the game and writes
it as ``pbem play`` does: over the game file given, when the store holds all of it."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.common import (
    as_option,
    complete_identity,
    complete_seat,
    emit,
    game_argument,
    identity,
    json_option,
    next_steps,
    reports_errors,
)
from pbem.cli.game import card_of, check_new_file, numbered_files, out_option, wrote
from pbem.crypto.keyring import Keyring
from pbem.crypto.keys import Identity
from pbem.format.errors import UsageError
from pbem.format.i18n import N_
from pbem.ledger.position import Position
from pbem.play import rescue
from pbem.play.playing import sign_in_store
from pbem.store.exports import Opened, export_head, open_game
from pbem.store.journal import Journal
from pbem.store.store import Store


def _finish(
    store: Store,
    opened: Opened,
    pos: Position,
    said: str,
    output: Path | None,
    me: Identity,
    as_json: bool,
    numbered: bool,
) -> None:
    """Export what was signed, and say it, then who is next and whom to send it to."""
    written = export_head(store, opened, output, numbered=numbered)
    report, lines = next_steps(pos, str(written.path), me.card)
    report["done"] = said
    emit(as_json, report, [said, *wrote(written, report), *lines])


@click.command()
@game_argument
@click.argument("seats", nargs=-1, required=True, shell_complete=complete_seat)
@click.option("--end", is_flag=True, help="End the game, scored as it stands (no escrow).")
@as_option
@out_option
@json_option
@reports_errors
def call(
    target: str,
    seats: tuple[str, ...],
    end: bool,
    as_name: str | None,
    output: Path | None,
    as_json: bool,
) -> None:
    """Call the SEATS (names or numbers) the game has awaited past its deadline: once
    every other active seat has signed the call, a stand-in decides for them in the open,
    or their escrow holders open what they owe; with --end the game ends instead."""
    check_new_file(output)
    numbered = numbered_files()
    store = Store()
    with store.writing():
        opened = open_game(store, target)
    pos = opened.position
    named = sorted(_seat(pos, s) for s in seats)
    if named != sorted(pos.remaining()):
        if not pos.remaining():
            raise UsageError(N_("a call names every seat awaited now: nobody"))
        who = ", ".join(pos.names[s] for s in pos.remaining())
        raise UsageError(N_("a call names every seat awaited now: {seats}").format(seats=who))
    me = identity(as_name, pos.cards)

    def sign(p: Position, journal: Journal) -> str:
        called = rescue.call(p, me, end=end, journal=journal)
        still = p.interrupt is not None and p.interrupt.decision == "call"
        names = ", ".join(pos.names[s] for s in called)
        if still:
            return N_("called {seats} (the other seats must sign the call too)").format(seats=names)
        return N_("called {seats}").format(seats=names)

    after, said = sign_in_store(store, opened.head.game, me, sign, "a call signed here")
    _finish(store, opened, after, said, output, me, as_json, numbered)


def _seat(pos: Position, text: str) -> int:
    if text.isdigit() and int(text) < len(pos.names):
        return int(text)
    if text in pos.names:
        return pos.names.index(text)
    raise UsageError(
        N_("no seat {seat!r} in this game (seats: {seats})").format(
            seat=text, seats=", ".join(pos.names)
        )
    )


@click.command()
@game_argument
@as_option
@out_option
@json_option
@reports_errors
def resign(target: str, as_name: str | None, output: Path | None, as_json: bool) -> None:
    """Give up your seat: your per-game secrets are published in the step, and from then
    on a stand-in plays the seat in the open (your private knowledge becomes public)."""
    check_new_file(output)
    numbered = numbered_files()
    store = Store()
    with store.writing():
        opened = open_game(store, target)
    me = identity(as_name, opened.position.cards)

    def sign(p: Position, journal: Journal) -> str:
        rescue.resign(p, me, journal=journal)
        return N_("{name} resigned").format(name=me.card.name)

    after, said = sign_in_store(store, opened.head.game, me, sign, "a resignation signed here")
    _finish(store, opened, after, said, output, me, as_json, numbered)


@click.command()
@game_argument
@click.option(
    "--to",
    "to",
    required=True,
    help="The substitute: a card file or a name.",
    shell_complete=complete_identity,
)
@click.option("--seat", "seat", help="A seat whose secret is public (rescued), to hand over.")
@as_option
@out_option
@json_option
@reports_errors
def handover(
    target: str,
    to: str,
    seat: str | None,
    as_name: str | None,
    output: Path | None,
    as_json: bool,
) -> None:
    """Hand your seat to a substitute (its secrets sealed to the substitute's key), or, as
    another active seat, co-sign the handover open to it. From that step on the
    substitute's key signs for the seat, with all the seat knows."""
    check_new_file(output)
    numbered = numbered_files()
    store = Store()
    with store.writing():
        opened = open_game(store, target)
    pos = opened.position
    card = card_of(to, Keyring())
    me = identity(as_name, pos.cards)
    given = _seat(pos, seat) if seat is not None else None

    def sign(p: Position, journal: Journal) -> str:
        rescue.handover(p, me, card, seat=given, journal=journal)
        if p.interrupt is not None and p.interrupt.decision == "handover":
            return N_("signed the handover to {name} (the other seats must co-sign it)").format(
                name=card.name
            )
        return N_("the seat is handed over to {name}").format(name=card.name)

    after, said = sign_in_store(store, opened.head.game, me, sign, "a handover signed here")
    _finish(store, opened, after, said, output, me, as_json, numbered)
