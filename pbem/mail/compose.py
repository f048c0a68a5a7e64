"""Composing the message that carries a game file to the players.

Pure: a game's head in (its verified position, its history, its file), an
``EmailMessage`` out; sending is ``pbem.mail.transport``'s
job. Subject and body come from the jinja2 templates in ``templates/mail/`` so that they can
be reworded without touching code. The file travels as an ``application/json`` attachment
whose name says which game and which version it is, so a player can tell a stale copy from
a new one in any mail client before pbem even reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from functools import cache
from typing import Any, Literal

import jinja2

from pbem.core.author import describe_awaiting
from pbem.core.keys import IdentityCard
from pbem.core.position import Position, Record
from pbem.core.store import Head, short_id
from pbem.mail.config import Smtp
from pbem.resources import resource_dir

HISTORY_LINES = 40


@dataclass
class Recipients:
    to: list[IdentityCard]
    cc: list[IdentityCard]


def needs_decision(replay: Position) -> bool:
    """Whether the awaited seats must decide (a turn, an open or sealed choice), as opposed
    to steps pbem makes for them (join, beacon, shuffle, shares, reveals): the same line
    ``pbem.core.author.act`` draws."""
    aw = replay.awaiting
    return aw is not None and (aw.kind == "turn" or aw.decision.startswith(("act:", "commit:")))


def attachment_name(head: Head) -> str:
    """``<ruleset>-<short game id>-s<step>-<short head hash>.json``: the step as ``pbem
    log`` and the subject number it."""
    pos = head.position
    game = short_id(pos.genesis.game)
    return f"{pos.rules.id}-{game}-s{pos.count:04d}-{head.digest[:8]}.json"


def choose_recipients(
    replay: Position,
    me: IdentityCard | None,
    to: Literal["awaited", "all"],
    cc: Literal["others", "none"],
) -> Recipients:
    """The awaited seats (everyone once the game is over, or with ``to="all"``) in To, the
    other players in Cc unless ``cc="none"``; never the sender."""
    seats = replay.cards
    mine = me.sign_key if me is not None else None
    everyone = [c for c in seats if c.sign_key != mine]
    if to == "all" or replay.result is not None:
        return Recipients(everyone, [])
    if replay.demand is not None and replay.unsealing is not None:  # the escrow holders
        from pbem.core.dropouts import signer_card

        holders = [signer_card(replay, s) for s in replay.demand.seats]
        others = [c for c in everyone if c not in holders] if cc == "others" else []
        return Recipients([c for c in holders if c.sign_key != mine], others)
    awaited = [seats[s] for s in replay.remaining() if seats[s].sign_key != mine]
    others = [c for c in everyone if c not in awaited] if cc == "others" else []
    return Recipients(awaited, others)


@cache
def _templates() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource_dir("templates") / "mail"),
        autoescape=False,  # plain text mail, never HTML
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def _last_acted(records: list[Record], seat: int) -> int:
    """Index of the last step the seat signed, -1 if none."""
    return max((r.index for r in records if seat in r.seats), default=-1)


def _history(
    replay: Position, records: list[Record], readers: list[int]
) -> tuple[str, list[dict[str, Any]], int]:
    """The steps from the one where the least recent reader last acted (included: for a
    parallel step it shows what the others chose), marked per reader; numbered from 1."""
    last = {s: _last_acted(records, s) for s in readers}
    start = max(0, min(last.values(), default=0))
    names = ", ".join(replay.names[s] for s in readers) or "everyone"
    since = "the game began" if start == 0 else f"{names} last acted"
    lines = []
    for record in (r for r in records if r.index >= start):
        marks = [replay.names[s] for s, i in last.items() if i == record.index]
        lines.append(
            {"index": record.index + 1, "summary": record.summary, "marks": ", ".join(marks)}
        )
    skipped = max(0, len(lines) - HISTORY_LINES)
    return since, lines[skipped:], skipped


def _result(replay: Position) -> str:
    if replay.result is None:
        return ""
    winners = " and ".join(replay.names[s] for s in replay.result.winners)
    scores = ", ".join(f"{n} {s}" for n, s in zip(replay.names, replay.result.scores, strict=True))
    return f"{winners} won ({scores})"


def render(head: Head, sender: str, recipients: Recipients) -> tuple[str, str]:
    """Subject and body for this version of the game, as the recipients should read it."""
    replay = head.position
    seats = replay.cards
    keys = [c.sign_key for c in seats]
    readers = [keys.index(c.sign_key) for c in recipients.to if c.sign_key in keys]
    since, history, skipped = _history(replay, head.records, readers)
    automatic = not needs_decision(replay)
    remaining = set(replay.remaining())
    context = {
        "title": replay.rules.title or replay.rules.id,
        "ruleset": replay.rules.id,
        "game": replay.genesis.game,
        "short": short_id(replay.genesis.game),
        "steps": replay.count,
        "sender": sender,
        "awaiting": describe_awaiting(replay),
        "result": _result(replay),
        "since": since,
        "history": history,
        "skipped": skipped,
        "board": replay.rules.render_text(replay.state, replay.names) if replay.state else "",
        "attachment": attachment_name(head),
        "actors": [
            {"name": replay.names[s], "automatic": automatic} for s in readers if s in remaining
        ],
        "seats": ", ".join(f"{c.name} [{c.fingerprint}]" for c in seats),
    }
    env = _templates()
    subject = " ".join(env.get_template("subject.txt.j2").render(context).split())
    return subject, env.get_template("body.txt.j2").render(context)


def compose(head: Head, sender: str, recipients: Recipients) -> EmailMessage:
    """The message: templates for subject and body, the game file attached as JSON."""
    replay = head.position
    subject, body = render(head, sender, recipients)
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = ", ".join(formataddr((c.name, c.email)) for c in recipients.to)
    if recipients.cc:
        msg["Cc"] = ", ".join(formataddr((c.name, c.email)) for c in recipients.cc)
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=True)
    domain = sender.rpartition("@")[2].rstrip(">") or "pbem.invalid"
    msg["Message-ID"] = make_msgid("pbem", domain=domain)
    thread = f"<game.{replay.genesis.game}@pbem.invalid>"
    msg["References"] = thread  # mail clients then thread a game's messages together
    msg["X-Pbem-Game"] = replay.genesis.game
    msg.set_content(body)
    msg.add_attachment(
        head.text().encode(),
        maintype="application",
        subtype="json",
        filename=attachment_name(head),
    )
    return msg


def reminder_for(head: Head, me: IdentityCard, smtp: Smtp, text: str) -> EmailMessage | None:
    """A reminder to the seats past their deadline (the file attached again), or None."""
    recipients = choose_recipients(head.position, me, "awaited", "none")
    if not recipients.to:
        return None
    message = compose(head, smtp.sender or formataddr((me.name, me.email)), recipients)
    del message["Subject"]
    pos = head.position
    message["Subject"] = f"[pbem] {pos.rules.id} {short_id(pos.genesis.game)}: reminder: {text}"
    return message


def message_for(
    head: Head, me: IdentityCard, smtp: Smtp, to: Literal["awaited", "all"] = "awaited"
) -> EmailMessage | None:
    """The message ``me`` sends after this version, or None when nobody else is awaited
    (the decision is ``me``'s own)."""
    recipients = choose_recipients(head.position, me, to, smtp.cc)
    if not recipients.to:
        return None
    return compose(head, smtp.sender or formataddr((me.name, me.email)), recipients)
