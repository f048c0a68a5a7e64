"""What the check before every export costs (issue 25): a file about to be written or mailed
is read back strictly and every step's hash compared with the store's verified chain
(``pbem.store.texts._check_export``). Timed on each example game, against making the same
text without the check, in the same run.

Run: ``.venv/bin/python benchmarks/export.py [REPEATS]`` (default 20).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.store import texts as store_module  # noqa: E402
from pbem.store.store import Store  # noqa: E402

EXAMPLES = ["rattaneer/game.json", "rattus/game.json", "rattus-africanus/game.json"]


def best(repeats: int, work: object) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    checked = store_module._check_export
    for name in EXAMPLES:
        with tempfile.TemporaryDirectory() as home:
            store = Store(Path(home))
            game = store.import_file(ROOT / "examples" / name).head.game

            def export(store: Store = store, game: str = game) -> str:
                return store.head(game).text()

            with_check = best(repeats, export)
            store_module._check_export = lambda *args: None  # the same text, unchecked
            try:
                without = best(repeats, export)
            finally:
                store_module._check_export = checked
            steps = store.head(game).position.count
            size = len(export()) / 1024
        print(
            f"{name}: {steps} steps, {size:.0f} KB: export {1000 * without:.1f} ms, with the "
            f"check {1000 * with_check:.1f} ms: {with_check / without:.2f}x"
        )


if __name__ == "__main__":
    main()
