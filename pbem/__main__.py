"""``python -m pbem`` runs the command line."""

from pbem.cli.main import main

main()
