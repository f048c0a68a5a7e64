"""Building games step by step for tests, and forging steps the way an attacker would."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from pbem.cli.main import main
from pbem.crypto.keys import Identity
from pbem.crypto.randomness import Rng
from pbem.crypto.signatures import sign_item
from pbem.format.gamefile import Entry, Envelope, GameFile
from pbem.ledger.replay import Replay
from pbem.play.author import act, automatic, new_game
from pbem.play.selfplay import StepClock, bot_identities
from pbem.play.signer import next_preimage
from pbem.ruleset import registry
from tests.rulesets.guess import Guess

CLOCK_START = StepClock.START


def fixed_clock() -> int:
    """One claimed time for every signature of a test: a step signed twice on two copies
    is then the same step, as the store's journal makes it for players."""
    return CLOCK_START


class Seeded:
    """Deterministic entropy for seals and game ids."""

    def __init__(self, seed: int = 7) -> None:
        self.rng = Rng(seed.to_bytes(32, "big"))

    def __call__(self, n: int) -> bytes:
        return bytes(self.rng.below(256) for _ in range(n))


def guess_game(players: int = 2, seed: int = 1, **options: str) -> tuple[Replay, list[Identity]]:
    """A ``guess`` game created by seat 0, joined and set up, awaiting the sealed guesses."""
    rules = registry.get("guess")
    ids = bot_identities(seed, players)
    replay = new_game(
        rules,
        rules.parse_options(options),
        [i.card for i in ids],
        ids[0],
        entropy=Seeded(seed),
        clock=fixed_clock,
    )
    for ident in ids:
        automatic(replay, ident, clock=fixed_clock)
    for ident in ids:
        automatic(replay, ident, clock=fixed_clock)
    return replay, ids


def commit_all(replay: Replay, ids: list[Identity], values: list[int]) -> None:
    for ident, value in zip(ids, values, strict=True):
        act(replay, ident, Guess(value=value), entropy=Seeded(value), clock=fixed_clock)


def signed(identity: Identity, item: Any) -> Any:
    """Sign an arbitrary entry or envelope (forging is just signing what you like)."""
    return sign_item(identity, item)


def resign_last(game: GameFile, identity: Identity, **changes: Any) -> GameFile:
    """Replace the last single entry with a changed copy, properly signed by ``identity``."""
    last = game.steps[-1]
    assert isinstance(last, Entry)
    forged = signed(identity, last.model_copy(update=changes))
    return game.model_copy(update={"steps": [*game.steps[:-1], forged]})


def forged_envelope(
    replay: Replay, identity: Identity, seat: int, body: dict[str, Any], **fields: Any
) -> Envelope:
    """An envelope for the awaited decision, signed by ``identity`` for ``seat`` with the
    seat's next preimage: everything right but what ``body`` and ``fields`` change."""
    aw = replay.awaiting
    defaults = {
        "kind": "envelope",
        "game": replay.genesis.game,
        "parent": aw.parent,
        "decision": aw.decision,
        "time": CLOCK_START,
        "preimage": next_preimage(replay, identity, seat),
        "notes": [],
        "signature": "",
    }
    return signed(
        identity, Envelope.model_construct(seat=seat, body=body, **{**defaults, **fields})
    )


def forged_entry(
    replay: Replay, identity: Identity, seat: int, kind: str, body: dict[str, Any]
) -> Entry:
    """A single entry on the current head, signed by ``identity`` with its next preimage."""
    entry = Entry.model_construct(
        kind=kind,
        game=replay.genesis.game,
        parent=replay.awaiting.parent,
        seat=seat,
        time=CLOCK_START,
        body=body,
        preimage=next_preimage(replay, identity, seat),
        notes=[],
        signature="",
    )
    return signed(identity, entry)


def play_until(
    replay: Replay, ids: list[Identity], stop: Callable[[Replay], bool], seed: bytes = b"play"
) -> None:
    """Random legal play (and every automatic step) until ``stop(replay)`` holds."""
    rng = Rng(seed)
    seals = Seeded(len(seed))
    while not stop(replay):
        seat = replay.remaining()[0]
        if not automatic(replay, ids[seat], clock=fixed_clock):
            action = replay.rules.random_action(replay.state, seat, rng)
            act(replay, ids[seat], action, entropy=seals, clock=fixed_clock)


# ----- commands, as a player types them -------------------------------------------------------


def pbem(*args: str | Path) -> Result:
    """Run one ``pbem`` command in this process; an exception escaping it fails the test
    (a command must end in one line, never a traceback)."""
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def ok(*args: str | Path) -> Result:
    """Run a command that must succeed."""
    result = pbem(*args)
    assert result.exit_code == 0, result.output
    return result


def new_keys(*names: str) -> None:
    """An identity for each name in this home, without a passphrase, at NAME@example.org."""
    for name in names:
        ok("key", "new", name, "--email", f"{name}@example.org", "--no-passphrase")


def report(*args: str | Path) -> dict[str, Any]:
    """A successful command's ``--json`` report."""
    return json.loads(ok(*args, "--json").stdout)


#: Every command that takes a game file, with what else it needs.
FILE_COMMANDS = [
    ["verify"],
    ["log"],
    ["status"],
    ["show", "-o", "page.html"],
    ["merge", "-o", "merged.json"],
    ["moves", "--as", "ann"],
    ["play", "--as", "ann"],
    ["send", "--as", "ann", "--eml", "out.eml"],
    ["export", "-o", "copy.json"],
    ["call", "-", "bea", "--as", "ann"],
    ["resign", "--as", "ann"],
    ["handover", "--to", "bea", "--as", "ann"],
]
