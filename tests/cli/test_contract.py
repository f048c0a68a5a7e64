"""The command-line contract of the README ("Conventions"), held over every command of the
click tree: a command added to ``pbem.cli.main`` is covered without being listed here, and
this test fails until it has a row in ``TABLE``.

For each command: with ``--json`` a success is exactly one JSON object with ``"ok": true``;
an error is one object with ``ok`` false, ``error``, the ``code`` of its class and that
class's exit code (1 refused, 2 usage or I/O, 130 interrupted), and without ``--json`` one
line on stderr; a usage error exits 2; Ctrl-C exits 130 with one line, also while a
passphrase prompt waits; no traceback ever; a reading command leaves every file and every
row of the store as they were. The game of every row is made once (``template``)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import pty
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from pbem.cli.common import json_option, reports_errors
from pbem.cli.main import main
from pbem.play.signer import PROCESS_JOURNAL
from tests.cli.contract_table import BEFORE, GAME, LATE, PASSPHRASE, SEALED, SECOND, TABLE
from tests.conftest import CLOCK_START
from tests.helpers import ok, pbem, report
from tests.mail.conftest import certs, imap, smtp  # noqa: F401 - the fixtures, for watch
from tests.mail.servers import HOST, PASSWORD, Certs, Dovecot, Smtp


def _leaves(group: click.Group, ctx: click.Context, prefix: tuple[str, ...]) -> Iterator[str]:
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from _leaves(command, ctx, (*prefix, name))
        elif command is not None:
            yield " ".join((*prefix, name))


def commands() -> list[str]:
    """Every command of the tree, as typed (``key new``)."""
    return list(_leaves(main, click.Context(main), ()))


EVERY = commands()


def test_every_command_of_the_tree_has_a_row_and_reports_its_errors() -> None:
    assert sorted(EVERY) == sorted(TABLE), "give each new command a row in TABLE"
    for name in EVERY:
        group: Any = main
        for word in name.split():
            group = group.get_command(click.Context(group), word)
        assert group.callback.__code__ is reports_errors(print).__code__, name


def test_a_bug_is_one_object_with_code_internal_and_exit_3() -> None:
    """What every command's ``reports_errors`` makes of a bug (no command has one to
    show): one line, or one object with ``--json``, exit 3, never a traceback."""

    @click.command()
    @json_option
    @reports_errors
    def bug(as_json: bool) -> None:
        raise KeyError("a bug")

    runner = CliRunner()
    answer = runner.invoke(bug, ["--json"], catch_exceptions=False)
    assert answer.exit_code == 3 and one_object(answer.stdout)["code"] == "internal"
    text = runner.invoke(bug, [], catch_exceptions=False)
    assert text.exit_code == 3 and len(text.stderr.splitlines()) == 1
    no_traceback(text.stderr.replace("internal error", ""))


# ----- the game every row works on, made once ------------------------------------------------


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A guess game of ann, bea and cid (bea and cid sealed with a passphrase) in which cid
    alone is awaited, with a deadline; a second game where nobody has chosen yet; fay's card
    (of another home, imported); a mail of the game; files that are not JSON, that repeat a
    key, that are not mail; mail settings pointing at a closed port."""
    root = tmp_path_factory.mktemp("contract")
    env = {
        "PBEM_HOME": str(root / "pbem-home"),
        "PBEM_TEST_FAST_KDF": "1",
        "PBEM_TEST_CLOCK": str(CLOCK_START),
        "PBEM_PASSPHRASE": PASSPHRASE,
    }
    cwd = Path.cwd()
    os.chdir(root)
    try:
        with _environment(**env):
            PROCESS_JOURNAL.clear()
            for name in ("ann", "bea", "cid", "dan"):
                sealed = [] if name in SEALED else ["--no-passphrase"]
                ok("key", "new", name, "--email", f"{name}@example.org", *sealed)
            with _environment(PBEM_HOME=str(root / "fay-home")):
                ok("key", "new", "fay", "--email", "fay@example.org", "--no-passphrase")
                ok("key", "export", "fay", "-o", "fay.card.json")
                ok("key", "new", "gus", "--email", "gus@example.org", "--no-passphrase")
                ok("new", "guess", "--seat", "fay", "--seat", "gus", "--as", "fay",
                   "-o", "fay-home/o.json")  # fmt: skip
                ok("send", "fay-home/o.json", "--as", "fay", "--eml", "fay-home/o.eml")
            ok("key", "import", "fay.card.json")
            seats = ["--seat", "ann", "--seat", "bea", "--seat", "cid"]
            ok("new", "guess", *seats, "--option", "rounds=1", "--deadline", "1h", "--as", "ann",
               "-o", "g.json")  # fmt: skip
            f = "g.json"
            for name, move in (("bea", []), ("cid", []), ("ann", []), ("ann", ["guess 3"]),
                               ("bea", ["guess 5"])):  # fmt: skip
                f = report("play", f, *move, "--as", name)["file"]
                if move == ["guess 3"]:
                    shutil.copy(f, BEFORE)
            assert f == GAME, f
            ok("new", "guess", *seats, "--as", "ann", "-o", "h.json")
            f = "h.json"
            for name, move in (("bea", []), ("cid", []), ("ann", []), ("ann", ["guess 1"]),
                               ("bea", ["guess 5"]), ("cid", ["guess 10"])):  # fmt: skip
                f = report("play", f, *move, "--as", name)["file"]
            while "bank or risk" not in (now := report("status", f))["next"]:
                f = report("play", f, "--as", now["awaiting"][0])["file"]
            SECOND.update(second=f, leader=now["awaiting"][0])
            ok("send", GAME, "--as", "ann", "--eml", "mail.eml")
            for key, value in (("imap.host", "127.0.0.1"), ("imap.port", "9"),
                               ("imap.security", "none"), ("imap.user", "ann"),
                               ("smtp.host", "127.0.0.1"), ("smtp.port", "9"),
                               ("smtp.security", "none")):  # fmt: skip
                ok("config", "set", key, value)
    finally:
        os.chdir(cwd)
    (root / "notjson.json").write_text("{not json")
    (root / "dup.json").write_text('{"format": 1, "format": 2}')
    (root / "bad.eml").write_bytes(b"Subject: hi\r\n\r\nno game here\r\n")
    return root


