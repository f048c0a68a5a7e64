"""``peek``: a tiny ruleset with a sealed deck, to prove the engine's hidden information.

Sixteen cards ``secretcard01`` … ``secretcard16`` (worth their number) are sealed and
shuffled by every seat. Each seat is dealt two cards privately (one private reveal per
seat). Then, in turn, each seat either plays a card from its hand (a public reveal: it
scores the card's value), draws the top card of the pile into its hand (a private reveal;
an empty pile is made anew from the played cards, sealed and shuffled by every seat), or,
once per game, peeks at the top card of the pile (a private reveal that moves nothing).
The game ends when every seat has played two cards; the highest total wins, ties share.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from pbem.ruleset.rules import (
    Decision,
    Model,
    Over,
    Reshuffle,
    Result,
    Reveal,
    RulesError,
    Ruleset,
    Turn,
)

CARDS = [f"secretcard{n:02d}" for n in range(1, 17)]
PLAYS = 2


class Play(Model):
    type: Literal["play"] = "play"
    card: str


class Draw(Model):
    type: Literal["draw"] = "draw"


class Peek(Model):
    type: Literal["peek"] = "peek"


Action = Annotated[Play | Draw | Peek, Field(discriminator="type")]


class PeekState(Model):
    pile: list[str]
    hands: list[list[str]]
    scores: list[int]
    played: list[list[str]]
    peeked: list[bool]
    dealing: int = 0
    turn: int = 0
    pending: Reveal | Reshuffle | None = None
    faces: dict[str, str] = Field(default_factory=dict)
    discard: list[str] = Field(default_factory=list)
    """Played cards, face up: the next pile when the pile runs out."""
    piles: int = 1


class PeekGame(Ruleset):
    id = "peek"
    version = "1"
    title = "Peek (test ruleset for sealed decks)"
    min_seats = 2
    max_seats = 6
    State = PeekState
    Action = Action

    def sealed_decks(self, options: Mapping[str, Any], seats: int) -> dict[str, list[str]]:
        return {"cards": list(CARDS)}

    def setup(self, options: Mapping[str, Any], seats: int) -> PeekState:
        pile = [f"cards/{i}" for i in range(len(CARDS))]
        hands = [[pile.pop(0), pile.pop(0)] for _ in range(seats)]
        return PeekState(
            pile=pile,
            hands=hands,
            scores=[0] * seats,
            played=[[] for _ in range(seats)],
            peeked=[False] * seats,
            pending=Reveal(items=hands[0], to=0),
        )

    def pending(self, state: PeekState) -> Decision:
        if state.pending is not None:
            return state.pending
        if all(len(p) == PLAYS for p in state.played):
            best = max(state.scores)
            winners = [s for s, v in enumerate(state.scores) if v == best]
            return Over(result=Result(scores=state.scores, winners=winners))
        return Turn(seat=state.turn, prompt="play a card, draw, or peek")

    def legal_actions(self, state: PeekState, seat: int) -> list[Any]:
        if state.pending is not None or seat != state.turn:
            return []
        out: list[Any] = [Play(card=h) for h in state.hands[seat]]
        if state.pile or state.discard:
            out.append(Draw())
        if state.pile and not state.peeked[seat]:
            out.append(Peek())
        return out

    def check(self, state: PeekState, seat: int, action: Any) -> None:
        if action not in self.legal_actions(state, seat):
            raise RulesError(f"P-1: {self.format_action(state, seat, action)} is not legal now")

    def apply(self, state: PeekState, seat: int, action: Any) -> PeekState:
        new = state.model_copy(deep=True)
        if isinstance(action, Play):
            new.hands[seat].remove(action.card)
            new.played[seat].append(action.card)
            new.pending = Reveal(items=[action.card])
        elif isinstance(action, Draw) and not new.pile:
            new.piles += 1
            new.pending = Reshuffle(deck=f"cards{new.piles}", items=sorted(new.discard))
            new.discard = []
        elif isinstance(action, Draw):
            self._draw(new, seat)
        else:
            new.peeked[seat] = True
            new.pending = Reveal(items=[new.pile[0]], to=seat)
        return new

    @staticmethod
    def _draw(state: PeekState, seat: int) -> None:
        card = state.pile.pop(0)
        state.hands[seat].append(card)
        state.pending = Reveal(items=[card], to=seat)

    def apply_reshuffle(self, state: PeekState, reshuffle: Reshuffle) -> PeekState:
        new = state.model_copy(deep=True)
        new.pile = [f"{reshuffle.deck}/{i}" for i in range(len(reshuffle.items))]
        self._draw(new, new.turn)
        return new

    def apply_reveal(
        self, state: PeekState, reveal: Reveal, faces: Mapping[str, str] | None
    ) -> PeekState:
        new = state.model_copy(deep=True)
        new.pending = None
        if new.dealing < len(new.hands):  # still dealing: next seat's hand
            new.dealing += 1
            if new.dealing < len(new.hands):
                new.pending = Reveal(items=new.hands[new.dealing], to=new.dealing)
            return new
        if faces is not None:
            new.faces.update(faces)
            for card in faces.values():
                new.scores[new.turn] += int(card.removeprefix("secretcard"))
                new.discard.append(card)
            new.turn = self._next(new)
        return new

    @staticmethod
    def _next(state: PeekState) -> int:
        n = len(state.hands)
        for step in range(1, n + 1):
            seat = (state.turn + step) % n
            if len(state.played[seat]) < PLAYS:
                return seat
        return state.turn

    def parse_action(self, state: PeekState, seat: int, text: str) -> Any:
        words = text.split()
        if len(words) == 2 and words[0] == "play":
            return Play(card=words[1])
        if words == ["draw"]:
            return Draw()
        if words == ["peek"]:
            return Peek()
        raise RulesError(f"expected 'play cards/N', 'draw' or 'peek', not {text!r}")

    def format_action(self, state: PeekState, seat: int, action: Any) -> str:
        return f"play {action.card}" if isinstance(action, Play) else action.type
