"""The mail robot behind ``pbem watch``: the steps that need no decision, done by mail.

One pass: send what waits in the outbox; read the messages that arrived since the last
pass and import them; make this identity's automatic steps (join, beacon supply, reveals)
in every stored game, and, when a bot holds this identity's seat (``pbem watch --bot``),
its decisions; queue the new version for the players now awaited; run the notification
command once per new position that awaits a human decision; send again.

Restart-safe by construction, with all its memory in the store (``pbem.mail.memory``):

- what was read is remembered per mailbox (UIDVALIDITY and the last UID done) and per
  Message-ID, saved after every message, so a crash or a dropped connection costs at most
  re-reading one message, and importing it twice changes nothing;
- what must be sent is queued in the store's outbox before any attempt, and marked sent
  only once the server took it, so a refused or dropped SMTP session loses nothing;
- which steps to make is decided from the store, not from the message that brought the
  game, so steps owed when the robot stopped are made on the next pass; what it signs is
  journaled like everything a player signs, so it never contradicts the player.

Mail is never deleted or flagged on the server.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from pbem.crypto.keys import Identity
from pbem.format.errors import PbemError
from pbem.format.words import plural
from pbem.ledger.awaiting import describe_awaiting, needs_decision, signature_due, waits_for
from pbem.ledger.deadlines import due, waiting
from pbem.mail import transport
from pbem.mail.botseat import BotSeat
from pbem.mail.compose import message_for, reminder_for
from pbem.mail.config import MailConfig
from pbem.mail.extract import parse_message
from pbem.mail.inbox import describe, import_message
from pbem.mail.memory import Memory
from pbem.mail.waiting import Waiter, Woken
from pbem.play.author import automatic
from pbem.play.rescue import callers
from pbem.play.signer import utc_now
from pbem.store.chain import short_id
from pbem.store.head import Head
from pbem.store.journal import Journal
from pbem.store.store import Store

NOTIFY_TIMEOUT = 60

#: What the notify command is told, in its environment (``pbem config --help`` lists them).
NOTIFY_VARIABLES = {
    "PBEM_GAME": "the game's full id",
    "PBEM_SHORT_ID": "its short id, to type: pbem moves -- $PBEM_SHORT_ID",
    "PBEM_RULESET": "the ruleset (rattaneer, rattus, ...)",
    "PBEM_STEP": "the step the game is at, as pbem log numbers it",
    "PBEM_AWAITING": "who must do what, in words",
}


def notify_variables(head: Head) -> dict[str, str]:
    """The environment of the notify command for this position (``NOTIFY_VARIABLES``)."""
    pos = head.position
    return {
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


class Robot:
    """Acts for one identity, on the store in ``home``."""

    def __init__(
        self,
        home: Path,
        me: Identity,
        config: MailConfig,
        smtp_password: str | None,
        imap_password: str | None,
        tell: Callable[[str], None] = lambda line: None,
        bot: str | None = None,
    ) -> None:
        """``bot``: the spec of a bot that answers this identity's decisions
        (``pbem.mail.botseat``); none: a person does, told by the notify command."""
        self.me = me
        self.bot = BotSeat(bot, me) if bot is not None else None
        self.config = config
        self.store = Store(home)
        self.memory = Memory(self.store)
        self._smtp_password = smtp_password
        self._imap_password = imap_password
        self.waiter = Waiter(config.imap, imap_password, tell)

    def wait(self, seconds: float) -> Woken:
        """Until mail may have come (IMAP IDLE), or ``seconds`` (``pbem.mail.waiting``)."""
        uidvalidity, last = self.memory.last_read(transport.mailbox_key(self.config.imap))
        return self.waiter.wait(seconds, uidvalidity, last)

    # ----- one pass --------------------------------------------------------------------------

    def run_once(self) -> PassReport:
        report = PassReport()
        self.flush(report)
        self.read_mail(report)
        self.act(report)
        self.flush(report)
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
        ident = str(parse_message(raw).get("Message-ID", "")).strip()
        key = ident or "sha256:" + hashlib.sha256(raw).hexdigest()
        if self.memory.seen(key):
            return
        result = import_message(self.store, raw, where)
        for imported in result.imported:
            if imported.status in {"duplicate", "behind"}:
                continue
            report.lines.append(describe(imported, self.me.card)[1])
            if imported.status == "merged" and imported.new_steps and self.config.smtp.cc == "none":
                # Without Cc, the seats awaited next may lack envelopes merged here.
                self._queue(message_for(imported.head, self.me.card, self.config.smtp))
        report.problems += [f"{result.label}: {p}" for p in result.problems]
        self.memory.mark_seen(key)

    def act(self, report: PassReport) -> None:
        """Automatic steps in every stored game where this identity holds a seat."""
        for game in self.store.ids():
            try:
                self._act_on(game, report)
            except PbemError as exc:
                report.problems.append(f"game {short_id(game)}: {exc}")

    def _act_on(self, game: str, report: PassReport) -> None:
        with self.store.writing():
            head = self.store.head(game)
            pos = head.position
            keys = [c.sign_key for c in pos.cards]
            referees = [c.sign_key for c in pos.genesis.escrow.referees]
            if pos.result is not None or self.me.card.sign_key not in {*keys, *referees}:
                return
            made = automatic(pos, self.me, journal=Journal(self.store))
            if made:
                self.store.save(head, "made by pbem watch")
        short = short_id(game)
        if made:
            report.lines.append(f"{pos.rules.id} {short}: made {plural(made, 'automatic step')}")
        played = self._bot_plays(game, self.me.card.sign_key in keys, report)
        head = self.store.head(game)
        if made or played:
            self._queue(message_for(head, self.me.card, self.config.smtp))
        now = head.position
        if now.interrupt is not None:  # a call or a handover: only its signers are awaited
            if waits_for(now, self.me.card):
                self._tell_once(
                    head, report, [describe_awaiting(now), *signature_due(now, self.me.card, short)]
                )
            return
        mine = self.me.card.sign_key in [keys[s] for s in now.remaining()]
        self._deadline(head, mine, report)
        if self.bot is not None or not mine or not needs_decision(now):
            return  # a bot answers its seat's decisions itself
        self._tell_once(head, report)

    def _tell_once(self, head: Head, report: PassReport, what: list[str] | None = None) -> None:
        """``_notify``, once for each head of the game."""
        who = self.me.card.fingerprint  # one home may hold several players
        if self.memory.notified(who, head.game) != head.label:
            self._notify(head, report, what)
            self.memory.mark_notified(who, head.game, head.label)

    def _bot_plays(self, game: str, seated: bool, report: PassReport) -> list[str]:
        """The decisions the bot holding this seat answered (``pbem.mail.botseat``); a
        refusal is a problem of this game, and what was played before it is kept."""
        played: list[str] = []
        if self.bot is None or not seated:
            return played
        ruleset = self.store.head(game).position.rules.id
        try:
            for move in self.bot.play(self.store, game):
                played.append(move)
                report.lines.append(
                    f"bot {self.bot.spec} played {move} in {ruleset} game {short_id(game)}"
                )
        except PbemError as exc:
            report.problems.append(f"game {short_id(game)}: bot {self.bot.spec}: {exc}")
        return played

    def _deadline(self, head: Head, mine: bool, report: PassReport) -> None:
        """Once per awaited position past its deadline: the first seat that is not awaited
        mails the late seats a reminder; every other player is told it may call."""
        pos = head.position
        deadline = due(pos)
        who = f"deadline {self.me.card.fingerprint}"
        if mine or deadline is None or utc_now() < deadline:
            return
        if self.memory.notified(who, head.game) == head.label:
            return
        self.memory.mark_notified(who, head.game, head.label)
        late = " ".join(pos.names[s] for s in pos.remaining())
        short = short_id(head.game)
        report.lines.append(
            f"{pos.rules.id} {short}: {late} past the deadline: you may call: "
            f"pbem call {short} {late}"
        )
        if callers(pos) and pos.cards[callers(pos)[0]].sign_key == self.me.card.sign_key:
            self._queue(reminder_for(head, self.me.card, self.config.smtp, waiting(pos, utc_now())))

    def _notify(self, head: Head, report: PassReport, what: list[str] | None = None) -> None:
        """Tell the player (a line, and the notify command) that the game waits for them:
        for a decision, or for ``what`` (their signature on a call or a handover)."""
        pos = head.position
        short = short_id(head.game)
        told = "; ".join(what) if what else f"your decision is awaited: pbem moves {short}"
        report.lines.append(f"{pos.rules.id} {short}: {told}")
        if not self.config.notify:
            return
        env = {**os.environ, **notify_variables(head)}
        try:
            done = subprocess.run(
                shlex.split(self.config.notify), env=env, timeout=NOTIFY_TIMEOUT, check=False
            )
        except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
            report.problems.append(f"notify command failed: {exc}")
            return
        if done.returncode:
            report.problems.append(f"notify command exited with {done.returncode}")

    # ----- sending ---------------------------------------------------------------------------

    def _queue(self, message: EmailMessage | None) -> None:
        if message is not None:
            self.memory.queue(message)

    def flush(self, report: PassReport) -> None:
        """Send the queued messages, oldest first; stop at the first server failure."""
        for number, raw in self.memory.outbox():
            message = parse_message(raw)
            try:
                transport.send(self.config.smtp, self._smtp_password, message)
            except PbemError as exc:
                report.problems.append(f"{exc} (kept in the outbox, retried next pass)")
                report.server_failed = True
                return
            self.memory.sent(number)
            subject = " ".join(str(message["Subject"]).split())
            report.lines.append(f"sent {subject!r} to {message['To']}")
