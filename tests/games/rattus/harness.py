"""A stand-in for the engine that plays the Rattus rules directly.

It knows the face of every handle (a seeded permutation of each sealed deck, as the
engine's shuffle would give, also for region decks made anew), answers a public ``Reveal``
with faces and a private one with None (the rules must never need a private face), a
``Reshuffle`` with a new permuted deck, and a ``Chance`` with ``Rng(seed)``. It remembers
what each seat was shown privately, as the engine's ``private_knowledge`` would.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from pbem.crypto.randomness import Rng
from pbem.games.rattus import Rattus, State, diplomats, regiondeck
from pbem.games.rattus import data as rattus_data
from pbem.games.rattus.setup import class_count
from pbem.games.rattus.state import Options
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import Chance, Decision, Over, Parallel, Reshuffle, Reveal, Turn

RULES = Rattus()
OPTIONS = RULES.parse_options({})
AFRICANUS = RULES.parse_options({"africanus": "on"})


def rng(seed: int, label: str = "") -> Rng:
    return Rng(hashlib.sha256(f"rattus-test/{seed}/{label}".encode()).digest())


def options(africanus: bool, classes: str | None = None) -> dict[str, Any]:
    raw = {"africanus": "on" if africanus else "off"}
    if classes:
        raw["classes"] = classes
    return RULES.parse_options(raw)


def all_handles(opts: Mapping[str, Any] = OPTIONS, seats: int = 2) -> list[str]:
    """Every rat token handle of a game (the token decks do not depend on the seats)."""
    decks = RULES.sealed_decks(opts, seats)
    return [
        f"{deck}/{i}"
        for deck, items in decks.items()
        if deck != regiondeck.DECK
        for i in range(len(items))
    ]


def face(
    threshold: int, icons: list[str], *, m: bool = False, a: bool = False, x: bool = False
) -> str:
    """The id of a non-starting token with exactly this face (``x``: from the Africanus
    set), so a test says what it needs."""
    for t in rattus_data.tokens(x).tokens:
        if (t.threshold, sorted(t.icons), t.majority, t.all, t.start) == (
            threshold,
            sorted(icons),
            m,
            a,
            False,
        ):
            return t.id
    raise LookupError(f"no token {threshold} {icons} M={m} A={a} in the data")


def region_card(region: str, icons: list[str]) -> str:
    """The id of the region card naming ``region`` with exactly these icons."""
    for card in rattus_data.region_cards().values():
        if card.region == region and sorted(card.icons) == sorted(icons):
            return card.id
    raise LookupError(f"no region card {region} {icons} in the data")


Chooser = Callable[[State, int, Mapping[str, str], Rng], Any]
"""Picks a seat's answer to a parallel decision, knowing what the seat privately saw."""


def protect_knowingly(s: State, seat: int, known: Mapping[str, str], pick: Rng) -> Any:
    """A random choice among the answers the seat's own ``pbem`` would let it sign."""
    return RULES.random_action(s, seat, pick, known)


