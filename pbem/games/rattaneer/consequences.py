"""What a step changed, in words, for ``pbem log`` and mail bodies: the Workshop's coins
paid out (R-6.1), cards handed over, henchmen spent in a battle (R-6.3.4), who went to the
Farm (R-5.4) and came back with a coin (R-6.6), the Tavern refilled at Night (R-7.B).

A plain comparison of the public state before and after the step: it says what happened,
whatever rule made it happen, and never more than the state shows.
"""

from __future__ import annotations

from typing import TypeVar

from pbem.format.words import plural
from pbem.games.rattaneer.state import State

T = TypeVar("T")


def _added(before: list[T], after: list[T]) -> list[T]:
    """What ``after`` holds beyond ``before`` (a multiset difference)."""
    left = list(before)
    out = []
    for card in after:
        if card in left:
            left.remove(card)
        else:
            out.append(card)
    return out


def _seat(before: State, after: State, seat: int) -> list[str]:
    """What changed for ``seat``. The coin a pirate brings back from the Farm (R-6.6) is
    said apart from the rest: the step that pays it is also a Tavern purchase, and one net
    figure read as a wrong price."""
    was, now = before.players[seat], after.players[seat]
    parts = []
    farm = _added(after.farm, before.farm).count(seat)  # its pirates back from the Farm
    coins = now.coins - was.coins - farm
    if coins:
        sign = "+" if coins > 0 else "-"
        parts.append(f"{sign}{plural(abs(coins), 'coin')}")
    if farm:
        parts.append(f"+{plural(farm, 'coin')} from the Farm (R-6.6)")
    if coins or farm:
        parts[-1] += f" (now {now.coins})"
    henchmen = now.henchmen - was.henchmen
    if henchmen:
        sign = "+" if henchmen > 0 else "-"
        spent = " spent" if henchmen < 0 else ""
        parts.append(f"{sign}{plural(abs(henchmen), 'henchman', 'henchmen')}{spent}")
    for noun, many, old, new in (
        ("companion", "companions", was.companions, now.companions),
        ("plunder card face up", "plunder cards face up", was.face_up, now.face_up),
        ("plunder card face down", "plunder cards face down", was.face_down, now.face_down),
        ("treasure card", "treasure cards", was.treasures, now.treasures),
    ):
        got = _added(old, new)
        if got:
            parts.append(f"+{plural(len(got), noun, many)} ({', '.join(got)})")
    return parts


def consequences(before: State, after: State, names: list[str]) -> list[str]:
    lines = []
    for seat, name in enumerate(names):
        parts = _seat(before, after, seat)
        if parts:
            lines.append(f"{name}: {', '.join(parts)}")
    if after.workshop != before.workshop:
        lines.append(f"Workshop: {plural(before.workshop, 'coin')} -> {after.workshop}")
    went = [names[s] for s in _added(before.farm, after.farm)]
    if went:
        lines.append(f"to the Farm: {', '.join(went)}")
    refilled = _added(before.tavern, after.tavern)
    if refilled:
        lines.append(f"Tavern: {plural(len(refilled), 'new companion')} ({', '.join(refilled)})")
    if (after.round, after.phase) != (before.round, before.phase) and after.phase == "morning":
        lines.append(f"round {after.round} begins")
    return lines
