"""What every command shares: error reporting, who is acting, finding a game in the store
(from a file or by its id), writing an export beside the file, and saying what happens
next. Every command works through the store (architecture §10): a file it is given is imported
first, and the command acts on the newest verified head."""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, ParamSpec, TypeVar

import click
from click.shell_completion import CompletionItem

from pbem.format.errors import INTERRUPTED_CODE, IO_CODE, InternalError, PbemError, UsageError
from pbem.format.i18n import N_, _, localize

if TYPE_CHECKING:  # the rest of pbem is imported where it is used: a TAB or --help needs none
    from pbem.crypto.keyring import Keyring
    from pbem.crypto.keys import Identity
    from pbem.format.card import IdentityCard
    from pbem.ledger.position import Position
    from pbem.ruleset.rules import Ruleset
    from pbem.store.exports import Opened
    from pbem.store.store import Store

P = ParamSpec("P")
R = TypeVar("R")

DEBUG_ENV = "PBEM_DEBUG"
#: Exit codes beyond architecture §8's 0, 1 (refused) and 2 (usage or I/O): a bug, an interrupt.
INTERNAL_ERROR = 3
INTERRUPTED = 130
BROKEN_PIPE = 141


def fail(
    message: str,
    exit_code: int,
    *,
    code: str,
    detail: str | None = None,
    as_json: bool = False,
    **where: Any,
) -> NoReturn:
    """Print ``pbem: error: …`` as a single line on stderr (then any evidence) and exit;
    with ``--json``, the same as one JSON object on stdout instead:
    ``{"ok": false, "error": …, "code": …, "step": …, "seat": …}`` (``code`` the error's
    class, ``step`` and ``seat`` as people read them, or null), with the same exit code."""
    one_line = " ".join(message.split())
    if as_json:
        report = {"ok": False, "error": one_line, "code": code, "step": None, "seat": None}
        report |= where
        if detail:
            report["detail"] = detail
        click.echo(json.dumps(report, indent=1, sort_keys=True))
        sys.exit(exit_code)
    click.echo(_("pbem: error: {message}").format(message=localize(one_line)), err=True)
    if detail:
        click.echo(detail, err=True)
    sys.exit(exit_code)


def interrupted(as_json: bool) -> NoReturn:
    """Ctrl-C anywhere, or Ctrl-D at a prompt: one line (or object), exit 130."""
    fail("interrupted", INTERRUPTED, code=INTERRUPTED_CODE, as_json=as_json)


def where_of(err: BaseException) -> dict[str, Any]:
    """The step (from 1) and seat a refusal names, from the ``StepRejected`` that caused
    it however deep it was wrapped (the store adds the file's name to the message)."""
    from pbem.ledger.terms import StepRejected

    seen: BaseException | None = err
    while seen is not None:
        if isinstance(seen, StepRejected):
            return {"step": seen.index + 1, "seat": seen.seat}
        seen = seen.__cause__ or seen.__context__
    if isinstance(err, PbemError) and (err.step is not None or err.seat is not None):
        return {"step": err.step, "seat": err.seat}
    return {}


