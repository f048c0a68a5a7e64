"""The pages on a phone (390×844), a tablet (768×1024) and a desktop (1280×800), in a real
headless Chromium: the page never scrolls sideways (a wide board or table scrolls inside
its own box), every label of the board is drawn at 12 CSS px or more (the board is never
shrunk to fit), and on the phone and the tablet every button is at least 44 px tall (a
finger's size). Both kinds of page: ``pbem show``'s, of the example games (a Rattaneer
Morning, a Rattus game with Africanus; the history stepper still steps at phone size), and
``pbem ui``'s (the games list, a Rattaneer Morning placement, a Rattus protect decision).
Screenshots of each size go to ``test-artifacts/ui/screens/``.

Chromium is required (Debian's ``chromium``): without it these tests fail rather than skip.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.store.store import Store
from tests.mail.servers import Certs, Smtp
from tests.ui.conftest import Homes, Server
from tests.ui.tables import protect_game
from tests.ui.test_board_page import configure_mail, pbem
from tests.view.browser import Browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ui" / "screens"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SIZES = {"phone": (390, 844), "tablet": (768, 1024), "desktop": (1280, 800)}
TOUCH = ("phone", "tablet")
"""The sizes where controls must take a finger (the page's narrow-screen rules)."""
SMALLEST = 12
"""The smallest label a board may show, in CSS px, as rendered."""
FINGER = 44

MEASURE = """(() => {
  const labels = [];
  for (const svg of document.querySelectorAll('#frame figure.board svg')) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll('text')) {
      const words = [...t.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('');
      if (!words.trim()) continue;
      const size = parseFloat(getComputedStyle(t).fontSize) * scale;
      const height = t.getBoundingClientRect().height;
      if (size < SMALLEST || height < SMALLEST) labels.push([words, size, height]);
    }
  }
  const small = [...document.querySelectorAll('button, input[type=range]')]
    .filter(b => b.getClientRects().length)
    .map(b => [b.id || b.textContent.trim() || b.type, b.getBoundingClientRect().height])
    .filter(b => b[1] < FINGER);
  return {
    wide: document.documentElement.scrollWidth, width: innerWidth,
    boards: document.querySelectorAll('#frame figure.board svg').length,
    labels: labels.slice(0, 8), buttons: small,
  };
})()""".replace("SMALLEST", str(SMALLEST)).replace("FINGER", str(FINGER))


def fits(browser: Browser, size: str, what: str) -> None:
    """The page as shown now fits the screen ``size``: no sideways scroll, labels of 12 px
    or more, and (on a touch size) buttons a finger can hit."""
    m: dict[str, Any] = browser.evaluate(MEASURE)
    assert m["wide"] <= m["width"], f"{what} at {size}: the page is {m['wide']} px wide"
    assert m["boards"] >= 1, f"{what}: no board drawn"
    assert m["labels"] == [], f"{what} at {size}: labels under {SMALLEST} px: {m['labels']}"
    if size in TOUCH:
        assert m["buttons"] == [], f"{what} at {size}: buttons under {FINGER} px: {m['buttons']}"


WHERE = "location.href + ' ' + !!document.getElementById('games')"


def step() -> str:
    return "Number(document.querySelector('#frame .position').dataset.step)"


def test_show_pages_fit_a_phone_a_tablet_and_a_desktop(tmp_path: Path) -> None:
    pages = {
        "rattaneer-morning": EXAMPLES / "rattaneer" / "morning.json",
        "rattus-africanus": EXAMPLES / "rattus-africanus" / "game.json",
    }
    with Browser() as browser:
        for name, game in pages.items():
            page = tmp_path / f"{name}.html"
            pbem(tmp_path / "home", "show", str(game), "-o", str(page))
            for size, (width, height) in SIZES.items():
                browser.events.clear()
                browser.open(page, width, height)
                browser.wait_for(lambda: browser.evaluate("document.body.dataset.ready"))
                assert browser.evaluate("document.body.dataset.ready") == "true"
                fits(browser, size, name)
                last = browser.evaluate(step())
                browser.click("[data-go=prev]")  # a real click, as a thumb makes it
                assert browser.evaluate(step()) == last - 1
                fits(browser, size, f"{name}, one step back")
                browser.click("[data-go=last]")
                assert browser.evaluate(step()) == last
                browser.screenshot("body", ARTIFACTS / f"show-{name}-{size}.png")
                assert browser.problems() == []


def test_ui_pages_fit_a_phone_a_tablet_and_a_desktop(
    homes: Homes, server: Server, smtp: Smtp, certs: Certs
) -> None:
    configure_mail(homes.ui, smtp, certs)  # the page as a player with mail set up sees it
    protect = protect_game()
    store = Store(homes.ui)
    store.import_game(protect, "dealt for the test")
    store.close()
    games = {
        "rattaneer-morning": homes.table.rattaneer.genesis.game,
        "rattus-protect": protect.genesis.game,
    }
    with Browser() as browser:
        for size, (width, height) in SIZES.items():
            browser.goto(server.url, width, height)  # the printed address, then the games
            browser.wait_for(lambda: browser.evaluate(WHERE) == f"{server.pages}/ true")
            m = browser.evaluate(MEASURE)
            assert m["wide"] <= m["width"], f"the games list at {size}: {m['wide']} px wide"
            games_width = browser.evaluate("document.getElementById('games').offsetWidth")
            if size == "phone":  # each game stacked as a card, nothing to scroll to
                assert games_width <= width, f"the games table is {games_width} px wide"
            browser.screenshot("body", ARTIFACTS / f"ui-games-{size}.png")
            for name, game in games.items():
                browser.goto(f"{server.pages}/game/{game}", width, height)
                browser.wait_for(
                    lambda: browser.evaluate("document.body.dataset.decision") == "ready"
                )
                fits(browser, size, name)
                assert browser.evaluate("document.getElementById('sign-button').textContent") == (
                    "Sign and send"
                )
                if name == "rattus-protect":
                    assert "protect" in browser.evaluate(
                        "document.getElementById('decision').textContent"
                    )
                shot = ARTIFACTS / f"ui-{name}-{size}.png"
                browser.screenshot("#decision, #frame figure.board", shot)
            assert browser.problems(server.base) == []
