"""Issue 31: a player's install. The wheel built from the checkout goes into a fresh virtual
environment with nothing but its dependencies (``python -m venv`` and pip, what ``pipx
install`` does), and there, away from the checkout, the README's demo runs: three bots play
a whole game that is then verified. What the package carries is checked where it is
installed: the licence, ``py.typed``, the schemas and test vectors, the public API; and
``pbem schema`` writes to the working folder, never into site-packages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str | Path, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{args}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


def test_the_wheel_installs_in_a_fresh_venv_and_plays_the_demo(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_") and k != "PYTHONPATH"}
    env |= {"PBEM_HOME": str(tmp_path / "home")}
    here = tmp_path / "player"
    here.mkdir()
    pip_wheel = ["-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    run(sys.executable, *pip_wheel, "-w", tmp_path / "dist", ROOT, cwd=here, env=env)
    (wheel,) = (tmp_path / "dist").glob("pbem-*.whl")
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=here, env=env)
    run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel, cwd=here, env=env)
    pbem = venv / "bin" / "pbem"

    out = run(
        pbem,
        "selfplay",
        "rattaneer",
        "--players",
        "3",
        "--bot",
        "greedy",
        "--out",
        "demo",
        cwd=here,
        env=env,
    )
    assert "1 game of rattaneer with 3 players verified" in out
    (game,) = (here / "demo").glob("*.json")
    assert "OK" in run(pbem, "verify", game, cwd=here, env=env)

    package = run(
        venv / "bin" / "python",
        "-c",
        "import pbem, pathlib; from pbem.format.resources import resource_dir;"
        "print(pathlib.Path(pbem.__file__).parent); print(resource_dir('schemas'));"
        f"print(pbem.Game.__name__, pbem.verify({str(game)!r}).steps)",
        cwd=here,
        env=env,
    ).split("\n")
    installed, schemas = Path(package[0]), Path(package[1])
    assert venv in installed.parents and schemas == installed / "schemas"
    assert (schemas / "vectors" / "guess.json").is_file() and (schemas / "format.md").is_file()
    assert (installed / "py.typed").is_file()
    assert package[2].startswith("Game ")
    (licence,) = venv.glob("lib/python*/site-packages/pbem-*.dist-info/licenses/LICENSE")
    assert licence.read_text().startswith("MIT License")

    before = sorted(p.name for p in schemas.iterdir())
    run(pbem, "schema", cwd=here, env=env)
    assert (here / "game-file.json").is_file()
    assert sorted(p.name for p in schemas.iterdir()) == before
