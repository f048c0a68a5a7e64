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
from pbem.cli.commands import COMMANDS
from pbem.format.i18n import ENGLISH, LANGUAGES, N_, _, resolve, use


class Lazy(click.Group):
    """A group that imports a command's module only when the command is used: listing
    the commands (``pbem --help``, completing a command's name) reads ``COMMANDS``."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        target, short_help = COMMANDS[name]
        module, _colon, attr = target.partition(":")
        command: click.Command = getattr(importlib.import_module(module), attr)
        from pbem.cli.helptexts import translate

        translate(command)
        command.short_help = _(short_help)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section(_("Commands")):
            names = self.list_commands(ctx)
            formatter.write_dl([(name, _(COMMANDS[name][1])) for name in names])

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The group's help (its docstring), in the reader's language."""
        if self.help:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(_(self.help))

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        names = [n for n in self.list_commands(ctx) if n.startswith(incomplete)]
        found = [CompletionItem(n, help=_(COMMANDS[n][1])) for n in names]
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
        # --json is for programs, identical in every language (click's errors included)
        use(ENGLISH if as_json else resolve(lang_option(argv)))
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


def lang_option(argv: list[str]) -> str | None:
    """The value of ``--lang`` among the options before the command (``pbem --lang ja
    status``), read before click parses anything so that click's own words ("Usage:", its
    errors) are in that language too."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
        if not arg.startswith("-"):
            return None
    return None


class Translated(click.Option):
    """An option whose help is translated when shown (its help is made at import time)."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        return (record[0], _(record[1])) if record else None


@click.group(
    cls=Lazy, help=N_("Play board games by email: every rule enforced, every move signed.")
)
@click.version_option(
    version=__version__,
    prog_name="pbem",
    cls=Translated,
    help=N_("Show the version and exit."),  # click's own words, translated when shown
)
@click.option(
    "--lang",
    cls=Translated,
    type=click.Choice(LANGUAGES),
    expose_value=False,
    help=N_("The language to speak (else pbem config's lang, else the locale)."),
)
def main() -> None:
    """The ``pbem`` command (its help, above, is translated when shown)."""
