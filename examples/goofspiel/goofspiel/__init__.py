"""Goofspiel for pbem: a game written on pbem's public API alone (``from pbem import ...``).

Each round a prize card is turned up from a deck nobody has seen (a sealed deck, shuffled
by every player: a hidden draw), then every player bids a card of their hand in secret (a
sealed simultaneous decision); the highest bid alone wins the prize. The rules this code
plays are in ``rules.md`` beside it, by numbered section (``G-3.3``); every error cites one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from pbem import (
    Bot,
    Decision,
    Knowledge,
    Model,
    OptionHelp,
    Over,
    Parallel,
    Result,
    Reveal,
    Rng,
    RulesError,
    Ruleset,
)

DECK = "prizes"


def prize_id(value: int) -> str:
    """The item id of the prize card worth ``value`` in the sealed deck: ``prize07``."""
    return f"prize{value:02d}"


# --8<-- [start:models]
class Bid(Model):
    """An action: the card of one's hand bid for the prize (G-3.2)."""

    card: Annotated[int, Field(ge=1, le=13)]


class GoofspielOptions(Model):
    """The options as the genesis holds them."""

    cards: Annotated[int, Field(ge=3, le=13)]


class GoofspielState(Model):
    """The table: everything in it is public. The bids are not: the engine keeps them
    sealed until every player has bid, and only then calls ``apply_parallel``."""

    cards: int
    hands: list[list[int]]
    prizes: list[str]
    """Handles of the prize cards still face down, top first (``prizes/4``): their faces
    are known to nobody until they are revealed (G-2.1)."""
    prize: int | None = None
    """The prize turned up this round (G-3.1)."""
    round: int = 0
    scores: list[int]
    bids: list[int] = Field(default_factory=list)
    """Last round's bids, by seat, once revealed."""
    phase: Literal["reveal", "bid", "over"] = "reveal"


# --8<-- [end:models]


