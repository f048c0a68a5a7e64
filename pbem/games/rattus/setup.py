"""Setting up (T-3): sealed tokens into the regions, the setup draw, the starting cubes.

The engine seals and shuffles the token decks (and, with Africanus, the region cards)
before the rules see them, so a handle's position in its deck is already random: one
starting handle goes to each region in use by position, and hands are dealt by position,
with no draw. The setup draw then picks the plague's region and the start player, mixes the
supply (RULINGS.md, T-3) and, with Africanus, the class cards in play unless the creator
listed them (T-2).
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.crypto.randomness import Rng
from pbem.format.i18n import N_
from pbem.games.rattus import data, diplomats, regiondeck
from pbem.games.rattus.actions import Place
from pbem.games.rattus.africanus import CARAVAN, SULTAN
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
from pbem.ruleset.rules import RulesError

BASE_CLASSES = 6
"""Class cards in play: the six base ones, or with Africanus 6 of 10 with 2-4 players."""
BIG_GAME = 5
"""From 5 players (Africanus): North Africa, 8 class cards, 6 starting cubes, the Knight's
3 steps (T-1, T-2, T-3.8, T-6.4)."""
BIG_CLASSES = 8


def sealed_decks(options: Options, seats: int) -> dict[str, list[str]]:
    """Starting tokens and the other tokens are two decks, because starting tokens are
    marked on the back and go to the regions first (T-3.3); with Africanus the region cards
    of the regions in use are a third (T-3.5)."""
    faces = data.tokens(options.africanus).tokens
    decks = {
        "start": [t.id for t in faces if t.start],
        "tokens": [t.id for t in faces if not t.start],
    }
    if options.africanus:
        decks[regiondeck.DECK] = regiondeck.card_ids(seats)
    return decks


def class_count(seats: int) -> int:
    """T-2: class cards in play with Africanus."""
    return BIG_CLASSES if seats >= BIG_GAME else BASE_CLASSES


def start_cubes(s: State) -> int:
    """Cubes per starting placement (T-3.8): 2, or 3 with 5-6 players."""
    return 3 if s.seats >= BIG_GAME else 2


def class_names(words: list[str]) -> list[str]:
    """T-2: the class cards a creator lists, each a different one of the ten (a name or an
    unambiguous start of one, any case), in the data file's order."""
    known = [c.name for c in data.class_cards()]
    chosen = []
    for word in words:
        found = [n for n in known if n.lower().startswith(word.strip().lower())]
        if len(found) != 1 or not word.strip():
            raise RulesError(
                N_("T-2: {word!r} names no one class card ({known})").format(
                    word=word, known=", ".join(known)
                )
            )
        chosen += found
    if len(set(chosen)) != len(chosen):
        raise RulesError(N_("T-2: a class card is listed twice"))
    return [n for n in known if n in chosen]


def check_classes(options: Options, seats: int) -> None:
    """T-2: the creator's list names different class cards, as many as the players need."""
    if options.classes is None:
        return
    if not options.africanus:
        raise RulesError(N_("T-2: classes are chosen only with the Africanus expansion"))
    if class_names(options.classes) != options.classes:
        raise RulesError(N_("T-2: the class cards must be listed by name in the data file's order"))
    want = class_count(seats)
    if len(options.classes) != want:
        raise RulesError(
            N_("T-2: {seats} players play with {want} class cards, not {listed}").format(
                seats=seats, want=want, listed=len(options.classes)
            )
        )


def initial_state(options: Options, seats: int) -> State:
    """T-3.1-3.3 and T-3.5: cards in the supply, 20 cubes each, one starting token per
    region, and with Africanus the region cards dealt (opened to each holder next)."""
    check_classes(options, seats)
    regions = data.board(seats, options.africanus).regions
    decks = sealed_decks(options, seats)
    start = [f"start/{i}" for i in range(len(decks["start"]))]
    if len(start) < len(regions):
        raise RulesError(
            N_("T-3.3: {tokens} starting tokens for {regions} regions").format(
                tokens=len(start), regions=len(regions)
            )
        )
    s = State(
        options=options,
        seats=seats,
        regions=[
            RegionState(name=name, tokens=[start[i]], cubes=[0] * seats)
            for i, name in enumerate(regions)
        ],
        token_supply=start[len(regions) :] + [f"tokens/{i}" for i in range(len(decks["tokens"]))],
        cube_supply=[CUBES] * seats,
        palace=[0] * seats,
        cards=[],
        africa=regiondeck.initial(seats) if options.africanus else None,
    )
    if not options.africanus:
        _deal_classes(s, [c.name for c in data.class_cards() if c.expansion == "base"])
    elif options.classes is not None:
        _deal_classes(s, options.classes)
    return s


def _deal_classes(s: State, names: list[str]) -> None:
    """T-3.1, T-3.6: the class cards in play lie in the supply, in the data file's order;
    with the Sultan the diplomats lie beside the board."""
    s.cards = [CardState(name=c.name) for c in data.class_cards() if c.name in names]
    if s.africa is not None and SULTAN in names:
        s.africa.diplomat_supply = diplomats.SUPPLY


def draw_setup(s: State, rng: Rng) -> None:
    """T-2, T-3.4 and T-3.7: the setup draw. The leftover starting handles sit at known
    places in the supply; a public permutation mixes them in, so that they are removed and
    drawn like any other token (rulings T-3). Then the first tokens of the supply are removed
    unseen, and with Africanus the class cards are drawn unless the creator listed them."""
    n = s.seats
    s.plague = rng.choice(board_of(s).regions)
    s.start_player = rng.below(n)
    supply = rng.shuffle(s.token_supply)
    remove = data.tokens(s.options.africanus).remove_unseen[str(n)]
    s.removed, s.token_supply = supply[:remove], supply[remove:]
    if not s.cards:
        drawn = rng.shuffle([c.name for c in data.class_cards()])
        _deal_classes(s, drawn[: class_count(n)])
    clockwise = [(s.start_player + i) % n for i in range(n)]
    s.start_order = clockwise + clockwise[::-1]
    s.active = s.start_order[0]
    s.phase = "start"


def start_actions(s: State) -> Iterator[Place]:
    for r in s.regions:
        yield Place(region=r.name)


def place_start(s: State, seat: int, action: Place) -> None:
    """T-3.8: two cubes (three with 5-6 players) into any region in use; after the snake
    the caravan is placed (T-3.9) if it is in play, then the start player begins."""
    region(s, action.region).cubes[seat] += start_cubes(s)
    s.cube_supply[seat] -= start_cubes(s)
    s.start_order = s.start_order[1:]
    if s.start_order:
        s.active = s.start_order[0]
        return
    assert s.start_player is not None
    s.turn = 1
    s.progress = TurnProgress()
    if any(c.name == CARAVAN for c in s.cards):
        s.phase, s.active = "caravan", (s.start_player - 1) % s.seats
    else:
        s.phase, s.active = "turn", s.start_player
