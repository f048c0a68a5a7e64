"""A progress line on stderr for work that takes a while: "verifying step k of N".

Shown only when stderr is a terminal and the command has run for over a second, so that
scripts, pipes and quick commands see nothing; rewritten in place, and wiped when the work
is done. It is a callback the command hands to the store or the replay (``Progress`` in
``pbem.ledger.replay``): no global state.
"""

from __future__ import annotations

import sys
import time
import unicodedata
from collections.abc import Callable
from typing import TextIO

from pbem.format.i18n import _

DELAY = 1.0


class Progress:
    def __init__(
        self,
        stream: TextIO | None = None,
        delay: float = DELAY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.clock = clock
        self.start = clock()
        self.width = 0
        self.live = self.stream is not None and self.stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.live or (not self.width and self.clock() - self.start < self.delay):
            return
        if done >= total:
            self.clear()
            return
        text = _("pbem: verifying step {done} of {total}").format(done=done, total=total)
        width = columns(text)
        self.stream.write("\r" + text + " " * max(0, self.width - width))
        self.stream.flush()
        self.width = width

    def clear(self) -> None:
        """Wipe the line (the next output starts on a clean line)."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes: a wide character (Japanese, Chinese) two,
    so that the line is wiped whole in every language."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
