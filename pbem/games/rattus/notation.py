"""The text notation: ``<verb> <arguments>``, one action at a time.

The verb is the action's ``type`` and the arguments are its fields in order, so a whole turn
such as ``take Witch; place Gallia; plague Germania`` is a sequence of single actions. An
argument is a region (any unambiguous start of its name, any case), a class card (likewise),
a token or region card handle as ``pbem status`` shows it (``tokens/7``, ``regions-2/4``) or
a number; a yes/no field is a trailing word that is there or not (``merchant Gallia Italia
2 diplomat``); an optional choice not taken is ``none`` (``explore none``). Region cards
played against the plague are pairs: ``protect regions/4 Sultan regions/9 Witch``, or
``protect none``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, get_args, get_origin

from pbem.games.rattus import flow
from pbem.games.rattus.actions import Action, Protect, Use
from pbem.games.rattus.state import State, board_of
from pbem.ruleset.rules import Model, RulesError, number

USAGE: dict[str, tuple[str, str]] = {
    "take": ("take <card>", "T-5 A: take a class card from the supply or a player"),
    "place": ("place <region>", "T-5 B, T-3.8: place cubes into a region"),
    "peasant": ("peasant <region>", "T-6.1: place with the Peasant: one more cube, any region"),
    "merchant": ("merchant <from> <to> <1-3> [diplomat]", "T-6.2: move cubes to a neighbour"),
    "monk": ("monk <token> <to>", "T-6.3: move a token to a neighbour"),
    "witch": ("witch <token> <token>", "T-6.5: look at two tokens"),
    "swap": ("swap", "T-6.5: swap the two tokens you looked at"),
    "keep": ("keep", "T-6.5: leave the two tokens where they are"),
    "king": ("king <region> [diplomat]", "T-6.6: a cube from a token-free region to the palace"),
    "astronomer": ("astronomer", "T-6.7: draw 3 region cards, keep 1"),
    "choose": ("choose <card>", "T-6.7: the region card you keep"),
    "explorer": ("explorer", "T-6.8: reveal 3 region cards, place 1 cube in one region"),
    "explore": ("explore <region> | none", "T-6.8: the region that gets your cube, or none"),
    "sultan": ("sultan <region>", "T-6.9: a diplomat under one of your cubes"),
    "caravan": ("caravan <region> [<region>]", "T-6.10: 2 steps (T-3.9: the start region)"),
    "bonus": ("bonus <region> | none", "T-6.10: the caravan's extra cube offered, or none"),
    "protect": ("protect <card> <class> ... | none", "T-7.3: region cards against the token"),
    "plague": ("plague <region> [<region>]", "T-5 C.1: move the plague (Knight: 2-3 steps)"),
    "spread": ("spread <region> [<region>]", "T-5 C.3: a neighbour for each new token"),
    "reveal": ("reveal <token>", "T-7: the token to reveal next"),
    "resolve": ("resolve <region>", "T-9.3: the region the final plague resolves next"),
    "end": ("end", "T-9.2: end your final-round turn"),
}

MODELS: dict[str, type[Model]] = {
    m.model_fields["type"].default: m for m in get_args(get_args(Action)[0])
}

_HANDLE = re.compile(r"[a-z]+(-[1-9][0-9]*)?/(0|[1-9][0-9]*)")
NONE = "none"


def _named(kind: str, word: str, names: list[str]) -> str:
    """The one name that ``word`` spells or begins, ignoring case."""
    low = word.lower()
    exact = [n for n in names if n.lower() == low]
    found = exact or [n for n in names if n.lower().startswith(low)]
    if len(found) == 1:
        return found[0]
    options = ", ".join(found or names)
    raise RulesError(f"{'ambiguous' if found else 'unknown'} {kind} {word!r} ({options})")


def _handle(word: str, kind: str = "a token like tokens/7 or start/2") -> str:
    if not _HANDLE.fullmatch(word.lower()):
        raise RulesError(f"expected {kind}, not {word!r}")
    return word.lower()


def _region_card(word: str) -> str:
    return _handle(word, "a region card like regions/4 or regions-2/0")


def _count(word: str) -> int:
    if not word.isdigit():
        raise RulesError(f"expected a number of cubes, not {word!r}")
    return number(word)


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
        "token": _handle,
        "tokens": _handle,
        "region_card": _region_card,
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
    if model is Protect:
        return _protect(s, args, usage)
    values: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        if name == "type":
            continue
        if field.annotation is bool:
            values[name] = bool(args) and args[-1].lower() == name
            args = args[:-1] if values[name] else args
        elif args and args[0].lower() == NONE and type(None) in get_args(field.annotation):
            values[name], args = None, args[1:]
        elif get_origin(field.annotation) is list:
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


def _protect(s: State, args: list[str], usage: str) -> Protect:
    """``protect none`` or pairs of a region card handle and the class card it protects."""
    if [a.lower() for a in args] == [NONE]:
        return Protect()
    if not args or len(args) % 2:
        raise RulesError(f"usage: {usage}")
    cards = [c.name for c in s.cards]
    return Protect(
        uses=[
            Use(card=_region_card(card), protects=_named("class card", name, cards))
            for card, name in zip(args[::2], args[1::2], strict=True)
        ]
    )


def format_action(action: Action) -> str:
    if isinstance(action, Protect):
        pairs = [w for use in action.uses for w in (use.card, use.protects)]
        return " ".join(["protect", *(pairs or [NONE])])
    words = [action.type]
    for name in type(action).model_fields:
        value = getattr(action, name)
        if name == "type" or value is False:
            continue
        if value is True:
            words.append(name)
        elif value is None:
            words.append(NONE)
        else:
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
