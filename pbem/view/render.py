"""From a walked history to text: the board SVG, one frame per position, the whole page.

The page is a single self-contained file (inline CSS, SVG and script, nothing fetched), so
it opens from a mail attachment with no network. It is written as well-formed XML as well
as HTML, so that any XML parser can check it. Every position of the game is in it: the one
asked for (``--step``, else the last) is drawn in the page itself, readable without script
and on paper; all of them travel in one gzip-compressed JSON block that the page's small
script unpacks (``DecompressionStream``) to step back and forth.

Frames of a long game are nearly identical, but a frame of a Rattus board is about 30 KB,
as large as gzip's window: compressed one after another, no frame finds its twin and the
whole history stays near a megabyte. So each distinct line is written once (``lines``) and
a frame is the list of its lines' numbers (``frames``); the Africanus example's 269 frames
pack to about 30 KB instead of 880 KB (``benchmarks/show.py``).
"""

from __future__ import annotations

import base64
import gzip
import importlib
import json
from collections.abc import Hashable
from functools import cache, lru_cache
from typing import Any

import jinja2
from markupsafe import Markup
from pydantic import BaseModel

from pbem.format import i18n
from pbem.format.gamefile import Genesis
from pbem.format.resources import resource_dir
from pbem.ruleset.rules import Ruleset
from pbem.view.board import BoardView, ems
from pbem.view.history import History, Position, Private
from pbem.view.rules_panel import shown
from pbem.view.seats import Seat, seats_of

VIEWS = {"rattaneer": "pbem.view.rattaneer:RattaneerView", "rattus": "pbem.view.rattus:RattusView"}
"""Each ruleset's view, by where it lives: imported on first use, so that ``pbem`` starts
without loading every game's rules and drawing code."""


@cache
def view_for(ruleset: str) -> BoardView:
    """The ruleset's view, or the text-table fallback."""
    if ruleset not in VIEWS:
        return BoardView()
    module, _, name = VIEWS[ruleset].partition(":")
    view: BoardView = getattr(importlib.import_module(module), name)()
    return view


LATIN_FONTS = '"DejaVu Sans", Verdana, Arial'
"""The page's fonts for Latin text, first in every language."""
CJK_FONTS = {
    "ja": '"Noto Sans CJK JP", "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Yu Gothic", Meiryo',
    "zh-Hant": '"Noto Sans CJK TC", "PingFang TC", "Microsoft JhengHei"',
    "zh-Hans": '"Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei"',
}
"""The fonts for the language's own script after the Latin ones, the language's forms of
the shared Han characters first (Japanese and the two Chinese draw some differently)."""


def font_stack() -> Markup:
    """The ``font-family`` of a page and its board in the language in use."""
    cjk = CJK_FONTS.get(i18n.current())
    return Markup(", ".join([LATIN_FONTS, *([cjk] if cjk else []), "sans-serif"]))


CJK_MONO = {
    "ja": '"Noto Sans Mono CJK JP"',
    "zh-Hant": '"Noto Sans Mono CJK TC"',
    "zh-Hans": '"Noto Sans Mono CJK SC"',
}
"""Fixed-width fonts of the language's script, before its proportional ones."""


def mono_stack() -> Markup:
    """The ``font-family`` of code and preformatted text in Chinese or Japanese (what a
    seat alone knows is such text); empty in English, where the browser's own monospace
    font is kept."""
    cjk = CJK_FONTS.get(i18n.current())
    if cjk is None:
        return Markup("")
    fonts = ['"DejaVu Sans Mono", Menlo, Consolas', CJK_MONO[i18n.current()], cjk, "monospace"]
    return Markup(", ".join(fonts))


def html_lang() -> str:
    """The page's ``lang`` attribute: the language in use (``en``, ``ja``, ``zh-Hant`` …)."""
    return i18n.current()


def localized(text: str) -> str:
    """A text the games make in English from their marked messages (a step's summary,
    what is awaited), in the language in use."""
    return i18n.localize(str(text))


def localized_lines(text: str) -> str:
    """A text of several lines made in English (what a seat alone knows), each line in
    the language in use."""
    return "\n".join(i18n.localize(line) for line in str(text).split("\n"))


