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
    "place": N_(
        "'pirates A B, henchmen H H …' with areas 1–10, one word per available henchman"
        " (X: not used), e.g. 'pirates 3 7, henchmen 3 3 X'"
    ),
    "buy": N_("'buy <companion>' (e.g. 'buy C05'), 'hire' (a henchman for 1 coin) or 'pass'"),
    "take": N_("'take <card>' naming a card under the area, e.g. 'take P2-3'"),
    "ship": N_(
        "'flip <card> …' (up to the ship's capacity of your face-up plunder cards,"
        " e.g. 'flip P2-3') or 'pass'"
    ),
    "trade": N_(
        "'flip <card> …' (any of your face-up plunder cards, e.g. 'flip P2-3 P1-1') or 'pass'"
    ),
    "island": N_("'spot <VP>' (a free spot of the secret treasure card, e.g. 'spot 8') or 'pass'"),
    "final": N_("'flip <card>' (one face-up plunder card, free) or 'pass'"),
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


SUMMARIES = {
    ("take", "area"): N_("{name} takes {card} at area {area} ({area_name})"),
    ("take", ""): N_("{name} takes {card}"),
    ("flip", "final"): N_("{name} turns {cards} face down (free flip at the end)"),
    ("flip", "ship"): N_("{name} turns {cards} face down with a trade ship"),
    ("flip", "area"): N_("{name} turns {cards} face down at area {area} ({area_name})"),
    ("flip", ""): N_("{name} turns {cards} face down"),
    ("pass", "final"): N_("{name} passes (free flip at the end)"),
    ("pass", "ship"): N_("{name} passes with a trade ship"),
    ("pass", "area"): N_("{name} passes at area {area} ({area_name})"),
    ("pass", ""): N_("{name} passes"),
}
"""What a Take, a Flip or a Pass says, by where it happens (``_where``): whole sentences,
for the catalogs."""


def summary(state: State, seat: int, action: AnyAction, name: str, cards: CardSet) -> str:
    """One line saying what ``name`` did; ``state`` is the state before the action."""
    if isinstance(action, Place):
        return N_("{name} places {move}").format(name=name, move=format_action(state, seat, action))
    if isinstance(action, Buy):
        card = cards.companion(action.card)
        bought = (
            N_("{name} buys {card} ({vp} VP) for {cost} coin")
            if card.cost == 1
            else N_("{name} buys {card} ({vp} VP) for {cost} coins")
        )
        return bought.format(name=name, card=action.card, vp=card.vp, cost=card.cost)
    if isinstance(action, Hire):
        return N_("{name} hires a henchman for 1 coin").format(name=name)
    if isinstance(action, Spot):
        return N_("{name} puts a henchman on the {vp} VP treasure spot").format(
            name=name, vp=action.vp
        )
    kind = "take" if isinstance(action, Take) else "flip" if isinstance(action, Flip) else "pass"
    area = state.day.area if state.day is not None else 0
    return SUMMARIES[kind, _where(state)].format(
        name=name,
        card=getattr(action, "card", ""),
        cards=" ".join(getattr(action, "cards", [])),
        area=area,
        area_name=AREA_NAMES.get(area, ""),
    )


def _where(state: State) -> str:
    """Where an action happens, for its summary: the final free flip, a trade ship, an
    area of the Day, or nowhere in particular."""
    what = context(state)
    if what in ("final", "ship"):
        return what
    return "area" if state.day is not None else ""


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
    lines = [prompt(state), N_("Type {expected}.").format(expected=EXPECTED[what])]
    if what == "place":
        available = state.players[seat].henchmen
        listed = (
            N_(
                "Your henchmen available: {count}, so list {count} area or X after "
                "'henchmen'. Pirates on 2 different areas {first}–{last}; with your pirate any "
                "number of your henchmen, elsewhere at most 1."
            )
            if available == 1
            else N_(
                "Your henchmen available: {count}, so list {count} areas or X after "
                "'henchmen'. Pirates on 2 different areas {first}–{last}; with your pirate any "
                "number of your henchmen, elsewhere at most 1."
            )
        )
        lines += [
            listed.format(count=available, first=AREAS.start, last=AREAS.stop - 1),
            N_(
                "Short form: 'p 3 7 h 3 3 x'. Separate words with spaces or ',', never ';' "
                "(pbem play reads it as the end of a move)."
            ),
            N_("The moves listed are a sample: any placement R-5.1 allows is accepted."),
        ]
    # Examples spread over the options: the first few alone can all look alike.
    step = max(len(options) // EXAMPLES, 1)
    examples = [format_action(state, seat, a) for a in options[::step][:EXAMPLES]]
    if examples:
        lines.append(N_("For example: {moves}").format(moves=" | ".join(examples)))
    return "\n".join(lines)
