"""``python -m pbem`` runs the command line."""

from pbem.cli.entry import run

run()
