"""The base class abilities that are steps of their own (T-6.2, T-6.3, T-6.5, T-6.6).

Each may be used once in a turn by the holder of its card, at any moment before C, and
once more in the final round (T-9.2). The Peasant and the Knight change placement and the
plague move, so they live in ``turn.py``; the Africanus classes live in ``africanus.py``.
As in ``turn.py``, each ``do_*`` function checks its action and then applies it to the
(copied) state. Cubes moved off a diplomat take it along (``diplomats.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from pbem.format.i18n import N_
from pbem.games.rattus import africanus, diplomats
from pbem.games.rattus.actions import Action, Keep, King, Merchant, Monk, Swap, Witch
from pbem.games.rattus.state import (
    State,
    WitchLook,
    board_of,
    board_tokens,
    can_use,
    region,
    spend,
    token_region,
)
from pbem.ruleset.rules import RulesError

PEASANT, MERCHANT, MONK, KNIGHT, WITCH, KING = (
    "Peasant",
    "Merchant",
    "Monk",
    "Knight",
    "Witch",
    "King",
)
"""The base class cards, by the names in ``data/rattus-classes.json``."""
MAX_TOKENS = 3
"""No region ever holds more than 3 tokens (T-5 C.3, T-6.3)."""
MERCHANT_CUBES = 3


def actions(s: State, seat: int) -> Iterator[Action]:
    """Every legal use of the class abilities by ``seat`` now (but the Peasant's and the
    Knight's, which are part of B and C)."""
    b = board_of(s)
    if can_use(s, seat, MERCHANT):
        for r in s.regions:
            for target in b.neighbours(r.name):
                for n in range(1, min(MERCHANT_CUBES, r.cubes[seat]) + 1):
                    for flag in diplomats.flags(s, seat, r.name, n, target):
                        yield Merchant(source=r.name, target=target, cubes=n, diplomat=flag)
    if can_use(s, seat, MONK):
        for r in s.regions:
            for target in b.neighbours(r.name):
                if len(region(s, target).tokens) < MAX_TOKENS:
                    for token in r.tokens:
                        yield Monk(token=token, target=target)
    if can_use(s, seat, WITCH):
        for pair in combinations(board_tokens(s), 2):
            yield Witch(tokens=list(pair))
    if can_use(s, seat, KING):
        for r in s.regions:
            if r.cubes[seat] and not r.tokens:
                for flag in diplomats.flags(s, seat, r.name, 1, None):
                    yield King(region=r.name, diplomat=flag)
    yield from africanus.actions(s, seat)


def do_merchant(s: State, seat: int, action: Merchant) -> None:
    """T-6.2: up to 3 of your cubes from one region to one neighbouring region."""
    spend(s, seat, MERCHANT, "T-6.2")
    source, target = region(s, action.source), region(s, action.target)
    if not board_of(s).adjacent(source.name, target.name):
        raise RulesError(
            N_("T-6.2: {target} is not a neighbour of {source}").format(
                target=target.name, source=source.name
            )
        )
    if not 1 <= action.cubes <= MERCHANT_CUBES:
        raise RulesError(
            N_("T-6.2: the Merchant moves 1 to {merchant_cubes} cubes").format(
                merchant_cubes=MERCHANT_CUBES
            )
        )
    if action.cubes > source.cubes[seat]:
        raise RulesError(
            N_("T-6.2: you have {cubes} cubes in {source}").format(
                cubes=source.cubes[seat], source=source.name
            )
        )
    diplomats.move(s, seat, source.name, action.cubes, action.diplomat, target.name)
    source.cubes[seat] -= action.cubes
    target.cubes[seat] += action.cubes


def do_monk(s: State, seat: int, action: Monk) -> None:
    """T-6.3: one token, unseen, to a neighbouring region that has room for it."""
    spend(s, seat, MONK, "T-6.3")
    source, target = token_region(s, action.token), region(s, action.target)
    if not board_of(s).adjacent(source.name, target.name):
        raise RulesError(
            N_("T-6.3: {target} is not a neighbour of {source}").format(
                target=target.name, source=source.name
            )
        )
    if len(target.tokens) >= MAX_TOKENS:
        raise RulesError(
            N_("T-6.3: {target} already holds {max_tokens} tokens").format(
                target=target.name, max_tokens=MAX_TOKENS
            )
        )
    source.tokens.remove(action.token)
    target.tokens.append(action.token)


def do_witch(s: State, seat: int, action: Witch) -> None:
    """T-6.5: look at two tokens on the board; the look itself is a private reveal."""
    spend(s, seat, WITCH, "T-6.5")
    if len(set(action.tokens)) != 2:
        raise RulesError(N_("T-6.5: the Witch looks at two different tokens"))
    for token in action.tokens:
        token_region(s, token)
    s.witch = WitchLook(tokens=action.tokens)


def witch_choices(s: State) -> Iterator[Swap | Keep]:
    """After the look: keep, and swap when the tokens lie in different regions (rulings T-6.5)."""
    yield Keep()
    if _can_swap(s):
        yield Swap()


def _can_swap(s: State) -> bool:
    assert s.witch is not None
    first, second = s.witch.tokens
    return token_region(s, first).name != token_region(s, second).name


def do_witch_choice(s: State, action: Swap | Keep) -> None:
    assert s.witch is not None
    if isinstance(action, Swap):
        if not _can_swap(s):
            raise RulesError(
                N_("T-6.5: both tokens lie in the same region; there is nothing to swap")
            )
        first, second = s.witch.tokens
        a, b = token_region(s, first), token_region(s, second)
        a.tokens[a.tokens.index(first)] = second
        b.tokens[b.tokens.index(second)] = first
    s.witch = None


def do_king(s: State, seat: int, action: King) -> None:
    """T-6.6: one of your cubes from a region without tokens to the palace; a cube on a
    diplomat takes it along, safe there (T-6.6 [ruling])."""
    spend(s, seat, KING, "T-6.6")
    source = region(s, action.region)
    if source.tokens:
        raise RulesError(
            N_("T-6.6: {source} has rat tokens; the King moves from a region without").format(
                source=source.name
            )
        )
    if not source.cubes[seat]:
        raise RulesError(N_("T-6.6: you have no cubes in {source}").format(source=source.name))
    diplomats.move(s, seat, source.name, 1, action.diplomat, None)
    source.cubes[seat] -= 1
    s.palace[seat] += 1
