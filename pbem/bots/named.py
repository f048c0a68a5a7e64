"""Bots by name, whatever the game: ``pbem.bots.get("mcts:16")``.

A game's bots live in its package (``Ruleset.bots``), so a name means a bot only once the
game is known. ``get`` checks that some installed game has a bot of that name and returns
a bot that asks each game it plays for its own of that name (``Ruleset.bot``), as
``pbem selfplay --bot`` and ``pbem watch --bot`` do.
"""

from __future__ import annotations

from typing import Any

from pbem.crypto.randomness import Rng
from pbem.format.errors import UsageError
from pbem.ruleset import registry
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import RulesError, Ruleset


class NamedBot:
    """The bot ``spec`` of whichever game it is asked to play: a ``pbem.ruleset.rules.Bot``."""

    def __init__(self, spec: str) -> None:
        self.spec = spec

    def __call__(
        self, rules: Ruleset, state: Any, seat: int, knowledge: Knowledge, rng: Rng
    ) -> Any:
        try:
            bot = rules.bot(self.spec)
        except RulesError as exc:
            raise UsageError(str(exc)) from exc
        return bot(rules, state, seat, knowledge, rng)

    def __repr__(self) -> str:
        return f"pbem.bots.get({self.spec!r})"


def get(spec: str) -> NamedBot:
    """The bot named ``spec``: ``random``, ``greedy``, ``mcts``, ``mcts:N`` (N iterations
    a decision), or any other name an installed game gives one of its bots. A name no
    installed game knows is refused at once (``pbem.UsageError``)."""
    known: set[str] = set()
    for target in registry.available().values():
        rules = registry.instance(target)
        try:
            rules.bot(spec)
        except RulesError:
            known.update(rules.bots())
            continue
        return NamedBot(spec)
    raise UsageError(f"unknown bot {spec!r} (installed games have: {', '.join(sorted(known))})")
