"""How much a region's rats threaten each player: the estimates the bots play by.

A face-down token breaks out when the region holds at least its threshold in cubes, then
hits class-card holders through its icons, the majority through M and everyone there
through A (T-7.1, T-7.2). Without seeing a face, a bot weighs every face of the game's
token set equally (``Odds``); a face it has seen privately (its Witch's look, T-6.5) it
counts as it is. A region is struck when the plague resolves it: soon if it lies next to
the plague piece, surely in the final plague (``exposure``). These are rough numbers for
quick choices, not rules: the rules never read them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from pbem.games.rattus import data
from pbem.games.rattus.state import RegionState, State, board_of, cards_of, faces_of

MOST_CUBES = 6 * 20
"""No region can hold more cubes than all players own (T-1)."""
NEXT_TO_PLAGUE, TWO_STEPS, FARTHER = 0.6, 0.25, 0.08
"""The chance that a region is resolved before a player's next turn, by its distance from
the plague piece (a guess: the next players move the plague where it hurts others)."""
ENDING_TOKENS = 8
"""Tokens left in the supply when the end begins to loom (``ending``)."""


Cubes = list[int] | None
"""Cube counts of a region by seat, as a choice would leave them (None: as they are)."""
Tokens = list[str | None] | None
"""Token handles in a region, None for an unseen one from the supply (None: as they are)."""


@dataclass(frozen=True)
class Odds:
    """For ``n`` cubes in a region, the chance that an unseen token breaks out and hits
    through an icon (``icon[icon][n]``), through M (``majority[n]``), through A (``all[n]``)."""

    icon: Mapping[str, tuple[float, ...]]
    majority: tuple[float, ...]
    all: tuple[float, ...]


@cache
def odds(africanus: bool) -> Odds:
    tokens = data.tokens(africanus).tokens

    def chance(hit: Callable[[data.TokenFace], bool]) -> tuple[float, ...]:
        return tuple(
            sum(1 for t in tokens if t.threshold <= n and hit(t)) / len(tokens)
            for n in range(MOST_CUBES + 1)
        )

    every = sorted({icon for t in tokens for icon in t.icons})
    return Odds(
        icon={i: chance(lambda t, i=i: i in t.icons) for i in every},
        majority=chance(lambda t: t.majority),
        all=chance(lambda t: t.all),
    )


class View:
    """One player's estimates on one state: what each token may cost each player where it
    lies, or would cost elsewhere, with cube counts changed as a choice would change them.
    ``known`` maps token handles to the faces the player has seen."""

    def __init__(self, s: State, seat: int, known: Mapping[str, str], final: bool = False) -> None:
        self.s, self.seat, self.known, self.final = s, seat, known, final
        self.odds = odds(s.options.africanus)
        self.faces = faces_of(s)
        icons = data.icons()
        self.icons = [[icons[c] for c in cards_of(s, k)] for k in range(s.seats)]
        self.regions = {r.name: r for r in s.regions}
        self.where = {t: r.name for r in s.regions for t in r.tokens}
        self._exposure: dict[str, float] = {}
        self._loss: dict[tuple[int, str], float] = {}
        self.kept: dict[tuple[str, str], float] = {}
        """Numbers the bots derive from this view, kept by what and where."""

    def region(self, name: str) -> RegionState:
        return self.regions[name]

    def exposure(self, name: str) -> float:
        """The chance that region ``name`` is resolved soon (see the constants above); 1 in
        a view of the final plague (``final``), which resolves every region with tokens."""
        if name not in self._exposure:
            self._exposure[name] = _exposure(self.s, name, self.final)
        return self._exposure[name]

    def token(
        self, who: int, token: str | None, cubes: list[int], also: str | None = None
    ) -> float:
        """Cubes ``who`` may expect to lose to one token (a handle, or None for an unseen
        token from the supply) in a region holding ``cubes``, if ``who`` also held a class
        card of icon ``also``."""
        mine = cubes[who]
        if not mine:
            return 0.0
        n = min(sum(cubes), MOST_CUBES)
        majority = mine == max(cubes)
        face_id = self.known.get(token) if token is not None else None
        face = self.faces.get(face_id) if face_id is not None else None
        if face is not None:
            if face.threshold > n:
                return 0.0
            count = sum(1 for i in [*self.icons[who], also] if i in face.icons)
            return float(count + int(face.majority and majority) + int(face.all))
        odds = self.odds
        icon = sum(odds.icon[i][n] for i in [*self.icons[who], also] if i in odds.icon)
        return icon + (odds.majority[n] if majority else 0.0) + odds.all[n]

    def loss(self, who: int, name: str, cubes: Cubes = None, tokens: Tokens = None) -> float:
        """Cubes ``who`` may expect to lose if region ``name`` is resolved now, holding
        ``cubes`` and ``tokens`` (default: as they are)."""
        r = self.regions[name]
        if cubes is None and tokens is None:  # asked often: kept
            if (who, name) not in self._loss:
                self._loss[who, name] = self.loss(who, name, r.cubes, r.tokens)
            return self._loss[who, name]
        cubes = r.cubes if cubes is None else cubes
        tokens = r.tokens if tokens is None else tokens
        if not cubes[who]:
            return 0.0
        expected = sum(self.token(who, t, cubes) for t in tokens)
        return min(expected, float(cubes[who]))

    def risk(self, who: int, name: str, cubes: Cubes = None, tokens: Tokens = None) -> float:
        """``loss`` weighed by the chance that the region is resolved soon."""
        return self.exposure(name) * self.loss(who, name, cubes, tokens)

    def others(self, name: str, cubes: Cubes = None, tokens: Tokens = None) -> float:
        """The risk of all the other players in ``name``, together."""
        return sum(self.risk(k, name, cubes, tokens) for k in range(self.s.seats) if k != self.seat)

    def balance(self, name: str, cubes: Cubes = None, tokens: Tokens = None) -> float:
        """What the others stand to lose in ``name``, less twice the player's own risk: a
        choice that raises it helps the player."""
        return self.others(name, cubes, tokens) - 2 * self.risk(self.seat, name, cubes, tokens)


def _exposure(s: State, name: str, final: bool) -> float:
    if final or s.phase in ("final_round", "final_plague"):
        return 1.0
    if s.plague is None:
        return FARTHER
    b = board_of(s)
    near = b.neighbours(s.plague)
    if name in near:
        return NEXT_TO_PLAGUE
    if name == s.plague or any(name in b.neighbours(n) for n in near):
        return TWO_STEPS
    return FARTHER


def ending(s: State) -> float:
    """How near the end is (0 to 1): the game ends when the token supply runs out (T-9.1),
    and a turn draws up to 2 tokens."""
    return max(0.0, 1 - len(s.token_supply) / ENDING_TOKENS)
