"""One robot per home: ``pbem watch`` holds an exclusive lock on ``PBEM_HOME/watch.lock``
while it runs, and a second ``watch`` on the same home is refused, naming the first.

Why one: a home has one store and one mail account (``mail.json``), so one reader of its
mailbox. A robot acts for every identity of the home in one process, so a step one of them
makes is the next one's turn at once, nothing is read or sent twice, and nobody waits for a
mail between two seats of the same home. Other commands (``play``, ``receive``, ``ui``)
may run beside it: the store serializes writers and reads from snapshots.

The lock is the operating system's (``fcntl.flock``, or ``msvcrt.locking`` on Windows): it
is released when the process ends, however it ends, so a robot killed with ``kill -9``
never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import IO

from pbem.format.errors import UsageError

FILE_NAME = "watch.lock"


class HomeLock:
    """The lock of the robot of ``home``."""

    def __init__(self, home: Path) -> None:
        self.path = home / FILE_NAME
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock, or refuse in one line naming the robot that holds it."""
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 (held while running)
        if not _lock(handle):
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise UsageError(
                f"pbem watch is running already on {self.path.parent} ({holder}): one robot "
                "acts for every identity of a home; stop it first, or let it do the work"
            )
        handle.seek(0)
        handle.truncate()
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime())
        handle.write(f"pid {os.getpid()}, started {started}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.truncate(0)
            self._file.close()  # closing the file releases the lock
            self._file = None

    def __enter__(self) -> HomeLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _lock(handle: IO[str]) -> bool:
    """An exclusive, non-blocking lock on ``handle``: True when taken."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True
