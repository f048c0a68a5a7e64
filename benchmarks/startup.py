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
  again), against ``pbem verify`` of the same file, which re-checks all of it;
- the commands a player types on a game in progress already in the store (issue 33: each
  goal ≤ 1.5x the floor, libraries and ``BaseModel``): ``status``, ``moves`` and ``play``
  of a 2-seat Rattus game stopped at a decision of a seat whose key is in the keyring, and
  ``games`` listing both games. ``play`` signs and writes, so each of its runs starts on a
  copy of the prepared home (copied before the child starts: not in its time);
- a TAB of shell completion (bash), of a command's name and of ``new rattus --option``
  (issue 28: ≤ 300 ms a TAB; printed as the CPU time and as a ratio to the floor).
The package's bytecode is compiled first (``compileall``, as ``pip install`` does for a
wheel): with ``PYTHONDONTWRITEBYTECODE`` set, an editable checkout would otherwise compile
every module at every start. Nothing here asserts a time.
Run: ``.venv/bin/python benchmarks/startup.py [runs]``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.verify import PBEM, africanus_file, build, ratio_line
from pbem.crypto.keyring import Keyring
from pbem.crypto.randomness import Rng
from pbem.format import gamefile
from pbem.games.rattaneer import Rattaneer
from pbem.games.rattus import Rattus
from pbem.ledger.awaiting import owes_automatic
from pbem.play.author import act, automatic, new_game

LIBRARIES = (
    "import pydantic, click, nacl.bindings\n"
    "from cryptography.hazmat.primitives.asymmetric import ed25519"
)


#: A run: the command, the environment it adds, and what to do before each start.
Run = tuple[list[str], dict[str, str], Callable[[], None] | None]


def timed(runs: int, **commands: Run) -> dict[str, list[float]]:
    """CPU seconds (user + system) of each child, ``runs`` times, the commands taking
    turns; ``before`` (if any) runs in this process first, outside the child's time."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, env, before) in commands.items():
            if before is not None:
                before()
            proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, env={**os.environ, **env})
            _, status, usage = os.wait4(proc.pid, 0)
            if os.waitstatus_to_exitcode(status):
                raise SystemExit(f"{argv} failed")
            times[name].append(usage.ru_utime + usage.ru_stime)
    return times


def game_in_progress(folder: Path, steps: int = 24) -> tuple[Path, str]:
    """A 2-seat Rattus game of two identities of this home's keyring (no passphrase),
    played at random for ``steps`` steps and on to the next decision: its file, and the
    name of the seat awaited."""
    keyring = Keyring()
    ids = [keyring.create(name, f"{name}@example.org", None) for name in ("ana", "ben")]
    rules = Rattus()
    rng = Rng(b"startup benchmark")
    replay = new_game(rules, rules.parse_options({}), [i.card for i in ids], ids[0])
    while True:
        seat = replay.remaining()[0]
        if len(replay.steps) >= steps and not owes_automatic(replay, seat):
            break
        if not automatic(replay, ids[seat]):
            act(replay, ids[seat], rules.random_action(replay.state, seat, rng))
    path = folder / "rattus.json"
    path.write_text(gamefile.encode(replay.to_file()))
    return path, ids[seat].name


def completion(words: str) -> dict[str, str]:
    """The environment of a bash TAB after ``words``."""
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    return {"_PBEM_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword)}


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    package = Path(__file__).resolve().parents[1] / "pbem"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True, env=env)
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp) / "one-step.json"
        one.write_text(build(0, rules=Rattaneer(), steps=1))
        home = Path(tmp) / "home"
        os.environ["PBEM_HOME"] = str(home)
        game = africanus_file(Path(tmp))
        subprocess.run([PBEM, "status", str(game)], check=True, stdout=subprocess.DEVNULL)
        playing, seat = game_in_progress(Path(tmp))
        subprocess.run([PBEM, "status", str(playing)], check=True, stdout=subprocess.DEVNULL)
        moves = subprocess.run(
            [PBEM, "moves", str(playing), "--as", seat, "--json"],
            check=True,
            capture_output=True,
            text=True,
        )
        move = json.loads(moves.stdout)["moves"][0]
        fresh = Path(tmp) / "play"

        def copy_home() -> None:  # play signs: each run starts where the others did
            shutil.rmtree(fresh, ignore_errors=True)
            shutil.copytree(home, fresh / "home")

        play = [PBEM, "play", str(playing), move, "--as", seat, "-o", str(fresh / "out.json")]
        times = timed(
            runs,
            python=([sys.executable, "-c", "pass"], {}, None),
            libraries=([sys.executable, "-c", LIBRARIES], {}, None),
            models=(
                [sys.executable, "-c", LIBRARIES + "\nfrom pydantic import BaseModel"],
                {},
                None,
            ),
            version=([PBEM, "--version"], {}, None),
            verify_one=([PBEM, "verify", str(one)], {}, None),
            status=([PBEM, "status", str(game)], {}, None),
            verify=([PBEM, "verify", str(game)], {}, None),
            status_play=([PBEM, "status", str(playing)], {}, None),
            moves=([PBEM, "moves", str(playing), "--as", seat], {}, None),
            games=([PBEM, "games"], {}, None),
            play=(play, {"PBEM_HOME": str(fresh / "home")}, copy_home),
            tab_name=([PBEM], completion("pbem st"), None),
            tab_option=([PBEM], completion("pbem new rattus --option "), None),
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
    floor = times["models"]
    print("goal ≤ 1.5x the floor (libraries and BaseModel):")
    for name, label in (
        ("status", "pbem status (finished Africanus, stored)"),
        ("status_play", "pbem status (Rattus in progress, stored)"),
        ("moves", "pbem moves (same)"),
        ("play", "pbem play (same, one move)"),
        ("games", "pbem games (both games)"),
    ):
        print(ratio_line(f"  {label} / floor", times[name], floor))
    print("goal ≤ 300 ms a TAB (the CPU time in brackets; ratio to the floor):")
    for name, label in (("tab_name", "pbem st<TAB>"), ("tab_option", "new rattus --option <TAB>")):
        print(ratio_line(f"  {label} / floor", times[name], floor))


if __name__ == "__main__":
    main()
