"""The table as text (``pbem status``) and the prompt of each decision."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

from pbem.format.i18n import N_
from pbem.games.rattus import data, diplomats, topics, turn
from pbem.games.rattus.abilities import PEASANT
from pbem.games.rattus.state import State, africa, cards_of, faces_of, token_name
from pbem.ruleset.rulebook import lookup_hint
from pbem.ruleset.rules import Chance, Decision, Over, Parallel, Reshuffle, Reveal, Turn

PROMPTS = {
    "start": N_("T-3.8: place {cubes} starting cubes into any region"),
    "caravan": N_("T-3.9: put the caravan into any region"),
    "choose": N_("T-6.7: keep one of the 3 region cards you drew (pbem status --as you)"),
    "explore": N_("T-6.8: you may place 1 cube into a region a revealed card names (or none)"),
    "final_round": N_("T-9.2: final round: use your class abilities once more, then end"),
    "final_plague": N_("T-9.3: final plague: choose the next region to resolve"),
}
REVEALS = {
    "deal": N_("deal {to} their region cards (T-3.5)"),
    "look": N_("show {to} {where} (Witch, T-6.5)"),
    "peek": N_("show {to} the 3 region cards drawn (Astronomer, T-6.7)"),
    "reveal": N_("reveal {where} (T-7)"),
    "discard": N_("reveal the Astronomer's 2 discarded region cards (T-6.7)"),
    "show": N_("reveal 3 region cards for the Explorer (T-6.8)"),
    "cards": N_("reveal the region cards played (T-7.3)"),
    "hands": N_("reveal every hand of region cards (T-8)"),
}
"""What each reveal is for, by stage (``flow.Stage``)."""
TURN = {
    (True, True, True): N_(
        "T-5: take a class card, place cubes, use {cards}, then move the plague"
    ),
    (True, True, False): N_("T-5: take a class card, place cubes, then move the plague"),
    (True, False, True): N_("T-5: take a class card, use {cards}, then move the plague"),
    (True, False, False): N_("T-5: take a class card, then move the plague"),
    (False, True, True): N_("T-5: place cubes, use {cards}, then move the plague"),
    (False, True, False): N_("T-5: place cubes, then move the plague"),
    (False, False, True): N_("T-5: use {cards}, then move the plague"),
    (False, False, False): N_("T-5: then move the plague"),
}
"""The turn's prompt by what is left of it (T-5): a class card to take, cubes to place,
abilities to use; whole sentences, for the catalogs."""


def prompt(s: State, stage: str) -> str:
    """What the active player is asked, in a few words with the rule it comes from."""
    if stage == "turn":
        take = not s.progress.took
        place = turn.must_place(s, s.active)
        usable = [
            c
            for c in cards_of(s, s.active)
            if c not in s.progress.used and not (c == PEASANT and s.progress.placed)
        ]
        return TURN[take, place, bool(usable)].format(cards=", ".join(usable))
    if stage == "witch":
        assert s.witch is not None
        looked = tokens_phrase(s, s.witch.tokens)
        return N_("T-6.5: you looked at {tokens}: swap or keep").format(tokens=looked)
    if stage == "spread":
        assert s.spread is not None
        template = (
            N_("T-5 C.3: put {count} new token into neighbours of {region}")
            if s.spread.count == 1
            else N_("T-5 C.3: put {count} new tokens into neighbours of {region}")
        )
        return template.format(count=s.spread.count, region=s.spread.region)
    if stage == "bonus":
        offer = africa(s).offers[0]
        return N_(
            "T-6.10: the caravan passed {region}, where you have the most cubes: you "
            "may place 1 extra cube there (bonus {region}, or bonus none)"
        ).format(region=offer.region)
    if stage == "token":
        assert s.resolution is not None
        return N_("T-7: choose the next token of {region} to reveal").format(
            region=s.resolution.region
        )
    return PROMPTS[stage].format(cubes=3 if s.seats >= 5 else 2)


def tokens_phrase(s: State, handles: list[str], joiner: str = " and ") -> str:
    """``the token Germania#2``, or two such joined by ``joiner``, as prompts name tokens
    (two are one phrase for the catalogs, which have no word for ``and`` alone)."""
    names = [token_name(s, h) for h in handles]
    if len(names) == 2:
        pair = (
            N_("the token {token} and the token {token2}")
            if joiner == " and "
            else N_("the token {token}, the token {token2}")
        )
        return pair.format(token=names[0], token2=names[1])
    return joiner.join(N_("the token {token}").format(token=n) for n in names)


def render(s: State, names: list[str], awaited: Decision, stage: str) -> str:
    """Regions (tokens, cubes per player, diplomats marked *), palace, cubes left, cards,
    supply, the Africanus components, and what is awaited."""
    width = max(len(r.name) for r in s.regions) + len(" (plague) (caravan)")
    cols = [max(len(n), 3) for n in names]
    header = f"{'':{width}} tok  " + "  ".join(
        f"{n:>{w}}" for n, w in zip(names, cols, strict=True)
    )
    head = (
        N_("Rattus with Africanus, {seats} players, turn {turn}")
        if s.options.africanus
        else N_("Rattus, {seats} players, turn {turn}")
    )
    plague = (
        N_("plague in {region}").format(region=s.plague)
        if s.plague
        else N_("plague in (not yet placed)")
    )
    lines = [f"{head.format(seats=s.seats, turn=s.turn)}; {plague}", header]

    def row(label: str, tokens: str, values: list[str], extra: str = "") -> str:
        cells = "  ".join(f"{v:>{w}}" for v, w in zip(values, cols, strict=True))
        return f"{label:{width}} {tokens:>3}  {cells}  {extra}".rstrip()

    caravan = s.africa.caravan if s.africa else None
    boards = {r.name: r.board for r in data.board_file().regions}
    for k, r in enumerate(s.regions):
        if k and boards[r.name] != boards[s.regions[k - 1].name]:
            lines.append(N_("North Africa:"))
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
    lines.append(
        N_("Class cards: {holders}").format(holders=", ".join(holders))
        if holders
        else N_("Class cards: (drawn at setup)")
    )
    lines.append(
        N_(
            "Token supply: {supply} face down; removed unseen {removed}; revealed {revealed}"
        ).format(supply=len(s.token_supply), removed=len(s.removed), revealed=len(s.revealed))
    )
    if s.africa is not None:
        lines += _africa(s, names)
    if s.revealed:
        last = s.revealed[-1]
        lost = ", ".join(f"{names[i]} -{n}" for i, n in enumerate(last.losses) if n)
        if not last.broke_out:
            effect = N_("Last revealed ({token}) in {region}, no effect")
        elif lost:
            effect = N_("Last revealed ({token}) in {region}, broke out: {lost}")
        else:
            effect = N_("Last revealed ({token}) in {region}, broke out: no loss")
        lines.append(effect.format(token=last.handle, region=last.region, lost=lost))
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
            N_("Diplomats (*): {held}; in the palace {palace}; supply {supply}").format(
                held=held, palace=sum(table.palace_diplomats), supply=table.diplomat_supply
            )
        )
    hands = ", ".join(f"{n} {len(h)}" for n, h in zip(names, table.hands, strict=True))
    lines.append(
        N_("Region cards: deck {deck} face down; in hand: {hands}").format(
            deck=len(table.deck), hands=hands
        )
    )
    discards = ", ".join(_card(f) for f in table.discards)
    lines += textwrap.wrap(
        N_("Discards ({count}): {cards}").format(count=len(table.discards), cards=discards)
        if discards
        else N_("Discards (0): none"),
        100,
    )
    if s.resolution is not None and s.resolution.played:
        played = "; ".join(
            N_("{name} {card} for the {protects}").format(
                name=names[p.seat],
                card=f"{p.card} = {_card(p.face)}" if p.face else p.card,
                protects=p.protects,
            )
            for p in s.resolution.played
        )
        lines.append(
            N_(
                "Played in {region}: {played} (no hit through a protected class card for "
                "the rest of this region, T-7.3)"
            ).format(region=s.resolution.region, played=played)
        )
    if table.shown is not None:
        for name, hand in zip(names, table.shown, strict=True):
            cards = ", ".join(_card(f) for f in hand)
            shown = N_("{name} showed: {cards}") if cards else N_("{name} showed: nothing")
            lines.append(shown.format(name=name, cards=cards))
    return lines


def _awaited(s: State, names: list[str], awaited: Decision, stage: str) -> str:
    if isinstance(awaited, Turn):
        return N_("Awaiting {who}: {prompt}").format(who=names[awaited.seat], prompt=awaited.prompt)
    if isinstance(awaited, Parallel):
        who = ", ".join(names[seat] for seat in awaited.seats)
        return N_("Awaiting {who}: {prompt}").format(who=who, prompt=awaited.prompt)
    if isinstance(awaited, Reveal):
        tokens = awaited.items if stage in ("look", "reveal") else []
        what = REVEALS[stage].format(
            to=names[awaited.to] if awaited.to is not None else "",
            where=tokens_phrase(s, tokens, ", "),
        )
        return N_("Awaiting the players' decryption shares to {what}").format(what=what)
    if isinstance(awaited, Reshuffle):
        return N_("Awaiting every player's shuffle of the discards as deck {deck} (T-6)").format(
            deck=awaited.deck
        )
    if isinstance(awaited, Chance):
        return N_("Awaiting the setup draw: {reason}").format(reason=awaited.reason)
    assert isinstance(awaited, Over)
    winner = names[awaited.result.winners[0]]
    scores = ", ".join(f"{n} {p}" for n, p in zip(names, awaited.result.scores, strict=True))
    return N_("Game over: {winner} wins with {summary} ({scores})").format(
        winner=winner, summary=awaited.result.summary, scores=scores
    )


def private(s: State, seat: int, known: Mapping[str, str]) -> str:
    """What ``seat`` alone knows: its region cards (T-4), the Astronomer's draw it has not
    chosen from yet, and the faces a Witch holder saw (T-6.5), with where each is now."""
    lines = []
    if s.africa is not None:
        hand = [f"{h}: {_card(known[h])}" for h in s.africa.hands[seat] if h in known]
        lines.append(
            N_("Your region cards: {cards}").format(cards="; ".join(hand))
            if hand
            else N_("Your region cards: none")
        )
        draw = s.africa.draw
        if draw is not None and draw.ability == "Astronomer" and s.active == seat:
            drawn = [f"{h}: {_card(known[h])}" for h in draw.cards if h in known]
            if drawn and draw.kept is None:
                lines.append(
                    N_("Drawn, to keep one (choose <card>): {cards}").format(cards="; ".join(drawn))
                )
    for handle, face_id in sorted(known.items()):
        face = faces_of(s).get(face_id)
        if face is None:
            continue
        on_board = any(handle in r.tokens for r in s.regions)
        where = (
            N_("token {token} ({handle}): {effect}")
            if on_board
            else N_("{handle} (revealed): {effect}")
        )
        lines.append(
            where.format(
                token=token_name(s, handle), handle=handle, effect=topics.face_effect(face.id)
            )
        )
    return "\n".join(lines)
