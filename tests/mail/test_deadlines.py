"""The robot and deadlines (issue 14 point 1): when a decision is past its deadline, the
first seat that is not awaited mails the late player one reminder, and every robot tells
its own player that it may call."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest

from tests.conftest import CLOCK_START
from tests.mail.conftest import Player
from tests.mail.servers import Smtp


def watch(player: Player) -> str:
    return player.run("watch", "--once", "--as", player.name).stdout


def carol_late(trio: list[Player], tmp_path: Path) -> str:
    """A guess game with a deadline of 2 hours, each player on a store and a mailbox of
    their own, where alice and bob have sent their sealed guesses and carol has not."""
    alice, bob, carol = trio
    seats = ["--seat", "alice", "--seat", tmp_path / "bob.card.json"]
    seats += ["--seat", tmp_path / "carol.card.json"]
    game = alice.work / "game.json"
    alice.run("new", "guess", *seats, "--deadline", "2h", "--as", "alice", "-o", game)
    alice.run("send", game)
    for player in (bob, carol, alice, bob, carol, alice):  # the joins, the setup beacon
        watch(player)
    gid = alice.store().ids()[0]
    for player, value in ((alice, 3), (bob, 5)):
        player.run("play", gid[:8], f"guess {value}", "--as", player.name)
        player.run("send", gid[:8], "--as", player.name)
    for player in (alice, bob):
        watch(player)
    return gid


def test_a_late_player_is_reminded_once_a_deadline_period_by_each_other_player(
    trio: list[Player], tmp_path: Path, smtp: Smtp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: each robot not awaited reminds the late seats, with the steps they lack
    from its own copy (a mail lost on the way is sent again so, whoever sent it first),
    once per deadline period; and each player is told it may call."""
    alice, bob, carol = trio
    carol_late(trio, tmp_path)
    sent = len(smtp.delivery.messages)

    def reminders() -> list[email.message.EmailMessage]:
        messages = [
            email.message_from_bytes(raw, policy=email.policy.default)
            for _, _, raw in smtp.delivery.messages[sent:]
        ]
        return [m for m in messages if "reminder" in m["Subject"]]

    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START + 3 * 3600))
    out = watch(alice)
    assert "carol past the deadline: you may call: pbem call" in out
    (reminder,) = reminders()
    assert carol.email in reminder["To"] and bob.email not in reminder["To"]
    assert "the deadline passed" in reminder["Subject"] and reminder["X-Pbem-Reminder"] == "yes"
    assert "you may call" in watch(bob)  # bob is told, and reminds carol too
    watch(alice)  # once per deadline period: no second reminder of alice's
    assert [m["From"].addresses[0].addr_spec for m in reminders()] == [alice.email, bob.email]
    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START + 4 * 3600 + 60))
    watch(alice)  # the next period: again
    assert len(reminders()) == 3


def test_a_call_is_mailed_to_whoever_must_still_sign_it(
    trio: list[Player], tmp_path: Path, smtp: Smtp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """alice calls carol in the sealed decision: the mail goes to bob, who must co-sign,
    and to carol, who may still act; bob's store takes the call after the open batch (it
    refused it as a fork before), and his co-signature completes it."""
    alice, bob, carol = trio
    gid = carol_late(trio, tmp_path)
    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START + 3 * 3600))
    alice.run("call", gid[:8], "carol", "--as", "alice")
    sent = len(smtp.delivery.messages)
    alice.run("send", gid[:8], "--as", "alice")
    (raw,) = {raw for _, _, raw in smtp.delivery.messages[sent:]}
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert bob.email in message["To"] and carol.email in message["To"]
    assert f"your signature is due: pbem call {gid[:8]} carol" in watch(bob)
    last = watch(carol).splitlines()[-1]  # the call's mail: it decides for carol now
    assert "being signed: a call (signed by alice; still to sign: bob)" in last
    assert "your" not in last
    assert "still to sign: bob" in bob.run("status", gid[:8]).stdout
    bob.run("call", gid[:8], "carol", "--as", "bob")
    assert "call on carol: the stand-in plays" in bob.run("log", gid[:8]).stdout


def test_a_reminder_is_in_the_language_of_the_late_players_card(
    trio: list[Player], tmp_path: Path, smtp: Smtp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: carol's card says she reads Japanese; alice's reminder to her is in it."""
    alice, _bob, carol = trio
    carol.run("key", "lang", "carol", "ja")
    (tmp_path / "carol.card.json").unlink()
    carol.run("key", "export", "carol", "-o", tmp_path / "carol.card.json")
    carol_late(trio, tmp_path)
    sent = len(smtp.delivery.messages)
    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START + 3 * 3600))
    watch(alice)
    messages = [
        email.message_from_bytes(raw, policy=email.policy.default)
        for _, _, raw in smtp.delivery.messages[sent:]
    ]
    (reminder,) = [m for m in messages if m["X-Pbem-Reminder"] == "yes"]
    assert reminder["Content-Language"] == "ja" and "催促: " in reminder["Subject"]
    assert carol.email in reminder["To"]
