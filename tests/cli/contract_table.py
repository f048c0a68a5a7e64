"""The rows of the command-line contract test (``test_contract.py``): for each command of
the click tree, arguments that succeed, arguments that fail with their exit code and error
code, whether it only reads, and how it is made to wait for Ctrl-C. The game they name is
made once by the test's ``template`` fixture."""

from __future__ import annotations

from dataclasses import dataclass

from tests.conftest import CLOCK_START

PASSPHRASE = "secret"
SEALED = ("ann", "bea", "cid")
#: The game's file once ann and bea have guessed: cid alone is awaited (every play
#: replaced it in turn: one working file per game).
GAME = "g.json"
#: A copy of the game kept when ann alone had guessed (to merge, and to verify beside it).
BEFORE = "g-ann.json"
#: A second game, where one seat (``{leader}``) alone is awaited in a public turn: it may
#: hand its seat over. Its file and that seat are told by ``template`` (the draw decides).
SECOND: dict[str, str] = {}
#: After the deadline (1h): ``call`` may be used.
LATE = str(CLOCK_START + 2 * 3600)


@dataclass(frozen=True)
class Row:
    """What a command is checked with. ``ok``: arguments that succeed (None: the command
    serves until stopped, and ``interrupt`` checks its answer). ``bad``: arguments that
    fail, the exit code and the ``code`` they must give (None: the command reads no input
    beyond its options, which the usage check covers). ``reads``: a reading command.
    ``interrupt``: how the command is made to wait for Ctrl-C: at a passphrase prompt on
    a terminal ("prompt"), once it has written
    its first output file ("output"), serving ("serve"); or why it never waits."""

    ok: list[str] | None
    bad: tuple[list[str], int, str] | None
    reads: bool
    interrupt: tuple[str, list[str]] | str


