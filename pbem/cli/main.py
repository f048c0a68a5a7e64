"""``pbem``: the command line. Each command parses, calls the core, prints what happened
and what to do next. Exit codes (the README's table, held by every command): 0 done,
1 a file, move or input was refused, 2 usage or I/O error, 3 a bug in pbem, 130
interrupted. With ``--json`` every answer is one JSON object on stdout with ``ok``, and
every error, a usage error included, one with ``ok`` false, ``error`` and ``code``.

Commands are imported only when they run (``pbem --version`` imports none of them), so
that start-up costs what the command needs and no more."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

import click
from click.shell_completion import CompletionItem

from pbem import __version__

#: Every command, by name: the module and attribute that define it, and the line that
#: ``pbem --help`` and shell completion show for it, given here so that listing the commands
#: imports none of them (a TAB costs what the command completed needs, not all of pbem).
COMMANDS = {
    "new": ("pbem.cli.game:new", "Create a game of a ruleset and sign its genesis."),
    "play": ("pbem.cli.game:play", "Check your move, sign it and write the new file."),
    "merge": ("pbem.cli.game:merge", "Combine copies of one game that arrived apart."),
    "export": ("pbem.cli.game:export", "Write your newest copy of a game as a file."),
    "call": ("pbem.cli.rescue:call", "Call seats awaited past their deadline."),
    "resign": ("pbem.cli.rescue:resign", "Give up your seat to a stand-in."),
    "handover": ("pbem.cli.rescue:handover", "Hand your seat to a substitute, or co-sign it."),
    "status": ("pbem.cli.look:status", "Show the table and what is awaited from whom."),
    "moves": ("pbem.cli.look:moves", "List your legal moves now, with their notation."),
    "log": ("pbem.cli.look:log", "The verified history, one line per step."),
    "verify": ("pbem.cli.verify:verify", "Re-check every signature, proof and rule of files."),
    "show": ("pbem.cli.show:show", "Draw the game as a page: board, players, history."),
    "key": ("pbem.cli.key:key", "Identities: your keys and the other players' cards."),
    "send": ("pbem.cli.mail:send", "Mail your newest copy of a game to the players."),
    "receive": ("pbem.cli.mail:receive", "Import the game files in mail."),
    "games": ("pbem.cli.mail:games", "The games in your store and whose move it is."),
    "watch": ("pbem.cli.mail:watch", "The mail robot: import, answer and send by IMAP."),
    "config": ("pbem.cli.mailconfig:config", "Mail settings: SMTP, IMAP, the notify command."),
    "rules": ("pbem.cli.rules:rules", "The rules of a game, or one section of them."),
    "selfplay": ("pbem.cli.selfplay:selfplay", "Play complete games with bots."),
    "schema": ("pbem.cli.schema:schema", "Write the JSON Schemas of the file format."),
    "ui": ("pbem.cli.ui:ui", "Show your games in the browser and play them there."),
}


class Lazy(click.Group):
    """A group that imports a command's module only when the command is used: listing
    the commands (``pbem --help``, completing a command's name) reads ``COMMANDS``."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        target, short_help = COMMANDS[name]
        module, _, attr = target.partition(":")
        command: click.Command = getattr(importlib.import_module(module), attr)
        command.short_help = short_help
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][1]) for name in self.list_commands(ctx)])

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        names = [n for n in self.list_commands(ctx) if n.startswith(incomplete)]
        found = [CompletionItem(n, help=COMMANDS[n][1]) for n in names]
        return found + click.Command.shell_complete(self, ctx, incomplete)

    def main(self, args: Sequence[str] | None = None, *more: Any, **extra: Any) -> Any:
        """As click's, except that a usage error (a missing argument, an unknown option)
        is, with ``--json``, a JSON object on stdout like every other error (exit 2), and
        that Ctrl-C before a command runs (or Ctrl-D at a prompt click asks) is one line
        and exit 130 as everywhere, not click's "Aborted!" and exit 1."""
        if more or extra.get("standalone_mode") is False:
            return super().main(args, *more, **extra)
        argv = list(args) if args is not None else sys.argv[1:]
        as_json = "--json" in argv
        try:
            done = super().main(argv, *more, **{**extra, "standalone_mode": False})
        except click.ClickException as exc:
            if not as_json:
                exc.show()
                sys.exit(exc.exit_code)
            from pbem.format.errors import UsageError

            report = {
                "ok": False,
                "error": exc.format_message(),
                "code": UsageError.code,
                "step": None,
                "seat": None,
            }
            click.echo(json.dumps(report, indent=1, sort_keys=True))
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            from pbem.cli.common import interrupted

            interrupted(as_json)
        sys.exit(done if isinstance(done, int) else 0)


@click.group(cls=Lazy)
@click.version_option(version=__version__, prog_name="pbem")
def main() -> None:
    """Play board games by email: every rule enforced, every move signed."""
