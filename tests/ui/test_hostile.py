"""``pbem ui`` among hostile neighbours (issue 34): two signings at once with a key sealed
at the real Argon2id cost, and a double click on Sign; another server of 127.0.0.1 the
browser visits; a browser started with the address on its command line; an open
redirect; a thousand half-sent requests; failures that would print a traceback quoting
the request."""

from __future__ import annotations

import http.client
import http.server
import json
import shlex
import socket
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import unquote, urlparse

import pytest
import uvicorn

from pbem.crypto.keyring import FAST_KDF_ENV, Keyring, seal_identity
from pbem.store.store import Store
from pbem.ui.guard import INTERNAL_ERROR, Guard
from pbem.ui.server import configure
from tests.ui.conftest import Homes, Server, request, running
from tests.ui.tables import PASSPHRASE, Table, furnish
from tests.ui.test_board_page import area, click_and_wait, open_game, text
from tests.view.browser import Browser

MOVE = "pirates 3 7, henchmen 3"


def heads(home: Path, table: Table) -> dict[str, str]:
    store = Store(home)
    try:
        games = (table.rattaneer.genesis.game, table.rattus.genesis.game)
        return {g: store.head(g).digest for g in games}
    finally:
        store.close()


def test_two_signings_at_once_with_a_key_at_the_real_cost(
    _isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three signings come together, each unsealing the key (64 MiB, 4 lanes): all are
    answered, the legal one signed, the others refused by the rules, not hung nor 500."""
    table = furnish(_isolated_home)
    monkeypatch.delenv(FAST_KDF_ENV)
    me = table.ids[0]
    key = Keyring(_isolated_home).keys_dir / f"{me.card.name}.json"
    sealed = seal_identity(me, PASSPHRASE)
    assert sealed.kdf is not None and sealed.kdf.lanes > 1
    key.write_text(sealed.to_json())
    before = heads(_isolated_home, table)
    ours, theirs = table.rattaneer.genesis.game, table.rattus.genesis.game
    asked = [
        (ours, [MOVE]),
        (theirs, ["place nowhere"]),
        (theirs, ["take nothing"]),
    ]
    with running(_isolated_home, tmp_path / "work") as server:

        def sign(game: str, moves: list[str]) -> tuple[int, dict[str, str], str]:
            body = {"head": before[game], "moves": moves, "passphrase": PASSPHRASE}
            return request(server, "POST", f"/api/game/{game}/play", body)

        with ThreadPoolExecutor(len(asked)) as pool:
            answers = list(pool.map(lambda a: sign(*a), asked))
        assert answers[0][0] == 200 and MOVE in answers[0][2], answers[0]
        for status, _, text in answers[1:]:
            assert status in (400, 409) and '"error"' in text, (status, text)
        status, _, text = request(server, "GET", f"/game/{ours}")
        assert status == 200, "the server still answers"
    after = heads(_isolated_home, table)
    assert after[ours] != before[ours] and after[theirs] == before[theirs]


class _Neighbour(http.server.BaseHTTPRequestHandler):
    """Another server of 127.0.0.1: records the cookies the browser sends it."""

    seen: ClassVar[list[str]]

    def do_GET(self) -> None:
        self.seen.append(self.headers.get("Cookie", ""))
        body = b"<!doctype html><title>neighbour</title><p>hello</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def neighbour() -> Iterator[tuple[str, list[str]]]:
    seen: list[str] = []
    handler = type("Handler", (_Neighbour,), {"seen": seen})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", seen
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_browser_is_opened_through_a_private_file_and_neighbours_get_no_cookie(
    _isolated_home: Path, tmp_path: Path, neighbour: tuple[str, list[str]]
) -> None:
    """``pbem ui`` starts the browser ($BROWSER, here a recorder of what it is given) with a
    file only its user can read, not the address with the token, and removes the file
    once the token came in; a real Chromium opening that file reaches the games, then
    visits another server of 127.0.0.1, which receives no cookie of pbem ui (before:
    ``pbem-ui-PORT=<token>``, the token itself)."""
    furnish(_isolated_home)
    seen_by_browser = tmp_path / "browser"
    recorder = tmp_path / "browser.py"
    recorder.write_text(
        "import json, os, pathlib, stat, sys, urllib.parse\n"
        "page = pathlib.Path(urllib.parse.unquote(urllib.parse.urlparse(sys.argv[1]).path))\n"
        "mode = lambda p: stat.S_IMODE(p.stat().st_mode)\n"
        "seen = [sys.argv[1:], mode(page), mode(page.parent), page.read_text()]\n"
        f"pathlib.Path({str(seen_by_browser)!r}).write_text(json.dumps(seen))\n"
    )
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(recorder))} %s"
    there, cookies = neighbour
    with running(_isolated_home, tmp_path / "work", browser=command) as server:
        for _ in range(600):  # the browser is started before the server answers
            if seen_by_browser.exists():
                break
            threading.Event().wait(0.05)
        argv, page_mode, folder_mode, text = json.loads(seen_by_browser.read_text())
        assert server.token not in " ".join(argv)
        (opened,) = argv
        assert urlparse(opened).scheme == "file" and (page_mode, folder_mode) == (0o600, 0o700)
        assert server.url in text
        assert not Path(unquote(urlparse(opened).path)).parent.exists(), "removed once used"
        copy = tmp_path / "open.html"
        copy.write_text(text)
        with Browser() as browser:
            browser.goto(copy.as_uri())
            where = "location.href + ' ' + document.readyState"
            games = f"{server.pages}/ complete"
            browser.wait_for(lambda: browser.evaluate(where) == games)
            assert "Games of bot1" in browser.evaluate("document.body.innerText")
            browser.goto(f"{there}/")
            browser.goto(f"{there}/s/another-root/")
            assert "hello" in browser.evaluate("document.body.innerText")
    assert len(cookies) >= 2 and not any("pbem-ui" in c for c in cookies), cookies


def test_the_address_leads_only_to_its_own_pages(_isolated_home: Path, tmp_path: Path) -> None:
    """``//evil.example/x?token=`` (before: a redirection off-site) and a path with CR LF
    (before: a traceback quoting it) lead to this server's games page."""
    furnish(_isolated_home)
    with running(_isolated_home, tmp_path / "work") as server:
        for path in ("//evil.example/x", "/%0d%0aSet-Cookie:%20x=y", "/game/%0d%0a"):
            status, headers, _ = request(server, "GET", f"{path}?token={server.token}")
            assert (status, headers["refresh"]) == (200, f"0;url={server.pages}/"), path
            assert "x=y" not in headers["set-cookie"]
        status, _, _ = request(server, "GET", "/%0d%0a")
        assert status == 404
        status, _, _ = request(server, "GET", "//evil.example/x", cookie=False)
        assert status == 403


def test_a_thousand_half_sent_requests_do_not_shut_the_player_out(
    _isolated_home: Path, tmp_path: Path
) -> None:
    """1,100 connections that send half a request and wait, against a server allowed 1,024
    open files (a desktop's limit): each is closed when its time to arrive is up, and the
    player's request is answered (before: never)."""
    furnish(_isolated_home)
    with running(_isolated_home, tmp_path / "work", files=1024) as server:
        half = f"GET {server.root}/ HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode()
        held: list[socket.socket] = []
        try:
            for _ in range(1100):
                s = socket.socket()
                s.settimeout(30)
                s.connect(("127.0.0.1", server.port))
                s.sendall(half)
                held.append(s)
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
            headers = {"Host": f"127.0.0.1:{server.port}", "Cookie": server.cookie}
            connection.request("GET", f"{server.root}/", headers=headers)
            response = connection.getresponse()
            assert response.status == 200 and b"Games of bot1" in response.read()
            connection.close()
            closed = sum(s.recv(1) == b"" for s in held[:10])
            assert closed == 10, "the half-sent requests were closed by the server"
        finally:
            for s in held:
                s.close()


def test_a_failure_is_a_bare_500_and_one_line(capfd: pytest.CaptureFixture[str]) -> None:
    """Whatever fails behind the door (here an app that raises, quoting the request) is
    answered 500, and the server says one fixed line: no traceback, nothing of the
    request."""

    async def broken(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError(f"failed on {scope['path']}")

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    root = "/s/root"
    guard = Guard(broken, "token", port, root)
    server = uvicorn.Server(configure(guard))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            threading.Event().wait(0.02)
        s = Server("", f"http://127.0.0.1:{port}", port, "token", Path(), root, "")
        s.cookie = f"pbem-ui-{port}={guard.cookie_value}"
        status, _, text = request(s, "GET", "/secret-path-42")
        assert (status, text) == (500, "pbem ui: internal error\n")
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()
    said = capfd.readouterr()
    assert said.err.strip() == INTERNAL_ERROR and "secret-path-42" not in said.out + said.err


def test_the_sign_button_sends_one_signing_at_a_time(homes: Homes, server: Server) -> None:
    """Two submissions of the signing form in one go (a double click): one request, one
    signed move (before: two requests, the second refused or asking the passphrase that
    the first one took)."""
    game = homes.table.rattaneer.genesis.game
    with Browser() as browser:
        open_game(browser, server, game)
        browser.click(area(3))
        browser.wait_for(lambda: "second pirate" in text(browser, "prompt"))
        click_and_wait(browser, area(7), "pirates 3 7, henchmen X")
        click_and_wait(browser, area(3), MOVE)
        browser.type("#passphrase", PASSPHRASE)
        browser.evaluate(
            "(() => { const f = document.getElementById('sign');"
            " f.requestSubmit(); f.requestSubmit(); })()"
        )
        browser.wait_for(lambda: browser.evaluate("document.body.dataset.signed") == "true")
        plays = [
            e
            for e in browser.events
            if e["method"] == "Network.requestWillBeSent"
            and e["params"]["request"]["url"].endswith("/play")
        ]
        assert len(plays) == 1, plays
        assert browser.problems(server.base) == []
        assert MOVE in text(browser, "after-text")
