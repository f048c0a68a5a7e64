"""Rattaneer through the real commands (issue 3 items 3–5): the morning seen by ``pbem
status`` (who has committed, never what), ``pbem moves`` help, and another card file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.games.rattaneer.cards import DEFAULT_CARDS
from tests.helpers import new_keys, ok, pbem, report

PLAYERS = ("anne", "bart", "cleo")
ANNE_PLACES = "pirates 2 4, henchmen 4"


@pytest.fixture
def players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three identities without passphrase; bart's and cleo's cards exported, as they
    would be mailed to anne."""
    monkeypatch.chdir(tmp_path)
    new_keys(*PLAYERS)
    for name in PLAYERS[1:]:
        ok("key", "export", name, "-o", f"{name}.card.json")
    return tmp_path


def new_game(*options: str) -> Path:
    """Anne creates a game; bart and cleo join on their own copies; anne merges them, then
    supplies the setup draw. Returns the file awaiting the first Morning."""
    args = ["new", "rattaneer", "--seat", "anne", "--seat", "bart.card.json"]
    args += ["--seat", "cleo.card.json", "--as", "anne", "-o", "g.json"]
    for option in options:
        args += ["--option", option]
    ok(*args)
    copies = [report("play", "g.json", "--as", n, "-o", f"g-{n}.json")["file"] for n in PLAYERS[1:]]
    merged = report("merge", *copies, "-o", "joined.json", "--as", "anne")
    assert merged["awaiting"] == ["anne"]  # the setup draw: merging signs nothing
    drawn = report("play", merged["file"], "--as", "anne")
    assert drawn["awaiting"] == list(PLAYERS)
    return Path(drawn["file"])


def test_status_in_the_morning_shows_who_has_committed_never_what(players):
    game = new_game("start_seat=0")
    moves = report("moves", game, "--as", "anne")
    assert "pirates 3 7, henchmen 3 3 X" in moves["help"] and "For example: " in moves["help"]
    assert "a sample" in moves["help"]
    committed = Path(report("play", game, ANNE_PLACES, "--as", "anne")["file"])
    assert '"type": "place"' not in committed.read_text()  # the file holds it sealed

    for who in ((), ("--as", "bart")):  # anyone but anne: the table and who is awaited
        text = ok("status", committed, *who).stdout
        assert "awaiting: bart, cleo to choose place (sealed)" in text
        assert "Asked of anne, bart, cleo: Morning of round 1" in text
        assert "pirates 2 4" not in text and "◆" not in text and "your sealed choice" not in text
        view = report("status", committed, *who)
        assert "pirates 2 4" not in json.dumps(view) and "own_sealed" not in view
        assert all(not a["pirates"] and not any(a["henchmen"]) for a in view["view"]["board"])
    mine = ok("status", committed, "--as", "anne").stdout
    assert f"your sealed choice (only you can see it): {ANNE_PLACES}" in mine

    # bart and cleo commit on their own copies; the merge holds three sealed placements.
    places = {"bart": "pirates 1 3, henchmen 3", "cleo": "pirates 1 5, henchmen X"}
    copies = [
        report("play", committed, places[n], "--as", n, "-o", f"c-{n}.json")["file"] for n in places
    ]
    sealed = Path(report("merge", *copies, "-o", "sealed.json")["file"])
    text = ok("status", sealed).stdout
    assert "to reveal their sealed place (automatic)" in text
    assert "◆" not in text and not any(p in text for p in [ANNE_PLACES, *places.values()])

    # Every seat reveals by running pbem play on the file (cleo's, made right after her
    # commitment completed the batch, is in this shared store already); then pieces show.
    revealed = sealed
    while "to reveal their sealed place" in (awaiting := report("status", revealed)["next"]):
        who = awaiting.split()[0].rstrip(",")
        revealed = Path(report("play", revealed, "--as", who)["file"])
    text = ok("status", revealed).stdout
    assert "anne: pirate + 1 henchman" in text and "bart: pirate + 1 henchman" in text


def test_another_card_file_through_the_commands(players):
    raw = json.loads(DEFAULT_CARDS.read_text())
    raw.update(reconstruction=False, explanation="Our house set.")
    Path("mycards.json").write_text(json.dumps(raw))
    game = new_game("cards=mycards.json")
    Path("mycards.json").unlink()  # the genesis carries the set
    text = ok("status", game).stdout
    pinned = json.loads(game.read_text())["genesis"]["options"]["cards_hash"]
    assert f"Cards: custom set, sha256 {pinned} (not a reconstruction)" in text
    assert "Our house set." not in text  # said once: at new, on the page, in pbem rules
    assert "Our house set." in pbem("show", game, "-o", "-").stdout
    assert ok("verify", game).stdout.startswith(f"{game}: OK")

    Path("bad.json").write_text('{"reconstruction": true}')
    result = pbem(
        "new", "rattaneer", "--seat", "anne", "--seat", "bart.card.json",
        "--option", "cards=bad.json", "--as", "anne", "-o", "bad-game.json",
    )  # fmt: skip
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(
        "pbem: error: card file bad.json is not a valid Rattaneer card set: explanation: Field"
    )
    assert not Path("bad-game.json").exists()
