"""Setting up (T-3): sealed tokens into the regions, the setup draw, the starting cubes.

The engine seals and shuffles the two token decks before the rules see them, so a handle's
position in its deck is already random: one starting handle goes to each region in use by
position, with no draw. The setup draw then picks the plague's region and the start player,
and mixes the supply (RULINGS.md, R-3).
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.core.randomness import Rng
from pbem.core.rules import RulesError
from pbem.games.rattus import data
from pbem.games.rattus.actions import Place
from pbem.games.rattus.state import (
    CUBES,
    CardState,
    Options,
    RegionState,
    State,
    TurnProgress,
    board_of,
    region,
)

START_CUBES = 2
"""Cubes per starting placement (T-3.8)."""


def sealed_decks() -> dict[str, list[str]]:
    """Starting tokens and the other tokens: two decks, because starting tokens are marked
    on the back and go to the regions first (T-3.3)."""
    faces = data.tokens().tokens
    return {
        "start": [t.id for t in faces if t.start],
        "tokens": [t.id for t in faces if not t.start],
    }


def initial_state(options: Options, seats: int) -> State:
    """T-3.1–3.3: cards in the supply, 20 cubes each, one starting token per region."""
    regions = data.board(seats).regions
    decks = sealed_decks()
    start = [f"start/{i}" for i in range(len(decks["start"]))]
    if len(start) < len(regions):
        raise RulesError(f"T-3.3: {len(start)} starting tokens for {len(regions)} regions")
    return State(
        options=options,
        seats=seats,
        regions=[
            RegionState(name=name, tokens=[start[i]], cubes=[0] * seats)
            for i, name in enumerate(regions)
        ],
        token_supply=start[len(regions) :] + [f"tokens/{i}" for i in range(len(decks["tokens"]))],
        cube_supply=[CUBES] * seats,
        palace=[0] * seats,
        cards=[CardState(name=c.name) for c in data.class_cards()],
    )


def draw_setup(s: State, rng: Rng) -> None:
    """T-3.4 and T-3.7: the setup draw. The leftover starting handles sit at known places
    in the supply; a public permutation mixes them in, so that they are removed and drawn
    like any other token (R-3). Then the first tokens of the supply are removed unseen."""
    n = s.seats
    s.plague = rng.choice(board_of(s).regions)
    s.start_player = rng.below(n)
    supply = rng.shuffle(s.token_supply)
    remove = data.tokens().remove_unseen[str(n)]
    s.removed, s.token_supply = supply[:remove], supply[remove:]
    clockwise = [(s.start_player + i) % n for i in range(n)]
    s.start_order = clockwise + clockwise[::-1]
    s.active = s.start_order[0]
    s.phase = "start"


def start_actions(s: State) -> Iterator[Place]:
    for r in s.regions:
        yield Place(region=r.name)


def place_start(s: State, seat: int, action: Place) -> None:
    """T-3.8: two cubes into any region in use; after the snake the start player begins."""
    region(s, action.region).cubes[seat] += START_CUBES
    s.cube_supply[seat] -= START_CUBES
    s.start_order = s.start_order[1:]
    if s.start_order:
        s.active = s.start_order[0]
        return
    assert s.start_player is not None
    s.phase = "turn"
    s.active = s.start_player
    s.turn = 1
    s.progress = TurnProgress()
