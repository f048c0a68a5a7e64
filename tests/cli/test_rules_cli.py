"""``pbem rules``: the rulesets and their options, the rules by numbered section with the
rulings marked, the topics drawn from the data, and a game's own card set (``--game``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbem.games.rattaneer.cards import DEFAULT_CARDS, cards_hash
from pbem.games.rattus import data
from pbem.ruleset import registry
from tests.cli.test_game_cli import error, pbem
from tests.helpers import new_keys


def ok(*args: str | Path) -> str:
    result = pbem(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def report(*args: str | Path) -> dict[str, Any]:
    return json.loads(ok(*args, "--json"))


def test_no_game_lists_the_rulesets_with_their_options() -> None:
    text = ok("rules")
    assert "--option africanus=on|off (default: off): T-2" in text
    assert "--option tavern_keep=1-4 (default: 3): R-7.B" in text
    listed = {r["id"]: r for r in report("rules")["rulesets"]}
    for game in ("rattus", "rattaneer"):
        rules = registry.get(game)
        assert (listed[game]["version"], listed[game]["hash"]) == (
            rules.version,
            rules.content_hash(),
        )
    treasures = next(o for o in listed["rattaneer"]["options"] if o["name"] == "treasures")
    assert treasures == {
        "name": "treasures",
        "values": "true|false",
        "default": "false",
        "help": "R-2.7: the treasure cards of the expansion on the island",
    }
    assert listed["rattus"]["topics"] == ["classes", "tokens"]


def test_a_section_by_its_citation_either_way() -> None:
    dotted = ok("rules", "rattus", "T-5.C.3")
    assert dotted == ok("rules", "rattus", "T-5 C.3") == ok("rules", "rattus", "t-5 c.3")
    assert dotted.startswith("#### T-5.C.3 Spread") and "at most 3" not in dotted
    explorer = ok("rules", "rattus", "T-6.8")
    assert "you may place 1 of your cubes" in explorer and "or place none" in explorer
    whole = ok("rules", "rattus", "T-6")
    assert "### T-6.1 Peasant" in whole and "### T-6.10 Caravan" in whole
    section = report("rules", "rattaneer", "R-6.5")["section"]
    assert section["id"] == "R-6.5" and section["rulings"] is True
    assert "drawn at random" in " ".join(section["text"].split())


def test_the_rulings_the_sources_do_not_decide_are_marked() -> None:
    # Issue 18: kept as rulings, and marked so in the text and in RULINGS.md.
    marked = {
        game: {s["id"] for s in report("rules", game)["sections"] if "[ruling" in s["text"]}
        for game in ("rattus", "rattaneer")
    }
    assert {"R-5.1", "R-6", "R-6.2", "R-6.3.3", "R-6.5", "R-6.6", "R-7.B"} <= marked["rattaneer"]
    assert {"T-6.10", "T-7.3", "T-9.1", "T-9.3", "T-9.4"} <= marked["rattus"]
    for game, words in {
        "rattaneer": ["capacity (R-6.3.3)", "The Farm (R-6.6)", "areas 9 and 10 (R-6)"],
        "rattus": ["T-9.1 [ruling]", "T-9.4 [ruling]", "T-6.10 Caravan"],
    }.items():
        rulings = ok("rules", game, "rulings")
        assert all(w in rulings for w in words), game


def test_the_whole_text_names_its_topics() -> None:
    text = ok("rules", "rattaneer")
    assert text.startswith("# Rattaneer: the rules pbem plays")
    assert "## R-9 The card set" in text
    assert text.rstrip().endswith("Topics: cards, rulings (pbem rules rattaneer TOPIC).")
    whole = report("rules", "rattus")
    ids = [s["id"] for s in whole["sections"]]
    assert ids[0] == "T-1" and "T-5.C.4" in ids and ids[-1] == "T-10"


def test_classes_explains_every_class_card_africanus_included() -> None:
    entries = {e["name"]: e for e in report("rules", "rattus", "classes")["entries"]}
    assert list(entries) == [c.name for c in data.class_cards()]
    assert entries["Witch"]["section"] == "T-6.5" and "Look secretly" in entries["Witch"]["text"]
    assert "icon islam" in entries["Sultan"]["text"] and "diplomat" in entries["Sultan"]["text"]
    assert "may place 1 extra cube" in entries["Caravan"]["text"]
    assert "- Explorer (T-6.8): (Africanus, icon islam)" in ok("rules", "rattus", "classes")


def test_tokens_explains_icons_and_thresholds() -> None:
    topic = report("rules", "rattus", "tokens")
    names = [e["name"] for e in topic["entries"]]
    icons = {c.icon for c in data.class_cards()}
    assert {"threshold 1-6", "M", "A", *icons} <= set(names)
    by_name = {e["name"]: e["text"] for e in topic["entries"]}
    assert "at least that many cubes" in by_name["threshold 1-6"]
    assert "the Peasant" in by_name["peasantry"] and "the Sultan" in by_name["islam"]
    assert "most cubes" in by_name["M"] and "every player" in by_name["A"]
    assert "49 tokens, 12 of them starting" in by_name["base set"]
    assert "65 tokens, 17 of them starting" in by_name["Africanus set"]
    assert "threshold" in topic["intro"] and "breaks out only with" in topic["intro"]


def test_cards_lists_the_shipped_set() -> None:
    text = ok("rules", "rattaneer", "cards")
    assert "The cards of the shipped set, a reconstruction" in text
    assert "- C12 (R-9.1): cost 2 coins, 0 VP; at the end +1 VP per other companion" in text
    assert "- S2-2 (R-6.3.3): trade ship, strength 2, turns up to 2 plunder face down" in text
    assert "- T8 (R-9.4): treasure card, 8 VP" in text
    raw = json.loads(DEFAULT_CARDS.read_text())
    entries = {e["name"] for e in report("rules", "rattaneer", "cards")["entries"]}
    assert {c["id"] for c in raw["companions"] + raw["sea"] + raw["treasures"]} <= entries


def _new(*extra: str) -> Path:
    args = ["new", "rattaneer", "--seat", "anne", "--seat", "bart.card.json", "--as", "anne"]
    ok(*args, *extra)
    return Path(extra[extra.index("-o") + 1])


@pytest.fixture
def house_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Rattaneer game created with a house card set: one companion renamed and costlier;
    the card file is gone afterwards (the genesis carries the set)."""
    monkeypatch.chdir(tmp_path)
    new_keys("anne", "bart")
    ok("key", "export", "bart", "-o", "bart.card.json")
    raw = json.loads(DEFAULT_CARDS.read_text())
    raw.update(reconstruction=False, explanation="Our house set.")
    raw["companions"][0] = {"id": "Parrot", "cost": 7, "vp": 9}
    Path("house.json").write_text(json.dumps(raw))
    game = _new("--option", "cards=house.json", "-o", "house-game.json")
    Path("house.json").unlink()
    return game


