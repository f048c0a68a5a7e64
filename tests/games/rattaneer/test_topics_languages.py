"""Issue 30: ``pbem rules rattaneer cards`` (the topic's intro and every card's line) in
the reader's language; the card ids and rule ids stay; ``--json`` stays the same bytes."""

from __future__ import annotations

import pytest

from tests.helpers import pbem

SAID = {
    "ja": ("- C01 (R-9.1): コスト 1 コイン、1 VP", "終了時、", "交易船、戦力 ", "財宝カード、"),
    "zh-Hant": ("- C01 (R-9.1): 費用 1 金幣，1 VP", "結束時 +", "貿易船，戰力 ", "寶藏卡，"),
    "zh-Hans": ("- C01 (R-9.1): 费用 1 金币，1 VP", "结束时 +", "贸易船，战力 ", "宝藏卡，"),
}


@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_cards_topic_is_in_the_readers_language(lang: str) -> None:
    english = pbem("rules", "rattaneer", "cards").stdout
    said = pbem("--lang", lang, "rules", "rattaneer", "cards").stdout
    for line in SAID[lang]:
        assert line in said, line
    assert "R-6.2" in said and "(R-9.3)" in said
    for word in ("cost ", "at the end", "trade ship,", "plunder, strength", "spots worth"):
        assert word in english and word not in said, word
    as_json = pbem("rules", "rattaneer", "cards", "--json").stdout
    assert pbem("--lang", lang, "rules", "rattaneer", "cards", "--json").stdout == as_json
