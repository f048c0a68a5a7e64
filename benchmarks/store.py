"""The store's costs, as ratios measured in one run (issue 12).

1. Size: a complete 6-player Africanus game is played by bots; every version a player
   would receive (after every signature) is imported into a fresh store, as mail brings
   them. The store's bytes are printed against the final file's.
2. Incremental import: importing a version that extends the stored head by one step,
   early, midway and late in the game: the time follows the new steps, not the game's
   length.
3. Whole processes, with the store warm: ``pbem status`` and ``pbem play`` on that game
   against ``pbem --version`` and against ``pbem status --help`` (the same imports, no
   work).

Run: ``.venv/bin/python benchmarks/store.py [players] [seed]``. Nothing here asserts a time.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.crypto.keyring import Keyring, seal_identity  # noqa: E402
from pbem.crypto.randomness import Rng  # noqa: E402
from pbem.format import gamefile  # noqa: E402
from pbem.play.author import knowledge  # noqa: E402
from pbem.play.selfplay import bot_identities, play_game  # noqa: E402
from pbem.ruleset import registry  # noqa: E402
from pbem.store.store import Store  # noqa: E402

PBEM = str(ROOT / ".venv" / "bin" / "pbem")


def versions(players: int, seed: int) -> list[str]:
    """Every version of a game played by greedy bots, one per signature, as file texts: the
    game ``pbem selfplay rattus --players P --seed S --bot greedy --option africanus=on``
    plays (the same seed gives the same game, so runs compare)."""
    rules = registry.get("rattus")
    options = rules.parse_options({"africanus": "true"})
    out: list[str] = []
    play_game(
        rules,
        players,
        seed,
        options,
        ["greedy"],
        observe=lambda author: out.append(gamefile.encode(author.to_file())),
    )
    return out


#: Signatures added by the longer of the two extensions timed.
EXTRA = 25


def extension(home: Path, texts: list[str], at: int, k: int) -> float:
    """Seconds to import version ``at + k`` into a store that holds version ``at``."""
    store = Store(home)
    store.import_game(gamefile.decode(texts[at], lazy=True), "benchmark")
    start = time.perf_counter()
    store.import_game(gamefile.decode(texts[at + k], lazy=True), "benchmark")
    took = time.perf_counter() - start
    store.close()
    return took


def store_bytes(home: Path) -> int:
    return sum(p.stat().st_size for p in home.glob("store.sqlite*"))


def timed(command: list[str], env: dict[str, str], runs: int = 7) -> float:
    subprocess.run(command, env=env, capture_output=True, check=False)  # warm up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    start = time.perf_counter()
    texts = versions(players, seed)
    final = texts[-1].encode()
    print(
        f"game: Africanus, {players} players, {len(gamefile.decode(final).steps)} steps, "
        f"{len(texts)} versions, final file {len(final):,} bytes "
        f"(made in {time.perf_counter() - start:.0f} s)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        store = Store(home)
        lap: list[float] = []
        for text in texts:
            t = time.perf_counter()
            store.import_game(gamefile.decode(text, lazy=True), "benchmark")
            lap.append(time.perf_counter() - t)
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = store_bytes(home)
        ratio = size / len(final)
        print(f"store after importing every version: {size:,} bytes = {ratio:.2f}x the file")
        n = len(lap)
        for name, part in (
            ("first", lap[1 : n // 10]),
            ("middle", lap[n // 2 : n // 2 + n // 10]),
            ("last", lap[-(n // 10) :]),
        ):
            ms = statistics.median(part) * 1000
            print(f"import of one more version, {name} tenth: median {ms:.1f} ms")
        early, late = statistics.median(lap[1 : n // 10]), statistics.median(lap[-(n // 10) :])
        grew = len(final) / len(texts[n // 20].encode())
        print(f"ratio last tenth / first tenth: {late / early:.2f} (the file grew {grew:.0f}x)")
        for where, at in (("short", n // 10), ("long", n - 1 - EXTRA)):
            one, more = (extension(Path(tmp) / f"x{where}{k}", texts, at, k) for k in (1, EXTRA))
            steps = len(gamefile.decode(texts[at]).steps)
            print(
                f"import extending a {where} prefix ({steps} steps) by 1 / {EXTRA} "
                f"signatures: {one * 1000:.1f} / {more * 1000:.1f} ms, "
                f"{(more - one) / (EXTRA - 1) * 1000:.1f} ms per further signature"
            )

        # Whole processes on a warm store, midway through the game (a move to play).
        mid = gamefile.decode(texts[len(texts) // 2])
        home2 = Path(tmp) / "home2"
        env = {**os.environ, "PBEM_HOME": str(home2)}
        ring = Keyring(home2)
        ring.keys_dir.mkdir(parents=True)
        for ident in bot_identities(seed, players):
            (ring.keys_dir / f"{ident.card.name}.json").write_text(
                seal_identity(ident, None).to_json()
            )
        warm = Store(home2)
        warm.import_game(mid, "benchmark")
        game = mid.genesis.game
        pos = warm.head(game).position
        seat = pos.remaining()[0]
        warm.close()
        version = timed([PBEM, "--version"], env)
        helping = timed([PBEM, "status", "--help"], env)
        status = timed([PBEM, "status", game[:8]], env)
        # play: the awaited seat's automatic step or decision; each run plays on a fresh
        # copy of the warm store, so every run does the same work.
        name = pos.names[seat]
        rules = registry.get("rattus")
        move: list[str] = []
        aw = pos.awaiting
        if aw is not None and (aw.kind == "turn" or aw.decision.startswith(("act:", "commit:"))):
            me = bot_identities(seed, players)[seat]
            action = rules.bots()["greedy"](
                rules, pos.state, seat, knowledge(pos, me), Rng(b"play")
            )
            move = [rules.format_action(pos.state, seat, action)]
        plays = []
        for run in range(6):
            copy = Path(tmp) / f"play{run}"
            subprocess.run(["cp", "-r", str(home2), str(copy)], check=True)
            penv = {**os.environ, "PBEM_HOME": str(copy)}
            t = time.perf_counter()
            done = subprocess.run(
                [PBEM, "play", game[:8], *move, "--as", name, "-o", str(copy / "out.json")],
                env=penv,
                capture_output=True,
                check=False,
            )
            plays.append(time.perf_counter() - t)
            assert done.returncode == 0, done.stderr
        play = statistics.median(plays[1:])
        print(
            f"pbem --version: {version * 1000:.0f} ms; pbem status --help: {helping * 1000:.0f} ms"
        )
        for what, took in (("status", status), ("play", play)):
            print(
                f"pbem {what} on the warm store: {took * 1000:.0f} ms = "
                f"{took / version:.2f}x --version, {took / helping:.2f}x status --help"
            )


if __name__ == "__main__":
    main()
