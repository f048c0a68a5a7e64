"""Mail settings: ``PBEM_HOME/mail.json``, edited with ``pbem config``.

Passwords are never in this file: they come from an environment variable (named in the
settings, ``PBEM_SMTP_PASSWORD`` / ``PBEM_IMAP_PASSWORD`` unless changed), the operating
system's keychain (``pbem config set smtp.password``: ``pbem.mail.secrets``) or a prompt;
OAuth2 tokens from the user's token command (``pbem.mail.oauth``). A password an older pbem
stored in clear here is moved to the keychain (``pbem config migrate-secrets``, or at the
next ``pbem config set``), and until then refused with that command.
"""

from __future__ import annotations

import os
import shlex
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pbem.crypto.keyring import default_home
from pbem.format.canonical import parse, pretty
from pbem.format.errors import Rejected, UsageError
from pbem.format.files import atomic_write
from pbem.format.i18n import N_, _
from pbem.format.limits import read_input
from pbem.mail import secrets

Security = Literal["starttls", "tls", "none"]
Auth = Literal["password", "xoauth2", "oauthbearer"]
LOOPBACK = {"localhost", "127.0.0.1", "::1"}


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    @field_validator("*", mode="after")
    @classmethod
    def _one_line(cls, value: Any) -> Any:
        """No line break nor other control character in a setting: a host, a user, an
        address or a mailbox with one would smuggle a second command into the SMTP or
        IMAP conversation (or a header into a mail)."""
        if isinstance(value, str) and any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise ValueError(N_("a setting is one line, without control characters"))
        return value


class Server(Settings):
    """One mail server: where, how encrypted, as whom."""

    host: str = ""
    port: int = Field(0, ge=0, le=65535, description="0: the usual port for the security")
    security: Security = "starttls"
    user: str = ""
    password_env: str = ""
    password: str = Field("", description="only in an old file: pbem config migrate-secrets")
    ca_file: str = Field("", description="trust this CA bundle (a private or test server)")
    timeout: int = Field(30, ge=1, le=600)
    auth: Auth = Field("password", description="password, or OAuth2: xoauth2 or oauthbearer")
    oauth2_command: str = Field(
        "",
        description="prints an OAuth2 access token (mutt_oauth2.py, oama); run without a shell",
    )

    @field_validator("oauth2_command", mode="after")
    @classmethod
    def _a_command(cls, value: str) -> str:
        """The command as it will be split at each login: refused now, not then."""
        return _command_line(value)


class Smtp(Server):
    sender: str = Field("", description="From: address; default: your identity's")
    cc: Literal["others", "none"] = "others"
    page: Literal["decisions", "always", "never"] = Field(
        "decisions", description="attach the board page: when a decision is asked, always, never"
    )


class Imap(Server):
    mailbox: str = "INBOX"
    interval: int = Field(300, ge=5, description="seconds between two looks (pbem watch)")
    idle_seconds: int = Field(
        540, ge=5, le=1740, description="renew IMAP IDLE this often (routers drop silent links)"
    )


class Ui(Settings):
    sign_and_send: bool = Field(
        True,
        description="pbem ui: one button signs the move and mails it (once smtp.host is set); "
        "false: sign and save, then a separate Send by mail",
    )


class MailConfig(Settings):
    smtp: Smtp = Field(default_factory=Smtp)
    imap: Imap = Field(default_factory=Imap)
    ui: Ui = Field(default_factory=Ui)
    notify: str = Field("", description="command run when your decision is awaited")
    lang: Literal["", "en", "ja", "zh-Hant", "zh-Hans"] = Field("", description="pbem's language")
    files: Literal["one", "numbered"] = Field(
        "one",
        description="one: a signing command writes over the game file it was given (when "
        "your store holds all of it); numbered: a new file each time (game.s0007.json)",
    )
    bot: dict[str, str] = Field(
        default_factory=dict, description="identity name -> the bot pbem watch plays it with"
    )

    @field_validator("notify", mode="after")
    @classmethod
    def _a_command(cls, value: str) -> str:
        """The command as ``pbem watch`` will split it: refused now, not at each run."""
        return _command_line(value)


def _command_line(value: str) -> str:
    try:
        shlex.split(value)
    except ValueError as exc:
        raise ValueError(N_("not a command line ({why})").format(why=exc)) from None
    return value


