"""Rattus through the commands (issue 5 items 3 and 5, issue 7 item 6): a turn typed as
one line that stops where the game must wait, and ``pbem status --as`` showing what only
that player knows (the Witch's look, the own region cards)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem.games.rattus import data
from tests.helpers import ok as pbem
from tests.helpers import report

NAMES = ("ann", "ben")


def new_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str) -> Path:
    """Two identities and a new game created by ann, joined and set up: the first player
    is to place starting cubes."""
    monkeypatch.chdir(tmp_path)
    for name in NAMES:
        pbem("key", "new", name, "--email", f"{name}@example.org", "--no-passphrase")
    extra = [a for option in options for a in ("--option", option)]
    pbem("new", "rattus", "--seat", "ann", "--seat", "ben", *extra, "--as", "ann", "-o", "g.json")
    return settle(Path("g.json"))


def settle(f: Path) -> Path:
    """Everybody makes the automatic steps they owe, until a player must decide."""
    while True:
        status = report("status", f)
        awaiting = status["next"]
        if "automatic" not in awaiting and "to join" not in awaiting:
            return f
        who = awaiting.split()[0].rstrip(",")
        f = Path(report("play", f, "--as", who)["file"])


def mover(f: Path) -> str:
    return report("status", f)["awaiting"][0]


def starting_cubes(f: Path) -> Path:
    """T-3.8: both players place their starting cubes, each the first move listed."""
    while (view := report("status", f)["view"])["phase"] == "start":
        who = mover(f)
        first = report("moves", f, "--as", who)["moves"][0]
        f = settle(Path(report("play", f, first, "--as", who)["file"]))
        assert view != report("status", f)["view"]
    return f


def finish(f: Path, who: str) -> Path:
    """``who`` answers what its plague move left to choose (spreading, token order)."""
    while mover(f) == who:
        first = report("moves", f, "--as", who)["moves"][0]
        f = settle(Path(report("play", f, first, "--as", who)["file"]))
    return f


def a_turn(f: Path, who: str, view: dict[str, Any]) -> tuple[str, str]:
    """A placement and a plague move legal at the start of ``who``'s turn."""
    place = next(m for m in report("moves", f, "--as", who)["moves"] if m.startswith("place"))
    target = data.board(2).neighbours(view["plague"])[0]
    return place, f"plague {target}"


def test_a_whole_turn_in_one_line_and_the_witchs_look(tmp_path, monkeypatch) -> None:
    # T-5, issue 5 item 3: "take Witch; place ...; plague ..." is played in one command.
    f = starting_cubes(new_game(tmp_path, monkeypatch))
    first = mover(f)
    place, plague = a_turn(f, first, report("status", f)["view"])
    line = f"take Witch; {place}; {plague}"
    done = report("play", f, line, "--as", first)
    assert done["played"] == line.split("; ") and done["not_played"] == []
    f = finish(settle(Path(done["file"])), first)
    # T-6.5: the other player takes the Witch and looks: the line stops where the look
    # needs the first player's decryption share, and says what was not played yet.
    second = mover(f)
    assert second != first
    view = report("status", f)["view"]
    tokens = [r["tokens"][0] for r in view["regions"] if r["tokens"]][:2]  # two regions
    place, plague = a_turn(f, second, view)
    rest = ["keep", place, plague]
    line = "; ".join(["take Witch", f"witch {tokens[0]} {tokens[1]}", *rest])
    done = report("play", f, line, "--as", second)
    assert done["not_played"] == rest
    text = pbem("status", done["file"], "--as", second).stdout
    assert "only you know" not in text  # nothing opened yet
    f = Path(report("play", done["file"], "--as", first)["file"])  # the share
    mine = pbem("status", f, "--as", second).stdout
    assert "only you know (decrypted here):" in mine
    looked = [line for line in mine.splitlines() if any(f"({t}):" in line for t in tokens)]
    assert len(looked) == 2 and all("threshold" in line for line in looked)
    others = pbem("status", f, "--as", first).stdout  # a public reveal explains its token
    assert not any(line.split(": ", 1)[1] in others for line in looked)
    done = report("play", f, "; ".join(rest), "--as", second)
    assert done["played"] == rest


def test_status_shows_africanus_and_the_own_hand(tmp_path, monkeypatch) -> None:
    # T-4, issue 7 item 6: hand sizes and the deck for all; the cards to their holder only.
    f = new_game(
        tmp_path, monkeypatch, "africanus=on", "classes=Peasant,Monk,Witch,King,Sultan,Caravan"
    )
    public = pbem("status", f).stdout
    assert "Region cards: deck 18 face down; in hand: ann 3, ben 3" in public
    assert "Diplomats (*): ann 0, ben 0; in the palace 0; supply 15" in public
    assert not re.search(r"\bRC\d\d\b", public)  # no card id (fingerprints may hold "RC")
    hands = report("status", f)["view"]["africa"]["hands"]
    for seat, name in enumerate(NAMES):
        own = pbem("status", f, "--as", name).stdout
        line = next(x for x in own.splitlines() if x.startswith("Your region cards: "))
        assert [part.split(":")[0] for part in line[19:].split("; ")] == hands[seat]
        assert line.count("RC") == 3
