"""The language a person reads pbem in (issue 30): English, Japanese (``ja``), Traditional
Chinese (``zh-Hant``) or Simplified Chinese (``zh-Hans``).

Messages are the standard ``gettext``'s, in the ``pbem`` domain, from the catalogs in
``pbem/locale`` (managed with Babel's ``pybabel``; see ``babel.cfg``). The language is, in
this order: ``--lang``, ``pbem config set lang``, the locale (``LC_ALL``, ``LC_MESSAGES``,
``LANG``: the first one set decides, as in POSIX), else English.

Only what a person reads is translated: ``--json`` output, move notation, rule ids, error
``code`` fields and the file format are the same in every language. This module is in the
lowest room so that every room can translate, and imports only the standard library so
that start-up stays cheap (Babel is a tool for the catalogs, never imported at run time)."""

from __future__ import annotations

import gettext
import json
import os
import re
import stat
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

DOMAIN = "pbem"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
ENGLISH = "en"
#: The languages, by the name ``--lang`` takes, and the catalog directory of each.
CATALOGS = {"ja": "ja", "zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans"}
LANGUAGES = (ENGLISH, *CATALOGS)
#: The environment variables naming the locale, in POSIX's order of precedence.
LOCALE_ENVS = ("LC_ALL", "LC_MESSAGES", "LANG")
#: Chinese regions whose script is Traditional (the rest of Chinese is Simplified).
TRADITIONAL = ("tw", "hk", "mo", "hant")
#: The most of ``mail.json`` read for the language (the settings are a few KiB).
CONFIG_BYTES = 1024 * 1024

_active: gettext.NullTranslations = gettext.NullTranslations()
_lang = ENGLISH
#: A placeholder of a ``str.format`` message: ``{name}``, ``{name!r}``, ``{name:>4}``.
_MOMENT = re.compile(r"(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}) UTC")
"""A moment as pbem writes it in English (``2026-12-05 11:37 UTC``), shown in the
reader's form by Babel (``2026/12/05 11:37 UTC`` in Japanese)."""
_FIELD = re.compile(r"\{(\w+)(![rsa])?(:[^{}]*)?\}")
#: Messages with placeholders of the catalog in use, as patterns, most specific first.
_templates: list[tuple[re.Pattern[str], str, int]] | None = None


def normalize(value: str) -> str | None:
    """The language of ``value`` (``ja``, ``ja_JP.UTF-8``, ``zh-TW``, ``zh_Hans``, ``en_GB``
    …), or None when pbem has no such language (then English is used)."""
    tag = value.split(".")[0].split("@")[0].replace("-", "_").lower()
    first, _, rest = tag.partition("_")
    if first == "en":
        return ENGLISH
    if first == "ja":
        return "ja"
    if first == "zh":
        parts = rest.split("_")
        return "zh-Hant" if any(p in TRADITIONAL for p in parts) else "zh-Hans"
    return None


def from_environment(environ: Mapping[str, str]) -> str:
    """The language of the locale: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that
    is set decides (``C`` or a language pbem lacks: English)."""
    for name in LOCALE_ENVS:
        value = environ.get(name)
        if value:
            return normalize(value) or ENGLISH
    return ENGLISH


