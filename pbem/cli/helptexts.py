"""The help of every command and option, in the reader's language (issue 30).

click takes a command's help from its docstring and an option's from ``help=``, both made
at import time in English. ``translate`` swaps in their translations when a command is
looked up (``pbem.cli.main.Lazy.get_command``), after the language is chosen, keeping the
English to translate again (the tests run many commands, in several languages, in one
process). ``extract`` is Babel's extraction method for them (``babel.cfg``): the texts
are not in ``_()`` calls, so it walks the commands themselves, as ``--help`` shows them."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import IO, Any

import click

from pbem.cli.commands import COMMANDS
from pbem.format.i18n import _

_ENGLISH = "_pbem_english_help"


def translate(command: click.Command) -> None:
    """``command``'s help and its options' (and its subcommands', for a group), in the
    language in use."""
    for item in _items(command):
        english = getattr(item, _ENGLISH, None)
        if english is None:
            english = item.help
            setattr(item, _ENGLISH, english)
        if english:
            item.help = _(english)


def _items(command: click.Command) -> Iterator[Any]:
    """The command and its parameters that have a help, then its subcommands alike."""
    yield command
    yield from (p for p in command.params if isinstance(p, click.Option))
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            yield from _items(sub)


def texts() -> list[str]:
    """Every help text of every command and option, in English."""
    found: list[str] = []
    for target, _summary in COMMANDS.values():
        module, _colon, attr = target.partition(":")
        command = getattr(importlib.import_module(module), attr)
        for item in _items(command):
            english = getattr(item, _ENGLISH, None) or item.help
            if english and english not in found:
                found.append(english)
    return found


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction method for ``pbem/cli/main.py`` (``babel.cfg``): that file's own
    messages, as the Python method finds them, then every command's and option's help."""
    from babel.messages.extract import extract_python

    yield from extract_python(fileobj, keywords, comment_tags, options)
    for text in texts():
        yield 0, None, text, []
