"""Issue 27: nothing lost when mail is. A whole game by real SMTP and IMAP in which a fifth
of the deliveries are dropped and the rest arrive out of order: a bundle that comes before
the steps it follows is kept and the steps are asked for (and sent), and a seat left waiting
is reminded, with the steps it lacks, once per deadline period. The game ends, and every
store holds the same game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.mail.conftest import Player
from tests.mail.servers import Smtp
from tests.mail.test_game_by_mail import Table

HOUR = 3600


def lossy_release(smtp: Smtp, rng: random.Random, lose: float) -> tuple[set[str], int]:
    """Deliver the mail held so far in a random order, each delivery lost with chance
    ``lose``; who got something, and how many deliveries were lost."""
    held, smtp.delivery.held = smtp.delivery.held, []
    deliveries = [(rcpt, content) for rcpts, content in held for rcpt in rcpts]
    rng.shuffle(deliveries)
    got, lost = set(), 0
    for rcpt, content in deliveries:
        if rng.random() < lose:
            lost += 1
            continue
        smtp.delivery.imap.append(rcpt, content)
        got.add(rcpt)
    return got, lost


def test_a_game_with_a_fifth_of_its_mail_lost_and_the_rest_reordered_still_ends(
    trio: list[Player], tmp_path: Path, smtp: Smtp, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.conftest import CLOCK_START

    alice = trio[0]
    seats = ["--seat", "alice"] + [
        a for p in trio[1:] for a in ("--seat", tmp_path / f"{p.name}.card.json")
    ]
    game = alice.work / "game.json"
    opts = ("--option", "rounds=3", "--deadline", "1h")
    alice.run("new", "guess", *seats, *opts, "--as", "alice", "-o", game)
    table = Table(trio, smtp, "guess", "random", seed=3)
    rng = random.Random(20)
    smtp.delivery.hold = True
    alice.run("send", game, "--as", "alice")
    now, lost, reminders = CLOCK_START, 0, 0
    for _ in range(400):
        if table.over():
            break
        got, dropped = lossy_release(smtp, rng, 0.2)
        lost += dropped
        due = [p for p in trio if p.email in got]
        if not due:  # everyone waits: the deadline passes, and the robots remind
            now += HOUR + 1
            monkeypatch.setenv("PBEM_TEST_CLOCK", str(now))
            reminders += 1
            due = trio
        for player in due:
            table.watch(player)
        for player in due:
            table.decide(player)
    if not table.over():
        for name, lines in table.events.items():
            print(name, *lines[-10:], sep="\n  ")
        print(table.where(), table.problems[-6:])
    assert table.over()
    texts = {p.store().head(p.store().ids()[0]).text() for p in trio}
    assert len(texts) == 1  # every store holds the same game
    print(f"\n{len(smtp.delivery.messages)} messages, {lost} deliveries lost, {reminders} waits")
    assert lost >= 5
