"""Scoring (T-8, T-9.4) and the winner (T-9.5)."""

from __future__ import annotations

from pbem.format.i18n import N_
from pbem.games.rattus import data, diplomats
from pbem.games.rattus.state import State, region
from pbem.ruleset.rules import Result

FIRST, SECOND, SHARED_FIRST = 4, 2, 6
"""Diplomat points (T-9.4): most, second most, and what a tie for most splits."""


def cube_points(s: State) -> list[int]:
    """T-9.4: cubes on the map and in the palace."""
    return [sum(r.cubes[seat] for r in s.regions) + s.palace[seat] for seat in range(s.seats)]


def card_points(s: State) -> list[int]:
    """T-8: 1 point per region named by a card in hand where the player still has cubes on
    the map; several cards naming one region score 1 in total."""
    if s.africa is None or s.africa.shown is None:
        return [0] * s.seats
    points = []
    for seat, hand in enumerate(s.africa.shown):
        named = {data.region_cards()[card].region for card in hand}
        points.append(sum(1 for name in named if region(s, name).cubes[seat]))
    return points


def diplomat_points(counts: list[int]) -> list[int]:
    """T-9.4 [rulings]: most 4, second most 2; a tie for most splits 6 (rounded down) and
    nobody is second; a tie for second splits 2; with 2 players only the most scores (a tie
    splits 4); a player without diplomats scores nothing."""
    points = [0] * len(counts)
    ranked = sorted({c for c in counts if c}, reverse=True)
    if not ranked:
        return points
    first = [seat for seat, c in enumerate(counts) if c == ranked[0]]
    pot = FIRST if len(counts) == 2 or len(first) == 1 else SHARED_FIRST
    for seat in first:
        points[seat] = pot // len(first)
    if len(first) == 1 and len(counts) > 2 and len(ranked) > 1:
        second = [seat for seat, c in enumerate(counts) if c == ranked[1]]
        for seat in second:
            points[seat] = SECOND // len(second)
    return points


def parts(s: State) -> list[tuple[int, int, int]]:
    """T-9.4 per seat: cubes, region cards (T-8), diplomats."""
    diplomat = diplomat_points([diplomats.count(s, seat) for seat in range(s.seats)])
    return list(zip(cube_points(s), card_points(s), diplomat, strict=True))


def result(s: State) -> Result:
    """T-9.5: most points wins; among tied players, the one who would have played next
    after the player who triggered the end (so that player loses every tie)."""
    assert s.trigger is not None
    split = parts(s)
    points = [sum(p) for p in split]
    best = max(points)
    after_trigger = [(s.trigger + k) % s.seats for k in range(1, s.seats + 1)]
    winner = next(seat for seat in after_trigger if points[seat] == best)
    tied = sum(p == best for p in points)
    summary = (
        N_("{points} points, a {tied}-way tie broken by turn order after the trigger (T-9.5)")
        if tied > 1
        else N_("{points} points")
    ).format(points=best, tied=tied)
    if s.africa is not None:
        by_seat = ", ".join("+".join(map(str, p)) for p in split)
        summary += "; " + N_("cubes+cards+diplomats by seat: {parts}").format(parts=by_seat)
    return Result(scores=points, winners=[winner], summary=summary)
