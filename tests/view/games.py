"""Self-played games and their pages, made once per test session (they cost seconds)."""

from __future__ import annotations

import base64
import gzip
import json
import re
from functools import cache

from pbem.crypto import deck
from pbem.crypto.keys import Identity
from pbem.format.canonical import b64e
from pbem.format.gamefile import GameFile
from pbem.ledger.replay import Replay
from pbem.play.author import new_game
from pbem.play.selfplay import bot_identities
from pbem.ruleset import registry
from pbem.view.history import History, walk
from pbem.view.render import page_html
from pbem.view.seats import seats_of
from tests.helpers import Seeded, play_until

GAMES = [
    *(("rattaneer", n, None, False) for n in (2, 3, 4, 5)),
    ("rattus", 2, 60, False),
    ("rattus", 3, None, False),
    ("rattus", 4, 60, False),
    *(("rattus", n, 45, True) for n in (2, 3, 4, 5)),
    ("rattus", 6, 100, True),
]
"""(ruleset, players, steps to play or None for a whole game, Africanus): every player
count of both games; whole games where they are cheap, a long enough start elsewhere."""


def game_id(game: tuple[str, int, int | None, bool]) -> str:
    ruleset, players, steps, africanus = game
    return f"{ruleset}{'-africanus' if africanus else ''}-{players}p-{steps or 'end'}"


@cache
def played(
    ruleset: str, players: int, steps: int | None, africanus: bool
) -> tuple[GameFile, tuple[Identity, ...]]:
    """A game by random bots, ``steps`` long (or to its end), and the bots' identities."""
    rules = registry.get(ruleset)
    options = rules.parse_options({"africanus": "true"} if africanus else {})
    ids = bot_identities(players, players)
    replay = new_game(rules, options, [i.card for i in ids], ids[0], entropy=Seeded(players))

    def done(r: Replay) -> bool:
        return r.result is not None or (steps is not None and len(r.steps) >= steps)

    play_until(replay, ids, done, seed=f"view-{players}".encode())
    return replay.to_file(), tuple(ids)


@cache
def history(game: tuple[str, int, int | None, bool], seat: int | None = None) -> History:
    file, ids = played(*game)
    return walk(file, ids[seat] if seat is not None else None)


@cache
def page(game: tuple[str, int, int | None, bool], seat: int | None = None) -> str:
    """The page at the last position: public, or private to ``seat``."""
    h = history(game, seat)
    reader = seats_of(h.replay.genesis)[seat] if seat is not None else None
    return page_html(h, h.position(None), source="game.json", reader=reader)


PACKED = re.compile(r'<script type="application/octet-stream" id="frames">([^<]*)</script>')


def unpack(html: str) -> dict[str, list]:
    """The frames the page's script steps through, as the browser unpacks them: each
    frame's lines looked up by number and joined."""
    match = PACKED.search(html)
    assert match is not None, "the page holds no packed frames"
    data = json.loads(gzip.decompress(base64.b64decode(match.group(1))))
    lines = data["lines"]
    frames = ["\n".join(lines[n] for n in numbers) for numbers in data["frames"]]
    return {"frames": frames, "order": data["order"]}


@cache
def readable(html: str) -> str:
    """All the text of a page a reader could search, the packed frames unpacked."""
    frames = unpack(html)["frames"]
    return PACKED.sub("", html) + "\n".join(frames)


def public_items(h: History) -> set[str]:
    """Items revealed to everyone, as the verified log records them ("revealed h: item")."""
    out = set()
    for record in h.replay.records:
        if record.kind == "share" and record.summary.startswith("revealed "):
            for part in record.summary.removeprefix("revealed ").split(", "):
                out.add(part.partition(": ")[2])
    return out


def leaks(text: str, secret: dict[str, set[str]]) -> list[str]:
    """Every encoding of a secret item a reader could search for: its id as a word, and
    its point (base64url and hex), as in tests/core/test_sealed_decks.py. The text is read
    once into its words, as pages of long games run to megabytes."""
    words = set(re.findall(r"[\w-]+", text))
    found = []
    for name, items in secret.items():
        for item in items:
            point = deck.item_point(name, item)
            found += [
                f"{name}: {item} as {form}"
                for form in (item, b64e(point), point.hex())
                if form in words
            ]
    return found
