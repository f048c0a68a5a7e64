"""Issue 32 item 3: ``pbem moves`` lists what must come next first, grouped by kind; the
order of ``legal_actions`` (the bots') is not changed."""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

from tests.games.rattus.test_cli import mover, new_game, settle, starting_cubes
from tests.helpers import report


def kinds(moves: list[str]) -> list[str]:
    return [k for k, _ in groupby(m.split()[0] for m in moves)]


def test_the_plague_move_owed_comes_before_the_optional_monk(tmp_path, monkeypatch) -> None:
    # T-5: B then C are owed; the Monk's ability (T-6.3) may be used or not.
    f = starting_cubes(new_game(tmp_path, monkeypatch))
    who = mover(f)
    first = report("moves", f, "--as", who, "--limit", "200")["moves"]
    assert first[0].startswith("place")  # B is owed first (T-5.B)
    place = next(m for m in first if m.startswith("place"))
    f = settle(Path(report("play", f, f"take Monk; {place}", "--as", who)["file"]))
    listed = report("moves", f, "--as", who, "--limit", "200")["moves"]
    assert kinds(listed) == ["plague", "monk"]  # grouped, the owed C first
    assert {"moves", "help", "prompt", "sample"} <= set(report("moves", f, "--as", who))


def test_a_region_card_that_cannot_protect_is_not_offered() -> None:
    # T-7.3: a card protects a class only if it shows that class's icon or "?": the moves
    # a player is offered (its hand known) leave out the card without the icon.
    from pbem.games.rattus.actions import Protect, Use

    from .harness import RULES
    from .test_africanus_protection import (
        GALLIA_MAGIC_ROYALTY,
        MAGIC,
        POLONIA_BOURGEOISIE_CHURCH,
        plague_on_italia,
    )

    hand = [POLONIA_BOURGEOISIE_CHURCH, GALLIA_MAGIC_ROYALTY]
    t = plague_on_italia({"tokens/0": MAGIC}, [2, 0, 0], {"Witch": 0}, {0: hand})
    useless = Protect(uses=[Use(card="regions/0", protects="Witch")])
    useful = Protect(uses=[Use(card="regions/1", protects="Witch")])
    assert useless in RULES.legal_actions(t.state, 0)  # judged on public information
    known = {"regions/0": POLONIA_BOURGEOISIE_CHURCH, "regions/1": GALLIA_MAGIC_ROYALTY}
    listed = RULES.listed_actions(t.state, 0, known)
    assert useless not in listed and useful in listed and Protect() in listed
