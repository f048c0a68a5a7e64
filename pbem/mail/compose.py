"""Composing the message that carries a game's new steps to the players.

Pure: a game's head in (its verified position, its history, its steps), an
``EmailMessage`` out; sending is ``pbem.mail.transport``'s job. Subject and body come from
the jinja2 templates in ``templates/mail/`` so that they can be reworded without touching
code.

A message carries only what its recipients lack (issue 27): the steps since the earliest
step any of them has not acknowledged, as a step bundle (``application/vnd.pbem.steps+json``,
``schemas/format.md`` §10). A player has acknowledged every step before the last one holding
an item it signed (that item names its parent). Whoever has signed nothing yet, and whoever
asks for it (``pbem send --full``), gets the whole game file instead. Both are named after
the game and the steps they hold, so a player can tell them apart in any mail client before
pbem reads them. The public board page (``pbem show`` without ``--as``: what every player
may see, never anyone's private knowledge) goes along when the message asks a person for a
decision (the ``smtp.page`` setting: ``decisions``, ``always`` or ``never``); a message that
carries only steps pbem makes by itself goes to the seats that need them next, and says so
in its headers (``Auto-Submitted: auto-generated``, ``X-Pbem-Automatic: yes``) so that a
mail filter can file it away.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from functools import cache
from pathlib import Path
from typing import Any, Literal

import jinja2

from pbem.crypto.notes import step_notes
from pbem.format import i18n
from pbem.format.bundle import REQUEST_TYPE, STEPS_TYPE, Request
from pbem.format.card import IdentityCard
from pbem.format.errors import PbemError
from pbem.format.i18n import _, localize, ngettext, speaking
from pbem.format.resources import resource_dir
from pbem.ledger.awaiting import cosigners, describe_awaiting, needs_decision
from pbem.ledger.logbook import with_open_batch
from pbem.ledger.position import Position
from pbem.ledger.terms import Record
from pbem.mail.config import Smtp
from pbem.store.bundles import bundle_name, bundle_text
from pbem.store.chain import short_id
from pbem.store.head import Head
from pbem.store.sent import mailed

HISTORY_LINES = 40


@dataclass
class Recipients:
    to: list[IdentityCard]
    cc: list[IdentityCard]


def asks_someone(pos: Position) -> bool:
    """Whether a message of this head asks a person for something: a decision, a
    signature on a call or a handover, or (the game over) a look at the end."""
    return needs_decision(pos) or pos.interrupt is not None or pos.result is not None


def attachment_name(head: Head, suffix: str = ".json") -> str:
    """``<ruleset>-<short game id>-s<step>-<short head hash>.json``: the step as ``pbem
    log`` and the subject number it (``.html`` for its page)."""
    pos = head.position
    game = short_id(pos.genesis.game)
    return f"{pos.rules.id}-{game}-s{pos.count:04d}-{head.digest[:8]}{suffix}"


@dataclass
class Carried:
    """What a message attaches of the game: the whole file, or a bundle of the steps
    from index ``since`` on (None: the file)."""

    name: str
    data: bytes
    since: int | None

    @property
    def subtype(self) -> str:
        return "json" if self.since is None else STEPS_TYPE.partition("/")[2]


def carried(
    head: Head,
    recipients: Recipients,
    full: bool,
    since: int | None = None,
    *,
    after_mailed: bool = False,
) -> Carried:
    """The file, or the steps the recipients lack: from ``since`` when it is given (an
    answer to a request), else from the earliest step any of them has not acknowledged
    (``Store.acknowledged``) or, ``after_mailed``, been mailed by this home since
    (``pbem.store.sent.mailed``: each step then goes to each player about once, issue 27);
    always the last step at least.
    The file when ``full``, or when one of them has neither signed nor been mailed
    anything yet (it may hold no step, nor even the genesis)."""
    if since is not None and not full:
        return Carried(bundle_name(head, since), bundle_text(head, since).encode(), since)
    pos = head.position
    signers = [*pos.cards, *pos.genesis.escrow.referees]
    keys = [c.sign_key for c in signers]
    cards = [c for c in [*recipients.to, *recipients.cc] if c.sign_key in keys]
    seats = [keys.index(c.sign_key) for c in cards]
    acks = head.store.acknowledged(head.game, seats) if seats and not full else {}
    starts = []
    for seat, card in zip(seats, cards, strict=True):
        known = [acks.get(seat)]
        if after_mailed:
            known.append(mailed(head.store, head.game, card))
        found = [index for index in known if index is not None]
        starts.append(max(found) if found else None)
    if full or not starts or any(start is None for start in starts):
        return Carried(attachment_name(head), head.text().encode(), None)
    since = min(min(start for start in starts if start is not None), pos.count - 1)
    return Carried(bundle_name(head, since), bundle_text(head, since).encode(), since)


def public_page(head: Head, since: int | None = None) -> str:
    """The page ``pbem show`` draws without ``--as``: public information only (no
    identity is given to the walk, so nothing private can be decrypted into it). Beside a
    bundle of the steps from ``since`` on, the page of those steps alone (the whole
    history of every position made a page of a long game most of a mail's bytes)."""
    from pbem.view.history import walk  # the viewer is needed only when mail is composed
    from pbem.view.render import page_html

    history = walk(head.file(), None, stored=True)
    name = attachment_name(head)
    return page_html(history, history.position(None), source=name, reader=None, since=since)


def choose_recipients(
    replay: Position,
    me: IdentityCard | None,
    to: Literal["awaited", "all"],
    cc: Literal["others", "none"],
    exclude: frozenset[str] = frozenset(),
) -> Recipients:
    """Every seat of the decision awaited now in To (everyone once the game is over, or
    with ``to="all"``), the other players in Cc unless ``cc="none"``; never the sender,
    nor the identities whose keys are in ``exclude`` (those of the sender's own home: they
    read the same store, and a mail would bring them nothing).

    For a parallel decision that is every seat asked, not only those still missing: each
    seat's robot merges the envelopes as they come and makes its own next step (a reveal,
    a beacon link, its shares) the moment it is due, so everyone must get every envelope
    (issue 17: one decision, one mail per player per round). Nobody is mailed while the
    sender alone is awaited: the decision is the sender's own. While a called seat's
    escrow is being opened, the escrow holders are the awaited; while a call or a handover
    is being signed, those who must still sign it are in To too."""
    chosen = _recipients(replay, me, to, cc)
    if not exclude:
        return chosen
    keep = [c for c in chosen.to if c.sign_key not in exclude]
    return Recipients(keep, [c for c in chosen.cc if c.sign_key not in exclude] if keep else [])


def _recipients(
    replay: Position,
    me: IdentityCard | None,
    to: Literal["awaited", "all"],
    cc: Literal["others", "none"],
) -> Recipients:
    seats = replay.cards
    mine = me.sign_key if me is not None else None
    everyone = [c for c in seats if c.sign_key != mine]
    if to == "all" or replay.result is not None:
        return Recipients(everyone, [])
    if replay.demand is not None and replay.unsealing is not None:  # the escrow holders
        from pbem.ledger.seats import signer_card

        holders = [signer_card(replay, s) for s in replay.demand.seats]
        others = [c for c in everyone if c not in holders] if cc == "others" else []
        return Recipients([c for c in holders if c.sign_key != mine], others)
    cosign = cosigners(replay, me)  # who must still sign a call or a handover
    remaining = [seats[s] for s in replay.remaining() if s < len(seats)]
    if not cosign and (not remaining or all(c.sign_key == mine for c in remaining)):
        return Recipients([], [])
    asked = replay.awaiting.seats if replay.awaiting is not None else ()
    awaited = [seats[s] for s in asked if s < len(seats) and seats[s].sign_key != mine]
    awaited = [*cosign, *(c for c in awaited if c not in cosign)]
    if not asks_someone(replay):
        # Steps pbem makes by itself go to the seats that need them next; the others get
        # them with the next message that asks someone for a decision.
        return Recipients(awaited, [])
    others = [c for c in everyone if c not in awaited] if cc == "others" else []
    return Recipients(awaited, others)


def language_of(card: IdentityCard, default: str, known: Mapping[str, str] | None = None) -> str:
    """The language a player reads pbem's mail in: the one their card in the sender's
    keyring names (``known``, by signing key: a card they sent after the game began),
    else the one their card in the game names, else ``default`` (the sender's)."""
    return (known or {}).get(card.sign_key) or card.lang or default


def known_languages(home: Path) -> dict[str, str]:
    """The languages the cards of the keyring at ``home`` name, by signing key (a keyring
    that cannot be read names none: the cards in the game still do)."""
    from pbem.crypto.keyring import Keyring

    try:
        return {c.sign_key: c.lang for c, _own in Keyring(home).list() if c.lang}
    except PbemError:
        return {}


def by_language(
    recipients: Recipients, default: str, known: Mapping[str, str] | None = None
) -> list[tuple[str, Recipients]]:
    """The recipients in groups of one language each (``language_of``), ``default``'s
    group first, then in the order their languages first appear. Who is in To stays in
    To; a group of players in Cc only has them in To (a message needs readers)."""
    order = [default]
    for card in [*recipients.to, *recipients.cc]:
        lang = language_of(card, default, known)
        if lang not in order:
            order.append(lang)
    groups = []
    for lang in order:
        to = [c for c in recipients.to if language_of(c, default, known) == lang]
        cc = [c for c in recipients.cc if language_of(c, default, known) == lang]
        if to or cc:
            groups.append((lang, Recipients(to, cc) if to else Recipients(cc, [])))
    return groups


@cache
def _templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource_dir("templates") / "mail"),
        autoescape=False,  # plain text mail, never HTML
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    # What a person reads in the templates is in _() (pbem/mail/mailtexts.py extracts it),
    # in the language spoken while they are rendered (``speaking``).
    env.globals.update(_=_, ngettext=ngettext)
    return env


