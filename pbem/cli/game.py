"""``pbem new``, ``play``, ``merge`` and ``export``: the commands that make a new version.

Only ``new`` and ``play`` sign. Everything signed is recorded in the store's journal, in
the same transaction as the new steps, before any file is written; the export then
replaces the game file given (one working file per game), when the store holds every step
of it and it is unchanged since it was read; else, or with ``-o`` or the setting ``files
numbered``, it is a new file (named by step beside the old one: ``game.s0031.json``),
never written over (architecture §10, ``pbem.store.exports``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem.cli.common import (
    as_option,
    complete_identity,
    complete_option,
    complete_ruleset,
    emit,
    game_argument,
    identity,
    json_option,
    named_ruleset,
    next_steps,
    own_card,
    reports_errors,
    ruleset_options,
)
from pbem.cli.progress import Progress
from pbem.format.card import IdentityCard
from pbem.format.errors import Rejected, UsageError
from pbem.format.limits import read_input
from pbem.format.words import plural

if TYPE_CHECKING:  # the core is imported by the command that runs: a TAB completes without it
    from pbem.crypto.keyring import Keyring
    from pbem.crypto.keys import Identity
    from pbem.store.exports import Opened, Written
    from pbem.store.store import Store


out_option = click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Write the new version to this new file (it must not exist). Default: over the "
    "game file GAME (for a game id: RULESET-ID.json here), when your store holds all of it.",
)


def numbered_files() -> bool:
    """Whether the setting ``files`` asks for a new file named by step at each version
    (``pbem config set files numbered``); read before anything is signed, so that a
    settings file that does not read stops the command first."""
    from pbem.mail import config as mail_config

    return mail_config.load().files == "numbered"


def wrote(written: Written, report: dict[str, Any]) -> list[str]:
    """The lines that say where the new version went (and why the game file given was
    left as it is, if it was); ``report`` gets ``kept``: that reason, or None."""
    report["kept"] = written.kept
    return [*([written.kept] if written.kept else []), f"wrote {written.path}"]


def check_new_file(output: Path | None) -> None:
    """Refuse an ``-o`` that could not be written, before anything is signed: a step
    signed into the store and then not written would be fixed all the same (a different
    move after it is equivocation)."""
    if output is None:
        return
    if output.exists() or output.is_symlink():
        raise UsageError(f"{output}: exists already; pbem never writes over a file")
    folder = output.parent
    if not folder.is_dir():
        raise UsageError(f"{output}: there is no folder {folder} to write it in")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{output}: cannot write in the folder {folder}")


def card_of(spec: str, keyring: Keyring) -> IdentityCard:
    """The card a ``--seat`` (or ``--to``, ``--escrow``) names: a card file when ``spec``
    ends in ``.json`` or is a file, else a name in the keyring. A folder is never a card:
    ``--seat alice`` beside a folder ``alice`` is alice of the keyring."""
    path = Path(spec)
    if path.suffix == ".json" or path.is_file():
        return IdentityCard.from_json(read_input(path), what=str(path))
    return keyring.card(spec)


class NewCommand(click.Command):
    """``pbem new``, whose help lists the installed rulesets and their options."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from pbem.cli.rules import installed  # the rulesets load only when help is asked

        super().format_epilog(ctx, formatter)
        with formatter.section("Rulesets and their options (--option K=V)"):
            formatter.write_text("\b\n" + "\n".join(installed()[1]))


@click.command(cls=NewCommand)
@click.argument("ruleset", shell_complete=complete_ruleset)
@click.option(
    "--seat",
    "seats",
    multiple=True,
    required=True,
    help="An identity card file, or a name in your keyring; in seat order.",
    shell_complete=complete_identity,
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="K=V",
    help="A ruleset option (listed below).",
    shell_complete=complete_option,
)
@click.option(
    "--deadline",
    metavar="TIME",
    help="How long each decision may take before the others may call: 90m, 72h, 3d "
    "(units s, m, h, d). Default: none (nobody can be called).",
)
@click.option(
    "--escrow",
    "escrow",
    multiple=True,
    metavar="WHO",
    help="Who holds each seat's escrowed secret: 'others' (every other seat, all "
    "together; the default with 3 or more seats), referees' cards (files or names, who do "
    "not play; repeat the option), or 'none' (the default with 2 seats; a call can then "
    "only end the game).",
)
@as_option
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True)
@json_option
@reports_errors
def new(
    ruleset: str,
    seats: tuple[str, ...],
    options: tuple[str, ...],
    deadline: str | None,
    escrow: tuple[str, ...],
    as_name: str | None,
    output: Path,
    as_json: bool,
) -> None:
    """Create a game of RULESET: sign its genesis as the creator (who must hold a seat)."""
    from pbem.crypto.keyring import Keyring
    from pbem.play.author import new_game
    from pbem.store.store import Store

    check_new_file(output)
    rules = named_ruleset(ruleset)
    keyring = Keyring()
    cards = [card_of(spec, keyring) for spec in seats]
    parsed = ruleset_options(rules, options)
    mode, referees = _escrow(escrow, cards, keyring)
    me = identity(as_name, cards)
    store = Store(progress=Progress())
    replay = new_game(
        rules,
        parsed,
        cards,
        me,
        deadline=duration(deadline) if deadline else 0,
        escrow=mode,
        referees=referees,
    )
    imported = store.import_game(replay.to_file(), "created here")
    store.export_to(replay.genesis.game, output)
    report, lines = next_steps(imported.head.position, str(output), me.card)
    report["game"] = replay.genesis.game
    notice = rules.notice(parsed)
    report["notice"] = notice
    created = f"created {ruleset} game {replay.genesis.game} in {output}"
    emit(as_json, report, [created, *([f"note: {notice}"] if notice else []), *lines])


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def duration(text: str) -> int:
    """``90m``, ``72h``, ``3d`` as seconds (a whole number and one unit)."""
    number, unit = text[:-1], text[-1:]
    if unit not in _UNITS or not number.isdigit() or int(number) == 0:
        raise UsageError(f"--deadline takes a whole number and a unit s, m, h or d, not {text!r}")
    return int(number) * _UNITS[unit]


