"""Writing files so that nothing is ever half-written, lost or written over (architecture §8)."""

from __future__ import annotations

import contextlib
import os
import re
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
