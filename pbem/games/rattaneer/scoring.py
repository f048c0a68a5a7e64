"""Scoring (R-8): the free flip at the end, the score and its parts, the winners.

The score is a pure formula over public facts of the state, so ``render_text`` can show
"VP so far" at any moment and the final result is the same formula at the end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from pbem.format.i18n import N_
from pbem.games.rattaneer.actions import AnyAction, Flip, Pass
from pbem.games.rattaneer.cards import Bonus, CardSet
from pbem.games.rattaneer.state import Player, State
from pbem.ruleset.rules import Model, Result, RulesError

COINS_PER_VP = 2


class Score(Model):
    """The parts of R-8.2, in its order."""

    plunder: int
    companions: int
    island: int
    bonuses: int
    coins: int
    treasures: int

    @property
    def total(self) -> int:
        return sum(self.model_dump().values())


def score(state: State, cards: CardSet, seat: int) -> Score:
    player = state.players[seat]
    return Score(
        plunder=sum(cards.plunder_vp(c) for c in player.face_down),
        companions=sum(cards.companion(c).vp for c in player.companions),
        island=sum(v for s, v in zip(state.spots, cards.treasure_spots, strict=True) if s == seat),
        bonuses=sum(
            bonus.vp * (_bonus_count(state, seat, bonus) // bonus.per)
            for c in player.companions
            if (bonus := cards.companion(c).bonus) is not None
        ),
        coins=player.coins // COINS_PER_VP,
        treasures=sum(cards.treasure(c).vp for c in player.treasures),
    )


def _bonus_count(state: State, seat: int, bonus: Bonus) -> int:
    """The public fact a companion bonus reads (R-9.1); yes/no facts count 1 or 0."""
    player = state.players[seat]
    if bonus.counts == "face_down_plunder":
        return len(player.face_down)
    if bonus.counts == "other_companions":
        return len(player.companions) - 1
    if bonus.counts == "no_other_companion":
        return int(len(player.companions) == 1)
    if bonus.counts == "coins":
        return player.coins
    if bonus.counts == "ships_used":
        return player.ships_used
    if bonus.counts == "sea_areas_won":
        return len(player.areas_won)
    # most_island_henchmen [ruling: a tie shares it, but having none is not "the most"]
    held = Counter(s for s in state.spots if s is not None)
    return int(held[seat] > 0 and held[seat] == max(held.values()))


def result(state: State, cards: CardSet) -> Result:
    """R-8.3: most VP; then most coins; still tied, the win is shared."""
    scores = [score(state, cards, s).total for s in range(state.seats)]
    best = max(scores)
    tied = [s for s in range(state.seats) if scores[s] == best]
    richest = max(state.players[s].coins for s in tied)
    winners = [s for s in tied if state.players[s].coins == richest]
    who = " and ".join(f"seat {s}" for s in winners)
    how = f"{best} VP" + (f", {richest} coins" if len(tied) > 1 else "")
    verb = "wins" if len(winners) == 1 else "share the win"
    return Result(scores=scores, winners=winners, summary=f"{who} {verb} with {how}")


def begin_final(state: State) -> None:
    """R-8.1: ask the free flip of the seats holding face-up plunder; with none, the game
    is over at once. Mutates ``state``."""
    state.flip_seats = [s for s, p in enumerate(state.players) if p.face_up]
    state.phase = "final" if state.flip_seats else "over"


def check_final_flip(state: State, seat: int, action: AnyAction) -> None:
    if seat not in state.flip_seats:
        raise RulesError(
            N_("R-8.1: seat {seat} has no face-up plunder card to turn").format(seat=seat)
        )
    if isinstance(action, Pass):
        return
    if not isinstance(action, Flip):
        raise RulesError(N_("R-8.1: expected one face-up plunder card to turn, or pass"))
    if len(action.cards) != 1:
        raise RulesError(N_("R-8.1: the free flip turns exactly one card"))
    check_face_up(state.players[seat], action.cards, "R-8.1")


def final_flip(state: State, actions: Mapping[int, AnyAction]) -> None:
    """Carry out the checked free flips and end the game. Mutates ``state``."""
    for seat, action in actions.items():
        if isinstance(action, Flip):
            turn_face_down(state.players[seat], action.cards)
    state.flip_seats = []
    state.phase = "over"


def check_face_up(player: Player, cards: list[str], rule: str) -> None:
    """Refuse to turn cards the player does not have face up (counting copies)."""
    missing = Counter(cards) - Counter(player.face_up)
    if missing:
        raise RulesError(
            N_("{rule}: you have no (more) face-up {cards}").format(
                rule=rule, cards=" ".join(sorted(missing))
            )
        )


def turn_face_down(player: Player, cards: list[str]) -> None:
    for card in cards:
        player.face_up.remove(card)
    player.face_down = sorted(player.face_down + cards)
