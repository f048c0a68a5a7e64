"""Serving the app: a socket on 127.0.0.1 (a free port unless one is asked for), a random
token, uvicorn with its access log off (an address holds the token, a body may hold a
passphrase: neither is ever written anywhere)."""

from __future__ import annotations

import secrets
import socket
from pathlib import Path

import uvicorn

from pbem.format.errors import UsageError
from pbem.ui.app import Settings, build

HOST = "127.0.0.1"


def listen(port: int) -> socket.socket:
    """A socket on loopback only: ``port`` 0 lets the system choose a free one."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        why = f"cannot listen on {HOST}:{port} ({exc.strerror}); try another --port"
        raise UsageError(why) from None
    sock.listen(64)
    return sock


def address(sock: socket.socket, token: str) -> str:
    return f"http://{HOST}:{sock.getsockname()[1]}/?token={token}"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def serve(sock: socket.socket, token: str, home: Path | None, name: str) -> None:
    """Answer on ``sock`` until interrupted."""
    settings = Settings(home=home, name=name, token=token, port=sock.getsockname()[1])
    config = uvicorn.Config(
        build(settings),
        log_level="warning",
        access_log=False,
        lifespan="off",
        server_header=False,
        date_header=False,
    )
    uvicorn.Server(config).run(sockets=[sock])
