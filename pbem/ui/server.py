"""Serving the app: a socket on 127.0.0.1 (a free port unless one is asked for), a random
token and a random root for the pages, uvicorn with its access log off (an address holds
the token, a body may hold a passphrase: neither is ever written anywhere).

Two things keep a stranger from shutting the player out or reading over their shoulder:

- a request must arrive whole within ``READ_TIMEOUT`` seconds of its first byte (or of
  the connection), else its connection is closed: a thousand half-sent requests hold
  nothing for long;
- the browser is not given the address with the token on its command line (which every
  local user can read in the process list) but a file only the player can read, which
  sends it on to the address (``opener``), as Jupyter does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import tempfile
from html import escape
from pathlib import Path

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from pbem.format.errors import UsageError
from pbem.ui.app import Settings, build
from pbem.ui.guard import Guard

HOST = "127.0.0.1"
READ_TIMEOUT = 10.0
"""Seconds for a request to arrive whole (its headers and its body)."""


def listen(port: int) -> socket.socket:
    """A socket on loopback only: ``port`` 0 lets the system choose a free one."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        why = f"cannot listen on {HOST}:{port} ({exc.strerror}); try another --port"
        raise UsageError(why) from None
    sock.listen(512)
    return sock


def address(sock: socket.socket, token: str) -> str:
    return f"http://{HOST}:{sock.getsockname()[1]}/?token={token}"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def opener(url: str) -> Path:
    """A page that sends the browser on to ``url``, in a new folder only this user may
    enter, readable by this user only (``discard`` removes both)."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-ui-"))  # mode 0700
    page = folder / "open.html"
    target = escape(url, quote=True)
    fd = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(
            '<!doctype html><meta charset="utf-8"/>'
            f'<meta http-equiv="refresh" content="0;url={target}"/>'
            f'<title>pbem ui</title><p><a href="{target}">Open pbem ui</a></p>\n'
        )
    return page


def discard(page: Path) -> None:
    """The opener's page and folder gone: once the browser has come in with the token
    (the page served its purpose), else when ``pbem ui`` stops."""
    page.unlink(missing_ok=True)
    with contextlib.suppress(FileNotFoundError):
        page.parent.rmdir()


class _TimedProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request to arrive whole:
    uvicorn times out only idle keep-alive connections, not a request left half-sent."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watch()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """A deadline while a request is being read (from the connection or its first
        byte to its whole body); none once it is whole: the app's time is not limited,
        and an idle keep-alive connection uvicorn closes itself."""
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._stop_watch()
        elif self._deadline is None:
            self._deadline = self.loop.call_later(READ_TIMEOUT, self._too_slow)

    def _stop_watch(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def configure(app: Guard) -> uvicorn.Config:
    """uvicorn as ``pbem ui`` runs it: no access log, the read deadline, nothing said
    about the server."""
    config = uvicorn.Config(
        app,
        http=_TimedProtocol,
        log_level="warning",
        access_log=False,
        lifespan="off",
        server_header=False,
        date_header=False,
    )
    for name in ("asyncio", "uvicorn", "uvicorn.error"):  # after uvicorn set its logging up
        logging.getLogger(name).addFilter(_one_line)
    return config


def _one_line(record: logging.LogRecord) -> bool:
    """What the server and the event loop log, without the traceback (which may quote a
    request): "socket.accept() out of system resource", "Invalid HTTP request"..."""
    record.exc_info, record.exc_text, record.stack_info = None, None, None
    return True


def serve(
    sock: socket.socket, token: str, home: Path | None, name: str, opened: Path | None = None
) -> None:
    """Answer on ``sock`` until interrupted; ``opened``: the opener's page, discarded when
    the token first comes in."""
    root = "/s/" + secrets.token_urlsafe(16)
    port = sock.getsockname()[1]
    let_in = (lambda: discard(opened)) if opened is not None else None
    settings = Settings(home=home, name=name, token=token, port=port, root=root, let_in=let_in)
    uvicorn.Server(configure(build(settings))).run(sockets=[sock])
