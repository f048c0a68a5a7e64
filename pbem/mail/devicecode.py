"""pbem's own OAuth2 token command, for a provider that lets a public client sign in with
the device-code flow (RFC 8628) and needs no client secret: Microsoft (Outlook.com,
Microsoft 365). Through Microsoft's ``msal`` library, an optional dependency
(``pip install 'pbem[microsoft]'``).

``python -m pbem.mail.devicecode signin outlook --user ADDRESS --client-id ID`` signs in
once: it prints where to go and which code to type (on any device with a browser), waits
for the sign-in, and keeps the refresh token in the operating system's keychain
(``pbem.mail.secrets``: never in a file, so refused where there is no keychain). It then
names ``python -m pbem.mail.devicecode token ...`` as both servers' ``oauth2_command``;
that command trades the refresh token for a fresh access token at each run (keeping the
new refresh token the provider may hand out), like any other token command
(``pbem.mail.oauth``). A helper beside the command line, not a ``pbem`` command: it is one
token command among others.
"""

from __future__ import annotations

import functools
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem.format.errors import UsageError
from pbem.mail import secrets
from pbem.mail.config import MailConfig


@dataclass(frozen=True)
class Client:
    """Who signs in where: the application (client) id the user registered or was given,
    the authority, the scopes; ``oidc``: the authority is a plain OpenID provider (one
    of the user's own, or the tests'), not Microsoft Entra; ``ca_file``: its private CA."""

    client_id: str
    authority: str
    scopes: tuple[str, ...]
    oidc: bool = False
    ca_file: str = ""


def _app(client: Client) -> Any:
    try:
        import msal
    except ImportError:
        raise UsageError(
            "the sign-in needs Microsoft's msal library: pip install 'pbem[microsoft]' "
            "(or use a token command of your own: pbem config set smtp.oauth2_command)"
        ) from None
    where: dict[str, Any] = (
        {"oidc_authority": client.authority} if client.oidc else {"authority": client.authority}
    )
    if client.ca_file:  # explicit on each request: requests lets REQUESTS_CA_BUNDLE win
        import requests

        session = requests.Session()
        session.request = functools.partial(  # type: ignore[method-assign]
            session.request, verify=client.ca_file, timeout=60
        )
        where["http_client"] = session
    return msal.PublicClientApplication(client.client_id, timeout=60, **where)


def sign_in(client: Client, user: str, tell: Callable[[str], None]) -> None:
    """The device-code flow: ``tell`` says where to sign in with which code; the refresh
    token goes to the keychain. A ``UsageError`` when the provider refuses."""
    if secrets.backend() is None:
        raise UsageError(
            "no keychain pbem can use on this system to keep the refresh token in: use a "
            "token command of your own (pbem config set smtp.oauth2_command)"
        )
    app = _app(client)
    flow = app.initiate_device_flow(scopes=list(client.scopes))
    if "user_code" not in flow:
        raise UsageError(f"the sign-in could not start: {_said(flow)}")
    tell(" ".join(str(flow.get("message", "")).split()))
    result = app.acquire_token_by_device_flow(flow)
    secrets.put("oauth2", user, client.authority, _refresh_token(result))


def access_token(client: Client, user: str) -> str:
    """A fresh access token for ``user`` from the refresh token in the keychain."""
    refresh = secrets.get("oauth2", user, client.authority)
    if not refresh:
        raise UsageError(f"no sign-in kept for {user}: pbem config oauth2 ... --user {user}")
    result = _app(client).acquire_token_by_refresh_token(refresh, scopes=list(client.scopes))
    token = result.get("access_token") if isinstance(result, dict) else None
    if not token:
        raise UsageError(f"the provider refused the kept sign-in ({_said(result)}): sign in again")
    newer = result.get("refresh_token")
    if newer and newer != refresh:
        secrets.put("oauth2", user, client.authority, newer)
    return str(token)


def _refresh_token(result: Any) -> str:
    token = result.get("refresh_token") if isinstance(result, dict) else None
    if not token:
        raise UsageError(f"the sign-in did not complete: {_said(result)}")
    return str(token)


def _said(result: Any) -> str:
    """The provider's error, in one line, without any token."""
    if not isinstance(result, dict):
        return "no answer"
    text = result.get("error_description") or result.get("error") or "no token in the answer"
    return " ".join(str(text).split())[:300]


def client_for(
    provider: str, client_id: str, oidc_authority: str = "", ca_file: str = ""
) -> Client:
    """The device-code client of ``provider``'s preset (or of the OpenID provider named)."""
    from pbem.mail.providers import providers

    preset = providers().get(provider)
    if preset is None or not preset.device_flow:
        with_flow = [k for k, p in providers().items() if p.device_flow]
        raise UsageError(
            f"pbem signs in itself only with {', '.join(with_flow)}; for {provider}: a token "
            "command of your own (pbem config set smtp.oauth2_command 'COMMAND')"
        )
    flow = preset.device_flow
    authority = oidc_authority or flow["authority"]
    return Client(client_id, authority, tuple(flow["scopes"]), bool(oidc_authority), ca_file)


def configure(config: MailConfig, provider: str, user: str, argv: list[str]) -> None:
    """Both servers of ``config`` log in as ``user`` with OAuth2, the token from ``argv``
    (this module's ``token``); the provider's servers too, if none is set yet."""
    from pbem.mail import providers

    preset = providers.providers()[provider]
    if not config.smtp.host:
        providers.apply(config, provider, user, oauth2=True)
    for server in (config.smtp, config.imap):
        server.user, server.auth = user, preset.oauth2  # type: ignore[assignment]
        server.oauth2_command = shlex.join(argv)


def main(argv: list[str] | None = None) -> int:
    """``python -m pbem.mail.devicecode signin|token PROVIDER --user ADDRESS --client-id ID``:
    ``signin`` once (says where to sign in, keeps the refresh token, sets both servers to
    OAuth2 with ``token`` as their command); ``token`` prints a fresh access token, for
    pbem to read (never to a terminal). Errors: one line on stderr, exit 2."""
    import argparse
    import sys

    from pbem.mail import config as mail_config

    parser = argparse.ArgumentParser(prog="python -m pbem.mail.devicecode")
    parser.add_argument("action", choices=["signin", "token"])
    parser.add_argument("provider")
    parser.add_argument("--user", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--oidc-authority", default="")
    parser.add_argument("--ca-file", default="")
    args = parser.parse_args(argv)
    try:
        client = client_for(args.provider, args.client_id, args.oidc_authority, args.ca_file)
        if args.action == "token":
            if sys.stdout.isatty():
                raise UsageError("this prints an access token for pbem to read, not for a terminal")
            print(access_token(client, args.user))
            return 0
        sign_in(client, args.user, lambda line: print(line, file=sys.stderr))
        command = [sys.executable, "-m", "pbem.mail.devicecode", "token", args.provider]
        command += ["--user", args.user, "--client-id", args.client_id]
        if args.oidc_authority:
            command += ["--oidc-authority", args.oidc_authority]
        if args.ca_file:
            command += ["--ca-file", args.ca_file]
        settings = mail_config.load()
        configure(settings, args.provider, args.user, command)
        path = mail_config.save(settings)
        print(f"signed in as {args.user}; smtp and imap log in with OAuth2 (in {path})")
        return 0
    except UsageError as exc:
        print(f"pbem: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("pbem: error: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # the provider cannot be reached
        print(f"pbem: error: the sign-in server cannot be reached ({exc})", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
