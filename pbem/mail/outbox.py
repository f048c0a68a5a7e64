"""The outbox: every message pbem mails is queued in the store first (``pbem.mail.memory``)
and marked sent only once an SMTP server took it, so a server that is down, a TLS failure or
a 4xx reply loses nothing: the message waits, and the next ``pbem send`` or pass of ``pbem
watch`` sends it (the robot sooner after a failure, then less and less often: ``Backoff``).

Sending twice is harmless by design: a message is kept as the bytes first queued, so a
retry carries the same Message-ID and body, and every receiving robot takes a message once
by those (``pbem.mail.extract.message_key``); ``pbem receive`` of a copy it has is "nothing
new". That covers the one window no client can close, a crash between the server's
acceptance and the outbox's update. Waiting messages are listed by ``pbem games``
(``Memory.waiting``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import EmailMessage

from pbem.format.errors import PbemError
from pbem.format.i18n import N_, _
from pbem.mail import transport
from pbem.mail.config import Smtp
from pbem.mail.extract import parse_message
from pbem.mail.memory import Memory


@dataclass
class Flushed:
    """What one flush did: the messages sent (the message, who got it), and the failure
    that stopped it (the rest waits)."""

    sent: list[tuple[EmailMessage, list[str]]] = field(default_factory=list)
    failed: PbemError | None = None
    waiting: int = 0

    def recipients(self, message: EmailMessage) -> list[str]:
        """Who got ``message`` (``post``'s); else the failure, saying it waits."""
        for sent, to in self.sent:
            if sent["Message-ID"] == message["Message-ID"]:
                return to
        if self.failed is None:  # the home's robot sent it meanwhile, from the same outbox
            return transport.addresses(message)
        raise transport.MailError(
            N_(
                "{why}; kept in the outbox ({n} waiting): pbem send or pbem watch sends it later"
            ).format(why=self.failed, n=self.waiting)
        ) from self.failed

    def lines(self, but: EmailMessage | list[EmailMessage] | None = None) -> list[str]:
        """One line per message sent (``but`` that one, or those: the caller says it its
        way)."""
        mine = {m["Message-ID"] for m in (but if isinstance(but, list) else [but] if but else [])}
        return [
            _("sent {subject!r} to {to}").format(
                subject=" ".join(str(m["Subject"]).split()), to=m["To"]
            )
            for m, _to in self.sent
            if m["Message-ID"] not in mine
        ]


def flush(memory: Memory, smtp: Smtp, password: str | None) -> Flushed:
    """Send the queued messages, oldest first; stop at the first failure (the server is
    down or refuses: the next ones would fail alike, and order is kept)."""
    done = Flushed()
    for number, raw in memory.outbox():
        message = parse_message(raw)
        try:
            to = transport.send(smtp, password, message)
        except PbemError as exc:
            done.failed = exc
            done.waiting = len(memory.outbox())
            return done
        memory.sent(number)
        done.sent.append((message, to))
    return done


def post(memory: Memory, smtp: Smtp, password: str | None, message: EmailMessage) -> Flushed:
    """Queue ``message`` behind what waits already, then flush."""
    memory.queue(message)
    return flush(memory, smtp, password)


def post_all(
    memory: Memory, smtp: Smtp, password: str | None, messages: list[EmailMessage]
) -> Flushed:
    """Queue ``messages`` (one for each language their recipients read) behind what waits
    already, then flush."""
    for message in messages:
        memory.queue(message)
    return flush(memory, smtp, password)


class Backoff:
    """How long the robot waits after passes whose sending failed: ``FIRST`` seconds, then
    twice as long each time, never more than the usual interval; back to the interval as
    soon as a flush gets through."""

    FIRST = 5.0

    def __init__(self) -> None:
        self.failures = 0

    def record(self, failed: bool) -> None:
        self.failures = self.failures + 1 if failed else 0

    def pause(self, interval: float) -> float:
        if not self.failures:
            return interval
        return min(interval, self.FIRST * 2 ** min(self.failures - 1, 16))
