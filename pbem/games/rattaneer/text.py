"""The table as text (``pbem status``): the row of areas, the decks, every player.

Everything shown is public (R-3). Sealed placements are never in the state, so they cannot
leak here; pieces appear only once revealed.
"""

from __future__ import annotations

from pbem.format.i18n import N_
from pbem.games.rattaneer.cards import Bonus, CardSet, PlunderCard
from pbem.games.rattaneer.scoring import score
from pbem.games.rattaneer.state import (
    AREA_NAMES,
    AREAS,
    ISLAND,
    MAX_ROUNDS,
    SEA_AREAS,
    TAVERN,
    WORKSHOP,
    Pieces,
    State,
    area,
    is_last_round,
    sea_cards,
    supply,
)
from pbem.ruleset.rulebook import lookup_hint
from pbem.ruleset.rules import Chance, Decision, Over, Parallel, Turn

BONUS_TEXT = {
    "face_down_plunder": N_("per {per} face-down plunder"),
    "other_companions": N_("per other companion"),
    "most_island_henchmen": N_("for most henchmen on the treasure card"),
    "coins": N_("per {per} coins"),
    "ships_used": N_("per trade ship used"),
    "sea_areas_won": N_("per sea area won"),
    "no_other_companion": N_("if no other companion"),
}


def render(state: State, names: list[str], decision: Decision) -> str:
    cards = state.options.card_set()
    awaited = _awaited(state, names, decision)
    hint = lookup_hint("rattaneer", awaited)
    lines = [_heading(state), _card_set(state, cards), awaited, *([hint] if hint else []), ""]
    lines += [_area_line(state, names, cards, n) for n in AREAS]
    if state.farm:
        farm = ", ".join(names[s] for s in state.farm)
        lines.append("   " + N_("Farm: {names} (pirates)").format(names=farm))
    unused = [f"{names[s]} {n}" for s, n in enumerate(state.unused) if n]
    if unused:
        lines.append("   " + N_("X (unused henchmen): {unused}").format(unused=", ".join(unused)))
    lines += ["", _decks(state), ""]
    for seat, name in enumerate(names):
        lines += _player_lines(state, cards, seat, name)
    return "\n".join(lines)


def _heading(state: State) -> str:
    phase = {"setup": N_("setup"), "morning": N_("Morning"), "night": N_("Night")}
    phase |= {"final": N_("end of game"), "over": N_("game over")}
    if state.day:
        where = N_("Day, area {area}").format(area=state.day.area)
    else:
        where = phase.get(state.phase, state.phase)
    head = (
        N_("Rattaneer · round {round}/{rounds} (last round) · {where}")
        if is_last_round(state) and state.phase != "over"
        else N_("Rattaneer · round {round}/{rounds} · {where}")
    )
    return head.format(round=state.round, rounds=MAX_ROUNDS, where=where)


def _card_set(state: State, cards: CardSet) -> str:
    """Which cards the game is played with, so that nobody takes a custom set (or the
    reconstruction) for the published one; the explanation is ``notice``'s, said once."""
    if state.options.cards_hash is None:
        said = (
            N_("Cards: shipped set (a reconstruction): pbem rules rattaneer cards")
            if cards.reconstruction
            else N_("Cards: shipped set (not a reconstruction): pbem rules rattaneer cards")
        )
    else:
        said = (
            N_("Cards: custom set, sha256 {hash} (a reconstruction): pbem rules rattaneer cards")
            if cards.reconstruction
            else N_(
                "Cards: custom set, sha256 {hash} (not a reconstruction): pbem rules "
                "rattaneer cards"
            )
        )
    return said.format(hash=state.options.cards_hash)


def notice(cards: CardSet, custom: bool) -> str:
    """The card set explained, for the places that say it once."""
    said = (
        N_("This game plays a custom card set: {explanation}")
        if custom
        else N_("This game plays the shipped card set: {explanation}")
    )
    return said.format(explanation=cards.explanation)


def _awaited(state: State, names: list[str], decision: Decision) -> str:
    priority = N_("Land priority: {land} · sea priority: {sea}").format(
        land=names[state.land_priority], sea=names[state.sea_priority]
    )
    if isinstance(decision, Turn):
        awaited = N_("Awaiting {who}: {prompt}").format(
            who=names[decision.seat], prompt=decision.prompt
        )
        return f"{priority}\n{awaited}"
    if isinstance(decision, Parallel):
        # The state cannot tell who has already answered (the engine holds the envelopes),
        # so this line names who is asked, and the engine's own line who is still awaited.
        who = ", ".join(names[s] for s in decision.seats)
        asked = (
            N_("Asked of {who}: {prompt}; sealed until all have committed")
            if decision.sealed
            else N_("Asked of {who}: {prompt}")
        )
        return f"{priority}\n{asked.format(who=who, prompt=decision.prompt)}"
    if isinstance(decision, Chance):
        draw = N_("Awaiting a random draw: {reason}").format(reason=decision.reason)
        return f"{priority}\n{draw}"
    assert isinstance(decision, Over)
    scores = ", ".join(f"{n} {v} VP" for n, v in zip(names, decision.result.scores, strict=True))
    winners = " and ".join(names[s] for s in decision.result.winners)
    return N_("Game over. Winner: {winners}. Scores: {scores}").format(
        winners=winners, scores=scores
    )


