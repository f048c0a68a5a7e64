"""The scripts of an identity name, and UTS #39's *highly restrictive* rule on mixing
them (Unicode Security Mechanisms, §5.2): a name is of one script, or of Latin with one
of the CJK sets, Han + Hiragana + Katakana (Japanese), Han + Bopomofo (Chinese) or
Han + Hangul (Korean); characters of no script (digits, ``. _ -``) and combining marks
(which take the script of the letter they follow) go with any.

Python's ``unicodedata`` has no Script property, so the scripts pbem's languages meet
are told by the ranges of their blocks below (Latin, Greek, Cyrillic, Han, Hiragana,
Katakana, Hangul, Bopomofo: the scripts of the confusables that matter here), and any
other letter by the first word of its Unicode name (``ARABIC LETTER ALEF``: Arabic), a
close approximation for the scripts not listed."""

from __future__ import annotations

import unicodedata
from bisect import bisect_right

#: (first, last, script): the blocks, sorted, without overlaps.
_RANGES = (
    (0x0041, 0x005A, "Latin"),
    (0x0061, 0x007A, "Latin"),
    (0x00AA, 0x00AA, "Latin"),
    (0x00BA, 0x00BA, "Latin"),
    (0x00C0, 0x024F, "Latin"),
    (0x0250, 0x02AF, "Latin"),  # IPA
    (0x0370, 0x03FF, "Greek"),
    (0x0400, 0x052F, "Cyrillic"),
    (0x1100, 0x11FF, "Hangul"),
    (0x1C80, 0x1C8F, "Cyrillic"),
    (0x1D00, 0x1D25, "Latin"),
    (0x1E00, 0x1EFF, "Latin"),
    (0x1F00, 0x1FFF, "Greek"),
    (0x2C60, 0x2C7F, "Latin"),
    (0x2DE0, 0x2DFF, "Cyrillic"),
    (0x2E80, 0x2FDF, "Han"),
    (0x3005, 0x3005, "Han"),
    (0x3007, 0x3007, "Han"),
    (0x3021, 0x3029, "Han"),
    (0x3038, 0x303B, "Han"),
    (0x3041, 0x3096, "Hiragana"),
    (0x309D, 0x309F, "Hiragana"),
    (0x30A1, 0x30FA, "Katakana"),
    (0x30FD, 0x30FF, "Katakana"),
    (0x3105, 0x312F, "Bopomofo"),
    (0x3131, 0x318E, "Hangul"),
    (0x31A0, 0x31BF, "Bopomofo"),
    (0x31F0, 0x31FF, "Katakana"),
    (0x3400, 0x4DBF, "Han"),
    (0x4E00, 0x9FFF, "Han"),
    (0xA640, 0xA69F, "Cyrillic"),
    (0xA720, 0xA7FF, "Latin"),
    (0xA960, 0xA97F, "Hangul"),
    (0xAB30, 0xAB6F, "Latin"),
    (0xAC00, 0xD7FF, "Hangul"),
    (0xF900, 0xFAFF, "Han"),
    (0x1B000, 0x1B000, "Katakana"),
    (0x1B001, 0x1B11F, "Hiragana"),
    (0x20000, 0x3FFFF, "Han"),
)
_STARTS = [first for first, _, _ in _RANGES]
#: Characters of two scripts (Script_Extensions): the prolonged sound mark ー and the
#: voiced sound marks are Hiragana and Katakana both.
_BOTH = {0x30FC: ("Hiragana", "Katakana"), 0x3099: ("Hiragana", "Katakana")}
_BOTH |= {c: ("Hiragana", "Katakana") for c in (0x309A, 0x309B, 0x309C)}
#: Latin may go with one of these (UTS #39 §5.2, highly restrictive).
CJK_SETS = (
    frozenset({"Han", "Hiragana", "Katakana"}),
    frozenset({"Han", "Bopomofo"}),
    frozenset({"Han", "Hangul"}),
)


def scripts_of(char: str) -> tuple[str, ...]:
    """The scripts of one character: () for one of no script (digits, punctuation, marks)."""
    code = ord(char)
    if code in _BOTH:
        return _BOTH[code]
    category = unicodedata.category(char)
    if category[0] != "L":
        return ()
    at = bisect_right(_STARTS, code) - 1
    if at >= 0 and _RANGES[at][0] <= code <= _RANGES[at][1]:
        return (_RANGES[at][2],)
    words = unicodedata.name(char, "").split()
    return (words[0].title(),) if words else ("Unknown",)


def mixed_scripts(name: str) -> list[str]:
    """The scripts of ``name`` when they mix as UTS #39's highly restrictive level forbids,
    in the order they first appear; [] when the name passes."""
    found: list[str] = []
    for char in name:
        for script in scripts_of(char):
            if script not in found:
                found.append(script)
    scripts = frozenset(found)
    if len(scripts) <= 1 or any(scripts <= allowed | {"Latin"} for allowed in CJK_SETS):
        return []
    return found
