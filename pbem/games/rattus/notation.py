"""The text notation: ``<verb> <arguments>``, one action at a time.

The verb is the action's ``type`` and the arguments are its fields in order, so a whole turn
such as ``take Witch; place Gallia; plague Germania`` is a sequence of single actions. An
argument is a region (any unambiguous start of its name, any case), a class card (likewise),
a token or region card handle (``tokens/7``, ``regions-2/4``) or a number; a yes/no field
is a trailing word that is there or not (``merchant Gallia Italia 2 diplomat``); an optional
choice not taken is ``none`` (``explore none``). Region cards played against the plague are
pairs: ``protect regions/4 Sultan regions/9 Witch``, or ``protect none``.

That is the notation signed into the file. A player reads and may type names instead of
the handles (``named``): a token by the region it lies in (``monk Germania Gallia``,
``Germania#2`` where the region holds several), a region card of their own by the region
it names (``protect Gallia Sultan``). The parser here reads handles only, being a function
of the public state: a region card's name is known to its holder alone, so the holder's
``pbem`` turns a name into the handle (``pbem.play.naming``) before anything is signed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, get_args, get_origin

from pbem.format.i18n import N_
from pbem.games.rattus import flow
from pbem.games.rattus.actions import Action, Protect, Use
from pbem.games.rattus.state import State, board_of, card_names, token_name
from pbem.ruleset.rules import Model, RulesError, number

USAGE: dict[str, tuple[str, str]] = {
    "take": ("take <card>", N_("T-5 A: take a class card from the supply or a player")),
    "place": ("place <region>", N_("T-5 B, T-3.8: place cubes into a region")),
    "peasant": ("peasant <region>", N_("T-6.1: place with the Peasant: one more cube, any region")),
    "merchant": ("merchant <from> <to> <1-3> [diplomat]", N_("T-6.2: move cubes to a neighbour")),
    "monk": ("monk <token> <to>", N_("T-6.3: move a token to a neighbour")),
    "witch": ("witch <token> <token>", N_("T-6.5: look at two tokens")),
    "swap": ("swap", N_("T-6.5: swap the two tokens you looked at")),
    "keep": ("keep", N_("T-6.5: leave the two tokens where they are")),
    "king": (
        "king <region> [diplomat]",
        N_("T-6.6: a cube from a token-free region to the palace"),
    ),
    "astronomer": ("astronomer", N_("T-6.7: draw 3 region cards, keep 1")),
    "choose": ("choose <card>", N_("T-6.7: the region card you keep")),
    "explorer": ("explorer", N_("T-6.8: reveal 3 region cards, place 1 cube in one region")),
    "explore": ("explore <region> | none", N_("T-6.8: the region that gets your cube, or none")),
    "sultan": ("sultan <region>", N_("T-6.9: a diplomat under one of your cubes")),
    "caravan": ("caravan <region> [<region>]", N_("T-6.10: 2 steps (T-3.9: the start region)")),
    "bonus": ("bonus <region> | none", N_("T-6.10: the caravan's extra cube offered, or none")),
    "protect": ("protect <card> <class> ... | none", N_("T-7.3: region cards against the token")),
    "plague": ("plague <region> [<region>]", N_("T-5 C.1: move the plague (Knight: 2-3 steps)")),
    "spread": ("spread <region> [<region>]", N_("T-5 C.3: a neighbour for each new token")),
    "reveal": ("reveal <token>", N_("T-7: the token to reveal next")),
    "resolve": ("resolve <region>", N_("T-9.3: the region the final plague resolves next")),
    "end": ("end", N_("T-9.2: end your final-round turn")),
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


def _token(s: State, word: str, regions: list[str]) -> str:
    """A token by its handle, or by its name (``token_name``): the region it lies in,
    numbered when the region holds several (``Germania#2``). Names are public: where a
    token lies is on the board for all to see."""
    if _HANDLE.fullmatch(word.lower()):
        return word.lower()
    name, hash_, count = word.partition("#")
    try:
        where = _named("region", name, regions)
    except RulesError:
        raise RulesError(
            f"expected a token: its region (Germania#2 where it holds several) or its "
            f"handle (tokens/7), not {word!r}"
        ) from None
    tokens = next(r.tokens for r in s.regions if r.name == where)
    if not tokens:
        raise RulesError(f"expected a token, and no token lies in {where}")
    if not hash_ and len(tokens) == 1:
        return tokens[0]
    if not hash_ or not count.isascii() or not count.isdigit():
        raise RulesError(
            f"{where} holds {len(tokens)} tokens: say which, {where}#1 to #{len(tokens)}"
        )
    index = number(count)
    if not 1 <= index <= len(tokens):
        raise RulesError(
            f"{where} holds {len(tokens)} tokens: {where}#1 to #{len(tokens)}, not #{index}"
        )
    return tokens[index - 1]


def _region_card(word: str) -> str:
    return _handle(word, "a region card: the region of one of yours, or its handle like regions/4")


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

    def token(word: str) -> str:
        return _token(s, word, regions)

    return {
        "card": lambda word: _named("class card", word, cards),
        "region": region,
        "source": region,
        "target": region,
        "path": region,
        "regions": region,
        "token": token,
        "tokens": token,
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


Namer = Callable[[str, str], str]
"""What a word of the notation is called for a reader: ``(kind, word) -> name``, where
kind is ``token`` or ``region_card`` (every other word is a name already)."""

KINDS = {"token": "token", "tokens": "token", "region_card": "region_card"}


def format_action(action: Action, name: Namer | None = None) -> str:
    """The notation of ``action``; with ``name``, its tokens and region cards named."""

    def word(kind: str, value: str) -> str:
        return name(kind, value) if name is not None and kind else value

    if isinstance(action, Protect):
        pairs = [w for use in action.uses for w in (word("region_card", use.card), use.protects)]
        return " ".join(["protect", *(pairs or [NONE])])
    words = [action.type]
    for field in type(action).model_fields:
        value = getattr(action, field)
        if field == "type" or value is False:
            continue
        if value is True:
            words.append(field)
        elif value is None:
            words.append(NONE)
        else:
            values = value if isinstance(value, list) else [value]
            words.extend(word(KINDS.get(field, ""), str(v)) for v in values)
    return " ".join(words)


def named(s: State, seat: int, action: Action, known: Mapping[str, str]) -> str:
    """``action`` as its player reads it: a token by where it lies (``monk Germania
    Gallia``, ``reveal Italia#2``), a region card of the seat's own by the region it names
    (``protect Gallia King``; ``known``: what the seat alone knows). Any other reader sees
    its region cards as handles. The names are a way to type a listed move
    (``pbem.play.naming``); what is signed is ``format_action``, with the handles."""
    cards = card_names(s, seat, known)

    def name(kind: str, value: str) -> str:
        return token_name(s, value) if kind == "token" else cards.get(value, value)

    return format_action(action, name)


def help_text(s: State, seat: int) -> str:
    """The verbs legal for ``seat`` now, each with a legal example."""
    examples: dict[str, Action] = {}
    for action in flow.actions(s, seat):
        examples.setdefault(action.type, action)
    if not examples:
        return N_("Nothing is awaited from you now.")
    lines = [
        f"{USAGE[verb][0]:<28} {USAGE[verb][1]}; e.g. {named(s, seat, example, {})}"
        for verb, example in examples.items()
    ]
    lines.append(
        N_(
            "Regions and cards may be shortened (plague Germ); a token is named by its region "
            "(Germania#2 where it holds several), a region card of yours by its region "
            "(protect Gallia King), or either by its handle (tokens/7, regions/4); one action "
            "at a time."
        )
    )
    return "\n".join(lines)
