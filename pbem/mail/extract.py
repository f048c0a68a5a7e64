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
import hashlib
import re
from collections.abc import Iterator
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
from pbem.format.canonical import parse, value_end
from pbem.format.errors import Rejected
from pbem.format.gamefile import GameFile
from pbem.format.limits import (
    MAX_ATTACHMENTS,
    MAX_HEADER_BYTES,
    MAX_MAIL_BYTES,
    MAX_MIME_DEPTH,
    MAX_MIME_PARAMETERS,
    MAX_MIME_PARTS,
    MAX_READ_HEADER_BYTES,
    READ_HEADERS,
    OverLimit,
    check_size,
)

MARKER = re.compile(r'"format"\s*:\s*"pbem/')
QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.MULTILINE)
#: Header lines that open a container part (multipart or an enclosed message), counted
#: before the mail is parsed: the parser recurses into each.
CONTAINER = re.compile(rb"^content-type:\s*(?:multipart|message)/", re.IGNORECASE | re.MULTILINE)
#: Lines that may open a part (``--boundary``): a mail with thousands is refused before the
#: parser reads each part (4 for each part allowed: some text lines start so too).
DELIMITER = re.compile(rb"^--", re.MULTILINE)
#: The header fields the parser reads while it parses (to find parts), with their
#: continuation lines: measured before it does.
STRUCTURE = re.compile(
    rb"^content-(?:type|disposition):[^\n]*(?:\n[ \t][^\n]*)*", re.IGNORECASE | re.MULTILINE
)
MESSAGE_ID = re.compile(rb"^message-id:[ \t]*(<[^<>\s]{1,250}>)", re.IGNORECASE | re.MULTILINE)
HEADER_END = re.compile(rb"\r?\n\r?\n")