def _last_acted(records: list[Record], seat: int) -> int:
    """Index of the last step the seat signed, -1 if none."""
    return max((r.index for r in records if seat in r.seats), default=-1)


def _history(
    head: Head, records: list[Record], readers: list[int]
) -> tuple[str, list[dict[str, Any]], int]:
    """The steps from the one where the least recent reader last acted (included: for a
    parallel step it shows what the others chose), marked per reader; numbered from 1."""
    replay = head.position
    last = {s: _last_acted(records, s) for s in readers}
    start = max(0, min(last.values(), default=0))
    names = ", ".join(replay.names[s] for s in readers) or _("everyone")
    since = _("the game began") if start == 0 else _("{names} last acted").format(names=names)
    steps = head.store.steps(head.game, upto=replay.count, since=start)  # only those shown
    lines = []
    for record in (r for r in records if r.index >= start):
        marks = [replay.names[s] for s, i in last.items() if i == record.index]
        notes = [n.line(replay.names) for n in step_notes(steps[record.index - start])]
        lines.append(
            {
                "index": record.index + 1,
                "summary": record.summary,
                "marks": ", ".join(marks),
                "notes": notes,
                "consequences": record.consequences,
            }
        )
    skipped = max(0, len(lines) - HISTORY_LINES)
    return since, lines[skipped:], skipped


