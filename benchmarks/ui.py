"""What the board page (``pbem ui``) costs, against what it is built on, timed in one run.

- A game's page against ``pbem show``'s page of the same game (walk + ``page_html``): the
  page is the same drawing plus the decision panel, so the ratio should stay near 1.
- One click (``decide``: the store's head read from its checkpoint, the picker, the rules'
  checks, the board drawn again) against one ``rules.check`` of a legal action, for the
  first click of a Rattus turn and for a Rattaneer placement click.

Run: ``.venv/bin/python benchmarks/ui.py``. Prints medians of several repeats, each
repeat timed next to its baseline, and the median ratio. Nothing here asserts a time.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PBEM_TEST_FAST_KDF", "1")

from pbem.format.gamefile import GameFile
from pbem.ruleset import registry
from pbem.store.store import Store
from pbem.ui.decide import Ask, decide
from pbem.ui.pages import game_page
from pbem.view.history import walk
from pbem.view.render import page_html
from tests.ui.tables import furnish

REPEAT = 7


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def compare(name: str, work: Callable[[], object], baseline: Callable[[], object]) -> None:
    pairs = [(timed(work), timed(baseline)) for _ in range(REPEAT)]
    w = statistics.median(p[0] for p in pairs)
    b = statistics.median(p[1] for p in pairs)
    ratio = statistics.median(p[0] / p[1] for p in pairs)
    print(f"{name:<38} {w * 1000:9.2f} ms  baseline {b * 1000:9.3f} ms  ratio {ratio:8.1f}x")


def show(file: GameFile) -> str:
    """``pbem show``'s page, public."""
    history = walk(file)
    return page_html(history, history.position(None), source="game.json", reader=None)


def click(store: Store, game: str, ask: Ask) -> object:
    """What the page's server does for a click."""
    return decide(store.head(game).position, 0, ask)


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="pbem-bench-ui-"))
    table = furnish(home)
    store = Store(home)
    me = table.ids[0]
    for file in (table.rattaneer, table.rattus):
        game = file.genesis.game
        rules = registry.get(file.genesis.ruleset.id)
        pos = store.head(game).position
        legal = rules.legal_actions(pos.state, 0)[0]
        if rules.id == "rattus":
            ask = Ask(picks=[next(c.name for c in pos.state.cards if c.holder != 0)])
        else:
            ask = Ask(verb="pirates", picks=["3", "7"])
        compare(
            f"{rules.id}: the game's page ({len(file.steps)} steps)",
            partial(game_page, store, game, me.card, None, "token", "/s/root", True),
            partial(show, file),
        )
        compare(
            f"{rules.id}: one click {' '.join(ask.picks)}",
            partial(click, store, game, ask),
            partial(rules.check, pos.state, 0, legal),
        )
    store.close()


if __name__ == "__main__":
    main()
