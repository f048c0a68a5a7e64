"""Fuzz the mail reader: mutate real game mails and give them to ``pbem receive``.

The mails are the ones pbem sends (a whole game file attached, a step bundle, the file
pasted in the text, a request for steps), composed from a self-played ``guess`` game. Each
case changes one thing: the MIME structure (parts nested thousands deep, thousands of
parts or attachments, a content type or transfer encoding swapped, boundaries broken),
the headers (a ``From`` of nested comments, thousands of parameters, encoded words), the
text (a pasted file with a 5,000-digit or 100,000-digit integer, nested 100,000 deep,
with thousands of markers), an attachment (a mutation of ``fuzz_format.py``, cut, deep,
huge), or raw bytes (flipped, cut). ``pbem receive`` then reads it into a store that holds
the game or an empty one, and ``pbem games`` lists the store, in a forked child with a
deadline; the robot's key for the message (``message_key``) is taken too. Each case must
answer (exit 0, or one line with exit 1 or 2); the goal is 0 exit-3, 0 crashes, 0 hangs.

Run: ``.venv/bin/python benchmarks/fuzz_mail.py [N] [WORKERS]`` (default 10,000 cases, 2).
"""

from __future__ import annotations

import base64
import random
import shutil
import tempfile
from email.message import EmailMessage
from pathlib import Path

import fuzzing
from fuzz_format import mutate as mutate_json
from fuzzing import isolated, pbem

from pbem.format import gamefile
from pbem.format.bundle import Request
from pbem.mail.compose import message_for, request_for
from pbem.mail.config import MailConfig
from pbem.mail.extract import message_key
from pbem.play.selfplay import play_game
from pbem.ruleset import registry
from pbem.store.store import Store

WORK = Path(tempfile.mkdtemp(prefix="pbem-fuzz-mail-"))
HOLDING = WORK / "holding"
KINDS = [
    "nest",
    "parts",
    "attachments",
    "ctype",
    "cte",
    "boundary",
    "header",
    "body-json",
    "attachment-json",
    "truncate",
    "flip",
]


def build() -> tuple[list[bytes], str]:
    """Real mails of one game, and the game file's text."""
    rules = registry.get("guess")
    made = play_game(rules, 3, 5, rules.parse_options({"rounds": "2"}), ["random"], WORK)
    assert made.path is not None
    store = Store(HOLDING)
    game = store.import_game(gamefile.read(made.path), "fuzz").head.game
    head = store.head(game)
    me = head.position.cards[0]
    smtp = MailConfig().smtp
    mails = [message_for(head, me, smtp, to="all", full=full) for full in (False, True)]
    text = made.path.read_text()
    pasted = EmailMessage()
    pasted["From"], pasted["To"] = me.email, head.position.cards[1].email
    pasted["Subject"], pasted["Message-ID"] = "[pbem] pasted", "<pasted@example.org>"
    pasted.set_content(f"Here it is:\n\n{text}\n-- \nann\n")
    request = request_for(Request(game, head.position.genesis_hash, 0), me.email, [me.email])
    store.close()
    raws = [m.as_bytes() for m in [*mails, pasted, request] if m is not None]
    return raws, text


def _boundary(rng: random.Random) -> str:
    return f"b{rng.randrange(10**9)}"


def nested(inner: bytes, depth: int, rng: random.Random) -> bytes:
    """``inner`` (a whole message) wrapped ``depth`` times in multipart/mixed."""
    head, _, body = inner.partition(b"\n\n")
    out = [b"From: a@example.org\nMessage-ID: <nest@example.org>\nMIME-Version: 1.0\n"]
    names = [_boundary(rng) + str(n) for n in range(depth)]
    for name in names:
        out.append(f'Content-Type: multipart/mixed; boundary="{name}"\n\n--{name}\n'.encode())
    out.append(head + b"\n\n" + body + b"\n")
    for name in reversed(names):
        out.append(f"--{name}--\n".encode())
    return b"".join(out)


def many_parts(raw: bytes, count: int, attached: bool) -> bytes:
    """``raw`` (a whole message) and ``count`` more parts after it, written out directly
    (the email package takes seconds to add thousands)."""
    extra = (
        b'Content-Type: application/json\nContent-Disposition: attachment; filename="g.json"'
        b"\n\n{}\n"
        if attached
        else b"Content-Type: text/plain\n\npart\n"
    )
    out = [b"From: a@example.org\nMessage-ID: <parts@example.org>\nMIME-Version: 1.0\n"]
    out.append(b'Content-Type: multipart/mixed; boundary="many"\n\n--many\n' + raw + b"\n")
    out += [b"--many\n" + extra] * count
    out.append(b"--many--\n")
    return b"".join(out)


def _parsed(raw: bytes) -> EmailMessage:
    from pbem.mail.extract import parse_message

    message = parse_message(raw)
    if not message.is_multipart():
        message.make_mixed()
    return message


