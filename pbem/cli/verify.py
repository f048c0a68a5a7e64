"""``pbem verify``: the auditor's command. It re-checks every file from its genesis every
time, trusts no checkpoint and needs no store; given several copies of one game, it also
reports forks, rollbacks and equivocation, with both signed steps as proof.

Files are independent until they are compared, so a league's audit verifies them in
parallel (``--jobs``, one process each at a time); the comparison of copies of one game
comes after, in this process, and reads the same as with ``--jobs 1``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import click

from pbem.cli.common import emit, emit_refused, json_option, reports_errors, where_of
from pbem.cli.progress import Progress
from pbem.format import gamefile
from pbem.format.errors import PbemError, Rejected, UsageError
from pbem.format.gamefile import GameFile, Genesis
from pbem.format.i18n import localize, ngettext
from pbem.ledger.audit import compare_files
from pbem.ledger.awaiting import describe_awaiting
from pbem.ledger.replay import replay_file
from pbem.ruleset import registry


@dataclass(frozen=True)
class Failure:
    """A ``PbemError`` as plain data, so it crosses from a worker process intact (a
    ``StepRejected`` does not unpickle); ``reading`` tells a file that could not be read
    or parsed from one that was read and refused."""

    reading: bool
    usage: bool
    message: str
    detail: str | None
    step: int | None
    seat: int | None

    def error(self) -> PbemError:
        kind = UsageError if self.usage else Rejected
        return kind(self.message, detail=self.detail, step=self.step, seat=self.seat)


@dataclass(frozen=True)
class Verified:
    """One file's verdict; ``game`` only when verified in this process (else the caller
    reads the file again if it must compare it step by step)."""

    steps: int
    awaiting: str
    genesis: Genesis
    game: GameFile | None


def verify_one(path: Path, in_process: bool = True) -> Verified | Failure:
    """Read and verify one file from its genesis."""
    reading = True
    try:
        game = gamefile.read(path)
        reading = False
        progress = Progress() if in_process else None
        replay = replay_file(game, registry.get(game.genesis.ruleset.id), progress)
    except PbemError as err:
        where = where_of(err)
        return Failure(
            reading,
            isinstance(err, UsageError),
            str(err),
            err.detail,
            where.get("step"),
            where.get("seat"),
        )
    kept = game if in_process else None
    return Verified(len(replay.steps), describe_awaiting(replay), game.genesis, kept)


def _verify_elsewhere(path: Path) -> Verified | Failure:
    return verify_one(path, in_process=False)


def verify_all(files: list[Path], jobs: int) -> list[Verified | Failure]:
    """Each file's verdict, in order: in parallel when there are several files and jobs."""
    workers = min(jobs, len(files))
    if workers <= 1:
        return [verify_one(f) for f in files]
    import multiprocessing  # here: a single file needs no pool, and start-up counts
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        return list(pool.map(_verify_elsewhere, files))


def games_to_compare(files: list[Path], verdicts: list[Verified]) -> list[GameFile]:
    """What ``compare_files`` needs: the whole file where another file holds the same game,
    only the genesis elsewhere (a different genesis is all that is said of those pairs)."""
    out = []
    for path, verdict in zip(files, verdicts, strict=True):
        copies = sum(v.genesis == verdict.genesis for v in verdicts)
        if verdict.game is not None:
            out.append(verdict.game)
        elif copies > 1:
            out.append(gamefile.read(path))
        else:
            out.append(GameFile.model_construct(genesis=verdict.genesis, steps=[]))
    return out


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=lambda: os.cpu_count() or 1,
    show_default="the number of CPUs",
    help="Files verified at once, one process each.",
)
@json_option
@reports_errors
def verify(files: tuple[Path, ...], jobs: int, as_json: bool) -> None:
    """Re-check every signature, link, beacon, opening, proof and rule of each FILE."""
    verdicts = verify_all(list(files), jobs)
    failures = [v for v in verdicts if isinstance(v, Failure)]
    if failures:  # as before: an unreadable file first, else the first file refused
        raise sorted(failures, key=lambda f: not f.reading)[0].error()
    checked = [v for v in verdicts if isinstance(v, Verified)]
    results = []
    lines = []
    for path, verdict in zip(files, checked, strict=True):
        results.append({"file": str(path), "steps": verdict.steps, "ok": True})
        ok = ngettext(
            "{path}: OK, {n} step verified; {awaiting}",
            "{path}: OK, {n} steps verified; {awaiting}",
            verdict.steps,
        )
        lines.append(ok.format(path=path, n=verdict.steps, awaiting=localize(verdict.awaiting)))

    findings = []
    if len(files) > 1:
        findings = compare_files(games_to_compare(list(files), checked), [str(f) for f in files])
    lines += [f.message for f in findings]
    report = {
        "files": results,
        "findings": [{"relation": f.relation, "message": f.message} for f in findings],
    }
    bad = [f for f in findings if f.relation in {"fork", "equivocation"}]
    if bad:
        emit_refused(as_json, report, lines, Rejected(bad[0].message, detail=bad[0].proof))
    emit(as_json, report, lines)
