"""What a step changed, in words, for ``pbem log`` and mail bodies: the Workshop's coins
paid out (R-6.1), cards handed over, henchmen spent in a battle (R-6.3.4), who went to the
Farm (R-5.4) and came back with a coin (R-6.6), the Tavern refilled at Night (R-7.B).

A plain comparison of the public state before and after the step: it says what happened,
whatever rule made it happen, and never more than the state shows.
"""

from __future__ import annotations

from typing import TypeVar

from pbem.format.i18n import N_
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
    if coins:  # before the Farm's coin, if any: the purchase's own price stays plain
        parts.append(
            _signed(
                coins,
                N_("{count} coin (now {now})"),
                N_("{count} coins (now {now})"),
                now=now.coins - farm,
            )
        )
    if farm:
        parts.append(
            _signed(
                farm,
                N_("{count} coin from the Farm (R-6.6) (now {now})"),
                N_("{count} coins from the Farm (R-6.6) (now {now})"),
                now=now.coins,
            )
        )
    henchmen = now.henchmen - was.henchmen
    if henchmen > 0:
        parts.append(
            _signed(
                henchmen,
                N_("{count} henchman (now {now})"),
                N_("{count} henchmen (now {now})"),
                now=now.henchmen,
            )
        )
    elif henchmen < 0:
        parts.append(
            _signed(
                henchmen,
                N_("{count} henchman spent (now {now})"),
                N_("{count} henchmen spent (now {now})"),
                now=now.henchmen,
            )
        )
    for one, many, old, new in (
        (
            N_("{count} companion ({cards})"),
            N_("{count} companions ({cards})"),
            was.companions,
            now.companions,
        ),
        (
            N_("{count} plunder card face up ({cards})"),
            N_("{count} plunder cards face up ({cards})"),
            was.face_up,
            now.face_up,
        ),
        (
            N_("{count} plunder card face down ({cards})"),
            N_("{count} plunder cards face down ({cards})"),
            was.face_down,
            now.face_down,
        ),
        (
            N_("{count} treasure card ({cards})"),
            N_("{count} treasure cards ({cards})"),
            was.treasures,
            now.treasures,
        ),
    ):
        got = _added(old, new)
        if got:
            parts.append(_signed(len(got), one, many, cards=", ".join(got)))
    return parts


def _signed(count: int, one: str, many: str, **values: object) -> str:
    """``one`` or ``many`` (templates of ``{count}``) with the count signed: ``+1 coin``,
    ``-3 henchmen``; the two forms are two messages, for the catalogs."""
    sign = "+" if count > 0 else "-"
    return (one if abs(count) == 1 else many).format(count=f"{sign}{abs(count)}", **values)


def consequences(before: State, after: State, names: list[str]) -> list[str]:
    """One line per change, each a message of its own after the seat's name (``bob: +1
    coin from the Farm (R-6.6) (now 3)``), so that every line reads whole in the reader's
    language."""
    lines = []
    for seat, name in enumerate(names):
        lines += [f"{name}: {part}" for part in _seat(before, after, seat)]
    if after.workshop != before.workshop:
        workshop = (
            N_("Workshop: {count} coin -> {now}")
            if before.workshop == 1
            else N_("Workshop: {count} coins -> {now}")
        )
        lines.append(workshop.format(count=before.workshop, now=after.workshop))
    went = [names[s] for s in _added(before.farm, after.farm)]
    if went:
        lines.append(N_("to the Farm: {names}").format(names=", ".join(went)))
    refilled = _added(before.tavern, after.tavern)
    if refilled:
        tavern = (
            N_("Tavern: {count} new companion ({cards})")
            if len(refilled) == 1
            else N_("Tavern: {count} new companions ({cards})")
        )
        lines.append(tavern.format(count=len(refilled), cards=", ".join(refilled)))
    if (after.round, after.phase) != (before.round, before.phase) and after.phase == "morning":
        lines.append(N_("round {round} begins").format(round=after.round))
    return lines
