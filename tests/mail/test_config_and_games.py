"""``pbem config`` (passwords stay off the disk unless insisted on) and ``pbem games``."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.format.errors import UsageError
from pbem.mail import config as mail_config
from pbem.mail.config import Imap, Smtp
from tests.mail.conftest import cli
from tests.mail.servers import Certs


def pbem(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, result.output
    return result


def test_settings_round_trip_and_are_checked() -> None:
    pbem("config", "set", "smtp.host", "mail.example.org")
    pbem("config", "set", "smtp.security", "tls")
    shown = json.loads(pbem("config", "show", "--json").stdout)
    assert shown["smtp"]["host"] == "mail.example.org" and shown["smtp"]["security"] == "tls"
    assert "smtp.port = 0" in pbem("config", "show").stdout
    bad = pbem("config", "set", "smtp.port", "many", code=2)
    assert bad.stderr.startswith("pbem: error: smtp.port: ") and bad.stderr.count("\n") == 1
    assert (
        "unknown setting 'smtp.colour'" in pbem("config", "set", "smtp.colour", "x", code=2).stderr
    )
    pbem("config", "unset", "smtp.security")
    assert mail_config.load().smtp.security == "starttls"


@pytest.mark.parametrize("kind", ["pipe", "huge"])
def test_a_settings_file_that_is_a_pipe_or_huge_is_one_line(kind: str) -> None:
    """``mail.json`` is read as any input is: a pipe planted in its place would block the
    robot for ever, a huge file exhaust its memory; either is one line (exit 2: cannot
    read; exit 1: over a limit)."""
    path = mail_config.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "pipe":
        os.mkfifo(path)
    else:
        with open(path, "wb") as huge:
            huge.truncate(mail_config.CONFIG_BYTES + 1)
    result = pbem("config", "show", code=2 if kind == "pipe" else 1)
    why = "is not a regular file" if kind == "pipe" else "is larger than 1 MiB"
    assert result.stderr.startswith(f"pbem: error: {path}") and why in result.stderr
    assert result.stderr.count("\n") == 1


def test_settings_that_would_break_a_mail_or_a_command_are_refused(
    tmp_path: Path, certs: Certs
) -> None:
    """Issue 34: a host with a line break (a second SMTP command), a notify command with an
    unbalanced quote (refused at each run of pbem watch), a CA bundle that is not there or
    not a bundle: each refused when set, in one line, the settings unchanged."""
    not_pem = tmp_path / "ca.txt"
    not_pem.write_text("not a certificate\n")
    cases = [
        ("smtp.host", "mail.example.org\r\nRCPT TO:<x@example.org>", "one line"),
        ("imap.user", "me\nA1 LOGOUT", "one line"),
        ("notify", "notify-send 'your move", "notify: not a command line (No closing quotation)"),
        ("smtp.ca_file", str(tmp_path / "missing.pem"), "missing.pem: no such file"),
        ("imap.ca_file", str(not_pem), "ca.txt: not a CA bundle pbem can read"),
    ]
    for key, value, why in cases:
        refused = pbem("config", "set", key, value, code=2)
        assert refused.stderr.startswith(f"pbem: error: {key}: ") and why in refused.stderr
        assert refused.stderr.count("\n") == 1
    assert mail_config.load() == mail_config.MailConfig()
    pbem("config", "set", "smtp.ca_file", str(certs.ca))
    pbem("config", "set", "notify", "notify-send 'your move'")
    assert mail_config.load().smtp.ca_file == str(certs.ca)


def test_a_password_is_never_stored_in_the_file() -> None:
    """Issue 29: the keychain or nothing (tests/mail/test_keychain.py); the settings file
    holds no password, even when asked."""
    pbem("config", "set", "smtp.host", "mail.example.org")
    pbem("config", "set", "smtp.user", "me@example.org")
    refused = pbem("config", "set", "smtp.password", "hunter2", code=2)
    assert "never stored in clear" in refused.stderr and "PBEM_SMTP_PASSWORD" in refused.stderr
    refused = pbem("config", "set", "smtp.password", "hunter2", "--store-in-clear", code=2)
    assert "No such option '--store-in-clear'" in refused.stderr
    path = mail_config.config_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and b"hunter2" not in path.read_bytes()
    config = mail_config.load()
    with pytest.raises(UsageError, match=r"goes to the keychain, never to mail\.json"):
        mail_config.set_value(config, "smtp.password", "hunter2")


def test_where_a_password_comes_from(monkeypatch: pytest.MonkeyPatch) -> None:
    server = Smtp(host="h", user="me")
    with pytest.raises(UsageError, match=r"needed: set \$PBEM_SMTP_PASSWORD$"):
        mail_config.password(server, "smtp", None)
    assert mail_config.password(server, "smtp", lambda prompt: "typed") == "typed"
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "from env")
    assert mail_config.password(server, "smtp", None) == "from env"
    assert mail_config.password(Imap(host="h"), "imap", None) is None  # no user, no login
    oauth = Imap(host="h", user="me", auth="xoauth2")
    assert mail_config.password(oauth, "imap", lambda prompt: "never") is None


def test_no_password_in_clear_over_the_network() -> None:
    with pytest.raises(UsageError, match=r"will not send a password in clear to mail\.example"):
        mail_config.check_plaintext(Smtp(host="mail.example", user="u", security="none"), "smtp")
    mail_config.check_plaintext(Smtp(host="127.0.0.1", user="u", security="none"), "smtp")


def test_games_lists_the_store_and_whose_move_it_is(tmp_path: Path) -> None:
    pbem("key", "new", "alice", "--email", "alice@example.org", "--no-passphrase")
    pbem("key", "new", "bob", "--email", "bob@example.org", "--no-passphrase")
    assert "no games in the store" in pbem("games").stdout
    game = tmp_path / "g.json"
    pbem("new", "guess", "--seat", "alice", "--seat", "bob", "--as", "alice", "-o", str(game))
    pbem("send", str(game), "--as", "alice", "--eml", str(tmp_path / "m.eml"))
    listing = pbem("games", "--as", "bob").stdout
    assert "guess" in listing and "YOUR MOVE: bob to join" in listing
    (row,) = json.loads(pbem("games", "--as", "alice", "--json").stdout)["games"]
    assert row["your_move"] is False and row["step"] == 0


def test_games_says_when_it_hides_finished_games(guess_file: Path) -> None:
    pbem("status", str(guess_file))  # a finished game, now in the store
    assert pbem("games").stdout == "no game in progress (1 finished game: pbem games --all)\n"
    (row,) = json.loads(pbem("games", "--all", "--json").stdout)["games"]
    assert row["over"] is True


def test_games_speaks_the_readers_language_and_its_json_does_not(guess_file: Path) -> None:
    """Issue 30: ``pbem games`` in Japanese and Chinese; ``--json`` the same in every
    language (the machine interface never changes with it)."""
    pbem("status", str(guess_file))
    japanese = pbem("--lang", "ja", "games").stdout
    assert japanese == "進行中のゲームはありません (終了したゲーム 1 件: pbem games --all)\n"
    assert "已結束的遊戲 1 場" in pbem("--lang", "zh-Hant", "games").stdout
    assert "已结束的游戏 1 局" in pbem("--lang", "zh-Hans", "games").stdout
    english = pbem("games", "--all", "--json").stdout
    assert pbem("--lang", "ja", "games", "--all", "--json").stdout == english


def test_a_bot_per_identity_is_a_setting_checked_against_the_rulesets() -> None:
    pbem("config", "set", "bot.carol", "mcts:50")
    assert "bot.carol = mcts:50" in pbem("config", "show").stdout
    before = mail_config.config_path().read_bytes()
    for spec in ("clever", "mcts:many", "greedy:3"):
        bad = pbem("config", "set", "bot.carol", spec, code=2)
        assert bad.stderr == (
            f"pbem: error: unknown bot {spec!r}; --bot SPEC: random, greedy, mcts or mcts:N "
            "(N iterations a decision)\n"
        )
    assert mail_config.config_path().read_bytes() == before  # a refusal changes nothing
    pbem("config", "unset", "bot.carol")
    assert mail_config.load().bot == {}


def test_watch_refuses_an_unknown_bot_before_anything_else() -> None:
    bad = pbem("watch", "--once", "--bot", "mcts:0", code=2)
    assert bad.stderr.startswith("pbem: error: unknown bot 'mcts:0'; --bot SPEC: ")
    assert bad.stderr.count("\n") == 1
