"""Scoring (T-9.4) and the winner (T-9.5)."""

from __future__ import annotations

from pbem.core.rules import Result
from pbem.games.rattus.state import State


def scores(s: State) -> list[int]:
    """T-9.4: cubes on the map and in the palace."""
    return [sum(r.cubes[seat] for r in s.regions) + s.palace[seat] for seat in range(s.seats)]


def result(s: State) -> Result:
    """T-9.5: most points wins; among tied players, the one who would have played next
    after the player who triggered the end (so that player loses every tie)."""
    assert s.trigger is not None
    points = scores(s)
    best = max(points)
    after_trigger = [(s.trigger + k) % s.seats for k in range(1, s.seats + 1)]
    winner = next(seat for seat in after_trigger if points[seat] == best)
    tied = sum(p == best for p in points)
    summary = f"{best} points"
    if tied > 1:
        summary += f", a {tied}-way tie broken by turn order after the trigger (T-9.5)"
    return Result(scores=points, winners=[winner], summary=summary)
