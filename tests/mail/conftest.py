"""Players with their own keyrings and mailboxes, and the real servers between them."""

from __future__ import annotations

import itertools
import json
import shlex
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from click.testing import CliRunner, Result
from keyrings.alt.file import PlaintextKeyring

from pbem.cli.main import main
from pbem.store.store import Store
from tests.mail.servers import (
    HOST,
    PASSWORD,
    Certs,
    Dovecot,
    Smtp,
    dovecot,
    make_certs,
    smtp_server,
)

cli = main
_numbers = itertools.count(1)
#: The notify command of the test players: note which game file awaits a decision.
NOTE = 'printf "%s\\n" "$PBEM_SHORT_ID" >> "$1"'


class Player:
    """One person: a keyring (``PBEM_HOME``), a mailbox, a folder to work in."""

    def __init__(self, name: str, root: Path) -> None:
        self.name = name
        self.email = f"{name}.{next(_numbers)}@example.org"
        self.home = root / f"home-{name}"
        self.work = root / f"work-{name}"
        self.work.mkdir(parents=True)
        self.notes = self.work / "notifications.txt"
        self.seconds = 0.0

    def env(self) -> dict[str, str]:
        return {
            "PBEM_HOME": str(self.home),
            "PBEM_SMTP_PASSWORD": PASSWORD,
            "PBEM_IMAP_PASSWORD": PASSWORD,
        }

    def run(self, *args: Any, code: int | None = 0, stdin: bytes | None = None) -> Result:
        start = time.perf_counter()
        result = CliRunner().invoke(
            cli, [str(a) for a in args], env=self.env(), input=stdin, catch_exceptions=False
        )
        self.seconds += time.perf_counter() - start
        if code is not None:
            assert result.exit_code == code, (args, result.output)
        return result

    def json(self, *args: Any) -> Any:
        return json.loads(self.run(*args, "--json").stdout)

    def store(self) -> Store:
        return Store(self.home)

    def configure(self, smtp: Smtp, imap: Dovecot, certs: Certs, imap_tls: bool = False) -> None:
        notify = shlex.join(["sh", "-c", NOTE, "sh", str(self.notes)])
        settings = {
            "smtp.host": HOST,
            "smtp.port": smtp.port,
            "smtp.security": smtp.security,
            "smtp.user": self.email,
            "smtp.ca_file": certs.ca,
            "imap.host": HOST,
            "imap.port": imap.tls_port if imap_tls else imap.port,
            "imap.security": "tls" if imap_tls else "starttls",
            "imap.user": self.email,
            "imap.ca_file": certs.ca,
            "notify": notify,
        }
        for key, value in settings.items():
            self.run("config", "set", key, value)


@pytest.fixture(scope="session")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    return make_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="session")
def imap(certs: Certs) -> Iterator[Dovecot]:
    with dovecot(certs) as server:
        yield server


@pytest.fixture
def smtp(certs: Certs, imap: Dovecot) -> Iterator[Smtp]:
    with smtp_server(certs, imap, "starttls") as server:
        yield server


def make_players(
    root: Path, smtp: Smtp, imap: Dovecot, certs: Certs, names: tuple[str, ...]
) -> list[Player]:
    """Players with keys, mail settings, and the creator (the first) holding everyone's
    card."""
    players = [Player(name, root) for name in names]
    for p in players:
        p.run("key", "new", p.name, "--email", p.email, "--no-passphrase")
        p.run("key", "export", p.name, "-o", root / f"{p.name}.card.json")
        p.configure(smtp, imap, certs)
    return players


@pytest.fixture
def trio(tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs) -> list[Player]:
    return make_players(tmp_path, smtp, imap, certs, ("alice", "bob", "carol"))


def new_game(players: list[Player], root: Path, ruleset: str = "guess", *options: str) -> Path:
    """The first player creates a game with everyone seated; returns the file."""
    creator = players[0]
    seats: list[Any] = []
    for p in players:
        seats += ["--seat", p.name if p is creator else root / f"{p.name}.card.json"]
    opts: list[Any] = []
    for option in options:
        opts += ["--option", option]
    target = creator.work / "game.json"
    creator.run("new", ruleset, *seats, *opts, "--as", creator.name, "-o", target)
    return target


BACKEND = "keyrings.alt.file.PlaintextKeyring"


@pytest.fixture
def keychain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> PlaintextKeyring:
    """A keychain of the test's own, for this process and the pbem processes it starts."""
    data = tmp_path / "keychain-data"
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", BACKEND)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    backend = PlaintextKeyring()
    backend.file_path = str(data / "python_keyring" / "keyring_pass.cfg")
    keyring.set_keyring(backend)
    return backend


class KeychainPlayer(Player):
    """A player whose passwords are in the keychain, not in the environment."""

    def env(self) -> dict[str, str]:
        return {"PBEM_HOME": str(self.home)}
