"""The reference lists of ``pbem rules rattus TOPIC`` and of the page's legend: every class
card with its ability, and the symbols of the rat tokens with their thresholds.

Both are drawn from the data files (which cards, which icons, which faces) and from the
shipped rules text (what a card does, what a symbol does), so that neither is written twice.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

from pbem.format.i18n import N_
from pbem.games.rattus import data
from pbem.ruleset.rulebook import Entry, Rulebook, Topic, load

RULES_TEXT = Path(__file__).parent / "rules.md"

ABILITIES = "T-6"
"""The section whose subsections, titled by card name, hold the class abilities."""
SYMBOLS = "T-1.5"
"""The section whose glossary explains the symbols of a token face."""
EXPANSIONS = {"base": "base game", "africanus": "Africanus"}


def shipped() -> Rulebook:
    """The shipped rules text (``Ruleset.rulebook`` reads the same file)."""
    return load(RULES_TEXT)


def classes(book: Rulebook) -> Topic:
    """Every class card, the Africanus ones included: icon, expansion, ability."""
    abilities = book.get(ABILITIES)
    assert abilities is not None, "the rules text has no class abilities section"
    by_title = {s.title: s for s in abilities.children}
    entries = []
    for card in data.class_cards():
        rule = by_title[card.name]
        where = N_("({expansion}, icon {icon}) {ability}").format(
            expansion=EXPANSIONS[card.expansion], icon=card.icon, ability=rule.plain()
        )
        entries.append(Entry(card.name, where, rule.id))
    return Topic(
        name="classes",
        title=N_("Class cards"),
        intro=N_(
            "Each class card held may be used once in its holder's turn (T-5) and once more "
            "in the final round (T-9.2); a rat token showing a card's icon hits its holder "
            "(T-7.2). Base game: the first six; Africanus: 6 of the 10 in play with 2-4 "
            "players, 8 with 5-6 (T-2)."
        ),
        entries=tuple(entries),
    )


def symbol_entries(book: Rulebook, in_play: list[str] | None = None) -> list[Entry]:
    """What each symbol of a face means: the threshold, every class icon (with the cards
    it hits; only ``in_play`` cards when given), M and A."""
    symbols = book.get(SYMBOLS)
    assert symbols is not None, "the rules text has no rat token section"
    glossary = symbols.items()
    entries = [Entry("threshold 1-6", glossary["threshold"], "T-7.1")]
    cards: dict[str, list[str]] = {}
    for card in data.class_cards():
        if in_play is None or card.name in in_play:
            cards.setdefault(card.icon, []).append(card.name)
    for icon, names in cards.items():
        holders = _either([f"the {n}" for n in names])
        said = N_("hits the holder of {holders}, once per such card.").format(holders=holders)
        entries.append(Entry(icon, said, "T-7.2"))
    entries.append(Entry("M", glossary["M"], "T-7.2"))
    entries.append(Entry("A", glossary["A"], "T-7.2"))
    return entries


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def face_text(face: data.TokenFace) -> str:
    """A face as pbem prints it: ``T17, threshold 6, M peasantry``."""
    symbols = [*face.icons, *(["M"] if face.majority else []), *(["A"] if face.all else [])]
    return N_("{face}, threshold {threshold}, {symbols}").format(
        face=face.id, threshold=face.threshold, symbols=" ".join(symbols)
    )


@cache
def _meanings() -> dict[str, str]:
    """What each symbol does, from the shipped rules text (``symbol_entries``)."""
    return {e.name: e.text for e in symbol_entries(shipped())}


def face_effect(face_id: str) -> str:
    """What a revealed face does, where it is shown (log, status, page): ``X14`` reads
    ``X14, threshold 2, islam: breaks out with 2 or more cubes in the region; islam: hits
    the holder of ...``. An id of no set is shown as it is."""
    face = data.faces(False).get(face_id) or data.faces(True).get(face_id)
    if face is None:
        return face_id
    meanings = _meanings()
    symbols = [*face.icons, *(["M"] if face.majority else []), *(["A"] if face.all else [])]
    said = [
        N_("breaks out with {threshold} or more cubes in the region").format(
            threshold=face.threshold
        )
    ]
    said += [f"{symbol}: {_meaning(symbol, meanings)}" for symbol in symbols]
    return f"{face_text(face)}: {'; '.join(said)}"


HITS = {
    1: N_("hits the holder of the {card1}, once per such card"),
    2: N_("hits the holder of the {card1} or the {card2}, once per such card"),
    3: N_("hits the holder of the {card1}, the {card2} or the {card3}, once per such card"),
    4: N_(
        "hits the holder of the {card1}, the {card2}, the {card3} or the {card4}, once per "
        "such card"
    ),
}
"""A class icon's hit as a clause, by how many cards show the icon (one message each)."""


def _meaning(symbol: str, meanings: dict[str, str]) -> str:
    """What ``symbol`` does, as a clause: a class icon's hit is its own message (so that
    it reads in the reader's language); M's and A's come from the rules text."""
    cards = [c.name for c in data.class_cards() if c.icon == symbol]
    if cards:
        return HITS[len(cards)].format(**{f"card{k}": n for k, n in enumerate(cards, 1)})
    return meanings[symbol].rstrip(".")


def faces(africanus: bool) -> list[Entry]:
    """Every face of one set, each with what it does."""
    return [Entry(t.id, face_effect(t.id), "T-7") for t in data.tokens(africanus).tokens]


def tokens(book: Rulebook) -> Topic:
    """The token symbols, then how the thresholds and symbols are spread in each set."""
    entries = symbol_entries(book)
    for africanus in (False, True):
        entries.append(_set_summary(africanus))
    entries += [*faces(False), *faces(True)]
    example = max(data.tokens().tokens, key=lambda t: (t.majority, len(t.icons) == 1, t.threshold))
    icon = {c.icon: c.name for c in data.class_cards()}[example.icons[0]]
    return Topic(
        name="tokens",
        title=N_("Rat tokens"),
        intro=N_(
            "A token's face, as pbem prints it: its id, its threshold and its symbols. "
            "'{face}' breaks out only with {threshold} or more cubes in the region (all "
            "players' cubes together), then hits the player(s) with the most cubes there and "
            "the {card}'s holder. Faces stay hidden until revealed (T-4); what each set holds "
            "is public (T-10: the faces are reconstructed)."
        ).format(face=face_text(example), threshold=example.threshold, card=icon),
        entries=tuple(entries),
    )


def _set_summary(africanus: bool) -> Entry:
    """How many tokens of each threshold and symbol one set holds."""
    faces = data.tokens(africanus).tokens
    thresholds = Counter(t.threshold for t in faces)
    symbols = Counter(icon for t in faces for icon in t.icons)
    symbols["M"] = sum(t.majority for t in faces)
    symbols["A"] = sum(t.all for t in faces)
    starting = sum(t.start for t in faces)
    spread = ", ".join(f"{k}: {thresholds[k]}" for k in sorted(thresholds))
    shown = ", ".join(f"{k} {n}" for k, n in symbols.most_common())
    name = N_("Africanus set") if africanus else N_("base set")
    said = N_(
        "{count} tokens, {starting} of them starting tokens (T-3.3); by threshold "
        "{spread}; symbols on them: {shown}."
    ).format(count=len(faces), starting=starting, spread=spread, shown=shown)
    return Entry(name, said, "T-1.5")
