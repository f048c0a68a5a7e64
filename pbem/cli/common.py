"""What every command shares: error reporting, loading a verified game, choosing the acting
identity, writing the new file beside the old one, and saying what happens next."""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, ParamSpec, TypeVar

import click

from pbem.core import gamefile, registry
from pbem.core.author import automatic, describe_awaiting, seat_of
from pbem.core.errors import PbemError, UsageError
from pbem.core.files import atomic_write
from pbem.core.keys import Identity, Keyring
from pbem.core.replay import Replay, replay_file

P = ParamSpec("P")
R = TypeVar("R")

PASSPHRASE_ENV = "PBEM_PASSPHRASE"
DEBUG_ENV = "PBEM_DEBUG"
#: Exit codes beyond DESIGN §8's 0, 1 (refused) and 2 (usage or I/O): a bug, an interrupt.
INTERNAL_ERROR = 3
INTERRUPTED = 130


def fail(message: str, exit_code: int, *, detail: str | None = None) -> NoReturn:
    """Print ``pbem: error: …`` as a single line on stderr (then any evidence) and exit."""
    one_line = " ".join(message.split())
    click.echo(f"pbem: error: {one_line}", err=True)
    if detail:
        click.echo(detail, err=True)
    sys.exit(exit_code)


def reports_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn a ``PbemError`` (or an unexpected I/O error) raised by a command into one line
    on stderr and its exit code, so users see the reason and scripts see 1 or 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except PbemError as err:
            fail(str(err), err.exit_code, detail=err.detail)
        except OSError as err:
            where = f": {err.filename}" if err.filename else ""
            fail(f"{err.strerror or err}{where}", UsageError.exit_code)
        except KeyboardInterrupt:
            fail("interrupted", INTERRUPTED)
        except Exception as err:  # a bug: still one line, never a traceback (DESIGN §8)
            if os.environ.get(DEBUG_ENV):
                raise
            fail(
                f"internal error ({type(err).__name__}: {err}); this is a bug in pbem, please "
                f"report it (set {DEBUG_ENV}=1 to see where it happened)",
                INTERNAL_ERROR,
            )

    return wrapper


def _stdin_is_tty() -> bool:
    """Whether a person can be asked (a separate function so tests can pretend)."""
    return sys.stdin is not None and sys.stdin.isatty()


def read_passphrase(name: str, *, new: bool = False) -> str:
    """The passphrase for identity ``name``: ``PBEM_PASSPHRASE`` for scripts, else a hidden
    prompt (asked twice for a new key) when a person is at the terminal. Never blocks a
    script on a prompt it cannot answer."""
    env = os.environ.get(PASSPHRASE_ENV)
    if env is not None:
        return env
    if not _stdin_is_tty():
        hint = " or use --no-passphrase" if new else ""
        raise UsageError(
            f"a passphrase is needed for identity {name!r} and there is no terminal to ask: "
            f"set {PASSPHRASE_ENV}{hint}"
        )
    prompt = f"New passphrase for {name}" if new else f"Passphrase for {name}"
    value: str = click.prompt(
        prompt,
        hide_input=True,
        confirmation_prompt="Repeat the passphrase" if new else False,
    )
    return value


def load_identity(keyring: Keyring, name: str) -> Identity:
    """Open an own identity, asking for its passphrase only if it is sealed. For every
    command that signs."""
    passphrase = read_passphrase(name) if keyring.needs_passphrase(name) else None
    return keyring.load(name, passphrase)


json_option = click.option("--json", "as_json", is_flag=True, help="Print a JSON report.")
as_option = click.option(
    "--as",
    "as_name",
    metavar="NAME",
    help="Act as this identity of your keyring (default: $PBEM_AS, or your only identity).",
)
out_option = click.option(
    "-o", "--output", type=click.Path(path_type=Path), help="Where to write the new game file."
)


def option_pairs(pairs: tuple[str, ...]) -> dict[str, str]:
    """``--option K=V`` values as a dict; a malformed one is a usage error."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--option takes KEY=VALUE, not {pair!r}")
        out[name] = value
    return out


def emit(as_json: bool, report: dict[str, Any], lines: list[str]) -> None:
    if as_json:
        click.echo(json.dumps(report, indent=1, sort_keys=True))
    else:
        for line in lines:
            click.echo(line)


def load(path: Path) -> Replay:
    """Read and fully verify a game file."""
    game = gamefile.read(path)
    return replay_file(game, registry.get(game.genesis.ruleset.id))


def identity(as_name: str | None, *, required: bool = True) -> Identity | None:
    """The acting identity: ``--as``, else ``$PBEM_AS``, else the keyring's only one."""
    keyring = Keyring()
    name = as_name or os.environ.get("PBEM_AS")
    if name is None:
        own = [card.name for card, private in keyring.list() if private]
        if len(own) == 1:
            name = own[0]
        elif not required:
            return None
        else:
            raise UsageError(
                f"say who you are with --as NAME (your keyring holds {len(own)} identities)"
            )
    return load_identity(keyring, name)


def seat_identity(replay: Replay, as_name: str | None, *, required: bool) -> Identity | None:
    """The acting identity if it holds a seat in this game (else None when not required)."""
    ident = identity(as_name, required=required)
    if ident is None:
        return None
    if not required and all(c.sign_key != ident.card.sign_key for c in replay.genesis.seats):
        return None
    seat_of(replay, ident)
    return ident


STEP_SUFFIX = re.compile(r"\.\d{4,}$")


def output_path(source: Path, replay: Replay, explicit: Path | None) -> Path:
    """Never the input: ``game.json`` becomes ``game.0007.json`` beside it, numbered by the
    signatures the game holds, so every new version gets a new name."""
    if explicit is not None:
        target = explicit
    else:
        stem = STEP_SUFFIX.sub("", source.stem)
        count = replay.signatures
        target = source.with_name(f"{stem}.{count:04d}{source.suffix or '.json'}")
    if target.resolve() == source.resolve():
        raise UsageError(f"{target}: will not overwrite the input file; name another with -o")
    return target


def save(replay: Replay, target: Path) -> None:
    atomic_write(target, gamefile.encode(replay.to_file()).encode())


def next_steps(
    replay: Replay, target: Path, me: Identity | None
) -> tuple[dict[str, Any], list[str]]:
    """Who must act next and whom to send the file to, as a report and as lines."""
    waiting = list(replay.remaining())
    cards = replay.genesis.seats
    mine = me is not None and any(cards[s].sign_key == me.card.sign_key for s in waiting)
    others = [cards[s] for s in waiting if me is None or cards[s].sign_key != me.card.sign_key]
    report = {
        "file": str(target),
        "awaiting": [cards[s].name for s in waiting],
        "next": describe_awaiting(replay),
        "send_to": [f"{c.name} <{c.email}>" for c in others],
        "your_move": mine,
        "over": replay.result is not None,
    }
    lines = [f"next: {report['next']}"]
    if replay.result is not None:
        lines.append("the game is over: send the file to everyone")
    if mine:
        lines.append(f"your move: pbem moves {target}")
    if others:
        lines.append(f"send {target} to " + ", ".join(report["send_to"]))
    return report, lines


def auto(replay: Replay, me: Identity | None) -> int:
    """The steps ``me`` owes without a decision (join, beacon, reveal)."""
    return automatic(replay, me) if me is not None else 0
