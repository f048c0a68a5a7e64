"""What the game awaits, and which rule each action goes to.

``stage`` reads from the state what is awaited; ``decision`` turns it into the engine's
Decision; ``actions`` lists the legal actions; ``play`` checks one action and applies it to
a copy; ``advance`` then does everything that needs nobody's choice, including answering a
question that has only one legal answer, so that no player is ever asked one. ``reveal``,
``reshuffled`` and ``parallel`` continue after the engine's steps (reveals of sealed items,
a new region deck, the region-card reaction of T-7.3).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import islice
from typing import Literal

from pbem.format.i18n import N_
from pbem.games.rattus import (
    abilities,
    africanus,
    end,
    plague,
    protection,
    regiondeck,
    scoring,
    setup,
    text,
    turn,
)
from pbem.games.rattus.actions import (
    Action,
    Astronomer,
    Bonus,
    Caravan,
    Choose,
    End,
    Explore,
    Explorer,
    Keep,
    King,
    Merchant,
    Monk,
    Peasant,
    Place,
    Plague,
    Protect,
    Resolve,
    RevealToken,
    Spread,
    Sultan,
    Swap,
    Take,
    Witch,
)
from pbem.games.rattus.state import CardDraw, State, africa, copy
from pbem.ruleset.rules import Chance, Decision, Over, Reshuffle, Reveal, RulesError, Turn

Stage = Literal[
    "setup",
    "deal",
    "start",
    "caravan",
    "turn",
    "look",
    "witch",
    "reshuffle",
    "peek",
    "choose",
    "discard",
    "show",
    "explore",
    "bonus",
    "spread",
    "reveal",
    "protect",
    "cards",
    "token",
    "final_round",
    "final_plague",
    "hands",
    "over",
]

EXPECTED: dict[Stage, str] = {
    "start": N_("T-3.8: place your starting cubes: place <region>"),
    "caravan": N_("T-3.9: put the caravan into a region: caravan <region>"),
    "turn": N_("T-5: take, place, peasant, or a class ability, then plague"),
    "witch": N_("T-6.5: swap or keep the two tokens you looked at"),
    "choose": N_("T-6.7: choose <card>, the region card you keep"),
    "explore": N_("T-6.8: explore <region>, a region the revealed cards name, or explore none"),
    "bonus": N_("T-6.10: bonus <region> to place the caravan's extra cube, or bonus none"),
    "spread": N_("T-5 C.3: spread <region> [<region>]"),
    "token": N_("T-7: reveal <token>"),
    "final_round": N_("T-9.2: a class ability, or end"),
    "final_plague": N_("T-9.3: resolve <region>"),
}
"""The stages where a player chooses (the active one, but for the caravan's offers), and
what they may say there."""


def stage(s: State) -> Stage:
    if s.phase in ("setup", "over"):
        return s.phase
    if regiondeck.dealing(s) is not None:
        return "deal"
    if s.witch is not None:
        return "witch" if s.witch.seen else "look"
    if s.africa is not None and s.africa.draw is not None:
        return _draw_stage(s.africa.draw)
    if s.africa is not None and s.africa.offers:
        return "bonus"
    if s.spread is not None:
        return "spread"
    if s.resolution is not None:
        if s.resolution.next:
            return "reveal"
        if s.resolution.asked:
            return "protect"
        return "cards" if protection.unrevealed(s) else "token"
    if s.phase == "final_plague" and end.showing(s) is not None:
        return "hands"
    return s.phase


def _draw_stage(draw: CardDraw) -> Stage:
    if not draw.cards:
        return "reshuffle"
    if draw.ability == "Explorer":
        return "explore" if draw.faces else "show"
    if not draw.seen:
        return "peek"
    return "discard" if draw.kept else "choose"


def decision(s: State) -> Decision:
    current = stage(s)
    if current == "setup":
        return Chance(
            reason=N_("T-3.7: the plague's region and the start player (T-3.4: the supply)")
        )
    if current == "over":
        assert s.result is not None
        return Over(result=s.result)
    if current == "protect":
        return protection.decision(s)
    if current == "reshuffle":
        return regiondeck.reshuffling(s)
    reveal = _reveal(s, current)
    return reveal or Turn(seat=awaited(s), prompt=text.prompt(s, current))


def awaited(s: State) -> int:
    """Who chooses now: the active player, or the one the caravan offers a cube (T-6.10)."""
    if s.africa is not None and s.africa.offers:
        return s.africa.offers[0].seat
    return s.active


def _reveal(s: State, current: Stage) -> Reveal | None:
    """The sealed items a stage opens: hands to their holders (T-3.5), the Witch's look
    (T-6.5) and the Astronomer's draw (T-6.7) to the active player; tokens (T-7), cards
    discarded or shown (T-6.7, T-6.8), cards played (T-7.3) and the hands at the end (T-8)
    to everyone."""
    draw = s.africa.draw if s.africa is not None else None
    if current == "deal":
        return regiondeck.dealing(s)
    if current == "look":
        assert s.witch is not None
        return Reveal(items=s.witch.tokens, to=s.active)
    if current == "peek":
        assert draw is not None
        return Reveal(items=draw.cards, to=s.active)
    if current == "discard":
        return Reveal(items=africanus.discarded(s))
    if current == "show":
        assert draw is not None
        return Reveal(items=draw.cards)
    if current == "reveal":
        assert s.resolution is not None and s.resolution.next is not None
        return Reveal(items=[s.resolution.next])
    if current == "cards":
        return protection.revealing(s)
    if current == "hands":
        return end.showing(s)
    return None


def actions(s: State, seat: int) -> Iterator[Action]:
    """Every legal action of ``seat`` now (none unless that seat is awaited)."""
    current = stage(s)
    if current == "protect":
        assert s.resolution is not None
        return protection.actions(s, seat) if seat in s.resolution.asked else iter(())
    if seat != awaited(s) or current not in EXPECTED:
        return iter(())
    listing = {
        "start": setup.start_actions,
        "caravan": africanus.start_actions,
        "witch": abilities.witch_choices,
        "choose": africanus.choose_actions,
        "explore": africanus.explore_actions,
        "bonus": africanus.bonus_actions,
        "spread": plague.spread_actions,
        "token": plague.token_actions,
        "final_plague": end.region_actions,
    }
    if current == "turn":
        return turn.actions(s, seat)
    if current == "final_round":
        return end.final_actions(s, seat)
    return listing[current](s)


def check(s: State, seat: int, action: Action) -> None:
    """Raise ``RulesError`` unless ``action`` is legal for ``seat`` now (``s`` untouched)."""
    if stage(s) == "protect":
        if not isinstance(action, Protect):
            raise RulesError(
                N_("T-7.3: play region cards or none (not {type})").format(type=action.type)
            )
        protection.check(s, seat, action)
        return
    play(copy(s), seat, action)


def play(s: State, seat: int, action: Action) -> None:
    """Check ``action`` and apply it to ``s`` (a copy); raise ``RulesError`` saying why not."""
    current = stage(s)
    if current not in EXPECTED:
        raise RulesError(
            N_("no player chooses now ({current}); nothing to {type}").format(
                current=current, type=action.type
            )
        )
    if seat != awaited(s):
        raise RulesError(N_("it is not your turn: seat {seat} is to act").format(seat=awaited(s)))
    main = current == "turn"
    ability = main or current == "final_round"
    match action:
        case Place() if current == "start":
            setup.place_start(s, seat, action)
        case Caravan() if current == "caravan":
            africanus.do_start(s, action)
        case Take() if main:
            turn.do_take(s, seat, action)
        case Place() | Peasant() if main:
            turn.do_place(s, seat, action)
        case Plague() if main:
            turn.do_plague(s, seat, action)
        case Merchant() if ability:
            abilities.do_merchant(s, seat, action)
        case Monk() if ability:
            abilities.do_monk(s, seat, action)
        case Witch() if ability:
            abilities.do_witch(s, seat, action)
        case King() if ability:
            abilities.do_king(s, seat, action)
        case Astronomer() if ability:
            africanus.do_astronomer(s, seat, action)
        case Explorer() if ability:
            africanus.do_explorer(s, seat, action)
        case Sultan() if ability:
            africanus.do_sultan(s, seat, action)
        case Caravan() if ability:
            africanus.do_caravan(s, seat, action)
        case End() if current == "final_round":
            end.do_end(s)
        case Swap() | Keep() if current == "witch":
            abilities.do_witch_choice(s, action)
        case Choose() if current == "choose":
            africanus.do_choose(s, seat, action)
        case Explore() if current == "explore":
            africanus.do_explore(s, seat, action)
        case Bonus() if current == "bonus":
            africanus.do_bonus(s, seat, action)
        case Spread() if current == "spread":
            plague.do_spread(s, action)
        case RevealToken() if current == "token":
            plague.do_choose_token(s, action)
        case Resolve() if current == "final_plague":
            end.do_resolve(s, action)
        case _:
            raise RulesError(
                N_("{expected} (not {type})").format(expected=EXPECTED[current], type=action.type)
            )


def reveal(s: State, shown: Reveal, faces: Mapping[str, str] | None) -> None:
    """Continue after the awaited reveal. A private one only records that its seat has
    looked; a public one brings faces, which the rules apply."""
    current = stage(s)
    if _reveal(s, current) != shown:
        raise RulesError(N_("T-4: this reveal was not awaited ({current})").format(current=current))
    if (shown.to is None) != (faces is not None):
        raise RulesError(
            N_("T-4: a private reveal's faces stay with its seat; a public one has all")
        )
    if faces is None:
        _looked(s, current)
        return
    if current == "reveal":
        (handle,) = shown.items
        plague.reveal_face(s, handle, faces[handle])
        _react(s)
    elif current == "cards":
        protection.revealed(s, faces)
        plague.strike(s)
    elif current == "hands":
        end.shown(s, faces)
    else:
        table = africa(s)
        assert table.draw is not None
        if current == "show":
            table.draw.faces = regiondeck.faces_of(s, shown.items, faces)
        else:
            regiondeck.discard(s, regiondeck.faces_of(s, shown.items, faces))
            table.draw = None


def _looked(s: State, current: Stage) -> None:
    if current == "deal":
        regiondeck.dealt(s)
    elif current == "look":
        assert s.witch is not None
        s.witch.seen = True
    else:
        draw = africa(s).draw
        assert draw is not None
        draw.seen = True


def _react(s: State) -> None:
    """T-7.3: ask those who could protect themselves; if nobody, the token strikes now."""
    protection.ask(s)
    assert s.resolution is not None
    if not s.resolution.asked:
        plague.strike(s)


def parallel(s: State, chosen: Mapping[int, Protect]) -> None:
    """T-7.3: the answers are in; the played cards are revealed next, or, if nobody played
    one, the token strikes now."""
    if stage(s) != "protect":
        raise RulesError(N_("T-7.3: no region cards are asked for now"))
    protection.apply(s, chosen)
    if not protection.unrevealed(s):
        plague.strike(s)


def reshuffled(s: State, done: Reshuffle) -> None:
    if stage(s) != "reshuffle":
        raise RulesError(N_("T-6: no reshuffle of the region discards is awaited"))
    regiondeck.reshuffled(s, done)


def advance(s: State) -> None:
    """Do what needs no choice: end the turn after the plague, score after the final
    plague, and play any action that is the only legal one."""
    while True:
        current = stage(s)
        if current == "turn" and s.progress.moved:
            end.finish_turn(s)
        elif current == "final_plague" and not s.final_regions:
            s.result = scoring.result(s)
            s.phase = "over"
        elif current in EXPECTED and len(forced := list(islice(actions(s, awaited(s)), 2))) == 1:
            play(s, awaited(s), forced[0])
        else:
            return
