"""The door of ``pbem ui``: forged requests against the running command. Without the
token, with a wrong one, under a foreign Host name (DNS rebinding), from another origin,
without the page's token header: refused, each with its reason, and nothing signed. The
same request done right is answered, so that each refusal is the door's doing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli.main import COMMANDS, main
from pbem.store.store import Store
from tests.ui.conftest import Server, request, running
from tests.ui.tables import PASSPHRASE, Table, furnish


@pytest.fixture(scope="module")
def door(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path, Table]]:
    """One server for every forged request of this module (none of them changes a game)."""
    home = tmp_path_factory.mktemp("door-home")
    dealt = furnish(home)
    with running(home, tmp_path_factory.mktemp("door-work")) as started:
        yield started, home, dealt


@pytest.fixture
def server(door: tuple[Server, Path, Table]) -> Server:
    return door[0]


def test_the_token_is_required_and_kept_in_a_strict_cookie(server: Server) -> None:
    status, _, text = request(server, "GET", "/", cookie=False)
    assert status == 403 and "open the address pbem ui printed, with its token" in text
    status, _, _ = request(server, "GET", "/?token=not-the-token", cookie=False)
    assert status == 403
    status, headers, _ = request(server, "GET", f"/?token={server.token}", cookie=False)
    assert status == 200 and headers["refresh"] == f"0;url={server.pages}/"
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"pbem-ui-{server.port}=") and server.token not in cookie
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert f"Path={server.root}/" in cookie
    status, _, text = request(server, "GET", "/")
    assert status == 200 and "Games of bot1" in text
    assert server.url.startswith("http://127.0.0.1:")


def test_a_foreign_host_name_is_refused(server: Server) -> None:
    status, _, text = request(server, "GET", "/", host=f"attacker.example:{server.port}")
    assert status == 403 and "only to its own address" in text


def test_changes_from_another_origin_or_without_the_token_are_refused(
    door: tuple[Server, Path, Table],
) -> None:
    server, home, dealt = door
    game = dealt.rattaneer.genesis.game
    store = Store(home)
    head = store.head(game).digest
    store.close()
    move = {"head": head, "moves": ["pirates 3 7, henchmen 3"], "passphrase": PASSPHRASE}
    play = f"/api/game/{game}/play"
    cases = [
        ({"origin": "http://attacker.example"}, "must come from the pbem ui page itself"),
        ({"origin": None}, "must come from the pbem ui page itself"),
        ({"cookie": False}, "open the address pbem ui printed"),
        ({"token": None}, "does not carry the page's token"),
        ({"token": "guessed"}, "does not carry the page's token"),
    ]
    for change, why in cases:
        status, _, text = request(server, "POST", play, move, **change)
        assert (status, why in text) == (403, True), (change, status, text)
    status, _, _ = request(server, "PUT", play, move)
    assert status == 403
    # done right, the request reaches the rules: an illegal placement is refused by
    illegal = {**move, "moves": ["pirates 3 3, henchmen X"]}
    status, _, text = request(server, "POST", play, illegal)
    assert status == 409 and "R-5.1: your two pirates must be on different areas" in text
    store = Store(home)
    assert store.head(game).digest == head, "nothing was signed"
    store.close()


def test_pages_allow_only_their_own_inline_code(door: tuple[Server, Path, Table]) -> None:
    server, _, dealt = door
    game = dealt.rattus.genesis.game
    status, headers, text = request(server, "GET", f"/game/{game}")
    assert status == 200 and "data-pick=" in text
    policy = headers["content-security-policy"]
    assert policy.startswith("default-src 'none'; script-src 'sha256-")
    assert "unsafe" not in policy and "http" not in policy
    assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "same-origin"
    assert headers["cache-control"] == "no-store"


def test_the_command_is_registered_and_loads_the_server_only_when_run() -> None:
    import subprocess
    import sys

    assert COMMANDS["ui"] == "pbem.cli.ui:ui"
    probe = (
        "import sys; from click.testing import CliRunner; from pbem.cli.main import main; "
        "r = CliRunner().invoke(main, ['--help']); assert 'ui' in r.output; "
        "print(sorted(m for m in ('starlette', 'uvicorn') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_port_in_use_or_an_unknown_identity_is_one_line(door: tuple[Server, Path, Table]) -> None:
    server, home, _ = door
    runner = CliRunner()
    env = {"PBEM_HOME": str(home)}
    taken = runner.invoke(main, ["ui", "--no-browser", "--port", str(server.port)], env=env)
    assert taken.exit_code == 2
    assert taken.stderr.strip() == (
        f"pbem: error: cannot listen on 127.0.0.1:{server.port} (Address already in use); "
        "try another --port"
    )
    nobody = runner.invoke(main, ["ui", "--no-browser", "--as", "nobody"], env=env)
    assert nobody.exit_code == 2 and nobody.stderr.startswith("pbem: error: ")
    assert "nobody" in nobody.stderr and "Traceback" not in nobody.output
