"""Talking to mail servers: SMTP to send, IMAP to read.

Every failure (refused connection, bad certificate, wrong password, a server that hangs up
mid-command) becomes one ``MailError`` line that names the server, so a command or the
robot can report it and carry on. TLS certificates are always verified; ``ca_file`` adds a
private CA (a self-hosted server, or the tests' own).

IMAP is used read-only: the mailbox is selected with EXAMINE and messages are fetched with
``BODY.PEEK[]``, so pbem never deletes, moves or even marks a message as read. All IMAP goes
through IMAPClient, which encodes folder names (modified UTF-7: ``Entwürfe`` works).
"""

from __future__ import annotations

import contextlib
import smtplib
import ssl
from collections.abc import Callable
from email.message import EmailMessage
from types import TracebackType
from typing import Any

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from pbem import __version__
from pbem.format.errors import UsageError
from pbem.format.i18n import N_
from pbem.mail.config import Imap, Server, Smtp, check_plaintext, port, require_host
from pbem.mail.oauth import TOKENS, Kind, TokenError, initial_response

NETWORK_ERRORS = (OSError, EOFError, smtplib.SMTPException, IMAPClientError)


class MailError(UsageError):
    """A mail server could not be reached or refused; nothing was lost, try again later."""

    code = "mail"


def reason(exc: BaseException) -> str:
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"{exc.smtp_code} {exc.smtp_error.decode(errors='replace')}"
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return N_("every recipient was refused: {recipients}").format(
            recipients=", ".join(exc.recipients)
        )
    if isinstance(exc, TimeoutError):
        return N_("timed out")
    if isinstance(exc, ssl.SSLError):
        return N_("TLS failed ({why})").format(why=exc.reason or exc)
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = " ".join(str(exc).split())
    if text[:2] in {"b'", 'b"'}:  # IMAP errors may carry the server's reply as bytes
        text = text[2:-1]
    return text or type(exc).__name__


def tls_context(server: Server) -> ssl.SSLContext:
    try:
        return ssl.create_default_context(cafile=server.ca_file or None)
    except OSError as exc:
        raise MailError(
            N_("cannot read ca_file {path}: {why}").format(path=server.ca_file, why=exc.strerror)
        ) from exc


def send(server: Smtp, password: str | None, message: EmailMessage) -> list[str]:
    """Send ``message``; returns the recipients it went to. Raises ``MailError``."""
    require_host(server, "smtp")
    check_plaintext(server, "smtp")
    where = N_("SMTP server {host}:{port}").format(host=server.host, port=port(server, "smtp"))
    try:
        with smtp_open(server) as smtp:
            smtp_login(smtp, server, password)
            # Each address once: seats of one home may share the home's address.
            refused = smtp.send_message(message, to_addrs=addresses(message))
    except NETWORK_ERRORS as exc:
        raise MailError(
            N_("{server}: {why}; nothing was sent").format(server=where, why=reason(exc))
        ) from exc
    sent = [a for a in addresses(message) if a not in refused]
    if refused:
        raise MailError(
            N_("{server} refused {refused}; sent to {sent}").format(
                server=where, refused=", ".join(refused), sent=", ".join(sent)
            )
        )
    return sent


def smtp_open(server: Smtp) -> smtplib.SMTP:
    """An SMTP session, encrypted as the settings say, not yet logged in."""
    context = tls_context(server)
    if server.security == "tls":
        return smtplib.SMTP_SSL(
            server.host, port(server, "smtp"), timeout=server.timeout, context=context
        )
    smtp = smtplib.SMTP(server.host, port(server, "smtp"), timeout=server.timeout)
    if server.security == "starttls":
        try:
            smtp.starttls(context=context)
        except BaseException:
            smtp.close()
            raise
    return smtp


def smtp_login(smtp: smtplib.SMTP, server: Smtp, password: str | None) -> None:
    """Log in with the password, or with OAuth2 (``server.auth``)."""
    if server.auth == "password":
        if server.user:
            smtp.login(server.user, password or "")
        return
    smtp.ehlo_or_helo_if_needed()
    mechanism = server.auth.upper()
    # After a refusal the server sends a challenge (an error in JSON): XOAUTH2 answers it
    # with an empty line, OAUTHBEARER with a lone ^A (RFC 7628 §3.2.3).
    done = "" if mechanism == "XOAUTH2" else "\x01"

    def login(token: str) -> None:
        answer = initial_response(server, token)
        smtp.auth(mechanism, lambda challenge=None: answer if challenge is None else done)

    _oauth(server, "smtp", login, smtplib.SMTPAuthenticationError)


def _oauth(
    server: Server, kind: Kind, login: Callable[[str], object], refused: type[Exception]
) -> None:
    """Log in with the token this process holds; if the server refuses it (expired,
    revoked), once more with a fresh one from the token command."""
    try:
        try:
            login(TOKENS.get(server, kind))
        except refused:
            login(TOKENS.fresh(server, kind))
    except TokenError as exc:
        raise MailError(str(exc)) from None


