"""The plague (T-5 C.2–4) and resolving a region (T-7).

A token's face enters the rules only through a public reveal; ``strike`` applies it from
the state at that moment, so cubes lost to one token change the count the next token is
measured against, and the class cards count as they are held at the reveal.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement

from pbem.format.i18n import N_
from pbem.format.words import plural
from pbem.games.rattus import data, diplomats, regiondeck
from pbem.games.rattus.abilities import MAX_TOKENS
from pbem.games.rattus.actions import RevealToken, Spread
from pbem.games.rattus.state import (
    Resolution,
    RevealedToken,
    Spreading,
    State,
    board_of,
    faces_of,
    region,
)
from pbem.ruleset.rules import RulesError


def arrive(s: State, name: str) -> None:
    """T-5 C.2–3: a plague region without tokens ends the turn's plague; otherwise 1 new
    token (2 if it holds 2 or 3) spreads to its neighbours, as many as fit (rulings T-5.C)."""
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
        count = plural(spreading.count, "new token")
        raise RulesError(N_("T-5 C.3: place {count}, one region for each").format(count=count))
    room = _room(s, spreading.region)
    for name in sorted(set(action.regions)):
        region(s, name)
        if not board_of(s).adjacent(spreading.region, name):
            raise RulesError(
                N_("T-5 C.3: {name} is not a neighbour of {region}").format(
                    name=name, region=spreading.region
                )
            )
        if action.regions.count(name) > room.get(name, 0):
            raise RulesError(
                N_("T-5 C.3: {name} would hold more than {max_tokens} tokens").format(
                    name=name, max_tokens=MAX_TOKENS
                )
            )
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
        raise RulesError(
            N_("T-7: {token} is not a token of {region}").format(
                token=action.token, region=s.resolution.region
            )
        )
    s.resolution.next = action.token


def reveal_face(s: State, handle: str, face_id: str) -> None:
    """T-7: the awaited token is public now; its hits follow (``strike``), with Africanus
    perhaps after the players hit have played region cards (T-7.3)."""
    resolution = s.resolution
    assert resolution is not None and resolution.next == handle
    face = faces_of(s).get(face_id)
    if face is None:
        raise RulesError(N_("T-7: {face_id!r} is not a rat token").format(face_id=face_id))
    if face.start != handle.startswith("start/") or any(t.face == face_id for t in s.revealed):
        raise RulesError(
            N_("T-7: {face_id} cannot be the face of {handle}").format(
                face_id=face_id, handle=handle
            )
        )
    resolution.next, resolution.token, resolution.face = None, handle, face_id


def breaks_out(s: State) -> bool:
    """T-7.1: all cubes in the region (palace excluded) against the revealed threshold."""
    resolution = s.resolution
    assert resolution is not None and resolution.face is not None
    return sum(region(s, resolution.region).cubes) >= faces_of(s)[resolution.face].threshold


def cards_hit(s: State) -> list[list[str]]:
    """T-7.2: for each seat, the class cards it holds that an icon of the revealed token
    hits (each card once), less those a region card protects in this region (T-7.3)."""
    resolution = s.resolution
    assert resolution is not None and resolution.face is not None
    face = faces_of(s)[resolution.face]
    safe = {(p.seat, p.protects) for p in resolution.played}
    hit: list[list[str]] = [[] for _ in range(s.seats)]
    for card in s.cards:
        seat = card.holder
        hit_now = data.icons()[card.name] in face.icons and (seat, card.name) not in safe
        if seat is not None and hit_now:
            hit[seat].append(card.name)
    return hit


def crowd_hits(s: State) -> list[int]:
    """T-7.2: M hits the player(s) with the most cubes there (all tied), A everyone with a
    cube there; no region card protects against either (T-7.3)."""
    resolution = s.resolution
    assert resolution is not None and resolution.face is not None
    face = faces_of(s)[resolution.face]
    cubes = region(s, resolution.region).cubes
    most = max(cubes)
    return [int(face.majority and n == most) + int(face.all) if n else 0 for n in cubes]


def strike(s: State) -> None:
    """T-7.1-7.4: apply the revealed token from the state at this moment and discard it;
    each player loses one cube per hit, at most all their cubes there, ordinary cubes
    before a diplomat's (T-6.9)."""
    resolution = s.resolution
    assert resolution is not None and resolution.token is not None
    assert resolution.face is not None
    r = region(s, resolution.region)
    broke_out = breaks_out(s)
    hits = (
        [len(c) + m for c, m in zip(cards_hit(s), crowd_hits(s), strict=True)]
        if broke_out
        else [0] * s.seats
    )
    losses = [min(hit, cubes) for hit, cubes in zip(hits, r.cubes, strict=True)]
    for seat, lost in enumerate(losses):
        r.cubes[seat] -= lost
        s.cube_supply[seat] += lost
        diplomats.after_loss(s, seat, r.name)
    r.tokens.remove(resolution.token)
    s.revealed.append(
        RevealedToken(
            handle=resolution.token,
            face=resolution.face,
            region=r.name,
            broke_out=broke_out,
            losses=losses,
        )
    )
    resolution.token = resolution.face = None
    if not r.tokens or not any(r.cubes):
        finish_region(s)


def finish_region(s: State) -> None:
    """T-7.4: the region is done; region cards played in it are discarded (T-7.3)."""
    resolution = s.resolution
    assert resolution is not None
    if resolution.played:
        regiondeck.discard(s, [p.face for p in resolution.played if p.face is not None])
    s.resolution = None