def configured(home: Path) -> str | None:
    """``lang`` of ``mail.json`` (``pbem config set lang ja``), read without pydantic so that
    start-up stays cheap. A missing or unreadable file says nothing here: the commands
    that use the settings report what is wrong with it."""
    try:  # non-blocking, and only a regular file: a pipe put there would block for ever
        fd = os.open(home / "mail.json", os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None
            data = json.loads(f.read(CONFIG_BYTES))
    except (OSError, ValueError):
        return None
    value = data.get("lang") if isinstance(data, dict) else None
    return normalize(value) if isinstance(value, str) and value else None


def resolve(
    option: str | None,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
) -> str:
    """The language to use: ``option`` (``--lang``), then the setting, then the locale."""
    if option:
        return normalize(option) or ENGLISH
    if home is None:
        from pbem.format.files import default_home

        home = default_home()
    return configured(home) or from_environment(os.environ if environ is None else environ)


def use(lang: str) -> None:
    """Speak ``lang`` from now on: pbem's messages and click's own ("Usage:", "Error:" …).
    click calls the global ``gettext.gettext``, so the ``pbem`` domain (whose catalogs hold
    click's strings too) is made the global one and ``LANGUAGE``, gettext's first choice,
    names the catalog; child processes thus inherit the language too."""
    global _active, _lang, _templates
    catalog = CATALOGS.get(lang)
    _lang, _templates = (lang if catalog else ENGLISH), None
    if catalog is None:
        _active = gettext.NullTranslations()
    else:
        _active = gettext.translation(DOMAIN, LOCALE_DIR, languages=[catalog], fallback=True)
    gettext.bindtextdomain(DOMAIN, str(LOCALE_DIR))
    gettext.textdomain(DOMAIN)
    os.environ["LANGUAGE"] = catalog or ENGLISH


#: One language switch at a time (``speaking``): mail is written in each recipient's.
_SWITCH = threading.RLock()


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` for a while (a mail to players who read another language than the
    sender), then the language spoken before again. The language is the process's:
    what another thread translates meanwhile is in ``lang`` too."""
    global _active, _lang, _templates
    with _SWITCH:
        saved = (_active, _lang, _templates, os.environ.get("LANGUAGE"))
        if lang == _lang:
            yield
            return
        use(lang)
        try:
            yield
        finally:
            _active, _lang, _templates, language = saved
            if language is None:
                os.environ.pop("LANGUAGE", None)
            else:
                os.environ["LANGUAGE"] = language


def current() -> str:
    """The language in use: ``en``, ``ja``, ``zh-Hant`` or ``zh-Hans``."""
    return _lang


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural``, as ``n`` asks, in the language in use."""
    return _active.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction, translated later where it is shown (a string made
    at import time, such as a command's summary)."""
    return message


def localize(text: str) -> str:
    """``text``, English made from a marked message (``N_("{path}: no such file")
    .format(path=…)``), in the language in use. Errors are made in English, because that
    is what ``--json``, logs and the files keep; only what a person reads is translated,
    here, where it is shown. The message is found by matching ``text`` against the
    catalog's messages (placeholders match anything; the most literal text wins) and the
    values in its placeholders are localized alike, so an error quoted in another is
    translated too. A line that matches no message is split at its first ``"; "`` (clauses
    joined) and each side localized, else at its first ``": "`` (the ``FILE: …``,
    ``step 5: …`` and ``Class cards: …`` heads: the head translated only where it is a
    message itself, a path never is) and its rest localized; else it stays English."""
    if _lang == ENGLISH or not text:
        return text
    body = text.lstrip(" ")
    if body != text:  # an indented line (a log's consequences): the indent stays as it is
        return text[: len(text) - len(body)] + localize(body)
    direct = _active.gettext(text)
    if direct != text:
        return direct
    moment = _MOMENT.fullmatch(text)
    if moment:
        return _local_moment(*map(int, moment.groups()))
    for pattern, translated, literal in _patterns():
        found = pattern.fullmatch(text)
        if found:
            values = {k: localize(v) for k, v in found.groupdict().items()}
            if _swallows(found, values, literal):
                continue
            return _FIELD.sub(lambda m, values=values: values[m.group(1)], translated)
    first, semicolon, more = text.partition("; ")
    if semicolon:
        return f"{localize(first)}{semicolon}{localize(more)}"
    head, colon, rest = text.partition(": ")
    return f"{_active.gettext(head)}{colon}{localize(rest)}" if colon else text


def _swallows(found: re.Match[str], values: Mapping[str, str], literal: int) -> bool:
    """Whether the match's leading value swallowed words that are no message: a
    ``NAME: `` head (``erin: +1`` of ``erin: +1 cube on the board``: a head and a
    message, split below), or, for a short template (``{n} coin``), a sentence (``bart
    hires a henchman for 1`` of a log line ending in ``1 coin``). A leading value is a
    word, a list of names, or a message of its own (a refusal quoted whole). A last value
    never takes the clauses after it (``turn 42; plague in Russia``)."""
    for name, value in found.groupdict().items():
        if found.end(name) == len(found.string) and "; " in value:
            return True  # a last value never spans clauses: they are split first
        if found.start(name) != 0 or values[name] != value:
            continue
        if ": " in value or (literal < SHORT and " " in value.replace(", ", ",")):
            return True
    return False


SHORT = 10
"""Letters outside placeholders below which a template that begins with a placeholder
takes a single word (or a list of names) there."""


def _local_moment(year: int, month: int, day: int, hour: int, minute: int) -> str:
    """A UTC moment in the language's short date and time (Babel's CLDR data, imported
    only here: English needs none), still said to be UTC: pbem never guesses a zone."""
    import datetime

    from babel.dates import format_datetime

    when = datetime.datetime(year, month, day, hour, minute, tzinfo=datetime.UTC)
    locale = _lang.replace("-", "_")
    return f"{format_datetime(when, 'short', tzinfo=datetime.UTC, locale=locale)} UTC"


def _patterns() -> list[tuple[re.Pattern[str], str, int]]:
    """The catalog's messages with placeholders, as patterns (made once per language)."""
    global _templates
    if _templates is None:
        found = []
        catalog: dict[object, str] = getattr(_active, "_catalog", {})
        for key, translated in catalog.items():
            if isinstance(key, str) and _FIELD.search(key) and _literal(key) >= 3:
                found.append((_pattern(key), translated, _literal(key)))
        found.sort(key=lambda item: -item[2])
        _templates = found
    return _templates


def _literal(message: str) -> int:
    """How many letters a message has outside its placeholders (how specific it is)."""
    return sum(c.isalpha() for c in _FIELD.sub("", message))


def _pattern(message: str) -> re.Pattern[str]:
    parts, seen, at = [], set(), 0
    for field in _FIELD.finditer(message):
        parts.append(re.escape(message[at : field.start()]))
        name = field.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        at = field.end()
    parts.append(re.escape(message[at:]))
    return re.compile("".join(parts), re.DOTALL)
