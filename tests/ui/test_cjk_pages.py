"""``pbem ui``'s pages in Japanese, Traditional and Simplified Chinese (issue 30), in a real
headless Chromium: the games list and a Rattaneer Morning placement made by clicking, in the
language of the locale ``pbem ui`` runs in. The page says its language, its fixed words and
its script's words (the prompt, what was clicked, a refusal) are translated, nothing runs
out of its box, and the strict Content-Security-Policy still lets the page run. The names
of the game's data (areas, card ids) stay English. Screenshots go to
``test-artifacts/ui/cjk/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import Homes, running
from tests.ui.test_board_page import area, let_in, text
from tests.view.browser import Browser
from tests.view.test_cjk_pages import CJK, OVERFLOWS

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ui" / "cjk"
LOCALES = {"ja": "ja_JP.UTF-8", "zh-Hant": "zh_TW.UTF-8", "zh-Hans": "zh_CN.UTF-8"}
WORDS = {
    "ja": ("のゲーム", "署名して保存", "ここまでのクリック", "拒否されました"),
    "zh-Hant": ("的遊戲", "簽署並儲存", "目前已點選", "遭拒絕"),
    "zh-Hans": ("的游戏", "签名并保存", "目前已点选", "被拒绝"),
}
"""The games list's heading, the sign button, what was clicked, a refusal: in each language."""


def fits(browser: Browser, what: str) -> None:
    wide = browser.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{what}: the page scrolls sideways by {wide} px"
    assert browser.evaluate(OVERFLOWS) == [], what


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_placement_by_clicking_in_the_readers_language(
    lang: str, homes: Homes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LC_MESSAGES", LOCALES[lang])  # pbem ui speaks the locale's language
    heading, button, so_far, refusal = WORDS[lang]
    game = homes.table.rattaneer.genesis.game
    with running(homes.ui, tmp_path / "work") as server, Browser() as browser:
        let_in(browser, server)
        assert browser.evaluate("document.documentElement.lang") == lang
        assert heading in browser.evaluate("document.querySelector('h1').textContent")
        fits(browser, f"the games list in {lang}")
        browser.screenshot("body", ARTIFACTS / f"games-{lang}.png")

        browser.click(f"tr[data-game='{game}'] a")
        browser.wait_for(
            lambda: browser.evaluate("document.body && document.body.dataset.decision") == "ready"
        )
        assert browser.evaluate("document.documentElement.lang") == lang
        assert text(browser, "sign-button") == button
        assert CJK.search(text(browser, "prompt")), text(browser, "prompt")
        browser.click(area(3))
        browser.wait_for(lambda: text(browser, "so-far").startswith(so_far))
        browser.click(area(3))  # both pirates on one area: refused, in the rule's words
        browser.wait_for(lambda: not browser.evaluate("document.getElementById('refusal').hidden"))
        said: Any = text(browser, "refusal")
        assert said.startswith(refusal) and "R-5.1" in said and CJK.search(said[6:]), said
        fits(browser, f"the placement in {lang}")
        browser.screenshot("#decision, #frame figure.board", ARTIFACTS / f"placement-{lang}.png")
        assert browser.problems(server.base) == []
