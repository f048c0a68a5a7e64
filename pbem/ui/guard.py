"""The door of the board page: who may talk to ``pbem ui`` at all.

The app listens on 127.0.0.1 only, yet any web page the player opens could make the
browser send it requests, and any process of the machine could connect. So, as Jupyter
does, every request must carry the random token printed with the address: in the address
itself the first time (the answer puts it in a cookie and sends the browser on to the
address without it, so it stays out of the history and of any Referer), then in that
cookie (HttpOnly, SameSite=Strict, named after the port). Beyond that:

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
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs, urlencode

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


class Guard:
    """ASGI middleware in front of the app: refuses with 403 (and one line saying why)
    whatever does not pass the checks of the module doc."""

    def __init__(self, app: App, token: str, port: int) -> None:
        self.app, self.token, self.port = app, token, port
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{h}" for h in self.hosts}
        self.cookie = cookie_name(port)

    def _is_token(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value.encode(), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        send = _secured(send)
        if headers.get("host") not in self.hosts:
            return await _refuse(send, "pbem ui answers only to its own address (127.0.0.1)")
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if scope["method"] in ("GET", "HEAD"):
            if self._is_token((query.get("token") or [None])[0]):
                return await self._let_in(scope, send, query)
            if not self._is_token(_cookies(headers).get(self.cookie)):
                return await _refuse(send, "open the address pbem ui printed, with its token")
            return await self.app(scope, receive, send)
        if scope["method"] != "POST":
            return await _refuse(send, "only GET and POST are answered here")
        if headers.get("origin") not in self.origins:
            return await _refuse(send, "a change must come from the pbem ui page itself")
        if not self._is_token(_cookies(headers).get(self.cookie)):
            return await _refuse(send, "open the address pbem ui printed, with its token")
        body = await _body(receive)
        if body is None:
            return await _refuse(send, "the request is too large")
        sent = headers.get(TOKEN_HEADER)
        if sent is None and headers.get("content-type", "").startswith(FORM):
            sent = (parse_qs(body.decode("latin-1")).get("token") or [None])[0]
        if not self._is_token(sent):
            return await _refuse(send, "the request does not carry the page's token")
        return await self.app(scope, _replay(body), send)

    async def _let_in(self, scope: Scope, send: Send, query: dict[str, list[str]]) -> None:
        """The address with the token: set the cookie, go on to the same address without."""
        rest = {k: v for k, v in query.items() if k != "token"}
        target = scope["path"] + (f"?{urlencode(rest, doseq=True)}" if rest else "")
        cookie = f"{self.cookie}={self.token}; HttpOnly; SameSite=Strict; Path=/"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [(b"location", target.encode()), (b"set-cookie", cookie.encode())],
            }
        )
        await send({"type": "http.response.body", "body": b""})


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
        if message["type"] != "http.request":
            return b"".join(chunks)
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


def _secured(send: Send) -> Send:
    """Every answer with the headers of the module doc (and a default policy)."""

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            names = {k.lower() for k, _ in headers}
            headers += [(k, v) for k, v in HEADERS if k not in names]
            if b"content-security-policy" not in names:
                headers.append((b"content-security-policy", DEFAULT_POLICY.encode()))
            message = {**message, "headers": headers}
        await send(message)

    return wrapped


async def _refuse(send: Send, why: str) -> None:
    body = f"pbem ui: refused: {why}\n".encode()
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
