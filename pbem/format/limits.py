"""The input limits (``schemas/format.md`` §11, README "Limits"): stated once, here, and
checked before anything untrusted is parsed.

Whatever reaches pbem from outside (a file named on the command line, a mail, an option
value) is measured against these numbers first, with checks that cost one pass of C code
over the bytes and cannot recurse, so that no input can make a parser run out of stack,
memory or time. A refusal is an ``OverLimit``: one line, exit 1, and in mail the message is
quarantined (recorded with its reason, marked as read) instead of stopping the robot.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from typing import BinaryIO

from pbem.format.errors import Rejected, Unreadable
from pbem.format.i18n import N_

MIB = 1024 * 1024
MAX_FILE_BYTES = 64 * MIB
"""A game file, a bundle, a card, a key file, a settings file."""
MAX_MAIL_BYTES = 96 * MIB
"""One mail message: a game file at its largest, base64-encoded, and headers."""
MAX_DEPTH = 64
"""JSON nesting (the format needs fewer than 10 levels)."""
MAX_INT_DIGITS = 16
"""Digits of an integer: 2^53 − 1, JCS's largest exact integer, has 16. Integers are
refused on their digit string, before it is converted."""
MAX_MIME_PARTS = 64
"""Parts of one mail, containers included (a pbem mail has fewer than 10)."""
MAX_MIME_DEPTH = 8
"""Nesting of MIME parts (a mail forwarded within a forward is 4 deep)."""
MAX_ATTACHMENTS = 16
"""Attachments of one mail."""
MAX_HEADER_BYTES = 16 * 1024
"""One header field of a mail, with its continuation lines (the stdlib parser takes time
that grows faster than the length: 20,000 parameters take seconds)."""
MAX_READ_HEADER_BYTES = 2 * 1024
"""One of the header fields pbem reads (``READ_HEADERS``): those are parsed, the others
only measured."""
READ_HEADERS = frozenset(
    {"from", "subject", "message-id", "x-pbem-reminder", "content-type", "content-disposition",
     "content-transfer-encoding"}
)  # fmt: skip
MAX_MIME_PARAMETERS = 32
"""Parameters of a Content-Type or Content-Disposition field (pbem writes 2)."""

#: The limits as they are documented (``pbem.format.limits`` is their one source).
STATED = {
    "file size": f"{MAX_FILE_BYTES // MIB} MiB",
    "mail size": f"{MAX_MAIL_BYTES // MIB} MiB",
    "JSON nesting": f"{MAX_DEPTH} levels",
    "integer digits": str(MAX_INT_DIGITS),
    "MIME parts": str(MAX_MIME_PARTS),
    "MIME nesting": f"{MAX_MIME_DEPTH} levels",
    "attachments": str(MAX_ATTACHMENTS),
    "mail header field": f"{MAX_HEADER_BYTES // 1024} KiB",
    "mail header field read": f"{MAX_READ_HEADER_BYTES // 1024} KiB",
    "MIME parameters": str(MAX_MIME_PARAMETERS),
}


class OverLimit(Rejected):
    """Input refused by a limit before it was parsed: hostile or broken, never a game's."""


def check_size(size: int, limit: int, what: str) -> None:
    if size > limit:
        raise OverLimit(
            N_("{what} is larger than {number} MiB").format(what=what, number=limit // MIB)
        )


# The structure of JSON text, as bytes: escaped backslashes and quotes dropped (left to
# right, as a parser pairs them), then everything but brackets and quotes, then strings
# (now only brackets between quotes). Each is one pass of C code, linear whatever the input.
_STRUCTURE = bytes(set(range(256)) - set(b'[]{}"'))
_STRING = re.compile(rb'"[^"]*"')
_INNERMOST = re.compile(rb"\[\]|\{\}")


def check_json(data: bytes | str, what: str, limit: int = MAX_FILE_BYTES) -> None:
    """Refuse JSON text that is too large or nested deeper than ``MAX_DEPTH``, measured on
    the text: its strings blanked, its brackets kept, innermost pairs removed one level
    per pass (at most ``MAX_DEPTH`` + 1 passes). Text that is not balanced is left to the
    parser, which refuses it without recursing further than the text is balanced."""
    check_size(len(data), limit, what)
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    bare = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _STRUCTURE)
    brackets = _STRING.sub(b"", bare)
    for _ in range(MAX_DEPTH):
        if not brackets:
            return
        fewer = _INNERMOST.sub(b"", brackets)
        if fewer == brackets:
            return  # unbalanced: not JSON, and the parser says where
        brackets = fewer
    if _INNERMOST.search(brackets):
        raise OverLimit(
            N_("{what}: JSON is nested deeper than {max_depth} levels").format(
                what=what, max_depth=MAX_DEPTH
            )
        )


def check_digits(text: str, what: str) -> None:
    """Refuse a number written with more than ``MAX_INT_DIGITS`` digits before ``int()``
    sees it (Python refuses more than 4,300 with a ``ValueError``, and is slow below)."""
    digits = len(text.strip().lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        raise OverLimit(
            N_("{what}: a number of {digits} digits (at most {max_int_digits})").format(
                what=what, digits=digits, max_int_digits=MAX_INT_DIGITS
            )
        )


def open_input(path: Path, what: str | None = None) -> BinaryIO:
    """A regular file, opened for reading. Anything else (a FIFO, a device such as
    ``/dev/zero``, a socket) is refused without reading, since reading it could block
    forever or never end; a missing file, a folder, a symlink loop or a permission
    problem is one line with exit 2."""
    name = what or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise Unreadable(N_("{name}: no such file").format(name=name)) from None
    except IsADirectoryError:
        raise Unreadable(N_("{name}: is a folder, not a file").format(name=name)) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Unreadable(N_("{name}: a loop of symbolic links").format(name=name)) from None
        raise Unreadable(
            N_("{name}: cannot read ({strerror})").format(name=name, strerror=exc.strerror)
        ) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise Unreadable(N_("{name}: is a folder, not a file").format(name=name))
        raise Unreadable(
            N_("{name}: is not a regular file (a pipe or a device is never read)").format(name=name)
        )
    return os.fdopen(fd, "rb")


def read_input(path: Path, what: str | None = None, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file (``open_input``), at most ``limit`` of them."""
    name = what or str(path)
    with open_input(path, name) as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise Unreadable(
                N_("{name}: cannot read ({strerror})").format(name=name, strerror=exc.strerror)
            ) from None
    check_size(len(data), limit, name)
    return data
