"""The Sultan's diplomats (T-6.9): one per player per region, always under a cube of its
owner, moving with that cube and dying with the last cube of its owner there.

Cubes are counted, not tracked one by one, so "the cube on the diplomat" is the last cube a
player has in a region: hits take ordinary cubes first, and a move that takes every cube
must take the diplomat along. Moves name whether the diplomat's cube goes (``diplomat``).
"""

from __future__ import annotations

from pbem.format.i18n import N_
from pbem.games.rattus.state import State, africa, region
from pbem.ruleset.rules import RulesError

SUPPLY = 15
"""Diplomat tokens beside the board when the Sultan is in play (T-1, T-3.6)."""


def has(s: State, seat: int, name: str) -> bool:
    """Whether ``seat`` has its diplomat in region ``name``."""
    return s.africa is not None and name in s.africa.diplomats[seat]


def move_problem(
    s: State, seat: int, source: str, moving: int, along: bool, target: str | None
) -> str | None:
    """Why moving ``moving`` of ``seat``'s cubes out of ``source`` (to region ``target``, or
    to the palace when None), the diplomat's cube along or not, is illegal; None if legal."""
    here = has(s, seat, source)
    if along and not here:
        return N_("T-6.9: you have no diplomat in {source}").format(source=source)
    if here and not along and moving >= region(s, source).cubes[seat]:
        return N_(
            "T-6.9: your diplomat in {source} stays under its cube: take it along "
            "('diplomat') or leave a cube there"
        ).format(source=source)
    if along and target is not None and has(s, seat, target):
        return N_("T-6.9: you would have two diplomats in {target}").format(target=target)
    return None


def move(s: State, seat: int, source: str, moving: int, along: bool, target: str | None) -> None:
    """Check a cube move for its diplomat and carry the diplomat along if it goes."""
    problem = move_problem(s, seat, source, moving, along, target)
    if problem:
        raise RulesError(problem)
    if not along:
        return
    table = africa(s)
    table.diplomats[seat] = [n for n in table.diplomats[seat] if n != source]
    if target is None:
        table.palace_diplomats[seat] += 1
    else:
        table.diplomats[seat] = _sorted(s, [*table.diplomats[seat], target])


def flags(s: State, seat: int, source: str, moving: int, target: str | None) -> list[bool]:
    """The legal values of ``diplomat`` for such a move (none: the move is illegal)."""
    return [f for f in (False, True) if move_problem(s, seat, source, moving, f, target) is None]


def place(s: State, seat: int, name: str) -> None:
    """T-6.9: a diplomat from the supply under one of ``seat``'s cubes in ``name``."""
    table = africa(s)
    if table.diplomat_supply == 0:
        raise RulesError(
            N_("T-6.9: all {supply} diplomats are on the board or in the palace").format(
                supply=SUPPLY
            )
        )
    if not region(s, name).cubes[seat]:
        raise RulesError(
            N_("T-6.9: you have no cube in {name} to put a diplomat under").format(name=name)
        )
    if has(s, seat, name):
        raise RulesError(N_("T-6.9: you have a diplomat in {name} already").format(name=name))
    table.diplomat_supply -= 1
    table.diplomats[seat] = _sorted(s, [*table.diplomats[seat], name])


def after_loss(s: State, seat: int, name: str) -> None:
    """T-6.9: ordinary cubes die first; when the last one goes, so does the diplomat, back
    to the supply."""
    if has(s, seat, name) and not region(s, name).cubes[seat]:
        table = africa(s)
        table.diplomats[seat] = [n for n in table.diplomats[seat] if n != name]
        table.diplomat_supply += 1


def count(s: State, seat: int) -> int:
    """Diplomats ``seat`` has at the end: on the board and in the palace (T-9.4)."""
    if s.africa is None:
        return 0
    return len(s.africa.diplomats[seat]) + s.africa.palace_diplomats[seat]


def _sorted(s: State, names: list[str]) -> list[str]:
    order = {r.name: i for i, r in enumerate(s.regions)}
    return sorted(names, key=order.__getitem__)
