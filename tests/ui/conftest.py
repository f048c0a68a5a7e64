"""``pbem ui`` run for real: the command in its own process, serving a home furnished
with a Rattaneer and a Rattus game, and a copy of that home taken before anything is
played, where ``pbem play`` makes the same moves for comparison."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import resource
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    root: str
    """Where its pages live (``/s/RANDOM``), learnt from its answer to the address."""
    cookie: str
    """The cookie that answer set (``pbem-ui-PORT=VALUE``)."""

    @property
    def pages(self) -> str:
        return self.base + self.root


def let_in(port: int, token: str) -> tuple[str, str]:
    """The address with the token, asked as a browser would: the root it refreshes to and
    the cookie it sets."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", f"/?token={token}", headers={"Host": f"127.0.0.1:{port}"})
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        location, cookie = response.getheader("refresh"), response.getheader("set-cookie")
    finally:
        connection.close()
    found = re.fullmatch(rf"0;url=http://127\.0\.0\.1:{port}(/s/[A-Za-z0-9_-]+)/", location or "")
    assert found and cookie, (location, cookie)
    return found.group(1), cookie.split(";")[0]


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
def running(
    home: Path, work: Path, *, browser: str | None = None, files: int | None = None
) -> Iterator[Server]:
    """``pbem ui`` in its own process, in ``work``; afterwards, what it wrote beyond the
    address it printed must hold neither the token nor the passphrase nor a traceback
    (nothing is logged). ``browser``: the command it opens the page with ($BROWSER; else
    ``--no-browser``); ``files``: its limit of open files (a desktop's is 1024)."""
    work.mkdir(exist_ok=True)
    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_SMTP_PASSWORD": "secret"}
    command = [sys.executable, "-m", "pbem", "ui", "--as", "bot1", "--json"]
    if browser is None:
        command.append("--no-browser")
    else:
        env["BROWSER"] = browser

    def limit() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    errors = work / "ui.stderr"
    with errors.open("w") as sink:
        process = subprocess.Popen(
            command,
            cwd=work,
            env=env,
            stdout=subprocess.PIPE,
            stderr=sink,
            text=True,
            preexec_fn=limit,
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
        port, token = int(found.group(2)), found.group(3)
        root, cookie = let_in(port, token)
        yield Server(found.group(0), found.group(1), port, token, work, root, cookie)
    finally:
        process.terminate()
        try:
            rest, _ = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            rest, _ = process.communicate()
    said = rest + errors.read_text()
    assert found.group(3) not in said and PASSPHRASE not in said, said
    assert "Traceback" not in said, said


def request(
    server: Server,
    method: str,
    path: str,
    body: Any = None,
    *,
    cookie: bool = True,
    origin: str | None = "",
    token: str | None = "",
    host: str = "",
) -> tuple[int, dict[str, str], str]:
    """One request, with the cookie, the Origin and the token header a page would send,
    unless told otherwise; ``path`` is under the server's root unless it is ``/?...``."""
    headers = {"Host": host or f"127.0.0.1:{server.port}"}
    if cookie:
        headers["Cookie"] = server.cookie
    if origin is not None:
        headers["Origin"] = origin or server.base
    if token is not None:
        headers["X-Pbem-Token"] = token or server.token
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        where = path if path.startswith("/?") else server.root + path
        connection.request(method, where, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text
    finally:
        connection.close()


@pytest.fixture
def server(homes: Homes, tmp_path: Path) -> Iterator[Server]:
    with running(homes.ui, tmp_path / "work") as started:
        yield started
