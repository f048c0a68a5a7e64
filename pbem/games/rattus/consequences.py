"""What a step changed, in words, for ``pbem log`` and mail bodies: cubes lost to the
plague (T-7), rat tokens turned over (T-7.1), class cards changing hands (T-5), cubes sent
to the palace, region cards drawn (T-6), the plague moving.

A plain comparison of the public state before and after the step: it says what happened,
whatever rule made it happen, and never more than the state shows (a hand is counted, its
cards are sealed).
"""

from __future__ import annotations

from pbem.format.words import plural
from pbem.games.rattus.state import State
from pbem.games.rattus.topics import face_effect


def _cubes(state: State, seat: int) -> int:
    return sum(region.cubes[seat] for region in state.regions)


def _signed(count: int, noun: str, many: str | None = None) -> str:
    return ("+" if count > 0 else "-") + plural(abs(count), noun, many)


def _seat(before: State, after: State, seat: int) -> list[str]:
    parts = []
    board = _cubes(after, seat) - _cubes(before, seat)
    if board:
        parts.append(f"{_signed(board, 'cube')} on the board (now {_cubes(after, seat)})")
    palace = after.palace[seat] - before.palace[seat]
    if palace:
        parts.append(f"{_signed(palace, 'cube')} in the palace")
    if before.africa is not None and after.africa is not None:
        hand = len(after.africa.hands[seat]) - len(before.africa.hands[seat])
        if hand:
            parts.append(f"{_signed(hand, 'region card')} in hand")
    held = {c.name: c.holder for c in before.cards}
    taken = [c.name for c in after.cards if c.holder == seat and held.get(c.name) != seat]
    if taken:
        parts.append(f"takes {', '.join(taken)}")
    return parts


def consequences(before: State, after: State, names: list[str]) -> list[str]:
    lines = []
    for token in after.revealed[len(before.revealed) :]:
        lost = [f"{names[s]} {n}" for s, n in enumerate(token.losses) if n]
        outbreak = "breaks out" if token.broke_out else "does not break out"
        losses = f"; lost: {', '.join(lost)}" if lost else ""
        lines.append(f"rat token in {token.region}: {outbreak}{losses} ({face_effect(token.face)})")
    for seat, name in enumerate(names):
        parts = _seat(before, after, seat)
        if parts:
            lines.append(f"{name}: {', '.join(parts)}")
    if after.plague != before.plague and after.plague is not None and before.plague is not None:
        lines.append(f"the plague moves to {after.plague}")
    return lines
