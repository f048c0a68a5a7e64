"""Deadlines (architecture §11): when the decision awaited now is due, by the claimed times
signed so far, and how long its seats have been awaited, in words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.format.i18n import N_

if TYPE_CHECKING:
    from pbem.ledger.position import Position


def due(pos: Position) -> int | None:
    """When the deadline of what is awaited now passes (UTC seconds, by the claimed times
    signed so far), or None when the game has no deadline or awaits nothing."""
    aw = pos.awaiting
    if not pos.genesis.deadline or aw is None or aw.kind == "over" or not pos.remaining():
        return None
    return pos.since + pos.genesis.deadline


def waiting(pos: Position, now: int) -> str:
    """How long the awaited seats have been awaited and when their deadline passes, in
    words (empty when nothing is awaited)."""
    if pos.awaiting is None or pos.awaiting.kind == "over" or not pos.remaining():
        return ""
    names = ", ".join(pos.names[s] for s in pos.remaining())
    since = {"names": names, "since": _when(pos.since), "span": _span(now - pos.since)}
    deadline = due(pos)
    if deadline is None:
        return N_("{names} awaited since {since} ({span}); no deadline").format(**since)
    if now >= deadline:
        return N_(
            "{names} awaited since {since} ({span}); the deadline passed {late} ago: the "
            "players not awaited may call"
        ).format(**since, late=_span(now - deadline))
    return N_(
        "{names} awaited since {since} ({span}); the deadline passes at {due} (in {left})"
    ).format(**since, due=_when(deadline), left=_span(deadline - now))


def _when(seconds: int) -> str:
    import datetime

    moment = datetime.datetime.fromtimestamp(seconds, tz=datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _span(seconds: int) -> str:
    seconds = max(0, seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes}m"
    return f"{minutes}m"
