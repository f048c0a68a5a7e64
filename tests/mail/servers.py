"""Real mail servers for the tests, on loopback ports only.

- SMTP: aiosmtpd, with STARTTLS or implicit TLS (a certificate made here with
  ``cryptography``) and password authentication. It delivers each message into the
  recipients' IMAP mailboxes with a real IMAP APPEND, as a mail system's delivery agent would.
- IMAP: Debian's Dovecot, run from a configuration written to a temporary directory. As
  root it drops to the ``dovecot``/``dovenull`` users the package creates; otherwise it runs
  as the current user. Any user name logs in with the password ``secret``.
- A TCP relay that can cut a connection after a number of bytes, to play a server that
  drops the connection mid-session (mid-IDLE too), or hide a capability from the client.

A server that cannot start raises: a test that needs it fails, never skips.
"""

from __future__ import annotations

import contextlib
import datetime
import imaplib
import ipaddress
import logging
import os
import pwd
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

HOST = "127.0.0.1"
# aiosmtpd logs a deprecation warning of its own making on every login.
logging.getLogger("mail.log").setLevel(logging.ERROR)
PASSWORD = "secret"
DOVECOT = "/usr/sbin/dovecot"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not start listening on {HOST}:{port}")


# ----- certificates ------------------------------------------------------------------------


@dataclass
class Certs:
    ca: Path
    cert: Path
    key: Path


