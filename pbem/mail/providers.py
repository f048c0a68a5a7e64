"""Provider presets: ``pbem config provider gmail`` fills in the servers, ports, encryption
and login method of a known mail provider, from ``providers.json`` beside this module (data,
so a new provider or a moved server is a line of JSON, not code), and says what the user
must do next: an app password at a named page, or an OAuth2 token command.

That advice is here, not in the JSON, so that ``pybabel extract`` finds it like every other
message: it is made in English (``--json``'s ``next``) and shown in the reader's language."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from pbem.format.errors import UsageError
from pbem.format.i18n import N_
from pbem.mail.config import MailConfig


@dataclass(frozen=True)
class Provider:
    key: str
    name: str
    smtp: dict[str, Any]
    imap: dict[str, Any]
    auth: str
    oauth2: str
    password_page: str
    next: str
    device_flow: dict[str, Any] = field(default_factory=dict)
    """Where pbem's own sign-in goes (``pbem.mail.devicecode``): authority and scopes."""


#: What to do after ``pbem config provider NAME``, by provider (every key of the JSON).
ADVICE = {
    "gmail": N_(
        "Google took password logins away in 2022: turn on 2-Step Verification, then make an "
        "app password at the page named below and give it to pbem (PBEM_SMTP_PASSWORD / "
        "PBEM_IMAP_PASSWORD, the keychain, or the prompt); or use OAuth2 (--oauth2) with a "
        "token command such as mutt_oauth2.py or oama."
    ),
    "outlook": N_(
        "Microsoft accepts only OAuth2 for IMAP and SMTP since September 2024: sign in with "
        "python -m pbem.mail.devicecode signin outlook --user ADDRESS --client-id ID (pip "
        "install 'pbem[microsoft]'), or set a token command of your own (mutt_oauth2.py, "
        "oama): pbem config set smtp.oauth2_command 'COMMAND' and the same for "
        "imap.oauth2_command. Microsoft 365 work accounts: set smtp.host to "
        "smtp.office365.com."
    ),
    "fastmail": N_(
        "Make an app password with IMAP and SMTP access at the page named below and give it "
        "to pbem (the keychain, the environment, or the prompt)."
    ),
    "icloud": N_(
        "Turn on two-factor authentication, then make an app-specific password (Sign-In and "
        "Security, App-Specific Passwords) at the page named below. The IMAP user is your "
        "address without @icloud.com; the SMTP user is the whole address."
    ),
    "yahoo": N_(
        "Make an app password (Generate app password) at the page named below and give it to pbem."
    ),
    "gmx": N_(
        "Allow POP3/IMAP access in the GMX web mail's settings (E-Mail, POP3/IMAP), then use "
        "your GMX password. gmx.com accounts: set smtp.host mail.gmx.com and imap.host "
        "imap.gmx.com."
    ),
    "qq": N_(
        "Turn on the IMAP/SMTP service in QQ Mail's settings (Account), which gives an "
        "authorization code (授权码): that code is the password for pbem, not your QQ password."
    ),
    "163": N_(
        "Turn on IMAP/SMTP in 163 Mail's settings (POP3/SMTP/IMAP), which gives an "
        "authorization code (授权码): that code is the password for pbem, not your 163 password."
    ),
}


def providers() -> dict[str, Provider]:
    """The presets, by the name ``pbem config provider`` takes."""
    text = resources.files("pbem.mail").joinpath("providers.json").read_text(encoding="utf-8")
    return {
        key: Provider(key, next=ADVICE[key], **entry) for key, entry in json.loads(text).items()
    }


def apply(config: MailConfig, key: str, user: str, oauth2: bool) -> Provider:
    """Fill ``config`` with the preset ``key`` (and ``user`` as the login of both servers,
    if given); ``oauth2``: the provider's OAuth2 mechanism instead of an app password."""
    known = providers()
    if key not in known:
        raise UsageError(
            N_("unknown provider {key!r}; known: {known}").format(key=key, known=", ".join(known))
        )
    preset = known[key]
    if oauth2 and not preset.oauth2:
        raise UsageError(
            N_("{provider} offers no OAuth2 pbem can use: use an app password").format(
                provider=preset.name
            )
        )
    auth = preset.oauth2 if oauth2 else preset.auth
    for section, settings in (("smtp", preset.smtp), ("imap", preset.imap)):
        server = getattr(config, section)
        update = {**settings, "auth": auth, "password": ""}
        if user:
            update["user"] = user
        setattr(config, section, server.model_validate({**server.model_dump(), **update}))
    return preset


def next_steps(preset: Provider, config: MailConfig) -> list[str]:
    """What the user must do now, one line each."""
    lines = [preset.next]
    if preset.password_page and config.smtp.auth == "password":
        lines.append(N_("app password: {page}").format(page=preset.password_page))
    if not config.smtp.user:
        lines.append(N_("your login: pbem config set smtp.user ADDRESS and imap.user ADDRESS"))
    if config.smtp.auth != "password":
        lines.append(
            N_(
                "token command: pbem config set smtp.oauth2_command 'COMMAND' and "
                "imap.oauth2_command 'COMMAND' (README: Set up your mail)"
            )
        )
    lines.append(N_("then: pbem config test"))
    return lines
