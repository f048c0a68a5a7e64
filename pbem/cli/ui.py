"""``pbem ui``: play from the board, in the browser, on this machine only.

The web framework (and the browser launcher) is imported here, when the command runs, so
that every other command (and ``pbem --version``) starts without it.
"""

from __future__ import annotations

import contextlib
import sys

import click

from pbem.cli.common import INTERRUPTED, as_option, emit, json_option, own_name, reports_errors
from pbem.crypto.keyring import Keyring, default_home


@click.command()
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="The port on 127.0.0.1 (0: any free one).",
)
@click.option("--no-browser", is_flag=True, help="Print the address; do not open a browser.")
@as_option
@json_option
@reports_errors
def ui(port: int, no_browser: bool, as_name: str | None, as_json: bool) -> None:
    """Show your games in the browser and play them by clicking on the board.

    Listens on 127.0.0.1 only. The address holds a random token, as Jupyter's does: only
    who has it can use the page. The browser is sent there through a file only you can
    read, so the token is not on its command line. The passphrase is asked in the page at
    each signing (or taken from $PBEM_PASSPHRASE) and kept nowhere. Stop with Ctrl-C (exit 130).
    With ``--json`` the address is one JSON object on stdout ({"ok", "identity", "url"}),
    for a launcher."""
    name = own_name(as_name, Keyring(), None)
    Keyring().card(name)  # an unknown name fails now, not in the page
    from pbem.ui.server import address, discard, listen, new_token, opener, serve

    sock = listen(port)
    token = new_token()
    url = address(sock, token)
    report = {"ok": True, "identity": name, "url": url}
    emit(as_json, report, [f"pbem ui: the games of {name} at {url}"])
    if as_json:  # the report was for a program; the pages are for a person, in their language
        from pbem.cli.main import lang_option
        from pbem.format.i18n import resolve, use

        use(resolve(lang_option(sys.argv[1:])))
    click.echo("pbem ui: stop with Ctrl-C", err=True)
    page = None
    if not no_browser:
        import webbrowser

        page = opener(url)  # the token stays off the browser's command line
    try:
        if page is not None:
            webbrowser.open(page.as_uri())
        # uvicorn stops on Ctrl-C, then raises it again (or not, if SIGINT was ignored
        # when pbem started): either way it was stopped
        with contextlib.suppress(KeyboardInterrupt):
            serve(sock, token, default_home(), name, page)
    finally:
        if page is not None:
            discard(page)
    click.echo("pbem ui: stopped", err=True)  # stdout keeps the one object of --json
    sys.exit(INTERRUPTED)
