"""What the game awaits, and which rule each action goes to.

``stage`` reads from the state what is awaited; ``decision`` turns it into the engine's
Decision; ``actions`` lists the legal actions; ``play`` checks one action and applies it to
a copy; ``advance`` then does everything that needs nobody's choice, including answering a
question that has only one legal answer, so that no player is ever asked one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import islice
from typing import Literal

from pbem.core.rules import Chance, Decision, Over, Reveal, RulesError, Turn
from pbem.games.rattus import abilities, end, plague, scoring, setup, text, turn
from pbem.games.rattus.actions import (
    Action,
    End,
    Keep,
    King,
    Merchant,
    Monk,
    Peasant,
    Place,
    Plague,
    Resolve,
    RevealToken,
    Spread,
    Swap,
    Take,
    Witch,
)
from pbem.games.rattus.state import State

Stage = Literal[
    "setup",
    "start",
    "turn",
    "look",
    "witch",
    "spread",
    "token",
    "reveal",
    "final_round",
    "final_plague",
    "over",
]

EXPECTED: dict[Stage, str] = {
    "start": "T-3.8: place your starting cubes: place <region>",
    "turn": "T-5: take, place, peasant, merchant, monk, witch, king, or plague",
    "witch": "T-6.5: swap or keep the two tokens you looked at",
    "spread": "T-5 C.3: spread <region> [<region>]",
    "token": "T-7: reveal <token>",
    "final_round": "T-9.2: merchant, monk, witch, king, or end",
    "final_plague": "T-9.3: resolve <region>",
}
"""The stages where the active player chooses, and what they may say there."""


def stage(s: State) -> Stage:
    if s.phase in ("setup", "over"):
        return s.phase
    if s.witch is not None:
        return "witch" if s.witch.seen else "look"
    if s.spread is not None:
        return "spread"
    if s.resolution is not None:
        return "reveal" if s.resolution.next else "token"
    return s.phase


def decision(s: State) -> Decision:
    current = stage(s)
    if current == "setup":
        return Chance(reason="T-3.7: the plague's region and the start player (T-3.4: the supply)")
    if current == "over":
        assert s.result is not None
        return Over(result=s.result)
    if current == "look":
        assert s.witch is not None
        return Reveal(items=s.witch.tokens, to=s.active)
    if current == "reveal":
        assert s.resolution is not None and s.resolution.next is not None
        return Reveal(items=[s.resolution.next])
    return Turn(seat=s.active, prompt=text.prompt(s, current))


def actions(s: State, seat: int) -> Iterator[Action]:
    """Every legal action of ``seat`` now (none unless it is that seat's Turn)."""
    current = stage(s)
    if seat != s.active or current not in EXPECTED:
        return iter(())
    if current == "start":
        return setup.start_actions(s)
    if current == "turn":
        return turn.actions(s, seat)
    if current == "witch":
        return abilities.witch_choices(s)
    if current == "spread":
        return plague.spread_actions(s)
    if current == "token":
        return plague.token_actions(s)
    if current == "final_round":
        return end.final_actions(s, seat)
    return end.region_actions(s)


def play(s: State, seat: int, action: Action) -> None:
    """Check ``action`` and apply it to ``s`` (a copy); raise ``RulesError`` saying why not."""
    current = stage(s)
    if current not in EXPECTED:
        raise RulesError(f"no player chooses now ({current}); nothing to {action.type}")
    if seat != s.active:
        raise RulesError(f"it is not your turn: seat {s.active} is to act")
    main = current == "turn"
    ability = main or current == "final_round"
    match action:
        case Place() if current == "start":
            setup.place_start(s, seat, action)
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
        case End() if current == "final_round":
            end.do_end(s)
        case Swap() | Keep() if current == "witch":
            abilities.do_witch_choice(s, action)
        case Spread() if current == "spread":
            plague.do_spread(s, action)
        case RevealToken() if current == "token":
            plague.do_choose_token(s, action)
        case Resolve() if current == "final_plague":
            end.do_resolve(s, action)
        case _:
            raise RulesError(f"{EXPECTED[current]} (not {action.type})")


def reveal(s: State, shown: Reveal, faces: Mapping[str, str] | None) -> None:
    """Continue after the awaited reveal: the Witch's private look only records that the
    look happened; a public reveal applies the token's face (T-7)."""
    awaited = decision(s)
    if not isinstance(awaited, Reveal) or awaited != shown:
        raise RulesError(f"T-4: this reveal was not awaited ({stage(s)})")
    if shown.to is not None:
        assert s.witch is not None
        if faces is not None:
            raise RulesError("T-6.5: the Witch's look is private; its faces stay with the engine")
        s.witch.seen = True
        return
    (handle,) = shown.items
    if faces is None or handle not in faces:
        raise RulesError(f"T-7: the public reveal of {handle} needs its face")
    plague.reveal_face(s, handle, faces[handle])


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
        elif current in EXPECTED and len(forced := list(islice(actions(s, s.active), 2))) == 1:
            play(s, s.active, forced[0])
        else:
            return
