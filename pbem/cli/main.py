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

from pbem import __version__

#: Every command, by name: the module and attribute that define it.
COMMANDS = {
    "new": "pbem.cli.game:new",
    "play": "pbem.cli.game:play",
    "merge": "pbem.cli.game:merge",
    "export": "pbem.cli.game:export",
    "call": "pbem.cli.rescue:call",
    "resign": "pbem.cli.rescue:resign",
    "handover": "pbem.cli.rescue:handover",
    "status": "pbem.cli.look:status",
    "moves": "pbem.cli.look:moves",
    "log": "pbem.cli.look:log",
    "verify": "pbem.cli.verify:verify",
    "show": "pbem.cli.show:show",
    "key": "pbem.cli.key:key",
    "send": "pbem.cli.mail:send",
    "receive": "pbem.cli.mail:receive",
    "games": "pbem.cli.mail:games",
    "watch": "pbem.cli.mail:watch",
    "config": "pbem.cli.mail:config",
    "rules": "pbem.cli.rules:rules",
    "selfplay": "pbem.cli.selfplay:selfplay",
    "schema": "pbem.cli.schema:schema",
    "ui": "pbem.cli.ui:ui",
}


class Lazy(click.Group):
    """A group that imports a command's module only when the command is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        command: Any = getattr(importlib.import_module(module), attr)
        return command

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
