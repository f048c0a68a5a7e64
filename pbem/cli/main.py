"""``pbem``: the command line. Each command parses, calls the core, prints what happened
and what to do next. Exit codes: 0 done, 1 rejected, 2 usage or I/O error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.cli.common import (
    as_option,
    auto,
    emit,
    identity,
    json_option,
    load,
    next_steps,
    option_pairs,
    out_option,
    output_path,
    reports_errors,
    save,
    seat_identity,
)
from pbem.cli.key import key
from pbem.core import gamefile, registry
from pbem.core.audit import compare_files, merge_files
from pbem.core.author import (
    act,
    describe_awaiting,
    new_game,
    own_sealed_action,
    private_knowledge,
    seat_of,
)
from pbem.core.errors import Rejected, UsageError
from pbem.core.keys import IdentityCard, Keyring
from pbem.core.replay import replay_file
from pbem.core.rules import RulesError


@click.group()
@click.version_option(package_name="pbem")
def main() -> None:
    """Play board games by email: every rule enforced, every move signed."""


main.add_command(key)


def _card(spec: str, keyring: Keyring) -> IdentityCard:
    path = Path(spec)
    if path.suffix == ".json" or path.exists():
        try:
            return IdentityCard.from_json(path.read_bytes(), what=str(path))
        except FileNotFoundError as exc:
            raise UsageError(f"{path}: no such file") from exc
    return keyring.card(spec)


@main.command()
@click.argument("ruleset")
@click.option(
    "--seat",
    "seats",
    multiple=True,
    required=True,
    help="An identity card file, or a name in your keyring; in seat order.",
)
@click.option("--option", "options", multiple=True, metavar="K=V", help="A ruleset option.")
@as_option
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True)
@json_option
@reports_errors
def new(
    ruleset: str,
    seats: tuple[str, ...],
    options: tuple[str, ...],
    as_name: str | None,
    output: Path,
    as_json: bool,
) -> None:
    """Create a game: sign its genesis as the creator (who must hold a seat)."""
    rules = registry.get(ruleset)
    keyring = Keyring()
    cards = [_card(spec, keyring) for spec in seats]
    try:
        parsed = rules.parse_options(option_pairs(options))
    except RulesError as exc:
        raise UsageError(str(exc)) from exc
    if output.exists():
        raise UsageError(f"{output}: exists already; choose a new file name")
    me = identity(as_name)
    replay = new_game(rules, parsed, cards, me)
    save(replay, output)
    report, lines = next_steps(replay, output, me)
    report["game"] = replay.genesis.game
    emit(as_json, report, [f"created {ruleset} game {replay.genesis.game} in {output}", *lines])


def _after_auto(
    source: Path, replay: Any, me: Any, made: int, output: Path | None
) -> tuple[dict[str, Any], list[str]]:
    """Write the file if automatic steps were made, and say so."""
    if not made:
        return {"wrote": None}, []
    target = output_path(source, replay, output)
    save(replay, target)
    report, lines = next_steps(replay, target, me)
    report["wrote"] = str(target)
    return report, [f"made {made} automatic step(s); wrote {target}", *lines]


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@as_option
@out_option
@json_option
@reports_errors
def status(file: Path, as_name: str | None, output: Path | None, as_json: bool) -> None:
    """Show the table, and what is awaited from whom."""
    replay = load(file)
    me = seat_identity(replay, as_name, required=False)
    report, lines = _after_auto(file, replay, me, auto(replay, me), output)
    board = replay.rules.render_text(replay.state, replay.names) if replay.state is not None else ""
    report.update(
        game=replay.genesis.game,
        ruleset=replay.rules.id,
        steps=len(replay.steps),
        awaiting=describe_awaiting(replay),
        view=replay.rules.view(replay.state, None) if replay.state is not None else None,
    )
    out = [f"{replay.rules.id} game {replay.genesis.game}, {len(replay.steps)} steps"]
    out += [
        f"  seat {i}: {c.name} <{c.email}> [{c.fingerprint}]"
        for i, c in enumerate(replay.genesis.seats)
    ]
    if board:
        out.append(board)
    if me is not None:
        known = private_knowledge(replay, me)
        if known and replay.state is not None:
            seat = seat_of(replay, me)
            report["private"] = known
            out.append("only you know (decrypted here):")
            out.append(replay.rules.render_private(replay.state, seat, known))
        sealed = own_sealed_action(replay, me)
        if sealed is not None:
            seat = seat_of(replay, me)
            text = replay.rules.format_action(replay.state, seat, sealed)
            report["own_sealed"] = text
            out.append(f"your sealed choice (only you can see it): {text}")
    if replay.result is not None:
        result = replay.result
        report["result"] = result.model_dump()
        winners = ", ".join(replay.names[s] for s in result.winners)
        out.append(
            f"game over: {winners} won; scores "
            + ", ".join(f"{n} {s}" for n, s in zip(replay.names, result.scores, strict=True))
        )
    out.append(f"awaiting: {report['awaiting']}")
    emit(as_json, report, out + lines)


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@as_option
@out_option
@click.option("--limit", default=30, show_default=True, help="List at most this many moves.")
@json_option
@reports_errors
def moves(file: Path, as_name: str | None, output: Path | None, limit: int, as_json: bool) -> None:
    """List your legal moves now, with the notation to type."""
    replay = load(file)
    me = seat_identity(replay, as_name, required=True)
    report, lines = _after_auto(file, replay, me, auto(replay, me), output)
    seat = seat_of(replay, me)
    if (
        seat not in replay.remaining()
        or replay.awaiting.kind not in {"turn", "batch"}
        or replay.awaiting.decision.startswith(("join", "reveal"))
    ):
        report.update(moves=[], awaiting=describe_awaiting(replay))
        emit(
            as_json,
            report,
            [*lines, f"nothing for you to decide now; awaiting: {describe_awaiting(replay)}"],
        )
        return
    legal = replay.rules.legal_actions(replay.state, seat)
    texts = [replay.rules.format_action(replay.state, seat, a) for a in legal]
    help_text = replay.rules.notation_help(replay.state, seat)
    report.update(moves=texts, help=help_text, prompt=replay.awaiting.prompt)
    out = [*lines, f"your decision: {replay.awaiting.prompt or replay.awaiting.decision}"]
    if help_text:
        out.append(help_text)
    out.append(
        f"{len(texts)} legal move(s)" + (f", the first {limit}:" if len(texts) > limit else ":")
    )
    out += [f"  {t}" for t in texts[:limit]]
    current = report.get("wrote") or file
    out.append(f'play one with: pbem play {current} "{texts[0] if texts else "..."}"')
    emit(as_json, report, out)


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.argument("action", required=False)
@as_option
@out_option
@json_option
@reports_errors
def play(
    file: Path, action: str | None, as_name: str | None, output: Path | None, as_json: bool
) -> None:
    """Check your move against the rules, sign it and write the new file.

    ACTION is in the game's notation; several actions may be given separated by ';'. They
    are played in order until the game must wait for others (say, their shares for a
    reveal); the rest is reported, to be played with the next command. Without ACTION, only
    the automatic steps you owe are made."""
    replay = load(file)
    me = seat_identity(replay, as_name, required=True)
    seat = seat_of(replay, me)
    made = auto(replay, me)
    done: list[str] = []
    parts = [p.strip() for p in (action or "").split(";") if p.strip()]
    if parts and seat not in replay.remaining():
        raise Rejected(
            f"cannot play {parts[0]!r}: it is not your move ({describe_awaiting(replay)})"
        )
    for k, part in enumerate(parts):
        if seat not in replay.remaining():
            left = parts[k:]
            break
        try:
            parsed = replay.rules.parse_action(replay.state, seat, part)
        except RulesError as exc:
            raise Rejected(f"{part!r}: {exc}") from exc
        act(replay, me, parsed)
        done.append(part)
        made += auto(replay, me)
    else:
        left = []
    if not done and not made:
        raise Rejected(f"nothing to do: {describe_awaiting(replay)}")
    target = output_path(file, replay, output)
    save(replay, target)
    report, lines = next_steps(replay, target, me)
    report.update(played=done, automatic=made, not_played=left)
    head = [f"played: {'; '.join(done)}"] if done else []
    if left:
        head.append(f"waiting for others before: {'; '.join(left)} (play it on the next file)")
    emit(as_json, report, [*head, f"wrote {target}", *lines])


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@json_option
@reports_errors
def log(file: Path, as_json: bool) -> None:
    """The verified history, one line per step."""
    replay = load(file)
    rows = [
        {
            "step": r.index,
            "kind": r.kind,
            "seats": [replay.names[s] for s in r.seats],
            "summary": r.summary,
            "hash": r.hash,
        }
        for r in replay.records
    ]
    emit(as_json, {"steps": rows}, [f"{r['step']:4d} {r['kind']:7s} {r['summary']}" for r in rows])


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True)
@as_option
@json_option
@reports_errors
def merge(files: tuple[Path, ...], output: Path, as_name: str | None, as_json: bool) -> None:
    """Combine copies of one game whose envelopes to a parallel decision arrived apart."""
    games = [gamefile.read(f) for f in files]
    replay = merge_files(games, [str(f) for f in files])
    if any(output.resolve() == f.resolve() for f in files):
        raise UsageError(f"{output}: will not overwrite an input file; name another with -o")
    me = seat_identity(replay, as_name, required=False)
    auto(replay, me)
    save(replay, output)
    report, lines = next_steps(replay, output, me)
    emit(
        as_json,
        report,
        [f"merged {len(files)} copies into {output} ({len(replay.steps)} steps)", *lines],
    )


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@json_option
@reports_errors
def verify(files: tuple[Path, ...], as_json: bool) -> None:
    """Re-check every signature, link, beacon, opening and rule; with several copies of one
    game, also report forks, rollbacks and equivocation."""
    games = [gamefile.read(f) for f in files]
    results = []
    lines = []
    for path, game in zip(files, games, strict=True):
        replay = replay_file(game, registry.get(game.genesis.ruleset.id))
        results.append({"file": str(path), "steps": len(replay.steps), "ok": True})
        lines.append(f"{path}: OK, {len(replay.steps)} steps verified; {describe_awaiting(replay)}")
    findings = compare_files(games, [str(f) for f in files]) if len(files) > 1 else []
    lines += [f.message for f in findings]
    report = {
        "files": results,
        "findings": [{"relation": f.relation, "message": f.message} for f in findings],
    }
    emit(as_json, report, lines)
    bad = [f for f in findings if f.relation in {"fork", "equivocation"}]
    if bad:
        raise Rejected(bad[0].message, detail=bad[0].proof)


from pbem.cli.mail import COMMANDS as MAIL_COMMANDS  # noqa: E402
from pbem.cli.rules import rules  # noqa: E402
from pbem.cli.schema import schema  # noqa: E402
from pbem.cli.selfplay import selfplay  # noqa: E402
from pbem.cli.show import show  # noqa: E402

main.add_command(selfplay)
main.add_command(schema)
main.add_command(show)
main.add_command(rules)
for command in MAIL_COMMANDS:  # send, receive, games, watch, config
    main.add_command(command)
