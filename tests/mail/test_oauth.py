"""OAuth2 logins (issue 29): XOAUTH2 and OAUTHBEARER against a Dovecot whose oauth2 passdb
asks a local token introspection endpoint, and an aiosmtpd that checks the same tokens;
the token from a command the user configures, run again once when the server refuses it,
and never shown anywhere."""

from __future__ import annotations

import contextlib
import os
import pty
import shlex
import subprocess
import sys
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Literal

import pytest

from pbem.mail import config as mail_config
from pbem.mail import oauth, transport
from pbem.mail.config import Imap, Smtp
from tests.mail.conftest import KeychainPlayer, Player
from tests.mail.oauth_servers import Authority, OAuthLogins, SignIn, authority
from tests.mail.servers import HOST, PASSWORD, Certs, Delivery, Dovecot, dovecot, smtp_server
from tests.mail.servers import Smtp as SmtpServer
from tests.mail.test_game_by_mail import play_by_mail
from tests.mail.test_outbox import message_ids

Auth = Literal["xoauth2", "oauthbearer"]


class OAuthDelivery(OAuthLogins, Delivery):
    """The tests' SMTP delivery, with the OAuth2 logins besides the password ones."""


@pytest.fixture(scope="module")
def tokens() -> Iterator[Authority]:
    with authority() as found:
        yield found


@pytest.fixture(scope="module")
def oauth_imap(certs: Certs, tokens: Authority) -> Iterator[Dovecot]:
    with dovecot(certs, introspection=f"{tokens.url}/introspect") as server:
        yield server


@pytest.fixture
def oauth_smtp(certs: Certs, oauth_imap: Dovecot, tokens: Authority) -> Iterator[SmtpServer]:
    delivery = OAuthDelivery(oauth_imap)
    delivery.authority = tokens
    with smtp_server(certs, oauth_imap, "starttls", delivery) as server:
        yield server


def logins(server: SmtpServer) -> OAuthLogins:
    assert isinstance(server.delivery, OAuthLogins)
    return server.delivery


def servers(
    delivery: SmtpServer, imap: Dovecot, certs: Certs, user: str, auth: Auth, command: str
) -> tuple[Smtp, Imap]:
    common = {"host": HOST, "user": user, "ca_file": str(certs.ca), "auth": auth}
    return (
        Smtp(port=delivery.port, oauth2_command=command, **common),
        Imap(port=imap.port, oauth2_command=command, **common),
    )


def note(to: str, subject: str) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = to, to, subject
    message["Message-ID"] = f"<{subject}@pbem.test>"
    message.set_content("hello")
    return message


def inbox(server: Imap) -> list[bytes]:
    with transport.Mailbox(server, None) as box:
        return [box.fetch(uid) for uid in box.uids_after(0)]


@pytest.mark.parametrize("auth", ["xoauth2", "oauthbearer"])
def test_both_servers_take_a_token_from_the_command(
    auth: Auth, oauth_smtp: SmtpServer, oauth_imap: Dovecot, certs: Certs, tokens: Authority
) -> None:
    user = f"{auth}@example.org"
    command = shlex.join(tokens.command(user))
    smtp, imap = servers(oauth_smtp, oauth_imap, certs, user, auth, command)
    assert mail_config.password(smtp, "smtp", lambda prompt: "never asked") is None
    assert transport.send(smtp, None, note(user, f"first-{auth}")) == [user]
    assert transport.send(smtp, None, note(user, f"second-{auth}")) == [user]
    got = inbox(imap)
    print(f"{auth}: sent 2, received {len(got)}, tokens issued {tokens.issued[user]}")
    assert len(got) == 2 and b"first-" in got[0] and b"second-" in got[1]
    assert tokens.issued[user] == 1  # one token, kept in memory, for every login
    assert logins(oauth_smtp).logins == 2 and logins(oauth_smtp).refused == 0


def test_a_refused_token_is_asked_for_again_once(
    oauth_smtp: SmtpServer, oauth_imap: Dovecot, certs: Certs, tokens: Authority
) -> None:
    """The token expires between two logins (mid-session of a robot): the server refuses
    it, pbem runs the command once more and logs in with the new one."""
    user = "expires@example.org"
    command = shlex.join(tokens.command(user))
    smtp, imap = servers(oauth_smtp, oauth_imap, certs, user, "xoauth2", command)
    transport.send(smtp, None, note(user, "before"))
    assert len(inbox(imap)) == 1 and tokens.issued[user] == 1
    tokens.revoke_all()
    transport.send(smtp, None, note(user, "after"))
    assert logins(oauth_smtp).refused == 1 and tokens.issued[user] == 2
    tokens.revoke_all()
    assert len(inbox(imap)) == 2 and tokens.issued[user] == 3