def translating(env: jinja2.Environment) -> jinja2.Environment:
    """``env`` speaking the language in use: ``{% trans %}`` and ``_()`` from pbem's
    catalogs (looked up at each render, so one environment serves every language), the
    page's ``lang``, its fonts and the ``localize`` filter."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda message: i18n._(message),
        lambda singular, plural, n: i18n.ngettext(singular, plural, n),
        newstyle=True,
    )
    env.globals["html_lang"] = html_lang
    env.globals["font_stack"] = font_stack
    env.globals["mono_stack"] = mono_stack
    env.globals["ems"] = ems
    env.filters["localize"] = localized
    env.filters["localize_lines"] = localized_lines
    return env


@cache
def _templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource_dir("templates") / "view"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["piece"] = piece
    return translating(env)


def piece(template: str, macro: str, value: Hashable) -> str:
    """``macro`` of ``template`` drawn for ``value``, a frozen part of a board (a region as
    it stands): each distinct look is drawn once a process. A page draws every position of
    a game, and most parts look the same from one step to the next (the Africanus example:
    6,052 regions drawn, 265 distinct)."""
    return _piece(template, macro, value, i18n.current())


@lru_cache(maxsize=4096)
def _piece(template: str, macro: str, value: Hashable, lang: str) -> str:
    """``piece``, by language too (a macro's words are in the language in use)."""
    drawn: str = getattr(_templates().get_template(template).module, macro)(value)
    return drawn


def board_svg(history: History, position: Position) -> str | None:
    """The board at ``position`` as a standalone SVG document, or None when the ruleset
    has no drawing (or there is no state yet)."""
    return draw_board(history.rules, history.replay.genesis, position.state, position.private)


def draw_board(
    rules: Ruleset, genesis: Genesis, state: BaseModel | None, private: Private | None
) -> str | None:
    """Any state of the game drawn as its board, with what ``private`` adds: the positions
    of a history, or a position a player is about to make (``pbem ui``'s preview)."""
    view = view_for(rules.id)
    if view.template is None or state is None:
        return None
    model = view.board(rules, state, seats_of(genesis), private)
    return _templates().get_template(view.template).render(b=model)


def frame_html(history: History, position: Position, seats: list[Seat]) -> str:
    """Everything that changes from step to step: what is awaited, the board, the private
    panel, the players table, the rules the decision cites."""
    rules = history.rules
    view = view_for(rules.id)
    state = position.state
    svg = board_svg(history, position)
    text = view.text(rules, state, seats) if state is not None and svg is None else ""
    cited = view.citations(rules, state) if state is not None else []
    return (
        _templates()
        .get_template("frame.html.j2")
        .render(
            p=position,
            seats=seats,
            svg=svg,
            text=text,
            columns=view.columns(state, seats) if state is not None else [],
            reader=seats[position.private.seat] if position.private is not None else None,
            rules=shown(rules.rulebook(i18n.current()), cited),
            game=rules.id,
        )
    )


def page_html(
    history: History,
    start: Position,
    *,
    source: str,
    reader: Seat | None,
    since: int | None = None,
) -> str:
    """The whole page, opened at ``start``; with ``since``, the page a mail attaches
    (``page_context``)."""
    context = page_context(history, start, source=source, reader=reader, since=since)
    return _templates().get_template("page.html.j2").render(**context)


def pack_frames(frames: list[str], order: list[int]) -> bytes:
    """The JSON the page's script unpacks: every distinct line once, each frame as the
    numbers of its lines (joined with newlines again by the script), and which frame
    each position shows."""
    lines: dict[str, int] = {}
    numbered = [[lines.setdefault(line, len(lines)) for line in f.split("\n")] for f in frames]
    packed = {"lines": list(lines), "frames": numbered, "order": order}
    return json.dumps(packed, separators=(",", ":")).encode()


def page_context(
    history: History,
    start: Position,
    *,
    source: str,
    reader: Seat | None,
    since: int | None = None,
) -> dict[str, Any]:
    """What ``page.html.j2`` draws, for this page and for pages that extend it
    (``pbem ui``): ``frames`` holds every distinct frame, ``packed`` them all for the
    script. With ``since`` (a step's index), the page a mail attaches beside the steps
    from ``since`` on (issue 27: a mail carries what its recipients lack): the position
    at ``start`` and the history of those steps alone, without the packed positions to
    step through (``pbem show`` draws the whole history from the player's own copy)."""
    seats = seats_of(history.replay.genesis)
    frames: list[str] = []
    order: list[int] = []
    seen: dict[str, int] = {}
    for position in history.positions if since is None else [start]:
        html = frame_html(history, position, seats)
        order.append(seen.setdefault(html, len(seen)))
        if order[-1] == len(frames):
            frames.append(html)
    packed = gzip.compress(pack_frames(frames, order), mtime=0, compresslevel=9)
    rows = history.rows if since is None else [r for r in history.rows if r.index >= since]
    genesis = history.replay.genesis
    last = history.positions[-1].state
    view = view_for(history.rules.id)
    legend = view.legend(history.rules, last, dict(genesis.options)) if last is not None else []
    return {
        "h": history,
        "genesis": genesis,
        "title": history.rules.title or history.rules.id,
        "source": source,
        "seats": seats,
        "reader": reader,
        "start": start,
        "frame": frames[order[start.index + 1 if since is None else 0]],
        "frames": frames,
        "last": history.positions[-1].index,
        "packed": base64.b64encode(packed).decode("ascii") if since is None else None,
        "rows": rows,
        "since": since,
        "legend": legend,
        "notice": history.rules.notice(dict(genesis.options)),
    }
