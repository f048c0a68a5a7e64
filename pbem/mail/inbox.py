"""Importing received mail into the game store: what ``pbem receive`` and the robot share.

One message may hold several game files, or none, or damaged ones; each outcome becomes a
report entry or one problem line, and one bad part never stops the others from importing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from email.parser import BytesHeaderParser
from email.policy import default
from typing import Any

from pbem.format.bundle import Request
from pbem.format.card import IdentityCard
from pbem.format.errors import PbemError, UsageError
from pbem.format.i18n import _, ngettext
from pbem.ledger.awaiting import describe_awaiting, needs_decision, signature_due, waits_for
from pbem.mail.extract import find_games, message_key
from pbem.mail.memory import Memory, mailed
from pbem.store.bundles import Pending
from pbem.store.chain import short_id
from pbem.store.head import Imported
from pbem.store.store import Store


@dataclass
class MessageReport:
    """What one message brought: imports, bundles kept until the steps before them arrive
    (each with the request to send, if one is due), requests for steps it carried, and
    one line per problem."""

    label: str
    sender: str = ""
    reminder: bool = False
    """A reminder of a player waiting past the deadline (``X-Pbem-Reminder``)."""
    imported: list[Imported] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    proofs: list[str] = field(default_factory=list)
    hostile: list[str] = field(default_factory=list)
    """Why the message is quarantined (an input limit refused it or a part of it)."""


def import_message(store: Store, raw: bytes, where: str) -> MessageReport:
    """Import what ``raw`` carries; a message refused by an input limit is recorded in
    the store's quarantine (``pbem.mail.memory``), whatever else it brought."""
    found = find_games(raw, where)
    report = MessageReport(
        found.label,
        sender=found.sender,
        reminder=found.reminder,
        problems=list(found.problems),
        requests=[request for _, request in found.requests],
        hostile=list(found.hostile),
    )
    if found.hostile:
        Memory(store).quarantine(message_key(raw), found.label, "; ".join(found.hostile))
    for label, game in found.games:
        _take(report, label, lambda g=game, w=label: store.import_game(g, w))
    for label, bundle in found.bundles:
        _take(report, label, lambda b=bundle, w=label: store.import_bundle(b, w))
    if report.imported and not found.hostile:  # the others it was addressed to have it too
        headers = BytesHeaderParser(policy=default).parsebytes(raw)
        for imported in report.imported:
            if imported.head.game == str(headers["X-Pbem-Game"] or ""):
                mailed(store, headers, imported.head.position.count)
    return report


def _take(report: MessageReport, label: str, take: Callable[[], Imported | Pending]) -> None:
    """One part of a message into the store: imported, kept, or one problem line."""
    try:
        done = take()
    except UsageError:  # the store cannot be read or written: no mail is to blame
        raise
    except PbemError as exc:
        report.problems.append(f"{label}: {exc}")
        if exc.detail:
            report.proofs.append(exc.detail)
        return
    if isinstance(done, Pending):
        report.pending.append(done)
    else:
        report.imported.append(done)


def _updated(imported: Imported) -> str:
    if imported.new_steps:
        n = len(imported.new_steps)
        return ngettext("{n} new step", "{n} new steps", n).format(n=n)
    n = imported.envelopes_added
    return ngettext("{n} new envelope", "{n} new envelopes", n).format(n=n)


def describe(imported: Imported, me: IdentityCard | None) -> tuple[dict[str, Any], str]:
    """One game's outcome, as a JSON report and as one line."""
    replay = imported.head.position
    short = short_id(replay.genesis.game)
    mine = waits_for(replay, me)
    entry = {
        "game": replay.genesis.game,
        "ruleset": replay.rules.id,
        "status": imported.status,
        "new_steps": [r.summary for r in imported.new_steps],
        "envelopes": imported.envelopes_added,
        "steps": replay.count,
        "behind": imported.behind,
        "your_move": mine,
        "over": replay.result is not None,
    }
    added, behind = imported.envelopes_added, imported.behind
    if imported.status == "new":
        what = _("new game, at step {step}").format(step=replay.count)
    elif imported.status == "updated":
        what = _updated(imported)
    elif imported.status == "merged":
        what = ngettext("merged {n} envelope", "merged {n} envelopes", added).format(n=added)
    elif imported.status == "duplicate":
        what = _("nothing new (seen before)")
    else:
        what = ngettext(
            "an older copy ({n} step behind yours): nothing new",
            "an older copy ({n} steps behind yours): nothing new",
            behind,
        ).format(n=behind)
    if imported.status == "merged" and imported.new_steps:
        n = len(imported.new_steps)
        what += ngettext(", {n} step completed", ", {n} steps completed", n).format(n=n)
    if replay.result is not None:
        tail = _("the game is over")
    elif replay.interrupt is not None:  # a call or a handover: whose signature is due
        awaiting = _("awaiting {who}").format(who=describe_awaiting(replay))
        tail = "; ".join([awaiting, *signature_due(replay, me, short)])
    elif mine and needs_decision(replay):
        tail = _("your decision is awaited: pbem moves {game}").format(game=short)
    elif mine:
        tail = _("your automatic step is due: pbem watch, or pbem play {game}").format(game=short)
    else:
        who = ", ".join(replay.names[s] for s in replay.remaining())
        tail = _("awaiting {who}").format(who=who)
    line = f"{replay.rules.id} {short}: {what}; {tail}"
    return entry, line
