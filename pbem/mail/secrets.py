"""Mail passwords in the operating system's keychain, through the ``keyring`` package:
macOS Keychain, Windows Credential Locker, the Secret Service (GNOME Keyring, KWallet).

Only a backend keyring itself recommends (priority 1 or more) is used, or the one the user
named (``PYTHON_KEYRING_BACKEND``, or keyring's ``keyringrc.cfg``): the plain-text file
backends of ``keyrings.alt`` would put the password in clear in a file again, which is what
the keychain is for avoiding. Without such a backend pbem does as before: the environment
variable, or the prompt. A password is filed under the service ``pbem`` and the account
``smtp:USER@HOST`` (or ``imap:``), so two accounts never share one.
"""

from __future__ import annotations

import os
from typing import Any

from pbem.format.errors import UsageError
from pbem.format.i18n import N_

SERVICE = "pbem"


def backend() -> Any | None:
    """The keychain pbem may use, or None (no keyring package, or no secure backend)."""
    try:
        import keyring
        import keyring.core
        from keyring.backends import fail
    except ImportError:
        return None
    chosen = keyring.get_keyring()
    if isinstance(chosen, fail.Keyring):
        return None
    if chosen.priority >= 1 or _named_by_user(keyring.core):
        return chosen
    return None


def _named_by_user(core: Any) -> bool:
    return bool(os.environ.get("PYTHON_KEYRING_BACKEND")) or core.load_config() is not None


def account(kind: str, user: str, host: str) -> str:
    return f"{kind}:{user}@{host}"


def get(kind: str, user: str, host: str) -> str | None:
    """The stored password, or None (none stored, no keychain, or a locked one)."""
    found = backend()
    if found is None:
        return None
    try:
        value = found.get_password(SERVICE, account(kind, user, host))
    except Exception:  # (locked, or its service gone: then there is none)
        return None
    return value or None


def put(kind: str, user: str, host: str, password: str) -> str:
    """Store ``password`` in the keychain; returns the keychain's name. A ``UsageError``
    when there is none (with what to do instead) or it refuses."""
    found = backend()
    if found is None:
        env = f"PBEM_{kind.upper()}_PASSWORD"
        raise UsageError(
            N_(
                "no keychain pbem can use on this system: set ${env} or let pbem ask "
                "(a password is never stored in clear)"
            ).format(env=env)
        )
    try:
        found.set_password(SERVICE, account(kind, user, host), password)
    except Exception as exc:  # (any backend's own error: said in one line)
        why = " ".join(str(exc).split()) or type(exc).__name__
        raise UsageError(
            N_("the keychain refused the {kind} password: {why}").format(kind=kind, why=why)
        ) from None

    return type(found).__name__


def delete(kind: str, user: str, host: str) -> bool:
    """Forget the stored password; True if there was one."""
    found = backend()
    if found is None:
        return False
    try:
        found.delete_password(SERVICE, account(kind, user, host))
    except Exception:  # (PasswordDeleteError: none stored; or a locked one)
        return False
    return True
