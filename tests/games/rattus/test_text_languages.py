"""Issue 30: Rattus's own lines (the table's lines, prompts, the awaited line, the log's
consequences, token effects, the score) are shown in the reader's language, made in English
from marked templates and translated where shown; ``--json`` stays the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.format import i18n
from tests.helpers import pbem

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "rattus-africanus" / "game.json"
ENGLISH_HEADS = (
    "Rattus with Africanus,",
    "Class cards:",
    "Token supply:",
    "Diplomats (*):",
    "Region cards:",
    "Discards (",
    "Last revealed",
    "Game over:",
    "Awaiting",
    "North Africa:",
)
"""How the game's own lines begin in English: none of them may stay so in a translation."""

SAID = {
    "ja": ("階級カード: ", "トークンのストック: 裏向き ", "ゲーム終了: ", "のネズミトークン: "),
    "zh-Hant": ("階級卡:", "標記供應區:蓋著 ", "遊戲結束:", "的鼠標記:"),
    "zh-Hans": ("阶级卡:", "标记供应区:盖着 ", "游戏结束:", "的鼠标记:"),
}


@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_games_lines_are_in_the_readers_language(lang: str) -> None:  # T-7, T-9.5
    english = pbem("status", EXAMPLE).stdout
    assert "Class cards: " in english and "Game over: " in english
    status = pbem("--lang", lang, "status", EXAMPLE).stdout
    log = pbem("--lang", lang, "log", EXAMPLE).stdout
    table, cards, over, token = SAID[lang]
    assert table in status and cards in status and over in status
    assert token in log
    stayed = [line for line in status.splitlines() if line.lstrip().startswith(ENGLISH_HEADS)]
    assert stayed == []
    assert "rat token in " not in log and "the plague moves to " not in log
    assert " on the board (now " not in log  # `NAME: +1 cube on the board`: head and message
    assert "the holder of" not in log
    for command in ("status", "log"):
        as_json = pbem(command, EXAMPLE, "--json").stdout
        assert pbem("--lang", lang, command, EXAMPLE, "--json").stdout == as_json


def test_a_token_effect_reads_whole_in_japanese() -> None:  # T-7.1, T-7.2
    made = (
        "  X31, threshold 4, magic royalty: breaks out with 4 or more cubes in the region; "
        "magic: hits the holder of the Witch, once per such card; royalty: hits the holder "
        "of the King, once per such card"
    )
    i18n.use("ja")
    try:
        assert i18n.localize(made) == (
            "  X31、しきい値 4、magic royalty: 地域に駒が 4 個以上あれば発生; "
            "magic: Witch の持ち主に、そのカード 1 枚につき 1 回当たる; "
            "royalty: King の持ち主に、そのカード 1 枚につき 1 回当たる"
        )
    finally:
        i18n.use(i18n.ENGLISH)


def test_a_moment_is_shown_in_the_readers_form() -> None:  # architecture §11
    line = "alice awaited since 2026-12-05 11:37 UTC (5m); no deadline"
    expected = {  # CLDR's forms, the space between date and time aside (its data changes it)
        "ja": ("alice を 2026/12/05", "11:37 UTC から待っています (5m); 期限なし"),
        "zh-Hant": ("自 2026/12/5", "上午11:37 UTC 起等待 alice(5m);無期限"),
        "zh-Hans": ("自 2026/12/5", "11:37 UTC 起等待 alice(5m);无期限"),
    }
    try:
        for lang, (start, end) in expected.items():
            i18n.use(lang)
            said = i18n.localize(line)
            assert said.startswith(start) and said.endswith(end), said
            assert len(said) - len(start) - len(end) == 1, said
    finally:
        i18n.use(i18n.ENGLISH)
    assert i18n.localize(line) == line


def test_a_last_value_never_takes_the_clauses_after_it() -> None:  # T-5
    i18n.use("zh-Hant")
    try:
        said = i18n.localize("Rattus with Africanus, 6 players, turn 42; plague in Russia")
    finally:
        i18n.use(i18n.ENGLISH)
    assert said == "Rattus 加阿非利加努斯,6 名玩家,第 42 回合; 鼠疫位於 Russia"
