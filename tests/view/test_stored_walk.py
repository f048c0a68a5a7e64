"""A page of a stored game (issue 33: pages at a glance): the store verified every
signature and proof when it took the steps, so the walk that draws the page does not check
them again; it still applies every step by the rules. Same history, same page, without the
costly part; a file the store refused is walked with every check (test_show_cli)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pbem.crypto import deck, shuffleproof
from pbem.format import gamefile
from pbem.view.history import History, walk
from pbem.view.render import page_html
from tests.conftest import ROOT

AFRICANUS = ROOT / "examples" / "rattus-africanus" / "game.json"


def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many shuffle proofs and decryption-share proofs the walks check."""
    calls: Counter[str] = Counter()
    for module, name in ((shuffleproof, "check"), (deck, "checked_share")):
        real = getattr(module, name)

        def wrapped(*args: object, _real=real, _name=name) -> object:  # type: ignore[no-untyped-def]
            calls[_name] += 1
            return _real(*args)

        monkeypatch.setattr(module, name, wrapped)
    return calls


def seen(history: History) -> list[object]:
    return [
        history.rows,
        [(p.index, p.state, p.awaiting, p.remaining, p.result) for p in history.positions],
        history.failure,
    ]


def test_a_stored_game_is_walked_to_the_same_page_without_its_proofs_checked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = gamefile.read(Path(AFRICANUS))
    calls = counted(monkeypatch)
    full = walk(game)
    checked = dict(calls)
    calls.clear()
    stored = walk(game, stored=True)
    assert checked["check"] > 0 and checked["checked_share"] > 0  # the file has both
    assert not calls  # not one proof checked again
    assert seen(stored) == seen(full)
    last = full.position(None)
    assert page_html(stored, stored.position(None), source="g", reader=None) == page_html(
        full, last, source="g", reader=None
    )
