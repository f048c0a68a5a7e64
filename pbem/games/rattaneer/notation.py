"""The text notation players type, one short phrase per decision.

    placement      pirates 3 7, henchmen 3 3 X      (areas 1–10, X = unused; "p 3 7 h 3 3 x")
    Tavern         buy C05 | hire | pass
    distribution   take P2-3
    trade ship     flip P2-3 P3-4 | pass
    Trade Port     flip P2-3 P1-1 P1-1 | pass
    Island         spot 8 | pass                   (the VP of a free spot)
    end of game    flip P3-4 | pass                 (the free flip)

Words are case-insensitive; ``,`` reads as a space. What a phrase means depends on the
pending decision, so a phrase that does not fit it is refused with what was expected.

A placement says where every available henchman goes, X included. ``pbem play`` reads ``;``
as the end of one move, so a placement typed with one ("pirates 3 7; henchmen 3") would
otherwise be cut short and sealed with its henchmen on X; counting them refuses it instead.
"""

from __future__ import annotations

from pbem.format.i18n import N_
from pbem.format.words import plural
from pbem.games.rattaneer import day
from pbem.games.rattaneer.actions import AnyAction, Buy, Flip, Hire, Pass, Place, Spot, Take
from pbem.games.rattaneer.cards import CardSet
from pbem.games.rattaneer.state import AREA_NAMES, AREAS, State
from pbem.ruleset.rules import RulesError, number

X = "X"
EXAMPLES = 6  # examples in the help of a decision

EXPECTED = {
    "place": "'pirates A B, henchmen H H …' with areas 1–10, one word per available henchman"
    " (X: not used), e.g. 'pirates 3 7, henchmen 3 3 X'",
    "buy": "'buy <companion>' (e.g. 'buy C05'), 'hire' (a henchman for 1 coin) or 'pass'",
    "take": "'take <card>' naming a card under the area, e.g. 'take P2-3'",
    "ship": "'flip <card> …' (up to the ship's capacity of your face-up plunder cards,"
    " e.g. 'flip P2-3') or 'pass'",
    "trade": "'flip <card> …' (any of your face-up plunder cards, e.g. 'flip P2-3 P1-1') or 'pass'",
    "island": "'spot <VP>' (a free spot of the secret treasure card, e.g. 'spot 8') or 'pass'",
    "final": "'flip <card>' (one face-up plunder card, free) or 'pass'",
}
VERBS = {
    "place": {"pirates", "p"},
    "buy": {"buy", "hire", "pass"},
    "take": {"take"},
    "ship": {"flip", "pass"},
    "trade": {"flip", "pass"},
    "island": {"spot", "pass"},
    "final": {"flip", "pass"},
}


def context(state: State) -> str | None:
    """The decision a typed phrase answers, or None when no seat is asked anything."""
    if state.phase == "morning":
        return "place"
    if state.phase == "final":
        return "final"
    if state.phase == "day" and not day.treasure_draw_awaited(state):
        return day.kind(state)
    return None


def parse(state: State, seat: int, text: str, cards: CardSet) -> AnyAction:
    what = context(state)
    if what is None:
        raise RulesError(f"no move is awaited now (the game is in its {state.phase} phase)")
    words = text.replace(",", " ").split()
    verb = words[0].lower() if words else ""
    if verb not in VERBS[what]:
        raise RulesError(f"expected {EXPECTED[what]}; got {text.strip()!r}")
    args = words[1:]
    if verb in ("pirates", "p"):
        return _parse_place(state, seat, args, text)
    if verb in ("pass", "hire"):
        _no_arguments(args, verb, what)
        return Pass() if verb == "pass" else Hire()
    if verb == "spot":
        if len(args) != 1 or not _is_number(args[0]):
            raise RulesError(f"expected {EXPECTED[what]}; got {text.strip()!r}")
        return Spot(vp=number(args[0]))
    if verb == "buy" and [a.lower() for a in args] == ["henchman"]:
        return Hire()
    ids = [_card(a, cards, what) for a in args]
    if not ids or (verb != "flip" and len(ids) != 1):
        raise RulesError(f"expected {EXPECTED[what]}; got {text.strip()!r}")
    if verb == "buy":
        return Buy(card=ids[0])
    if verb == "take":
        return Take(card=ids[0])
    return Flip(cards=ids)


