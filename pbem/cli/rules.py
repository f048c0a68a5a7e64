"""``pbem rules``: the rules of each game at hand, by numbered section.

Every prompt and error cites a section (``R-5.1``, ``T-6.8``, ``T-5 C.3``); this command
shows it, in the project's own words as shipped with the ruleset (``Ruleset.rulebook``),
rulings marked. Topics list what a game's data holds (every class card, the token symbols,
every card of a set); ``rulings`` prints the engine's rulings with their reasons. With
``--game FILE`` the game's own options are used, such as the card set embedded in its
genesis (checked against its signature and rules pin first). Read-only.

The rules text and the rulings are shown in the language in use where the ruleset ships a
translation (``rules.ja.md``, ``RULINGS.zh-Hant.md``: same section ids), else in English;
``--json`` keeps the English text in every language, as all machine output does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from click.shell_completion import CompletionItem

from pbem.cli.common import complete_ruleset, emit, json_option, named_ruleset, reports_errors
from pbem.format import gamefile
from pbem.format.errors import UsageError
from pbem.format.i18n import ENGLISH, current
from pbem.ledger.replay import Replay
from pbem.ruleset import registry
from pbem.ruleset.rulebook import Rulebook, Section, Topic
from pbem.ruleset.rules import Ruleset

RULINGS = "rulings"


def complete_section(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """The numbered sections of GAME's rules, its topics, and ``rulings``."""
    targets = registry.available()
    game = ctx.params.get("game")
    if game not in targets:
        return []
    ruleset = registry.instance(targets[game])
    book = ruleset.rulebook()
    names = [s.id for s in book.all()] if book else []
    names += [t.name for t in ruleset.topics(None)] + [RULINGS]
    return [CompletionItem(n) for n in names if n.lower().startswith(incomplete.lower())]


@click.command()
@click.argument("game", required=False, shell_complete=complete_ruleset)
@click.argument("section", required=False, shell_complete=complete_section)
@click.option(
    "--game",
    "game_file",
    type=click.Path(path_type=Path),
    metavar="FILE",
    help="Use this game file's own options (e.g. the card set embedded in it); then GAME "
    "may be left out.",
)
@json_option
@reports_errors
def rules(game: str | None, section: str | None, game_file: Path | None, as_json: bool) -> None:
    """The rules of GAME, or one SECTION (R-6.3, "T-5 C.3") or topic of them. Without GAME:
    the installed rulesets and their options."""
    options: dict[str, Any] | None = None
    if game_file is not None:
        game, section, options = _from_file(game_file, game, section)
    if game is None:
        _list(as_json)
        return
    ruleset = named_ruleset(game)
    # A person reads the rules in the language in use (rules.ja.md, else the English);
    # --json, for programs, is the English text in every language.
    lang = ENGLISH if as_json else current()
    book = ruleset.rulebook(lang)
    if book is None:
        raise UsageError(f"{game} ships no rules text")
    topics = {t.name: t for t in ruleset.topics(options)}
    if section is None:
        _whole(ruleset, book, list(topics), as_json)
    elif section.lower() in topics:
        _topic(ruleset, topics[section.lower()], as_json)
    elif section.lower() == RULINGS and ruleset.rulings() is not None:
        text = ruleset.rulings(lang) or ""
        _text(as_json, {"ruleset": ruleset.id, "rulings": text}, text)
    else:
        found = book.get(section)
        if found is None:
            known = ", ".join([s.id for s in book.sections] + [*topics, RULINGS])
            raise UsageError(f"{game} has no section or topic {section!r} (try: {known})")
        _text(as_json, {"ruleset": ruleset.id, "section": _section(found)}, found.text())


def _from_file(
    path: Path, game: str | None, section: str | None
) -> tuple[str, str | None, dict[str, Any]]:
    """The game a file plays, what to show of it, and its options. The genesis is checked
    (signature, rules pin) before its options are believed."""
    genesis = gamefile.read(path).genesis
    played = genesis.ruleset.id
    if game is not None and game != played:
        if section is not None or game in registry.available():
            raise UsageError(f"{path} is a {played} game, not {game}")
        game, section = played, game
    Replay.start(genesis, named_ruleset(played))
    return played, section, dict(genesis.options)


def _list(as_json: bool) -> None:
    report, lines = installed()
    lines.append("Read a game's rules with: pbem rules GAME [SECTION|TOPIC]")
    emit(as_json, {"rulesets": report}, lines)


def installed() -> tuple[list[dict[str, Any]], list[str]]:
    """Every installed ruleset with its options (allowed values, defaults) and its notice
    about the data it plays with: for ``pbem rules`` and ``pbem new --help``."""
    report = []
    lines = []
    for ruleset_id, target in sorted(registry.available().items()):
        ruleset = registry.instance(target)
        options = [o.model_dump() for o in ruleset.options_help()]
        notice = ruleset.notice({})
        report.append(
            {
                "id": ruleset.id,
                "version": ruleset.version,
                "title": ruleset.title,
                "hash": ruleset.content_hash(),
                "seats": [ruleset.min_seats, ruleset.max_seats],
                "options": options,
                "topics": [t.name for t in ruleset.topics(None)],
                "notice": notice,
            }
        )
        lines.append(
            f"{ruleset_id} {ruleset.version}: {ruleset.title or ruleset_id}, "
            f"{ruleset.min_seats}-{ruleset.max_seats} players, rules hash "
            f"{ruleset.content_hash()}"
        )
        for o in ruleset.options_help():
            lines.append(f"  --option {o.name}={o.values} (default: {o.default}): {o.help}")
        if not options:
            lines.append("  no options")
        if notice:
            lines.append(f"  note: {notice}")
    return report, lines


def _section(section: Section) -> dict[str, Any]:
    return {
        "id": section.id,
        "title": section.title,
        "text": section.text(),
        "rulings": section.rulings,
        "subsections": [s.id for s in section.children],
    }


def _whole(ruleset: Ruleset, book: Rulebook, topics: list[str], as_json: bool) -> None:
    extra = [*topics, *([RULINGS] if ruleset.rulings() is not None else [])]
    report = {
        "ruleset": ruleset.id,
        "version": ruleset.version,
        "title": book.title,
        "preface": book.preface,
        "sections": [_section(s) for s in book.all()],
        "topics": extra,
    }
    _text(as_json, report, book.text())
    if extra and not as_json:
        emit(False, report, ["", f"Topics: {', '.join(extra)} (pbem rules {ruleset.id} TOPIC)."])


def _text(as_json: bool, report: dict[str, Any], text: str) -> None:
    """A rules text as it is written: already in the reader's language (or the English,
    where there is no translation), so not put through ``localize`` line by line, which
    would translate fragments of an English paragraph that match a message."""
    if as_json:
        emit(True, report, [])
    else:
        click.echo(text.rstrip())


def _topic(ruleset: Ruleset, topic: Topic, as_json: bool) -> None:
    report = {
        "ruleset": ruleset.id,
        "topic": topic.name,
        "title": topic.title,
        "intro": topic.intro,
        "entries": [{"name": e.name, "text": e.text, "section": e.section} for e in topic.entries],
    }
    emit(as_json, report, [topic.text().rstrip()])
