"""``pbem ui`` run for real: the command in its own process, serving a home furnished
with a Rattaneer and a Rattus game, and a copy of that home taken before anything is
played, where ``pbem play`` makes the same moves for comparison."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.mail.conftest import certs, imap, smtp  # noqa: F401  (the real mail servers)
from tests.ui.tables import PASSPHRASE, Table, furnish

ADDRESS = re.compile(r"(http://127\.0\.0\.1:(\d+))/\?token=([A-Za-z0-9_-]+)")


@dataclass
class Server:
    """A running ``pbem ui``: its address with the token, and its parts."""

    url: str
    base: str
    port: int
    token: str
    work: Path
    """The folder it runs in (where exports of games without a file go)."""


@dataclass
class Homes:
    ui: Path
    cli: Path
    """A copy of ``ui`` made before the page played anything."""
    table: Table


@pytest.fixture
def homes(_isolated_home: Path, tmp_path: Path) -> Homes:
    table = furnish(_isolated_home)
    copy = tmp_path / "home-cli"
    shutil.copytree(_isolated_home, copy)
    return Homes(_isolated_home, copy, table)


@contextlib.contextmanager
def running(home: Path, work: Path) -> Iterator[Server]:
    """``pbem ui`` in its own process, in ``work``; afterwards, what it wrote beyond the
    address it printed must hold neither the token nor the passphrase (nothing is
    logged)."""
    work.mkdir(exist_ok=True)
    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_SMTP_PASSWORD": "secret"}
    command = [sys.executable, "-m", "pbem", "ui", "--no-browser", "--as", "bot1", "--json"]
    errors = work / "ui.stderr"
    with errors.open("w") as sink:
        process = subprocess.Popen(
            command, cwd=work, env=env, stdout=subprocess.PIPE, stderr=sink, text=True
        )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline()]  # the address, as one JSON object
        while lines[-1] and lines[-1].rstrip() != "}":
            lines.append(process.stdout.readline())
        report = json.loads("".join(lines))
        assert report["ok"] and report["identity"] == "bot1", report
        found = ADDRESS.fullmatch(report["url"])
        assert found, (lines, errors.read_text())
        yield Server(found.group(0), found.group(1), int(found.group(2)), found.group(3), work)
    finally:
        process.terminate()
        try:
            rest, _ = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            rest, _ = process.communicate()
    said = rest + errors.read_text()
    assert found.group(3) not in said and PASSPHRASE not in said, said


@pytest.fixture
def server(homes: Homes, tmp_path: Path) -> Iterator[Server]:
    with running(homes.ui, tmp_path / "work") as started:
        yield started
