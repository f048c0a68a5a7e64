"""Fixtures for the Rattaneer rules tests: a seeded table to hand-build positions on, and
drivers that apply typed moves through the ruleset exactly as a player would."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pbem.crypto.randomness import Rng
from pbem.games.rattaneer import Rattaneer, State, day
from pbem.ruleset.rules import Parallel, Turn


@pytest.fixture(scope="session")
def rules() -> Rattaneer:
    return Rattaneer()


@pytest.fixture
def table(rules: Rattaneer) -> Callable[..., State]:
    """A state at the first Morning, start seat fixed, after a seeded setup draw. Tests then
    set the fields their position needs (sea cards, coins, henchmen, ...)."""

    def make(seats: int = 4, start: int = 0, **options: str) -> State:
        raw = {"start_seat": str(start), **options}
        state = rules.setup(rules.parse_options(raw), seats)
        return rules.resolve_chance(state, Rng(bytes(32)))

    return make


@pytest.fixture
def reveal(rules: Rattaneer) -> Callable[[State, dict[int, str]], State]:
    """Apply typed morning placements of every seat (checked, as the engine does)."""

    def run(state: State, placements: dict[int, str]) -> State:
        assert isinstance(rules.pending(state), Parallel)
        actions = {seat: rules.parse_action(state, seat, text) for seat, text in placements.items()}
        for seat, action in actions.items():
            rules.check(state, seat, action)
        return rules.apply_parallel(state, actions)

    return run


@pytest.fixture
def play(rules: Rattaneer) -> Callable[..., State]:
    """Apply typed moves, each by the seat the pending Turn awaits."""

    def run(state: State, *moves: str) -> State:
        for text in moves:
            decision = rules.pending(state)
            assert isinstance(decision, Turn), f"no Turn pending before {text!r}: {decision}"
            action = rules.parse_action(state, decision.seat, text)
            rules.check(state, decision.seat, action)
            state = rules.apply(state, decision.seat, action)
        return state

    return run


@pytest.fixture
def awaited(rules: Rattaneer) -> Callable[[State], tuple[int, str]]:
    """The seat of the pending Turn and the kind of its choice, e.g. ``(2, "take")``."""

    def which(state: State) -> tuple[int, str]:
        decision = rules.pending(state)
        assert isinstance(decision, Turn), decision
        return decision.seat, day.kind(state)

    return which
