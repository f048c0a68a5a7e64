"""``pbem show``: the game as one self-contained HTML page, or the board alone as SVG.

Read-only: it never signs and never writes a game file. Like every command it imports the
file into the store and draws the newest verified copy; a file the store refuses is still
drawn as far as it verifies, with the failure named (the page is evidence). A page is
public unless ``--as`` names an identity of the local keyring: then what that seat alone
knows is decrypted here and added, and the page is named after the reader so that it is not
sent around by mistake. Pages are named by step, and never written over.
"""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli.common import (
    emit,
    emit_refused,
    game_argument,
    json_option,
    read_as,
    reports_errors,
    said_read,
)
from pbem.cli.progress import Progress
from pbem.format.errors import Rejected, UsageError
from pbem.format.files import write_new
from pbem.format.i18n import N_, _


@click.command()
@game_argument
@click.option(
    "--as",
    "as_name",
    metavar="NAME",
    help="Add what this identity of your keyring alone knows (its hand, the tokens it "
    "peeked at, its sealed choice before the reveal), decrypted here. Without it the page "
    "shows only what every player may see.",
)
@click.option(
    "--step", type=int, metavar="K", help="Open at the position after step K (0: the genesis)."
)
@click.option("--svg", "svg_only", is_flag=True, help="Write only the board, as an SVG image.")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="Where to write ('-': standard output). Default: beside GAME, named by step "
    "(GAME.sNNNN.html; GAME.sNNNN.NAME.html with --as; .svg with --svg).",
)
@json_option
@reports_errors
def show(
    target: str,
    as_name: str | None,
    step: int | None,
    svg_only: bool,
    output: Path | None,
    as_json: bool,
) -> None:
    """Draw the game: the board, the players, what is awaited, and the audited history
    with every position to step through."""
    from pbem.format import gamefile  # the pages and the store load when a page is drawn
    from pbem.store.chain import short_id
    from pbem.store.exports import export_place, open_game
    from pbem.store.store import Store
    from pbem.view.history import walk
    from pbem.view.render import board_svg, page_html
    from pbem.view.seats import seats_of

    store = Store(progress=Progress())
    try:
        opened = open_game(store, target)
        game, source, read = opened.head.file(), opened.source, said_read(opened, store, as_json)
        place, stored = export_place(opened), True
    except Rejected:
        if not Path(target).is_file():
            raise
        game, source, read = gamefile.read(Path(target)), Path(target), {}
        place = (source.parent, source.stem)  # refused: drawn as it is, up to its failure
        stored = False  # and every check is made again, to find where it fails
    reader = read_as(as_name, game.genesis.seats)
    history = walk(game, reader, stored=stored)
    position = history.position(step)
    seat = seats_of(game.genesis)[position.private.seat] if position.private else None
    if svg_only:
        text = board_svg(history, position)
        if text is None:
            raise UsageError(
                N_("there is no board to draw for {ruleset} at this step").format(
                    ruleset=history.rules.id
                )
            )
    else:
        name = source.name if source is not None else short_id(game.genesis.game)
        text = page_html(history, position, source=name, reader=seat)
    failure = None
    if not history.verified:
        if history.failed_at is not None:
            shown = N_("{why} (the page shows the verified steps before it)")
        else:
            shown = N_("{why} (the page shows the verified steps recomputed)")
        failure = Rejected(shown.format(why=history.failure))
    to_stdout = output is not None and str(output) == "-"
    if to_stdout and not as_json:
        click.echo(text, nl=False)
        if failure is not None:
            raise failure
        return
    target_path = "-"
    if not to_stdout:
        target_path = str(_write(text, output, place, len(game.steps), as_name, svg_only))
    report = {
        "wrote": target_path,
        **({"page": text} if to_stdout else {}),  # with --json, stdout holds one object
        **read,
        "step": position.index + 1,
        "verified": history.verified,
        "failure": history.failure,
        "private_to": seat.name if seat else None,
    }
    if svg_only and seat:
        said = _("wrote {path} (board, private to {name}, after step {step})")
    elif svg_only:
        said = _("wrote {path} (board, public, after step {step})")
    elif seat:
        said = _("wrote {path} (page, private to {name}, after step {step})")
    else:
        said = _("wrote {path} (page, public, after step {step})")
    line = said.format(path=target_path, name=seat.name if seat else "", step=position.index + 1)
    if failure is not None:
        emit_refused(as_json, report, [line], failure)
    emit(as_json, report, [line])


def _write(
    text: str,
    output: Path | None,
    place: tuple[Path, str],
    steps: int,
    as_name: str | None,
    svg_only: bool,
) -> Path:
    """A new file for the page (never one written over): ``-o``, else beside the game."""
    data = text.encode()
    if output is not None:
        if not ((output.is_file() and output.read_bytes() == data) or write_new(output, data)):
            raise UsageError(
                N_("{path}: exists already; pbem never writes over a file").format(path=output)
            )
        return output
    folder, stem = place
    base = f"{stem}.s{steps:04d}" + (f".{as_name}" if as_name else "")
    suffix = ".svg" if svg_only else ".html"
    for n in range(1, 1000):
        path = folder / (f"{base}{suffix}" if n == 1 else f"{base}~{n}{suffix}")
        if (path.is_file() and path.read_bytes() == data) or write_new(path, data):
            return path
    raise UsageError(
        N_("{path}: too many pages named {name}").format(path=folder, name=f"{base}~N{suffix}")
    )
