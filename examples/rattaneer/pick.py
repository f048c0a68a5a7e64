"""Helper of make.sh: reads pbem's ``--json`` reports. It makes no step itself.

    pick.py field NAME < REPORT                 a field of a report (a list space-separated)
    pick.py move SEAT STATUS_FILE < MOVES       a move for SEAT (0, 1, 2): MOVES is the
                                                output of ``pbem moves --json``, STATUS_FILE
                                                that of ``pbem status --json`` (the table)

The moves follow a plan, so that the game meets most kinds of decision. In the Morning the
pieces fill the row from area 1 without a gap (a gap sends the pirates beyond it to the
Farm, R-5.4): two seats go to the Tavern, the third to the Workshop, and all three join
forces on the easiest sea area of 3–5, a lone henchman of the third filling another one.
Every third round the table reaches for the Trade Port (whoever holds the most face-up
plunder) and the Legendary Island instead, lone henchmen filling the areas below. The
seats swap roles every round. In the Day a seat hires while it has few henchmen (anne
prefers companions), takes the best card (a trade ship if it holds plunder to turn),
turns the most VP face down (keeping one for the free flip at the end), and takes the
best treasure spot.

Card strengths are read from the shipped set's ids (``P3-4``: strength 3, 4 VP; ``S2-2``:
a trade ship of strength 2).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

NEAR_SEAS = (3, 4, 5)
FAR_ROUND = 3  # every third round reaches for areas 9 and 10
# Below this many henchmen, a seat at the Tavern hires rather than buys: anne collects
# companions, bart and cleo fighters.
FEW_HENCHMEN = (2, 5, 5)


def strength(card: str) -> int:
    return int(card[1])


def worth(card: str, holds_plunder: bool) -> int:
    """A plunder card's VP. A trade ship is worth most to a seat with face-up plunder to
    turn, and little to others."""
    if card.startswith("S"):
        return 9 if holds_plunder else 2
    return int(card.split("-")[1])


def placement(seat: int, round_number: int, view: dict[str, Any]) -> str:
    players = view["players"]
    available = players[seat]["henchmen"]
    if round_number % FAR_ROUND == 0:  # pieces on 1–4, neutral 5, lone henchmen 6–8
        # The Trade Port for whoever has the most plunder to turn, the Island for the
        # next; the pieces and lone henchmen of all three fill the row up to them.
        order = sorted(range(len(players)), key=lambda s: (-len(players[s]["face_up"]), s))
        plans = [((1, 9), 7, 9), ((2, 10), 8, 10), ((3, 4), 6, 3)]
        pirates, lone, rest = plans[order.index(seat)]
    else:  # pieces on 1–5: the neutral henchman takes the sea area left over
        need = {a: sum(map(strength, view["seas"][a - 3])) for a in NEAR_SEAS}
        easiest, second, _ = sorted(NEAR_SEAS, key=lambda a: (need[a] == 0, need[a], a))
        plans = [((2, easiest), None, easiest)] * 2 + [((1, easiest), second, easiest)]
        pirates, lone, rest = plans[(seat + round_number) % len(plans)]
    henchmen = [lone] if lone and available else []
    henchmen += [rest] * (available - len(henchmen))
    text = f"pirates {pirates[0]} {pirates[1]}"
    return text + (", henchmen " + " ".join(map(str, henchmen)) if henchmen else "")


def choose(seat: int, moves: dict[str, Any], view: dict[str, Any]) -> str:
    options: list[str] = moves["moves"]
    verbs = {m.split()[0] for m in options}
    me = view["players"][seat]
    if "pirates" in verbs:
        found = re.search(r"round (\d+)", moves["prompt"])
        return placement(seat, int(found.group(1)) if found else 1, view)
    if "take" in verbs:
        return max(options, key=lambda m: worth(m.split()[1], bool(me["face_up"])))
    if "spot" in verbs:
        return max((m for m in options if m != "pass"), key=lambda m: int(m.split()[1]))
    if "flip" in verbs:  # at the Trade Port, one card stays up for the free flip at the end
        keep = moves["prompt"].startswith("Trade Port") and len(me["face_up"]) > 1
        allowed = [m for m in options if not keep or len(m.split()) <= len(me["face_up"])]
        return max(allowed, key=lambda m: sum(worth(c, False) for c in m.split()[1:]))
    buys = [m for m in options if m.startswith("buy")]  # only those it can pay for
    if "hire" in options and (me["henchmen"] < FEW_HENCHMEN[seat] or not buys):
        return "hire"
    return buys[-1] if buys else "pass"


def main() -> None:
    command, arg = sys.argv[1], sys.argv[2]
    report = json.load(sys.stdin)
    if command == "field":
        value = report[arg]
        print(" ".join(value) if isinstance(value, list) else json.dumps(value).strip('"'))
    else:
        view = json.loads(Path(sys.argv[3]).read_text())["view"]
        print(choose(int(arg), report, view))


if __name__ == "__main__":
    main()