def hostile_header(raw: bytes, rng: random.Random) -> bytes:
    n = rng.choice([10, 300, 700, 1000, 5000, 20000])
    header = rng.choice(
        [
            f"From: {'(' * n}a{')' * n} <a@example.org>",
            f"From: a@example.org {'(a)' * n}",
            f"Content-Type: text/plain {'(a)' * n}",
            "From: " + ", ".join(f"u{i}@example.org" for i in range(n)),
            f"Subject: {'=?utf-8?q?=C3?= ' * n}",
            "Content-Type: text/plain; " + "; ".join(f"p{i}=v" for i in range(n)),
            "Content-Type: text/plain; " + "; ".join(f"name*{i}*=utf-8''%C3" for i in range(n)),
            f"Message-ID: <{'x' * n}@example.org>",
            f"X-Pbem-Reminder: {'yes' * n}",
            "Content-Disposition: attachment; filename*0*=" + "%FF" * n,
        ]
    )
    return header.encode() + b"\n" + raw


def json_body(text: str, rng: random.Random) -> str:
    choice = rng.randrange(6)
    if choice == 0:
        return '{"format": "pbem/1", "genesis": ' + "9" * rng.choice([17, 5000, 100000]) + "}"
    if choice == 1:
        depth = rng.choice([65, 1000, 100000])
        return '{"format": "pbem/1", "genesis": ' + "[" * depth + "]" * depth + "}"
    if choice == 2:
        return '{"format": "pbem/1"} ' * rng.choice([17, 1000, 20000])
    if choice == 3:
        return '{"format": "pbem/1", "genesis": "' + "x" * rng.choice([10, 10**6])
    if choice == 4:
        return text[: rng.randrange(len(text))]
    return mutate_json(text, rng)[1]


def with_text(body: str, rng: random.Random) -> bytes:
    message = EmailMessage()
    message["From"] = "a@example.org"
    message["Message-ID"] = "<text@example.org>"
    message.set_content(body, cte=rng.choice(["8bit", "base64", "quoted-printable"]))
    return message.as_bytes()


def with_attachment(raw: bytes, data: str, rng: random.Random) -> bytes:
    message = _parsed(raw)
    ctype = rng.choice(["json", "vnd.pbem.steps+json", "vnd.pbem.request+json"])
    message.add_attachment(data.encode("utf-8", "surrogatepass"), "application", ctype)
    return message.as_bytes()


def swap(raw: bytes, rng: random.Random, what: bytes, choices: list[bytes]) -> bytes:
    lines = raw.split(b"\n")
    spots = [i for i, line in enumerate(lines) if line.lower().startswith(what)]
    if spots:
        lines[rng.choice(spots)] = what + b" " + rng.choice(choices)
    return b"\n".join(lines)


def mutate(raw: bytes, text: str, rng: random.Random) -> tuple[str, bytes]:
    kind = rng.choice(KINDS)
    if kind == "nest":
        return kind, nested(raw, rng.choice([2, 8, 9, 100, 3000]), rng)
    if kind in {"parts", "attachments"}:
        return kind, many_parts(raw, rng.choice([10, 63, 100, 3000]), kind == "attachments")
    if kind == "ctype":
        types = [b"message/rfc822", b"multipart/mixed", b"multipart/alternative; boundary=",
                 b"application/json", b"text/plain; charset=bogus-8", b"text/plain; charset=utf-7",
                 b"application/vnd.pbem.steps+json", b"message/partial; total=2"]  # fmt: skip
        return kind, swap(raw, rng, b"content-type:", types)
    if kind == "cte":
        encodings = [b"base64", b"quoted-printable", b"7bit", b"x-uuencode", b"bogus", b""]
        return kind, swap(raw, rng, b"content-transfer-encoding:", encodings)
    if kind == "boundary":
        lines = raw.split(b"\n")
        spots = [i for i, line in enumerate(lines) if line.startswith(b"--")]
        for i in rng.sample(spots, min(len(spots), rng.randint(1, 3))):
            lines[i] = rng.choice([b"", lines[i] + b"--", lines[i][:-3], lines[i] * 2])
        return kind, b"\n".join(lines)
    if kind == "header":
        return kind, hostile_header(raw, rng)
    if kind == "body-json":
        return kind, with_text(json_body(text, rng), rng)
    if kind == "attachment-json":
        data = json_body(text, rng)
        if rng.random() < 0.2:  # base64 of base64, or not base64 at all
            data = base64.b64encode(data.encode("utf-8", "surrogatepass")).decode()
        return kind, with_attachment(raw, data, rng)
    if kind == "truncate":
        return kind, raw[: rng.randrange(len(raw))]
    out = bytearray(raw)
    for _ in range(rng.randint(1, 20)):
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return kind, bytes(out)


def trial(seed: int) -> tuple[str, str, str]:
    rng = random.Random(seed)
    kind, raw = mutate(rng.choice(MAILS), TEXT, rng)
    home = WORK / f"case-{seed}"
    home.mkdir()
    if rng.random() < 0.5:
        shutil.copy(HOLDING / "store.sqlite", home / "store.sqlite")
    mail = home / "mail.eml"
    mail.write_bytes(raw)

    def commands() -> tuple[int, str]:
        message_key(raw)
        code, line = pbem(home, "receive", mail)
        listed, other = pbem(home, "games", "--all")
        return max((code, f"receive: {line}"), (listed, f"games: {other}"))

    outcome, line = isolated(commands)
    shutil.rmtree(home, ignore_errors=True)
    return kind, outcome, f"seed {seed}: {line}"


MAILS, TEXT = build()


def main() -> None:
    fuzzing.main(__doc__, trial, 10_000, "mutated mails, pbem receive and pbem games on each", WORK)


if __name__ == "__main__":
    main()