def _is_number(word: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts characters ``int`` refuses."""
    return word.isascii() and word.isdigit()


def _no_arguments(args: list[str], verb: str, what: str) -> None:
    if args:
        raise RulesError(f"'{verb}' takes nothing after it; expected {EXPECTED[what]}")


def _card(word: str, cards: CardSet, what: str) -> str:
    card = cards.canonical_id(word)
    if card is None:
        raise RulesError(f"no card is called {word!r}; expected {EXPECTED[what]}")
    return card


def _parse_place(state: State, seat: int, args: list[str], text: str) -> Place:
    words = [a.lower() for a in args]
    split = next((i for i, w in enumerate(words) if w in ("henchmen", "h")), len(words))
    pirates, henchmen = words[:split], words[split + 1 :]
    if len(pirates) != 2 or not all(map(_is_number, pirates)):
        raise RulesError(f"expected two pirate areas: {EXPECTED['place']}; got {text.strip()!r}")
    for word in henchmen:
        if not (_is_number(word) or word == X.lower()):
            raise RulesError(
                f"a henchman goes on an area 1–10 or X, not {word!r}: {EXPECTED['place']}"
            )
    place = Place(
        pirates=[number(w) for w in pirates],
        henchmen=[number(w) for w in henchmen if _is_number(w)],
    )
    available = state.players[seat].henchmen
    if len(henchmen) != available:
        raise RulesError(
            f"R-5.1: you have {plural(available, 'henchman', 'henchmen')} available: list "
            f"{plural(available, 'area')} or X after 'henchmen', one for each; "
            f"{text.strip()!r} lists {len(henchmen)}"
        )
    return place


def format_action(state: State, seat: int, action: AnyAction) -> str:
    if isinstance(action, Place):
        text = "pirates " + " ".join(map(str, action.pirates))
        unused = max(state.players[seat].henchmen - len(action.henchmen), 0)
        henchmen = [str(a) for a in action.henchmen] + [X] * unused
        return text + (", henchmen " + " ".join(henchmen) if henchmen else "")
    if isinstance(action, Buy):
        return f"buy {action.card}"
    if isinstance(action, Take):
        return f"take {action.card}"
    if isinstance(action, Flip):
        return "flip " + " ".join(action.cards)
    if isinstance(action, Spot):
        return f"spot {action.vp}"
    return action.type  # hire, pass


def summary(state: State, seat: int, action: AnyAction, name: str, cards: CardSet) -> str:
    """One line saying what ``name`` did; ``state`` is the state before the action."""
    where = _where(state)
    if isinstance(action, Place):
        return f"{name} places {format_action(state, seat, action)}"
    if isinstance(action, Buy):
        card = cards.companion(action.card)
        return f"{name} buys {action.card} ({card.vp} VP) for {plural(card.cost, 'coin')}"
    if isinstance(action, Hire):
        return f"{name} hires a henchman for 1 coin"
    if isinstance(action, Take):
        return f"{name} takes {action.card}{where}"
    if isinstance(action, Flip):
        return f"{name} turns {' '.join(action.cards)} face down{where}"
    if isinstance(action, Spot):
        return f"{name} puts a henchman on the {action.vp} VP treasure spot"
    return f"{name} passes{where}"


def _where(state: State) -> str:
    what = context(state)
    if what == "final":
        return " (free flip at the end)"
    if what == "ship":
        return " with a trade ship"
    if state.day is not None:
        return f" at area {state.day.area} ({AREA_NAMES[state.day.area]})"
    return ""


def prompt(state: State) -> str:
    """What the pending decision asks, in a few words."""
    what = context(state)
    if what == "place":
        return N_("Morning of round {round}: place your pieces (R-5.1)").format(round=state.round)
    if what == "final":
        return N_("End of game: you may turn one face-up plunder card face down (R-8.1)")
    assert what is not None and state.day is not None
    questions = {
        "buy": N_("Tavern: buy a companion, hire a henchman or pass (R-6.2)"),
        "take": N_("Area {area}: take a card (R-6.3)"),
        "ship": N_("Trade ship: turn up to {ship} face-up plunder cards face down (R-6.3.3)"),
        "trade": N_("Trade Port: turn any of your face-up plunder cards face down (R-6.4)"),
        "island": N_("Legendary Island: put a henchman on a treasure spot, or pass (R-6.5)"),
    }
    return questions[what].format(area=state.day.area, ship=state.day.ship)


def help_text(state: State, seat: int, options: list[AnyAction]) -> str:
    """The notation of the pending decision, with examples drawn from ``options``."""
    what = context(state)
    if what is None:
        return N_("No move is awaited now.")
    lines = [prompt(state), f"Type {EXPECTED[what]}."]
    if what == "place":
        available = state.players[seat].henchmen
        lines += [
            f"Your henchmen available: {available}, so list {plural(available, 'area')} or X"
            f" after 'henchmen'. Pirates on 2 different areas {AREAS.start}–{AREAS.stop - 1}; with"
            " your pirate any number of your henchmen, elsewhere at most 1.",
            "Short form: 'p 3 7 h 3 3 x'. Separate words with spaces or ',', never ';'"
            " (pbem play reads it as the end of a move).",
            "The moves listed are a sample: any placement R-5.1 allows is accepted.",
        ]
    # Examples spread over the options: the first few alone can all look alike.
    step = max(len(options) // EXAMPLES, 1)
    examples = [format_action(state, seat, a) for a in options[::step][:EXAMPLES]]
    if examples:
        lines.append("For example: " + " | ".join(examples))
    return "\n".join(lines)
