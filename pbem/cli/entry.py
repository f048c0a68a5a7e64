"""The console script. ``pbem --version`` is answered before anything else is imported
(what it prints is click's wording of ``pbem.cli.main``); every other command goes to the
click group, which imports only the module of the command that runs."""

from __future__ import annotations

import sys


def run() -> None:
    if sys.argv[1:] == ["--version"]:
        from pbem import __version__

        print(f"pbem, version {__version__}")
        return
    try:
        from pbem.cli.main import main

        main()
    except KeyboardInterrupt:  # Ctrl-C while pbem starts: one line, as everywhere
        print("pbem: error: interrupted", file=sys.stderr)
        sys.exit(130)
