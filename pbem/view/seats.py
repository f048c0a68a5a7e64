"""Who sits where, as every picture of the game shows them: a colour, a short label, a name.

Colours come from the Okabe–Ito palette, chosen because its colours stay apart for the
common forms of colour blindness; yellow is left out because it vanishes on paper. Colour is
never the only cue: every piece also carries the seat's short label in text, and the text
colour on each fill is picked for contrast, so a page printed in grey still reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.format.gamefile import Genesis
from pbem.format.i18n import N_

OKABE_ITO = (
    (N_("blue"), "#0072B2"),
    (N_("orange"), "#E69F00"),
    (N_("bluish green"), "#009E73"),
    (N_("reddish purple"), "#CC79A7"),
    (N_("vermillion"), "#D55E00"),
    (N_("sky blue"), "#56B4E9"),
)
"""Seat colours in seat order (up to six seats; more wrap around, told apart by labels);
their names in English, translated where a page shows them."""


@dataclass(frozen=True)
class Seat:
    index: int
    name: str
    email: str
    fingerprint: str
    label: str
    colour_name: str
    fill: str
    ink: str
    """Text colour on ``fill``: black or white, whichever contrasts more."""


def seats_of(genesis: Genesis) -> list[Seat]:
    names = [card.name for card in genesis.seats]
    labels = short_labels(names)
    out = []
    for i, card in enumerate(genesis.seats):
        colour_name, fill = OKABE_ITO[i % len(OKABE_ITO)]
        out.append(
            Seat(
                index=i,
                name=card.name,
                email=card.email,
                fingerprint=card.fingerprint,
                label=labels[i],
                colour_name=colour_name,
                fill=fill,
                ink=ink_on(fill),
            )
        )
    return out


def short_labels(names: list[str]) -> list[str]:
    """The shortest readable label that tells the seats apart, to print on small pieces:
    the initial (Alice, Bob: A, B), two letters (Anna, Arno: An, Ar), initial and last
    character (bot1, bot2: B1, B2), else the seat number."""
    candidates = (
        lambda n: n[:1].upper(),
        lambda n: n[:2].title(),
        lambda n: n[:1].upper() + n[-1:],
    )
    for make in candidates:
        labels = [make(n) for n in names]
        if len(set(labels)) == len(labels):
            return labels
    return [str(i + 1) for i in range(len(names))]


def ink_on(fill: str) -> str:
    """Black or white text, whichever has the higher WCAG contrast ratio on ``fill``."""
    lum = _luminance(fill)
    on_black = (lum + 0.05) / 0.05
    on_white = 1.05 / (lum + 0.05)
    return "#000000" if on_black >= on_white else "#FFFFFF"


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
