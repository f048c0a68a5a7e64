"""Where ``pbem receive`` reads mail from: one message file (``.eml``), an mbox, a Maildir,
or standard input (a mail filter such as procmail or a Sieve ``pipe`` hands one message).

Mailboxes are opened read-only in effect: messages are read, never removed or flagged.
"""

from __future__ import annotations

import mailbox
import sys
from collections.abc import Iterator
from pathlib import Path

from pbem.format.errors import Unreadable, UsageError


def read_messages(source: str) -> Iterator[tuple[str, bytes]]:
    """``(where, raw bytes)`` for every message in ``source``."""
    if source == "-":
        yield "standard input", sys.stdin.buffer.read()
        return
    path = Path(source)
    if path.is_dir():
        yield from _maildir(path)
        return
    try:
        with path.open("rb") as handle:
            first = handle.readline()
    except FileNotFoundError:
        raise Unreadable(f"{path}: no such file or mailbox") from None
    except OSError as exc:
        raise Unreadable(f"{path}: cannot open ({exc.strerror})") from None
    if first.startswith(b"From "):
        yield from _mbox(path)
    else:
        yield str(path), path.read_bytes()


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
