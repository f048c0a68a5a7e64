"""Fuzz the store file: damage ``store.sqlite`` and run the commands that read it.

A store holding two finished games (``guess`` and ``peek``, self-played) is damaged in one
way per case: bytes flipped anywhere or in the header, a page zeroed or overwritten by
another, the file cut short or grown with garbage, a table dropped, rows deleted, a column
of some rows set to nothing or to garbage, the schema version or application id changed.
Then ``pbem games --all``, ``log``, ``status`` and ``export`` run on it, in a forked child
with a deadline. Each must answer (exit 0, or one line with exit 1 or 2, or rebuild what it
can from the steps); the goal is 0 exit-3, 0 crashes and 0 hangs.

Run: ``.venv/bin/python benchmarks/fuzz_store.py [N] [WORKERS]`` (default 1,000 cases, 2).
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import tempfile
from pathlib import Path

import fuzzing
from fuzzing import isolated, pbem

from pbem.play.selfplay import play_game
from pbem.ruleset import registry
from pbem.store.store import Store

KINDS = [
    "flip",
    "header",
    "page-zero",
    "page-copy",
    "truncate",
    "garbage",
    "drop-table",
    "delete-rows",
    "column",
    "pragma",
]
TABLES = ["games", "items", "steps", "records", "checkpoints", "versions", "exports", "meta"]
WORK = Path(tempfile.mkdtemp(prefix="pbem-fuzz-store-"))
ORIGINAL = WORK / "original"


def build() -> list[str]:
    """The undamaged store, and its games' ids."""
    store = Store(ORIGINAL)
    for ruleset, seed, options in (("guess", 5, {"rounds": "2"}), ("peek", 2, {})):
        rules = registry.get(ruleset)
        made = play_game(rules, 3, seed, rules.parse_options(options), ["random"], WORK)
        assert made.path is not None
        store.import_file(made.path)
    ids = store.ids()
    store.close()  # the last connection folds the WAL into the file
    return ids


def damage(path: Path, rng: random.Random) -> str:
    kind = rng.choice(KINDS)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    pages = max(1, len(data) // page)
    if kind == "flip":
        for _ in range(rng.randint(1, 16)):
            data[rng.randrange(100, len(data))] ^= 1 << rng.randrange(8)
    elif kind == "header":
        data[rng.randrange(100)] ^= 1 << rng.randrange(8)
    elif kind == "page-zero":
        n = rng.randrange(pages)
        data[n * page : (n + 1) * page] = bytes(page)
    elif kind == "page-copy":
        a, b = rng.randrange(pages), rng.randrange(pages)
        data[a * page : (a + 1) * page] = data[b * page : (b + 1) * page]
    elif kind == "truncate":
        del data[rng.choice([0, 100, page, rng.randrange(len(data))]) :]
    elif kind == "garbage":
        data += rng.randbytes(rng.choice([1, 100, page, 3 * page]))
    if kind in {"drop-table", "delete-rows", "column", "pragma"}:
        _sql(path, kind, rng)
    else:
        path.write_bytes(bytes(data))
    return kind


def _sql(path: Path, kind: str, rng: random.Random) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    table = rng.choice(TABLES)
    if kind == "drop-table":
        db.execute(f"DROP TABLE {table}")
    elif kind == "delete-rows":
        db.execute(f"DELETE FROM {table} WHERE abs(random()) % 3 = 0")
    elif kind == "column":
        columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        column = rng.choice(columns)
        value = rng.choice([b"", rng.randbytes(40), "x", -1, 2**62, b"{", b"x\x9c"])
        db.execute(f"UPDATE {table} SET {column} = ? WHERE abs(random()) % 2 = 0", (value,))
    else:
        pragma = rng.choice(["user_version", "application_id"])
        db.execute(f"PRAGMA {pragma} = {rng.choice([0, 1, 2, 99, -1])}")
    db.close()


def trial(seed: int) -> tuple[str, str, str]:
    rng = random.Random(seed)
    home = WORK / f"case-{seed}"
    home.mkdir()
    shutil.copy(ORIGINAL / "store.sqlite", home / "store.sqlite")
    try:
        kind = damage(home / "store.sqlite", rng)
    except sqlite3.Error:
        kind = "unopenable"
    game = rng.choice(GAMES)[:8]

    def commands() -> tuple[int, str]:
        worst = (0, "")
        for args in (
            ["games", "--all"],
            ["log", game],
            ["status", game],
            ["export", game, "-o", home / "out.json"],
        ):
            code, line = pbem(home, *args)
            worst = max(worst, (code, f"{args[0]}: {line}"))
        return worst

    outcome, line = isolated(commands)
    shutil.rmtree(home, ignore_errors=True)
    return kind, outcome, f"seed {seed}: {line}"


GAMES = build()


def main() -> None:
    fuzzing.main(__doc__, trial, 1_000, "damaged stores, 4 read commands each", WORK)


if __name__ == "__main__":
    main()
