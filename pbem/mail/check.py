"""``pbem config test``: log in to both servers the way pbem will, and say in one line per
server which stage failed (DNS, TCP, TLS, login, mailbox) and why, or that all went well.

Each stage is its own attempt, so "the port is wrong" (TCP refused) is not reported as
"the password is wrong", and a certificate the system does not trust is named as such."""

from __future__ import annotations

import contextlib
import socket
import ssl
from dataclasses import dataclass
from typing import Literal

from pbem.format.errors import UsageError
from pbem.format.i18n import N_
from pbem.mail import transport
from pbem.mail.config import Imap, Server, Smtp, check_plaintext, port, require_host
from pbem.mail.transport import NETWORK_ERRORS, MailError

Stage = Literal["settings", "DNS", "TCP", "TLS", "server", "login", "mailbox", "ok"]


@dataclass
class Outcome:
    """Where ``kind``'s check stopped (``ok``: it got through) and what was said."""

    kind: str
    stage: Stage
    text: str

    @property
    def ok(self) -> bool:
        return self.stage == "ok"

    def line(self) -> str:
        if self.ok:
            return f"{self.kind}: ok: {self.text}"
        return N_("{kind}: {stage} failed: {text}").format(
            kind=self.kind, stage=self.stage, text=self.text
        )


def check_smtp(server: Smtp, password: str | None) -> Outcome:
    where = _reach(server, "smtp")
    if isinstance(where, Outcome):
        return where
    try:
        smtp = transport.smtp_open(server)
    except NETWORK_ERRORS as exc:
        return _opening("smtp", exc)
    with smtp:
        try:
            transport.smtp_login(smtp, server, password)
        except (*NETWORK_ERRORS, MailError) as exc:
            return Outcome("smtp", "login", _said(exc))
    return Outcome("smtp", "ok", _logged_in(server, where))


def check_imap(server: Imap, password: str | None) -> Outcome:
    where = _reach(server, "imap")
    if isinstance(where, Outcome):
        return where
    try:
        client = transport.imap_open(server)
    except NETWORK_ERRORS as exc:
        return _opening("imap", exc)
    try:
        try:
            transport.imap_login(client, server, password)
        except (*NETWORK_ERRORS, MailError) as exc:
            return Outcome("imap", "login", _said(exc))
        try:
            folder = client.select_folder(server.mailbox, readonly=True)
        except NETWORK_ERRORS as exc:
            why = _said(exc).removeprefix("select failed: ")
            said = N_("cannot open {mailbox!r}: {why}").format(mailbox=server.mailbox, why=why)
            return Outcome("imap", "mailbox", said)
    finally:
        with contextlib.suppress(*NETWORK_ERRORS):
            client.logout()
    count = int(folder.get(b"EXISTS", 0))
    said = N_("{login}, {mailbox!r} holds {n} messages").format(
        login=_logged_in(server, where), mailbox=server.mailbox, n=count
    )
    return Outcome("imap", "ok", said)


def _reach(server: Server, kind: Literal["smtp", "imap"]) -> str | Outcome:
    """``host:port`` once the name resolves and a TCP connection opens; else the failure."""
    try:
        require_host(server, kind)
        check_plaintext(server, kind)
        transport.tls_context(server)
    except UsageError as exc:  # no host, a password in clear, an unreadable ca_file
        return Outcome(kind, "settings", str(exc))
    number = port(server, kind)
    where = f"{server.host}:{number}"
    try:
        socket.getaddrinfo(server.host, number, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        said = N_("cannot find {host} ({why})").format(host=server.host, why=_said(exc))
        return Outcome(kind, "DNS", said)
    try:
        socket.create_connection((server.host, number), timeout=server.timeout).close()
    except OSError as exc:
        said = N_("cannot connect to {where} ({why})").format(where=where, why=_said(exc))
        return Outcome(kind, "TCP", said)
    return where


def _opening(kind: str, exc: BaseException) -> Outcome:
    """The connection opened but the session did not start: the TLS handshake failed (a
    certificate not trusted, a port that speaks no TLS), or the server did not greet."""
    if isinstance(exc, ssl.SSLError):
        return Outcome(kind, "TLS", _said(exc))
    return Outcome(kind, "server", N_("no session: {why}").format(why=_said(exc)))


def _said(exc: BaseException) -> str:
    return transport.reason(exc) if not isinstance(exc, MailError) else str(exc)


def _logged_in(server: Server, where: str) -> str:
    """Who logged in where, and how when it is OAuth2 (one marked message each)."""
    if not server.user:
        return N_("logged in at {where}").format(where=where)
    if server.auth == "password":
        return N_("logged in as {user} at {where}").format(user=server.user, where=where)
    return N_("logged in as {user} with {auth} at {where}").format(
        user=server.user, auth=server.auth.upper(), where=where
    )