# --8<-- [start:class]
class Goofspiel(Ruleset):
    id = "goofspiel"
    version = "1"
    title = "Goofspiel"
    min_seats = 2
    max_seats = 4
    State = GoofspielState
    Action = Bid
    options_model = GoofspielOptions
    # --8<-- [end:class]

    # ----- options and setup -----------------------------------------------------------

    # --8<-- [start:options]
    def options_help(self) -> list[OptionHelp]:
        return [OptionHelp(name="cards", values="3-13", default="13", help="G-1.1: cards a hand")]

    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        unknown = set(raw) - {"cards"}
        if unknown:
            raise RulesError(f"unknown option {sorted(unknown)[0]!r} (known: cards)")
        text = raw.get("cards", "13")
        if not (text.isascii() and text.isdigit() and 3 <= int(text) <= 13):
            raise RulesError("G-1.1: option cards takes a whole number from 3 to 13")
        return {"cards": int(text)}

    def sealed_decks(self, options: Mapping[str, Any], seats: int) -> dict[str, list[str]]:
        return {DECK: [prize_id(v) for v in range(1, options["cards"] + 1)]}

    # --8<-- [end:options]

    # --8<-- [start:setup]
    def setup(self, options: Mapping[str, Any], seats: int) -> GoofspielState:
        n = options["cards"]
        return GoofspielState(
            cards=n,
            hands=[list(range(1, n + 1)) for _ in range(seats)],
            prizes=[f"{DECK}/{i}" for i in range(n)],
            scores=[0] * seats,
        )

    # --8<-- [end:setup]

    # ----- the state machine -----------------------------------------------------------

    # --8<-- [start:pending]
    def pending(self, state: GoofspielState) -> Decision:
        if state.phase == "reveal":
            return Reveal(items=state.prizes[:1])  # to everyone (G-3.1)
        if state.phase == "bid":
            return Parallel(
                seats=list(range(len(state.hands))),
                name="bid",
                sealed=True,
                prompt=f"G-3.2: bid a card for the prize of {state.prize}",
            )
        best = max(state.scores)
        winners = [seat for seat, score in enumerate(state.scores) if score == best]
        return Over(result=Result(scores=list(state.scores), winners=winners))

    # --8<-- [end:pending]

    # --8<-- [start:moves]
    def legal_actions(self, state: GoofspielState, seat: int) -> list[Any]:
        return [Bid(card=c) for c in state.hands[seat]] if state.phase == "bid" else []

    def check(self, state: GoofspielState, seat: int, action: Any) -> None:
        if state.phase != "bid":
            raise RulesError("G-3.2: there is no prize to bid for now")
        if action.card not in state.hands[seat]:
            raise RulesError(f"G-3.4: the {action.card} is not in your hand (bid it once)")

    def apply(self, state: GoofspielState, seat: int, action: Any) -> GoofspielState:
        raise RulesError("G-3.2: every bid is made at the same time")

    def apply_reveal(
        self, state: GoofspielState, reveal: Reveal, faces: Mapping[str, str] | None
    ) -> GoofspielState:
        assert faces is not None  # a public reveal (G-3.1)
        (handle,) = reveal.items
        new = state.model_copy(deep=True)
        new.prizes.remove(handle)
        new.prize = int(faces[handle].removeprefix("prize"))
        new.round += 1
        new.phase = "bid"
        return new

    def apply_parallel(self, state: GoofspielState, actions: Mapping[int, Any]) -> GoofspielState:
        new = state.model_copy(deep=True)
        new.bids = [actions[seat].card for seat in range(len(new.hands))]
        for hand, bid in zip(new.hands, new.bids, strict=True):
            hand.remove(bid)  # G-3.4
        top = max(new.bids)
        if new.bids.count(top) == 1:  # G-3.3: a tie for the highest wins nothing
            assert new.prize is not None
            new.scores[new.bids.index(top)] += new.prize
        new.phase = "reveal" if new.prizes else "over"  # G-4.1
        return new

    # --8<-- [end:moves]

    # ----- text --------------------------------------------------------------------------

    # --8<-- [start:text]
    def parse_action(self, state: GoofspielState, seat: int, text: str) -> Any:
        words = text.split()
        if len(words) != 2 or words[0] != "bid" or not (words[1].isascii() and words[1].isdigit()):
            raise RulesError(f"G-3.2: expected 'bid N' (a card of your hand), not {text!r}")
        if not 1 <= int(words[1]) <= state.cards:
            raise RulesError(f"G-1.1: the cards are worth 1 to {state.cards}")
        return Bid(card=int(words[1]))

    def format_action(self, state: GoofspielState, seat: int, action: Any) -> str:
        return f"bid {action.card}"

    def notation_help(self, state: GoofspielState, seat: int) -> str:
        return "bid 7    (a card of your hand, for the prize turned up)"

    def consequences(
        self, before: GoofspielState, after: GoofspielState, names: list[str]
    ) -> list[str]:
        if before.phase != "bid" or after.phase == "bid":
            return []  # a prize turned up: the record says which
        top = max(after.bids)
        bids = ", ".join(f"{n} {b}" for n, b in zip(names, after.bids, strict=True))
        if after.bids.count(top) > 1:
            return [f"bids {bids}: a tie, the {before.prize} is discarded (G-3.3)"]
        return [f"bids {bids}: {names[after.bids.index(top)]} wins the {before.prize}"]

    def render_text(self, state: GoofspielState, names: list[str]) -> str:
        lines = [f"round {state.round} of {state.cards}, prize {state.prize}"]
        for name, hand, score in zip(names, state.hands, state.scores, strict=True):
            lines.append(f"  {name}: {score} points; hand {' '.join(map(str, hand))}")
        return "\n".join(lines)

    # --8<-- [end:text]

    # ----- bots --------------------------------------------------------------------------

    # --8<-- [start:bots]
    def bots(self) -> dict[str, Bot]:
        return {**super().bots(), "match": match}


def match(rules: Ruleset, state: GoofspielState, seat: int, knowledge: Knowledge, rng: Rng) -> Bid:
    """The ``match`` bot: bid the card worth the prize, or the nearest one in hand (the
    higher of two as near)."""
    prize = state.prize or 0
    return Bid(card=min(state.hands[seat], key=lambda c: (abs(c - prize), -c)))


# --8<-- [end:bots]
