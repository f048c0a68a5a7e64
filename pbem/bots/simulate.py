"""Playing a ruleset by the rules alone, with every face dealt: the world a search plays in.

The engine answers ``Chance``, ``Reveal`` and ``Reshuffle`` decisions with beacons and
decryption shares; here they are answered at once from a face for every handle, as a
shuffle would have dealt them (``faces``), and from a seeded stream (``chance``). This is
thousands of times faster than the engine and plays the same rules, so the tournaments of
``benchmarks/bots.py`` and the playouts of ``pbem.bots.mcts`` run here. The rules still see
hidden items as hidden: a private reveal only tells them that the seat has looked; the
world remembers what each seat was shown, to hand its bot the same ``Knowledge`` the
engine would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.crypto.randomness import Rng
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import (
    Bot,
    Chance,
    Decision,
    Over,
    Parallel,
    Reshuffle,
    Reveal,
    Ruleset,
    Turn,
)


@dataclass
class World:
    """A state, the face of each handle, what each seat has been shown, and the stream
    that resolves chance. It settles as soon as it is made and after every ``play``, so
    ``decision`` is a Turn, a Parallel or Over, never a step the engine would answer."""

    rules: Ruleset
    state: Any
    faces: dict[str, str]
    chance: Rng
    opened: list[dict[str, str]]
    decision: Decision = field(init=False)
    decisions: int = field(default=0, init=False)
    """Decisions played so far (a Parallel counts once)."""

    @classmethod
    def new(cls, rules: Ruleset, options: Mapping[str, Any], seats: int, rng: Rng) -> World:
        """A fresh game: every sealed deck dealt in a random order, as the setup shuffles
        would, then the setup played up to the first choice."""
        faces = {
            f"{deck}/{i}": item
            for deck, items in sorted(rules.sealed_decks(options, seats).items())
            for i, item in enumerate(rng.fork(f"deck {deck}").shuffle(sorted(items)))
        }
        opened: list[dict[str, str]] = [{} for _ in range(seats)]
        return cls(rules, rules.setup(options, seats), faces, rng.fork("chance"), opened)

    def __post_init__(self) -> None:
        self.settle()

    def knowledge(self, seat: int) -> Knowledge:
        """What the engine would hand ``seat``'s bot (nothing is sealed here: a parallel
        decision is answered all at once)."""
        return Knowledge(seat, self.opened[seat])

    def settle(self) -> None:
        """Answer every Chance, Reveal and Reshuffle, up to a choice or the end."""
        rules = self.rules
        while True:
            d = rules.pending(self.state)
            if isinstance(d, Chance):
                self.state = rules.resolve_chance(self.state, self.chance)
            elif isinstance(d, Reveal) and d.to is None:
                shown = {h: self.faces[h] for h in d.items}
                self.state = rules.apply_reveal(self.state, d, shown)
            elif isinstance(d, Reveal):
                self.opened[d.to].update({h: self.faces[h] for h in d.items})
                self.state = rules.apply_reveal(self.state, d, None)
            elif isinstance(d, Reshuffle):
                dealt = self.chance.shuffle(sorted(d.items))
                self.faces.update({f"{d.deck}/{i}": item for i, item in enumerate(dealt)})
                self.state = rules.apply_reshuffle(self.state, d)
            else:
                self.decision = d
                return

    def awaited(self) -> list[int]:
        """The seats that must choose now (none once the game is over)."""
        d = self.decision
        if isinstance(d, Turn):
            return [d.seat]
        return list(d.seats) if isinstance(d, Parallel) else []

    def over(self) -> bool:
        return isinstance(self.decision, Over)

    def play(self, actions: Mapping[int, Any]) -> None:
        """Apply the choice of every awaited seat (trusted: a search picks legal actions
        only; ``play_out`` checks bots' choices), then settle."""
        d = self.decision
        if isinstance(d, Turn):
            self.state = self.rules.apply(self.state, d.seat, actions[d.seat])
        else:
            self.state = self.rules.apply_parallel(self.state, actions)
        self.decisions += 1
        self.settle()


def play_out(world: World, bots: Sequence[Bot], rngs: Sequence[Rng], max_steps: int) -> Any:
    """Play ``world`` to its end with a bot per seat, each choice checked by the rules;
    return the ``Result``. Raises ``AssertionError`` if the game runs past ``max_steps``."""
    rules = world.rules
    for _ in range(max_steps):
        d = world.decision
        if isinstance(d, Over):
            return d.result
        actions = {}
        for seat in world.awaited():
            actions[seat] = bots[seat](rules, world.state, seat, world.knowledge(seat), rngs[seat])
            rules.check(world.state, seat, actions[seat])
        world.play(actions)
    raise AssertionError(f"no end after {max_steps} decisions")
