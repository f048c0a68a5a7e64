"""The table as text (``pbem status``): the row of areas, the decks, every player.

Everything shown is public (R-3). Sealed placements are never in the state, so they cannot
leak here; pieces appear only once revealed.
"""

from __future__ import annotations

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
    "face_down_plunder": "per {per} face-down plunder",
    "other_companions": "per other companion",
    "most_island_henchmen": "for most henchmen on the treasure card",
    "coins": "per {per} coins",
    "ships_used": "per trade ship used",
    "sea_areas_won": "per sea area won",
    "no_other_companion": "if no other companion",
}


def render(state: State, names: list[str], decision: Decision) -> str:
    cards = state.options.card_set()
    awaited = _awaited(state, names, decision)
    hint = lookup_hint("rattaneer", awaited)
    lines = [_heading(state), _card_set(state, cards), awaited, *([hint] if hint else []), ""]
    lines += [_area_line(state, names, cards, n) for n in AREAS]
    if state.farm:
        lines.append(f"   Farm: {', '.join(names[s] for s in state.farm)} (pirates)")
    unused = [f"{names[s]} {n}" for s, n in enumerate(state.unused) if n]
    if unused:
        lines.append(f"   X (unused henchmen): {', '.join(unused)}")
    lines += ["", _decks(state), ""]
    for seat, name in enumerate(names):
        lines += _player_lines(state, cards, seat, name)
    return "\n".join(lines)


def _heading(state: State) -> str:
    phase = {"setup": "setup", "morning": "Morning", "night": "Night"}
    phase |= {"final": "end of game", "over": "game over"}
    where = f"Day, area {state.day.area}" if state.day else phase.get(state.phase, state.phase)
    last = " (last round)" if is_last_round(state) and state.phase != "over" else ""
    return f"Rattaneer · round {state.round}/{MAX_ROUNDS}{last} · {where}"


def _card_set(state: State, cards: CardSet) -> str:
    """Which cards the game is played with, so that nobody takes a custom set (or the
    reconstruction) for the published one; the explanation is ``notice``'s, said once."""
    which = "shipped set" if state.options.cards_hash is None else "custom set"
    pin = f", sha256 {state.options.cards_hash}" if state.options.cards_hash else ""
    kind = "a reconstruction" if cards.reconstruction else "not a reconstruction"
    return f"Cards: {which}{pin} ({kind}): pbem rules rattaneer cards"


def notice(cards: CardSet, custom: bool) -> str:
    """The card set explained, for the places that say it once."""
    which = "a custom card set" if custom else "the shipped card set"
    return f"This game plays {which}: {cards.explanation}"


def _awaited(state: State, names: list[str], decision: Decision) -> str:
    priority = f"Land priority: {names[state.land_priority]} · sea priority: "
    priority += names[state.sea_priority]
    if isinstance(decision, Turn):
        return f"{priority}\nAwaiting {names[decision.seat]}: {decision.prompt}"
    if isinstance(decision, Parallel):
        # The state cannot tell who has already answered (the engine holds the envelopes),
        # so this line names who is asked, and the engine's own line who is still awaited.
        who = ", ".join(names[s] for s in decision.seats)
        sealed = "; sealed until all have committed" if decision.sealed else ""
        return f"{priority}\nAsked of {who}: {decision.prompt}{sealed}"
    if isinstance(decision, Chance):
        return f"{priority}\nAwaiting a random draw: {decision.reason}"
    assert isinstance(decision, Over)
    scores = ", ".join(f"{n} {v} VP" for n, v in zip(names, decision.result.scores, strict=True))
    winners = " and ".join(names[s] for s in decision.result.winners)
    return f"Game over. Winner: {winners}. Scores: {scores}"


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
    text = f"Decks: companions {len(state.companion_deck)} · sea {len(state.sea_deck)}"
    text += f" · discarded: companions {len(state.companion_discard)},"
    text += f" trade ships {len(state.sea_discard)}"
    if state.options.treasures:
        text += f" · treasure cards left on the island {state.island_treasures}"
    if state.neutral:
        text += f" · neutral henchmen set aside {state.neutral}"
    return text


def _player_lines(state: State, cards: CardSet, seat: int, name: str) -> list[str]:
    player = state.players[seat]
    parts = score(state, cards, seat)
    on_island = state.spots.count(seat)
    lines = [
        f"{name}: {player.coins} coins · {player.henchmen} henchmen (supply {supply(state, seat)},"
        f" on the treasure card {on_island}) · VP so far {parts.total}"
        f" (plunder {parts.plunder}, companions {parts.companions}, island {parts.island},"
        f" bonuses {parts.bonuses}, coins {parts.coins}, treasures {parts.treasures})",
        "  companions: " + (" ".join(_companion(cards, c) for c in player.companions) or "-"),
        "  plunder face up: " + (" ".join(player.face_up) or "-"),
        f"  plunder face down ({len(player.face_down)}): " + (" ".join(player.face_down) or "-"),
        f"  trade ships used {player.ships_used} · sea areas won: "
        + (" ".join(map(str, player.areas_won)) or "-"),
    ]
    if player.treasures:
        lines.append("  treasure cards: " + " ".join(player.treasures))
    return lines
