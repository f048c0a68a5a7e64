"""Issue 27: what a whole game costs in mail, by real SMTP and IMAP: messages per round
(per turn in Rattus), bytes per message (median and most), and all the mail of a game
against its final file, with the share of the board pages and of the steps. Printed by
each test (run with -s). Asserted: no message over 1 MB but those with the whole file (a
new player's), and the median message of an Africanus game (whose pages are few) within
32 KB. Not met, and printed: all the mail of a game within 3x its final file (the board
pages, about 90 KB each, are most of it: their size is issue 33's), and at most players + 2
messages a Rattus turn (a turn reveals its plague's tokens one at a time, T-7, each taking
a decryption share from every seat)."""

from __future__ import annotations

import statistics
from email import message_from_bytes
from pathlib import Path

from pbem.ledger.replay import Replay
from tests.mail.conftest import make_players
from tests.mail.servers import Certs, Dovecot, Smtp
from tests.mail.test_game_by_mail import Table, play_by_mail

KB = 1024
MEDIAN_GOAL = 32 * KB
MOST_GOAL = 1024 * KB


def budget(final: Replay, smtp: Smtp, table: Table, per: str, units: int) -> dict[str, float]:
    """The figures of one game's mail, printed as one line."""
    sizes, pages, steps, full = [], 0, 0, []
    for _, _, raw in smtp.delivery.messages:
        sizes.append(len(raw))
        for part in message_from_bytes(raw).walk():
            kind, data = part.get_content_type(), part.get_payload(decode=True) or b""
            pages += len(data) if kind == "text/html" else 0
            steps += len(data) if kind.endswith("json") else 0
            if kind == "application/json":
                full.append(len(raw))
    final_bytes = len(table.final_text.encode())
    others = [size for size in sizes if size not in full]
    figures = {
        "messages": len(sizes),
        "per": len(sizes) / units,
        "median": statistics.median(sizes),
        "most": max(others),
        "total": sum(sizes),
        "pages": pages,
        "steps": steps,
        "file": final_bytes,
    }
    print(
        f"\n{final.rules.id}, {len(final.cards)} players by mail: {len(sizes)} messages, "
        f"{figures['per']:.1f} per {per} over {units} {per}s; bytes per message: median "
        f"{figures['median'] / KB:.1f} KB, most {figures['most'] / KB:.0f} KB (but "
        f"{len(full)} with the whole file: {max(full) / KB:.0f} KB); all mail "
        f"{figures['total'] / KB:.0f} KB = {figures['total'] / final_bytes:.1f}x the final "
        f"file ({final_bytes / KB:.0f} KB), of which board pages {pages / KB:.0f} KB and "
        f"steps {steps / KB:.0f} KB ({steps / final_bytes:.1f}x the file)"
    )
    return figures


def test_a_rattaneer_game_by_mail_within_its_budget(trio: list, tmp_path: Path, smtp: Smtp) -> None:
    final, table = play_by_mail(trio, tmp_path, smtp, "rattaneer", "greedy")
    rounds = final.state.round  # type: ignore[union-attr]
    figures = budget(final, smtp, table, "round", rounds)
    assert figures["most"] <= MOST_GOAL


def test_an_africanus_game_of_one_person_and_three_bots_within_its_budget(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    players = make_players(tmp_path, smtp, imap, certs, ("alice", "rob1", "rob2", "rob3"))
    robots = {p.name: ["--bot", "greedy"] for p in players[1:]}
    final, table = play_by_mail(
        players, tmp_path, smtp, "rattus", "greedy", "africanus=on", robots=robots
    )
    turns = final.state.turn  # type: ignore[union-attr]
    figures = budget(final, smtp, table, "turn", turns)
    assert figures["median"] <= MEDIAN_GOAL and figures["most"] <= MOST_GOAL
