"""The plague (T-5 C.2–4) and resolving a region (T-7).

A token's face enters the rules only through a public reveal: ``reveal_face`` applies it
from the state at that moment, so cubes lost to one token change the count the next token
is measured against, and the class cards count as they are held at the reveal.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement

from pbem.core.rules import RulesError
from pbem.games.rattus import data
from pbem.games.rattus.abilities import MAX_TOKENS
from pbem.games.rattus.actions import RevealToken, Spread
from pbem.games.rattus.state import (
    Resolution,
    RevealedToken,
    Spreading,
    State,
    board_of,
    region,
)


def arrive(s: State, name: str) -> None:
    """T-5 C.2–3: a plague region without tokens ends the turn's plague; otherwise 1 new
    token (2 if it holds 2 or 3) spreads to its neighbours, as many as fit (R-5.3)."""
    plague_region = region(s, name)
    if not plague_region.tokens:
        return
    wanted = 1 if len(plague_region.tokens) == 1 else 2
    count = min(wanted, len(s.token_supply), sum(_room(s, name).values()))
    if count:
        s.spread = Spreading(region=name, count=count)
    else:
        start_resolution(s, name)


def _room(s: State, name: str) -> dict[str, int]:
    """Free places for tokens in each neighbour of ``name`` that has any."""
    room = {n: MAX_TOKENS - len(region(s, n).tokens) for n in board_of(s).neighbours(name)}
    return {n: free for n, free in room.items() if free > 0}


def spread_actions(s: State) -> Iterator[Spread]:
    assert s.spread is not None
    room = _room(s, s.spread.region)
    for combo in combinations_with_replacement(sorted(room), s.spread.count):
        if all(combo.count(n) <= free for n, free in room.items()):
            yield Spread(regions=list(combo))


def do_spread(s: State, action: Spread) -> None:
    """T-5 C.3: the player on turn puts the new tokens into neighbours of the plague
    region (several into one allowed), never above 3 tokens; then resolve (C.4)."""
    spreading = s.spread
    assert spreading is not None
    if len(action.regions) != spreading.count:
        raise RulesError(f"T-5 C.3: place {spreading.count} new token(s), one region for each")
    room = _room(s, spreading.region)
    for name in sorted(set(action.regions)):
        region(s, name)
        if not board_of(s).adjacent(spreading.region, name):
            raise RulesError(f"T-5 C.3: {name} is not a neighbour of {spreading.region}")
        if action.regions.count(name) > room.get(name, 0):
            raise RulesError(f"T-5 C.3: {name} would hold more than {MAX_TOKENS} tokens")
    for name in action.regions:
        region(s, name).tokens.append(s.token_supply.pop(0))
    s.spread = None
    start_resolution(s, spreading.region)


def start_resolution(s: State, name: str) -> None:
    """T-5 C.4 / T-9.3: resolve ``name`` if it has tokens and cubes (nothing happens
    otherwise: T-7.4 would stop at once)."""
    r = region(s, name)
    if r.tokens and any(r.cubes):
        s.resolution = Resolution(region=name)


def token_actions(s: State) -> Iterator[RevealToken]:
    assert s.resolution is not None
    for token in region(s, s.resolution.region).tokens:
        yield RevealToken(token=token)


def do_choose_token(s: State, action: RevealToken) -> None:
    """T-7: the player on turn picks the token to reveal next [ruling], one at a time."""
    assert s.resolution is not None
    if action.token not in region(s, s.resolution.region).tokens:
        raise RulesError(f"T-7: {action.token} is not a token of {s.resolution.region}")
    s.resolution.next = action.token


def reveal_face(s: State, handle: str, face_id: str) -> None:
    """T-7.1–7.4: apply one revealed token, from the state at this moment, and discard it."""
    resolution = s.resolution
    assert resolution is not None and resolution.next == handle
    face = data.faces().get(face_id)
    if face is None:
        raise RulesError(f"T-7: {face_id!r} is not a rat token")
    if face.start != handle.startswith("start/") or any(t.face == face_id for t in s.revealed):
        raise RulesError(f"T-7: {face_id} cannot be the face of {handle}")
    r = region(s, resolution.region)
    broke_out = sum(r.cubes) >= face.threshold
    hits = _hits(s, r.cubes, face) if broke_out else [0] * s.seats
    losses = [min(hit, cubes) for hit, cubes in zip(hits, r.cubes, strict=True)]
    for seat, lost in enumerate(losses):
        r.cubes[seat] -= lost
        s.cube_supply[seat] += lost
    r.tokens.remove(handle)
    s.revealed.append(
        RevealedToken(
            handle=handle, face=face_id, region=r.name, broke_out=broke_out, losses=losses
        )
    )
    resolution.next = None
    if not r.tokens or not any(r.cubes):
        s.resolution = None


def _hits(s: State, cubes: list[int], face: data.TokenFace) -> list[int]:
    """T-7.2: each icon hits the holder of every card of its class, once per card; M the
    players with the most cubes there (all tied); A everyone with a cube there."""
    hits = [0] * s.seats
    icons = {c.name: c.icon for c in data.class_cards()}
    for icon in face.icons:
        for card in s.cards:
            if card.holder is not None and icons[card.name] == icon:
                hits[card.holder] += 1
    most = max(cubes)
    for seat, n in enumerate(cubes):
        if n:
            hits[seat] += int(face.majority and n == most) + int(face.all)
    return hits
