"""OAuth2 for IMAP and SMTP (XOAUTH2, OAUTHBEARER), the access token from a command.

pbem keeps no OAuth2 client of its own: the user names a command that prints a fresh
access token (``pbem config set smtp.oauth2_command 'mutt_oauth2.py ~/.token'``, or oama,
or email-oauth2-proxy's helper), the pattern of git's credential helpers. It runs without a
shell, its standard output stripped is the token. The token lives in this process's
memory only: never printed, logged nor written; an error names the setting, never the
token. When a server refuses a token (expired, revoked), the command is run once more and
the login tried once more with what it prints (``Tokens.fresh``).
"""

from __future__ import annotations

import shlex
import subprocess
from typing import Literal

from pbem.format.errors import UsageError
from pbem.format.i18n import N_
from pbem.mail.config import Server

#: A token command that does not answer in this many seconds failed (it may wait for a
#: browser login the first time: the user runs it by hand once).
COMMAND_TIMEOUT = 60

Kind = Literal["smtp", "imap"]


class TokenError(UsageError):
    """The token command failed: one line naming the setting, never what it printed."""

    code = "mail"


class Tokens:
    """The access tokens of this process, one per command, asked for when first needed."""

    def __init__(self) -> None:
        self._known: dict[str, str] = {}

    def get(self, server: Server, kind: Kind) -> str:
        """The token for ``server``: the one this process has, else a new one."""
        return self._known.get(server.oauth2_command) or self.fresh(server, kind)

    def fresh(self, server: Server, kind: Kind) -> str:
        """Run the command again (the server refused the token it printed before)."""
        self._known.pop(server.oauth2_command, None)
        token = run_command(server.oauth2_command, f"{kind}.oauth2_command")
        self._known[server.oauth2_command] = token
        return token


def run_command(command: str, key: str) -> str:
    """What ``command`` prints, stripped; a ``TokenError`` naming ``key`` if it fails."""
    if not command.strip():
        raise TokenError(
            N_("{key} is not set: pbem config set {key} 'COMMAND' (see pbem config --help)").format(
                key=key
            )
        )
    try:
        done = subprocess.run(
            shlex.split(command),
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise TokenError(
            N_("{key} did not answer within {seconds} s").format(key=key, seconds=COMMAND_TIMEOUT)
        ) from None
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or N_("cannot be run")
        raise TokenError(N_("{key} cannot be run: {why}").format(key=key, why=why)) from None
    if done.returncode:
        raise TokenError(
            N_("{key} failed (exit status {status}); run it by hand to see why").format(
                key=key, status=done.returncode
            )
        )
    token = done.stdout.decode(errors="replace").strip()
    if not token or any(c.isspace() or ord(c) < 32 for c in token):
        raise TokenError(
            N_("{key} printed no access token (one line, without spaces, expected)").format(key=key)
        )

    return token


#: The tokens of this process (one process is one home's command or robot).
TOKENS = Tokens()


def xoauth2(user: str, token: str) -> str:
    """Google's and Microsoft's XOAUTH2 initial response."""
    return f"user={user}\x01auth=Bearer {token}\x01\x01"


def oauthbearer(user: str, token: str) -> str:
    """RFC 7628's OAUTHBEARER initial response (the GS2 header names the user)."""
    name = user.replace("=", "=3D").replace(",", "=2C")
    return f"n,a={name},\x01auth=Bearer {token}\x01\x01"


def initial_response(server: Server, token: str) -> str:
    return (oauthbearer if server.auth == "oauthbearer" else xoauth2)(server.user, token)
