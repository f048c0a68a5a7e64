"""What the fuzzers of hostile input share (``fuzz_mail.py``, ``fuzz_store.py``): each case
runs pbem commands in a forked child with a deadline, so that a hang is counted (and the
child killed) rather than stopping the run, and the outcome is the worst exit code of its
commands: 0, 1 or 2 are answers, 3 (a bug reported in one line) and ``crash`` (an
exception that escaped, or a child that died) are failures, and so is ``hang``."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
RULESETS = "tests.rulesets.guess:GuessGame,tests.rulesets.peek:PeekGame"
os.environ.setdefault("PBEM_RULESETS", RULESETS)
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
os.environ["PBEM_TEST_FAST_KDF"] = "1"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pbem.cli.main import main as cli  # noqa: E402

#: A case that takes longer than this is a hang (a command takes well under a second).
DEADLINE = 30.0
CRASH = 99
FAILURES = ("3", "crash", "hang")


def pbem(home: Path, *args: object) -> tuple[int, str]:
    """One command in this process: its exit code (``CRASH`` when an exception escaped
    the command's own error handling) and the last line it wrote on stderr."""
    result = CliRunner().invoke(cli, [str(a) for a in args], env={"PBEM_HOME": str(home)})
    lines = result.stderr.strip().splitlines()
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return CRASH, f"{type(result.exception).__name__}: {result.exception}"
    return result.exit_code, lines[-1] if lines else ""


def isolated(case: Callable[[], tuple[int, str]], deadline: float = DEADLINE) -> tuple[str, str]:
    """Run ``case`` in a forked child: (outcome, the line that explains a failure)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        code, line = CRASH, "the case raised"
        try:
            code, line = case()
        except BaseException as exc:  # counted as a crash, never raised
            line = f"{type(exc).__name__}: {exc}"
        os.write(write, line.encode("utf-8", "replace")[:2000])
        os._exit(code if 0 <= code < 256 else CRASH)
    os.close(write)
    end = time.monotonic() + deadline
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > end:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
            return "hang", ""
        time.sleep(0.002)
    with os.fdopen(read, "rb") as pipe:
        line = pipe.read().decode("utf-8", "replace")
    if not os.WIFEXITED(status):
        return "crash", f"killed by signal {os.WTERMSIG(status)}"
    code = os.WEXITSTATUS(status)
    return ("crash" if code == CRASH else str(code)), line


def report(title: str, results: Sequence[tuple[str, str, str]]) -> int:
    """Print the counts of outcomes (overall and by mutation) and some failures; the
    number of failures (exit 3, crashes, hangs), for the exit status."""
    totals = Counter(outcome for _, outcome, _ in results)
    print(title)
    for outcome, n in sorted(totals.items()):
        print(f"  exit {outcome}: {n}" if outcome.isdigit() else f"  {outcome}: {n}")
    for (kind, outcome), n in sorted(Counter((k, o) for k, o, _ in results).items()):
        print(f"    {kind:16s} {outcome}: {n}")
    failures = [(k, o, line) for k, o, line in results if o in FAILURES]
    for kind, outcome, line in failures[:20]:
        print(f"  FAILURE {kind} {outcome}: {line[:300]}")
    print(f"exit-3: {totals['3']}, crashes: {totals['crash']}, hangs: {totals['hang']} (goal 0)")
    return len(failures)


def run(trial: Callable[[int], tuple[str, str, str]], count: int, workers: int) -> list:
    """``trial(seed)`` for seeds 0 … count − 1, on ``workers`` processes."""
    if workers <= 1:
        return [trial(seed) for seed in range(count)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(trial, range(count), chunksize=10)


def main(
    doc: str, trial: Callable[[int], tuple[str, str, str]], default: int, what: str, work: Path
) -> None:
    """A fuzzer's command line: ``[N] [WORKERS]`` cases of ``trial``, the report, and exit 1
    when any case failed (exit 3, a crash or a hang); ``work`` is removed at the end."""
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(doc)
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else default
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    results = run(trial, count, workers)
    shutil.rmtree(work, ignore_errors=True)
    failures = report(f"{count} {what}", results)
    sys.exit(1 if failures else 0)
