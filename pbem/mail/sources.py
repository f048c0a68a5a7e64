"""Where ``pbem receive`` reads mail from: one message file (``.eml``), an mbox, a Maildir,
or standard input (a mail filter such as procmail or a Sieve ``pipe`` hands one message).

Mailboxes are opened read-only in effect: messages are read, never removed or flagged.
"""

from __future__ import annotations

import mailbox
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from pbem.format.errors import PbemError, Unreadable, UsageError
from pbem.format.limits import MAX_MAIL_BYTES, check_size, open_input, read_input


def read_messages(source: str) -> Iterator[tuple[str, bytes | PbemError]]:
    """``(where, raw bytes)`` for every message in ``source`` (or ``(where, error)`` for
    a message of a mailbox that cannot be read: the others still are). A message file is read
    as any input file is (a regular file, within the mail size limit); standard input up
    to that limit."""
    if source == "-":
        data = sys.stdin.buffer.read(MAX_MAIL_BYTES + 1)
        check_size(len(data), MAX_MAIL_BYTES, "the message on standard input")
        yield "standard input", data
        return
    path = Path(source)
    if path.is_dir():
        yield from _maildir(path)
        return
    if not os.path.lexists(path):
        raise Unreadable(f"{path}: no such file or mailbox")
    with open_input(path) as handle:
        first = handle.read(len(b"From "))
    if first == b"From ":
        yield from _mbox(path)
    else:
        yield str(path), read_input(path, limit=MAX_MAIL_BYTES)


def _maildir(path: Path) -> Iterator[tuple[str, bytes | PbemError]]:
    """The messages of ``new/`` and ``cur/``, each read as any input file is: a regular
    file within the mail size limit (a pipe or a device planted there is refused, never
    waited on), names starting with a dot skipped as Maildir readers do."""
    if not all((path / sub).is_dir() for sub in ("cur", "new", "tmp")):
        raise UsageError(f"{path}: not a Maildir (it needs cur/, new/ and tmp/)")
    for sub in ("new", "cur"):
        for name in sorted(os.listdir(path / sub)):
            if name.startswith("."):
                continue
            try:
                yield f"{path}:{sub}/{name}", read_input(path / sub / name, limit=MAX_MAIL_BYTES)
            except PbemError as exc:  # this message's problem: the others are still read
                yield f"{path}:{sub}/{name}", exc


def _mbox(path: Path) -> Iterator[tuple[str, bytes | PbemError]]:
    box = mailbox.mbox(path, factory=None, create=False)
    try:
        for number, key in enumerate(box.iterkeys(), 1):
            data = box.get_bytes(key)
            try:
                check_size(len(data), MAX_MAIL_BYTES, f"{path} #{number}")
            except PbemError as exc:
                yield f"{path} #{number}", exc
                continue
            yield f"{path} #{number}", data
    finally:
        box.close()
