"""Every rule section a prompt, an error or any other message of a game cites exists in the
rules text shipped with that game (``pbem rules GAME SECTION`` can show it).

The citations are collected from the code itself: every string literal (f-string parts
included) of a game's package and of its view, docstrings excepted, and every string of its
data files. A game's own sections have its prefix (Rattus ``T-``, Rattaneer ``R-``); a
message of one game citing the other's prefix would send a player to the wrong text.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from pbem.ruleset import registry
from pbem.ruleset.rulebook import citations, normalize, parse

PACKAGE = Path(__file__).resolve().parents[1] / "pbem"
GAMES = {"rattus": "T-", "rattaneer": "R-"}


def _docstrings(tree: ast.AST) -> set[int]:
    """The string statements of a module: docstrings and attribute docstrings."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for statement in body if isinstance(body, list) else []:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                found.add(id(statement.value))
    return found


def _strings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
    ]


def _json_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _json_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _json_strings(v)]
    return []


def cited(game: str) -> dict[str, list[str]]:
    """Section -> where it is cited (``file:line``), over the game's code and data."""
    root = PACKAGE / "games" / game
    found: dict[str, list[str]] = {}
    sources = [*sorted(root.rglob("*.py")), *sorted((PACKAGE / "view").glob(f"{game}*.py"))]
    for path in sources:
        for line, text in _strings(path):
            for section in citations(text):
                found.setdefault(section, []).append(f"{path.name}:{line}")
    for path in sorted(root.rglob("*.json")):
        for text in _json_strings(json.loads(path.read_text(encoding="utf-8"))):
            for section in citations(text):
                found.setdefault(section, []).append(path.name)
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_cited_section_exists_in_the_shipped_rules(game: str) -> None:
    book = registry.get(game).rulebook()
    assert book is not None, f"{game} ships no rules text"
    found = cited(game)
    assert len(found) > 8, "the scan found too few citations to be looking at the code"
    missing = {s: where for s, where in found.items() if book.get(s) is None}
    assert missing == {}, f"cited but not in {game}'s rules text: {missing}"
    foreign = {s: where for s, where in found.items() if not s.startswith(GAMES[game])}
    assert foreign == {}, f"{game} cites another game's sections: {foreign}"


def test_the_scan_sees_messages_and_prompts() -> None:
    # The collector must find citations in errors (f-strings), prompts and dict values.
    found = cited("rattus")
    assert "T-6.10" in found and "T-5.C.3" in found and "T-6.8" in found
    assert "R-6.3.3" in cited("rattaneer") and "R-7.B" in cited("rattaneer")


def test_citations_are_read_both_ways() -> None:
    assert citations("T-5 C.3: spread; R-7.B (T-6.10), T-5 B, T-5 A: take") == [
        "T-5.C.3",
        "R-7.B",
        "T-6.10",
        "T-5.B",
        "T-5.A",
    ]
    assert citations("T-5: then R-6 Day and T-6.4 Apple") == ["T-5", "R-6", "T-6.4"]
    assert normalize("t-5 c.3") == "T-5.C.3"


def test_sections_nest_by_heading_level_and_keep_rulings() -> None:
    book = parse(
        "# Game\n\nPreface.\n\n## R-1 One\n\nText one.\n\n### R-1.1 Sub\n\nA **[ruling]**.\n\n"
        "#### Not numbered\n\nStill R-1.1.\n\n## R-2 Two\n\nText two.\n"
    )
    assert (book.title, book.preface) == ("Game", "Preface.")
    assert [s.id for s in book.all()] == ["R-1", "R-1.1", "R-2"]
    one = book.get("r-1")
    assert one is not None and one.body == "Text one." and one.rulings
    assert "Still R-1.1." in book.get("R-1.1").body
    assert not book.get("R-2").rulings
    assert one.text().startswith("## R-1 One\n\nText one.\n\n### R-1.1 Sub")
    assert book.get("R-3") is None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_rules_text_is_not_in_the_rules_hash(game: str) -> None:
    # Deliberate (Ruleset.rulebook): the text explains, the code and data decide; a wording
    # fix must not make every game file pinned to the hash refuse to load.
    rules = registry.get(game)
    assert rules.rulebook() is not None and rules.rulings() is not None
    assert [p.name for p in rules.source_files() if p.suffix == ".md"] == []
