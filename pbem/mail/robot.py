"""The mail robot behind ``pbem watch``: the steps that need no decision, done by mail.

One pass: send what waits in the outbox; read the messages that arrived since the last
pass and import them; make this identity's automatic steps (join, beacon supply, reveals)
in every stored game and queue the new version for the players now awaited; run the
notification command once per new position that awaits a human decision; send again.

Restart-safe by construction:

- what was read is remembered per mailbox (UIDVALIDITY and the last UID done) and per
  Message-ID, saved after every message, so a crash or a dropped connection costs at most
  re-reading one message, and importing it twice changes nothing;
- what must be sent is written to ``outbox/`` before any attempt, and moved to ``sent/``
  only once the server took it, so a refused or dropped SMTP session loses nothing;
- which steps to make is decided from the store, not from the message that brought the
  game, so steps owed when the robot stopped are made on the next pass.

Mail is never deleted or flagged on the server.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from pbem.core.author import automatic
from pbem.core.canonical import parse, pretty
from pbem.core.errors import PbemError
from pbem.core.files import atomic_write
from pbem.core.keys import Identity
from pbem.core.replay import Replay
from pbem.core.store import Store, head_label, short_id
from pbem.mail import transport
from pbem.mail.compose import message_for, needs_decision
from pbem.mail.config import MailConfig
from pbem.mail.extract import parse_message
from pbem.mail.inbox import describe, import_message

NOTIFY_TIMEOUT = 60


@dataclass
class PassReport:
    """What one pass did (``lines``), what went wrong (``problems``, one line each), and
    whether a server failed (then the pass is worth repeating soon)."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    server_failed: bool = False


class Robot:
    """Acts for one identity; its memory (``mail/robot.json``), outbox and sent mail live
    beside the game store in ``home``."""

    def __init__(
        self,
        home: Path,
        me: Identity,
        config: MailConfig,
        smtp_password: str | None,
        imap_password: str | None,
    ) -> None:
        self.me = me
        self.config = config
        self.store = Store(home)
        self.dir = home / "mail"
        self.state_path = self.dir / "robot.json"
        self._smtp_password = smtp_password
        self._imap_password = imap_password

    # ----- memory ----------------------------------------------------------------------------

    def _state(self) -> dict[str, Any]:
        try:
            state = parse(self.state_path.read_bytes(), what=str(self.state_path))
        except FileNotFoundError:
            state = {}
        state.setdefault("mailboxes", {})
        state.setdefault("messages", [])
        state.setdefault("notified", {})
        return state

    def _save(self, state: dict[str, Any]) -> None:
        self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write(self.state_path, pretty(state).encode(), mode=0o600)

    # ----- one pass --------------------------------------------------------------------------

    def run_once(self) -> PassReport:
        report = PassReport()
        self.flush(report)
        self.read_mail(report)
        self.act(report)
        self.flush(report)
        return report

    def read_mail(self, report: PassReport) -> None:
        state = self._state()
        try:
            with transport.Mailbox(self.config.imap, self._imap_password) as box:
                memory = state["mailboxes"].setdefault(box.key, {"uidvalidity": 0, "last": 0})
                if memory["uidvalidity"] != box.uidvalidity:  # the mailbox was rebuilt
                    memory.update(uidvalidity=box.uidvalidity, last=0)
                for uid in box.uids_after(memory["last"]):
                    raw = box.fetch(uid)
                    self._take(raw, f"{box.key} UID {uid}", state, report)
                    memory["last"] = uid
                    self._save(state)
        except transport.MailError as exc:
            report.problems.append(str(exc))
            report.server_failed = True

    def _take(self, raw: bytes, where: str, state: dict[str, Any], report: PassReport) -> None:
        ident = str(parse_message(raw).get("Message-ID", "")).strip()
        key = ident or "sha256:" + hashlib.sha256(raw).hexdigest()
        if key in state["messages"]:
            report.lines.append(f"{where}: {ident or 'message'} seen before, skipped")
            return
        result = import_message(self.store, raw, where)
        for imported in result.imported:
            report.lines.append(describe(imported, self.me.card)[1])
            if imported.status == "merged" and imported.new_steps and self.config.smtp.cc == "none":
                # Without Cc, the seats awaited next may lack envelopes merged here.
                self._queue(message_for(imported.replay, self.me.card, self.config.smtp))
        report.problems += [f"{result.label}: {p}" for p in result.problems]
        state["messages"].append(key)

    def act(self, report: PassReport) -> None:
        """Automatic steps in every stored game where this identity holds a seat."""
        state = self._state()
        for summary in self.store.summaries():
            if summary["over"] or self.me.card.sign_key not in summary["seat_keys"]:
                continue
            try:
                self._act_on(summary["game"], state, report)
            except PbemError as exc:
                report.problems.append(f"game {short_id(summary['game'])}: {exc}")
        self._save(state)

    def _act_on(self, game: str, state: dict[str, Any], report: PassReport) -> None:
        replay = self.store.load(game)
        made = automatic(replay, self.me)
        if made:
            imported = self.store.save_produced(replay)
            report.lines.append(
                f"{replay.rules.id} {short_id(game)}: made {made} automatic step(s)"
            )
            self._queue(message_for(imported.replay, self.me.card, self.config.smtp))
        mine = self.me.card.sign_key in [
            replay.genesis.seats[s].sign_key for s in replay.remaining()
        ]
        head = head_label(replay.steps)
        seen = f"{self.me.card.fingerprint} {game}"  # one home may hold several players
        if mine and needs_decision(replay) and state["notified"].get(seen) != head:
            self._notify(replay, game, report)
            state["notified"][seen] = head

    def _notify(self, replay: Replay, game: str, report: PassReport) -> None:
        path = self.store.head_path(game)
        report.lines.append(
            f"{replay.rules.id} {short_id(game)}: your decision is awaited: pbem moves {path}"
        )
        if not self.config.notify:
            return
        env = {
            **os.environ,
            "PBEM_GAME": game,
            "PBEM_RULESET": replay.rules.id,
            "PBEM_FILE": str(path),
        }
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
        if message is None:
            return
        outbox = self.dir / "outbox"
        outbox.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write(outbox / f"{time.time_ns():020d}.eml", message.as_bytes(), mode=0o600)

    def outbox(self) -> list[Path]:
        folder = self.dir / "outbox"
        return sorted(folder.glob("*.eml")) if folder.is_dir() else []

    def flush(self, report: PassReport) -> None:
        """Send the queued messages, oldest first; stop at the first server failure."""
        sent_dir = self.dir / "sent"
        for path in self.outbox():
            message = parse_message(path.read_bytes())
            try:
                transport.send(self.config.smtp, self._smtp_password, message)
            except PbemError as exc:
                report.problems.append(f"{exc} (kept in {path.parent}, retried next pass)")
                report.server_failed = True
                return
            sent_dir.mkdir(mode=0o700, exist_ok=True)
            os.replace(path, sent_dir / path.name)
            report.lines.append(f"sent {message['Subject']} to {message['To']}")
