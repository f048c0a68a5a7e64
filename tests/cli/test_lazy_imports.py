"""What a command imports (issue 33: start-up at the floor of the libraries; issue 28: a TAB
of completion that does not load all of pbem). Listing the commands, by ``--help`` or by
completing a command's name, imports none of them; completing a ruleset's options loads
that ruleset and no store, ledger or mail, pages or browser ui; reading a stored game loads its
game's package and not another game's, nor the mail's servers and templates.

Each case runs ``pbem`` in a fresh interpreter and lists the modules it then holds: a check
on what got imported, never on times."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

#: What no reading command and no TAB needs: the mail's servers and templates, the pages,
#: the browser ui, the search bots' own package (a game's package may import its bots).
HEAVY = (
    "jinja2",
    "imapclient",
    "pbem.mail.transport",
    "pbem.mail.compose",
    "pbem.mail.robot",
    "pbem.ui",
    "pbem.view",
    "pbem.api",
)

#: Run ``pbem ARGS`` in this interpreter, then write the modules it holds to a file: a
#: command ends in ``sys.exit``, and completion prints its answer on stdout.
PROBE = """
import json, sys
out, args = sys.argv[1], json.loads(sys.argv[2])
sys.argv = ["pbem", *args]
from pbem.cli.entry import run
try:
    run()
except SystemExit:
    pass
with open(out, "w") as f:
    json.dump(sorted(sys.modules), f)
"""

MORNING = ROOT / "examples" / "rattaneer" / "morning.json"


def loaded(tmp: Path, *args: str, **env: str) -> tuple[set[str], str]:
    """The modules a fresh ``pbem ARGS`` holds when it is done, and what it printed (on
    stdout and stderr)."""
    out = tmp / "modules.json"
    run = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), json.dumps(args)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=True,
    )
    return set(json.loads(out.read_text())), run.stdout + run.stderr


def heavy(modules: set[str], more: tuple[str, ...] = ()) -> list[str]:
    """The modules of ``HEAVY`` (and ``more``), or in them, that were imported."""
    names = HEAVY + more
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in names))


def complete(words: str) -> dict[str, str]:
    """The environment of a bash TAB after ``words``."""
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    return {"_PBEM_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword)}


def test_listing_the_commands_imports_none_of_them(tmp_path: Path) -> None:
    for args, env in (
        (("--help",), {}),
        ((), complete("pbem st")),
        ((), complete("pbem ")),
    ):
        modules, out = loaded(tmp_path, *args, **env)
        ours = sorted(m for m in modules if m.startswith("pbem"))
        cli = ["pbem.cli", "pbem.cli.commands", "pbem.cli.entry", "pbem.cli.main"]
        language = ["pbem.format", "pbem.format.files", "pbem.format.i18n"]  # --help's words
        assert ours == sorted(["pbem", *cli, *language]), (args, env)
        assert "babel" not in modules  # a tool for the catalogs, never needed at run time
        assert "pydantic" not in modules
        assert "status" in out


def test_completing_a_rulesets_options_loads_that_ruleset_only(tmp_path: Path) -> None:
    modules, out = loaded(tmp_path, **complete("pbem new rattus --option "))
    assert "africanus=" in out
    assert "pbem.games.rattus" in modules
    others = ("pbem.games.rattaneer", "pbem.cli.mail", "pbem.cli.look")
    assert heavy(modules, (*others, "pbem.ledger", "pbem.store", "pbem.play")) == []


def test_completing_a_game_id_loads_no_game(tmp_path: Path) -> None:
    for words in ("pbem status ", "pbem play ", "pbem show ", "pbem send "):
        modules, _ = loaded(tmp_path, **complete(words))
        assert heavy(modules, ("pbem.games", "pbem.bots", "pbem.mail")) == [], words


def test_reading_a_stored_game_loads_its_game_and_no_mail(tmp_path: Path) -> None:
    loaded(tmp_path, "status", str(MORNING))  # imported into the store once
    for args, said in (
        (("status", str(MORNING)), "seat 0: anne"),
        (("moves", str(MORNING)), "holds no identity of yours"),  # read, then refused
        (("log", str(MORNING)), "anne"),
        (("games",), json.loads(MORNING.read_text())["genesis"]["game"][:8]),
    ):
        modules, out = loaded(tmp_path, *args)
        assert said in out, (args, out)
        assert "pbem.games.rattaneer" in modules, args
        assert heavy(modules, ("pbem.games.rattus",)) == [], args
