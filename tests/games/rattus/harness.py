"""A stand-in for the engine that plays the Rattus rules directly.

It knows the face of every handle (a seeded permutation of each ``sealed_decks`` list, as
the engine's shuffle would give), answers a public ``Reveal`` with faces and a private one
with None (the rules must never need a private face), and a ``Chance`` with ``Rng(seed)``.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping

from pbem.core.randomness import Rng
from pbem.core.rules import Chance, Decision, Over, Reveal, Turn
from pbem.games.rattus import Rattus, State
from pbem.games.rattus import data as rattus_data

RULES = Rattus()
OPTIONS = RULES.parse_options({})


def rng(seed: int, label: str = "") -> Rng:
    return Rng(hashlib.sha256(f"rattus-test/{seed}/{label}".encode()).digest())


def all_handles() -> list[str]:
    decks = RULES.sealed_decks(OPTIONS, 2)
    return [f"{deck}/{i}" for deck, items in decks.items() for i in range(len(items))]


def face(threshold: int, icons: list[str], *, m: bool = False, a: bool = False) -> str:
    """The id of a non-starting token with exactly this face, so a test says what it needs."""
    for t in rattus_data.tokens().tokens:
        if (t.threshold, sorted(t.icons), t.majority, t.all, t.start) == (
            threshold,
            sorted(icons),
            m,
            a,
            False,
        ):
            return t.id
    raise LookupError(f"no token {threshold} {icons} M={m} A={a} in the data")


class Table:
    """A state plus the faces of its handles; ``act`` plays notation like a player would."""

    def __init__(self, state: State, faces: Mapping[str, str], chance: Rng | None = None) -> None:
        self.state = state
        self.faces = dict(faces)
        self.chance = chance or rng(0, "chance")
        self.private: list[tuple[int, list[str]]] = []
        self.settle()

    @classmethod
    def new(cls, seats: int, seed: int) -> Table:
        decks = RULES.sealed_decks(OPTIONS, seats)
        faces = {
            f"{deck}/{i}": item
            for deck, items in decks.items()
            for i, item in enumerate(rng(seed, deck).shuffle(items))
        }
        return cls(RULES.setup(OPTIONS, seats), faces, rng(seed, "chance"))

    @property
    def decision(self) -> Decision:
        return RULES.pending(self.state)

    def step(self) -> None:
        """Answer one Chance or Reveal, as the engine would."""
        d = self.decision
        if isinstance(d, Chance):
            self.state = RULES.resolve_chance(self.state, self.chance)
        elif isinstance(d, Reveal) and d.to is None:
            self.state = RULES.apply_reveal(self.state, d, {h: self.faces[h] for h in d.items})
        elif isinstance(d, Reveal):
            self.private.append((d.to, d.items))
            self.state = RULES.apply_reveal(self.state, d, None)
        else:
            raise AssertionError(f"no engine step for {d}")

    def settle(self) -> None:
        while not isinstance(self.decision, Turn | Over):
            self.step()

    def act(self, *lines: str) -> State:
        """Play each line as the seat that is awaited, checking it first like the engine."""
        for line in lines:
            d = self.decision
            assert isinstance(d, Turn), f"no turn awaited for {line!r}: {d}"
            action = RULES.parse_action(self.state, d.seat, line)
            RULES.check(self.state, d.seat, action)
            self.state = RULES.apply(self.state, d.seat, action)
            self.settle()
        return self.state

    def play(self, bots: list[str], watch: Callable[[State], None], max_steps: int = 5000) -> State:
        """Play to the end with the named bots, calling ``watch`` after every step."""
        known = RULES.bots()
        bot_rng = [rng(i, "bot") for i in range(self.state.seats)]
        for _ in range(max_steps):
            d = self.decision
            if isinstance(d, Over):
                return self.state
            if isinstance(d, Turn):
                action = known[bots[d.seat % len(bots)]](RULES, self.state, d.seat, bot_rng[d.seat])
                RULES.check(self.state, d.seat, action)
                self.state = RULES.apply(self.state, d.seat, action)
            else:
                self.step()
            watch(self.state)
        raise AssertionError(f"no end after {max_steps} steps")


def position(
    seats: int = 3,
    *,
    tokens: Mapping[str, list[str]] | None = None,
    cubes: Mapping[str, list[int]] | None = None,
    cards: Mapping[str, int] | None = None,
    plague: str = "Gallia",
    active: int = 0,
    supply: list[str] | None = None,
    palace: list[int] | None = None,
) -> State:
    """A hand-built position in the middle of ``active``'s turn. Cubes not on the board or
    in the palace are in the supply; tokens not on the board are in the supply unless
    ``supply`` says otherwise (the rest are then removed unseen)."""
    tokens, cubes, cards = tokens or {}, cubes or {}, cards or {}
    s = RULES.setup(OPTIONS, seats)
    for r in s.regions:
        r.tokens = list(tokens.get(r.name, []))
        r.cubes = list(cubes.get(r.name, [0] * seats))
    placed = [h for r in s.regions for h in r.tokens]
    rest = [h for h in all_handles() if h not in placed]
    s.token_supply = rest if supply is None else list(supply)
    s.removed = [h for h in rest if h not in s.token_supply]
    for c in s.cards:
        c.holder = cards.get(c.name)
    s.palace = list(palace or [0] * seats)
    s.cube_supply = [20 - s.palace[i] - sum(r.cubes[i] for r in s.regions) for i in range(seats)]
    s.plague, s.start_player, s.active = plague, 0, active
    s.phase, s.turn = "turn", 1
    return State.model_validate(s.model_dump())


def check_invariants(s: State) -> None:
    """Cubes and tokens are conserved; no region holds more than 3 tokens."""
    for seat in range(s.seats):
        on_board = sum(r.cubes[seat] for r in s.regions)
        assert s.cube_supply[seat] + on_board + s.palace[seat] == 20, (seat, s)
        assert min(s.cube_supply[seat], s.palace[seat], *(r.cubes[seat] for r in s.regions)) >= 0
    places = Counter(
        [h for r in s.regions for h in r.tokens]
        + s.token_supply
        + s.removed
        + [t.handle for t in s.revealed]
    )
    assert sorted(places) == sorted(all_handles()), "a token handle was lost or invented"
    assert max(places.values()) == 1, "a token handle is in two places"
    assert all(len(r.tokens) <= 3 for r in s.regions)
