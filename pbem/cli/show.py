"""``pbem show``: the game as one self-contained HTML page, or the board alone as SVG.

Read-only: it verifies the file step by step and writes a page beside it, never a new
game file. A page is public unless ``--as`` names an identity of the local keyring: then
what that seat alone knows is decrypted here and added, and the page is named after the
reader so that it is not sent around by mistake.
"""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.common import emit, identity, json_option, reports_errors
from pbem.core import gamefile
from pbem.core.errors import Rejected, UsageError
from pbem.core.files import atomic_write
from pbem.view.history import walk
from pbem.view.render import board_svg, page_html
from pbem.view.seats import seats_of


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--as",
    "as_name",
    metavar="NAME",
    help="Add what this identity of your keyring alone knows (its hand, the tokens it "
    "peeked at, its sealed choice before the reveal), decrypted here. Without it the page "
    "shows only what every player may see.",
)
@click.option("--step", type=int, metavar="K", help="Open at the position after step K.")
@click.option("--svg", "svg_only", is_flag=True, help="Write only the board, as an SVG image.")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Where to write ('-': standard output). Default: beside FILE, FILE.html "
    "(FILE.NAME.html with --as; .svg with --svg).",
)
@json_option
@reports_errors
def show(
    file: Path,
    as_name: str | None,
    step: int | None,
    svg_only: bool,
    output: Path | None,
    as_json: bool,
) -> None:
    """Draw the game: the board, the players, what is awaited, and the audited history
    with every position to step through."""
    game = gamefile.read(file)
    reader = identity(as_name) if as_name is not None else None
    history = walk(game, reader)
    position = history.position(step)
    seat = seats_of(game.genesis)[position.private.seat] if position.private else None
    if svg_only:
        text = board_svg(history, position)
        if text is None:
            raise UsageError(f"there is no board to draw for {history.rules.id} at this step")
    else:
        text = page_html(history, position, source=file.name, reader=seat)
    target = output if output is not None else _beside(file, as_name, svg_only)
    if str(target) == "-":
        click.echo(text, nl=False)
    else:
        if target.resolve() == file.resolve():
            raise UsageError(f"{target}: will not overwrite the game file; name another with -o")
        atomic_write(target, text.encode())
        report = {
            "wrote": str(target),
            "step": position.index,
            "verified": history.verified,
            "failure": history.failure,
            "private_to": seat.name if seat else None,
        }
        kind = "board" if svg_only else "page"
        audience = f"private to {seat.name}" if seat else "public"
        emit(as_json, report, [f"wrote {target} ({kind}, {audience}, after step {position.index})"])
    if not history.verified:
        shown = "before it" if history.failed_at is not None else "recomputed"
        raise Rejected(f"{history.failure} (the page shows the verified steps {shown})")


def _beside(file: Path, as_name: str | None, svg_only: bool) -> Path:
    suffix = ".svg" if svg_only else ".html"
    reader = f".{as_name}" if as_name else ""
    return file.with_name(f"{file.stem}{reader}{suffix}")