def _escrow(
    specs: tuple[str, ...], cards: list[IdentityCard], keyring: Keyring
) -> tuple[str, list[IdentityCard]]:
    """The escrow mode and referees from ``--escrow`` (defaults: architecture §11)."""
    from pbem.play.author import default_escrow

    if not specs:
        return default_escrow(len(cards)), []
    if specs in (("others",), ("none",)):
        if specs == ("others",) and len(cards) < 3:
            raise UsageError(
                "--escrow others with 2 seats would give the other player your secrets: "
                "name referees (--escrow CARD) or --escrow none"
            )
        return specs[0], []
    if "others" in specs or "none" in specs:
        raise UsageError("--escrow takes 'others', 'none', or referees' cards, not a mixture")
    referees = [card_of(spec, keyring) for spec in specs]
    return "referees", referees


@click.command()
@game_argument
@click.argument("action", required=False)
@as_option
@out_option
@click.option(
    "--note",
    "note_text",
    metavar="TEXT",
    help="Sign these words into your move, for every player to read (press).",
)
@click.option(
    "--note-to",
    "note_to",
    metavar="NAME",
    help="Seal the --note to this player alone (HPKE to their key): only they can read it.",
)
@click.option(
    "--send",
    "send_it",
    is_flag=True,
    help="Then mail the new version on, as pbem send does (to every seat of the decision "
    "awaited next, the others in Cc).",
)
@json_option
@reports_errors
def play(
    target: str,
    action: str | None,
    as_name: str | None,
    output: Path | None,
    note_text: str | None,
    note_to: str | None,
    send_it: bool,
    as_json: bool,
) -> None:
    """Check your move against the rules, sign it and write the new file.

    GAME is a game file or the id of a game in your store; pbem plays on your newest copy
    of it. ACTION is in the game's notation; several actions may be given separated by ';'.
    They are played in order until the game must wait for others (say, their shares for a
    reveal); the rest is reported, to be played with the next command. Without ACTION, only
    the automatic steps you owe are made, or the file a command cut short after signing
    did not write. With --send the result is mailed on at once: one
    command per decision.

    The new version replaces the game file GAME (for a game id: RULESET-ID.json in the
    current folder), atomically, when your store holds every step of it and it is unchanged
    since pbem read it; else it goes to a new file beside it, named by step, and pbem says
    why. -o names a new file instead; pbem config set files numbered always writes a new
    one. Every older version stays in your store (pbem export GAME --step K)."""
    from pbem.play.playing import Note, play_moves
    from pbem.store.exports import export_head, open_game
    from pbem.store.store import Store

    check_new_file(output)
    numbered = numbered_files()
    store = Store(progress=Progress())
    with store.writing():  # read the head before asking a passphrase: a wrong seat fails now
        opened = open_game(store, target)
        notes = opened.notes(store)  # before the export: it names the newest copy until now
    if note_to is not None and note_text is None:
        raise UsageError("--note-to NAME seals a --note TEXT: give the note too")
    me = identity(as_name, opened.position.cards)
    moves = [p.strip() for p in (action or "").split(";") if p.strip()]
    if moves and opened.imported is not None and opened.imported.behind:
        _signed_on_this_copy(store, opened, me, moves[0])
    note = Note(note_text, note_to) if note_text is not None else None
    game = opened.head.game
    played = play_moves(store, game, me, moves, "played here", note, read=opened.head)
    written = export_head(store, opened, output, read=played.head, numbered=numbered)
    report, lines = next_steps(played.position, str(written.path), me.card)
    report.update(played=played.done, automatic=played.made, not_played=played.left)
    head = [*notes, *([f"played: {'; '.join(played.done)}"] if played.done else [])]
    if played.made and not played.done:
        head.append(f"made {plural(played.made, 'automatic step')}")
    if not played.made and not played.done:
        head.append("nothing to sign: the file carries what you signed before that no file held")
    if played.left:
        left = "; ".join(played.left)
        head.append(f"waiting for others before: {left} (play it on the next version)")
    if send_it:
        from pbem.cli.mail import mail_game  # mail settings and SMTP only when asked

        sent, sent_lines = mail_game(store, opened.head.game, me.card)
        report["mail"] = sent
        if sent is None:
            sent_lines.append("nobody to mail: the next decision is yours again")
        lines = [lines[0], *sent_lines]  # "next: ...", then what was mailed
    emit(as_json, report, [*head, *wrote(written, report), *lines])