def make_certs(folder: Path) -> Certs:
    """A private CA and a server certificate for 127.0.0.1 and localhost signed by it."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pbem test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address(HOST))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    certs = Certs(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    certs.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    certs.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    certs.key.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return certs


def server_context(certs: Certs) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certs.cert, certs.key)
    return context


# ----- IMAP: Dovecot -----------------------------------------------------------------------

DOVECOT_CONF = """\
base_dir = {dir}/run
state_dir = {dir}/state
log_path = {dir}/dovecot.log
protocols = imap
listen = {host}
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
disable_plaintext_auth = no
auth_mechanisms = plain login{mechanisms}
default_internal_user = {internal}
default_internal_group = {internal_group}
default_login_user = {login}
first_valid_uid = 1
mail_location = maildir:~/Maildir
mail_fsync = never
passdb {{
  driver = static
  mechanisms = plain login
  args = password={password}
}}
{oauth2}userdb {{
  driver = static
  args = uid={internal} gid={internal_group} home={dir}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = {host}
    port = {port}
  }}
  inet_listener imaps {{
    address = {host}
    port = {tls_port}
  }}
}}
service anvil {{
  chroot =
}}
"""


@dataclass
class Dovecot:
    """A running Dovecot: STARTTLS on ``port``, implicit TLS on ``tls_port``."""

    port: int
    tls_port: int
    directory: Path
    process: subprocess.Popen[bytes]
    sessions: dict[str, imaplib.IMAP4] = field(default_factory=dict)

    def append(self, user: str, raw: bytes) -> None:
        """Deliver a message into ``user``'s INBOX, as a delivery agent would (one session
        per user, kept open: a login costs Dovecot a new process)."""
        try:
            status, data = self._session(user).append("INBOX", None, None, raw)
        except imaplib.IMAP4.abort:  # the server ended the session (doveadm kick): again
            del self.sessions[user]
            status, data = self._session(user).append("INBOX", None, None, raw)
        if status != "OK":
            raise RuntimeError(f"APPEND for {user} refused: {data!r}")

    def _session(self, user: str) -> imaplib.IMAP4:
        imap = self.sessions.get(user)
        if imap is None:
            imap = self.sessions[user] = imaplib.IMAP4(HOST, self.port, timeout=10)
            imap.login(user, PASSWORD)
        return imap

    def count(self, user: str) -> int:
        imap = imaplib.IMAP4(HOST, self.port, timeout=10)
        try:
            imap.login(user, PASSWORD)
            return int(imap.select("INBOX", readonly=True)[1][0] or 0)
        finally:
            with contextlib.suppress(Exception):
                imap.logout()


#: With ``dovecot(..., introspection=URL)``: XOAUTH2 and OAUTHBEARER, each token checked by
#: POSTing it to URL (RFC 7662 token introspection), which names the user it was given to.
OAUTH2_PASSDB = """\
passdb {{
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = {args}
}}
"""
OAUTH2_CONF = """\
introspection_mode = post
introspection_url = {url}
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
"""


@contextlib.contextmanager
def dovecot(certs: Certs, introspection: str = "") -> Iterator[Dovecot]:
    if not os.path.exists(DOVECOT):
        raise RuntimeError(f"{DOVECOT} is missing: install the Debian package dovecot-imapd")
    # Not under pytest's tmp_path: as root Dovecot's own users must reach the mail folders.
    directory = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    directory.chmod(0o755)
    (directory / "home").mkdir()
    if os.geteuid() == 0:
        internal, login = "dovecot", "dovenull"
        record = pwd.getpwnam(internal)
        os.chown(directory / "home", record.pw_uid, record.pw_gid)
        internal_group = internal
    else:
        internal = login = pwd.getpwuid(os.geteuid()).pw_name
        internal_group = str(os.getegid())
    port, tls_port = free_port(), free_port()
    shutil.copy(certs.cert, directory / "cert.pem")
    shutil.copy(certs.key, directory / "key.pem")
    conf = directory / "dovecot.conf"
    oauth2 = ""
    if introspection:
        args = directory / "dovecot-oauth2.conf.ext"
        args.write_text(OAUTH2_CONF.format(url=introspection))
        oauth2 = OAUTH2_PASSDB.format(args=args)
    conf.write_text(
        DOVECOT_CONF.format(
            dir=directory,
            host=HOST,
            cert=directory / "cert.pem",
            key=directory / "key.pem",
            internal=internal,
            internal_group=internal_group,
            login=login,
            password=PASSWORD,
            port=port,
            tls_port=tls_port,
            mechanisms=" xoauth2 oauthbearer" if introspection else "",
            oauth2=oauth2,
        )
    )
    output = directory / "output.log"
    with output.open("wb") as sink:
        process = subprocess.Popen(
            [DOVECOT, "-F", "-c", str(conf)], stdout=sink, stderr=subprocess.STDOUT
        )
    try:
        try:
            wait_for_port(port, "Dovecot")
        except RuntimeError:
            logs = [output, directory / "dovecot.log"]
            text = " ".join(f.read_text(errors="replace") for f in logs if f.exists())
            raise RuntimeError(f"Dovecot did not start: {' '.join(text.split())}") from None
        server = Dovecot(port, tls_port, directory, process)
        yield server
        for session in server.sessions.values():
            with contextlib.suppress(Exception):
                session.logout()
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(directory, ignore_errors=True)


# ----- SMTP: aiosmtpd ----------------------------------------------------------------------


@dataclass
class Delivery:
    """What the SMTP server received, and whether it should refuse the next messages.
    With ``hold``, messages are accepted but reach the mailboxes only at ``release``: the
    mail of one leg arrives together, as if each hop took the same time."""

    imap: Dovecot
    messages: list[tuple[str, list[str], bytes]] = field(default_factory=list)
    refuse: bool = False
    refusals: int = 0
    hold: bool = False
    held: list[tuple[list[str], bytes]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse:
            self.refusals += 1
            return "554 5.3.0 refused for the test"
        content = bytes(envelope.original_content or envelope.content)
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), content))
        if self.hold:
            self.held.append((list(envelope.rcpt_tos), content))
            return "250 OK queued"
        for rcpt in envelope.rcpt_tos:
            self.imap.append(rcpt, content)
        return "250 OK delivered"

    def release(self) -> set[str]:
        """Deliver the held messages; returns who got mail."""
        held, self.held = self.held, []
        for rcpts, content in held:
            for rcpt in rcpts:
                self.imap.append(rcpt, content)
        return {rcpt for rcpts, _ in held for rcpt in rcpts}


def _authenticate(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> Any:
    ok = isinstance(data, LoginPassword) and data.password == PASSWORD.encode()
    return AuthResult(success=ok, handled=False, auth_data=data)


@dataclass
class Smtp:
    port: int
    security: str
    delivery: Delivery
    controller: Controller


@contextlib.contextmanager
def smtp_server(
    certs: Certs,
    imap: Dovecot,
    security: str = "starttls",
    delivery: Delivery | None = None,
    port: int = 0,
) -> Iterator[Smtp]:
    """aiosmtpd requiring a login; ``security`` is ``starttls`` or ``tls`` (implicit);
    ``delivery``: a handler of one's own (one with more AUTH mechanisms, say); ``port``: a
    given one (a server started again where it was)."""
    delivery = delivery or Delivery(imap)
    port = port or free_port()
    context = server_context(certs)
    options: dict[str, Any] = {"authenticator": _authenticate, "auth_required": True}
    if security == "tls":
        options.update(ssl_context=context, auth_require_tls=False)
    else:
        options.update(tls_context=context, require_starttls=True)
    controller = Controller(delivery, hostname=HOST, port=port, **options)
    controller.start()
    try:
        yield Smtp(port, security, delivery, controller)
    finally:
        controller.stop()


# ----- a relay that drops connections ------------------------------------------------------


class DroppingRelay:
    """Forwards ``HOST:port`` to a server. After ``drop(pattern, n)``, the next connection
    is cut in the middle of the n-th server chunk holding ``pattern``: the client gets a
    part of that reply, then both sides are hung up, once. With ``hide``, the server's
    replies lose those bytes (say ``b" IDLE"``: a server that does not offer IDLE)."""

    def __init__(self, target: int, hide: bytes = b"") -> None:
        self.target = target
        self.hide = hide
        self.pattern = b""
        self.occurrence = 0
        self.cuts = 0
        self._listener = socket.create_server((HOST, 0))
        self.port = int(self._listener.getsockname()[1])
        self._open: list[socket.socket] = []
        self.commands: list[bytes] = []
        """What clients said to the server, chunk by chunk (to count IDLE commands)."""
        threading.Thread(target=self._accept, daemon=True).start()

    def drop(self, pattern: bytes, occurrence: int = 1) -> None:
        self.pattern, self.occurrence = pattern, occurrence

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection((HOST, self.target))
            self._open += [client, server]
            seen = [0] if self.pattern else None
            threading.Thread(target=self._pipe, args=(client, server, None), daemon=True).start()
            threading.Thread(
                target=self._pipe, args=(server, client, seen, True), daemon=True
            ).start()

    def _pipe(
        self, src: socket.socket, dst: socket.socket, seen: list[int] | None, down: bool = False
    ) -> None:
        try:
            while data := src.recv(65536):
                if not down:
                    self.commands.append(data)
                if down and self.hide:
                    data = data.replace(self.hide, b"")
                if seen is not None and self.pattern and self.pattern in data:
                    seen[0] += 1
                    if seen[0] == self.occurrence:
                        cut = data.index(self.pattern) + len(self.pattern) + 20
                        dst.sendall(data[:cut])
                        self.cuts += 1
                        self.pattern = b""
                        break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def close(self) -> None:
        self._listener.close()
        for s in self._open:
            with contextlib.suppress(OSError):
                s.close()