DEFAULT_PORTS = {
    "smtp": {"starttls": 587, "tls": 465, "none": 25},
    "imap": {"starttls": 143, "tls": 993, "none": 143},
}
PASSWORD_ENVS = {"smtp": "PBEM_SMTP_PASSWORD", "imap": "PBEM_IMAP_PASSWORD"}
#: The most ``mail.json`` may hold: a few settings and bot specs are a few KiB.
CONFIG_BYTES = 1024 * 1024


#: The settings outside a section.
TOP_LEVEL = {"notify", "lang", "files"}


def config_path(home: Path | None = None) -> Path:
    return (home if home is not None else default_home()) / "mail.json"


def load(home: Path | None = None) -> MailConfig:
    path = config_path(home)
    if not os.path.lexists(path):
        return MailConfig()
    data = read_input(path, limit=CONFIG_BYTES)  # a regular file, and a small one
    try:
        return MailConfig.model_validate(parse(data, what=str(path)))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UsageError(
            N_("{path}: {where}: {why}; fix it with pbem config").format(
                path=path, where=where, why=first["msg"]
            )
        ) from exc
    except Rejected as exc:
        raise UsageError(str(exc)) from exc


def save(config: MailConfig, home: Path | None = None) -> Path:
    path = config_path(home)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    atomic_write(path, pretty(config.model_dump()).encode(), mode=0o600)
    return path


def set_value(config: MailConfig, key: str, value: str) -> None:
    """``smtp.host``, ``imap.port``, ``notify``, ``bot.NAME`` …: one setting, checked
    like the file is (a bot spec also against the installed rulesets)."""
    section, _dot, name = key.partition(".")
    if key in TOP_LEVEL:
        try:
            setattr(config, key, value)
        except ValidationError as exc:
            raise UsageError(N_("{key}: {why}").format(key=key, why=_said(exc))) from exc
        return
    if section == "bot" and name:
        from pbem.mail.botseat import check_spec  # the rulesets only for this setting

        config.bot = {**config.bot, name: check_spec(value)}
        return
    target = getattr(config, section, None) if section in {"smtp", "imap", "ui"} else None
    if target is None or name not in type(target).model_fields:
        raise UsageError(N_("unknown setting {key!r} (see: pbem config show)").format(key=key))
    if name == "password" and value:
        raise UsageError(
            N_("{key} goes to the keychain, never to {file}").format(
                key=key, file=config_path().name
            )
        )
    if name == "ca_file" and value:
        _check_ca_file(value, key)
    try:
        setattr(target, name, value)
    except ValidationError as exc:
        raise UsageError(N_("{key}: {why}").format(key=key, why=_said(exc))) from exc


def _said(exc: ValidationError) -> str:
    return str(exc.errors()[0]["msg"]).removeprefix("Value error, ")


def _check_ca_file(value: str, key: str) -> None:
    """A CA bundle that exists and holds certificates, checked when it is set (at load it
    would stop every command the day the file moved)."""
    path = Path(value).expanduser()
    if not path.is_file():
        raise UsageError(N_("{key}: {value}: no such file").format(key=key, value=value))
    try:
        ssl.create_default_context(cafile=str(path))
    except (OSError, ssl.SSLError) as exc:
        raise UsageError(
            N_("{key}: {value}: not a CA bundle pbem can read ({why})").format(
                key=key, value=value, why=exc
            )
        ) from None


def unset_value(config: MailConfig, key: str) -> None:
    """Put ``key`` back to its default (a ``bot.NAME``: no bot for that identity; a
    password: none in the file nor in the keychain)."""
    section, _dot, name = key.partition(".")
    if section == "bot" and name:
        config.bot = {k: v for k, v in config.bot.items() if k != name}
        return
    default = MailConfig()
    top = key in TOP_LEVEL  # the settings outside a section
    model = default if top else getattr(default, section, None)
    field = key if top else name
    if model is None or field not in type(model).model_fields:
        raise UsageError(N_("unknown setting {key!r} (see: pbem config show)").format(key=key))
    if field == "password":  # out of the file, and out of the keychain
        server = getattr(config, section)
        secrets.delete(section, server.user, server.host)
    set_value(config, key, str(getattr(model, field)))