def test_a_token_the_server_refuses_twice_is_one_line_without_the_token(
    oauth_smtp: SmtpServer, oauth_imap: Dovecot, certs: Certs, tmp_path: Path
) -> None:
    """A command that prints a token no server knows: refused, asked again once, refused
    again; the error names the server and never holds the token."""
    secret = "tok-NOT-KNOWN-anywhere-1234"
    command = shlex.join([sys.executable, "-c", f"print({secret!r})"])
    smtp, imap = servers(oauth_smtp, oauth_imap, certs, "x@example.org", "xoauth2", command)
    with pytest.raises(transport.MailError) as sent:
        transport.send(smtp, None, note("x@example.org", "never"))
    with pytest.raises(transport.MailError) as read:
        inbox(imap)
    for error in (sent.value, read.value):
        assert secret not in str(error) and "\n" not in str(error)
    assert str(sent.value).startswith(f"SMTP server {HOST}:") and "535" in str(sent.value)
    assert str(read.value).startswith(f"IMAP server {HOST}:")
    assert logins(oauth_smtp).refused == 2


@pytest.mark.parametrize(
    ("command", "why"),
    [
        (
            [sys.executable, "-c", "import sys; print('tok-1'); sys.exit(3)"],
            "failed (exit status 3)",
        ),
        ([sys.executable, "-c", "print()"], "printed no access token"),
        ([sys.executable, "-c", "print('two words')"], "printed no access token"),
        (["/nonexistent/token-helper"], "cannot be run: No such file or directory"),
    ],
)
def test_a_failing_token_command_is_one_line_naming_the_setting(
    command: list[str], why: str, oauth_smtp: SmtpServer, oauth_imap: Dovecot, certs: Certs
) -> None:
    smtp, imap = servers(
        oauth_smtp, oauth_imap, certs, "y@example.org", "oauthbearer", shlex.join(command)
    )
    for kind, attempt in (
        ("smtp", lambda: transport.send(smtp, None, note("y@example.org", "no"))),
        ("imap", lambda: inbox(imap)),
    ):
        with pytest.raises(transport.MailError) as failed:
            attempt()
        assert str(failed.value).startswith(f"{kind}.oauth2_command ") and why in str(failed.value)
        assert "tok-1" not in str(failed.value) and "\n" not in str(failed.value)
    assert logins(oauth_smtp).logins == 0


def test_a_player_sets_oauth2_up_with_pbem_config(
    tmp_path: Path, oauth_smtp: SmtpServer, oauth_imap: Dovecot, certs: Certs, tokens: Authority
) -> None:
    """The settings through the command line, a message sent and read back with them; the
    token is in no setting, no output, no file of the home."""
    player = Player("olga", tmp_path)
    command = shlex.join(tokens.command(player.email))
    settings = {
        "smtp.host": HOST,
        "smtp.port": oauth_smtp.port,
        "smtp.user": player.email,
        "smtp.ca_file": certs.ca,
        "smtp.auth": "xoauth2",
        "smtp.oauth2_command": command,
        "imap.host": HOST,
        "imap.port": oauth_imap.port,
        "imap.user": player.email,
        "imap.ca_file": certs.ca,
        "imap.auth": "oauthbearer",
        "imap.oauth2_command": command,
    }
    outputs = [player.run("config", "set", key, value).output for key, value in settings.items()]
    outputs.append(player.run("config", "show").output)
    config = mail_config.load(player.home)
    transport.send(config.smtp, None, note(player.email, "configured"))
    assert len(inbox(config.imap)) == 1
    given = [t for t, user in tokens.tokens.items() if user == player.email]
    assert given
    files = [p.read_bytes() for p in player.home.rglob("*") if p.is_file()]
    for token in given:
        assert not any(token in text for text in outputs)
        assert not any(token.encode() in data for data in files)
    refused = player.run("config", "set", "imap.oauth2_command", "helper 'unclosed", code=2)
    assert "imap.oauth2_command: not a command line" in refused.stderr


def test_the_token_cache_is_per_command() -> None:
    """Two accounts of one process (SMTP at one provider, IMAP at another) never swap
    tokens: each command has its own."""
    found = oauth.Tokens()
    one = Smtp(oauth2_command=shlex.join([sys.executable, "-c", "print('tok-a')"]))
    two = Imap(oauth2_command=shlex.join([sys.executable, "-c", "print('tok-b')"]))
    assert (found.get(one, "smtp"), found.get(two, "imap")) == ("tok-a", "tok-b")


