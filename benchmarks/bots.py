"""Bot tournaments by the rules alone: one ``lead`` bot against a field of another bot.

Each game seats the lead bot once and the field bot in every other seat, the lead's seat
rotating with the game number, on a world dealt from the game's seed
(``pbem.bots.simulate``: the rules alone, no file, no crypto). A shared win counts as a
fractional win (1/k for each of k winners). Prints the lead's wins and its share, the mean
time per decision of the lead and of one whole rules-only game of ``random`` bots timed in
the same run, and their ratio. Nothing here asserts a time.

Run: ``.venv/bin/python benchmarks/bots.py GAME [LEAD] [FIELD] [GAMES] [SEATS] [FIRST]`` with
GAME ``rattaneer``, ``rattus`` (base game) or ``africanus``; e.g.
``benchmarks/bots.py rattaneer mcts greedy 200`` or ``benchmarks/bots.py rattus greedy random``.
FIRST (default 0) is the number of the first game: every game is dealt from its own number, so
``... 100 4 0`` and ``... 100 4 100`` on two cores play exactly the games of ``... 200``.
A decision's time is given both as wall-clock and as the CPU time of this process, which a
loaded machine does not inflate.
"""

from __future__ import annotations

import hashlib
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.bots.simulate import World, play_out
from pbem.crypto.randomness import Rng
from pbem.ruleset import registry
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import Bot, Ruleset

GAMES: dict[str, tuple[str, dict[str, str]]] = {
    "rattaneer": ("rattaneer", {}),
    "rattus": ("rattus", {}),
    "africanus": ("rattus", {"africanus": "on"}),
}
MAX_DECISIONS = 20000


@dataclass
class Timed:
    """A bot that keeps the time it spends and how often it is asked."""

    bot: Bot
    seconds: float = 0.0
    cpu: float = 0.0
    calls: int = 0
    longest: float = 0.0

    def __call__(
        self, rules: Ruleset, state: Any, seat: int, knowledge: Knowledge, rng: Rng
    ) -> Any:
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            return self.bot(rules, state, seat, knowledge, rng)
        finally:
            spent = time.perf_counter() - start
            self.seconds += spent
            self.cpu += time.process_time() - start_cpu
            self.calls += 1
            self.longest = max(self.longest, spent)


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    lines: list[str] = field(default_factory=list)


def seeded(label: str, game: int) -> Rng:
    return Rng(hashlib.sha256(f"pbem/bench/bots/{label}/{game}".encode()).digest())


def tournament(
    rules: Ruleset,
    options: dict[str, Any],
    lead: Timed,
    others: Bot,
    games: range,
    seats: int,
) -> Tally:
    tally = Tally()
    for game in games:
        seat = game % seats
        bots = [lead if s == seat else others for s in range(seats)]
        rng = seeded("game", game)
        world = World.new(rules, options, seats, rng.fork("world"))
        rngs = [rng.fork(f"bot {s}") for s in range(seats)]
        result = play_out(world, bots, rngs, MAX_DECISIONS)
        share = 1 / len(result.winners) if seat in result.winners else 0.0
        tally.games += 1
        tally.wins += share
        tally.lines.append(f"game {game}: lead in seat {seat}, scores {result.scores}, {share:g}")
        print(tally.lines[-1], flush=True)
    return tally


def random_game_seconds(
    rules: Ruleset, options: dict[str, Any], seats: int, games: int
) -> tuple[float, float]:
    """Mean wall and CPU seconds of one whole rules-only game of ``random`` bots: the baseline."""
    bot = rules.bot("random")
    start, start_cpu = time.perf_counter(), time.process_time()
    for game in range(games):
        rng = seeded("baseline", game)
        world = World.new(rules, options, seats, rng.fork("world"))
        play_out(world, [bot] * seats, [rng.fork(f"bot {s}") for s in range(seats)], MAX_DECISIONS)
    return (time.perf_counter() - start) / games, (time.process_time() - start_cpu) / games


def main() -> None:
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        return
    args = sys.argv[1:]
    name = args[0] if args else "rattaneer"
    lead_name = args[1] if len(args) > 1 else "mcts"
    field_name = args[2] if len(args) > 2 else "greedy"
    games = int(args[3]) if len(args) > 3 else 20
    seats = int(args[4]) if len(args) > 4 else 4
    first = int(args[5]) if len(args) > 5 else 0
    ruleset, raw = GAMES[name]
    rules = registry.get(ruleset)
    options = rules.parse_options(raw)
    lead = Timed(rules.bot(lead_name))
    print(
        f"{name}: 1 {lead_name} against {seats - 1} {field_name}, games {first} to"
        f" {first + games - 1}, seats rotated"
    )
    numbers = range(first, first + games)
    tally = tournament(rules, options, lead, rules.bot(field_name), numbers, seats)
    baseline, baseline_cpu = random_game_seconds(rules, options, seats, 20)
    per_decision = lead.seconds / max(lead.calls, 1)
    per_decision_cpu = lead.cpu / max(lead.calls, 1)
    print(
        f"{name}: {lead_name} won {tally.wins:g} of {tally.games} games"
        f" ({100 * tally.wins / tally.games:.1f}%; a shared win counts 1/k; an equal bot"
        f" would win {100 / seats:.0f}%)"
    )
    print(
        f"{name}: {lead_name} {per_decision * 1000:.1f} ms a decision ({lead.calls} decisions,"
        f" the longest {lead.longest * 1000:.0f} ms); one rules-only random game"
        f" {baseline * 1000:.1f} ms; ratio {per_decision / baseline:.2f} random games a"
        f" decision (the longest {lead.longest / baseline:.1f})"
    )
    print(
        f"{name}: {lead_name} {per_decision_cpu * 1000:.1f} ms CPU a decision; one rules-only"
        f" random game {baseline_cpu * 1000:.1f} ms CPU; ratio"
        f" {per_decision_cpu / baseline_cpu:.2f}"
    )


if __name__ == "__main__":
    main()
