"""Start-up and the cost of commands that should not redo work, as whole processes.

In one run, the commands taking turns (``runs`` times each; CPU time of each child, user
plus system, by ``os.wait4``; min and median printed):
- ``python -c pass``: the baseline, the interpreter alone;
- ``pbem --version``, goal ≤ 5x the baseline;
- ``pbem verify`` of a 1-step Rattaneer file, goal ≤ 10x the baseline;
- the libraries ``pbem verify`` cannot do without (pydantic, click, cryptography's Ed25519,
  PyNaCl), imported by ``python -c``; and the same with pydantic's ``BaseModel``, which
  ``import pydantic`` alone does not load (pydantic imports lazily): the floor of any
  start-up that parses a file with pydantic models;
- ``pbem status`` of a finished 6-player Africanus game already in the store (the store
  keeps a checkpoint of the verified head, so the end-of-game shuffle audit is not run
  again), against ``pbem verify`` of the same file, which re-checks all of it.
The package's bytecode is compiled first (``compileall``, as ``pip install`` does for a
wheel): with ``PYTHONDONTWRITEBYTECODE`` set, an editable checkout would otherwise compile
every module at every start. Nothing here asserts a time.
Run: ``.venv/bin/python benchmarks/startup.py [runs]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.verify import PBEM, africanus_file, build, children, ratio_line
from pbem.games.rattaneer import Rattaneer

LIBRARIES = (
    "import pydantic, click, nacl.bindings\n"
    "from cryptography.hazmat.primitives.asymmetric import ed25519"
)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    package = Path(__file__).resolve().parents[1] / "pbem"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True, env=env)
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp) / "one-step.json"
        one.write_text(build(0, rules=Rattaneer(), steps=1))
        os.environ["PBEM_HOME"] = str(Path(tmp) / "home")
        game = africanus_file(Path(tmp))
        subprocess.run([PBEM, "status", str(game)], check=True, stdout=subprocess.DEVNULL)
        times = children(
            runs,
            python=[sys.executable, "-c", "pass"],
            libraries=[sys.executable, "-c", LIBRARIES],
            models=[sys.executable, "-c", LIBRARIES + "\nfrom pydantic import BaseModel"],
            version=[PBEM, "--version"],
            verify_one=[PBEM, "verify", str(one)],
            status=[PBEM, "status", str(game)],
            verify=[PBEM, "verify", str(game)],
        )
    base = times["python"]
    print(ratio_line("pbem --version / python -c pass", times["version"], base))
    print(ratio_line("libraries alone / python -c pass", times["libraries"], base))
    print(ratio_line("libraries and BaseModel / python -c pass", times["models"], base))
    print(ratio_line("pbem verify (1 step) / python -c pass", times["verify_one"], base))
    print(
        ratio_line(
            "pbem status (finished Africanus, stored) / python -c pass", times["status"], base
        )
    )
    print(
        ratio_line(
            "pbem status (same) / pbem verify of that file", times["status"], times["verify"]
        )
    )


if __name__ == "__main__":
    main()
