"""Provider presets: ``pbem config provider gmail`` fills in the servers, ports, encryption
and login method of a known mail provider, from ``providers.json`` beside this module (data,
so a new provider or a moved server is a line of JSON, not code), and says what the user
must do next: an app password at a named page, or an OAuth2 token command."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from pbem.format.errors import UsageError
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


def providers() -> dict[str, Provider]:
    """The presets, by the name ``pbem config provider`` takes."""
    text = resources.files("pbem.mail").joinpath("providers.json").read_text(encoding="utf-8")
    return {key: Provider(key, **entry) for key, entry in json.loads(text).items()}


def apply(config: MailConfig, key: str, user: str, oauth2: bool) -> Provider:
    """Fill ``config`` with the preset ``key`` (and ``user`` as the login of both servers,
    if given); ``oauth2``: the provider's OAuth2 mechanism instead of an app password."""
    known = providers()
    if key not in known:
        raise UsageError(f"unknown provider {key!r}; known: {', '.join(known)}")
    preset = known[key]
    if oauth2 and not preset.oauth2:
        raise UsageError(f"{preset.name} offers no OAuth2 pbem can use: use an app password")
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
        lines.append(f"app password: {preset.password_page}")
    if not config.smtp.user:
        lines.append("your login: pbem config set smtp.user ADDRESS and imap.user ADDRESS")
    if config.smtp.auth != "password":
        lines.append(
            "token command: pbem config set smtp.oauth2_command 'COMMAND' and "
            "imap.oauth2_command 'COMMAND' (README: Set up your mail)"
        )
    lines.append("then: pbem config test")
    return lines
