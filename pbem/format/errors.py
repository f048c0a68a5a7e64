"""Errors that reach the user as one line and an exit code (architecture §8)."""

from __future__ import annotations


class PbemError(Exception):
    """Base of every error the CLI reports as one line. ``exit_code``: 1 when a file, a
    key or a move was rejected, 2 for usage or I/O problems, 3 for a bug in pbem. ``code``
    is the class as a word that scripts test (``--json``'s ``code``): it stays the same when
    a message is reworded."""

    exit_code = 1
    code = "rejected"

    def __init__(
        self,
        message: str,
        *,
        detail: str | None = None,
        step: int | None = None,
        seat: int | None = None,
    ) -> None:
        super().__init__(message)
        self.detail = detail
        """Evidence printed after the one-line message (e.g. two signed steps)."""
        self.step = step
        """The step concerned, numbered from 1 as people read it, when there is one."""
        self.seat = seat
        """The seat concerned, when there is one."""


class Rejected(PbemError):
    """Input was read but refused: a bad signature, an illegal move, a wrong passphrase."""

    exit_code = 1
    code = "rejected"


class InternalError(PbemError):
    """A bug in pbem, caught before it could do harm (a file about to be written that is
    not what the store verified, say): the command stops and nothing is written or sent."""

    exit_code = 3
    code = "internal"


class UsageError(PbemError):
    """The command cannot run as asked: a missing file, a missing identity, bad arguments."""

    exit_code = 2
    code = "usage"


class Unreadable(UsageError):
    """A file that is missing or cannot be read (an I/O error, exit 2, code ``io``); a
    file that is read but is not what it should be is ``Rejected`` (exit 1)."""

    code = "io"


#: The codes of what is not a ``PbemError``: an ``OSError`` (exit 2, as ``Unreadable``),
#: and an interrupt (Ctrl-C, or Ctrl-D at a prompt: exit 130).
IO_CODE = Unreadable.code
INTERRUPTED_CODE = "interrupted"
