"""``verify``: the auditor's check of one game file, as ``pbem verify`` makes it.

It trusts nothing but the file and the rules installed: no store, no checkpoint. Every
signature, link, beacon, sealed opening, share, shuffle proof and rule is checked again
from the genesis, and the file's cached state must be the replay's (architecture §3).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pbem.format import gamefile
from pbem.ledger.awaiting import describe_awaiting
from pbem.ledger.replay import replay_file
from pbem.ruleset import registry
from pbem.ruleset.rules import Result


@dataclass(frozen=True)
class Verdict:
    """A file that verified: its game, how many steps, what it awaits, its result."""

    path: Path
    game: str
    ruleset: str
    steps: int
    next: str
    """Who must do what next, in words (``nothing: the game is over`` at the end)."""
    result: Result | None


def verify(path: str | Path) -> Verdict:
    """Verify the game file at ``path`` from its genesis. A file that any check refuses
    raises ``pbem.Rejected`` naming the step, the seat and the reason; one that cannot be
    read, ``pbem.UsageError``."""
    game = gamefile.read(Path(path))
    replay = replay_file(game, registry.get(game.genesis.ruleset.id))
    return Verdict(
        path=Path(path),
        game=game.genesis.game,
        ruleset=game.genesis.ruleset.id,
        steps=len(replay.steps),
        next=describe_awaiting(replay),
        result=replay.result,
    )
