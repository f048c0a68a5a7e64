"""``pbem show``'s pages in Japanese, Traditional and Simplified Chinese, in a real headless
Chromium (issue 30): the page says its language (``<html lang>``), no text runs out of its
box (on the page or on the board), and every Han or kana character is drawn by a font the
page itself names for the language, never left to the browser's last-resort fallback nor
drawn as an empty box (tofu). The English page stays English, with its Latin fonts alone.
Screenshots go to ``test-artifacts/view/cjk/``.

The names inside the boards (regions, class cards, areas, card ids) are the games' own
data and stay English in every language.

Chromium is required (Debian's ``chromium``) and so are CJK fonts (Debian's
``fonts-noto-cjk``, in ``.ci/apt-packages``): without them these tests fail rather than skip.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.format import i18n
from pbem.view.render import CJK_FONTS, CJK_MONO, page_html
from pbem.view.seats import seats_of
from tests.view.browser import Browser
from tests.view.games import GAMES, history

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "view" / "cjk"
AFRICANUS = ("rattus", 3, 45, True)
RATTANEER = GAMES[2]  # 4 players, a whole game
PAGES = {"rattus-africanus": (AFRICANUS, 0), "rattaneer": (RATTANEER, None)}
"""The pages drawn: the Africanus one private to seat 0 (its hand and what it saw too)."""
LANGUAGES = ("ja", "zh-Hant", "zh-Hans")
SIZES = {"desktop": (1400, 1000), "phone": (390, 844)}
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")

OVERFLOWS = """(() => {
  const out = [];
  const words = e => [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.data)
    .join('').trim();
  /* on the page: a block of text wider than its box (a box that scrolls on purpose, as
     the board's and the tables', is not text running out) */
  for (const e of document.body.querySelectorAll('*')) {
    if (!e.getClientRects().length || e.closest('svg, script, style')) continue;
    const style = getComputedStyle(e);
    if (style.display.startsWith('inline') && style.display !== 'inline-block') continue;
    if (['auto', 'scroll'].includes(style.overflowX)) continue;
    if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
      out.push(['page', e.tagName, e.id || e.className, e.textContent.trim().slice(0, 60),
                e.scrollWidth, e.clientWidth]);
  }
  /* on the board: a label past its chip, badge, card or area, or past the board */
  for (const svg of document.querySelectorAll('#frame figure.board svg')) {
    const board = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      if (!words(t)) continue;
      const r = t.getBoundingClientRect();
      const group = t.closest('g.chip, g.badge, g.card, g.area');
      const rect = group ? group.querySelector(':scope > rect') : null;
      const box = rect ? rect.getBoundingClientRect() : board;
      if (r.left < box.left - 1 || r.right > box.right + 1)
        out.push(['board', group ? group.getAttribute('class') : 'svg', words(t),
                  Math.round(r.left - box.left), Math.round(box.right - r.right)]);
    }
  }
  return out;
})()"""

CJK_TEXT = """(() => {
  /* every run of text holding Han or kana, put alone in an element of its own (a span,
     a tspan on the board) and marked for the font query: what the query reports is then
     the fonts of that text alone */
  const cjk = /[\\u3000-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef]/;
  const runs = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const up = t.parentElement;
    if (cjk.test(t.data) && !up.closest('script, style, title')) runs.push(t);
  }
  const chars = new Set();
  runs.forEach((t, n) => {
    const svg = t.parentElement.closest('svg');
    const run = svg ? document.createElementNS('http://www.w3.org/2000/svg', 'tspan')
                    : document.createElement('span');
    run.setAttribute('data-cjk', String(n));
    t.replaceWith(run);
    run.appendChild(t);
    for (const c of t.data) if (cjk.test(c)) chars.add(c);
  });
  return [runs.length, [...chars].join('')];
})()"""

TOFU = """((chars, family) => {
  /* each character drawn on a canvas in the page's fonts, compared with a character no
     font has (a private-use code point of plane 16): the same pixels are an empty box */
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 48;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  ctx.font = '32px ' + family;
  const draw = c => {
    ctx.clearRect(0, 0, 48, 48);
    ctx.fillText(c, 4, 38);
    return ctx.getImageData(0, 0, 48, 48).data.join(',');
  };
  const missing = draw('\\u{10FFFD}');
  return {
    tofu: [...chars].filter(c => draw(c) === missing),
    detects: draw('\\u{10FFFC}') === missing && draw('\\u{10FFFC}') !== draw(''),
  };
})"""


@pytest.fixture
def speaking() -> Iterator[None]:
    """The language is given back to English after the test, whatever it left."""
    yield
    i18n.use(i18n.ENGLISH)


def page_in(lang: str, name: str) -> str:
    game, seat = PAGES[name]
    i18n.use(lang)
    h = history(game, seat)
    reader = seats_of(h.replay.genesis)[seat] if seat is not None else None
    return page_html(h, h.position(None), source="game.json", reader=reader)


def open_page(browser: Browser, path: Path, size: str) -> None:
    browser.events.clear()
    browser.open(path, *SIZES[size])
    browser.wait_for(lambda: browser.evaluate("document.body.dataset.ready") is not None)
    assert browser.evaluate("document.body.dataset.ready") == "true"


def fonts_used(browser: Browser) -> tuple[str, list[tuple[str, str, list[str]]]]:
    """Every Han or kana character of the page, and for each run of text holding them:
    the text, the fonts the page names for it, and the fonts Chromium really drew it with
    (DevTools' platform fonts)."""
    count, chars = browser.evaluate(CJK_TEXT)
    browser.send("DOM.enable")
    browser.send("CSS.enable")
    root = browser.send("DOM.getDocument", depth=-1)["root"]["nodeId"]
    nodes = browser.send("DOM.querySelectorAll", nodeId=root, selector="[data-cjk]")["nodeIds"]
    assert len(nodes) == count
    out = []
    for node in nodes:
        fonts = browser.send("CSS.getPlatformFontsForNode", nodeId=node)["fonts"]
        ident = browser.send("DOM.resolveNode", nodeId=node)["object"]["objectId"]
        said = browser.send(
            "Runtime.callFunctionOn",
            objectId=ident,
            functionDeclaration="function () { return [this.textContent.trim().slice(0, 40),"
            " getComputedStyle(this).fontFamily]; }",
            returnByValue=True,
        )["result"]["value"]
        out.append((said[0], said[1], [f["familyName"] for f in fonts]))
    return chars, out


def named(family: str) -> list[str]:
    return [f.strip().strip('"') for f in family.split(",")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_in_chinese_and_japanese_say_so_fit_and_draw_every_glyph(
    lang: str, tmp_path: Path, speaking: None
) -> None:
    own = named(CJK_FONTS[lang])
    with Browser() as browser:
        for name in PAGES:
            path = tmp_path / f"{name}-{lang}.html"
            path.write_text(page_in(lang, name))
            for size in SIZES:
                open_page(browser, path, size)
                what = f"{name} in {lang} at {size}"
                assert browser.evaluate("document.documentElement.lang") == lang, what
                wide = browser.evaluate("document.documentElement.scrollWidth - innerWidth")
                assert wide <= 0, f"{what}: the page scrolls sideways by {wide} px"
                assert browser.evaluate(OVERFLOWS) == [], what
                browser.screenshot("body", ARTIFACTS / f"{name}-{lang}-{size}.png")
                assert browser.problems() == [], what

            open_page(browser, path, "desktop")
            chars, texts = fonts_used(browser)
            assert len(texts) > 30, f"{name} in {lang}: hardly anything is translated"
            for text, family, fonts in texts:
                assert set(named(family)) >= set(own), (name, lang, text, family)
                # drawn only with fonts the page names for it (Latin ones for digits and
                # names, the language's CJK one for the rest): no last-resort fallback
                strange = [f for f in fonts if f not in named(family)]
                assert not strange, f"{name} in {lang}: {text!r} drawn with {strange}"
                mono = named(CJK_MONO[lang])
                assert any(f in own + mono for f in fonts), f"{name}, {lang}: {text!r} in {fonts}"
            family = browser.evaluate("getComputedStyle(document.body).fontFamily")
            found = browser.evaluate(f"({TOFU})({chars!r}, {family!r})")
            assert found["detects"], "the tofu check cannot tell an empty box"
            assert found["tofu"] == [], f"{name} in {lang}: drawn as empty boxes: {found['tofu']}"


def test_the_english_page_stays_english(speaking: None, tmp_path: Path) -> None:
    for name in PAGES:
        html = page_in(i18n.ENGLISH, name)
        assert '<html xmlns="http://www.w3.org/1999/xhtml" lang="en">' in html
        assert 'font-family: "DejaVu Sans", Verdana, Arial, sans-serif;' in html
        assert not CJK.search(html), f"{name}: Han or kana on the English page"
        for english in ("Awaited now:", "<h2>History</h2>", "<h2>Legend</h2>", "Verified."):
            assert english in html, (name, english)
    with Browser() as browser:
        path = tmp_path / "rattus-africanus-en.html"
        path.write_text(page_in(i18n.ENGLISH, "rattus-africanus"))
        open_page(browser, path, "desktop")
        assert browser.evaluate("document.documentElement.lang") == "en"
        browser.evaluate("document.querySelector('[data-go=prev]').click()")
        caption: Any = browser.evaluate("document.getElementById('caption').textContent")
        assert caption.startswith("After step 44: "), caption
        assert browser.problems() == []
