"""``pbem send``, ``receive``, ``games``, ``watch`` and ``config``: playing by email.

Thin, like every command: parse, call ``pbem.store.store`` and ``pbem.mail``, print what
happened and what to do next. A mail server that fails is an I/O error (exit 2); a copy
that is refused (stale, forked, damaged) exits 1 after everything else was imported.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from pbem.cli.common import (
    INTERRUPTED,
    as_option,
    awaited,
    complete_bot,
    complete_own_identity,
    emit,
    emit_refused,
    game_argument,
    identity,
    json_option,
    own_card,
    reports_errors,
)
from pbem.cli.progress import Progress
from pbem.crypto.keyring import Keyring, default_home
from pbem.format.card import IdentityCard
from pbem.format.errors import PbemError, Rejected, UsageError
from pbem.format.files import write_new
from pbem.format.i18n import N_, _, localize, ngettext
from pbem.ledger.awaiting import waits_for
from pbem.store.chain import short_id
from pbem.store.db import damaged
from pbem.store.exports import newest_export, open_game
from pbem.store.sent import mark_sent, unsent
from pbem.store.store import Store

if TYPE_CHECKING:  # pbem.mail (SMTP, IMAP, the templates) is imported by the commands that mail
    from email.message import EmailMessage

    from pbem.mail.robot import Robot

#: ``pbem receive`` lists at most this many new steps per game.
SHOWN = 12


def ask_password() -> Any:
    """A hidden prompt, or None when no person is at the terminal to answer it."""
    if sys.stdin is None or not sys.stdin.isatty():
        return None
    return lambda prompt: click.prompt(prompt, hide_input=True)


@click.command()
@game_argument
@click.option(
    "--to",
    type=click.Choice(["awaited", "all"]),
    default="awaited",
    show_default=True,
    help="Mail the seats awaited now, or every other player.",
)
@click.option(
    "--cc",
    type=click.Choice(["others", "none"]),
    help="Copy the other players (default: the smtp.cc setting, 'others').",
)
@as_option
@click.option(
    "--eml",
    type=click.Path(path_type=Path),
    help="Write the message to this file instead of sending it (for any mail client).",
)
@click.option(
    "--full",
    is_flag=True,
    help="Attach the whole game file, not only the steps the recipients lack.",
)
@json_option
@reports_errors
def send(
    target: str,
    to: Literal["awaited", "all"],
    cc: Literal["others", "none"] | None,
    as_name: str | None,
    eml: Path | None,
    full: bool,
    as_json: bool,
) -> None:
    """Mail your newest copy of GAME (a file or a stored game's id) to the players awaited
    now, the others in Cc. It carries the steps they lack (since the last step each has
    acknowledged by signing), or with --full the whole file; a player new to the game gets
    the whole file anyway. Envelopes received for the same parallel step are merged in, and
    the automatic steps you owe are made first."""
    store = Store(progress=Progress())
    with store.writing():
        opened = open_game(store, target)
    me = own_card(as_name, opened.position.cards)
    if me is None:
        raise UsageError(
            N_("say which of your identities holds a seat in this game with --as NAME")
        )
    report, lines = mail_game(
        store, opened.head.game, me, to=to, cc=cc, eml=eml, called=target, full=full
    )
    if report is None:
        raise UsageError(
            N_("nobody else is awaited: the decision is yours (pbem moves {game})").format(
                game=target
            )
        )
    emit(as_json, report, [*opened.notes(store), *lines])


def mail_game(
    store: Store,
    game: str,
    me: IdentityCard,
    *,
    to: Literal["awaited", "all"] = "awaited",
    cc: Literal["others", "none"] | None = None,
    eml: Path | None = None,
    called: str = "",
    full: bool = False,
) -> tuple[dict[str, Any] | None, list[str]]:
    """Mail the newest head of ``game``, after the automatic steps ``me`` owes: what
    ``pbem send`` and ``pbem play --send`` do (``pbem.mail.outgoing``). The report is None
    when nobody else is awaited (the next decision is ``me``'s own): then nothing is sent."""
    from pbem.mail import config as mail_config
    from pbem.mail import outbox
    from pbem.mail.memory import Memory, mailed
    from pbem.mail.outgoing import prepare

    settings = mail_config.load()
    smtp = settings.smtp.model_copy(update={"cc": cc}) if cc else settings.smtp
    name = me.name
    outgoing = prepare(
        store, game, me, lambda: identity(name), smtp, to, called=called or game, full=full
    )
    messages, made = outgoing.messages, outgoing.made
    made_first = ngettext("made {n} automatic step first", "made {n} automatic steps first", made)
    notes = [made_first.format(n=made)] if made else []
    if not messages:
        return None, notes
    message = messages[0]  # in the sender's language, when anyone reads that
    report: dict[str, Any] = {"subject": message["Subject"], "to": message["To"]}
    report["cc"] = message["Cc"] or ""
    report["automatic"] = made
    if len(messages) > 1:  # the recipients read several languages: one message each
        report["messages"] = [
            {"subject": m["Subject"], "to": m["To"], "cc": m["Cc"] or ""} for m in messages
        ]
    if eml is not None:
        paths = [eml, *(_eml_for(eml, m) for m in messages[1:])]
        for path, each in zip(paths, messages, strict=True):
            if not write_new(path, each.as_bytes()):
                raise UsageError(
                    N_("{path}: exists already; pbem never writes over a file").format(path=path)
                )
        report["eml"] = str(eml)
        if len(paths) > 1:
            report["emls"] = [str(p) for p in paths]
        with store.writing():  # carried by the message, handed to the player's mail client
            store.carried(game, str(eml.resolve()))
            mark_sent(store, game, me)
            for each in messages:
                mailed(store, each)
        wrote = [
            _("wrote the message for {to} to {path}").format(to=each["To"], path=path)
            for path, each in zip(paths, messages, strict=True)
        ]
        return report, [*notes, *wrote]
    password = mail_config.password(smtp, "smtp", ask_password())
    memory = Memory(store)
    done = outbox.post_all(memory, smtp, password, messages)
    store.carried(game, f"the mail {message['Message-ID']}")  # queued: it goes, now or later
    sent = [done.recipients(each) for each in messages]  # a message that waits says so here
    report["sent_to"] = [to for each in sent for to in each]
    mark_sent(store, game, me)
    report["also_sent"] = len(done.sent) - len(messages)  # what waited in the outbox, sent first
    lines = [
        _("sent {subject!r} to {to}").format(subject=str(each["Subject"]), to=", ".join(to))
        for each, to in zip(messages, sent, strict=True)
    ]
    return report, [*notes, *done.lines(but=messages), *lines]


def _eml_for(eml: Path, message: EmailMessage) -> Path:
    """Where ``pbem send --eml FILE`` writes the message of a second language: beside
    FILE, named after the language (``out.ja.eml``)."""
    lang = str(message["Content-Language"] or "other")
    return eml.with_name(f"{eml.stem}.{lang}{eml.suffix}")


@click.command()
@click.argument("sources", nargs=-1, required=True)
@as_option
@json_option
@reports_errors
def receive(sources: tuple[str, ...], as_name: str | None, as_json: bool) -> None:
    """Import the game files in mail: SOURCES are .eml files, mboxes, Maildirs or '-'
    (one message on standard input, from a mail filter)."""
    from pbem.mail.inbox import describe, import_message
    from pbem.mail.sources import read_messages

    store = Store(progress=Progress())
    store.db  # a store that cannot be opened fails now, before any mail is read  # noqa: B018
    me = own_card(as_name)
    games: list[dict[str, Any]] = []
    problems: list[str] = []
    lines: list[str] = []
    for source in sources:
        for where, raw in read_messages(source):
            if isinstance(raw, PbemError):
                problems.append(str(raw))
                continue
            result = import_message(store, raw, where)
            for imported in result.imported:
                entry, line = describe(imported, me)
                games.append(entry)
                lines.append(line)
                lines += [f"  {r.index + 1:4d} {r.summary}" for r in imported.new_steps[-SHOWN:]]
            for pending in result.pending:
                games.append({"game": pending.game, "status": "pending", "from": pending.index})
                lines.append(
                    _(
                        "game {game}: steps from step {step} kept until the steps before them "
                        "arrive (pbem watch asks for them; or ask the sender: pbem send GAME "
                        "--full)"
                    ).format(game=short_id(pending.game), step=pending.index + 1)
                )
            problems += [f"{result.label}: {p}" for p in result.problems]
            for proof in result.proofs:
                click.echo(proof, err=True)
    report = {"games": games, "problems": problems}
    if problems:
        if not as_json:
            for problem in problems:
                click.echo(f"pbem: {localize(' '.join(problem.split()))}", err=True)
        count = len(problems)
        if games:
            said = ngettext(
                "{n} problem; everything else was imported",
                "{n} problems; everything else was imported",
                count,
            )
        else:
            said = ngettext(
                "{n} problem; nothing was imported", "{n} problems; nothing was imported", count
            )
        err = Rejected(said.format(n=count))
        emit_refused(as_json, report, lines, err)
    emit(as_json, report, lines)


@click.command()
@as_option
@click.option("--all", "show_all", is_flag=True, help="Also list finished games.")
@json_option
@reports_errors
def games(as_name: str | None, show_all: bool, as_json: bool) -> None:
    """The games in your store: their step, whose move it is, your newest export."""
    from pbem.mail import memory  # the store's table of mail seen: no SMTP, IMAP or templates

    store = Store(progress=Progress())
    me: IdentityCard | None = own_card(as_name)
    waiting = memory.Memory(store).waiting()
    rows = []
    finished = 0
    for game in store.ids():
        head = store.head(game)
        pos = head.position
        if pos.result is not None and not show_all:
            finished += 1
            continue
        rows.append(
            {
                "game": game,
                "ruleset": pos.rules.id,
                "step": pos.count,
                **awaited(pos),
                "over": pos.result is not None,
                "seats": [f"{c.name} <{c.email}>" for c in pos.cards],
                "your_move": waits_for(pos, me),
                "unsent": unsent(store, game, me, head),
                "file": newest_export(store, game),
                "waiting_mail": sum(w.game == game for w in waiting),
            }
        )
    lines = [
        f"{short_id(r['game'])}  {r['ruleset']:<10} step {r['step']:>4}  "
        + (_("game over") if r["over"] else _whose(r))
        + f"\n          {r['file'] or _unexported(r['game'])}"
        for r in rows
    ]
    if not lines and finished:
        none = ngettext(
            "no game in progress ({n} finished game: pbem games --all)",
            "no game in progress ({n} finished games: pbem games --all)",
            finished,
        )
        lines = [none.format(n=finished)]
    elif not lines:
        lines = [_("no games in the store (pbem receive MAIL)")]
    quarantined = [
        {"message": label, "reason": reason, "received": when}
        for label, reason, when in memory.Memory(store).quarantined()
    ]
    lines += _quarantine_lines(quarantined, show_all)
    lines += _outbox_lines(waiting)
    report = {
        "games": rows,
        "finished_hidden": finished,
        "quarantined": quarantined,
        "outbox": [vars(w) for w in waiting],
    }
    emit(as_json, report, lines)


#: ``pbem games`` lists this many quarantined messages (``--all``: every one).
QUARANTINE_SHOWN = 3


def _quarantine_lines(quarantined: list[dict[str, Any]], show_all: bool) -> list[str]:
    """The mail put aside by the input limits, newest first: never imported, marked read."""
    if not quarantined:
        return []
    shown = quarantined if show_all else quarantined[:QUARANTINE_SHOWN]
    more = len(quarantined) - len(shown)
    count = len(quarantined)
    if more:
        head = ngettext(
            "{n} mail quarantined (refused by an input limit); the newest {shown} (pbem games "
            "--all: every one):",
            "{n} mails quarantined (refused by an input limit); the newest {shown} (pbem games "
            "--all: every one):",
            count,
        )
    else:
        head = ngettext(
            "{n} mail quarantined (refused by an input limit):",
            "{n} mails quarantined (refused by an input limit):",
            count,
        )
    lines = [head.format(n=count, shown=len(shown))]
    return lines + [f"  {q['message']}: {localize(q['reason'])}" for q in shown]


def _whose(row: dict[str, Any]) -> str:
    """Whose move, as ``pbem games`` prints it: a move you signed but did not mail yet
    (the others cannot answer before they have it: ``pbem send`` makes the automatic steps
    you owe and mails it), yours, or theirs."""
    if row["unsent"]:
        said = _("SIGNED, NOT SENT (pbem send {game}): {next}")
        return said.format(game=short_id(row["game"]), next=localize(row["next"]))
    if row["your_move"]:
        return _("YOUR MOVE: {next}").format(next=localize(row["next"]))
    return localize(row["next"])


def _outbox_lines(waiting: list[Any]) -> list[str]:
    """The mail waiting to go out (a server was down or refused): sent by the next ``pbem
    send`` or pass of ``pbem watch``."""
    if not waiting:
        return []
    head = ngettext(
        "{n} mail waiting to go out (pbem watch, or pbem send, sends it):",
        "{n} mails waiting to go out (pbem watch, or pbem send, sends them):",
        len(waiting),
    )
    return [head.format(n=len(waiting))] + [
        f"  {short_id(w.game) if w.game else '-'}  {w.subject} -> {w.to}" for w in waiting
    ]


def _unexported(game: str) -> str:
    return _("(only in your store so far: pbem export {game})").format(game=short_id(game))


@click.command()
@click.option(
    "--as",
    "as_names",
    metavar="NAME",
    multiple=True,
    help="Act for this identity of your keyring (repeat for several; default: every one).",
    shell_complete=complete_own_identity,
)
@click.option("--once", is_flag=True, help="One pass, then exit (for cron).")
@click.option(
    "--interval",
    type=click.IntRange(min=1),
    help="Seconds between passes when the server cannot say that mail came (imap.interval); "
    "with IMAP IDLE the robot wakes as mail arrives, and looks at least this often.",
)
@click.option(
    "--bot",
    "bot_spec",
    metavar="SPEC",
    help="A bot answers the decisions of the identities watched and mails them on: random, "
    "greedy, mcts or mcts:N (default: each identity's bot.NAME setting; with neither, you "
    "decide, told by the notify command).",
    shell_complete=complete_bot,
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per event.")
@reports_errors
def watch(
    as_names: tuple[str, ...],
    once: bool,
    interval: int | None,
    bot_spec: str | None,
    as_json: bool,
) -> None:
    """The mail robot of this home: import new mail from IMAP, make the automatic steps of
    every identity of the home (join, beacon, reveals, shares), mail the result on, and run
    the notify command when a decision of yours is awaited. One robot acts for all the
    identities of a home (a second pbem watch on the same home is refused): a step one of
    them makes is the next one's turn at once. It waits for mail with IMAP IDLE where the
    server offers it, else it looks every --interval seconds, and it wakes when another
    pbem command of this home changes the store. Prints one line per event that changed
    something. Never deletes mail; safe to stop and restart at any moment. With --bot (or
    an identity's bot.NAME setting) a bot holds that identity's seats: it answers its
    decisions, signs them and mails them on."""
    from pbem.mail import config as mail_config
    from pbem.mail.botseat import BotSeat, check_spec
    from pbem.mail.homelock import HomeLock
    from pbem.mail.robot import Actor, Robot

    if bot_spec is not None:
        check_spec(bot_spec)  # before any passphrase is asked
    settings = mail_config.load()
    mail_config.require_host(settings.imap, "imap")  # fail now, not on every pass
    mail_config.require_host(settings.smtp, "smtp")
    home = default_home()
    with HomeLock(home):
        actors = []
        for name in _watched(as_names):
            spec = bot_spec if bot_spec is not None else settings.bot.get(name)
            me = identity(name)
            actors.append(Actor(me, BotSeat(check_spec(spec), me) if spec else None))
        robot = Robot(
            home,
            actors,
            settings,
            mail_config.password(settings.smtp, "smtp", ask_password()),
            mail_config.password(settings.imap, "imap", ask_password()),
            tell=lambda line: click.echo(f"pbem watch: {localize(line)}", err=True),
        )
        try:
            while True:
                failed = _one_pass(robot, as_json)
                if once:
                    sys.exit(failed)
                robot.wait(interval or settings.imap.interval)
        except KeyboardInterrupt:
            click.echo(_("pbem watch: stopped"), err=True)
            sys.exit(INTERRUPTED)


def _watched(as_names: tuple[str, ...]) -> list[str]:
    """The identities the robot acts for: those named, else every own identity of the
    keyring (a home's robot acts for all of them)."""
    if as_names:
        return list(dict.fromkeys(as_names))
    own = [card.name for card, private in Keyring().list() if private]
    if not own:
        raise UsageError(N_("your keyring holds no identity to act for: pbem key new NAME"))
    return own


def _one_pass(robot: Robot, as_json: bool) -> int:
    """Run a pass and print it; 0 when all went well, 2 when a server failed, 1 when some
    mail or game was refused. Nothing here stops the robot."""
    from pbem.mail import transport
    from pbem.mail.robot import PassReport

    try:
        report = robot.run_once()
    except (PbemError, OSError) as exc:
        report = PassReport(problems=[str(exc)], server_failed=True)
    except sqlite3.DatabaseError as exc:  # the store is damaged: said, and tried again
        report = PassReport(problems=[str(damaged(exc))], server_failed=True)
    for line in report.lines:
        click.echo(json.dumps({"ok": True, "event": line}) if as_json else localize(line))
    for problem in report.problems:
        text = " ".join(problem.split())
        if as_json:
            code = transport.MailError.code if report.server_failed else Rejected.code
            report_line = {"ok": False, "error": text, "code": code, "step": None, "seat": None}
            click.echo(json.dumps(report_line))
        else:
            click.echo(f"pbem watch: {localize(text)}", err=True)
    return 2 if report.server_failed else 1 if report.problems else 0