def _area_line(state: State, names: list[str], cards: CardSet, number: int) -> str:
    title = f"{number:>2} {AREA_NAMES[number]}"
    if number == WORKSHOP:
        detail = f"{state.workshop} coins"
    elif number == TAVERN:
        detail = "row: " + (" ".join(_companion(cards, c) for c in state.tavern) or "empty")
    elif number in SEA_AREAS:
        under = sea_cards(state, number)
        need = sum(cards.sea_card(c).strength for c in under)
        detail = (f"need {need}: " + " ".join(_sea(cards, c) for c in under)) if under else "empty"
    elif number == ISLAND:
        detail = _island(state, names, cards)
    else:
        detail = ""
    pieces = _pieces(area(state, number), names)
    return f"{title:<20} {detail}" + (f"  ◆ {pieces}" if pieces else "")


def _companion(cards: CardSet, card_id: str) -> str:
    card = cards.companion(card_id)
    bonus = f", {_bonus(card.bonus)}" if card.bonus else ""
    return f"{card_id}[{card.cost}c {card.vp}VP{bonus}]"


def _bonus(bonus: Bonus) -> str:
    return f"+{bonus.vp} VP " + BONUS_TEXT[bonus.counts].format(per=bonus.per)


def _sea(cards: CardSet, card_id: str) -> str:
    card = cards.sea_card(card_id)
    if isinstance(card, PlunderCard):
        return f"{card_id}[str {card.strength}, {card.vp}VP]"
    return f"{card_id}[str {card.strength}, ship {card.capacity}]"


def _island(state: State, names: list[str], cards: CardSet) -> str:
    spots = " ".join(
        f"{vp}:{names[s] if s is not None else '-'}"
        for vp, s in zip(cards.treasure_spots, state.spots, strict=True)
    )
    text = f"spots {spots}"
    if state.island_treasures:
        text += f"; treasure cards face down: {state.island_treasures} (drawn at random, R-6.5)"
    return text


def _pieces(pieces: Pieces, names: list[str]) -> str:
    parts = []
    for seat, name in enumerate(names):
        has_pirate = seat in pieces.pirates
        count = pieces.henchmen[seat]
        if has_pirate or count:
            what = ["pirate"] if has_pirate else []
            what += [f"{count} henchm{'a' if count == 1 else 'e'}n"] if count else []
            parts.append(f"{name}: {' + '.join(what)}")
    if pieces.neutral:
        parts.append(f"neutral henchman ×{pieces.neutral}")
    return "; ".join(parts)


def _decks(state: State) -> str:
    parts = [
        N_("Decks: companions {companions} · sea {sea}").format(
            companions=len(state.companion_deck), sea=len(state.sea_deck)
        ),
        N_("discarded: companions {companions}, trade ships {ships}").format(
            companions=len(state.companion_discard), ships=len(state.sea_discard)
        ),
    ]
    if state.options.treasures:
        parts.append(
            N_("treasure cards left on the island {count}").format(count=state.island_treasures)
        )
    if state.neutral:
        parts.append(N_("neutral henchmen set aside {count}").format(count=state.neutral))
    return " · ".join(parts)


def _player_lines(state: State, cards: CardSet, seat: int, name: str) -> list[str]:
    player = state.players[seat]
    parts = score(state, cards, seat)
    on_island = state.spots.count(seat)
    companions = " ".join(_companion(cards, c) for c in player.companions) or "-"
    lines = [
        N_(
            "{name}: {coins} coins · {henchmen} henchmen (supply {supply}, on the treasure "
            "card {island}) · VP so far {total} (plunder {plunder}, companions {companions}, "
            "island {vp_island}, bonuses {bonuses}, coins {vp_coins}, treasures {treasures})"
        ).format(
            name=name,
            coins=player.coins,
            henchmen=player.henchmen,
            supply=supply(state, seat),
            island=on_island,
            total=parts.total,
            plunder=parts.plunder,
            companions=parts.companions,
            vp_island=parts.island,
            bonuses=parts.bonuses,
            vp_coins=parts.coins,
            treasures=parts.treasures,
        ),
        "  " + N_("companions: {cards}").format(cards=companions),
        "  " + N_("plunder face up: {cards}").format(cards=" ".join(player.face_up) or "-"),
        "  "
        + N_("plunder face down ({count}): {cards}").format(
            count=len(player.face_down), cards=" ".join(player.face_down) or "-"
        ),
        "  "
        + N_("trade ships used {ships} · sea areas won: {areas}").format(
            ships=player.ships_used, areas=" ".join(map(str, player.areas_won)) or "-"
        ),
    ]
    if player.treasures:
        lines.append("  " + N_("treasure cards: {cards}").format(cards=" ".join(player.treasures)))
    return lines
