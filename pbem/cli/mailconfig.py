"""``pbem config``: the mail settings (SMTP, IMAP, the notify command, bots), a provider's
presets (``pbem config provider``), a check that logs in to both servers (``pbem config
test``), and the passwords in the operating system's keychain.

Thin, like every command: the settings are ``pbem.mail.config``'s, the presets
``pbem.mail.providers``', the check ``pbem.mail.check``'s."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import click
from click.shell_completion import CompletionItem

from pbem.cli.common import (
    complete_own_identity,
    emit,
    emit_refused,
    json_option,
    reports_errors,
)
from pbem.cli.mail import ask_password
from pbem.format.errors import UsageError
from pbem.format.i18n import N_, _, localize

if TYPE_CHECKING:
    from pbem.mail.check import Outcome

#: ``pbem config show``'s word for a password an older pbem stored in clear (the JSON keeps
#: it in English; the line shows it in the reader's language).
CLEAR = N_("(in clear: pbem config migrate-secrets)")


def complete_setting(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The settings ``pbem config set`` knows: ``smtp.*``, ``imap.*``, ``ui.*``, ``notify``,
    ``lang``, ``files``, and ``bot.NAME`` for each identity of the keyring."""
    from pbem.mail import config as mail_config

    servers = (("smtp", mail_config.Smtp), ("imap", mail_config.Imap), ("ui", mail_config.Ui))
    names = [
        *(f"{kind}.{field}" for kind, model in servers for field in model.model_fields),
        *sorted(mail_config.TOP_LEVEL),
        *(f"bot.{item.value}" for item in complete_own_identity(ctx, param, "")),
    ]
    return [CompletionItem(n) for n in names if n.startswith(incomplete)]


def _notify_epilog() -> str:
    from pbem.mail.robot import NOTIFY_VARIABLES

    rows = "\n".join(f"  {name:<15} {what}" for name, what in NOTIFY_VARIABLES.items())
    return (
        "The notify command (pbem config set notify 'COMMAND ARGS') is run by pbem watch "
        "once per new position that awaits a decision of yours, without a shell, with "
        "these variables in its environment:\n\n\b\n" + rows + "\n\n\b\nFor example:\n"
        "  pbem config set notify 'notify-send pbem \"your move\"'\n"
        "  pbem config set notify 'sh -c \"echo $PBEM_SHORT_ID >> ~/moves.txt\"'"
    )


class _Config(click.Group):
    """``pbem config``, whose help ends with the notify command's variables, read from the
    robot only when the help is shown."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.epilog = _notify_epilog()
        super().format_epilog(ctx, formatter)


@click.group(cls=_Config)
def config() -> None:
    """Mail settings (SMTP to send, IMAP for pbem watch, the notify command, whether the
    board page signs and sends in one step): a provider's presets, a login test, passwords
    in the OS keychain."""


@config.command("show")
@json_option
@reports_errors
def config_show(as_json: bool) -> None:
    """Print the settings (no password is in them: they are in the keychain, the
    environment, or asked for)."""
    from pbem.mail import config as mail_config

    data = mail_config.load().model_dump()
    for section in ("smtp", "imap"):
        if data[section]["password"]:
            data[section]["password"] = CLEAR
    lines = [f"# {mail_config.config_path()}"]
    for section in ("smtp", "imap"):
        lines += [f"{section}.{k} = {_(v) if v == CLEAR else v}" for k, v in data[section].items()]
    lines += [f"ui.{k} = {str(v).lower()}" for k, v in data["ui"].items()]
    lines.append(f"notify = {data['notify']}")
    lines.append(f"files = {data['files']}")
    lines += [f"bot.{name} = {spec}" for name, spec in data["bot"].items()]
    emit(as_json, data, lines)


@config.command("set")
@click.argument("key", shell_complete=complete_setting)
@click.argument("value", required=False)
@json_option
@reports_errors
def config_set(key: str, value: str | None, as_json: bool) -> None:
    """Set KEY (smtp.host, smtp.port, smtp.security, smtp.user, smtp.auth, smtp.ca_file,
    imap.mailbox, imap.oauth2_command, notify, ...; every key: pbem config show; bot.NAME:
    the bot pbem watch --as NAME plays that identity's seats with, e.g. greedy; files
    numbered: a new game file for each version instead of one working file).
    smtp.password and imap.password go to the operating system's keychain, never to the
    file: leave VALUE out to be asked for it. A password an older pbem stored in clear is
    moved to the keychain first."""
    from pbem.mail import config as mail_config
    from pbem.mail import secrets

    settings = mail_config.load()
    notes = []
    if secrets.backend() is not None:
        notes = [
            N_("{key} moved to the keychain").format(key=moved)
            for moved in mail_config.migrate_secrets(settings)
        ]
    if key in {"smtp.password", "imap.password"}:
        kind: Literal["smtp", "imap"] = "smtp" if key == "smtp.password" else "imap"
        mail_config.can_store_password(settings, kind)  # before asking for it
        if value is None:
            ask = ask_password()
            if ask is None:
                raise UsageError(
                    N_("pbem config set {key} (at a terminal: pbem asks for it)").format(key=key)
                )
            value = ask(key)
        where = mail_config.store_password(settings, kind, value)
        path = mail_config.save(settings)
        line = _("{key} stored in the keychain ({where})").format(key=key, where=where)
        emit(as_json, {"key": key, "keychain": where, "notes": notes}, [*notes, line])
        return
    if value is None:
        raise UsageError(f"pbem config set {key} VALUE")
    mail_config.set_value(settings, key, value)
    path = mail_config.save(settings)
    report = {"key": key, "value": value, "file": str(path), "notes": notes}
    emit(
        as_json,
        report,
        [*notes, _("{key} = {value}   (in {path})").format(key=key, value=value, path=path)],
    )


@config.command("migrate-secrets")
@json_option
@reports_errors
def config_migrate_secrets(as_json: bool) -> None:
    """Move the passwords an older pbem stored in clear in the settings file into the
    operating system's keychain (refused, file untouched, where there is none)."""
    from pbem.mail import config as mail_config

    settings = mail_config.load()
    moved = mail_config.migrate_secrets(settings)
    if moved:
        mail_config.save(settings)
    lines = [_("{key} moved to the keychain").format(key=key) for key in moved]
    lines = lines or [_("no password in clear")]
    emit(as_json, {"moved": moved}, lines)


