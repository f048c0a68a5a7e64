"""Complete games played by bots through the real file format.

Every step is signed by the bot's own identity, written to text, read back and verified by
a separate recipient replay, as a mail recipient would; the finished file is verified once
more from scratch. Everything (identities, game id, seals, bot choices) is derived from
the seed, so a run can be repeated exactly.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.core import gamefile
from pbem.core.author import act, automatic, knowledge, new_game
from pbem.core.errors import Rejected, UsageError
from pbem.core.files import atomic_write
from pbem.core.keys import Identity
from pbem.core.randomness import Rng
from pbem.core.replay import Replay, replay_file
from pbem.core.rules import Bot, Result, RulesError, Ruleset

MAX_STEPS = 20000


@dataclass
class GameReport:
    seed: int
    steps: int
    bytes: int
    result: Result
    path: Path | None


def bot_identities(seed: int, players: int) -> list[Identity]:
    """Deterministic throwaway identities for a seeded run (never for real games)."""
    base = hashlib.sha256(b"pbem/1/selfplay\0" + str(seed).encode()).digest()
    return [
        Identity(
            hashlib.sha256(base + bytes([i])).digest(), f"bot{i + 1}", f"bot{i + 1}@example.org"
        )
        for i in range(players)
    ]


class _Entropy:
    """Seeded bytes for game ids, salts and nonces, so that a seed fixes the whole file."""

    def __init__(self, rng: Rng) -> None:
        self._rng = rng

    def __call__(self, n: int) -> bytes:
        return bytes(self._rng.below(256) for _ in range(n))


def resolve_bot(rules: Ruleset, bot: str | Bot) -> Bot:
    """A bot given by name, or the bot itself; an unknown name is a usage error."""
    if not isinstance(bot, str):
        return bot
    try:
        return rules.bot(bot)
    except RulesError as exc:
        raise UsageError(str(exc)) from exc


def play_game(
    rules: Ruleset,
    players: int,
    seed: int,
    options: dict[str, Any],
    bots: Sequence[str | Bot],
    out: Path | None = None,
) -> GameReport:
    """Play one complete game; raise ``Rejected`` if anything fails to verify. ``bots`` are
    cycled over the seats: names (``greedy``, ``mcts:200``) or bots themselves."""
    seat_bots = [resolve_bot(rules, b) for b in bots]
    identities = bot_identities(seed, players)
    rng = Rng(hashlib.sha256(b"pbem/1/selfplay-rng\0" + str(seed).encode()).digest())
    entropy = _Entropy(rng.fork("entropy"))
    bot_rngs = [rng.fork(f"bot{i}") for i in range(players)]
    author = new_game(rules, options, [i.card for i in identities], identities[0], entropy=entropy)
    text = gamefile.encode(author.to_file())
    recipient = Replay.start(gamefile.decode(text).genesis, rules)
    while author.result is None:
        if len(author.steps) > MAX_STEPS:
            raise Rejected(f"selfplay seed {seed}: no end after {MAX_STEPS} steps")
        seat = author.remaining()[0]
        me = identities[seat]
        if not automatic(author, me):
            bot = seat_bots[seat % len(seat_bots)]
            choice = bot(rules, author.state, seat, knowledge(author, me), bot_rngs[seat])
            act(author, me, choice, entropy=entropy)
        text = gamefile.encode(author.to_file())
        recipient.extend(gamefile.decode(text))
    final = replay_file(gamefile.decode(text), rules)
    assert final.result is not None
    path = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{rules.id}-{players}p-seed{seed}.json"
        atomic_write(path, text.encode())
    return GameReport(seed, len(final.steps), len(text.encode()), final.result, path)
