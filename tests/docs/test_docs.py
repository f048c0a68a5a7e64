"""Issue 31: the documentation site builds with warnings as errors, and every example in it
runs, so that it can never go stale.

Examples are the fenced blocks of a page in ``sh`` and ``python``: each page's blocks run in
order as one shell session (a Python block with ``python -``), in a fresh folder, with a
home of its own, as a reader would type them in a clone of the repository (``examples/`` is
there). Blocks in ``console`` are commands for the reader's own machine (installing pbem:
``tests/test_install.py`` does the same in a fresh virtual environment); a block that only
includes a file of the repository (``--8<--``) shows code that its own tests run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BLOCK = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```\s*$", re.S | re.M)
RUN = {"sh", "python"}
PAGES = sorted(
    p
    for p in DOCS.rglob("*.md")
    if any(
        lang in RUN and not code.lstrip().startswith("--8<--")
        for lang, code in BLOCK.findall(p.read_text(encoding="utf-8"))
    )
)


def script(page: Path, run: set[str] = RUN) -> str:
    """The page's examples (in the languages ``run``) as one bash script, in order."""
    parts = ["set -euo pipefail"]
    for lang, code in BLOCK.findall(page.read_text(encoding="utf-8")):
        if lang not in run or code.lstrip().startswith("--8<--"):
            continue
        parts.append(code if lang == "sh" else f"python - <<'PBEM_DOCS'\n{code}PBEM_DOCS")
    return "\n".join(parts) + "\n"


def reader_env(folder: Path) -> dict[str, str]:
    """A reader's environment: the pbem installed for the tests on the PATH, a home and a
    passphrase of the page's own, none of the test suite's registrations or settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_") and k != "PYTHONPATH"}
    return env | {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        "PBEM_HOME": str(folder / "home"),
        "PBEM_PASSPHRASE": "correct horse battery staple",
        "PBEM_TEST_FAST_KDF": "1",
        "TMPDIR": str(folder),
    }


def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    site = tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    cli = (site / "reference" / "cli" / "index.html").read_text()
    assert all(f"pbem {c}" in cli for c in ("new", "play", "verify", "watch", "selfplay"))
    api = (site / "reference" / "api" / "index.html").read_text()
    assert all(name in api for name in ("legal_moves", "Status", "Ruleset", "apply_parallel"))
    spec = (site / "reference" / "format" / "index.html").read_text()
    assert "format <code>pbem/1</code>" in spec
    assert (site / "architecture" / "index.html").is_file()


def run_as_a_reader(code: str, folder: Path) -> None:
    (folder / "examples").symlink_to(ROOT / "examples")
    run = subprocess.run(
        ["bash", "-c", code],
        cwd=folder,
        env=reader_env(folder),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, f"{run.stdout[-2000:]}\n{run.stderr[-3000:]}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_example_of_the_page_runs(page: Path, tmp_path: Path) -> None:
    run_as_a_reader(script(page), tmp_path)


def test_the_readme_s_python_example_runs(tmp_path: Path) -> None:
    """Its shell commands set up a machine (tests/test_install.py installs the same way)."""
    code = script(ROOT / "README.md", {"python"})
    assert "pbem.Game.new" in code
    run_as_a_reader(code, tmp_path)


def test_the_pages_with_examples_are_those_a_reader_needs() -> None:
    names = {p.relative_to(DOCS).as_posix() for p in PAGES}
    assert {"tutorial.md", "write-a-game.md", "howto/league.md", "howto/audit.md"} <= names
