"""A move typed with names: ``protect Gallia King`` for ``protect regions/4 King``.

A ruleset's notation may name things by ids (a region card in hand, a face-down token), and
its parser is a function of the public state: it cannot know that ``Gallia`` is the card
``regions/4`` in one player's hand, since nobody else may. The player's own ``pbem`` can, so
here, where the seat's private view is at hand, a text the parser refuses is compared with
the names of the moves the seat may make (``Ruleset.name_action`` of each move of
``listed_actions``), and the one it names is played. What is signed is that move, in the
notation with its ids: the file and the machine interface never see a name.

A name matches whole words, any case, each typed word the start of the name's word
(``protect gall king``). A name of a card the seat does not hold names no move of its own,
so it is refused like any unknown word, and the refusal lists only the seat's own moves:
it says nothing of the others' hands.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from pbem.ruleset.rules import RulesError, Ruleset

SHOWN = 8
"""At most this many moves named in a refusal."""


def named_moves(
    rules: Ruleset, state: BaseModel, seat: int, known: Mapping[str, str]
) -> list[tuple[str, str, Any]]:
    """The moves ``pbem moves`` lists for the seat: (notation, name, action) each."""
    return [
        (rules.format_action(state, seat, a), rules.name_action(state, seat, a, known), a)
        for a in rules.listed_actions(state, seat, known or None)
    ]


def read_move(
    rules: Ruleset,
    state: BaseModel,
    seat: int,
    text: str,
    known: Callable[[], Mapping[str, str]],
) -> Any:
    """The action ``text`` stands for: in the notation, as the parser reads it, else the
    one listed move whose name it spells. ``known`` gives what the seat alone knows, asked
    only when the parser refuses (opening it may need the seat's secret)."""
    try:
        return rules.parse_action(state, seat, text)
    except RulesError as exc:
        refusal = str(exc)
    moves = named_moves(rules, state, seat, known())
    if all(notation == name for notation, name, _ in moves):
        raise RulesError(refusal)  # nothing here goes by another name
    words = _words(text)
    exact = [m for m in moves if _words(m[1]) == words]
    found = exact or [m for m in moves if _begins(words, _words(m[1]))]
    actions = {notation: action for notation, _, action in found}
    if len(actions) == 1:
        return next(iter(actions.values()))
    if found:
        choices = ", ".join(f"{notation} ({name})" for notation, name, _ in found[:SHOWN])
        raise RulesError(f"it names several of your moves: {choices}; type one of them")
    verb = words[0] if words else ""
    same = [name for _, name, _ in moves if _words(name)[:1] == [verb]] or [m[1] for m in moves]
    more = ", …" if len(same) > SHOWN else ""
    raise RulesError(
        f"{refusal}; no move you can make now is called so (such as "
        f"{', '.join(same[:SHOWN])}{more})"
    )


def _words(text: str) -> list[str]:
    return text.replace(",", " ").lower().split()


def _begins(typed: list[str], name: list[str]) -> bool:
    """Whether each typed word begins the name's word in its place."""
    return len(typed) == len(name) and all(
        n.startswith(t) for t, n in zip(typed, name, strict=True)
    )
