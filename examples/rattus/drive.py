"""Play a Rattus game file to its end through the ``pbem`` commands, as its players would.

Usage: ``python drive.py GAME.json SEED``; prints the name of the finished file. Every
identity of the game must be in the keyring of ``PBEM_HOME``.

``pbem status FILE --json`` says who is awaited first, and then each ``pbem play`` report
says who is next. A player owing only automatic steps (joining, shuffling, randomness,
decryption shares) runs ``pbem play FILE --as NAME``; a player with a decision runs
``pbem moves FILE --as NAME --json`` and plays one of the listed moves with ``pbem play``.
The choice is random (seeded): first a verb, then a move of that verb, so that every class
ability gets used. Asked for region cards (Africanus, T-7.3), a player reads its own hand
with ``pbem status --as NAME --json`` and plays only cards that show the icon of the class
they protect, as ``pbem`` would refuse the others. Older versions of the file are deleted
as the game goes on, as a mailbox would.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from pbem.games.rattus import data

AUTOMATIC = ("(automatic)", " to join")


def pbem(*args: str) -> dict[str, Any]:
    """Run one ``pbem`` command with ``--json``; stop the game on any failure."""
    done = subprocess.run(["pbem", *args, "--json"], capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"pbem {' '.join(args)} failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def honest(move: str, hand: dict[str, str]) -> bool:
    """Whether every region card a ``protect`` move plays shows its class's icon or "?"."""
    words = move.split()[1:]
    for card, name in zip(words[::2], words[1::2], strict=False):
        icons = data.region_cards()[hand[card]].icons
        if data.icons()[name] not in icons and data.WILD not in icons:
            return False
    return True


def choose(moves: list[str], game: Path, name: str, rng: random.Random) -> str:
    if moves[0].startswith("protect"):
        hand = pbem("status", str(game), "--as", name).get("private", {})
        return rng.choice([m for m in moves if honest(m, hand)])
    verb = rng.choice(sorted({m.split()[0] for m in moves}))
    return rng.choice([m for m in moves if m.split()[0] == verb])


def drive(game: Path, rng: random.Random) -> Path:
    awaiting = pbem("status", str(game))["next"]
    while True:
        if awaiting.startswith("nothing"):
            return game
        name = awaiting.split(" to ")[0].split(", ")[0]
        if awaiting.endswith(AUTOMATIC):
            report = pbem("play", str(game), "--as", name)
        else:
            listed = pbem("moves", str(game), "--as", name)  # reads only: signs nothing
            move = choose(listed["moves"], game, name, rng)
            report = pbem("play", str(game), move, "--as", name)
        new = Path(report["file"])
        if new != game:
            game.unlink()
        game, awaiting = new, report["next"]


if __name__ == "__main__":
    print(drive(Path(sys.argv[1]), random.Random(int(sys.argv[2]))))