class Table:
    """A state plus the faces of its handles; ``act`` plays notation like a player would."""

    def __init__(self, state: State, faces: Mapping[str, str], chance: Rng | None = None) -> None:
        self.state = state
        self.faces = dict(faces)
        self.chance = chance or rng(0, "chance")
        self.private: list[tuple[int, list[str]]] = []
        self.settle()

    @classmethod
    def new(cls, seats: int, seed: int, opts: Mapping[str, Any] = OPTIONS) -> Table:
        decks = RULES.sealed_decks(opts, seats)
        faces = {
            f"{deck}/{i}": item
            for deck, items in decks.items()
            for i, item in enumerate(rng(seed, deck).shuffle(items))
        }
        return cls(RULES.setup(opts, seats), faces, rng(seed, "chance"))

    @property
    def decision(self) -> Decision:
        return RULES.pending(self.state)

    def known(self, seat: int) -> dict[str, str]:
        """What ``seat`` was shown privately (its ``pbem status --as``)."""
        return {h: self.faces[h] for to, items in self.private if to == seat for h in items}

    def knowledge(self, seat: int) -> Knowledge:
        return Knowledge(seat, self.known(seat))

    def step(self) -> None:
        """Answer one Chance, Reveal or Reshuffle, as the engine would."""
        d = self.decision
        if isinstance(d, Chance):
            self.state = RULES.resolve_chance(self.state, self.chance)
        elif isinstance(d, Reveal) and d.to is None:
            self.state = RULES.apply_reveal(self.state, d, {h: self.faces[h] for h in d.items})
        elif isinstance(d, Reveal):
            self.private.append((d.to, d.items))
            self.state = RULES.apply_reveal(self.state, d, None)
        elif isinstance(d, Reshuffle):
            shuffled = self.chance.shuffle(d.items)
            self.faces.update({f"{d.deck}/{i}": item for i, item in enumerate(shuffled)})
            self.state = RULES.apply_reshuffle(self.state, d)
        else:
            raise AssertionError(f"no engine step for {d}")

    def settle(self) -> None:
        while not isinstance(self.decision, Turn | Parallel | Over):
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

    def react(self, answers: Mapping[int, str]) -> State:
        """Answer the awaited parallel decision, each seat's line checked like the engine:
        publicly, and privately against what the seat was shown."""
        d = self.decision
        assert isinstance(d, Parallel), f"no parallel decision awaited: {d}"
        actions = {}
        for seat, line in answers.items():
            actions[seat] = RULES.parse_action(self.state, seat, line)
            RULES.check(self.state, seat, actions[seat])
            RULES.check_private(self.state, seat, actions[seat], self.known(seat))
        self.state = RULES.apply_parallel(self.state, actions)
        self.settle()
        return self.state

    def play(
        self,
        bots: list[str],
        watch: Callable[[State], None],
        max_steps: int = 8000,
        chooser: Chooser | None = protect_knowingly,
    ) -> State:
        """Play to the end with the named bots, calling ``watch`` after every step; parallel
        decisions go to ``chooser`` (None: the bots answer them)."""
        known = RULES.bots()
        bot_rng = [rng(i, "bot") for i in range(self.state.seats)]
        for _ in range(max_steps):
            d = self.decision
            if isinstance(d, Over):
                return self.state
            if isinstance(d, Turn):
                bot = known[bots[d.seat % len(bots)]]
                action = bot(RULES, self.state, d.seat, self.knowledge(d.seat), bot_rng[d.seat])
                RULES.check(self.state, d.seat, action)
                self.state = RULES.apply(self.state, d.seat, action)
            elif isinstance(d, Parallel):
                answers = {}
                for seat in d.seats:
                    if chooser is None:
                        bot = known[bots[seat % len(bots)]]
                        mind = self.knowledge(seat)
                        answers[seat] = bot(RULES, self.state, seat, mind, bot_rng[seat])
                    else:
                        answers[seat] = chooser(self.state, seat, self.known(seat), bot_rng[seat])
                    RULES.check(self.state, seat, answers[seat])
                self.state = RULES.apply_parallel(self.state, answers)
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
    opts: Mapping[str, Any] = OPTIONS,
) -> State:
    """A hand-built position in the middle of ``active``'s turn. Cubes not on the board or
    in the palace are in the supply; tokens not on the board are in the supply unless
    ``supply`` says otherwise (the rest are then removed unseen). With Africanus the class
    cards in play are those named in ``cards`` (or the base six), the hands are dealt and
    shown, and diplomats lie beside the board when the Sultan is in play."""
    tokens, cubes, cards = tokens or {}, cubes or {}, cards or {}
    parsed = Options.model_validate(dict(opts))
    if parsed.africanus and parsed.classes is None:
        every = [c.name for c in rattus_data.class_cards()]
        names = list(cards)
        names += [n for n in every if n not in names][: max(class_count(seats) - len(names), 0)]
        parsed.classes = [n for n in every if n in names]
    s = RULES.setup(parsed.model_dump(exclude_none=True), seats)
    for r in s.regions:
        r.tokens = list(tokens.get(r.name, []))
        r.cubes = list(cubes.get(r.name, [0] * seats))
    placed = [h for r in s.regions for h in r.tokens]
    rest = [h for h in all_handles(opts) if h not in placed]
    s.token_supply = rest if supply is None else list(supply)
    s.removed = [h for h in rest if h not in s.token_supply]
    for c in s.cards:
        c.holder = cards.get(c.name)
    s.palace = list(palace or [0] * seats)
    s.cube_supply = [20 - s.palace[i] - sum(r.cubes[i] for r in s.regions) for i in range(seats)]
    s.plague, s.start_player, s.active = plague, 0, active
    s.phase, s.turn = "turn", 1
    if s.africa is not None:
        s.africa.dealt = seats
        s.africa.caravan = s.regions[0].name if any(c.name == "Caravan" for c in s.cards) else None
    return State.model_validate(s.model_dump())


