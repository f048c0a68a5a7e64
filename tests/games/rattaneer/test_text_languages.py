"""Issue 30: Rattaneer's own lines (the heading, the card set, who is awaited, each
player's line, the log's consequences) in the reader's language, made in English from
marked templates; a log line ending in a word that is also a short message (``… for 1
coin``) stays whole; ``--json`` stays the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.format import i18n
from tests.helpers import pbem

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "rattaneer"
SAID = {
    "ja": ("Rattaneer · ラウンド 10/10", "ゲーム終了。勝者: ", "工房: コイン ", "手下 +1 (現在 "),
    "zh-Hant": ("Rattaneer · 第 10/10 輪", "遊戲結束。勝者:", "工坊:金幣 ", "部下 +1(現有 "),
    "zh-Hans": ("Rattaneer · 第 10/10 轮", "游戏结束。胜者:", "工坊:金币 ", "部下 +1(现有 "),
}


@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_games_lines_are_in_the_readers_language(lang: str) -> None:
    game = EXAMPLES / "game.json"
    status = pbem("--lang", lang, "status", game).stdout
    log = pbem("--lang", lang, "log", game).stdout
    heading, over, workshop, hired = SAID[lang]
    assert heading in status and over in status
    assert workshop in log and hired in log
    for english in ("Game over.", "Decks: ", " coins · ", "companions: "):
        assert english not in status, english
    for english in ("Workshop: ", " begins", "(now ", "hires a henchman", "supplied", "joined"):
        assert english not in log, english
    for command in ("status", "log"):
        as_json = pbem(command, game, "--json").stdout
        assert pbem("--lang", lang, command, game, "--json").stdout == as_json


def test_the_morning_prompt_is_translated() -> None:
    status = pbem("--lang", "ja", "status", EXAMPLES / "morning.json").stdout
    assert "ラウンド 2 の朝: 駒を配置してください (R-5.1)" in status


def test_a_sentence_ending_in_a_short_messages_words_stays_whole() -> None:
    # "{n} coin" is a message (the page's); a sentence that ends so is not that message
    i18n.use("ja")
    try:
        said = i18n.localize("the wind blows for 1 coin")
    finally:
        i18n.use(i18n.ENGLISH)
    assert said == "the wind blows for 1 coin"
