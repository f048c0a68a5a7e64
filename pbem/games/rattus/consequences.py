"""What a step changed, in words, for ``pbem log`` and mail bodies: cubes lost to the
plague (T-7), rat tokens turned over (T-7.1), class cards changing hands (T-5), cubes sent
to the palace, region cards drawn (T-6), the plague moving.

A plain comparison of the public state before and after the step: it says what happened,
whatever rule made it happen, and never more than the state shows (a hand is counted, its
cards are sealed).
"""

from __future__ import annotations

from pbem.format.i18n import N_
from pbem.games.rattus.state import State
from pbem.games.rattus.topics import face_effect


def _cubes(state: State, seat: int) -> int:
    return sum(region.cubes[seat] for region in state.regions)


def _signed(count: int, one: str, many: str, **values: object) -> str:
    """``one`` or ``many`` (a template of ``{count}``) with the count signed: ``+1 cube``,
    ``-3 cubes``; the two forms are two messages, for the catalogs."""
    sign = "+" if count > 0 else "-"
    return (one if abs(count) == 1 else many).format(count=f"{sign}{abs(count)}", **values)


def _seat(before: State, after: State, seat: int) -> list[str]:
    parts = []
    board = _cubes(after, seat) - _cubes(before, seat)
    if board:
        parts.append(
            _signed(
                board,
                N_("{count} cube on the board (now {now})"),
                N_("{count} cubes on the board (now {now})"),
                now=_cubes(after, seat),
            )
        )
    palace = after.palace[seat] - before.palace[seat]
    if palace:
        parts.append(
            _signed(palace, N_("{count} cube in the palace"), N_("{count} cubes in the palace"))
        )
    if before.africa is not None and after.africa is not None:
        hand = len(after.africa.hands[seat]) - len(before.africa.hands[seat])
        if hand:
            parts.append(
                _signed(hand, N_("{count} region card in hand"), N_("{count} region cards in hand"))
            )
    held = {c.name: c.holder for c in before.cards}
    taken = [c.name for c in after.cards if c.holder == seat and held.get(c.name) != seat]
    if taken:
        parts.append(N_("takes {cards}").format(cards=", ".join(taken)))
    return parts


def consequences(before: State, after: State, names: list[str]) -> list[str]:
    lines = []
    for token in after.revealed[len(before.revealed) :]:
        lost = [f"{names[s]} {n}" for s, n in enumerate(token.losses) if n]
        if lost:
            said = N_("rat token in {region}: breaks out; lost: {lost} ({effect})")
        elif token.broke_out:
            said = N_("rat token in {region}: breaks out ({effect})")
        else:
            said = N_("rat token in {region}: does not break out ({effect})")
        lines.append(
            said.format(region=token.region, lost=", ".join(lost), effect=face_effect(token.face))
        )
    for seat, name in enumerate(names):
        parts = _seat(before, after, seat)
        if parts:
            lines.append(f"{name}: {', '.join(parts)}")
    if after.plague != before.plague and after.plague is not None and before.plague is not None:
        lines.append(N_("the plague moves to {region}").format(region=after.plague))
    return lines
