"""Waiting for mail between two passes of the robot: IMAP IDLE (RFC 2177) where the server
offers it, through the IMAPClient library, else a plain sleep (polling).

The robot also wakes when another process of its home changes the store (``changed``,
looked at every ``LOOK`` seconds while it waits): a step the player signed with ``pbem
play`` is then acted on at once, not at the next mail or poll.

Waiting decides only *when* the next pass runs, never *what* it reads: every pass reads by
UID from what the robot's memory says it took last (``pbem.mail.robot``). So a dropped
connection, a server restart or a message that arrived while no IDLE was running loses
nothing; at worst it is read one wait later. Before it idles, the waiter checks whether
the mailbox already holds messages beyond the last UID taken (they may have arrived
between the pass and the wait) and returns at once if so. IDLE is renewed every
``imap.idle_seconds`` (9 minutes unless set): servers, routers and NAT boxes drop a
connection silent for 5 to 10 minutes, long before RFC 2177's 29. A connection that fails
is tried again after a pause that doubles with each failure in a row.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import time
from collections.abc import Callable
from typing import Any, Literal

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from pbem.mail import transport
from pbem.mail.config import Imap

Woken = Literal["mail", "store", "timeout", "polled", "dropped"]
#: How often a waiting robot looks whether another process changed its store.
LOOK = 2.0
#: After a dropped connection, wait this long before the next pass (a server restarting),
#: twice as long after each further failure in a row, up to ``MOST_RETRY``.
RETRY = 2.0
MOST_RETRY = 120.0
#: A bad ca_file is a MailError: retried, as the pass that reports it is.
ERRORS = (IMAPClientError, transport.MailError, OSError, EOFError, socket.timeout, ssl.SSLError)


class Waiter:
    """Waits on one mailbox; ``idle`` is None until the server said whether it has IDLE."""

    def __init__(
        self,
        server: Imap,
        password: str | None,
        tell: Callable[[str], None] = lambda line: None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.server = server
        self._password = password
        self._tell = tell
        self._sleep = sleep
        self.idle: bool | None = None
        self.failures = 0
        """Connections that failed in a row: the wait before the next pass grows with them."""

    def wait(
        self,
        seconds: float,
        uidvalidity: int,
        last_uid: int,
        changed: Callable[[], bool] = lambda: False,
    ) -> Woken:
        """Return when mail may have come, or after ``seconds``: ``mail`` (the server
        said so, or messages past ``last_uid`` were waiting), ``store`` (``changed()``
        said another process changed the store), ``timeout``, ``polled`` (the server has no
        IDLE: slept), ``dropped`` (the connection failed: slept a little, so that the next
        pass comes soon and reads what it missed)."""
        try:
            client = self._connect()
        except ERRORS:
            return self._dropped(seconds, changed)
        try:
            woken = self._wait_on(client, seconds, uidvalidity, last_uid, changed)
        except ERRORS:
            return self._dropped(seconds, changed)
        finally:
            with contextlib.suppress(*ERRORS):
                client.logout()
        self.failures = 0
        return woken

    def _dropped(self, seconds: float, changed: Callable[[], bool]) -> Woken:
        """The connection failed: a short nap, longer at each failure in a row (a server
        restarting comes back soon; one that is down is not hammered)."""
        pause = min(seconds, RETRY * 2 ** min(self.failures, 16), MOST_RETRY)
        self.failures += 1
        return self._nap(pause, changed) or "dropped"

    def _connect(self) -> IMAPClient:
        return transport.connect(self.server, self._password)

    def _nap(self, seconds: float, changed: Callable[[], bool]) -> Woken | None:
        """Sleep ``seconds`` in slices of ``LOOK``; ``store`` as soon as ``changed()``."""
        slept = 0.0
        while slept < seconds:
            if changed():
                return "store"
            step = min(seconds - slept, LOOK)
            self._sleep(step)
            slept += step
        return "store" if changed() else None

    def _wait_on(
        self,
        client: IMAPClient,
        seconds: float,
        uidvalidity: int,
        last: int,
        changed: Callable[[], bool],
    ) -> Woken:
        folder = client.select_folder(self.server.mailbox, readonly=True)
        uidnext = int(folder.get(b"UIDNEXT", 0))
        if int(folder.get(b"UIDVALIDITY", 0)) != uidvalidity or uidnext - 1 > last:
            return "mail"  # arrived since the pass (or the mailbox was rebuilt)
        idle = client.has_capability("IDLE")
        if idle != self.idle:  # said once, and again only if the server changes its mind
            self._tell(
                "waiting for mail with IMAP IDLE"
                if idle
                else f"the IMAP server offers no IDLE: looking for mail every {seconds:g} s"
            )
        self.idle = idle
        if not idle:
            return self._nap(seconds, changed) or "polled"
        deadline = time.monotonic() + seconds
        client.idle()
        idling = True
        renew = time.monotonic() + self.server.idle_seconds
        try:
            while (left := deadline - time.monotonic()) > 0:
                if changed():
                    return "store"
                if time.monotonic() >= renew:  # routers forget a silent connection
                    idling = False
                    if _news(client.idle_done()[1]):
                        return "mail"
                    client.idle()
                    idling = True
                    renew = time.monotonic() + self.server.idle_seconds
                asked = min(left, renew - time.monotonic(), LOOK)
                responses = client.idle_check(timeout=max(asked, 0.0))
                if _news(responses):
                    return "mail"
                if not responses and deadline - time.monotonic() > left - asked + 0.5:
                    # Woken early with nothing to read: the connection ended (IMAPClient
                    # returns at EOF), or a reply came in part. Ending IDLE tells which:
                    # it fails on a dead connection ("dropped"), else a pass looks.
                    return "mail"
            return "timeout"
        finally:
            if idling:
                client.idle_done()


def _news(responses: list[Any]) -> bool:
    """Whether the server's untagged responses say that a message arrived."""
    return any(len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in responses)
