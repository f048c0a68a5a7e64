"""``import pbem`` stays cheap (the command line imports it for its version): the public
names load on first use, each from the module that defines it, and they are the names
``pbem.api`` gathers."""

from __future__ import annotations

import ast
import subprocess
import sys

import pbem
import pbem.api


def modules_after(code: str) -> list[str]:
    """The pbem modules a fresh interpreter holds after running ``code``."""
    show = "import sys; print([m for m in sorted(sys.modules) if m.startswith('pbem')])"
    run = subprocess.run(
        [sys.executable, "-c", f"{code}\n{show}"], capture_output=True, text=True, check=True
    )
    return ast.literal_eval(run.stdout.splitlines()[-1])


def test_import_pbem_loads_nothing_else() -> None:
    assert modules_after("import pbem") == ["pbem"]
    version = "import sys; sys.argv = ['pbem', '--version']\nfrom pbem.cli.entry import run; run()"
    assert modules_after(version) == ["pbem", "pbem.cli", "pbem.cli.entry"]


def test_a_rules_author_loads_the_rules_module_not_the_store() -> None:
    loaded = modules_after("from pbem import Ruleset, Turn")
    assert "pbem.ruleset.rules" in loaded
    assert not any(m.startswith(("pbem.store", "pbem.api", "pbem.play")) for m in loaded)


def test_the_lazy_names_are_the_api() -> None:
    assert set(pbem.api.__all__) | {"__version__", "api", "bots"} == set(pbem.__all__)
    for name in pbem.api.__all__:
        assert getattr(pbem, name) is getattr(pbem.api, name), name
    assert pbem.bots.get("random").spec == "random"


def test_the_engine_and_the_commands_load_none_of_the_api() -> None:
    """A game's bots (``pbem.bots.mcts``) and a command load what they did before."""
    loaded = modules_after("import pbem.bots.mcts, pbem.cli.game")
    assert not any(m.startswith(("pbem.api", "pbem.bots.named")) for m in loaded)
