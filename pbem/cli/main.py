"""``pbem``: the command line. Each command parses, calls the core, prints what happened
and what to do next. Exit codes: 0 done, 1 rejected, 2 usage or I/O error, 3 a bug.

Commands are imported only when they run (``pbem --version`` imports none of them), so
that start-up costs what the command needs and no more."""

from __future__ import annotations

import importlib
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


@click.group(cls=Lazy)
@click.version_option(version=__version__, prog_name="pbem")
def main() -> None:
    """Play board games by email: every rule enforced, every move signed."""