def _result(replay: Position) -> str:
    if replay.result is None:
        return ""
    winners = _(" and ").join(replay.names[s] for s in replay.result.winners)
    scores = ", ".join(f"{n} {s}" for n, s in zip(replay.names, replay.result.scores, strict=True))
    return _("{winners} won ({scores})").format(winners=winners, scores=scores)


def render(
    head: Head, sender: str, recipients: Recipients, attached: Carried, page: bool
) -> tuple[str, str]:
    """Subject and body for this version of the game, as the recipients should read it,
    in the language spoken now."""
    replay = head.position
    seats = replay.cards
    keys = [c.sign_key for c in seats]
    readers = [keys.index(c.sign_key) for c in recipients.to if c.sign_key in keys]
    records = with_open_batch(replay, head.records)
    since, history, skipped = _history(head, records, readers)
    automatic = not needs_decision(replay)
    remaining = set(replay.remaining())
    context = {
        "title": replay.rules.title or replay.rules.id,
        "ruleset": replay.rules.id,
        "game": replay.genesis.game,
        "short": short_id(replay.genesis.game),
        "steps": replay.count,
        "sender": sender,
        "awaiting": localize(describe_awaiting(replay)),
        "result": _result(replay),
        "since": since,
        "history": history,
        "skipped": skipped,
        "board": replay.rules.render_text(replay.state, replay.names) if replay.state else "",
        "attachment": attached.name,
        "bundle": attached.since is not None,
        "first": (attached.since or 0) + 1,
        "page": attachment_name(head, ".html") if page else "",
        "actors": [
            {"name": replay.names[s], "automatic": automatic} for s in readers if s in remaining
        ],
        "seats": ", ".join(f"{c.name} [{c.fingerprint}]" for c in seats),
    }
    env = _templates()
    subject = " ".join(env.get_template("subject.txt.j2").render(context).split())
    # A message of steps pbem makes by itself is read by robots: it says only that (but a
    # player's first message, with the whole file, says everything).
    brief = not asks_someone(replay) and attached.since is not None
    body = "automatic.txt.j2" if brief else "body.txt.j2"
    return subject, env.get_template(body).render(context)