@pytest.fixture
def table(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the template, in this test's folder and home; the deadline has passed."""
    shutil.copytree(template, tmp_path, dirs_exist_ok=True)
    monkeypatch.setenv("PBEM_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)
    # A keychain of this test's own for the pbem processes it starts, so that ``config
    # set imap.password`` gets as far as its prompt (this process keeps none: conftest).
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "keychain"))
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", PASSWORD)
    monkeypatch.setenv("PBEM_TEST_CLOCK", LATE)
    return tmp_path


#: The commands that succeed only with mail servers to talk to (``_servers``).
SERVED = {"watch", "config test"}


def _servers(imap_server: Dovecot, smtp_server: Smtp, ca: Certs) -> None:
    """Point the home's mail settings at the real servers of the mail tests, and put a
    game of others in ann's inbox (a new game: an event to tell)."""
    for kind, server in (("imap", imap_server), ("smtp", smtp_server)):
        security = "starttls" if kind == "imap" else smtp_server.security
        settings = {"host": HOST, "port": server.port, "security": security,
                    "user": "ann@example.org", "ca_file": ca.ca}  # fmt: skip
        for key, value in settings.items():
            ok("config", "set", f"{kind}.{key}", str(value))
    imap_server.append("ann@example.org", Path("fay-home/o.eml").read_bytes())


def fill(args: list[str]) -> list[str]:
    return [SECOND.get(a[1:-1], a) if a.startswith("{") else a for a in args]


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text and "internal error" not in text, text


def one_object(stdout: str) -> dict[str, Any]:
    """stdout holds exactly one JSON object (json.loads refuses anything after it)."""
    value = json.loads(stdout)
    assert isinstance(value, dict), stdout[:200]
    return value