def test_cards_of_a_game_are_its_own_embedded_set(house_game: Path) -> None:
    text = ok("rules", "rattaneer", "cards", "--game", house_game)
    pinned = json.loads(house_game.read_text())["genesis"]["options"]["cards_hash"]
    assert f"the set embedded in the game (sha256 {pinned}), not a reconstruction" in text
    assert "Our house set." in text and "- Parrot (R-9.1): cost 7 coins, 9 VP" in text
    assert "C01" not in text
    assert ok("rules", "--game", house_game, "cards") == text  # GAME may be left out
    error(2, "is a rattaneer game, not rattus", "rules", "rattus", "cards", "--game", house_game)


def test_a_forged_card_set_in_a_game_is_refused(house_game: Path) -> None:
    # The embedded set is believed only under the creator's signature: a set swapped in the
    # file (hash recomputed to match) must not be shown as the game's.
    game = json.loads(house_game.read_text())
    options = game["genesis"]["options"]
    options["cards"]["companions"][0]["cost"] = 0
    options["cards_hash"] = cards_hash(options["cards"])
    forged = house_game.with_name("forged.json")
    forged.write_text(json.dumps(game, indent=1))
    error(1, "genesis: the creator's signature", "rules", "rattaneer", "cards", "--game", forged)


def test_unknown_game_section_or_file_is_a_usage_error(tmp_path: Path) -> None:
    error(2, "unknown ruleset 'chess' (installed: ", "rules", "chess")
    error(2, "rattus has no section or topic 'T-11'", "rules", "rattus", "T-11")
    error(2, "has no section or topic 'cards'", "rules", "rattus", "cards")
    error(2, "no such file", "rules", "rattaneer", "cards", "--game", tmp_path / "none.json")
