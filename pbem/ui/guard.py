"""The door of the board page: who may talk to ``pbem ui`` at all.

The app listens on 127.0.0.1 only, yet any web page the player opens could make the
browser send it requests, any process of the machine could connect, and any other server
on 127.0.0.1 receives the cookies the browser holds for 127.0.0.1 (cookies are not scoped
by port). So, as Jupyter does, the first request must carry the random token printed with
the address (``/?token=...``); the answer sets a cookie and refreshes to the pages, which
live under a random root of this run only (``/s/ROOT/``). The cookie is:

- scoped to that root (``Path=/s/ROOT/``), so the browser sends it to no other address
  of 127.0.0.1, on whatever port: a neighbour server never sees it;
- not the token but an HMAC of the port and the root under the token, so that even a
  leaked cookie opens no other run and cannot be turned into the printed address;
- HttpOnly and SameSite=Strict.

The refresh goes to this very origin's root, never to a place the request names (no
``//evil.example`` open redirect). Beyond that:

- the Host header must name this very address, so that a foreign site whose name resolves
  to 127.0.0.1 (DNS rebinding) is refused;
- a request that changes anything (POST) must come from this origin (the Origin header,
  which browsers send with every POST) and carry the token again where only the page can
  put it: an ``X-Pbem-Token`` header (a cross-site page can neither read the token nor send
  that header without a CORS preflight, which nothing here answers) or, for the page's one
  form, a ``token`` field;
- every answer forbids framing, sniffing, caching and referrers to other sites (a
  stricter ``no-referrer`` would make the browser send ``Origin: null`` with the page's
  own form), and carries a Content-Security-Policy (``default-src 'none'`` unless the page
  sets a stricter one of its own), so the page loads nothing from anywhere.

Nothing here logs a request: the token, and the passphrases in request bodies, go nowhere.
Whatever fails behind the door is answered with a bare 500 and one fixed line on stderr,
never a traceback (which would quote the request).
"""

from __future__ import annotations

import hashlib
import hmac
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 1 << 20
TOKEN_HEADER = "x-pbem-token"
FORM = "application/x-www-form-urlencoded"
DEFAULT_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def cookie_name(port: int) -> str:
    return f"pbem-ui-{port}"


def cookie_value(token: str, port: int, root: str) -> str:
    """The cookie of this run: useless to anyone but this port and root."""
    message = f"pbem-ui-cookie|{port}|{root}".encode()
    return hmac.new(token.encode(), message, hashlib.sha256).hexdigest()


INTERNAL_ERROR = "pbem ui: internal error (the request is not logged)"


class Guard:
    """ASGI middleware in front of the app: refuses with 403 (and one line saying why)
    whatever does not pass the checks of the module doc."""

    def __init__(
        self,
        app: App,
        token: str,
        port: int,
        root: str,
        let_in: Callable[[], None] | None = None,
    ) -> None:
        self.app, self.token, self.port, self.root = app, token, port, root
        self.on_let_in = let_in
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{h}" for h in self.hosts}
        self.cookie = cookie_name(port)
        self.cookie_value = cookie_value(token, port, root)

    def _is_token(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value.encode(), self.token.encode())

    def _has_cookie(self, headers: dict[str, str]) -> bool:
        value = _cookies(headers).get(self.cookie)
        return value is not None and hmac.compare_digest(value.encode(), self.cookie_value.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        secured = _Secured(send)
        try:
            await self._door(scope, receive, secured.send)
        except Exception:  # anything at all: one fixed line, nothing of the request
            print(INTERNAL_ERROR, file=sys.stderr, flush=True)
            if not secured.started:
                await _answer(secured.send, 500, "pbem ui: internal error\n")

    async def _door(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host")
        if host not in self.hosts:
            return await _refuse(send, "pbem ui answers only to its own address (127.0.0.1)")
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if scope["method"] in ("GET", "HEAD") and self._is_token((query.get("token") or [None])[0]):
            return await self._let_in(send, host)
        path = scope["path"]
        if not path.startswith(self.root + "/") or not self._has_cookie(headers):
            return await _refuse(send, "open the address pbem ui printed, with its token")
        inner = {k: v for k, v in scope.items() if k != "raw_path"}
        inner["path"] = path[len(self.root) :]
        if scope["method"] in ("GET", "HEAD"):
            return await self.app(inner, receive, send)
        if scope["method"] != "POST":
            return await _refuse(send, "only GET and POST are answered here")
        if headers.get("origin") not in self.origins:
            return await _refuse(send, "a change must come from the pbem ui page itself")
        body = await _body(receive)
        if body is None:
            return await _refuse(send, "the request is too large or did not arrive whole")
        sent = headers.get(TOKEN_HEADER)
        if sent is None and headers.get("content-type", "").startswith(FORM):
            sent = (parse_qs(body.decode("latin-1")).get("token") or [None])[0]
        if not self._is_token(sent):
            return await _refuse(send, "the request does not carry the page's token")
        return await self.app(inner, _replay(body), send)

    async def _let_in(self, send: Send, host: str) -> None:
        """The address with the token: set the cookie, go on to the games of this origin
        (whatever path the request named: it chooses no destination). Not by a
        redirection but by a page of this origin that refreshes to the games: when the
        address was opened from elsewhere (the private file ``pbem ui`` opens the browser
        with), a redirection would still come from there, and the browser would not send
        a SameSite=Strict cookie with it."""
        if self.on_let_in is not None:
            self.on_let_in()
        home = f"http://{host}{self.root}/"
        cookie = f"{self.cookie}={self.cookie_value}; HttpOnly; SameSite=Strict; Path={self.root}/"
        body = f'<!doctype html><title>pbem ui</title><p><a href="{home}">Your games</a></p>\n'
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/html; charset=utf-8"),
                    (b"refresh", f"0;url={home}".encode()),
                    (b"set-cookie", cookie.encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body.encode()})


def _cookies(headers: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in headers.get("cookie", "").split(";"):
        name, sep, value = part.strip().partition("=")
        if sep:
            out.setdefault(name, value)
    return out


async def _body(receive: Receive) -> bytes | None:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # gone before the body was whole
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    """A ``receive`` that gives the app the body read here, then a disconnect."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


class _Secured:
    """Every answer with the headers of the module doc (and a default policy); remembers
    whether an answer was started (after which a failure can only close it)."""

    def __init__(self, send: Send) -> None:
        self.inner = send
        self.started = False

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            names = {k.lower() for k, _ in headers}
            headers += [(k, v) for k, v in HEADERS if k not in names]
            if b"content-security-policy" not in names:
                headers.append((b"content-security-policy", DEFAULT_POLICY.encode()))
            message = {**message, "headers": headers}
            self.started = True
        await self.inner(message)


async def _refuse(send: Send, why: str) -> None:
    await _answer(send, 403, f"pbem ui: refused: {why}\n")


async def _answer(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
