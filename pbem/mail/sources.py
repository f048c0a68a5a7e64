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

from pbem.format.errors import Unreadable, UsageError
from pbem.format.limits import MAX_MAIL_BYTES, check_size, open_input, read_input


def read_messages(source: str) -> Iterator[tuple[str, bytes]]:
    """``(where, raw bytes)`` for every message in ``source``. A message file is read
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


def _maildir(path: Path) -> Iterator[tuple[str, bytes]]:
    if not all((path / sub).is_dir() for sub in ("cur", "new", "tmp")):
        raise UsageError(f"{path}: not a Maildir (it needs cur/, new/ and tmp/)")
    box = mailbox.Maildir(path, factory=None, create=False)
    for key in sorted(box.iterkeys()):
        yield f"{path}:{key}", box.get_bytes(key)


def _mbox(path: Path) -> Iterator[tuple[str, bytes]]:
    box = mailbox.mbox(path, factory=None, create=False)
    try:
        for number, key in enumerate(box.iterkeys(), 1):
            yield f"{path} #{number}", box.get_bytes(key)
    finally:
        box.close()