def compose_all(
    head: Head,
    sender: str,
    recipients: Recipients,
    smtp: Smtp,
    full: bool = False,
    since: int | None = None,
    *,
    after_mailed: bool = False,
    lang: str | None = None,
    known: Mapping[str, str] | None = None,
) -> list[EmailMessage]:
    """The messages to ``recipients``: one for each language they read (``by_language``;
    ``lang``, the sender's, by default: the language spoken now), each with subject and
    body in it, and all with the same attachments, chosen for all the recipients."""
    default = lang or i18n.current()
    attached = carried(head, recipients, full, since, after_mailed=after_mailed)
    return [
        compose(head, sender, group, smtp, full, since, attached=attached, lang=tongue)
        for tongue, group in by_language(recipients, default, known)
    ]


def compose(
    head: Head,
    sender: str,
    recipients: Recipients,
    smtp: Smtp,
    full: bool = False,
    since: int | None = None,
    *,
    after_mailed: bool = False,
    attached: Carried | None = None,
    lang: str | None = None,
) -> EmailMessage:
    """The message: templates for subject and body (in ``lang``, else the language spoken
    now), the game's new steps (or its file) attached (``carried``, unless ``attached``
    says what), and its public page when it asks for a decision (``smtp.page``)."""
    replay = head.position
    decision = asks_someone(replay)
    page = smtp.page == "always" or (smtp.page == "decisions" and decision)
    if attached is None:
        attached = carried(head, recipients, full, since, after_mailed=after_mailed)
    lang = lang or i18n.current()
    with speaking(lang):
        subject, body = render(head, sender, recipients, attached, page)
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
    # Where the next message to the same players starts (pbem.mail.memory): after the last
    # step this one carries, or at it while it is a batch still open (more envelopes come).
    msg["X-Pbem-Next"] = str(replay.count - (replay.batch is not None))
    if not decision:  # only steps pbem makes by itself: a filter may file it away
        msg["Auto-Submitted"] = "auto-generated"
        msg["X-Pbem-Automatic"] = "yes"
    msg.set_content(body)
    msg.add_attachment(
        attached.data, maintype="application", subtype=attached.subtype, filename=attached.name
    )
    if page:  # quoted-printable: a page is mostly ASCII, a quarter smaller than in base64
        msg.add_attachment(
            public_page(head, attached.since),
            subtype="html",
            cte="quoted-printable",
            filename=attachment_name(head, ".html"),
        )
    # RFC 3282: the language of the subject and the body (set last: set_content and
    # add_attachment move the Content- headers there are to the parts).
    msg["Content-Language"] = lang
    return msg


