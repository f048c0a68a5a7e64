"""The table as text (``pbem status``) and the prompt of each decision."""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core.rules import Chance, Decision, Over, Reveal, Turn
from pbem.games.rattus import data, turn
from pbem.games.rattus.abilities import PEASANT
from pbem.games.rattus.setup import START_CUBES
from pbem.games.rattus.state import State, cards_of, token_region


def prompt(s: State, stage: str) -> str:
    """What the active player is asked, in a few words with the rule it comes from."""
    if stage == "start":
        return f"T-3.8: place {START_CUBES} starting cubes into any region"
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
        looked = " and ".join(f"{t} ({token_region(s, t).name})" for t in s.witch.tokens)
        return f"T-6.5: you looked at {looked}: swap or keep"
    if stage == "spread":
        assert s.spread is not None
        return f"T-5 C.3: put {s.spread.count} new token(s) into neighbours of {s.spread.region}"
    if stage == "token":
        assert s.resolution is not None
        return f"T-7: choose the next token of {s.resolution.region} to reveal"
    if stage == "final_round":
        return "T-9.2: final round: use your class abilities once more, then end"
    return "T-9.3: final plague: choose the next region to resolve"


def render(s: State, names: list[str], awaited: Decision) -> str:
    """Regions (tokens, cubes per player), palace, cubes left, cards, supply, what is awaited."""
    width = max(len(r.name) for r in s.regions) + len(" (plague)")
    cols = [max(len(n), 3) for n in names]
    header = f"{'':{width}} tok  " + "  ".join(
        f"{n:>{w}}" for n, w in zip(names, cols, strict=True)
    )
    lines = [
        f"Rattus, {s.seats} players, turn {s.turn}; plague in {s.plague or '(not yet placed)'}",
        header,
    ]

    def row(label: str, tokens: str, values: list[int], extra: str = "") -> str:
        cells = "  ".join(f"{v or '.':>{w}}" for v, w in zip(values, cols, strict=True))
        return f"{label:{width}} {tokens:>3}  {cells}  {extra}".rstrip()

    for r in s.regions:
        label = r.name + (" (plague)" if r.name == s.plague else "")
        lines.append(row(label, str(len(r.tokens) or "."), r.cubes, " ".join(r.tokens)))
    lines.append(row("Palace", "", s.palace))
    lines.append(row("Cubes left", "", s.cube_supply))
    holders = [f"{c.name}: {names[c.holder] if c.holder is not None else '-'}" for c in s.cards]
    lines.append("Class cards: " + ", ".join(holders))
    lines.append(
        f"Token supply: {len(s.token_supply)} face down; removed unseen {len(s.removed)}; "
        f"revealed {len(s.revealed)}"
    )
    if s.revealed:
        last = s.revealed[-1]
        lost = ", ".join(f"{names[i]} -{n}" for i, n in enumerate(last.losses) if n) or "no loss"
        effect = f"broke out: {lost}" if last.broke_out else "no effect"
        lines.append(f"Last revealed: {last.face} ({last.handle}) in {last.region}, {effect}")
    lines.append(_awaited(s, names, awaited))
    return "\n".join(lines)


def _awaited(s: State, names: list[str], awaited: Decision) -> str:
    if isinstance(awaited, Turn):
        return f"Awaiting {names[awaited.seat]}: {awaited.prompt}"
    if isinstance(awaited, Reveal):
        where = ", ".join(f"{t} in {token_region(s, t).name}" for t in awaited.items)
        if awaited.to is None:
            return f"Awaiting every player's share to reveal {where} (T-7)"
        return f"Awaiting shares to show {names[awaited.to]} {where} (Witch, T-6.5)"
    if isinstance(awaited, Chance):
        return f"Awaiting the setup draw: {awaited.reason}"
    assert isinstance(awaited, Over), "Rattus has no parallel decisions"
    winner = names[awaited.result.winners[0]]
    scores = ", ".join(f"{n} {p}" for n, p in zip(names, awaited.result.scores, strict=True))
    return f"Game over: {winner} wins with {awaited.result.summary} ({scores})"


def private(s: State, known: Mapping[str, str]) -> str:
    """What a Witch holder saw (T-6.5): each face, and where that token is now."""
    lines = []
    for handle, face_id in sorted(known.items()):
        face = data.faces()[face_id]
        symbols = [*face.icons, *["M"] * face.majority, *["A"] * face.all]
        where = next((f"in {r.name}" for r in s.regions if handle in r.tokens), "revealed")
        lines.append(
            f"{handle} ({where}): {face_id}, threshold {face.threshold}, {' '.join(symbols)}"
        )
    return "\n".join(lines)
