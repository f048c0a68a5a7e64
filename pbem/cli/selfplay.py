"""``pbem selfplay``: complete games by bots, through the real file and crypto."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.common import (
    complete_bot,
    complete_option,
    complete_ruleset,
    emit,
    json_option,
    named_ruleset,
    reports_errors,
    ruleset_options,
)
from pbem.format.errors import UsageError
from pbem.format.i18n import N_, _, ngettext
from pbem.play.selfplay import play_game


@click.command()
@click.argument("ruleset", shell_complete=complete_ruleset)
@click.option("--players", default=2, show_default=True, help="Seats per game.")
@click.option(
    "--games", type=click.IntRange(min=1), default=1, show_default=True, help="How many games."
)
@click.option("--seed", default=1, show_default=True, help="First seed; game k uses seed+k.")
@click.option(
    "--bot",
    "bots",
    multiple=True,
    help="Bot per seat, cycled (default: random).",
    shell_complete=complete_bot,
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="K=V",
    help="A ruleset option.",
    shell_complete=complete_option,
)
@click.option("--out", type=click.Path(path_type=Path), help="Keep each finished file here.")
@json_option
@reports_errors
def selfplay(
    ruleset: str,
    players: int,
    games: int,
    seed: int,
    bots: tuple[str, ...],
    options: tuple[str, ...],
    out: Path | None,
    as_json: bool,
) -> None:
    """Play complete games with bots; every step is signed, re-read and verified."""
    rules = named_ruleset(ruleset)
    if not rules.min_seats <= players <= rules.max_seats:
        raise UsageError(
            N_("{ruleset} takes {least} to {most} players").format(
                ruleset=ruleset, least=rules.min_seats, most=rules.max_seats
            )
        )
    parsed = ruleset_options(rules, options)
    reports = []
    lines = []
    for k in range(games):
        r = play_game(rules, players, seed + k, parsed, list(bots) or ["random"], out)
        winners = ", ".join(f"bot{w + 1}" for w in r.result.winners)
        lines.append(
            _(
                "seed {seed}: {steps} steps, {bytes} bytes, verified; "
                "winner {winners}; scores {scores}"
            ).format(
                seed=r.seed, steps=r.steps, bytes=r.bytes, winners=winners, scores=r.result.scores
            )
        )
        reports.append(
            {
                "seed": r.seed,
                "steps": r.steps,
                "bytes": r.bytes,
                "scores": r.result.scores,
                "winners": r.result.winners,
                "file": str(r.path) if r.path else None,
            }
        )
    total_steps = sum(r["steps"] for r in reports)
    in_all = ngettext("{n} step in all", "{n} steps in all", total_steps).format(n=total_steps)
    done = ngettext(
        "{n} game of {ruleset} with {players} players verified, {steps}",
        "{n} games of {ruleset} with {players} players verified, {steps}",
        games,
    )
    lines.append(done.format(n=games, ruleset=ruleset, players=players, steps=in_all))

    emit(as_json, {"games": reports}, lines)