def reminder_for(
    head: Head, me: IdentityCard, smtp: Smtp, text: str, exclude: frozenset[str] = frozenset()
) -> list[EmailMessage]:
    """A reminder to the seats past their deadline (those still awaited, not the others of
    the decision), with the steps they lack: one message for each language they read
    (``text``, English made from a marked message, in each); none when nobody is late."""
    pos = head.position
    late = [pos.cards[s] for s in pos.remaining() if s < len(pos.cards)]
    late = [c for c in late if c.sign_key != me.sign_key and c.sign_key not in exclude]
    if not late:
        return []
    sender = smtp.sender or formataddr((me.name, me.email))
    known = known_languages(head.store.home)
    messages = compose_all(head, sender, Recipients(late, []), smtp, lang=me.lang, known=known)
    for message in messages:
        del message["Subject"]
        message["X-Pbem-Reminder"] = "yes"  # a copy behind the recipient's gets what it lacks
        with speaking(str(message["Content-Language"])):
            said = _("reminder: {text}").format(text=localize(text))
        message["Subject"] = f"[pbem] {pos.rules.id} {short_id(pos.genesis.game)}: {said}"
    return messages


def messages_for(
    head: Head,
    me: IdentityCard,
    smtp: Smtp,
    to: Literal["awaited", "all"] = "awaited",
    exclude: frozenset[str] = frozenset(),
    full: bool = False,
) -> list[EmailMessage]:
    """The messages ``me`` sends after this version, one for each language its recipients
    read (``compose_all``: ``me``'s card's language, else the one spoken now, by
    default); none when nobody else is awaited (the decision is ``me``'s own, or every
    seat awaited is of ``me``'s home, ``exclude``). Composed in one read of the store, so
    their bodies and their files are of the same head."""
    recipients = choose_recipients(head.position, me, to, smtp.cc, exclude)
    if not recipients.to:
        return []
    sender = smtp.sender or formataddr((me.name, me.email))
    known = known_languages(head.store.home)
    with head.store.reading():
        return compose_all(
            head, sender, recipients, smtp, full, after_mailed=True, lang=me.lang, known=known
        )


def request_for(request: Request, sender: str, to: list[str]) -> EmailMessage:
    """A request for the steps of a game that follow the last one this store holds: a
    bundle came whose steps follow one it lacks (a message lost, or overtaken)."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    short = short_id(request.game)
    msg["Subject"] = f"[pbem] game {short}: steps after step {request.index} asked for"
    msg["Date"] = formatdate(localtime=True)
    domain = sender.rpartition("@")[2].rstrip(">") or "pbem.invalid"
    msg["Message-ID"] = make_msgid("pbem", domain=domain)
    msg["References"] = f"<game.{request.game}@pbem.invalid>"
    msg["X-Pbem-Game"] = request.game
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Pbem-Automatic"] = "yes"
    msg.set_content(
        f"pbem asks for the steps of game {short} after step {request.index}: a message\n"
        "with later steps came first (one was lost, or overtaken on the way). pbem watch\n"
        "answers this by itself; by hand: pbem send "
        f"{short} --full\n"
    )
    msg.add_attachment(
        request.encode().encode(),
        maintype="application",
        subtype=REQUEST_TYPE.partition("/")[2],
        filename=f"{short}-s{request.index:04d}.request.json",
    )
    return msg


def answer_for(
    head: Head, request: Request, me: IdentityCard, smtp: Smtp, to: IdentityCard
) -> EmailMessage:
    """The answer to a request: the steps after the requester's, or the whole file when
    its last step is not one of this chain's (it holds another branch, or nothing)."""
    chain = head.store.chain_hashes(head.game)
    index = request.index
    known = (
        request.have == head.position.genesis_hash
        if index == 0
        else index <= len(chain) and chain[index - 1].hex() == request.have
    )
    since = index if known and index < head.position.count else None
    sender = smtp.sender or formataddr((me.name, me.email))
    with head.store.reading():
        return compose(
            head,
            sender,
            Recipients([to], []),
            smtp,
            full=since is None,
            since=since,
            lang=language_of(to, me.lang or i18n.current(), known_languages(head.store.home)),
        )