# ----- the checks ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", EVERY)
def test_a_success_is_one_object_with_ok(
    table: Path, command: str, request: pytest.FixtureRequest
) -> None:
    row = TABLE[command]
    if row.ok is None:
        assert row.interrupt[0] == "serve"  # its answer is checked by test_ctrl_c
        return
    if command in SERVED:  # a real IMAP server, with a new game in the inbox
        _servers(*(request.getfixturevalue(name) for name in ("imap", "smtp", "certs")))
    result = pbem(*fill(row.ok), "--json")
    no_traceback(result.stdout, result.stderr)
    assert result.exit_code == 0, result.output
    if command == "watch":  # one object per event, a line each
        lines = result.stdout.splitlines()
        assert lines and all(json.loads(line)["ok"] is True for line in lines), lines
        return
    assert one_object(result.stdout)["ok"] is True


@pytest.mark.parametrize("command", EVERY)
def test_an_error_is_one_object_with_its_code_and_exit_code(table: Path, command: str) -> None:
    row = TABLE[command]
    if row.bad is None:
        return
    args, exit_code, code = row.bad
    args = fill(args)
    result = pbem(*args, "--json")
    no_traceback(result.stdout, result.stderr)
    assert result.exit_code == exit_code, result.output
    if command == "watch":  # a stream: the pass's events, then what failed
        lines = [one_object(line) for line in result.stdout.splitlines()]
        answer = next(line for line in lines if not line["ok"])
        assert all(line["ok"] for line in lines[: lines.index(answer)]), lines
    else:
        answer = one_object(result.stdout)
    assert answer["ok"] is False and answer["error"] and answer["code"] == code, answer
    assert {"step", "seat"} <= answer.keys()
    for name in ("notjson.json", "dup.json"):  # which file, when several may be given
        assert name not in args or name in answer["error"], answer
    text = pbem(*args)  # the same error as one line on stderr (after any report it ends)
    assert text.exit_code == exit_code, text.output
    said = "pbem watch: " if command == "watch" else "pbem: error: "  # watch goes on
    assert f"{said}{answer['error']}" in text.stderr.splitlines(), text.stderr


@pytest.mark.parametrize("command", EVERY)
def test_a_usage_error_exits_2(table: Path, command: str) -> None:
    words = command.split()
    answer = pbem(*words, "--no-such-option", "--json")
    assert answer.exit_code == 2, answer.output
    report = one_object(answer.stdout)
    assert report["ok"] is False and report["code"] == "usage"
    assert "--no-such-option" in report["error"]
    text = pbem(*words, "--no-such-option")
    assert text.exit_code == 2 and "No such option '--no-such-option'" in text.stderr


def everything(root: Path) -> dict[str, Any]:
    """Every file under ``root`` (the folder and the home) and every row of the store."""
    files = {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.startswith("store.sqlite")
    }
    db = sqlite3.connect(f"file:{root / 'pbem-home' / 'store.sqlite'}?mode=ro", uri=True)
    with contextlib.closing(db):
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        rows = {n: sorted(map(repr, db.execute(f"SELECT * FROM {n}"))) for n in names}
    return {"files": files, "store": rows}


@pytest.mark.parametrize("command", EVERY)
def test_reading_leaves_every_file_and_the_store_untouched(
    table: Path, command: str, request: pytest.FixtureRequest
) -> None:
    row = TABLE[command]
    if not row.reads:
        return
    assert row.ok is not None
    if command in SERVED:
        _servers(*(request.getfixturevalue(name) for name in ("imap", "smtp", "certs")))
    before = everything(table)
    ok(*fill(row.ok))
    ok(*fill(row.ok), "--json")
    assert everything(table) == before


# ----- Ctrl-C, by a signal to a real process -------------------------------------------------

PBEM = [sys.executable, "-m", "pbem"]
#: Only a bound against hanging: nothing here measures time.
PATIENCE = 60.0


def _wait(done: Any, what: str) -> Any:
    end = time.monotonic() + PATIENCE
    while time.monotonic() < end:
        found = done()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"the command never got to {what}")


