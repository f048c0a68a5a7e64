"""Writing files so that nothing is ever half-written, lost or written over (architecture §8)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
from pathlib import Path

_TEMP = re.compile(r"^\..+\.pbem-(\d+)-[A-Za-z0-9_]+\.tmp$")


def atomic_write(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Write ``path`` so that readers see the old file or the new one, never half of one.
    The temporary file is created with ``mode`` (mkstemp makes it 0600 first), so a
    private key is never readable by others, even for an instant. Temporary files that a
    killed pbem left in the folder are cleaned up first."""
    path = Path(path)
    tmp = _complete_temp(path, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_dir(path.parent)


def write_new(path: Path, data: bytes) -> bool:
    """Write ``path`` only if it does not exist, atomically (a hard link of a complete
    temporary file: no other writer can be overtaken). False if it exists already."""
    path = Path(path)
    tmp = _complete_temp(path, data, 0o644)
    try:
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        _sync_dir(path.parent)
        return True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def read_plain(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` when it is a regular file reached without a symbolic link
    (``O_NOFOLLOW``: a link is never followed) and of at most ``limit`` bytes; None for
    anything else (missing, a link, a folder, a pipe, too big): not a file to replace."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        try:
            data = handle.read(limit + 1)
        except OSError:
            return None
    return data if len(data) <= limit else None


def replace_unchanged(path: Path, data: bytes, seen: bytes, limit: int) -> bool:
    """Replace ``path`` with ``data`` atomically (a complete temporary file renamed over
    it, with the old file's permissions), only while it still holds the bytes whose
    SHA-256 is ``seen``: they are read again after the temporary file is complete, just
    before the rename, so that a file an editor or a mail client wrote meanwhile is kept.
    False, and nothing changed, when it no longer holds them (or is no longer a regular
    file)."""
    path = Path(path)
    try:
        mode = stat.S_IMODE(os.lstat(path).st_mode)
    except OSError:
        return False
    tmp = _complete_temp(path, data, mode)
    try:
        now = read_plain(path, limit)
        if now is None or hashlib.sha256(now).digest() != seen:
            return False
        os.replace(tmp, path)
        tmp = ""
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _sync_dir(path.parent)
    return True


def _complete_temp(path: Path, data: bytes, mode: int) -> str:
    """A temporary file beside ``path`` holding ``data``, with ``mode``, on disk (synced):
    what both ways of writing put in place. Stale temporary files are cleaned up first."""
    clean_stale_temps(path.parent)
    fd, tmp = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.pbem-{os.getpid()}-", suffix=".tmp"
    )
    try:
        with os.fdopen(fd, "wb") as handle:
            os.chmod(tmp, mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def clean_stale_temps(folder: Path) -> None:
    """Remove the temporary files of pbem processes that no longer run (a ``kill -9``
    between writing and renaming leaves one behind)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        match = _TEMP.match(name)
        if match and not _alive(int(match.group(1))):
            with contextlib.suppress(OSError):
                os.unlink(folder / name)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # make the rename durable; not possible everywhere
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


#: Where pbem keeps its keyring, store and settings when set (else the platform's place).
HOME_ENV = "PBEM_HOME"


def default_home() -> Path:
    """``PBEM_HOME`` if set, else the platform's user data directory for pbem. Here, in the
    lowest room, because the language setting is read at start-up before any other room."""
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs  # only when PBEM_HOME is unset: most commands never need it

    return Path(platformdirs.user_data_dir("pbem"))
