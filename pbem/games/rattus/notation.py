"""The text notation: ``<verb> <arguments>``, one action at a time.

The verb is the action's ``type`` and the arguments are its fields in order, so a whole turn
such as ``take Witch; place Gallia; plague Germania`` is a sequence of single actions. An
argument is a region (any unambiguous start of its name, any case), a class card (likewise),
a token handle as ``pbem status`` shows it (``tokens/7``, ``start/2``) or a number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, get_args, get_origin

from pbem.core.rules import Model, RulesError
from pbem.games.rattus import flow
from pbem.games.rattus.actions import Action
from pbem.games.rattus.state import State, board_of

USAGE: dict[str, tuple[str, str]] = {
    "take": ("take <card>", "T-5 A: take a class card from the supply or a player"),
    "place": ("place <region>", "T-5 B, T-3.8: place cubes into a region"),
    "peasant": ("peasant <region>", "T-6.1: place with the Peasant: one more cube, any region"),
    "merchant": ("merchant <from> <to> <1-3>", "T-6.2: move your cubes to a neighbour"),
    "monk": ("monk <token> <to>", "T-6.3: move a token to a neighbour"),
    "witch": ("witch <token> <token>", "T-6.5: look at two tokens"),
    "swap": ("swap", "T-6.5: swap the two tokens you looked at"),
    "keep": ("keep", "T-6.5: leave the two tokens where they are"),
    "king": ("king <region>", "T-6.6: a cube from a region without tokens to the palace"),
    "plague": ("plague <region> [<region>]", "T-5 C.1: move the plague (2 steps: Knight)"),
    "spread": ("spread <region> [<region>]", "T-5 C.3: a neighbour for each new token"),
    "reveal": ("reveal <token>", "T-7: the token to reveal next"),
    "resolve": ("resolve <region>", "T-9.3: the region the final plague resolves next"),
    "end": ("end", "T-9.2: end your final-round turn"),
}

MODELS: dict[str, type[Model]] = {
    m.model_fields["type"].default: m for m in get_args(get_args(Action)[0])
}

_HANDLE = re.compile(r"[a-z]+/(0|[1-9][0-9]*)")


def _named(kind: str, word: str, names: list[str]) -> str:
    """The one name that ``word`` spells or begins, ignoring case."""
    low = word.lower()
    exact = [n for n in names if n.lower() == low]
    found = exact or [n for n in names if n.lower().startswith(low)]
    if len(found) == 1:
        return found[0]
    options = ", ".join(found or names)
    raise RulesError(f"{'ambiguous' if found else 'unknown'} {kind} {word!r} ({options})")


def _token(word: str) -> str:
    if not _HANDLE.fullmatch(word.lower()):
        raise RulesError(f"expected a token like tokens/7 or start/2, not {word!r}")
    return word.lower()


def _count(word: str) -> int:
    if not word.isdigit():
        raise RulesError(f"expected a number of cubes, not {word!r}")
    return int(word)


def _readers(s: State) -> dict[str, Callable[[str], Any]]:
    """How to read each action field from a word."""
    regions = list(board_of(s).regions)
    cards = [c.name for c in s.cards]

    def region(word: str) -> str:
        return _named("region", word, regions)

    return {
        "card": lambda word: _named("class card", word, cards),
        "region": region,
        "source": region,
        "target": region,
        "path": region,
        "regions": region,
        "token": _token,
        "tokens": _token,
        "cubes": _count,
    }


def parse(s: State, line: str) -> Action:
    words = line.split()
    if not words:
        raise RulesError(f"empty action; verbs: {', '.join(USAGE)}")
    verb, args = words[0].lower(), words[1:]
    if verb not in MODELS:
        raise RulesError(f"unknown verb {words[0]!r}; verbs: {', '.join(USAGE)}")
    model, usage = MODELS[verb], USAGE[verb][0]
    readers = _readers(s)
    values: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        if name == "type":
            continue
        if get_origin(field.annotation) is list:
            values[name], args = [readers[name](w) for w in args], []
            if not values[name]:
                raise RulesError(f"usage: {usage}")
        elif args:
            values[name], args = readers[name](args[0]), args[1:]
        else:
            raise RulesError(f"usage: {usage}")
    if args:
        raise RulesError(f"usage: {usage} (unexpected {' '.join(args)!r})")
    return model(**values)  # type: ignore[return-value]


def format_action(action: Action) -> str:
    words = [action.type]
    for name in type(action).model_fields:
        if name != "type":
            value = getattr(action, name)
            words.extend(str(v) for v in (value if isinstance(value, list) else [value]))
    return " ".join(words)


def help_text(s: State, seat: int) -> str:
    """The verbs legal for ``seat`` now, each with a legal example."""
    examples: dict[str, Action] = {}
    for action in flow.actions(s, seat):
        examples.setdefault(action.type, action)
    if not examples:
        return "Nothing is awaited from you now."
    lines = [
        f"{USAGE[verb][0]:<28} {USAGE[verb][1]}; e.g. {format_action(example)}"
        for verb, example in examples.items()
    ]
    lines.append("Regions and cards may be shortened (plague Germ); one action at a time.")
    return "\n".join(lines)