def test_rattaneer_by_mail_one_player_on_oauth2_one_on_the_keychain(
    tmp_path: Path,
    oauth_smtp: SmtpServer,
    oauth_imap: Dovecot,
    certs: Certs,
    tokens: Authority,
    keychain: Any,
) -> None:
    """Issue 29's show case: alice logs in with a password from the keychain, bob with
    OAuth2 tokens from his token command (XOAUTH2 to send, OAUTHBEARER to read), each token
    expiring after five logins, mid-game: bob's pbem asks his command again each time, and
    the game runs to its end with every message taken once."""
    alice, bob = KeychainPlayer("alice", tmp_path), KeychainPlayer("bob", tmp_path)
    for p in (alice, bob):
        p.run("key", "new", p.name, "--email", p.email, "--no-passphrase")
        p.run("key", "export", p.name, "-o", tmp_path / f"{p.name}.card.json")
        p.configure(oauth_smtp, oauth_imap, certs)
    for kind in ("smtp", "imap"):
        alice.run("config", "set", f"{kind}.password", PASSWORD)
    command = shlex.join(tokens.command(bob.email))
    for key, value in (
        ("smtp.auth", "xoauth2"),
        ("imap.auth", "oauthbearer"),
        ("smtp.oauth2_command", command),
        ("imap.oauth2_command", command),
    ):
        bob.run("config", "set", key, value)
    tokens.lifetime = 5
    final, _ = play_by_mail([alice, bob], tmp_path, oauth_smtp, "rattaneer", "greedy")
    tokens.lifetime = 0
    assert final.result is not None
    ids = {p.name: message_ids(oauth_imap, p.email) for p in (alice, bob)}
    delivered = sum(len(found) for found in ids.values())
    distinct = sum(len(set(found)) for found in ids.values())
    given = tokens.issued[bob.email]
    print(
        f"rattaneer, alice by keychain password, bob by OAuth2: {delivered} messages "
        f"delivered, {distinct} distinct, {delivered - distinct} duplicated; bob's token "
        f"command run {given} times, {tokens.expired} tokens expired mid-game, "
        f"{logins(oauth_smtp).refused} SMTP logins refused and retried"
    )
    assert delivered == distinct == len(oauth_smtp.delivery.messages)  # one recipient each
    assert tokens.expired >= 2 and given == tokens.expired + 1
    for p in (alice, bob):
        assert PASSWORD.encode() not in mail_config.config_path(p.home).read_bytes()


def test_pbem_signs_in_itself_with_a_device_code(
    tmp_path: Path,
    oauth_smtp: SmtpServer,
    oauth_imap: Dovecot,
    certs: Certs,
    tokens: Authority,
    keychain: Any,
) -> None:
    """``pbem config oauth2 outlook``, against an OpenID provider of the test's own (over
    HTTPS, with the device-code flow, through msal): the code to type is shown, the refresh
    token goes to the keychain, both servers log in with pbem's own token command, and an
    expired access token is replaced from the refresh token."""
    player = KeychainPlayer("dana", tmp_path)
    player.configure(oauth_smtp, oauth_imap, certs)
    sign_in = SignIn(tokens, certs)
    sign_in.approve = player.email
    try:
        args = ["--user", player.email, "--client-id", "pbem-test"]
        args += ["--oidc-authority", sign_in.url, "--ca-file", str(certs.ca)]
        done = helper("signin", "outlook", *args, env=player.env())
        assert done.returncode == 0, done.stderr
        assert f"open {sign_in.url}/device and enter PBEM-TEST" in done.stderr
        assert done.stdout.startswith(f"signed in as {player.email}; smtp and imap log in with")
        settings = mail_config.load(player.home)
        assert settings.smtp.auth == settings.imap.auth == "xoauth2"
        assert "pbem.mail.devicecode token outlook" in settings.imap.oauth2_command
        tested = player.run("config", "test").stdout
        assert tested.count("ok: logged in as") == 2 and "with XOAUTH2" in tested
        tokens.revoke_all()  # the access token expires; the refresh token stays good
        oauth.TOKENS._known.clear()  # as in a new process
        assert player.run("config", "test").stdout.count("ok: logged in as") == 2
        assert sign_in.trades >= 2
        kept = keychain.get_password("pbem", f"oauth2:{player.email}@{sign_in.url}")
        files = b"".join(p.read_bytes() for p in player.home.rglob("*") if p.is_file())
        for token in (*tokens.tokens, *sign_in.refresh):
            assert token.encode() not in files
        assert kept in sign_in.refresh  # the newest refresh token, in the keychain only
        refused = helper("signin", "gmail", *args, env=player.env())
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1
        assert refused.stderr.startswith("pbem: error: pbem signs in itself only with outlook")
        shown = helper("token", "outlook", *args, env=player.env(), terminal=True)
        assert shown.returncode == 2 and "not for a terminal" in shown.stderr
    finally:
        sign_in.close()


def helper(*args: str, env: dict[str, str], terminal: bool = False) -> Any:
    """``python -m pbem.mail.devicecode ARGS`` as a user runs it (``terminal``: with its
    output on a terminal, where no token may go)."""
    command = [sys.executable, "-m", "pbem.mail.devicecode", *args]
    full = {**os.environ, **env}
    if not terminal:
        return subprocess.run(command, env=full, capture_output=True, text=True, timeout=120)
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(command[0], command, full)
    said = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(fd, 4096):
            said += chunk
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return subprocess.CompletedProcess(
        command, os.waitstatus_to_exitcode(status), "", said.decode()
    )