@config.command("unset")
@click.argument("key", shell_complete=complete_setting)
@json_option
@reports_errors
def config_unset(key: str, as_json: bool) -> None:
    """Put KEY back to its default."""
    from pbem.mail import config as mail_config

    settings = mail_config.load()
    mail_config.unset_value(settings, key)
    path = mail_config.save(settings)
    said = _("{key} is back to its default").format(key=key)
    emit(as_json, {"key": key, "default": True, "file": str(path)}, [said])


def _provider_names() -> list[str]:
    from pbem.mail.providers import providers

    return list(providers())


@config.command("provider")
@click.argument(
    "name",
    shell_complete=lambda ctx, param, incomplete: [
        CompletionItem(n) for n in _provider_names() if n.startswith(incomplete)
    ],
)
@click.option("--user", metavar="ADDRESS", default="", help="Your address: the login of both.")
@click.option("--oauth2", is_flag=True, help="Log in with OAuth2 where the provider allows it.")
@json_option
@reports_errors
def config_provider(name: str, user: str, oauth2: bool, as_json: bool) -> None:
    """Fill in the servers of a known provider (gmail, outlook, fastmail, icloud, yahoo,
    gmx, qq, 163): hosts, ports, encryption, login method; then say what to do next (an
    app password to make, or an OAuth2 token command to set)."""
    from pbem.mail import config as mail_config
    from pbem.mail import providers

    settings = mail_config.load()
    preset = providers.apply(settings, name, user, oauth2)
    path = mail_config.save(settings)
    steps = providers.next_steps(preset, settings)
    s, i = settings.smtp, settings.imap
    said = _(
        "{provider}: smtp {smtp_host}:{smtp_port} {smtp_security}, imap {imap_host}:{imap_port} "
        "{imap_security}, login by {auth}   (in {path})"
    )
    lines = [
        said.format(
            provider=preset.name,
            smtp_host=s.host,
            smtp_port=s.port,
            smtp_security=s.security,
            imap_host=i.host,
            imap_port=i.port,
            imap_security=i.security,
            auth=s.auth,
            path=path,
        ),
        *(_("next: {step}").format(step=localize(step)) for step in steps),
    ]
    report = {"provider": name, "smtp": s.model_dump(), "imap": i.model_dump(), "next": steps}
    for section in ("smtp", "imap"):
        report[section].pop("password")
    emit(as_json, report, lines)


@config.command("test")
@json_option
@reports_errors
def config_test(as_json: bool) -> None:
    """Log in to both servers as pbem will and say, one line each, whether it worked or
    which stage failed: DNS, TCP, TLS, server, login or mailbox. Exits 2 if one failed."""
    from pbem.mail import config as mail_config
    from pbem.mail.check import check_imap, check_smtp
    from pbem.mail.transport import MailError

    settings = mail_config.load()
    outcomes = [
        _check(settings.smtp, "smtp", check_smtp),
        _check(settings.imap, "imap", check_imap),
    ]
    report = {o.kind: {"ok": o.ok, "stage": o.stage, "said": o.text} for o in outcomes}
    lines = [o.line() for o in outcomes]
    failed = [o for o in outcomes if not o.ok]
    if failed:
        which = ", ".join(f"{o.kind} ({o.stage})" for o in failed)
        refused = MailError(N_("could not log in: {servers}").format(servers=which))
        emit_refused(as_json, report, lines, refused)

    emit(as_json, report, lines)


def _check(server: Any, kind: Literal["smtp", "imap"], check: Callable[..., Outcome]) -> Outcome:
    """``check`` with the password as the other commands find it (a missing one is that
    server's failure, said as the other commands say it)."""
    from pbem.mail import config as mail_config
    from pbem.mail.check import Outcome

    try:
        password = mail_config.password(server, kind, ask_password()) if server.host else None
    except UsageError as exc:
        return Outcome(kind, "settings", str(exc))
    return check(server, password)
