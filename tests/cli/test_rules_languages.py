"""``pbem rules`` in Japanese, Traditional and Simplified Chinese (issue 30): each game's
rules and rulings are translated beside the English (``rules.ja.md``, ``RULINGS.zh-Hant.md``)
with exactly its section ids, shown in the language in use, the English where a
translation is missing, and ``--json`` the same in every language."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from pbem.ruleset import registry
from pbem.ruleset.rulebook import HEADING, parse
from pbem.ruleset.rules import Ruleset
from tests.helpers import ok

GAMES = ("rattus", "rattaneer")
LANGS = ("ja", "zh-Hant", "zh-Hans")
STEMS = ("rules", "RULINGS")
#: A section each game's test reads, and a word its translation must hold in each language.
SHOWN = {
    ("rattus", "ja"): ("T-6", "スルタン"),
    ("rattus", "zh-Hant"): ("T-6", "蘇丹"),
    ("rattus", "zh-Hans"): ("T-6", "苏丹"),
    ("rattaneer", "ja"): ("R-6.5", "伝説の島"),
    ("rattaneer", "zh-Hant"): ("R-6.5", "傳說之島"),
    ("rattaneer", "zh-Hans"): ("R-6.5", "传说之岛"),
}
#: Characters only one of the two Chinese scripts writes (island, zone, this, one, coin …).
TRADITIONAL_ONLY = set("島區這個們為時幣寶戰與會對說傳寫檔")
SIMPLIFIED_ONLY = set("岛区这个们为时币宝战与会对说传写档")


def beside(game: str, name: str) -> Path:
    return Path(inspect.getfile(type(registry.get(game)))).parent / name


def headings(markdown: str) -> list[tuple[int, str | None]]:
    """Every markdown heading as (level, section id or None): numbered or not, in order."""
    found = []
    for line in markdown.splitlines():
        if re.match(r"#{1,6} ", line):
            numbered = HEADING.match(line)
            found.append((len(line.split(" ")[0]), numbered.group(2) if numbered else None))
    return found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stem", STEMS)
@pytest.mark.parametrize("game", GAMES)
def test_each_translation_has_exactly_the_english_sections(game: str, stem: str, lang: str) -> None:
    english = beside(game, f"{stem}.md").read_text(encoding="utf-8")
    translated = beside(game, f"{stem}.{lang}.md").read_text(encoding="utf-8")
    assert headings(translated) == headings(english)
    ours, theirs = parse(translated), parse(english)
    assert [(s.id, s.level) for s in ours.all()] == [(s.id, s.level) for s in theirs.all()]
    assert headings(english), "nothing to compare"
    assert _items(translated) == _items(english)  # the same lists: numbered rulings, bullets
    # rulings stay marked as rulings, in the same sections
    assert [s.id for s in ours.all() if s.rulings] == [s.id for s in theirs.all() if s.rulings]
    assert translated.count("[ruling") == english.count("[ruling")
    # and it is a translation: no paragraph left in English
    assert not re.search(r"\b(the|and|with) [a-z]+ [a-z]+ [a-z]+\b", _prose(translated))


def _items(markdown: str) -> list[str]:
    """The list items' markers in order: ``1``, ``4a`` (numbered), ``-`` (a bullet)."""
    return [m or "-" for m in re.findall(r"^(?:(\d+a?)\.|-) ", markdown, re.MULTILINE)]


def _prose(markdown: str) -> str:
    """The text without code spans (commands, options) and without quoted sources."""
    return re.sub(r"`[^`]*`", "", markdown)


@pytest.mark.parametrize("stem", STEMS)
@pytest.mark.parametrize("game", GAMES)
def test_simplified_chinese_is_written_in_simplified(game: str, stem: str) -> None:
    hant = beside(game, f"{stem}.zh-Hant.md").read_text(encoding="utf-8")
    hans = beside(game, f"{stem}.zh-Hans.md").read_text(encoding="utf-8")
    assert TRADITIONAL_ONLY & set(hant) and not SIMPLIFIED_ONLY & set(hant)
    assert SIMPLIFIED_ONLY & set(hans) and not TRADITIONAL_ONLY & set(hans)


@pytest.mark.parametrize(("game", "lang"), list(SHOWN))
def test_a_section_is_shown_in_the_language_in_use(game: str, lang: str) -> None:
    section, word = SHOWN[game, lang]
    shown = ok("--lang", lang, "rules", game, section).stdout
    book = parse(beside(game, f"rules.{lang}.md").read_text(encoding="utf-8"))
    wanted = book.get(section)
    assert wanted is not None
    assert shown.rstrip("\n") == wanted.text() and word in shown
    assert shown != ok("rules", game, section).stdout
    assert word not in ok("rules", game, section).stdout
    whole = ok("--lang", lang, "rules", game).stdout
    assert whole.startswith(f"# {book.title}\n") and wanted.text() in whole
    rulings = ok("--lang", lang, "rules", game, "rulings").stdout
    assert rulings.rstrip("\n") == beside(game, f"RULINGS.{lang}.md").read_text().rstrip("\n")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("args", [("T-6",), ("rulings",), ()])
def test_json_is_the_english_in_every_language(lang: str, args: tuple[str, ...]) -> None:
    english = ok("rules", "rattus", *args, "--json").stdout
    assert ok("--lang", lang, "rules", "rattus", *args, "--json").stdout == english
    assert "スルタン" not in english and "Sultan" in english


def test_a_missing_translation_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    japanese = ok("--lang", "ja", "rules", "rattus", "T-6").stdout
    hidden = Ruleset._beside

    def without_japanese(self: Ruleset, name: str) -> Path | None:
        return None if ".ja." in name else hidden(self, name)

    monkeypatch.setattr(Ruleset, "_beside", without_japanese)
    english = ok("rules", "rattus", "T-6").stdout
    assert ok("--lang", "ja", "rules", "rattus", "T-6").stdout == english != japanese
    assert (
        ok("--lang", "ja", "rules", "rattus", "rulings").stdout
        == ok("rules", "rattus", "rulings").stdout
    )
    rattus = registry.get("rattus")
    assert rattus.rulebook("ja") == rattus.rulebook() and rattus.rulings("ja") == rattus.rulings()


def test_the_code_reads_the_english_text() -> None:
    # Topics look class cards up by their English titles; a translation must not change them.
    rattus = registry.get("rattus")
    assert rattus.rulebook() == rattus.rulebook("en") != rattus.rulebook("ja")
    entries = ok("--lang", "ja", "rules", "rattus", "classes", "--json").stdout
    assert entries == ok("rules", "rattus", "classes", "--json").stdout
