"""The table as text (``pbem status``) and the prompt of each decision."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

from pbem.format.words import plural
from pbem.games.rattus import data, diplomats, topics, turn
from pbem.games.rattus.abilities import PEASANT
from pbem.games.rattus.state import State, africa, cards_of, faces_of, token_name
from pbem.ruleset.rulebook import lookup_hint
from pbem.ruleset.rules import Chance, Decision, Over, Parallel, Reshuffle, Reveal, Turn

PROMPTS = {
    "start": "T-3.8: place {cubes} starting cubes into any region",
    "caravan": "T-3.9: put the caravan into any region",
    "choose": "T-6.7: keep one of the 3 region cards you drew (pbem status --as you)",
    "explore": "T-6.8: you may place 1 cube into a region a revealed card names (or none)",
    "final_round": "T-9.2: final round: use your class abilities once more, then end",
    "final_plague": "T-9.3: final plague: choose the next region to resolve",
}
REVEALS = {
    "deal": "deal {to} their region cards (T-3.5)",
    "look": "show {to} {where} (Witch, T-6.5)",
    "peek": "show {to} the 3 region cards drawn (Astronomer, T-6.7)",
    "reveal": "reveal {where} (T-7)",
    "discard": "reveal the Astronomer's 2 discarded region cards (T-6.7)",
    "show": "reveal 3 region cards for the Explorer (T-6.8)",
    "cards": "reveal the region cards played (T-7.3)",
    "hands": "reveal every hand of region cards (T-8)",
}
"""What each reveal is for, by stage (``flow.Stage``)."""


def prompt(s: State, stage: str) -> str:
    """What the active player is asked, in a few words with the rule it comes from."""
    if stage == "turn":
        todo = ["take a class card"] if not s.progress.took else []
        if turn.must_place(s, s.active):
            todo.append("place cubes")
        usable = [
            c
            for c in cards_of(s, s.active)
            if c not in s.progress.used and not (c == PEASANT and s.progress.placed)
        ]
        if usable:
            todo.append("use " + ", ".join(usable))
        return "T-5: " + "".join(f"{step}, " for step in todo) + "then move the plague"
    if stage == "witch":
        assert s.witch is not None
        looked = " and ".join(f"the token {token_name(s, t)}" for t in s.witch.tokens)
        return f"T-6.5: you looked at {looked}: swap or keep"
    if stage == "spread":
        assert s.spread is not None
        count = plural(s.spread.count, "new token")
        return f"T-5 C.3: put {count} into neighbours of {s.spread.region}"
    if stage == "bonus":
        offer = africa(s).offers[0]
        return (
            f"T-6.10: the caravan passed {offer.region}, where you have the most cubes: you "
            f"may place 1 extra cube there (bonus {offer.region}, or bonus none)"
        )
    if stage == "token":
        assert s.resolution is not None
        return f"T-7: choose the next token of {s.resolution.region} to reveal"
    return PROMPTS[stage].format(cubes=3 if s.seats >= 5 else 2)


def render(s: State, names: list[str], awaited: Decision, stage: str) -> str:
    """Regions (tokens, cubes per player, diplomats marked *), palace, cubes left, cards,
    supply, the Africanus components, and what is awaited."""
    width = max(len(r.name) for r in s.regions) + len(" (plague) (caravan)")
    cols = [max(len(n), 3) for n in names]
    header = f"{'':{width}} tok  " + "  ".join(
        f"{n:>{w}}" for n, w in zip(names, cols, strict=True)
    )
    game = "Rattus with Africanus" if s.options.africanus else "Rattus"
    lines = [
        f"{game}, {s.seats} players, turn {s.turn}; plague in {s.plague or '(not yet placed)'}",
        header,
    ]

    def row(label: str, tokens: str, values: list[str], extra: str = "") -> str:
        cells = "  ".join(f"{v:>{w}}" for v, w in zip(values, cols, strict=True))
        return f"{label:{width}} {tokens:>3}  {cells}  {extra}".rstrip()

    caravan = s.africa.caravan if s.africa else None
    boards = {r.name: r.board for r in data.board_file().regions}
    for k, r in enumerate(s.regions):
        if k and boards[r.name] != boards[s.regions[k - 1].name]:
            lines.append("North Africa:")
        label = r.name + (" (plague)" if r.name == s.plague else "")
        label += " (caravan)" if r.name == caravan else ""
        cells = [
            f"{n or '.'}{'*' if diplomats.has(s, seat, r.name) else ''}"
            for seat, n in enumerate(r.cubes)
        ]
        lines.append(row(label, str(len(r.tokens) or "."), cells, " ".join(r.tokens)))
    lines.append(row("Palace", "", [str(n or ".") for n in s.palace]))
    lines.append(row("Cubes left", "", [str(n) for n in s.cube_supply]))
    holders = [f"{c.name}: {names[c.holder] if c.holder is not None else '-'}" for c in s.cards]
    lines.append("Class cards: " + (", ".join(holders) or "(drawn at setup)"))
    lines.append(
        f"Token supply: {len(s.token_supply)} face down; removed unseen {len(s.removed)}; "
        f"revealed {len(s.revealed)}"
    )
    if s.africa is not None:
        lines += _africa(s, names)
    if s.revealed:
        last = s.revealed[-1]
        lost = ", ".join(f"{names[i]} -{n}" for i, n in enumerate(last.losses) if n) or "no loss"
        effect = f"broke out: {lost}" if last.broke_out else "no effect"
        lines.append(f"Last revealed ({last.handle}) in {last.region}, {effect}")
        lines.append(f"  {topics.face_effect(last.face)}")
    lines.append(_awaited(s, names, awaited, stage))
    hint = lookup_hint("rattus", lines[-1])
    lines += [hint] if hint else []
    return "\n".join(lines)


def _card(face_id: str) -> str:
    card = data.region_cards()[face_id]
    return f"{card.id} {card.region} ({' '.join(card.icons)})"


def _africa(s: State, names: list[str]) -> list[str]:
    """Diplomats (* on the map), hand sizes, the deck, the face-up discards, cards played
    in the region being resolved, and the hands shown at the end (T-4)."""
    table = africa(s)
    lines = []
    if table.diplomat_supply or any(table.diplomats) or any(table.palace_diplomats):
        held = ", ".join(f"{n} {diplomats.count(s, seat)}" for seat, n in enumerate(names))
        lines.append(
            f"Diplomats (*): {held}; in the palace {sum(table.palace_diplomats)}; "
            f"supply {table.diplomat_supply}"
        )
    hands = ", ".join(f"{n} {len(h)}" for n, h in zip(names, table.hands, strict=True))
    lines.append(f"Region cards: deck {len(table.deck)} face down; in hand: {hands}")
    discards = ", ".join(_card(f) for f in table.discards) or "none"
    lines += textwrap.wrap(f"Discards ({len(table.discards)}): {discards}", 100)
    if s.resolution is not None and s.resolution.played:
        played = "; ".join(
            f"{names[p.seat]} {p.card}{f' = {_card(p.face)}' if p.face else ''} "
            f"for the {p.protects}"
            for p in s.resolution.played
        )
        lines.append(
            f"Played in {s.resolution.region}: {played} (no hit through a protected class "
            "card for the rest of this region, T-7.3)"
        )
    if table.shown is not None:
        for name, hand in zip(names, table.shown, strict=True):
            lines.append(f"{name} showed: " + (", ".join(_card(f) for f in hand) or "nothing"))
    return lines


def _awaited(s: State, names: list[str], awaited: Decision, stage: str) -> str:
    if isinstance(awaited, Turn):
        return f"Awaiting {names[awaited.seat]}: {awaited.prompt}"
    if isinstance(awaited, Parallel):
        who = ", ".join(names[seat] for seat in awaited.seats)
        return f"Awaiting {who}: {awaited.prompt}"
    if isinstance(awaited, Reveal):
        tokens = awaited.items if stage in ("look", "reveal") else []
        where = ", ".join(f"the token {token_name(s, t)}" for t in tokens)
        what = REVEALS[stage].format(
            to=names[awaited.to] if awaited.to is not None else "", where=where
        )
        return f"Awaiting the players' decryption shares to {what}"
    if isinstance(awaited, Reshuffle):
        return f"Awaiting every player's shuffle of the discards as deck {awaited.deck} (T-6)"
    if isinstance(awaited, Chance):
        return f"Awaiting the setup draw: {awaited.reason}"
    assert isinstance(awaited, Over)
    winner = names[awaited.result.winners[0]]
    scores = ", ".join(f"{n} {p}" for n, p in zip(names, awaited.result.scores, strict=True))
    return f"Game over: {winner} wins with {awaited.result.summary} ({scores})"


def private(s: State, seat: int, known: Mapping[str, str]) -> str:
    """What ``seat`` alone knows: its region cards (T-4), the Astronomer's draw it has not
    chosen from yet, and the faces a Witch holder saw (T-6.5), with where each is now."""
    lines = []
    if s.africa is not None:
        hand = [f"{h}: {_card(known[h])}" for h in s.africa.hands[seat] if h in known]
        lines.append("Your region cards: " + ("; ".join(hand) or "none"))
        draw = s.africa.draw
        if draw is not None and draw.ability == "Astronomer" and s.active == seat:
            drawn = [f"{h}: {_card(known[h])}" for h in draw.cards if h in known]
            if drawn and draw.kept is None:
                lines.append("Drawn, to keep one (choose <card>): " + "; ".join(drawn))
    for handle, face_id in sorted(known.items()):
        face = faces_of(s).get(face_id)
        if face is None:
            continue
        on_board = any(handle in r.tokens for r in s.regions)
        where = f"token {token_name(s, handle)} ({handle})" if on_board else f"{handle} (revealed)"
        lines.append(f"{where}: {topics.face_effect(face.id)}")
    return "\n".join(lines)