def addresses(message: EmailMessage) -> list[str]:
    """The message's recipients (To, then Cc), each address once."""
    out: dict[str, None] = {}
    for header in ("To", "Cc"):
        for address in getattr(message[header], "addresses", ()):
            out.setdefault(address.addr_spec)
    return list(out)


def connect(server: Imap, password: str | None) -> IMAPClient:
    """A logged-in IMAP session (TLS, or STARTTLS, as the settings say). Raises the
    library's errors: each caller words them (``Mailbox``) or waits and retries."""
    client = imap_open(server)
    try:
        imap_login(client, server, password)
    except (*NETWORK_ERRORS, MailError):
        with contextlib.suppress(*NETWORK_ERRORS):
            client.shutdown()
        raise
    return client


def imap_open(server: Imap) -> IMAPClient:
    """An IMAP session, encrypted as the settings say, not yet logged in."""
    context = tls_context(server)
    client = IMAPClient(
        server.host,
        port(server, "imap"),
        ssl=server.security == "tls",
        ssl_context=context,
        timeout=server.timeout,
    )
    if server.security == "starttls":
        try:
            client.starttls(context)
        except BaseException:
            with contextlib.suppress(*NETWORK_ERRORS):
                client.shutdown()
            raise
    return client


def imap_login(client: IMAPClient, server: Imap, password: str | None) -> None:
    """Log in with the password or OAuth2; then say who we are where the server asks it
    (RFC 2971 ID: 163.com and 126.com refuse to open a mailbox to a client that did not)."""
    if server.auth != "password":
        _oauth(server, "imap", lambda token: _imap_oauth(client, server, token), LoginError)
    elif server.user:
        client.login(server.user, password or "")
    if client.has_capability("ID"):
        with contextlib.suppress(IMAPClientError):  # a courtesy, where it is not required
            client.id_({"name": "pbem", "version": __version__})


def _imap_oauth(client: IMAPClient, server: Imap, token: str) -> None:
    if server.auth == "oauthbearer":
        client.oauthbearer_login(server.user, token)
    else:
        client.oauth2_login(server.user, token)


class Mailbox:
    """A read-only IMAP session on one mailbox: ``with Mailbox(...) as box: box.fetch(uid)``."""

    def __init__(self, server: Imap, password: str | None) -> None:
        require_host(server, "imap")
        check_plaintext(server, "imap")
        self.server = server
        #: Where the IMAP server is, as its errors say it.
        self.at = {"host": server.host, "port": port(server, "imap")}
        self._password = password
        self._imap: IMAPClient | None = None
        self.uidvalidity = 0

    @property
    def key(self) -> str:
        return mailbox_key(self.server)

    def __enter__(self) -> Mailbox:
        s = self.server
        try:
            self._imap = connect(s, self._password)
            try:
                folder = self._imap.select_folder(s.mailbox, readonly=True)
            except IMAPClientError as exc:  # the server's words, without the library's
                why = reason(exc).removeprefix("select failed: ")
                raise MailError(
                    N_("IMAP server {host}:{port}: cannot open mailbox {mailbox!r}: {why}").format(
                        **self.at, mailbox=s.mailbox, why=why
                    )
                ) from exc
            self.uidvalidity = int(folder.get(b"UIDVALIDITY", 0))
        except MailError:
            self.__exit__(None, None, None)
            raise
        except NETWORK_ERRORS as exc:
            self.__exit__(None, None, None)
            raise MailError(
                N_("IMAP server {host}:{port}: {why}").format(**self.at, why=reason(exc))
            ) from exc
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._imap is not None:
            with contextlib.suppress(*NETWORK_ERRORS):  # it may have hung up already
                self._imap.logout()
            self._imap = None

    def uids_after(self, last: int) -> list[int]:
        """UIDs of the messages that arrived after UID ``last``, oldest first."""
        found = self._command("UID SEARCH", lambda imap: imap.search(["UID", f"{last + 1}:*"]))
        return sorted(u for u in map(int, found) if u > last)

    def fetch(self, uid: int) -> bytes:
        """The raw message, without marking it as read."""
        data = self._command("UID FETCH", lambda imap: imap.fetch([uid], ["BODY.PEEK[]"]))
        body = data.get(uid, {}).get(b"BODY[]")
        if not isinstance(body, bytes):
            raise MailError(
                N_("IMAP server {host}:{port}: message UID {uid} has gone").format(
                    **self.at, uid=uid
                )
            )
        return body

    def _command(self, name: str, run: Callable[[IMAPClient], Any]) -> Any:
        assert self._imap is not None
        try:
            return run(self._imap)
        except NETWORK_ERRORS as exc:
            raise MailError(
                N_("IMAP server {host}:{port}: {command} failed: {why}").format(
                    **self.at, command=name, why=reason(exc)
                )
            ) from exc


def mailbox_key(s: Imap) -> str:
    """Names a mailbox in the robot's memory of what it processed."""
    return f"{s.user}@{s.host}:{port(s, 'imap')}/{s.mailbox}"