def reports_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn a ``PbemError`` (or an unexpected I/O error) raised by a command into one line
    on stderr and its exit code, so users see the reason and scripts see 1 or 2; with
    ``--json`` (a command's ``as_json``), into a JSON object on stdout."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        as_json = bool(kwargs.get("as_json"))
        try:
            return func(*args, **kwargs)
        except PbemError as err:
            fail(
                str(err),
                err.exit_code,
                code=err.code,
                detail=err.detail,
                as_json=as_json,
                **where_of(err),
            )
        except sqlite3.DatabaseError as err:  # the store file is damaged: not a bug of pbem
            from pbem.store.db import damaged

            damage = damaged(err)
            fail(str(damage), damage.exit_code, code=damage.code, as_json=as_json)
        except BrokenPipeError:  # the reader left (``pbem log | head``): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(BROKEN_PIPE)
        except OSError as err:
            why = err.strerror or str(err)
            message = f"{why}: {err.filename}" if err.filename else why
            fail(message, UsageError.exit_code, code=IO_CODE, as_json=as_json)
        except (KeyboardInterrupt, click.exceptions.Abort):  # Ctrl-D at a prompt is Abort
            interrupted(as_json)
        except Exception as err:  # a bug: still one line, never a traceback (architecture §8)
            if os.environ.get(DEBUG_ENV):
                raise
            fail(
                N_(
                    "internal error ({kind}: {why}); this is a bug in pbem, please report it "
                    "(set {env}=1 to see where it happened)"
                ).format(kind=type(err).__name__, why=err, env=DEBUG_ENV),
                INTERNAL_ERROR,
                code=InternalError.code,
                as_json=as_json,
            )

    return wrapper


def _stdin_is_tty() -> bool:
    """Whether a person can be asked (a separate function so tests can pretend)."""
    return sys.stdin is not None and sys.stdin.isatty()


def read_passphrase(name: str, *, new: bool = False) -> str:
    """The passphrase for identity ``name``: ``PBEM_PASSPHRASE`` for scripts, else a hidden
    prompt (asked twice for a new key) when a person is at the terminal. Never blocks a
    script on a prompt it cannot answer."""
    from pbem.crypto.keyring import PASSPHRASE_ENV

    env = os.environ.get(PASSPHRASE_ENV)
    if env is not None:
        return env
    if not _stdin_is_tty():
        if new:
            said = N_(
                "a passphrase is needed for identity {name!r} and there is no terminal to ask: "
                "set {env} or use --no-passphrase"
            )
        else:
            said = N_(
                "a passphrase is needed for identity {name!r} and there is no terminal to ask: "
                "set {env}"
            )
        raise UsageError(said.format(name=name, env=PASSPHRASE_ENV))
    asked = _("New passphrase for {name}") if new else _("Passphrase for {name}")
    value: str = click.prompt(
        asked.format(name=name),
        hide_input=True,
        confirmation_prompt=_("Repeat the passphrase") if new else False,
    )
    return value


def load_identity(keyring: Keyring, name: str) -> Identity:
    """Open an own identity, asking for its passphrase only if it is sealed. For every
    command that signs, and for decrypting the player's own private items."""
    passphrase = read_passphrase(name) if keyring.needs_passphrase(name) else None
    return keyring.load(name, passphrase)


# ----- shell completion (README: "Shell completion") ----------------------------------------


def complete_ruleset(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The installed rulesets."""
    from pbem.ruleset import registry

    names = sorted(registry.available())
    return [CompletionItem(n) for n in names if n.startswith(incomplete)]


def _names(own_only: bool) -> list[str]:
    from pbem.crypto.keyring import Keyring

    try:
        return sorted(card.name for card, own in Keyring().list() if own or not own_only)
    except PbemError:  # a damaged keyring completes nothing, and says nothing
        return []


def complete_own_identity(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The identities of your keyring (those you can act as)."""
    return [CompletionItem(n) for n in _names(True) if n.startswith(incomplete)]


def complete_identity(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Every name in the keyring (yours and imported cards), and card files."""
    names = [CompletionItem(n) for n in _names(False) if n.startswith(incomplete)]
    return [*names, CompletionItem(incomplete, type="file")]


def _words() -> list[str]:
    """The command line being completed (click's shells all pass it in COMP_WORDS): for
    what click has not parsed yet, such as the ruleset before an ``--option`` that awaits
    its value."""
    from click.shell_completion import split_arg_string

    return split_arg_string(os.environ.get("COMP_WORDS", ""))


def _named_ruleset(ctx: click.Context) -> Any:
    """The ruleset the command line names (``new rattus …``), or None."""
    from pbem.ruleset import registry

    known = registry.available()
    named = ctx.params.get("ruleset") or next((w for w in _words() if w in known), None)
    return registry.instance(known[named]) if named in known else None


def complete_option(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """``NAME=`` for each option of the ruleset named (of every installed one when none
    is), then the values it lists."""
    from pbem.ruleset import registry
    from pbem.ruleset.options import allowed

    named = _named_ruleset(ctx)
    chosen = [named] if named else [registry.get(r) for r in sorted(registry.available())]
    helps = [o for r in chosen for o in r.options_help()]
    name, sep, value = incomplete.partition("=")
    if not sep:
        return [CompletionItem(f"{o.name}=", help=o.help) for o in helps if o.name.startswith(name)]
    values = next((allowed(o) for o in helps if o.name == name), None)
    if values is None:
        return []
    return [CompletionItem(f"{name}={v}") for v in map(str, values) if v.startswith(value)]


def complete_bot(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The bots of the ruleset named (``selfplay``), else of every installed one."""
    from pbem.ruleset import registry

    named = _named_ruleset(ctx)
    chosen = [named] if named else [registry.get(r) for r in sorted(registry.available())]
    names = sorted({b for r in chosen for b in r.bots()})
    return [CompletionItem(n) for n in names if n.startswith(incomplete)]


def complete_seat(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The seats of the game named before (``call GAME SEAT``): read, never imported."""
    from pathlib import Path

    from pbem.format import gamefile
    from pbem.store.store import Store

    target = ctx.params.get("target") or ""
    try:
        if Path(target).is_file():
            names = [c.name for c in gamefile.read(Path(target)).genesis.seats]
        else:
            store = Store()
            names = store.head(store.resolve(target)).position.names
    except PbemError:  # no such game: nothing to offer
        return []
    return [CompletionItem(n) for n in names if n.startswith(incomplete)]


def complete_game(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The short ids of the games in your store, and game files."""
    from pbem.store.chain import short_id
    from pbem.store.store import Store

    try:
        ids = [short_id(g) for g in Store().ids()]
    except PbemError:
        ids = []
    games = [CompletionItem(g) for g in ids if g.startswith(incomplete)]
    return [*games, CompletionItem(incomplete, type="file")]


json_option = click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
as_option = click.option(
    "--as",
    "as_name",
    metavar="NAME",
    help="Act as this identity of your keyring (default: $PBEM_AS, or your only identity).",
    shell_complete=complete_own_identity,
)
game_argument = click.argument("target", metavar="GAME", shell_complete=complete_game)
"""A game file, or the id (or its first characters) of a game in your store."""


def named_ruleset(name: str) -> Ruleset:
    """The ruleset a command line names; an unknown one is a usage error (exit 2) in every
    command (a game file naming one is refused, exit 1, by the registry)."""
    from pbem.ruleset import registry

    targets = registry.available()
    if name not in targets:
        raise UsageError(
            N_("unknown ruleset {name!r} (installed: {known})").format(
                name=name, known=", ".join(sorted(targets))
            )
        )
    return registry.instance(targets[name])


def option_pairs(pairs: tuple[str, ...]) -> dict[str, str]:
    """``--option K=V`` values as a dict; a malformed one is a usage error."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UsageError(N_("--option takes KEY=VALUE, not {pair!r}").format(pair=pair))
        out[name] = value
    return out


def ruleset_options(rules: Ruleset, pairs: tuple[str, ...]) -> dict[str, Any]:
    """``--option K=V`` values, checked against what the ruleset documents (the values
    ``pbem new --help`` lists) and normalized by it; a bad one is a usage error."""
    from pbem.ruleset.options import normal_options
    from pbem.ruleset.rules import RulesError

    try:
        return normal_options(rules, option_pairs(pairs))
    except RulesError as exc:
        raise UsageError(str(exc)) from exc


def emit(as_json: bool, report: dict[str, Any], lines: list[str]) -> None:
    """A command's answer: the lines, or with ``--json`` the report as one object with
    ``"ok": true`` (so that a script tests one key, whatever the command). Each line made
    in English from a marked message is shown in the reader's language (``localize``)."""
    if as_json:
        click.echo(json.dumps({**report, "ok": True}, indent=1, sort_keys=True))
    else:
        for line in lines:
            click.echo("\n".join(localize(part) for part in line.split("\n")))


def emit_refused(
    as_json: bool, report: dict[str, Any], lines: list[str], err: PbemError
) -> NoReturn:
    """A report that ends in a refusal (``receive`` with a bad message, ``verify`` finding
    a fork): the lines, then the error as usual; with ``--json`` one object, the report
    with ``ok`` false and the error's fields, so that stdout holds one JSON value."""
    if as_json:
        report = {**report, "ok": False, "error": " ".join(str(err).split()), "code": err.code}
        report |= {"step": None, "seat": None, **where_of(err)}
        if err.detail:
            report["detail"] = err.detail
        click.echo(json.dumps(report, indent=1, sort_keys=True))
        sys.exit(err.exit_code)
    emit(False, report, lines)
    raise err


def said_read(opened: Opened, store: Store, as_json: bool) -> dict[str, Any]:
    """A reading command says what it read: when the file given is behind the store's
    head, one line on stderr (the answer on stdout is the head's); with ``--json`` the
    report's ``read`` and ``head`` (returned)."""
    if not as_json:
        for line in opened.notes(store):
            click.echo(line, err=True)
    return opened.read(store)


# ----- who is acting ----------------------------------------------------------------------


def own_name(as_name: str | None, keyring: Keyring, seats: list[IdentityCard] | None) -> str:
    """Who acts, decided in one place for every command: ``--as``, else ``$PBEM_AS``, else
    the own identity that holds a seat in the game (``seats``, when given), else the only
    own identity. ``--as`` is needed only to choose among several seated (or, outside a
    game, several) identities; the refusal then names them."""
    name = as_name or os.environ.get("PBEM_AS")
    if name is not None:
        return name
    own = [card for card, private in keyring.list() if private]
    keys = {c.sign_key for c in seats or []}
    seated = [c for c in own if c.sign_key in keys]
    own = seated or own
    if not own:
        raise UsageError(
            N_("your keyring holds no identity of yours (make one: pbem key new NAME)")
        )
    if len(own) != 1:
        names = ", ".join(sorted(c.name for c in own))
        if seated:
            said = N_(
                "say who you are with --as NAME (these identities hold a seat in this game: "
                "{names})"
            )
        else:
            said = N_(
                "say who you are with --as NAME (these identities are in your keyring: {names})"
            )
        raise UsageError(said.format(names=names))
    return own[0].name


def identity(as_name: str | None, seats: list[IdentityCard] | None = None) -> Identity:
    """The acting identity, unsealed (a passphrase may be asked)."""
    from pbem.crypto.keyring import Keyring

    keyring = Keyring()
    return load_identity(keyring, own_name(as_name, keyring, seats))


def read_as(as_name: str | None, seats: list[IdentityCard]) -> Identity | None:
    """Who reads a game's private parts (``log``, ``show``): the one named (``--as`` or
    ``$PBEM_AS``; its failure is an error), else the own identity seated in the game when
    it can be opened without asking (no passphrase, or ``$PBEM_PASSPHRASE``), else nobody."""
    if as_name is not None or os.environ.get("PBEM_AS"):
        return identity(as_name, seats)
    card = own_card(None, seats)
    if card is None or card.sign_key not in {c.sign_key for c in seats}:
        return None
    try:
        return identity(card.name, seats)
    except UsageError:
        return None


def acting_card(as_name: str | None, seats: list[IdentityCard]) -> IdentityCard:
    """Who acts in a game, without unsealing anything; when it cannot be told, the refusal
    names the candidates (``own_name``)."""
    from pbem.crypto.keyring import Keyring

    keyring = Keyring()
    return keyring.card(own_name(as_name, keyring, seats))


def own_card(as_name: str | None, seats: list[IdentityCard] | None = None) -> IdentityCard | None:
    """Who is reading, without unsealing anything: None when it cannot be told."""
    from pbem.crypto.keyring import Keyring

    keyring = Keyring()
    try:
        return keyring.card(own_name(as_name, keyring, seats))
    except UsageError:
        if as_name is not None:
            raise
        return None


# ----- games in the store -------------------------------------------------------------------


def awaited(position: Position) -> dict[str, Any]:
    """Who is awaited, as every command's JSON says it: the names of the seats awaited
    (``awaiting``) and the description people read (``next``)."""
    from pbem.ledger.awaiting import describe_awaiting

    return {
        "awaiting": [position.cards[s].name for s in position.remaining()],
        "next": describe_awaiting(position),
    }


def next_steps(
    position: Position, target: str, me: IdentityCard | None
) -> tuple[dict[str, Any], list[str]]:
    """Who must act next and whom to send the file to, as a report and as lines."""
    from pbem.ledger.awaiting import cosigners, owes_automatic, seat_of_card, signature_due

    waiting = list(position.remaining())
    cards = position.cards
    mine = me is not None and any(cards[s].sign_key == me.sign_key for s in waiting)
    others = [cards[s] for s in waiting if me is None or cards[s].sign_key != me.sign_key]
    if position.interrupt is not None:  # a call or a handover the others must sign too
        mine = False  # nobody decides while it is signed: its signers sign it
        cosign = cosigners(position, me)
        others = [*cosign, *(c for c in others if c not in cosign)]
    report = {
        "file": target,
        **awaited(position),
        "send_to": [f"{c.name} <{c.email}>" for c in others],
        "your_move": mine,
        "over": position.result is not None,
    }
    lines = [_("next: {what}").format(what=localize(report["next"]))]
    lines += signature_due(position, me, target)
    if position.result is not None:
        lines.append(_("the game is over: send the file to everyone"))
    seat = seat_of_card(position, me)
    if mine and owes_automatic(position, seat):
        lines.append(_("your automatic step is due: pbem play {game}").format(game=target))
    elif mine:
        lines.append(_("your move: pbem moves {game}").format(game=target))
    if others:
        said = _("send {file} to {to}").format(file=target, to=", ".join(report["send_to"]))
        lines.append(said)
    return report, lines
