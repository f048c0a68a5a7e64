"""The outbox (issue 29): mail that could not go out waits in the store and goes with the
next ``pbem send`` or pass of ``pbem watch``; ``pbem games`` lists it. Faults played by the
tests' real SMTP server: it refuses, it is stopped, it hangs up in the middle of a message,
it takes a message and hangs up before saying so (the crash window between the server's
acceptance and the outbox's update). Each test counts what was sent, received and
duplicated: nothing is lost, nothing is taken twice."""

from __future__ import annotations

import asyncio
import email
import imaplib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from pbem.mail.memory import Memory
from tests.mail.conftest import Player, new_game
from tests.mail.servers import HOST, PASSWORD, Certs, Delivery, Dovecot, smtp_server
from tests.mail.test_watch import watch


class HangsUp(Delivery):
    """A delivery that, for the next ``hang_ups`` messages, hangs up without answering:
    after delivering the message (``after_accept``) or before (the message is lost in
    transit, as when the server dies mid-message)."""

    hang_ups = 0
    after_accept = False

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if not self.hang_ups:
            return await super().handle_DATA(server, session, envelope)
        self.hang_ups -= 1
        if self.after_accept:
            await super().handle_DATA(server, session, envelope)
        server.transport.close()
        return "421 4.3.0 gone"


def message_ids(imap: Dovecot, user: str) -> list[str]:
    """The Message-IDs in ``user``'s INBOX, one per message delivered."""
    client = imaplib.IMAP4(HOST, imap.port)
    client.login(user, PASSWORD)
    client.select("INBOX", readonly=True)
    found = []
    for number in client.search(None, "ALL")[1][0].split():
        data = client.fetch(number, "(BODY.PEEK[HEADER])")[1]
        found.append(email.message_from_bytes(data[0][1])["Message-ID"])  # type: ignore[index]
    client.logout()
    return found


def count(player: Player, imap: Dovecot, out: str, what: str) -> tuple[int, int, int]:
    """Sent (messages the server delivered to the player), received (distinct ones), and
    duplicated (a game taken as new more than once); printed for the record."""
    ids = message_ids(imap, player.email)
    news = len(re.findall("new game", out))
    print(f"{what}: delivered {len(ids)}, distinct {len(set(ids))}, duplicated {news - 1}")
    return len(ids), len(set(ids)), news - 1


def waiting(player: Player) -> int:
    return len(Memory(player.store()).outbox())


def test_send_keeps_what_a_refusing_or_stopped_server_did_not_take(
    trio: list[Player], tmp_path: Path, imap: Dovecot, certs: Certs
) -> None:
    alice, bob, carol = trio
    game = new_game(trio, tmp_path)
    with smtp_server(certs, imap, "starttls") as smtp:
        for player in trio:
            player.run("config", "set", "smtp.port", smtp.port)
        smtp.delivery.refuse = True
        refused = alice.run("send", game, code=2)
    assert "554 5.3.0 refused for the test" in refused.stderr
    assert "kept in the outbox (1 waiting): pbem send or pbem watch sends it later" in (
        refused.stderr
    )
    listing = alice.run("games").stdout
    assert "1 mail waiting to go out (pbem watch, or pbem send, sends it):" in listing
    assert f"{bob.email}" in listing.split("waiting to go out")[1]
    listed = json.loads(alice.run("games", "--json").stdout)
    (queued,) = listed["outbox"]
    assert queued["game"] == alice.store().ids()[0] and "[pbem] guess" in queued["subject"]
    assert [row["waiting_mail"] for row in listed["games"]] == [1]

    # The server is down altogether now: nobody listens on its port.
    down = alice.run("send", game, code=2)
    assert "Connection refused" in down.stderr and "(2 waiting)" in down.stderr
    assert waiting(alice) == 2 and imap.count(bob.email) == 0

    with smtp_server(certs, imap, "starttls", port=smtp.port):  # back, where it was
        sent = alice.json("send", game)
        assert sent["also_sent"] == 2 and waiting(alice) == 0
        assert "waiting to go out" not in alice.run("games").stdout
        out, _ = watch(bob)
    delivered, distinct, duplicated = count(bob, imap, out, "refused, then stopped")
    assert (delivered, distinct, duplicated) == (3, 3, 0)  # three sends, one game taken
    assert len(bob.store().ids()) == 1 and imap.count(carol.email) == 4  # + bob's join


def test_a_server_that_hangs_up_mid_message_loses_nothing(
    trio: list[Player], tmp_path: Path, certs: Certs, imap: Dovecot
) -> None:
    alice, bob, _ = trio
    delivery = HangsUp(imap)
    delivery.hang_ups = 1
    with smtp_server(certs, imap, "starttls", delivery) as server:
        alice.run("config", "set", "smtp.port", server.port)
        failed = alice.run("send", new_game(trio, tmp_path), code=2)
        assert "kept in the outbox (1 waiting)" in failed.stderr
        assert imap.count(bob.email) == 0
        watch(alice)  # her robot's pass sends what waits
    assert waiting(alice) == 0
    out, _ = watch(bob)
    assert count(bob, imap, out, "hung up mid-message") == (1, 1, 0)


def test_a_crash_between_the_servers_accept_and_the_outbox_update_takes_one_game(
    trio: list[Player], tmp_path: Path, certs: Certs, imap: Dovecot
) -> None:
    """The server delivered the message but the sender never heard: it stays in the
    outbox and goes again, the very same bytes (its Message-ID); the receiving robot takes
    it once."""
    alice, bob, _ = trio
    delivery = HangsUp(imap)
    delivery.hang_ups, delivery.after_accept = 1, True
    with smtp_server(certs, imap, "starttls", delivery) as server:
        alice.run("config", "set", "smtp.port", server.port)
        alice.run("send", new_game(trio, tmp_path), code=2)
        assert imap.count(bob.email) == 1 and waiting(alice) == 1
        watch(alice)
    assert waiting(alice) == 0
    out, _ = watch(bob)
    delivered, distinct, duplicated = count(bob, imap, out, "accepted, then hung up")
    assert (delivered, distinct, duplicated) == (2, 1, 0)
    assert out.count("made 1 automatic step") == 1


class KillsTheSender(Delivery):
    """A delivery that takes the next message, then kills the process that sent it
    (SIGKILL: no handler runs) before the server's reply reaches it."""

    armed = False
    sender: subprocess.Popen[bytes] | None = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        answer = await super().handle_DATA(server, session, envelope)
        if self.armed:
            self.armed = False
            while self.sender is None:  # the test names the process once it started it
                await asyncio.sleep(0.01)
            self.sender.kill()
            self.sender.wait()
        return answer


def test_a_sender_killed_after_the_servers_accept_sends_the_same_message_again(
    trio: list[Player], tmp_path: Path, certs: Certs, imap: Dovecot
) -> None:
    alice, bob, _ = trio
    delivery = KillsTheSender(imap)
    with smtp_server(certs, imap, "starttls", delivery) as server:
        alice.run("config", "set", "smtp.port", server.port)
        game = new_game(trio, tmp_path)
        delivery.armed = True
        sender = subprocess.Popen(
            [sys.executable, "-c", "from tests.mail.conftest import cli; cli()", "send", game],
            env={**os.environ, **alice.env()},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        delivery.sender = sender
        assert sender.wait(60) == -9  # killed, never told the server took it
        assert imap.count(bob.email) == 1 and waiting(alice) == 1  # taken, not marked
        watch(alice)  # the next pass sends what waits
    assert waiting(alice) == 0
    out, _ = watch(bob)
    assert count(bob, imap, out, "sender killed after the accept") == (2, 1, 0)
