"""The mail robot behind ``pbem watch``: the steps that need no decision, done by mail.

One robot per home (``pbem.mail.homelock``): it acts for every identity of the home it is
given. One pass: send what waits in the outbox; read the messages that arrived since the
last pass and import them; in every stored game, make each identity's automatic steps
(join, beacon supply, reveals, shares) and, where a bot holds an identity's seat, its
decisions, over and over until none of them owes anything (so a step one identity makes is
the next one's turn at once); queue one message of the new version for the players now
awaited but not held by a bot of this home (it reads the same store); run the notification command
once per new position that awaits a person's decision; send again. Between passes it waits
for mail (IMAP IDLE) and for any other process of the home that changes the store (a
``pbem play`` of the player, a mail filter's ``pbem receive``), whichever comes first.

Restart-safe by construction, with all its memory in the store (``pbem.mail.memory``):

- what was read is remembered per mailbox (UIDVALIDITY and the last UID done) and per
  Message-ID and body (so a mail sent again intact after a damaged copy is read), saved
  after every message, so a crash or a dropped connection costs at most re-reading one
  message, and importing it twice changes nothing; a message refused by an input limit
  is quarantined and taken like any other, so no mail can stop the robot;
- what must be sent is queued in the store's outbox before any attempt, and marked sent
  only once the server took it, so a refused or dropped SMTP session loses nothing; after
  a failure the robot tries again sooner than its usual wait (``pbem.mail.outbox``);
- which steps to make is decided from the store, not from the message that brought the
  game, so steps owed when the robot stopped are made on the next pass; what it signs is
  journaled like everything a player signs, so it never contradicts the player.

Mail is never deleted or flagged on the server.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formataddr
from pathlib import Path

from pbem.crypto.keys import Identity
from pbem.format.bundle import Request
from pbem.format.card import IdentityCard
from pbem.format.errors import PbemError
from pbem.format.i18n import _, ngettext
from pbem.ledger.awaiting import describe_awaiting, needs_decision, signature_due, waits_for
from pbem.ledger.deadlines import due, waiting
from pbem.mail import outbox, transport
from pbem.mail.botseat import BotSeat
from pbem.mail.compose import answer_for, messages_for, reminder_for, request_for
from pbem.mail.config import MailConfig
from pbem.mail.extract import message_key
from pbem.mail.inbox import describe, import_message
from pbem.mail.memory import Memory
from pbem.mail.waiting import Waiter, Woken
from pbem.play.author import automatic
from pbem.play.rescue import callers
from pbem.play.signer import utc_now
from pbem.store.chain import short_id
from pbem.store.head import Head, Imported
from pbem.store.journal import Journal
from pbem.store.sent import mark_sent
from pbem.store.store import Store

NOTIFY_TIMEOUT = 60

#: What the notify command is told, in its environment (``pbem config --help`` lists them).
NOTIFY_VARIABLES = {
    "PBEM_GAME": "the game's full id",
    "PBEM_SHORT_ID": "its short id, to type: pbem moves -- $PBEM_SHORT_ID",
    "PBEM_RULESET": "the ruleset (rattaneer, rattus, ...)",
    "PBEM_STEP": "the step the game is at, as pbem log numbers it",
    "PBEM_AWAITING": "who must do what, in words",
    "PBEM_AS": "which identity of the home is awaited (for pbem moves --as)",
}


def notify_variables(head: Head, name: str) -> dict[str, str]:
    """The environment of the notify command for this position and the identity ``name``
    it concerns (``NOTIFY_VARIABLES``)."""
    pos = head.position
    return {
        "PBEM_AS": name,
        "PBEM_GAME": head.game,
        "PBEM_SHORT_ID": short_id(head.game),
        "PBEM_RULESET": pos.rules.id,
        "PBEM_STEP": str(pos.count),
        "PBEM_AWAITING": describe_awaiting(pos),
    }


@dataclass
class PassReport:
    """What one pass did (``lines``), what went wrong (``problems``, one line each), and
    whether a server failed (then the pass is worth repeating soon)."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    server_failed: bool = False


