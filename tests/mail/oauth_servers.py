"""An OAuth2 authorization server for the tests, as small as the protocol allows: it hands
out access tokens (``GET /token?user=U``: what a token command's refresh does), answers
RFC 7662 token introspection (``POST /introspect``, Dovecot's oauth2 passdb asks it), and
revokes tokens on demand (a token that expires mid-session). aiosmtpd checks the same
tokens in XOAUTH2 and OAUTHBEARER logins (``OAuthLogins``), so both servers agree.
"""

from __future__ import annotations

import base64
import json
import secrets
import ssl
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.smtp import AuthResult

from tests.mail.servers import HOST


@dataclass
class Authority:
    """The tokens given out (token -> user), and how often each user asked for one."""

    url: str = ""
    tokens: dict[str, str] = field(default_factory=dict)
    issued: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    lifetime: int = 0
    """A token expires after this many logins (0: when revoked): a session outlives it."""
    uses: dict[str, int] = field(default_factory=dict)
    expired: int = 0

    def issue(self, user: str) -> str:
        token = "tok-" + secrets.token_urlsafe(24)
        with self.lock:
            self.tokens[token] = user
            self.issued[user] = self.issued.get(user, 0) + 1
        return token

    def revoke_all(self) -> None:
        """Every token given out so far expires now."""
        with self.lock:
            self.tokens.clear()

    def user_of(self, token: str) -> str | None:
        """Whom ``token`` was given to, while it is valid (each call is one login)."""
        with self.lock:
            self.uses[token] = self.uses.get(token, 0) + 1
            if self.lifetime and self.uses[token] > self.lifetime and token in self.tokens:
                del self.tokens[token]
                self.expired += 1
            return self.tokens.get(token)

    def command(self, user: str) -> list[str]:
        """A token command for ``user``: prints a new access token from this authority."""
        code = (
            "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())"
        )
        query = urllib.parse.urlencode({"user": user})
        return [sys.executable, "-c", code, f"{self.url}/token?{query}"]


def _handler(authority: Authority) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
            self._answer("text/plain", authority.issue(query["user"][0]).encode())

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
            token = urllib.parse.parse_qs(body).get("token", [""])[0]
            user = authority.user_of(token)
            found = {"active": True, "username": user} if user else {"active": False}
            self._answer("application/json", json.dumps(found).encode())

        def _answer(self, kind: str, data: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


class SignIn:
    """An OpenID provider's device-code sign-in (RFC 8628) over HTTPS, for pbem's own token
    command (``pbem config oauth2``): discovery, a device code that the user (``approve``)
    has approved by the first poll, and refresh tokens traded for access tokens from
    ``authority``, each refresh token used once and replaced (rotation)."""

    def __init__(self, found: Authority, certs: Any) -> None:
        self.authority = found
        self.refresh: dict[str, str] = {}
        self.approve = ""
        self.trades = 0
        self.server = ThreadingHTTPServer((HOST, 0), _sign_in_handler(self))
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(certs.cert, certs.key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://{HOST}:{self.server.server_address[1]}/tenant"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def tokens_for(self, user: str) -> dict[str, Any]:
        refresh = "rt-" + secrets.token_urlsafe(24)
        self.refresh[refresh] = user
        access = self.authority.issue(user)
        return {
            "access_token": access,
            "refresh_token": refresh,
            "token_type": "Bearer",
            "expires_in": 3600,
        }

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _sign_in_handler(sign_in: SignIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            base = sign_in.url
            self._json(
                200,
                {
                    "issuer": base,
                    "authorization_endpoint": f"{base}/authorize",
                    "token_endpoint": f"{base}/token",
                    "device_authorization_endpoint": f"{base}/devicecode",
                },
            )

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
            form = {k: v[0] for k, v in urllib.parse.parse_qs(body).items()}
            if self.path.endswith("/devicecode"):
                self._json(
                    200,
                    {
                        "device_code": "dc-1",
                        "user_code": "PBEM-TEST",
                        "verification_uri": f"{sign_in.url}/device",
                        "expires_in": 600,
                        "interval": 1,
                        "message": f"To sign in, open {sign_in.url}/device and enter PBEM-TEST",
                    },
                )
            elif form.get("grant_type", "").endswith("device_code") and sign_in.approve:
                self._json(200, sign_in.tokens_for(sign_in.approve))
            elif form.get("grant_type") == "refresh_token":
                user = sign_in.refresh.pop(form.get("refresh_token", ""), None)
                if user is None:
                    self._json(400, {"error": "invalid_grant"})
                else:
                    sign_in.trades += 1
                    self._json(200, sign_in.tokens_for(user))
            else:
                self._json(400, {"error": "authorization_pending"})

        def _json(self, status: int, found: dict[str, Any]) -> None:
            data = json.dumps(found).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def authority() -> Iterator[Authority]:
    found = Authority()
    server = ThreadingHTTPServer((HOST, 0), _handler(found))
    found.url = f"http://{HOST}:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield found
    finally:
        server.shutdown()
        server.server_close()


ERROR = json.dumps({"status": "401", "schemes": "bearer", "scope": "mail"})


class OAuthLogins:
    """The AUTH mechanisms XOAUTH2 and OAUTHBEARER for aiosmtpd (a handler's ``auth_*``
    methods): the token must be one ``authority`` gave to the user who logs in. A refused
    token gets the JSON error challenge of RFC 7628, then 535, as Gmail does."""

    authority: Authority
    logins: int = 0
    refused: int = 0

    async def auth_XOAUTH2(self, server: Any, args: list[str]) -> AuthResult:
        return await self._check(server, args, b"user=", b"auth=Bearer ")

    async def auth_OAUTHBEARER(self, server: Any, args: list[str]) -> AuthResult:
        return await self._check(server, args, b"n,a=", b"auth=Bearer ")

    async def _check(self, server: Any, args: list[str], who: bytes, how: bytes) -> AuthResult:
        if len(args) != 2:
            await server.push("501 5.5.2 an initial response is expected")
            return AuthResult(success=False, handled=True)
        fields = base64.b64decode(args[1]).split(b"\x01")
        user = next((f[len(who) :] for f in fields if f.startswith(who)), b"").rstrip(b",")
        token = next((f[len(how) :] for f in fields if f.startswith(how)), b"")
        if self.authority.user_of(token.decode()) == user.decode().replace("=2C", ","):
            self.logins += 1
            return AuthResult(success=True, auth_data=user.decode())
        self.refused += 1
        await server.challenge_auth(ERROR)
        return AuthResult(success=False, handled=False)