def check_invariants(s: State, faces: Mapping[str, str] | None = None) -> None:
    """Cubes and tokens are conserved; no region holds more than 3 tokens; with Africanus
    every region card is in one place and the diplomats are conserved and under cubes."""
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
    assert sorted(places) == sorted(all_handles(s.options.model_dump())), "token lost or invented"
    assert max(places.values()) == 1, "a token handle is in two places"
    assert all(len(r.tokens) <= 3 for r in s.regions)
    if s.africa is not None:
        assert faces is not None, "the region cards need the faces of their handles"
        _region_cards(s, faces)
        _diplomats(s)


def _region_cards(s: State, faces: Mapping[str, str]) -> None:
    """T-7 issue: every region card is in exactly one of deck, hands, discards, played (or
    in the three cards an Astronomer or Explorer is drawing)."""
    table = s.africa
    assert table is not None
    handles = table.deck + [h for hand in table.hands for h in hand]
    if s.resolution is not None:
        handles += [p.card for p in s.resolution.played]
    if table.draw is not None:
        handles += [h for h in table.draw.cards if h != table.draw.kept]
    assert len(set(handles)) == len(handles), "a region card handle is in two places"
    cards = Counter([faces[h] for h in handles] + table.discards)
    assert cards == Counter(regiondeck.card_ids(s.seats)), "a region card was lost or copied"


def _diplomats(s: State) -> None:
    table = s.africa
    assert table is not None
    total = table.diplomat_supply + sum(map(len, table.diplomats)) + sum(table.palace_diplomats)
    sultan = any(c.name == "Sultan" for c in s.cards)
    assert total == (diplomats.SUPPLY if sultan else 0), "a diplomat was lost or invented"
    for seat, names in enumerate(table.diplomats):
        assert len(set(names)) == len(names), "two diplomats of one player in one region"
        assert all(next(r for r in s.regions if r.name == n).cubes[seat] for n in names)


def africa_table(
    seats: int = 3,
    *,
    hands: Mapping[int, list[str]] | None = None,
    classes: list[str] | None = None,
    faces: Mapping[str, str] | None = None,
    **where: Any,
) -> Table:
    """A hand-built Africanus position (see ``position``): ``hands`` gives the region card
    ids in each seat's hand (other hands are empty), shown to their holders; the other
    cards of the regions in use lie in the deck in id order. ``classes`` fixes the class
    cards in play (default: those held, then the base six)."""
    opts = options(True, ",".join(classes) if classes else None)
    s = position(seats, opts=opts, **where)
    hands = hands or {}
    held = [card for seat in range(seats) for card in hands.get(seat, [])]
    rest = [c for c in regiondeck.card_ids(seats) if c not in held]
    handles = [f"{regiondeck.DECK}/{i}" for i in range(len(held) + len(rest))]
    table = s.africa
    assert table is not None
    cursor = 0
    for seat in range(seats):
        count = len(hands.get(seat, []))
        table.hands[seat] = handles[cursor : cursor + count]
        cursor += count
    table.deck = handles[cursor:]
    shown = dict(zip(handles, held + rest, strict=True))
    t = Table(State.model_validate(s.model_dump()), {**shown, **(faces or {})})
    t.private = [(seat, list(hand)) for seat, hand in enumerate(table.hands) if hand]
    return t