NEVER = "never waits: it works on a few small files and ends"
UNREAD = "never waits: a FIFO or a device given as its file is refused unread (format.md §11)"
TABLE: dict[str, Row] = {
    "new": Row(
        ["new", "guess", "--seat", "ann", "--seat", "dan", "--as", "ann", "-o", "n.json"],
        (
            ["new", "chess", "--seat", "ann", "--seat", "dan", "--as", "ann", "-o", "n.json"],
            2,
            "usage",
        ),
        False,
        (
            "prompt",
            ["new", "guess", "--seat", "bea", "--seat", "ann", "--as", "bea", "-o", "n.json"],
        ),
    ),
    "play": Row(
        ["play", GAME, "guess 4", "--as", "cid"],
        (["play", GAME, "guess 11", "--as", "cid"], 1, "rejected"),
        False,
        ("prompt", ["play", GAME, "guess 4", "--as", "cid"]),
    ),
    "merge": Row(
        ["merge", "-o", "m.json", GAME, BEFORE],
        (["merge", "-o", "m.json", "missing.json"], 2, "io"),
        False,
        UNREAD,
    ),
    "export": Row(
        ["export", GAME, "-o", "e.json"],
        (["export", "notjson.json"], 1, "rejected"),
        False,
        UNREAD,
    ),
    "call": Row(
        ["call", GAME, "cid", "--as", "ann"],
        (["call", GAME, "bea", "--as", "ann"], 2, "usage"),
        False,
        ("prompt", ["call", GAME, "cid", "--as", "bea"]),
    ),
    "resign": Row(
        ["resign", GAME, "--as", "cid"],
        (["resign", "dup.json", "--as", "cid"], 1, "rejected"),
        False,
        ("prompt", ["resign", GAME, "--as", "cid"]),
    ),
    "handover": Row(
        ["handover", "{second}", "--to", "fay.card.json", "--as", "{leader}"],
        (["handover", GAME, "--to", "fay.card.json", "--as", "cid"], 1, "rejected"),
        False,
        ("prompt", ["handover", "{second}", "--to", "fay.card.json", "--as", "{leader}"]),
    ),
    "status": Row(
        ["status", GAME],
        (["status", "notjson.json"], 1, "rejected"),
        True,
        UNREAD,
    ),
    "moves": Row(
        ["moves", GAME, "--as", "cid"],
        (["moves", "missing.json", "--as", "cid"], 2, "io"),
        True,
        UNREAD,
    ),
    "log": Row(
        ["log", GAME],
        (["log", "dup.json"], 1, "rejected"),
        True,
        UNREAD,
    ),
    "verify": Row(
        ["verify", GAME, BEFORE],
        (["verify", "g.json", "notjson.json"], 1, "rejected"),
        True,
        UNREAD,
    ),
    "show": Row(
        ["show", GAME, "-o", "-"],
        (["show", GAME, "--as", "nobody", "-o", "-"], 2, "usage"),
        True,
        UNREAD,
    ),
    "send": Row(
        ["send", GAME, "--as", "ann", "--eml", "out.eml"],
        (["send", GAME, "--as", "cid", "--eml", "out.eml"], 2, "usage"),
        False,
        UNREAD,
    ),
    "receive": Row(
        ["receive", "mail.eml"],
        (["receive", "bad.eml"], 1, "rejected"),
        False,
        UNREAD,
    ),
    "games": Row(["games"], (["games", "--as", "nobody"], 2, "usage"), True, NEVER),
    "watch": Row(
        ["watch", "--once", "--as", "ann"],  # on the real IMAP server of the mail tests
        (["watch", "--once", "--as", "ann"], 2, "mail"),  # the IMAP port is closed
        False,
        ("prompt", ["watch", "--as", "cid"]),
    ),
    "config show": Row(["config", "show"], None, True, NEVER),
    "config set": Row(
        ["config", "set", "smtp.port", "2525"],
        (["config", "set", "smtp.colour", "red"], 2, "usage"),
        False,
        ("prompt", ["config", "set", "imap.password"]),
    ),
    "config unset": Row(
        ["config", "unset", "smtp.port"],
        (["config", "unset", "smtp.colour"], 2, "usage"),
        False,
        NEVER,
    ),
    "config provider": Row(
        ["config", "provider", "fastmail", "--user", "ann@example.org"],
        (["config", "provider", "aol"], 2, "usage"),
        False,
        NEVER,
    ),
    "config test": Row(
        ["config", "test"],  # on the real servers of the mail tests
        (["config", "test"], 2, "mail"),  # nobody listens on the ports set
        True,
        "never waits: it logs in to two servers and ends (each within its timeout)",
    ),
    "config migrate-secrets": Row(["config", "migrate-secrets"], None, False, NEVER),
    "key new": Row(
        ["key", "new", "eve", "--email", "eve@example.org", "--no-passphrase"],
        (["key", "new", "ann", "--email", "ann@example.org", "--no-passphrase"], 2, "usage"),
        False,
        ("prompt", ["key", "new", "eve", "--email", "eve@example.org"]),
    ),
    "key lang": Row(
        ["key", "lang", "ann", "ja"],
        (["key", "lang", "nobody", "ja"], 2, "usage"),
        False,
        ("prompt", ["key", "lang", "bea", "zh-Hant"]),
    ),
    "key list": Row(["key", "list"], None, True, NEVER),
    "key export": Row(
        ["key", "export", "ann"], (["key", "export", "nobody"], 2, "usage"), True, NEVER
    ),
    "key import": Row(
        ["key", "import", "fay.card.json"],  # imported already: nothing to write
        (["key", "import", "notjson.json"], 1, "rejected"),
        True,
        UNREAD,
    ),
    "rules": Row(
        ["rules", "rattus", "T-1"],
        (["rules", "chess"], 2, "usage"),
        True,
        UNREAD,
    ),
    "selfplay": Row(
        ["selfplay", "guess", "--players", "2"],
        (["selfplay", "chess"], 2, "usage"),
        True,
        ("output", ["selfplay", "guess", "--games", "100000", "--out", "games"]),
    ),
    "schema": Row(
        ["schema", "--dir", "schemas"],
        (["schema", "--check", "--dir", "missing"], 1, "rejected"),
        False,
        NEVER,
    ),
    "ui": Row(
        None, (["ui", "--as", "nobody"], 2, "usage"), False, ("serve", ["ui", "--as", "dan"])
    ),
}