def asks_password(server: Server, kind: Literal["smtp", "imap"]) -> bool:
    """Whether ``password`` would have to ask: a password login with a user, and neither
    the environment variable nor the keychain holds one (the board page then shows a
    field for it)."""
    if not server.user or server.auth != "password":
        return False
    env = server.password_env or PASSWORD_ENVS[kind]
    return not os.environ.get(env) and not secrets.get(kind, server.user, server.host)


def port(server: Server, kind: Literal["smtp", "imap"]) -> int:
    return server.port or DEFAULT_PORTS[kind][server.security]


def require_host(server: Server, kind: str) -> None:
    if not server.host:
        raise UsageError(
            N_("no {kind} server configured: pbem config set {kind}.host HOST").format(kind=kind)
        )


def password(
    server: Server, kind: Literal["smtp", "imap"], ask: Callable[[str], str] | None
) -> str | None:
    """The password for ``server``: none without a user or with OAuth2; else the
    environment variable, the keychain, or ``ask`` (a prompt; None when no person is
    there to answer). One an older pbem stored in clear is refused until it is moved."""
    if not server.user or server.auth != "password":
        return None  # OAuth2: a token from the command at each login (pbem.mail.oauth)
    env = server.password_env or PASSWORD_ENVS[kind]
    if server.password:
        raise UsageError(
            N_("{kind}.password is stored in clear in {path}: {fix}").format(
                kind=kind, path=config_path(), fix=_fix(kind)
            )
        )
    if os.environ.get(env):
        return os.environ[env]
    stored = secrets.get(kind, server.user, server.host)
    if stored:
        return stored
    if ask is not None:
        return ask(
            _("{kind} password for {user}@{host}").format(
                kind=kind.upper(), user=server.user, host=server.host
            )
        )
    if secrets.backend():
        needed = N_(
            "the {kind} password for {user} is needed: set ${env} or store it: "
            "pbem config set {kind}.password"
        )
    else:
        needed = N_("the {kind} password for {user} is needed: set ${env}")
    raise UsageError(needed.format(kind=kind, user=server.user, env=env))


def _fix(kind: str) -> str:
    """The command that takes a clear password out of the settings file."""
    if secrets.backend() is not None:
        return N_("move it to the keychain with pbem config migrate-secrets")
    env = PASSWORD_ENVS[kind]
    return N_("no keychain here: pbem config unset {kind}.password, then set ${env}").format(
        kind=kind, env=env
    )


def can_store_password(config: MailConfig, kind: Literal["smtp", "imap"]) -> Server:
    """The server whose password is to be stored, or why none can be (before anyone is
    asked to type it): no account set yet, or no keychain."""
    server = config.smtp if kind == "smtp" else config.imap
    if not server.user or not server.host:
        raise UsageError(
            N_("set {kind}.host and {kind}.user first: the password is theirs").format(kind=kind)
        )
    if secrets.backend() is None:
        raise UsageError(
            N_(
                "no keychain pbem can use on this system: set ${env} or let pbem ask "
                "(a password is never stored in clear)"
            ).format(env=PASSWORD_ENVS[kind])
        )
    return server


def store_password(config: MailConfig, kind: Literal["smtp", "imap"], value: str) -> str:
    """``value`` into the keychain for ``kind``'s account; returns where it went."""
    server = can_store_password(config, kind)
    return secrets.put(kind, server.user, server.host, value)


def migrate_secrets(config: MailConfig) -> list[str]:
    """Move the passwords stored in clear into the keychain (the caller saves the file);
    the settings moved. Refused, file untouched, when there is no keychain."""
    moved = []
    for kind in ("smtp", "imap"):
        server = config.smtp if kind == "smtp" else config.imap
        if server.password:
            if secrets.backend() is None:
                raise UsageError(
                    N_("{kind}.password is stored in clear: {fix}").format(
                        kind=kind, fix=_fix(kind)
                    )
                )
            store_password(config, kind, server.password)
            server.password = ""
            moved.append(f"{kind}.password")
    return moved


def check_plaintext(server: Server, kind: str) -> None:
    """A password never crosses the network unencrypted, except to this machine."""
    if server.security == "none" and server.user and server.host not in LOOPBACK:
        raise UsageError(
            N_(
                "{kind}.security is 'none': will not send a password in clear to {host}; "
                "use starttls or tls"
            ).format(kind=kind, host=server.host)
        )
