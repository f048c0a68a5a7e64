"""Finding game files in a mail message, however the mail got here.

A game file may be an attachment (any transfer encoding), a file pasted into the body,
or either of those inside a forwarded message. A message may also carry a step bundle (the
steps its recipient lacks) or a request for missing steps, each an attachment of its own
media type (``schemas/format.md`` §10). Mail clients mangle bodies: they quote
(``> ``), wrap long lines, or send ``format=flowed``. JSON itself does not care about
line breaks between tokens, so the only repair needed is to rejoin strings that a line
break split; everything else is left to the strict parser, and the signatures decide
whether the result is the file that was signed.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from dataclasses import dataclass, field
from email.message import EmailMessage, Message

from pbem.format import gamefile
from pbem.format.bundle import (
    REQUEST_TYPE,
    STEPS_TYPE,
    Bundle,
    Request,
    decode_bundle,
    decode_request,
)
from pbem.format.errors import Rejected
from pbem.format.gamefile import GameFile

MARKER = re.compile(r'"format"\s*:\s*"pbem/')
QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.MULTILINE)


@dataclass
class Found:
    """What one message holds: game files (labelled by where they were) and one-line
    problems with parts that looked like game files but could not be read."""

    label: str
    games: list[tuple[str, GameFile]] = field(default_factory=list)
    bundles: list[tuple[str, Bundle]] = field(default_factory=list)
    requests: list[tuple[str, Request]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def parse_message(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def describe(message: Message, fallback: str) -> str:
    """How to name a message in one line: its Message-ID, else its subject, else where."""
    ident = str(message.get("Message-ID", "")).strip()
    subject = " ".join(str(message.get("Subject", "")).split())
    return ident or (f"message {subject!r}" if subject else fallback)


def find_games(raw: bytes, fallback: str) -> Found:
    message = parse_message(raw)
    found = Found(describe(message, fallback))
    for part in message.walk():
        if part.is_multipart():
            continue
        filename = part.get_filename()
        ctype = part.get_content_type()
        if filename or part.get_content_disposition() == "attachment":
            name = (filename or "").lower()
            if ctype == STEPS_TYPE or name.endswith(".steps.json"):
                _carried(part, filename or ctype, found, "bundle")
            elif ctype == REQUEST_TYPE or name.endswith(".request.json"):
                _carried(part, filename or ctype, found, "request")
            elif ctype.endswith("/json") or name.endswith(".json"):
                _attachment(part, filename or ctype, found)
        elif ctype == "text/plain":
            _body(part, found)
    if not (found.games or found.bundles or found.requests or found.problems):
        found.problems.append("no game file in it (neither attached nor pasted)")
    return found


def _keep(found: Found, label: str, game: GameFile) -> None:
    if all(game != other for _, other in found.games):  # attached and pasted counts once
        found.games.append((label, game))


def _attachment(part: Message, name: str, found: Found) -> None:
    label = f"attachment {name}"
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes) or not data.strip():
        found.problems.append(f"{label} is empty")
        return
    try:
        _keep(found, label, gamefile.decode(data, what=label))
    except Rejected as exc:
        stripped = data.strip()
        cut = stripped.startswith(b"{") and not stripped.endswith(b"}")
        found.problems.append(f"{label} is truncated: it ends mid-file" if cut else str(exc))


def _carried(part: Message, name: str, found: Found, kind: str) -> None:
    """A step bundle or a request for steps, read as strictly as a game file."""
    label = f"attachment {name}"
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes) or not data.strip():
        found.problems.append(f"{label} is empty")
        return
    try:
        if kind == "bundle":
            found.bundles.append((label, decode_bundle(data, what=label)))
        else:
            found.requests.append((label, decode_request(data, what=label)))
    except Rejected as exc:
        found.problems.append(str(exc))


def _body(part: Message, found: Found) -> None:
    try:
        text = part.get_content()
    except (LookupError, UnicodeError) as exc:
        found.problems.append(f"the message text cannot be decoded: {exc}")
        return
    if not MARKER.search(text):
        return
    if part.get_param("format", "").lower() == "flowed":
        text = unflow(text, part.get_param("delsp", "").lower() == "yes")
    text = QUOTE.sub("", text)
    for number, start in enumerate(_starts(text), 1):
        label = f"game file pasted in the text ({number})"
        candidate = rejoin_strings(text[start:])
        try:
            value, end = json.JSONDecoder().raw_decode(candidate)
        except (json.JSONDecodeError, RecursionError) as exc:
            line = getattr(exc, "lineno", "?")
            found.problems.append(f"{label} is truncated or damaged (line {line})")
            continue
        kind = value.get("kind") if isinstance(value, dict) else None
        try:
            if kind == "steps":  # a step bundle saved as a file, or pasted
                found.bundles.append((label, decode_bundle(candidate[:end], what=label)))
            elif kind == "request":
                found.requests.append((label, decode_request(candidate[:end], what=label)))
            else:
                _keep(found, label, gamefile.decode(candidate[:end], what=label))
        except Rejected as exc:
            found.problems.append(str(exc))


def _starts(text: str) -> list[int]:
    """Where pasted game files begin: the ``{`` just before each format marker (pbem
    writes keys sorted, so ``format`` is the first key of the file)."""
    starts = []
    for match in MARKER.finditer(text):
        start = text.rfind("{", 0, match.start())
        if start >= 0 and start not in starts:
            starts.append(start)
    return starts


def rejoin_strings(text: str) -> str:
    """Drop line breaks inside JSON strings: valid JSON has none there, so any such break
    was put in by a mail client wrapping a long line."""
    out = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            if ch in "\r\n":
                continue
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        out.append(ch)
    return "".join(out)


def unflow(text: str, delsp: bool) -> str:
    """Undo RFC 3676 ``format=flowed``: a line ending in a space continues on the next."""
    out: list[str] = []
    pending = ""
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if line.endswith(" ") and line != "-- ":
            pending += line[:-1] if delsp else line
        else:
            out.append(pending + line)
            pending = ""
    if pending:
        out.append(pending)
    return "\n".join(out)
