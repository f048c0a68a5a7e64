"""Complete games played by bots through the real file format.

Every entry and envelope is signed by the bot's own identity, written to text, read back
and verified by a separate recipient as a mail recipient would (signature, link, rules,
sealed openings, shares, proofs), one at a time, so a game costs time in proportion to its
length; the finished file is written and verified once more from scratch. Everything
(identities, game id, seals, bot choices) is derived from the seed, so a run can be
repeated exactly.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.crypto.keys import Identity
from pbem.crypto.randomness import Rng
from pbem.format import gamefile
from pbem.format.canonical import canonical
from pbem.format.errors import Rejected, UsageError
from pbem.format.files import write_new
from pbem.format.gamefile import Envelope
from pbem.ledger.replay import Replay, replay_file
from pbem.play.author import act, automatic, knowledge, new_game
from pbem.play.signer import MemoryJournal
from pbem.ruleset.rules import Bot, Result, RulesError, Ruleset

MAX_STEPS = 20000


@dataclass
class GameReport:
    seed: int
    steps: int
    bytes: int
    result: Result
    path: Path | None
    text: str
    """The finished file."""


def bot_identities(seed: int, players: int) -> list[Identity]:
    """Deterministic throwaway identities for a seeded run (never for real games)."""
    base = hashlib.sha256(b"pbem/1/selfplay\0" + str(seed).encode()).digest()
    return [
        Identity(
            hashlib.sha256(base + bytes([i])).digest(), f"bot{i + 1}", f"bot{i + 1}@example.org"
        )
        for i in range(players)
    ]


class StepClock:
    """Claimed times for a seeded run: a fixed start, one minute more at every signature,
    so that a seed fixes the whole file."""

    START = 1_767_225_600  # 2026-01-01T00:00:00Z

    def __init__(self) -> None:
        self._ticks = 0

    def __call__(self) -> int:
        self._ticks += 1
        return self.START + 60 * self._ticks


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


def file_name(rules: Ruleset, players: int, seed: int, options: dict[str, Any]) -> str:
    """``rattus-africanus-4p-seed3.json``: the ruleset, the options that differ from its
    defaults, the players and the seed, so that games of two set-ups never share a name."""
    defaults = rules.parse_options({})
    words = [rules.id]
    for key, value in sorted(options.items()):
        if defaults.get(key) == value:
            continue
        if isinstance(value, bool):
            words.append(key if value else f"no-{key}")
        else:
            text = "+".join(map(str, value)) if isinstance(value, list) else str(value)
            words.append(f"{key}{text}" if len(text) <= 24 else f"{key}{short_hash(text)}")
    words.append(f"{players}p-seed{seed}")
    return re.sub(r"[^A-Za-z0-9+_-]", "-", "-".join(words)) + ".json"


def short_hash(text: str) -> str:
    """Eight hex digits standing for a long option value in a file name."""
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def play_game(
    rules: Ruleset,
    players: int,
    seed: int,
    options: dict[str, Any],
    bots: Sequence[str | Bot],
    out: Path | None = None,
    observe: Callable[[Replay], None] | None = None,
) -> GameReport:
    """Play one complete game; raise ``Rejected`` if anything fails to verify. ``bots`` are
    cycled over the seats: names (``greedy``, ``mcts:200``) or bots themselves. ``observe``
    is shown the author's replay after every signature (a test that scans every version of
    the file for what must stay hidden)."""
    seat_bots = [resolve_bot(rules, b) for b in bots]
    path = out / file_name(rules, players, seed, options) if out is not None else None
    if path is not None and path.exists():
        raise UsageError(f"{path}: exists already; pbem never writes over a file (another --out)")
    identities = bot_identities(seed, players)
    rng = Rng(hashlib.sha256(b"pbem/1/selfplay-rng\0" + str(seed).encode()).digest())
    entropy = _Entropy(rng.fork("entropy"))
    bot_rngs = [rng.fork(f"bot{i}") for i in range(players)]
    clock = StepClock()
    journal = MemoryJournal()  # the game's own: gone with it, however many games a run plays
    author = new_game(
        rules, options, [i.card for i in identities], identities[0], entropy=entropy, clock=clock
    )
    recipient = Replay.start(gamefile.decode(gamefile.encode(author.to_file())).genesis, rules)
    sent = 0
    while author.result is None:
        if len(author.steps) > MAX_STEPS:
            raise Rejected(f"selfplay seed {seed}: no end after {MAX_STEPS} steps")
        seat = author.remaining()[0]
        me = identities[seat]
        if not automatic(author, me, clock=clock, journal=journal):
            bot = seat_bots[seat % len(seat_bots)]
            action = bot(rules, author.state, seat, knowledge(author, me), bot_rngs[seat])
            act(author, me, action, entropy=entropy, clock=clock, journal=journal)
        for _, item in author.taken[sent:]:  # what travelled since, as text, one by one
            received = gamefile.decode_item(canonical(item.model_dump(mode="json")))
            if isinstance(received, Envelope):
                recipient.add_envelope(received)
            else:
                recipient.add(received)
        sent = len(author.taken)
        if observe is not None:
            observe(author)
    text = gamefile.encode(author.to_file())
    final = replay_file(gamefile.decode(text), rules)
    assert final.result is not None
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not write_new(path, text.encode()):
            raise UsageError(f"{path}: exists already; pbem never writes over a file")
    return GameReport(seed, len(final.steps), len(text.encode()), final.result, path, text)
