"""``pbem config provider`` (presets from a data file) and ``pbem config test`` against the
tests' real servers: each way a set-up goes wrong is named at the stage it failed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.mail import config as mail_config
from pbem.mail.providers import providers
from tests.mail.conftest import Player
from tests.mail.servers import Certs, Dovecot, Smtp, free_port, make_certs


def test_every_provider_fills_both_servers_and_says_what_next(tmp_path: Path) -> None:
    player = Player("pia", tmp_path)
    known = providers()
    assert {"gmail", "outlook", "fastmail", "icloud", "yahoo", "gmx", "qq", "163"} <= set(known)
    for name, preset in known.items():
        report = player.json("config", "provider", name, "--user", player.email)
        settings = mail_config.load(player.home)
        for section in ("smtp", "imap"):
            server = getattr(settings, section)
            assert server.host == getattr(preset, section)["host"] and server.port > 0
            assert server.security in {"tls", "starttls"} and server.user == player.email
        assert report["next"][-1] == "then: pbem config test"
        if preset.auth == "password":
            assert any(preset.password_page in step for step in report["next"])
    assert mail_config.load(player.home).smtp.auth == "password"  # 163: app passwords
    outlook = player.run("config", "provider", "outlook").stdout
    assert "login by xoauth2" in outlook and "smtp.oauth2_command" in outlook
    gmail = player.json("config", "provider", "gmail", "--oauth2")
    assert gmail["smtp"]["auth"] == gmail["imap"]["auth"] == "xoauth2"
    refused = player.run("config", "provider", "qq", "--oauth2", code=2)
    assert "offers no OAuth2" in refused.stderr and refused.stderr.count("\n") == 1
    unknown = player.run("config", "provider", "aol", code=2)
    assert "unknown provider 'aol'; known: gmail, outlook" in unknown.stderr


def test_config_test_logs_in_to_both(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    player = Player("tom", tmp_path)
    player.configure(smtp, imap, certs)
    result = player.run("config", "test")
    smtp_line, imap_line = result.stdout.splitlines()
    assert smtp_line == f"smtp: ok: logged in as {player.email} at 127.0.0.1:{smtp.port}"
    assert imap_line.startswith(f"imap: ok: logged in as {player.email} at 127.0.0.1:{imap.port}")


def _broken(tmp_path: Path, certs: Certs) -> dict[str, tuple[str, str, str]]:
    """Each kind of mistake: the setting, its value, and the line ``config test`` gives."""
    other = make_certs(tmp_path / "other-ca")
    closed = free_port()
    return {
        "DNS": ("host", "mail.pbem.invalid", "DNS failed: cannot find mail.pbem.invalid"),
        "TCP": ("port", str(closed), f"TCP failed: cannot connect to 127.0.0.1:{closed}"),
        "TLS": ("ca_file", str(other.ca), "TLS failed: TLS failed (CERTIFICATE_VERIFY_FAILED)"),
    }


@pytest.mark.parametrize("stage", ["DNS", "TCP", "TLS"])
def test_config_test_names_the_stage_that_failed(
    stage: str, tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    player = Player("tim", tmp_path)
    player.configure(smtp, imap, certs)
    key, value, said = _broken(tmp_path, certs)[stage]
    for kind in ("smtp", "imap"):
        player.run("config", "set", f"{kind}.{key}", value)
    result = player.run("config", "test", code=2)
    assert result.stderr == f"pbem: error: could not log in: smtp ({stage}), imap ({stage})\n"
    lines = result.stdout.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"smtp: {said}") and lines[1].startswith(f"imap: {said}"), lines
    report = json.loads(player.run("config", "test", "--json", code=2).stdout)
    assert report["ok"] is False and report["smtp"]["stage"] == report["imap"]["stage"] == stage


def test_a_wrong_password_and_a_missing_mailbox(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs, monkeypatch: pytest.MonkeyPatch
) -> None:
    player = Player("tia", tmp_path)
    player.configure(smtp, imap, certs)
    player.run("config", "set", "imap.mailbox", "Entwürfe")
    result = player.run("config", "test", code=2)
    smtp_line, imap_line = result.stdout.splitlines()
    assert smtp_line.startswith("smtp: ok: ")
    assert imap_line.startswith("imap: mailbox failed: cannot open 'Entwürfe': ")
    assert result.stderr == "pbem: error: could not log in: imap (mailbox)\n"
    wrong = {"PBEM_SMTP_PASSWORD": "wrong", "PBEM_IMAP_PASSWORD": "wrong"}
    monkeypatch.setattr(Player, "env", lambda self: {"PBEM_HOME": str(self.home), **wrong})
    result = player.run("config", "test", code=2)
    smtp_line, imap_line = result.stdout.splitlines()
    assert smtp_line.startswith("smtp: login failed: 535 ")
    assert imap_line.startswith("imap: login failed: ") and "AUTHENTICATIONFAILED" in imap_line
    assert "wrong" not in result.output


def test_another_server_on_the_port_and_tls_on_a_starttls_port(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    player = Player("tor", tmp_path)
    player.configure(smtp, imap, certs)
    player.run("config", "set", "smtp.port", imap.port)  # an IMAP server answers there
    player.run("config", "set", "imap.security", "tls")  # on the STARTTLS port
    smtp_line, imap_line = player.run("config", "test", code=2).stdout.splitlines()
    assert smtp_line.startswith("smtp: server failed: no session: "), smtp_line
    assert imap_line.startswith("imap: TLS failed: TLS failed ("), imap_line