@dataclass
class Actor:
    """An identity of the home the robot acts for, and the bot that answers its decisions
    (None: a person does, told by the notify command)."""

    identity: Identity
    bot: BotSeat | None = None

    @property
    def card(self) -> IdentityCard:
        return self.identity.card


#: A pass goes round the identities of a home at most this many times for one game (a
#: safety net: every round makes a step, and a game has finitely many before a decision).
MOST_ROUNDS = 1000


class Robot:
    """Acts for the identities ``actors`` of one home, on the store in ``home``."""

    def __init__(
        self,
        home: Path,
        actors: list[Actor],
        config: MailConfig,
        smtp_password: str | None,
        imap_password: str | None,
        tell: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.actors = actors
        self.config = config
        self.store = Store(home)
        self.memory = Memory(self.store)
        self._smtp_password = smtp_password
        self._imap_password = imap_password
        self.waiter = Waiter(config.imap, imap_password, tell)
        self.bots_here = frozenset(a.card.sign_key for a in actors if a.bot is not None)
        """The keys of the identities this robot plays with a bot: it reads their moves from
        the store, so no mail goes to them (a person of the home is mailed as anyone is)."""
        self._seen_version = self._version()
        self.backoff = outbox.Backoff()

    def _version(self) -> int:
        """SQLite's ``data_version``: it changes when another connection (another process
        of this home) commits to the store."""
        return int(self.store.db.execute("PRAGMA data_version").fetchone()[0])

    def store_changed(self) -> bool:
        """Whether another process changed the store since the last pass."""
        return self._version() != self._seen_version

    def wait(self, seconds: float) -> Woken:
        """Until mail may have come (IMAP IDLE), another process of the home changed the
        store, or ``seconds`` passed (``pbem.mail.waiting``); less after a pass that could
        not send what waits in the outbox (``pbem.mail.outbox.Backoff``)."""
        uidvalidity, last = self.memory.last_read(transport.mailbox_key(self.config.imap))
        pause = self.backoff.pause(seconds)
        return self.waiter.wait(pause, uidvalidity, last, changed=self.store_changed)

    # ----- one pass --------------------------------------------------------------------------

    def run_once(self) -> PassReport:
        report = PassReport()
        # Marked before the pass, never after: a commit by another process during the pass
        # (the player's move, say) then wakes the next wait at once.
        self._seen_version = self._version()
        self.flush(report)
        self.read_mail(report)
        self.act(report)
        self.flush(report)
        self.backoff.record(bool(self.memory.outbox()))  # something could not be sent
        return report

    def read_mail(self, report: PassReport) -> None:
        try:
            with transport.Mailbox(self.config.imap, self._imap_password) as box:
                last = self.memory.mailbox(box.key, box.uidvalidity)
                if self.memory.last_read(box.key) != (box.uidvalidity, last):
                    self.memory.read_up_to(box.key, box.uidvalidity, last)  # a new mailbox
                for uid in box.uids_after(last):
                    raw = box.fetch(uid)
                    self._take(raw, f"{box.key} UID {uid}", report)
                    self.memory.read_up_to(box.key, box.uidvalidity, uid)
        except transport.MailError as exc:
            report.problems.append(str(exc))
            report.server_failed = True

    def _take(self, raw: bytes, where: str, report: PassReport) -> None:
        """Import one message, unless it was taken before (the same Message-ID and body:
        ``message_key``). A message refused by an input limit is quarantined by the import
        and marked as taken like any other: one bad mail never stops the robot."""
        key = message_key(raw)
        if self.memory.seen(key):
            return
        result = import_message(self.store, raw, where)
        for imported in result.imported:
            if imported.status == "behind" and result.reminder:
                self._queue(self._catch_up(imported, result.sender, report))
            if imported.status in {"duplicate", "behind"}:
                continue
            reader = self._actor_in(imported.head)
            report.lines.append(describe(imported, reader.card if reader else None)[1])
            if self._forwards(imported, reader):
                self._queue(self._message(imported.head.game, reader))
        for pending in result.pending:
            report.lines.append(
                _(
                    "game {game}: steps from step {step} kept until the steps before them arrive"
                ).format(game=short_id(pending.game), step=pending.index + 1)
            )
            if pending.request is not None:
                self._queue(self._ask(pending.request, result.sender))
        for request in result.requests:
            self._queue(self._answer(request, result.sender, report))
        report.problems += [f"{result.label}: {p}" for p in result.problems]
        self.memory.mark_seen(key)

    def _catch_up(self, imported: Imported, sender: str, report: PassReport) -> EmailMessage | None:
        """A player waiting past the deadline reminded us with a copy behind ours (a mail of
        the steps it lacks was lost): send it what it lacks. At each of its reminders, so
        at most once per deadline period, and not at every old copy that crossed another
        in the mail."""
        head = imported.head
        if not sender:
            return None
        since = head.position.count - imported.behind
        have = imported.seen or head.position.genesis_hash
        return self._answer(Request(head.game, have, since), sender, report)

    def _ask(self, request: Request, sender: str) -> EmailMessage | None:
        """Ask for the steps a kept bundle follows: of whoever sent it, if that is a player
        of the game (else of every player): one of them holds them."""
        if request.game not in self.store.ids():  # only its sender can be asked
            to = [sender] if sender else []
            me = self.actors[0].card
        else:
            head = self.store.head(request.game)
            me_actor = self._actor_in(head)
            if me_actor is None:
                return None
            me = me_actor.card
            players = [c.email for c in head.position.cards if c.sign_key != me.sign_key]
            to = [sender] if sender in players else players
        if not to:
            return None
        from_ = self.config.smtp.sender or formataddr((me.name, me.email))
        return request_for(request, from_, list(dict.fromkeys(to)))

    def _answer(self, request: Request, sender: str, report: PassReport) -> EmailMessage | None:
        """Answer a request for steps, to a player of the game only (nobody else learns
        anything of it from this robot)."""
        if request.game not in self.store.ids():
            return None
        with self.store.reading():
            head = self.store.head(request.game)
            me = self._actor_in(head)
            asking = [c for c in head.position.cards if c.email == sender]
            if me is None or not asking or head.position.count <= request.index:
                return None
            report.lines.append(
                _("game {game}: {name} asked for the steps after step {step}: sent").format(
                    game=short_id(request.game), name=asking[0].name, step=request.index
                )
            )
            return answer_for(head, request, me.card, self.config.smtp, asking[0])

    def _forwards(self, imported: Imported, reader: Actor | None) -> bool:
        """Whether this robot mails on the step an envelope it received completed: when a
        seat awaited next did not sign that step (every signer got every envelope, but a
        message of steps pbem makes by itself goes to the seats of the batch, not to
        everyone). The signer with the lowest seat number does, so it goes once."""
        if reader is None or imported.status != "merged" or not imported.new_steps:
            return False
        pos = imported.head.position
        signers = set(imported.new_steps[-1].seats)
        seat = next(s for s, c in enumerate(pos.cards) if c.sign_key == reader.card.sign_key)
        return bool(set(pos.remaining()) - signers) and min(signers) == seat

    def _actor_in(self, head: Head) -> Actor | None:
        """The first identity of this home holding a seat in the game (None: none does)."""
        keys = [c.sign_key for c in head.position.cards]
        return next((a for a in self.actors if a.card.sign_key in keys), None)

    def act(self, report: PassReport) -> None:
        """Everything the home's identities owe, in every stored game."""
        for game in self.store.ids():
            try:
                self._act_on(game, report)
            except PbemError as exc:
                report.problems.append(f"game {short_id(game)}: {exc}")

    def _act_on(self, game: str, report: PassReport) -> None:
        """Round the home's identities until none owes anything in ``game`` (one identity's
        step may be the next one's turn), then one message for the players awaited who are
        not of this home, and what each identity must be told."""
        actors = [a for a in self.actors if _takes_part(self.store.head(game), a)]
        senders: list[Actor] = []
        for _round in range(MOST_ROUNDS):
            moved = False
            for actor in actors:
                if self._automatic(game, actor, report) + len(self._bot_plays(game, actor, report)):
                    moved = True
                    senders = [*(s for s in senders if s is not actor), actor]
            if not moved:
                break
        if not senders:  # a pass killed after keeping its steps and before queueing them
            senders = [a for a in actors if self._stranded(game, a)]
        if senders:
            self._queue(self._message(game, senders[-1]), game)
        head = self.store.head(game)
        for actor in actors:
            self._tell(head, actor, report)

    def _automatic(self, game: str, actor: Actor, report: PassReport) -> int:
        """The steps ``actor`` owes without a decision, signed and kept in one transaction."""
        with self.store.writing():
            head = self.store.head(game)
            if not _takes_part(head, actor):
                return 0
            made = automatic(head.position, actor.identity, journal=Journal(self.store))
            if made:
                head = self.store.save(head, "made by pbem watch")
        if made:
            pos = head.position
            said = ngettext("made {n} automatic step", "made {n} automatic steps", made)
            report.lines.append(
                f"{pos.rules.id} {short_id(game)}: {self._who(actor)}{said.format(n=made)}"
            )
        return made

    def _bot_plays(self, game: str, actor: Actor, report: PassReport) -> list[str]:
        """The decisions the bot holding ``actor``'s seat answered (``pbem.mail.botseat``);
        a refusal is a problem of this game, and what was played before it is kept."""
        played: list[str] = []
        head = self.store.head(game)
        keys = [c.sign_key for c in head.position.cards]
        if actor.bot is None or actor.card.sign_key not in keys or head.position.result:
            return played
        ruleset = head.position.rules.id
        try:
            for move in actor.bot.play(self.store, game):
                played.append(move)
                report.lines.append(
                    _("bot {bot} played {move} for {name} in {ruleset} game {game}").format(
                        bot=actor.bot.spec,
                        move=move,
                        name=actor.card.name,
                        ruleset=ruleset,
                        game=short_id(game),
                    )
                )
        except PbemError as exc:
            report.problems.append(f"game {short_id(game)}: bot {actor.bot.spec}: {exc}")
        return played

    def _who(self, actor: Actor) -> str:
        """``"NAME: "`` before what the robot says of one identity, when it acts for several
        (nothing when it acts for one: then every line is about you)."""
        return f"{actor.card.name}: " if len(self.actors) > 1 else ""

    def _as(self, actor: Actor) -> str:
        """``" --as NAME"`` after a command to type, when the home holds several."""
        return f" --as {actor.card.name}" if len(self.actors) > 1 else ""

    def _message(self, game: str, sender: Actor) -> list[EmailMessage]:
        """The messages of the game's newest head, one for each language its recipients
        read (``messages_for``), composed in one read of the store."""
        with self.store.reading():
            head = self.store.head(game)
            messages = messages_for(head, sender.card, self.config.smtp, exclude=self.bots_here)
        if messages:  # queued now, and sent from the outbox until a server took them
            mark_sent(self.store, game, sender.card, head.position)
        return messages

    def _tell(self, head: Head, actor: Actor, report: PassReport) -> None:
        """What ``actor`` must be told of ``head``: a signature due on a call or a
        handover, a deadline passed, or (for a person) a decision awaited."""
        now = head.position
        me = actor.card
        if not _takes_part(head, actor):
            return
        if now.interrupt is not None:  # a call or a handover: only its signers are awaited
            if waits_for(now, me):
                short = short_id(head.game)
                lines = [describe_awaiting(now), *signature_due(now, me, short)]
                self._tell_once(head, actor, report, lines)
            return
        mine = me.sign_key in [now.cards[s].sign_key for s in now.remaining()]
        self._deadline(head, actor, mine, report)
        if actor.bot is not None or not mine or not needs_decision(now):
            return  # a bot answers its seat's decisions itself
        self._tell_once(head, actor, report)

    def _tell_once(
        self, head: Head, actor: Actor, report: PassReport, what: list[str] | None = None
    ) -> None:
        """``_notify``, once for each head of the game and identity."""
        who = actor.card.fingerprint
        if self.memory.notified(who, head.game) != head.label:
            self._notify(head, actor, report, what)
            self.memory.mark_notified(who, head.game, head.label)

    def _deadline(self, head: Head, actor: Actor, mine: bool, report: PassReport) -> None:
        """Once per deadline period that an awaited position is past its deadline: each
        seat that is not awaited mails the late seats a reminder with the steps they lack
        from its own copy (so a message that was lost on the way is sent again, whoever
        sent it), and is told it may call."""
        pos = head.position
        me = actor.card
        deadline = due(pos)
        who = f"deadline {me.fingerprint}"
        may_call = me.sign_key in {pos.cards[s].sign_key for s in callers(pos)}
        if mine or deadline is None or utc_now() < deadline or not may_call:
            return  # a referee, a resigned seat or an awaited one cannot call
        period = (utc_now() - deadline) // pos.genesis.deadline
        mark = f"{head.label} #{period}"
        if self.memory.notified(who, head.game) == mark:
            return
        self.memory.mark_notified(who, head.game, mark)
        late = " ".join(pos.names[s] for s in pos.remaining())
        short = short_id(head.game)
        report.lines.append(
            f"{pos.rules.id} {short}: "
            + _("{late} past the deadline: {who}you may call: {command}").format(
                late=late,
                who=self._who(actor),
                command=f"pbem call {short} {late}{self._as(actor)}",
            )
        )
        text = waiting(pos, utc_now())
        with self.store.reading():
            now = self.store.head(head.game, head)
            reminder = reminder_for(now, me, self.config.smtp, text, exclude=self.bots_here)
        self._queue(reminder)

    def _notify(
        self, head: Head, actor: Actor, report: PassReport, what: list[str] | None = None
    ) -> None:
        """Tell the player (a line, and the notify command) that the game waits for them:
        for a decision, or for ``what`` (their signature on a call or a handover)."""
        pos = head.position
        short = short_id(head.game)
        name = actor.card.name
        told = (
            "; ".join(what)
            if what
            else _("your decision is awaited: {command}").format(
                command=f"pbem moves {short} --as {name}"
            )
        )
        report.lines.append(f"{pos.rules.id} {short}: {name}: {told}")
        if not self.config.notify:
            return
        env = {**os.environ, **notify_variables(head, name)}
        try:
            done = subprocess.run(
                shlex.split(self.config.notify), env=env, timeout=NOTIFY_TIMEOUT, check=False
            )
        except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
            report.problems.append(_("notify command failed: {why}").format(why=exc))
            return
        if done.returncode:
            report.problems.append(
                _("notify command exited with {code}").format(code=done.returncode)
            )

    # ----- sending ---------------------------------------------------------------------------

    def _stranded(self, game: str, actor: Actor) -> bool:
        """Whether ``actor`` signed steps in ``game`` that no file or message carries: the
        robot (or a command) was killed between keeping them and sending them."""
        pos = self.store.head(game).position
        keys = [c.sign_key for c in [*pos.cards, *pos.genesis.escrow.referees]]
        if actor.card.sign_key not in keys:
            return False
        return bool(Journal(self.store).unwritten(game, keys.index(actor.card.sign_key)))

    def _queue(
        self, message: EmailMessage | list[EmailMessage] | None, game: str | None = None
    ) -> None:
        """Keep ``message`` (or each of a list) in the outbox; with ``game``, it carries
        what the home signed there, in the same transaction (``Store.carried``)."""
        messages = message if isinstance(message, list) else [message] if message else []
        if not messages:
            return
        with self.store.writing():
            for each in messages:
                self.memory.queue(each)
                if game is not None:
                    self.store.carried(game, f"the mail {each['Message-ID']}")

    def flush(self, report: PassReport) -> None:
        """Send the queued messages (``pbem.mail.outbox``): one line for each sent, and
        the failure that keeps the rest for a later pass, sooner than the usual wait."""
        done = outbox.flush(self.memory, self.config.smtp, self._smtp_password)
        report.lines += done.lines()
        if done.failed is not None:
            report.problems.append(
                _("{why} (kept in the outbox, retried next pass)").format(why=done.failed)
            )
            report.server_failed = True


def _takes_part(head: Head, actor: Actor) -> bool:
    """Whether ``actor`` holds a seat (or is an escrow referee) in a game not over."""
    pos = head.position
    keys = {c.sign_key for c in pos.cards} | {c.sign_key for c in pos.genesis.escrow.referees}
    return pos.result is None and actor.card.sign_key in keys
