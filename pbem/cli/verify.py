"""``pbem verify``: the auditor's command. It re-checks every file from its genesis every
time, trusts no checkpoint and needs no store; given several copies of one game, it also
reports forks, rollbacks and equivocation, with both signed steps as proof."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.common import emit, emit_refused, json_option, reports_errors
from pbem.cli.progress import Progress
from pbem.core import gamefile, registry
from pbem.core.audit import compare_files
from pbem.core.author import describe_awaiting
from pbem.core.errors import Rejected
from pbem.core.replay import replay_file


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@json_option
@reports_errors
def verify(files: tuple[Path, ...], as_json: bool) -> None:
    """Re-check every signature, link, beacon, opening, proof and rule of each FILE."""
    games = [gamefile.read(f) for f in files]
    results = []
    lines = []
    for path, game in zip(files, games, strict=True):
        replay = replay_file(game, registry.get(game.genesis.ruleset.id), Progress())
        results.append({"file": str(path), "steps": len(replay.steps), "ok": True})
        lines.append(f"{path}: OK, {len(replay.steps)} steps verified; {describe_awaiting(replay)}")
    findings = compare_files(games, [str(f) for f in files]) if len(files) > 1 else []
    lines += [f.message for f in findings]
    report = {
        "files": results,
        "findings": [{"relation": f.relation, "message": f.message} for f in findings],
    }
    bad = [f for f in findings if f.relation in {"fork", "equivocation"}]
    if bad:
        emit_refused(as_json, report, lines, Rejected(bad[0].message, detail=bad[0].proof))
    emit(as_json, report, lines)
