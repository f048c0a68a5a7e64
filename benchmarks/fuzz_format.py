"""Fuzz the strict format: how many mutated files does pbem accept although their bytes are
not the bytes signed?

Each mutation changes one thing in a valid file: a scalar's JSON type or value, a member
deleted or added, two list items swapped, a huge integer, a key duplicated, a byte flipped,
or only the layout (re-indented, keys reordered: these must be accepted). A mutated file is
*accepted but changed* when ``pbem`` verifies it while its canonical bytes differ from the
original's; the goal is 0. It also counts where pbem and the independent verifier of
``tests/conformance`` disagree, the cached state's hash and public view aside: only a
verifier that runs the rules can check those.

Run: ``.venv/bin/python benchmarks/fuzz_format.py [N] [FILE ...]`` (default 10,000 over
``examples/rattaneer/game.json`` and ``examples/rattaneer/morning.json``).
"""

from __future__ import annotations

import json
import multiprocessing
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.format import gamefile  # noqa: E402
from pbem.format.canonical import canonical  # noqa: E402
from pbem.format.errors import Rejected  # noqa: E402
from pbem.ledger.replay import replay_file  # noqa: E402
from pbem.ruleset import registry  # noqa: E402
from tests.conformance.verifier import Invalid, verify  # noqa: E402

KINDS = ["type", "value", "delete", "add", "swap", "huge", "duplicate", "byte", "layout"]


def paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every member and item of a JSON value, by path (the value itself too)."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += paths(item, (*path, i))
    return out


def at(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def other_type(value: Any, rng: random.Random) -> Any:
    if type(value) is bool:
        return rng.choice([int(value), str(value).lower()])
    if type(value) is int:
        return rng.choice([str(value), bool(value), f"+{value}", None])
    if type(value) is str:
        return rng.choice([None, True, 0, [value]])
    return rng.choice([0, "", False])


def other_value(value: Any, rng: random.Random) -> Any:
    if type(value) is bool:
        return not value
    if type(value) is int:
        return value + rng.choice([-1, 1])
    if type(value) is str and value:
        i = rng.randrange(len(value))
        return value[:i] + ("A" if value[i] != "A" else "B") + value[i + 1 :]
    return "x"


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One mutation of the file's text: (kind, new text)."""
    kind = rng.choice(KINDS)
    data = json.loads(text)
    spots = paths(data)
    if kind == "byte":
        raw = bytearray(text.encode())
        raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(7)
        return kind, raw.decode("latin-1")
    if kind == "layout":
        return kind, json.dumps(data, indent=rng.choice([None, 2, 4]), sort_keys=rng.random() < 0.5)
    if kind == "duplicate":
        objects = [p for p in spots if isinstance(at(data, p), dict) and at(data, p)]
        target = at(data, rng.choice(objects))
        key = rng.choice(sorted(target))
        marker = '"__dup__": 0'
        target["__dup__"] = 0
        dup = json.dumps(target[key])
        return kind, json.dumps(data, indent=1).replace(marker, f'"{key}": {dup}', 1)
    scalars = [p for p in spots if p and not isinstance(at(data, p), dict | list)]
    if kind in {"type", "value", "huge"}:
        path = rng.choice(scalars)
        parent = at(data, path[:-1])
        old = parent[path[-1]]
        if kind == "huge":
            parent[path[-1]] = "__huge__"
            return kind, json.dumps(data).replace('"__huge__"', "9" * rng.choice([17, 5000]))
        parent[path[-1]] = other_type(old, rng) if kind == "type" else other_value(old, rng)
    elif kind == "delete":
        members = [p for p in spots if p and isinstance(at(data, p[:-1]), dict)]
        path = rng.choice(members)
        del at(data, path[:-1])[path[-1]]
    elif kind == "add":
        objects = [p for p in spots if isinstance(at(data, p), dict)]
        at(data, rng.choice(objects))["extra"] = rng.choice([0, "", None, False])
    elif kind == "swap":
        lists = [p for p in spots if isinstance(at(data, p), list) and len(at(data, p)) > 1]
        items = at(data, rng.choice(lists))
        i, j = rng.sample(range(len(items)), 2)
        items[i], items[j] = items[j], items[i]
    return kind, json.dumps(data, indent=1)


def pbem_accepts(text: str) -> bool:
    try:
        game = gamefile.decode(text.encode("latin-1") if _binary(text) else text)
        replay_file(game, registry.get(game.genesis.ruleset.id))
    except Rejected:
        return False
    return True


def independent_accepts(text: str) -> bool:
    try:
        verify(text.encode("latin-1") if _binary(text) else text.encode())
    except Invalid:
        return False
    return True


def _binary(text: str) -> bool:
    return any(ord(c) > 127 for c in text)


def same_bytes(a: str, b: str) -> bool:
    try:
        return canonical(json.loads(a)) == canonical(json.loads(b))
    except (ValueError, Rejected):
        return False


def trial(job: tuple[str, int]) -> tuple[str, str]:
    """Mutate once; classify the outcome."""
    path, seed = job
    original = Path(path).read_text()
    rng = random.Random(seed)
    kind, text = mutate(original, rng)
    ok = pbem_accepts(text)
    if ok and not same_bytes(original, text):
        return kind, "ACCEPTED BUT CHANGED"
    cached_only = "state" in text and _only_cached_state_changed(original, text)
    if ok != independent_accepts(text) and not cached_only:
        return kind, "DISAGREE"
    return kind, "accepted, same bytes" if ok else "refused"


def _only_cached_state_changed(a: str, b: str) -> bool:
    try:
        x, y = json.loads(a), json.loads(b)
    except ValueError:
        return False
    for game in (x, y):  # what a verifier without the rules cannot check (format.md §7)
        if isinstance(game, dict) and isinstance(game.get("state"), dict):
            game["state"].pop("public", None)
            game["state"].pop("hash", None)
    return x == y


def main() -> None:
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    files = sys.argv[2:] or [
        str(ROOT / "examples/rattaneer/game.json"),
        str(ROOT / "examples/rattaneer/morning.json"),
    ]
    jobs = [(files[n % len(files)], n) for n in range(count)]
    with multiprocessing.Pool() as pool:
        results = pool.map(trial, jobs, chunksize=20)
    totals = Counter(outcome for _, outcome in results)
    by_kind = Counter(results)
    print(f"{count} mutations of {', '.join(Path(f).name for f in files)}")
    for outcome in ("refused", "accepted, same bytes", "ACCEPTED BUT CHANGED", "DISAGREE"):
        print(f"  {outcome}: {totals[outcome]}")
    for (kind, outcome), n in sorted(by_kind.items()):
        print(f"    {kind:9s} {outcome}: {n}")
    print(f"accepted-but-changed files: {totals['ACCEPTED BUT CHANGED']} (goal 0)")


if __name__ == "__main__":
    main()