def _signed_on_this_copy(store: Store, opened: Opened, me: Identity, move: str) -> None:
    """A move typed on an old copy of the game, where this player signed a step already
    (the store holds it, further on): refused, naming that step and its export, whatever
    folder or copy the file is in (architecture §10)."""
    from pbem.format.gamefile import Envelope
    from pbem.play.playing import shown, unwritten
    from pbem.play.signer import seat_of
    from pbem.store.journal import Journal

    assert opened.imported is not None
    seat = seat_of(opened.position, me)
    journal = Journal(store)
    earlier = journal.signed_on(opened.head.game, opened.imported.seen, seat)
    if earlier is not None:
        what = earlier.decision if isinstance(earlier, Envelope) else earlier.kind
        raise Rejected(
            f"cannot play {shown(move)} on {opened.source}: you signed your {what} on it "
            f"already ({journal.where(earlier)}); pbem will not sign a second one for the "
            "same step: that would be equivocation" + unwritten(journal, opened.head.game, seat)
        )


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Write the merged game to this new file (it must not exist). Default: over the "
    "first FILE.",
)
@as_option
@json_option
@reports_errors
def merge(files: tuple[Path, ...], output: Path | None, as_name: str | None, as_json: bool) -> None:
    """Combine copies of one game whose envelopes to a parallel decision arrived apart:
    each is imported into your store, and the merged head replaces the first FILE (as
    ``pbem play`` replaces its game file), or goes to a new file. Signs nothing (``pbem
    play`` makes the steps you owe)."""
    from pbem.store.exports import export_head, open_file
    from pbem.store.store import Store

    numbered = numbered_files()
    store = Store(progress=Progress())
    same = os.path.realpath  # never raises (a symlink loop is refused when it is read)
    if output is not None and any(same(output) == same(f) for f in files):
        raise UsageError(f"{output}: will not overwrite an input file; name another with -o")
    with store.writing():
        opened = [open_file(store, f) for f in files]
    games = {o.head.game for o in opened}
    if len(games) != 1:
        raise Rejected(f"{', '.join(map(str, files))} are not all copies of one game")
    (game,) = games
    head = store.head(game)
    first = opened[0]
    first.head = head
    written = export_head(store, first, output, read=head, numbered=numbered)
    me = own_card(as_name, head.position.cards)
    report, lines = next_steps(head.position, str(written.path), me)
    said = f"merged {len(files)} copies (step {head.position.count})"
    emit(as_json, report, [said, *wrote(written, report), *lines])


@click.command()
@game_argument
@click.option(
    "--step",
    "step",
    type=int,
    metavar="K",
    help="The game as it stood after step K (numbered as pbem log numbers them; 0: the "
    "genesis alone), as a new file named by step (never over an existing one).",
)
@out_option
@json_option
@reports_errors
def export(target: str, step: int | None, output: Path | None, as_json: bool) -> None:
    """Write your newest copy of a game as a file: over the game file GAME (for a game
    id: RULESET-ID.json here) when your store holds all of it, else a new file. Every
    older version stays in your store: --step K writes one."""
    from pbem.store.exports import export_head, export_step, open_game
    from pbem.store.store import Store

    check_new_file(output)
    numbered = numbered_files() if step is None else True
    store = Store(progress=Progress())
    opened = open_game(store, target)
    notes = opened.notes(store)
    report: dict[str, Any] = {"game": opened.head.game}
    if step is not None:
        path = export_step(store, opened, step, output)
        report.update(file=str(path), steps=step)
        emit(as_json, report, [*notes, f"wrote {path} (the game after step {step})"])
        return
    written = export_head(store, opened, output, numbered=numbered)
    report.update(file=str(written.path), steps=opened.position.count)
    emit(as_json, report, [*notes, *wrote(written, report)])
