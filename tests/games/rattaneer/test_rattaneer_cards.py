"""R-9 and issue 3 item 3: another card file, embedded in the genesis and pinned by its hash,
so that a game made with it verifies anywhere without the file, and only with that set."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pbem.crypto.randomness import Rng
from pbem.format import gamefile
from pbem.format.canonical import canonical
from pbem.format.errors import Rejected
from pbem.games.rattaneer import Rattaneer
from pbem.games.rattaneer.cards import DEFAULT_CARDS
from pbem.ledger.replay import replay_file
from pbem.play.author import new_game
from pbem.play.selfplay import bot_identities, play_game
from pbem.ruleset.rules import RulesError

SMALL_COMPANIONS = ["C01", "C02", "C11", "C17"]


def write_cards(tmp_path: Path, **changes: object) -> Path:
    """The shipped card file with top-level ``changes``, written as another file."""
    raw = json.loads(DEFAULT_CARDS.read_text())
    raw.update(changes)
    path = tmp_path / "mycards.json"
    path.write_text(json.dumps(raw))
    return path


@pytest.fixture
def small_set(tmp_path: Path) -> Path:
    """Not a reconstruction, four companions only (a short game: the companion deck runs
    out early, R-7.D), and the cheapest companion worth 9 VP, to tell the sets apart."""
    raw = json.loads(DEFAULT_CARDS.read_text())
    companions = [c for c in raw["companions"] if c["id"] in SMALL_COMPANIONS]
    companions[0]["vp"] = 9
    return write_cards(
        tmp_path,
        reconstruction=False,
        explanation="A small test set.",
        companions=companions,
    )


def test_option_cards_embeds_the_normalized_set_and_its_hash(rules, small_set):
    options = rules.parse_options({"cards": str(small_set), "treasures": "yes"})
    embedded = options["cards"]
    assert embedded["reconstruction"] is False and embedded["explanation"] == "A small test set."
    assert [c["id"] for c in embedded["companions"]] == SMALL_COMPANIONS
    assert embedded["sea"][0]["copies"] == 6 and "bonus" not in embedded["companions"][0]
    assert options["cards_hash"] == hashlib.sha256(canonical(embedded)).hexdigest()
    # Without the option, the shipped set is used; the ruleset's content hash covers it.
    assert "cards" not in rules.parse_options({}) and "cards_hash" not in rules.parse_options({})


def test_the_game_uses_its_own_card_set(rules, small_set):
    # "loads any other set that fits the same schema".
    state = rules.setup(rules.parse_options({"cards": str(small_set)}), 2)
    state = rules.resolve_chance(state, Rng(bytes(32)))
    assert sorted(state.companion_deck + state.tavern) == SMALL_COMPANIONS
    assert state.options.card_set().companion("C01").vp == 9
    text = rules.render_text(state, ["Anne", "Bart"])
    assert f"Cards: custom set, sha256 {state.options.cards_hash} (not a reconstruction)" in text
    # The explanation is said once (pbem new, the page, pbem rules), not in every status.
    assert "A small test set." not in text
    assert "A small test set." in rules.notice(state.options.model_dump(exclude_none=True))
    shipped = rules.setup(rules.parse_options({}), 2)
    line = rules.render_text(shipped, ["Anne", "Bart"]).splitlines()[1]
    assert line == "Cards: shipped set (a reconstruction): pbem rules rattaneer cards"
    assert rules.notice({}).startswith("This game plays the shipped card set: The published")
    assert shipped.options.card_set().companion("C01").vp == 1


def test_a_game_with_another_card_file_plays_and_verifies(rules, small_set, tmp_path):
    options = rules.parse_options({"cards": str(small_set), "treasures": "yes"})
    small_set.unlink()  # the signed genesis carries the set: the file is no longer needed
    report = play_game(rules, 3, 1, options, ["greedy", "random"], tmp_path / "out")
    game = gamefile.read(report.path)
    assert game.genesis.options["cards_hash"] == options["cards_hash"]
    final = replay_file(game, Rattaneer())
    assert final.result == report.result
    every_companion = [c for p in final.state.players for c in p.companions]
    every_companion += final.state.companion_deck + final.state.tavern
    assert sorted(every_companion + final.state.companion_discard) == SMALL_COMPANIONS


def test_a_tampered_embedded_card_set_fails_verification(rules, small_set, tmp_path):
    options = rules.parse_options({"cards": str(small_set)})
    report = play_game(rules, 2, 3, options, ["random"], tmp_path)
    raw = json.loads(report.path.read_text())
    cards = raw["genesis"]["options"]["cards"]
    cards["companions"][0]["vp"] = 99  # a better card for oneself, hash updated to match
    raw["genesis"]["options"]["cards_hash"] = hashlib.sha256(canonical(cards)).hexdigest()
    with pytest.raises(Rejected, match="genesis: the creator's signature"):
        replay_file(gamefile.decode(json.dumps(raw)), rules)


def test_a_creator_cannot_sign_a_card_set_that_does_not_match_its_hash(rules, small_set):
    options = rules.parse_options({"cards": str(small_set)})
    rules.setup(options, 2)  # the honest set is now known to this process, by its hash
    options["cards"]["companions"][0]["vp"] = 99  # signed by the creator, but not pinned
    ids = bot_identities(5, 2)
    with pytest.raises(Rejected, match=r"^genesis: options: the embedded card set hashes to "):
        new_game(rules, options, [i.card for i in ids], ids[0])  # refused at the genesis


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot be read"),
        (b"{", "is not valid JSON (line 1, column 2"),
        (b'{"reconstruction": true, "reconstruction": false}', "duplicate key 'reconstruction'"),
        (b'{"treasures_drawn": 5.0}', "floats are not allowed"),
        (b"[]", "is not a valid Rattaneer card set: Input should be"),
        (b"{}", "is not a valid Rattaneer card set: reconstruction: Field required (and 6 more"),
    ],
)
def test_a_malformed_card_file_is_one_clear_line(rules, tmp_path, content, message):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(RulesError) as caught:
        rules.parse_options({"cards": str(path)})
    text = str(caught.value)
    assert "\n" not in text and text.startswith(f"card file {path}")
    assert message in text


def test_a_card_file_that_breaks_a_rule_of_the_schema(rules, tmp_path):
    raw = json.loads(DEFAULT_CARDS.read_text())
    raw["sea"][1]["copies"] = 0
    path = write_cards(tmp_path, sea=raw["sea"])
    with pytest.raises(RulesError, match=r"sea\.1\.plunder\.copies: Input should be greater"):
        rules.parse_options({"cards": str(path)})
    with pytest.raises(RulesError, match="no option cards_hash"):
        rules.parse_options({"cards_hash": "0" * 64})


def test_the_card_file_schema_is_published(rules):
    schema = rules.schemas()["rattaneer.cards"]
    assert {"reconstruction", "explanation", "companions", "sea"} <= set(schema["required"])
