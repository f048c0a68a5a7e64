"""Rattaneer: rat pirates race for the pirate king's title (rules: ``rules.md``, shipped).

The ruleset class lives here, in the package's ``__init__``, so that the rules' content
hash covers the whole package (code and card data), not one module. It only routes the
engine's contract (``pbem.ruleset.rules``) to the modules that hold the rules, each named for
what it holds: ``cards`` (card set schema, loading, embedding), ``state`` and ``actions``
(models), ``start`` (options, R-2), ``morning`` (R-5), ``day`` (R-6), ``night`` (R-7),
``scoring`` (R-8), ``notation``, ``text``, ``bots``. Every entry point copies the state
before changing it, and reads the cards from the game's own options (``Options.card_set``):
the shipped set, or the one embedded in the genesis by option ``cards``. Rulings on what
the rules leave open: RULINGS.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pbem.bots.mcts import Mcts
from pbem.crypto.randomness import Rng
from pbem.format.i18n import N_
from pbem.games.rattaneer import (
    consequences,
    day,
    morning,
    night,
    notation,
    scoring,
    start,
    text,
    topics,
)
from pbem.games.rattaneer.actions import Action, AnyAction, Flip, Pass, Place
from pbem.games.rattaneer.bots import greedy, random_flip, random_placement
from pbem.games.rattaneer.cards import CardSet, load_cards
from pbem.games.rattaneer.search import RattaneerSearch
from pbem.games.rattaneer.state import AREAS, TAVERN_LIMIT, Options, State, copy
from pbem.ruleset.rulebook import Topic
from pbem.ruleset.rules import (
    Bot,
    Chance,
    Decision,
    OptionHelp,
    Over,
    Parallel,
    Result,
    RulesError,
    Ruleset,
    Turn,
)

_ACTION_TYPES = (*AnyAction.__args__,)


class Rattaneer(Ruleset):
    """Rattaneer (Hisashi Hayashi, OKAZU Brand 2017), per ``rules.md`` (``pbem rules``)."""

    id = "rattaneer"
    options_model = Options
    version = "1.1"
    title = "Rattaneer"
    min_seats = 2
    max_seats = 5
    State: ClassVar[type[State]] = State
    Action: ClassVar[Any] = Action

    # ----- options and setup ----------------------------------------------------------------

    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        return start.parse_options(raw)

    def setup(self, options: Mapping[str, Any], seats: int) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise RulesError(f"Rattaneer takes {self.min_seats} to {self.max_seats} players")
        return start.initial_state(options, seats)

    # ----- the state machine ------------------------------------------------------------------

    def pending(self, state: State) -> Decision:
        if state.phase == "setup":
            return Chance(reason=N_("setup draw: start player, Tavern row, sea cards (R-2)"))
        if state.phase == "night":
            return Chance(reason=N_("night refill of the Tavern and the sea areas (R-7.B)"))
        if state.phase == "morning":
            seats = list(range(state.seats))
            return Parallel(seats=seats, name="place", sealed=True, prompt=notation.prompt(state))
        if state.phase == "final":
            return Parallel(
                seats=state.flip_seats, name="flip", sealed=False, prompt=notation.prompt(state)
            )
        if day.treasure_draw_awaited(state):
            return Chance(
                reason=N_("R-6.5: a treasure card for each pirate on the Legendary Island")
            )
        if state.phase == "day":
            return Turn(seat=day.chooser(state), prompt=notation.prompt(state))
        return Over(result=scoring.result(state, state.options.card_set()))

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if seat not in _awaited_seats(self.pending(state)):
            return []
        if state.phase == "day":
            return day.options(state, state.options.card_set())
        if state.phase == "final":
            face_up = sorted(set(state.players[seat].face_up))
            return [Pass(), *(Flip(cards=[c]) for c in face_up)]
        return _placement_sample(state, seat)

    def samples(self, state: State, seat: int) -> bool:
        """The Morning's placements are too many to list: ``legal_actions`` samples them."""
        return state.phase == "morning"

    def check(self, state: State, seat: int, action: Any) -> None:
        self._check_awaited(state, seat)
        if not isinstance(action, _ACTION_TYPES):
            raise RulesError(f"not a Rattaneer action: {action!r}")
        if state.phase == "morning":
            if not isinstance(action, Place):
                raise RulesError("R-5.1: the Morning awaits your placement of pieces")
            morning.check_placement(state, seat, action)
        elif state.phase == "final":
            scoring.check_final_flip(state, seat, action)
        else:
            day.check_day(state, state.options.card_set(), seat, action)

    def apply(self, state: State, seat: int, action: Any) -> State:
        if state.phase != "day":
            raise RulesError(f"no single move is awaited now ({state.phase})")
        self.check(state, seat, action)
        new = copy(state)
        cards = state.options.card_set()
        day.perform(new, cards, action)
        day.settle(new, cards)
        return new

    def apply_parallel(self, state: State, actions: Mapping[int, Any]) -> State:
        decision = self.pending(state)
        if not isinstance(decision, Parallel):
            raise RulesError(f"no parallel decision is awaited now ({state.phase})")
        if sorted(actions) != decision.seats:
            raise RulesError(f"'{decision.name}' needs the actions of seats {decision.seats}")
        for seat, action in actions.items():
            self.check(state, seat, action)
        new = copy(state)
        if state.phase == "morning":
            morning.reveal(new, dict(sorted(actions.items())))
            day.start_day(new, state.options.card_set())
        else:
            scoring.final_flip(new, actions)
        return new

    def resolve_chance(self, state: State, rng: Rng) -> State:
        """The setup draw, the Night's refills, or the treasure cards at the island; when
        the Day then runs on into the Night, the Night's draws follow from the same stream
        (no choice comes between)."""
        new = copy(state)
        if state.phase == "setup":
            start.setup_draw(new, rng)
        elif state.phase == "night":
            night.night(new, rng)
        elif state.phase == "day":
            day.draw_treasures(new, state.options.card_set(), rng)
            if new.phase == "night":
                night.night(new, rng)
        else:
            raise RulesError(f"no random draw is awaited now ({state.phase})")
        return new

    def _check_awaited(self, state: State, seat: int) -> None:
        decision = self.pending(state)
        if seat in _awaited_seats(decision):
            return
        if isinstance(decision, Turn):
            raise RulesError(f"seat {decision.seat} is to move now, not seat {seat}")
        if isinstance(decision, Parallel):
            raise RulesError(f"seat {seat} has no part in '{decision.name}' now")
        raise RulesError(f"no move is awaited now ({state.phase})")

    # ----- text ---------------------------------------------------------------------------------

    def parse_action(self, state: State, seat: int, text: str) -> Any:
        return notation.parse(state, seat, text, state.options.card_set())

    def format_action(self, state: State, seat: int, action: Any) -> str:
        return notation.format_action(state, seat, action)

    def summary(self, state: State, seat: int, action: Any, names: list[str]) -> str:
        return notation.summary(state, seat, action, names[seat], state.options.card_set())

    def consequences(self, before: State, after: State, names: list[str]) -> list[str]:
        return consequences.consequences(before, after, names)

    def notation_help(self, state: State, seat: int) -> str:
        return notation.help_text(state, seat, self.legal_actions(state, seat))

    def render_text(self, state: State, names: list[str]) -> str:
        return text.render(state, names, self.pending(state))

    def topics(self, options: Mapping[str, Any] | None) -> list[Topic]:
        """``cards``: every card of the set the options name (the shipped one by default)."""
        try:
            parsed = Options.model_validate(dict(options or {}))
        except ValueError as exc:
            raise RulesError(f"bad rattaneer options: {exc}") from exc
        return [topics.cards(parsed)]

    def notice(self, options: Mapping[str, Any]) -> str:
        parsed = Options.model_validate(dict(options))
        return text.notice(parsed.card_set(), parsed.cards_hash is not None)

    def options_help(self) -> list[OptionHelp]:
        return [
            OptionHelp(
                name="treasures",
                values="true|false",
                default="false",
                help="R-2.7: the treasure cards of the expansion on the island",
            ),
            OptionHelp(
                name="tavern_keep",
                values=f"1-{TAVERN_LIMIT}",
                default="3",
                help="R-7.B: cards left in the Tavern row after it overflows",
            ),
            OptionHelp(
                name="start_seat",
                values="a seat number from 0",
                default="drawn at random",
                help="R-2.8: the start player",
            ),
            OptionHelp(
                name="cards",
                values="PATH of a card file",
                default="the shipped set",
                help="R-9: another card set, embedded in the game (pbem schema: its schema)",
            ),
        ]

    # ----- bots ---------------------------------------------------------------------------------

    def random_action(
        self, state: State, seat: int, rng: Rng, known: Mapping[str, str] | None = None
    ) -> Any:
        if state.phase == "morning":
            return random_placement(state, seat, rng)
        if state.phase == "day" and day.kind(state) in ("ship", "trade"):
            face_up = state.players[seat].face_up
            most = state.day.ship if day.kind(state) == "ship" else len(face_up)
            return random_flip(face_up, most, rng)
        return super().random_action(state, seat, rng, known)

    def bots(self) -> dict[str, Bot]:
        return {**super().bots(), "greedy": greedy, "mcts": Mcts(RattaneerSearch())}

    can_end_early = True

    def result_now(self, state: State) -> Result:
        """A game ended by a call (no escrow to open): R-8 as it stands (a ruling)."""
        return scoring.result(state, state.options.card_set())

    def schemas(self) -> dict[str, dict[str, Any]]:
        """Also the card file's schema, for whoever writes another card set (R-9)."""
        return {**super().schemas(), f"{self.id}.cards": CardSet.model_json_schema()}


def _awaited_seats(decision: Decision) -> list[int]:
    if isinstance(decision, Turn):
        return [decision.seat]
    return decision.seats if isinstance(decision, Parallel) else []


def _placement_sample(state: State, seat: int) -> list[Place]:
    """A representative sample of placements (the whole set is combinatorial): every pair
    of pirate areas, with all henchmen on X, with the first pirate, with the second, or one
    henchman alone on the lowest other area (R-5.1 allows one there, R-5.3 counts it)."""
    owned = state.players[seat].henchmen
    sample = []
    for first in AREAS:
        for second in range(first + 1, AREAS.stop):
            sample.append(Place(pirates=[first, second]))
            if owned:
                sample.append(Place(pirates=[first, second], henchmen=[first] * owned))
                sample.append(Place(pirates=[first, second], henchmen=[second] * owned))
                lone = min(set(AREAS) - {first, second})
                sample.append(Place(pirates=[first, second], henchmen=[lone]))
    return sample


__all__ = ["Action", "CardSet", "Rattaneer", "State", "load_cards"]