@dataclass
class Found:
    """What one message holds: game files (labelled by where they were) and one-line
    problems with parts that looked like game files but could not be read. ``hostile``:
    the reasons it is quarantined (refused by an input limit, or not readable as mail)."""

    label: str
    games: list[tuple[str, GameFile]] = field(default_factory=list)
    bundles: list[tuple[str, Bundle]] = field(default_factory=list)
    requests: list[tuple[str, Request]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    sender: str = ""
    reminder: bool = False
    hostile: list[str] = field(default_factory=list)

    def refuse(self, problem: Rejected | str) -> None:
        """One problem line; one from an input limit also quarantines the message."""
        self.problems.append(str(problem))
        if isinstance(problem, OverLimit):
            self.hostile.append(str(problem))


@dataclass
class Part:
    """A part of a message as the game finders need it, taken out of the parsed mail:
    an attachment's bytes, or a text part's text (None: it could not be decoded)."""

    filename: str | None
    ctype: str
    attached: bool
    data: bytes | None = None
    text: str | None = None
    flowed: bool = False
    delsp: bool = False


def parse_message(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def describe(message: Message, fallback: str) -> str:
    """How to name a message in one line: its Message-ID, else its subject, else where."""
    ident = str(message.get("Message-ID", "")).strip()
    subject = " ".join(str(message.get("Subject", "")).split())
    return ident or (f"message {subject!r}" if subject else fallback)


def message_key(raw: bytes) -> str:
    """What the robot remembers a message by: its Message-ID (read from the raw headers,
    without the parser) and a digest of its body. A redelivery of the same mail (other
    ``Received:`` lines, the same body) is the same message; a mail sent again under its
    Message-ID after a first copy arrived damaged is not, and is read."""
    ident = MESSAGE_ID.search(raw[: _header_end(raw)])
    body = raw[_header_end(raw) :]
    digest = "sha256:" + hashlib.sha256(body if ident else raw).hexdigest()
    return f"{ident.group(1).decode('ascii', 'replace')} {digest}" if ident else digest


def _header_end(raw: bytes) -> int:
    end = HEADER_END.search(raw)
    return end.end() if end else len(raw)


def check_mail(raw: bytes, where: str) -> None:
    """The limits a mail is held to before it is parsed (``pbem.format.limits``): its size,
    and the number of container parts the parser would recurse into."""
    check_size(len(raw), MAX_MAIL_BYTES, f"the message ({where})")
    containers = len(CONTAINER.findall(raw))
    if containers > MAX_MIME_PARTS:
        raise OverLimit(f"more than {MAX_MIME_PARTS} MIME parts ({containers} containers)")
    delimiters = len(DELIMITER.findall(raw))
    if delimiters > 4 * MAX_MIME_PARTS:
        raise OverLimit(f"more than {MAX_MIME_PARTS} MIME parts ({delimiters} boundary lines)")
    for found in STRUCTURE.finditer(raw):
        name, value = found.group().decode("ascii", "replace").split(":", 1)
        _header_size(name, value)


def _header_size(name: str, value: str) -> None:
    """A header field within the limits: its length (shorter for the fields pbem reads:
    the parser's time grows faster than their length), and its parameters."""
    read = name.strip().lower() in READ_HEADERS
    limit = MAX_READ_HEADER_BYTES if read else MAX_HEADER_BYTES
    if len(value) > limit:
        raise OverLimit(f"a {name[:40]} header of {len(value)} bytes (at most {limit // 1024} KiB)")
    structural = name.lower() in {"content-type", "content-disposition"}
    if structural and value.count(";") > MAX_MIME_PARAMETERS:
        raise OverLimit(f"a {name} header with more than {MAX_MIME_PARAMETERS} parameters")


def _parts(message: Message) -> Iterator[tuple[Message, int]]:
    """Every part of ``message`` with its depth, without recursion, within the limits."""
    stack: list[tuple[Message, int]] = [(message, 1)]
    count = 0
    while stack:
        part, depth = stack.pop()
        count += 1
        if count > MAX_MIME_PARTS:
            raise OverLimit(f"more than {MAX_MIME_PARTS} MIME parts")
        if depth > MAX_MIME_DEPTH:
            raise OverLimit(f"MIME parts nested deeper than {MAX_MIME_DEPTH} levels")
        for name, value in part.raw_items():  # before any is parsed (they are, on access)
            _header_size(name, str(value))
        yield part, depth
        if part.is_multipart():
            children = part.get_payload()
            if isinstance(children, list):
                stack.extend((child, depth + 1) for child in reversed(children))


def open_message(raw: bytes, fallback: str) -> tuple[Found, list[Part]]:
    """The message's label, sender and parts, out of the stdlib parser. Everything the
    parser does on untrusted bytes happens here, after the limits were checked; a message
    it cannot read (it raises on some malformed headers) is quarantined with the reason."""
    ident = MESSAGE_ID.search(raw[: _header_end(raw)])
    found = Found(ident.group(1).decode("ascii", "replace") if ident else fallback)
    try:
        check_mail(raw, found.label)
        message = parse_message(raw)
        walked = [part for part, _ in _parts(message)]  # the limits, before any header is read
        found.label = describe(message, fallback)
        sender = getattr(message["From"], "addresses", ())
        found.sender = sender[0].addr_spec if sender else ""
        found.reminder = str(message.get("X-Pbem-Reminder", "")).strip() == "yes"
        parts = [_part(part) for part in walked if not part.is_multipart()]
    except OverLimit as exc:
        found.refuse(exc)
        return found, []
    except (RecursionError, LookupError, ValueError, TypeError, AttributeError) as exc:
        # The email package raises these on some hostile headers and structures.
        found.refuse(OverLimit(f"cannot be read as mail ({type(exc).__name__})"))
        return found, []
    attached = [p for p in parts if p.attached]
    if len(attached) > MAX_ATTACHMENTS:
        found.refuse(OverLimit(f"more than {MAX_ATTACHMENTS} attachments ({len(attached)})"))
        return found, []
    return found, parts


def _part(part: Message) -> Part:
    filename = part.get_filename()
    ctype = part.get_content_type()
    attached = bool(filename) or part.get_content_disposition() == "attachment"
    out = Part(filename, ctype, attached)
    if attached:
        data = part.get_payload(decode=True)
        out.data = data if isinstance(data, bytes) else b""
    elif ctype == "text/plain":
        try:
            out.text = part.get_content()
        except (LookupError, UnicodeError) as exc:
            out.text = None
            out.data = str(exc).encode()
        out.flowed = part.get_param("format", "").lower() == "flowed"
        out.delsp = part.get_param("delsp", "").lower() == "yes"
    return out


def find_games(raw: bytes, fallback: str) -> Found:
    found, parts = open_message(raw, fallback)
    for part in parts:
        if part.attached:
            name = (part.filename or "").lower()
            label = f"attachment {part.filename or part.ctype}"
            if part.ctype == STEPS_TYPE or name.endswith(".steps.json"):
                _carried(part, label, found, "bundle")
            elif part.ctype == REQUEST_TYPE or name.endswith(".request.json"):
                _carried(part, label, found, "request")
            elif part.ctype.endswith("/json") or name.endswith(".json"):
                _attachment(part, label, found)
        elif part.ctype == "text/plain":
            _body(part, found)
    if not (found.games or found.bundles or found.requests or found.problems):
        found.problems.append("no game file in it (neither attached nor pasted)")
    return found


def _keep(found: Found, label: str, game: GameFile) -> None:
    if all(game != other for _, other in found.games):  # attached and pasted counts once
        found.games.append((label, game))


def _attachment(part: Part, label: str, found: Found) -> None:
    data = part.data or b""
    if not data.strip():
        found.problems.append(f"{label} is empty")
        return
    try:
        _keep(found, label, gamefile.decode(data, what=label))
    except OverLimit as exc:
        found.refuse(exc)
    except Rejected as exc:
        stripped = data.strip()
        cut = stripped.startswith(b"{") and not stripped.endswith(b"}")
        found.refuse(f"{label} is truncated: it ends mid-file" if cut else str(exc))


def _carried(part: Part, label: str, found: Found, kind: str) -> None:
    """A step bundle or a request for steps, read as strictly as a game file."""
    data = part.data or b""
    if not data.strip():
        found.problems.append(f"{label} is empty")
        return
    try:
        if kind == "bundle":
            found.bundles.append((label, decode_bundle(data, what=label)))
        else:
            found.requests.append((label, decode_request(data, what=label)))
    except Rejected as exc:
        found.refuse(exc)


def _body(part: Part, found: Found) -> None:
    text = part.text
    if text is None:
        found.problems.append(f"the message text cannot be decoded: {(part.data or b'').decode()}")
        return
    if not MARKER.search(text):
        return
    if part.flowed:
        text = unflow(text, part.delsp)
    text = QUOTE.sub("", text)
    starts = _starts(text)
    if len(starts) > MAX_ATTACHMENTS:
        found.refuse(OverLimit(f"more than {MAX_ATTACHMENTS} game files pasted in the text"))
        return
    for number, start in enumerate(starts, 1):
        label = f"game file pasted in the text ({number})"
        candidate = rejoin_strings(text[start:])
        try:
            end = value_end(candidate, label)
            _pasted(candidate[:end], label, found)
        except Rejected as exc:
            found.refuse(exc)


def _pasted(text: str, label: str, found: Found) -> None:
    """A whole JSON value pasted in a text: a game file, a bundle or a request."""
    value = parse(text, what=label)
    kind = value.get("kind") if isinstance(value, dict) else None
    if kind == "steps":  # a step bundle saved as a file, or pasted
        found.bundles.append((label, decode_bundle(text, what=label)))
    elif kind == "request":
        found.requests.append((label, decode_request(text, what=label)))
    else:
        _keep(found, label, gamefile.decode(text, what=label))


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
