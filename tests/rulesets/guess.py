"""``guess``: a tiny ruleset that exercises every kind of decision the engine knows.

Each round a target number is drawn from a public deck (a chance draw made at draw time
from what remains; an empty deck is refilled); every seat guesses it in a sealed parallel
decision (or an open one with option ``open``); the closest seats score 1; ties for
closest are broken by a chance draw made right after the batch; the round's winner then
chooses in a public turn to ``bank`` (+1) or ``risk`` (a coin flip: +3 or nothing).
Highest score after ``rounds`` rounds wins; ties share the win.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from pbem.crypto.randomness import Rng
from pbem.ruleset.rules import (
    Chance,
    Decision,
    Model,
    Over,
    Parallel,
    Result,
    RulesError,
    Ruleset,
    Turn,
)


class Guess(Model):
    type: Literal["guess"] = "guess"
    value: int = Field(ge=1, le=10)


class Choose(Model):
    type: Literal["bank", "risk"]


Action = Annotated[Guess | Choose, Field(discriminator="type")]


class GuessState(Model):
    rounds: int
    open: bool
    round: int = 0
    deck: list[int] = Field(default_factory=lambda: list(range(1, 11)))
    target: int | None = None
    phase: Literal["draw", "guess", "tie", "choose", "risk", "over"] = "draw"
    scores: list[int]
    guesses: list[int | None]
    closest: list[int] = Field(default_factory=list)
    leader: int | None = None
    risks_won: int = 0

    def fresh(self) -> GuessState:
        """A copy whose lists are new: the moves mutate only those and plain fields, and a
        deep copy is most of a long game's verification in this ruleset."""
        return self.model_copy(
            update={k: list(v) for k, v in self.__dict__.items() if isinstance(v, list)}
        )


class GuessOptions(Model):
    """The options as the genesis holds them."""

    rounds: Annotated[int, Field(ge=1, le=1000)]
    open: bool


class GuessGame(Ruleset):
    id = "guess"
    options_model = GuessOptions
    version = "1"
    title = "Guess (test ruleset)"
    min_seats = 2
    max_seats = 6
    State = GuessState
    Action = Action

    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        options: dict[str, Any] = {"rounds": 3, "open": False}
        for key, value in raw.items():
            if key == "rounds":
                if not value.isdigit() or not 1 <= int(value) <= 1000:
                    raise RulesError("option rounds takes a whole number from 1 to 1000")
                options["rounds"] = int(value)
            elif key == "open":
                if value not in {"true", "false"}:
                    raise RulesError("option open takes true or false")
                options["open"] = value == "true"
            else:
                raise RulesError(f"unknown option {key!r} (known: rounds, open)")
        return options

    def setup(self, options: Mapping[str, Any], seats: int) -> GuessState:
        return GuessState(
            rounds=options["rounds"],
            open=options["open"],
            scores=[0] * seats,
            guesses=[None] * seats,
        )

    def pending(self, state: GuessState) -> Decision:
        if state.phase in {"draw", "tie", "risk"}:
            return Chance(reason=state.phase)
        if state.phase == "guess":
            seats = list(range(len(state.scores)))
            return Parallel(
                seats=seats, name="guess", sealed=not state.open, prompt="a number 1-10"
            )
        if state.phase == "choose":
            assert state.leader is not None
            return Turn(seat=state.leader, prompt="bank or risk")
        best = max(state.scores)
        winners = [s for s, v in enumerate(state.scores) if v == best]
        return Over(result=Result(scores=state.scores, winners=winners))

    def legal_actions(self, state: GuessState, seat: int) -> list[Any]:
        if state.phase == "guess":
            return [Guess(value=v) for v in range(1, 11)]
        if state.phase == "choose" and seat == state.leader:
            return [Choose(type="bank"), Choose(type="risk")]
        return []

    def check(self, state: GuessState, seat: int, action: Any) -> None:
        if state.phase == "guess" and isinstance(action, Guess):
            return
        if state.phase == "choose" and isinstance(action, Choose) and seat == state.leader:
            return
        raise RulesError(f"G-1: {action.type} is not a legal action now (phase {state.phase})")

    def apply(self, state: GuessState, seat: int, action: Any) -> GuessState:
        new = state.fresh()
        if action.type == "bank":
            new.scores[seat] += 1
            self._next_round(new)
        else:
            new.phase = "risk"
        return new

    def apply_parallel(self, state: GuessState, actions: Mapping[int, Any]) -> GuessState:
        new = state.fresh()
        assert new.target is not None
        new.guesses = [actions[s].value for s in range(len(new.scores))]
        distance = [abs(g - new.target) for g in new.guesses]
        new.closest = [s for s, d in enumerate(distance) if d == min(distance)]
        for seat in new.closest:
            new.scores[seat] += 1
        if len(new.closest) == 1:
            new.leader = new.closest[0]
            new.phase = "choose"
        else:
            new.phase = "tie"
        return new

    def resolve_chance(self, state: GuessState, rng: Rng) -> GuessState:
        new = state.fresh()
        if new.phase == "tie":
            new.leader = rng.choice(new.closest)
            new.phase = "choose"
            return new
        if new.phase == "risk":
            won = rng.below(2) == 1
            if won:
                new.risks_won += 1
                assert new.leader is not None
                new.scores[new.leader] += 3
            self._next_round(new)
            if new.phase != "draw":
                return new
        if not new.deck:
            new.deck = list(range(1, 11))
        new.target = new.deck.pop(rng.below(len(new.deck)))
        new.round += 1
        new.phase = "guess"
        return new

    @staticmethod
    def _next_round(state: GuessState) -> None:
        state.leader = None
        state.closest = []
        state.phase = "over" if state.round >= state.rounds else "draw"

    def parse_action(self, state: GuessState, seat: int, text: str) -> Any:
        words = text.split()
        if len(words) == 2 and words[0] == "guess" and words[1].isdigit():
            if not 1 <= int(words[1]) <= 10:
                raise RulesError("a guess is a number from 1 to 10")
            return Guess(value=int(words[1]))
        if words in (["bank"], ["risk"]):
            return Choose(type=words[0])
        raise RulesError(f"expected 'guess N', 'bank' or 'risk', not {text!r}")

    def format_action(self, state: GuessState, seat: int, action: Any) -> str:
        return f"guess {action.value}" if isinstance(action, Guess) else action.type

    def notation_help(self, state: GuessState, seat: int) -> str:
        return (
            "guess 7    (a number from 1 to 10)\nbank       (+1)\nrisk       (coin flip: +3 or 0)"
        )

    def render_text(self, state: GuessState, names: list[str]) -> str:
        lines = [f"round {state.round}/{state.rounds}, target {state.target}, deck {state.deck}"]
        lines += [f"  {name}: {score}" for name, score in zip(names, state.scores, strict=True)]
        return "\n".join(lines)
