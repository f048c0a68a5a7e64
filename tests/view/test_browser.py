"""Pages in a real headless Chromium: they load with no console message, no error and no
request for anything outside the file; stepping back and forth redraws the position; and a
PNG of each board is kept in ``test-artifacts/view/`` to look at.

Chromium is required (Debian's ``chromium``, installed by ``.ci/setup``): without it this
test fails rather than skips, so a CI that lost the browser cannot pass unnoticed.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

from tests.view.browser import Browser
from tests.view.games import GAMES, game_id, page

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "view"
SHOWN = [GAMES[2], GAMES[5], GAMES[-1]]  # Rattaneer 4p, Rattus 3p, Africanus 6p


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_pages_load_cleanly_step_and_draw(tmp_path: Path) -> None:
    with Browser() as browser:
        for game in SHOWN:
            path = tmp_path / f"{game_id(game)}.html"
            path.write_text(page(game))
            browser.events.clear()
            browser.open(path)
            browser.wait_for(lambda: browser.evaluate("document.body.dataset.ready") is not None)
            assert browser.evaluate("document.body.dataset.ready") == "true"
            assert browser.evaluate("document.getElementById('stepper').hidden") is False

            def step() -> int:
                return int(
                    browser.evaluate("document.querySelector('#frame .position').dataset.step")
                )

            last = step()
            browser.evaluate("document.querySelector('[data-go=prev]').click()")
            assert step() == last - 1
            browser.evaluate("document.querySelector('[data-go=first]').click()")
            assert step() == -1
            browser.evaluate("document.querySelector('#step-3 a').click()")
            assert step() == 3
            assert "After step 3:" in browser.evaluate(
                "document.getElementById('caption').textContent"
            )
            _rules_panel_follows_the_position(browser, game_id(game))
            browser.evaluate("document.querySelector('[data-go=last]').click()")
            assert step() == last
            assert browser.problems() == []

            png = browser.screenshot("figure.board svg", ARTIFACTS / f"{game_id(game)}.png")
            width, height = _png_size(png)
            assert width > 800 and height > 400
            _legend_and_hover_titles(browser, game_id(game))


def _rules_panel_follows_the_position(browser: Browser, name: str) -> None:
    """Step forward until a position cites a rule: its panel comes with the frame the
    script unpacks, and shows numbered sections."""
    for _ in range(40):
        ids = browser.evaluate(
            "[...document.querySelectorAll('#frame .rules-panel h4 code')].map(e => e.textContent)"
        )
        if ids:
            panel = browser.evaluate("document.querySelector('#frame .rules-panel').textContent")
            assert "The rules of this decision" in panel
            assert all(re.fullmatch(r"[RT]-[0-9]+(\.[0-9A-Z]+)*", i) for i in ids), ids
            browser.screenshot("#frame .rules-panel", ARTIFACTS / f"{name}-rules.png")
            return
        browser.evaluate("document.querySelector('[data-go=next]').click()")
    raise AssertionError(f"{name}: no position with a rules panel")


def _legend_and_hover_titles(browser: Browser, name: str) -> None:
    """The legend is printed (not hidden from print) and the pieces carry hover titles."""
    terms = browser.evaluate("document.querySelectorAll('#legend dt').length")
    assert terms >= 8
    hidden = browser.evaluate(
        "getComputedStyle(document.getElementById('legend')).display === 'none'"
    )
    assert not hidden
    titles = browser.evaluate(
        "[...document.querySelectorAll('#frame svg title')].map(e => e.textContent)"
    )
    assert len(titles) >= 10 and all(titles)
    browser.screenshot("#legend", ARTIFACTS / f"{name}-legend.png")
