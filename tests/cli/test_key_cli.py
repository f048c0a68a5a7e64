"""``pbem key`` through click: output, exit codes and one-line errors (architecture §4, §8)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from pbem.cli import common as cli_common
from pbem.cli import key as key_cli
from pbem.crypto.keyring import FAST_KDF_ENV, Keyring
from pbem.format.canonical import pretty
from pbem.format.card import IdentityCard
from pbem.format.errors import Rejected, UsageError


@click.group()
def cli() -> None:
    """Stand-in for ``pbem.cli.main.main`` until the group is registered there."""


cli.add_command(key_cli.key)


@pytest.fixture(autouse=True)
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("PBEM_HOME", str(home))
    monkeypatch.setenv(FAST_KDF_ENV, "1")
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    return home


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["key", *args], input=input, catch_exceptions=False)


def assert_error(result: Result, code: int, text: str) -> None:
    """The failure contract: the exit code, and exactly one line on stderr."""
    assert result.exit_code == code, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("pbem: error: ")
    assert text in lines[0]
    assert "Traceback" not in result.output


def new(name: str, *extra: str) -> Result:
    result = run("new", name, "--email", f"{name}@example.org", "--no-passphrase", *extra)
    assert result.exit_code == 0, result.output
    return result


# --------------------------------------------------------------------------- new


def test_new_without_passphrase(env: Path) -> None:
    result = new("alice")
    card = Keyring(env).card("alice")
    assert "alice <alice@example.org>" in result.stdout
    assert card.fingerprint in result.stdout
    assert "WITHOUT a passphrase" in result.stdout
    assert "pbem key export alice" in result.stdout
    assert not Keyring(env).needs_passphrase("alice")


def test_new_with_passphrase_from_env(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_PASSPHRASE", "s3cret")
    result = run("new", "alice", "--email", "alice@example.org", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["sealed"] is True
    assert out["keyring"] == str(env)
    ring = Keyring(env)
    assert out["fingerprint"] == ring.card("alice").fingerprint
    assert ring.needs_passphrase("alice")
    assert ring.load("alice", "s3cret").card.email == "alice@example.org"


def test_new_asks_twice_when_interactive(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_common, "_stdin_is_tty", lambda: True)
    # A mismatched confirmation is asked again; the passphrase is never echoed.
    result = run("new", "alice", "--email", "alice@example.org", input="one\ntwo\npw\npw\n")
    assert result.exit_code == 0, result.output
    assert "do not match" in result.output
    assert "pw" not in result.stdout
    assert Keyring(env).load("alice", "pw").card.name == "alice"


def test_new_without_a_terminal_says_what_to_set(env: Path) -> None:
    result = run("new", "alice", "--email", "alice@example.org")
    assert_error(result, 2, "set PBEM_PASSPHRASE or use --no-passphrase")
    assert not (env / "keys" / "alice.json").exists()


def test_new_existing_name_fails_before_asking(monkeypatch: pytest.MonkeyPatch) -> None:
    new("alice")
    asked: list[str] = []
    monkeypatch.setattr(key_cli, "read_passphrase", lambda name, **_: asked.append(name) or "x")
    result = run("new", "alice", "--email", "alice@example.org")
    assert_error(result, 2, "already has an identity named 'alice'")
    assert asked == []


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["bad name", "--email", "a@example.org"], "bad identity name 'bad name'"),
        (["alice", "--email", "not-an-address"], "bad email address"),
    ],
)
def test_new_bad_arguments(args: list[str], text: str) -> None:
    assert_error(run("new", *args, "--no-passphrase"), 2, text)


def test_new_requires_email() -> None:
    result = run("new", "alice", "--no-passphrase")
    assert result.exit_code == 2
    assert "--email" in result.output


# --------------------------------------------------------------------------- list


def test_list_empty(env: Path) -> None:
    result = run("list")
    assert result.exit_code == 0
    assert f"no identities or cards in the keyring at {env}" in result.stdout
    assert json.loads(run("list", "--json").stdout) == {"ok": True, "cards": []}


def test_list_marks_own_identities(env: Path, tmp_path: Path) -> None:
    new("bob")
    carol = Keyring(tmp_path / "carol").create("carol", "carol@example.org", None).card
    Keyring(env).import_card(carol)
    result = run("list")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("* bob <bob@example.org>")
    assert lines[0].endswith("(yours)")
    assert lines[1].startswith("  carol <carol@example.org>")
    assert carol.fingerprint in lines[1]
    assert lines[1].endswith("(card)")
    listed = json.loads(run("list", "--json").stdout)["cards"]
    assert [(entry["name"], entry["own"]) for entry in listed] == [("bob", True), ("carol", False)]
    assert listed[1]["fingerprint"] == carol.fingerprint


def test_list_reports_a_damaged_file(env: Path) -> None:
    new("bob")
    (env / "keys" / "bob.json").write_text("{")
    assert_error(run("list"), 1, f"key file {env / 'keys' / 'bob.json'} is not valid JSON")


# --------------------------------------------------------------------------- export / import


def test_export_to_stdout(env: Path) -> None:
    new("alice")
    result = run("export", "alice")
    assert result.exit_code == 0
    card = IdentityCard.from_json(result.stdout)
    assert card == Keyring(env).card("alice")
    assert result.stdout == pretty(card.model_dump())
    assert "root" not in result.stdout


def test_export_to_file_and_import_elsewhere(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    new("alice")
    file = tmp_path / "alice.card.json"
    result = run("export", "alice", "-o", str(file))
    assert result.exit_code == 0
    card = Keyring(env).card("alice")
    assert str(file) in result.stdout
    assert card.fingerprint in result.stdout
    assert IdentityCard.from_json(file.read_bytes()) == card

    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "bob-home"))
    new("bob")
    result = run("import", str(file))
    assert result.exit_code == 0, result.output
    assert "imported the card of alice <alice@example.org>" in result.stdout
    assert card.fingerprint in result.stdout
    assert "out of band" in result.stdout
    assert Keyring(tmp_path / "bob-home").card("alice") == card

    again = run("import", str(file), "--json")
    assert again.exit_code == 0
    assert json.loads(again.stdout) == {**card.model_dump(), "imported": False, "ok": True}


def test_export_never_writes_over_a_file(env: Path, tmp_path: Path) -> None:
    new("alice")
    file = tmp_path / "alice.card.json"
    assert run("export", "alice", "-o", str(file)).exit_code == 0
    assert run("export", "alice", "-o", str(file)).exit_code == 0  # the same card: done
    game = tmp_path / "game.json"
    game.write_text("a game file, say")
    result = run("export", "alice", "-o", str(game))
    assert_error(result, 2, f"{game}: exists already; pbem never writes over a file")
    assert game.read_text() == "a game file, say"


def test_export_unknown_name(env: Path) -> None:
    assert_error(run("export", "zed"), 2, "no identity or card 'zed' in the keyring")


def test_import_tampered_card(tmp_path: Path) -> None:
    new("alice")
    data = json.loads(run("export", "alice").stdout)
    data["fingerprint"] = "AAAA-AAAA-AAAA-AAAA-AAAA"
    file = tmp_path / "card.json"
    file.write_text(json.dumps(data))
    assert_error(run("import", str(file)), 1, "does not match the keys")


def test_import_not_json(tmp_path: Path) -> None:
    file = tmp_path / "card.json"
    file.write_text("hello")
    assert_error(run("import", str(file)), 1, f"card file {file} is not valid JSON")


def test_import_missing_file(tmp_path: Path) -> None:
    assert_error(run("import", str(tmp_path / "nope.json")), 2, "nope.json: no such file")


def test_import_own_card_is_refused(tmp_path: Path) -> None:
    new("alice")
    file = tmp_path / "alice.json"
    file.write_text(run("export", "alice").stdout)
    assert_error(run("import", str(file)), 1, "collides with your own identity 'alice'")


# --------------------------------------------------------------------------- helpers


@click.command()
@click.argument("name")
@cli_common.reports_errors
def sign_something(name: str) -> None:
    """A command as other modules will write them: load an identity, then sign."""
    identity = cli_common.load_identity(Keyring(), name)
    click.echo(identity.sign(b"x").hex())


def test_load_identity_uses_the_env_passphrase(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_PASSPHRASE", "pw")
    assert run("new", "alice", "--email", "alice@example.org").exit_code == 0
    result = CliRunner().invoke(sign_something, ["alice"])
    assert result.exit_code == 0
    assert len(bytes.fromhex(result.stdout.strip())) == 64


def test_load_identity_wrong_passphrase(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_PASSPHRASE", "pw")
    assert run("new", "alice", "--email", "alice@example.org").exit_code == 0
    monkeypatch.setenv("PBEM_PASSPHRASE", "nope")
    result = CliRunner().invoke(sign_something, ["alice"])
    assert_error(result, 1, "wrong passphrase for identity 'alice'")
    assert result.stdout == ""


def test_load_identity_no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_PASSPHRASE", "pw")
    assert run("new", "alice", "--email", "alice@example.org").exit_code == 0
    monkeypatch.delenv("PBEM_PASSPHRASE")
    result = CliRunner().invoke(sign_something, ["alice"])
    assert_error(result, 2, "set PBEM_PASSPHRASE")
    assert "--no-passphrase" not in result.stderr  # that hint is for new keys only


def test_load_identity_unsealed_never_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    new("bot")
    monkeypatch.setattr(cli_common, "_stdin_is_tty", lambda: pytest.fail("asked for nothing"))
    assert CliRunner().invoke(sign_something, ["bot"]).exit_code == 0


def test_load_identity_interactive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_PASSPHRASE", "pw")
    assert run("new", "alice", "--email", "alice@example.org").exit_code == 0
    monkeypatch.delenv("PBEM_PASSPHRASE")
    monkeypatch.setattr(cli_common, "_stdin_is_tty", lambda: True)
    result = CliRunner().invoke(sign_something, ["alice"], input="pw\n")
    assert result.exit_code == 0, result.output
    assert "Passphrase for alice" in result.output


@pytest.mark.parametrize(
    ("error", "code", "line"),
    [
        (Rejected("bad\nthing"), 1, "pbem: error: bad thing"),
        (UsageError("no such file"), 2, "pbem: error: no such file"),
        (FileNotFoundError(2, "No such file or directory", "x.json"), 2, "x.json"),
    ],
)
def test_reports_errors(error: Exception, code: int, line: str) -> None:
    @click.command()
    @cli_common.reports_errors
    def boom() -> None:
        raise error

    assert_error(CliRunner().invoke(boom, []), code, line)


def test_a_bug_is_one_line_with_its_own_exit_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """No traceback ever (issue 11): a bug says what it is in one line and exits 3;
    ``PBEM_DEBUG=1`` lets the exception through for whoever debugs it."""

    @click.command()
    @cli_common.reports_errors
    def bug() -> None:
        raise KeyError("programming error")

    result = CliRunner().invoke(bug, [])
    assert_error(result, 3, "pbem: error: internal error (KeyError: 'programming error')")
    monkeypatch.setenv("PBEM_DEBUG", "1")
    assert isinstance(CliRunner().invoke(bug, []).exception, KeyError)
