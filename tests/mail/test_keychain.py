"""Mail passwords in the operating system's keychain (issue 29): stored by ``pbem config
set``, found by every command that logs in, never in the settings file; a password an older
pbem stored in clear is moved there or refused. The keychain is keyrings.alt's file
backend in the test's folder, chosen as a user would choose one (PYTHON_KEYRING_BACKEND)."""

from __future__ import annotations

import json
from pathlib import Path

import keyring
import keyring.errors
import pytest
from keyrings.alt.file import PlaintextKeyring

from pbem.format.canonical import pretty
from pbem.mail import config as mail_config
from pbem.mail import secrets
from pbem.mail.config import Smtp
from tests.mail.conftest import KeychainPlayer, Player
from tests.mail.servers import PASSWORD, Certs, Dovecot
from tests.mail.servers import Smtp as SmtpServer


def test_a_password_set_goes_to_the_keychain_and_is_used(
    keychain: PlaintextKeyring, tmp_path: Path, smtp: SmtpServer, imap: Dovecot, certs: Certs
) -> None:
    player = KeychainPlayer("kim", tmp_path)
    player.configure(smtp, imap, certs)
    failed = player.run("config", "test", code=2)
    assert (
        "the smtp password for" in failed.stdout
        and "pbem config set smtp.password" in failed.stdout
    )
    for kind in ("smtp", "imap"):
        said = player.run("config", "set", f"{kind}.password", PASSWORD).stdout
        assert said == f"{kind}.password stored in the keychain (PlaintextKeyring)\n"
    assert keychain.get_password("pbem", f"smtp:{player.email}@127.0.0.1") == PASSWORD
    assert PASSWORD.encode() not in mail_config.config_path(player.home).read_bytes()
    assert PASSWORD not in player.run("config", "show").stdout
    tested = player.run("config", "test")
    assert tested.stdout.count(": ok: logged in as ") == 2
    player.run("config", "unset", "imap.password")
    assert keychain.get_password("pbem", f"imap:{player.email}@127.0.0.1") is None
    assert "imap: settings failed: the imap password" in player.run("config", "test", code=2).stdout


def test_a_password_without_a_keychain_is_refused(tmp_path: Path) -> None:
    """No keychain (the tests' default, as on a server without one): refused with what to
    do instead, and nothing written."""
    player = KeychainPlayer("ned", tmp_path)
    player.run("config", "set", "smtp.host", "mail.example.org")
    player.run("config", "set", "smtp.user", player.email)
    before = mail_config.config_path(player.home).read_bytes()
    refused = player.run("config", "set", "smtp.password", "hunter2", code=2)
    assert refused.stderr == (
        "pbem: error: no keychain pbem can use on this system: set $PBEM_SMTP_PASSWORD or let "
        "pbem ask (a password is never stored in clear)\n"
    )
    assert mail_config.config_path(player.home).read_bytes() == before
    assert secrets.backend() is None


def _old_file(player: Player) -> Path:
    """The settings as an older pbem wrote them, a password in clear (--store-in-clear)."""
    old = {"smtp": {"host": "mail.example.org", "user": player.email, "password": "hunter2"}}
    path = mail_config.config_path(player.home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pretty(old).encode())
    return path


def test_a_clear_password_is_moved_to_the_keychain(
    keychain: PlaintextKeyring, tmp_path: Path
) -> None:
    player = KeychainPlayer("olu", tmp_path)
    path = _old_file(player)
    refused = player.run("config", "test", code=2).stdout.splitlines()[0]
    assert refused == (
        f"smtp: settings failed: smtp.password is stored in clear in {path}: move it to the "
        "keychain with pbem config migrate-secrets"
    )
    with pytest.raises(mail_config.UsageError, match="pbem config migrate-secrets"):
        mail_config.password(mail_config.load(player.home).smtp, "smtp", None)
    moved = player.json("config", "migrate-secrets")
    assert moved["moved"] == ["smtp.password"]
    assert b"hunter2" not in path.read_bytes()
    server = mail_config.load(player.home).smtp
    assert mail_config.password(server, "smtp", None) == "hunter2"
    assert player.run("config", "migrate-secrets").stdout == "no password in clear\n"
    _old_file(player)  # and at the next pbem config set, whatever it sets
    said = player.run("config", "set", "smtp.port", "587").stdout
    assert said.startswith("smtp.password moved to the keychain\n")
    assert b"hunter2" not in path.read_bytes()


def test_a_clear_password_without_a_keychain_is_refused_with_the_fix(tmp_path: Path) -> None:
    player = KeychainPlayer("ola", tmp_path)
    path = _old_file(player)
    before = path.read_bytes()
    refused = player.run("config", "migrate-secrets", code=2)
    assert refused.stderr == (
        "pbem: error: smtp.password is stored in clear: no keychain here: pbem config unset "
        "smtp.password, then set $PBEM_SMTP_PASSWORD\n"
    )
    assert path.read_bytes() == before
    with pytest.raises(mail_config.UsageError, match=r"stored in clear in .*: no keychain here"):
        mail_config.password(Smtp(host="h", user="me", password="x"), "smtp", None)
    player.run("config", "unset", "smtp.password")
    assert b"hunter2" not in path.read_bytes()
    shown = json.loads(player.run("config", "show", "--json").stdout)
    assert shown["smtp"]["password"] == ""


class Locked(PlaintextKeyring):
    """A keychain that is locked: it refuses to read and to write (a test backend)."""

    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("the keychain is locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked("the keychain is locked")


def test_a_locked_keychain_is_one_line_and_no_keychain_when_read(
    keychain: PlaintextKeyring, tmp_path: Path
) -> None:
    locked = Locked()
    locked.file_path = keychain.file_path
    keyring.set_keyring(locked)
    player = KeychainPlayer("lou", tmp_path)
    player.run("config", "set", "smtp.host", "mail.example.org")
    player.run("config", "set", "smtp.user", player.email)
    refused = player.run("config", "set", "smtp.password", "hunter2", code=2)
    assert refused.stderr == (
        "pbem: error: the keychain refused the smtp password: the keychain is locked\n"
    )
    with pytest.raises(mail_config.UsageError, match=r"needed: set \$PBEM_SMTP_PASSWORD"):
        mail_config.password(mail_config.load(player.home).smtp, "smtp", None)