def _heeds_ctrl_c() -> None:
    """In the child: SIGINT as a person's shell leaves it, even when the tests run where
    it is ignored (a background job), which the child would inherit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def on_terminal(args: list[str], key: bytes) -> tuple[int, str]:
    """Run pbem on a terminal of its own, type ``key`` (Ctrl-C or Ctrl-D) at the
    passphrase prompt; its exit code and everything it wrote after the prompt."""
    env = {k: v for k, v in os.environ.items() if k != "PBEM_PASSPHRASE"}
    pid, fd = pty.fork()
    if pid == 0:  # the child: a session of its own, the terminal its controlling one
        _heeds_ctrl_c()
        os.execvpe(PBEM[0], [*PBEM, *args], env)
    seen = b""

    def prompted() -> bool:
        nonlocal seen
        try:
            seen += os.read(fd, 4096)
        except OSError as exc:  # EIO: pbem ended without asking
            raise AssertionError(f"no prompt: {seen.decode(errors='replace')}") from exc
        return seen.endswith(b": ")

    try:
        _wait(prompted, "a prompt")
        _wait(lambda: _asleep_in(pid, "wait_woken", "tty"), "reading the terminal")
        os.write(fd, key)
        rest = b""
        while True:
            try:
                chunk = os.read(fd, 4096)
            except OSError as exc:  # the child is gone: EIO on Linux
                assert exc.errno == errno.EIO
                break
            if not chunk:
                break
            rest += chunk
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), rest.decode(errors="replace")


def _asleep_in(pid: int, *places: str) -> bool:
    """Whether the process sleeps in the kernel in one of ``places`` (its wchan). A
    signal that comes while Python runs C code is only acted on at the next bytecode,
    which a blocking read() never reaches: so Ctrl-C is sent once pbem waits in it, as a
    person's would be. Where the kernel hides wchan, this cannot be told: yes."""
    try:
        where = Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return True
    return where in {"", "0"} or any(p in where for p in places)


def interrupted(args: list[str], ready: Any, what: str) -> tuple[int, str, str]:
    """Start pbem, wait for ``ready(process)``, send SIGINT; exit code, stdout, stderr."""
    proc = subprocess.Popen(
        [*PBEM, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        preexec_fn=_heeds_ctrl_c,
    )
    try:
        _wait(lambda: ready(proc), what)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=PATIENCE)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out.decode(), err.decode()


def _serving(proc: subprocess.Popen[bytes], seen: list[bytes]) -> bool:
    assert proc.stdout is not None
    seen.append(proc.stdout.readline())
    try:
        one_object(b"".join(seen).decode())
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("command", EVERY)
def test_ctrl_c_exits_130_with_one_line(table: Path, command: str) -> None:
    row = TABLE[command]
    if isinstance(row.interrupt, str):
        assert row.interrupt.startswith("never waits: ")
        return
    how, args = row.interrupt[0], fill(row.interrupt[1])
    if how == "prompt":
        code, text = on_terminal(args, b"\x03")
        no_traceback(text)
        assert code == 130 and text.strip() == "pbem: error: interrupted", (code, text)
        return
    if how == "output":
        code, out, err = interrupted(args, lambda _: any(Path(args[-1]).glob("*")), "a file")
    else:
        seen: list[bytes] = []
        args = [*args, "--no-browser", "--json"]
        code, out, err = interrupted(args, lambda p: _serving(p, seen), "serving")
        assert one_object(b"".join(seen).decode())["ok"] is True  # its one answer
        assert err.splitlines()[-1] == "pbem ui: stopped" and out == "", (out, err)
        assert code == 130
        return
    no_traceback(out, err)
    assert (code, out, err.strip()) == (130, "", "pbem: error: interrupted")


def test_ctrl_d_at_a_passphrase_prompt_is_an_interrupt_too(table: Path) -> None:
    code, text = on_terminal(["play", GAME, "guess 4", "--as", "cid"], b"\x04")
    assert code == 130 and text.strip() == "pbem: error: interrupted", (code, text)
