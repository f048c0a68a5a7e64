"""``pbem send`` through a real SMTP server, ``pbem receive`` from every kind of source."""

from __future__ import annotations

import email
import email.policy
import mailbox
import os
from pathlib import Path

import pytest

from pbem.format import gamefile
from pbem.format.limits import MAX_MAIL_BYTES
from tests.mail.conftest import Player, make_players, new_game
from tests.mail.servers import Certs, Dovecot, smtp_server


def test_send_mails_the_awaited_with_templates_and_a_named_attachment(
    trio: list[Player], tmp_path: Path, imap: Dovecot
) -> None:
    alice, bob, carol = trio
    game = new_game(trio, tmp_path, "guess", "rounds=1")
    report = alice.json("send", game)
    assert sorted(report["sent_to"]) == sorted([bob.email, carol.email])
    assert imap.count(bob.email) == 1 and imap.count(carol.email) == 1
    assert imap.count(alice.email) == 0  # never to oneself

    alice.run("send", game, "--eml", tmp_path / "m.eml")
    msg = email.message_from_bytes((tmp_path / "m.eml").read_bytes(), policy=email.policy.default)
    assert msg["Subject"].startswith("[pbem] guess ") and "to join" in msg["Subject"]
    body = msg.get_body(("plain",)).get_content()
    assert "Awaited now: bob, carol to join." in body
    assert "pbem play guess-" in body and "--as bob" in body
    # Issue 27: the joins need no decision: no board page, and marked for mail filters;
    # the players have signed nothing yet, so they get the whole file.
    (attachment,) = list(msg.iter_attachments())
    assert msg["Auto-Submitted"] == "auto-generated" and msg["X-Pbem-Automatic"] == "yes"
    assert attachment.get_content_type() == "application/json"
    name = attachment.get_filename()
    game_id = alice.store().ids()[0]
    assert name.startswith(f"guess-{game_id[:8]}-s0000-") and name.endswith(".json")


def test_the_advice_for_an_automatic_step_works_every_time(
    trio: list[Player], tmp_path: Path
) -> None:
    """Issue 32: the whole-file mail told ``pbem play FILE -o next.json``, which failed the
    second time (next.json existed). The advice now replaces the saved attachment (one
    working file) and mails it on: bob and then carol follow it on one saved file."""
    alice, bob, carol = trio
    game = new_game(trio, tmp_path, "guess", "rounds=1")
    alice.run("send", game, "--full", "--eml", tmp_path / "m.eml")
    msg = email.message_from_bytes((tmp_path / "m.eml").read_bytes(), policy=email.policy.default)
    body = msg.get_body(("plain",)).get_content()
    (attachment,) = list(msg.iter_attachments())
    saved = tmp_path / attachment.get_filename()
    saved.write_bytes(attachment.get_content())
    assert " -o " not in body
    for player in (bob, carol):
        advice = f"pbem play {saved.name} --as {player.name} --send"
        assert advice in body
        said = player.json("play", saved, "--as", player.name, "--send")
        assert said["file"] == str(saved) and said["kept"] is None
    assert len(gamefile.read(saved).steps) == 1  # the join batch: both envelopes in it


def test_a_decision_is_asked_with_the_steps_since_and_the_board(
    trio: list[Player], tmp_path: Path
) -> None:
    """Issue 27: once the players have signed, a mail carries the steps they lack (a step
    bundle from the last step each acknowledged), and a mail that asks for a decision
    carries the board page; ``--full`` attaches the whole file."""
    alice, bob, carol = trio
    game = new_game(trio, tmp_path, "guess", "rounds=1")
    for player in (bob, carol):
        player.run("receive", _as_eml(alice, game, tmp_path / f"to-{player.name}.eml"))
        player.run("play", player.store().ids()[0][:8], "--as", player.name)
    f = Path(alice.json("export", alice.store().ids()[0][:8])["file"])
    for player in (bob, carol):
        latest = Path(player.json("export", player.store().ids()[0][:8])["file"])
        alice.run("status", latest)
    alice.run("play", alice.store().ids()[0][:8], "--as", "alice")  # the setup draw
    alice.run("send", alice.store().ids()[0][:8], "--eml", tmp_path / "d.eml")
    msg = email.message_from_bytes((tmp_path / "d.eml").read_bytes(), policy=email.policy.default)
    steps, page = list(msg.iter_attachments())
    assert steps.get_content_type() == "application/vnd.pbem.steps+json"
    assert steps.get_filename().endswith(".steps.json") and "X-Pbem-Automatic" not in msg
    assert page.get_content_type() == "text/html"
    assert "The steps from step 1 on are attached" in msg.get_body(("plain",)).get_content()
    # Issue 27: beside a bundle, the page of those steps alone: the board as it is now and
    # their history, without every position packed to step through (pbem show has them).
    html = page.get_content()
    assert "The steps this mail carries, from step 1 on" in html
    assert 'id="frames"' not in html and 'id="step-1"' in html and 'id="step-0"' not in html
    assert page["Content-Transfer-Encoding"] == "quoted-printable"
    alice.run("send", alice.store().ids()[0][:8], "--full", "--eml", tmp_path / "f.eml")
    full = email.message_from_bytes((tmp_path / "f.eml").read_bytes(), policy=email.policy.default)
    assert next(full.iter_attachments()).get_content_type() == "application/json"
    assert f.exists()


def test_a_second_mail_to_the_same_players_carries_what_follows_the_first(
    trio: list[Player], tmp_path: Path
) -> None:
    """Issue 27: a mail carries the steps after the last one this home mailed to its
    recipients (X-Pbem-Next), not again everything since what they last signed."""
    alice, bob, carol = trio
    game = new_game(trio, tmp_path, "guess", "rounds=1")
    for player in (bob, carol):
        player.run("receive", _as_eml(alice, game, tmp_path / f"to-{player.name}.eml"))
        player.run("play", player.store().ids()[0][:8], "--as", player.name)
    for player in (bob, carol):
        alice.run("status", Path(player.json("export", player.store().ids()[0][:8])["file"]))
    short = alice.store().ids()[0][:8]
    alice.run("play", short, "--as", "alice")  # the setup draw
    first = email.message_from_bytes(
        _as_eml(alice, Path(short), tmp_path / "1.eml").read_bytes(), policy=email.policy.default
    )
    assert first["X-Pbem-Next"] == "2"  # the joins and the draw, both complete
    assert next(first.iter_attachments()).get_filename().split("-")[2] == "s0000"
    alice.run("play", short, "guess 4", "--as", "alice")  # her sealed guess: a batch opens
    second = email.message_from_bytes(
        _as_eml(alice, Path(short), tmp_path / "2.eml").read_bytes(), policy=email.policy.default
    )
    steps = next(second.iter_attachments())
    assert steps.get_filename().split("-")[2:4] == ["s0002", "s0003"]  # the new step alone
    assert second["X-Pbem-Next"] == "2"  # the batch is open: the next mail carries it again
    for player in (bob, carol):  # and it is enough: they take it on what they hold
        said = player.run("receive", tmp_path / "1.eml", tmp_path / "2.eml").stdout
        assert "guess" in said


def _as_eml(sender: Player, game: Path, target: Path) -> Path:
    sender.run("send", game, "--as", sender.name, "--eml", target, code=None)
    return target


def test_the_attached_page_is_the_public_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 17: each game mail carries the page ``pbem show`` draws without ``--as``,
    byte for byte, never a private one: alice's sealed guess is on her own page only."""
    monkeypatch.chdir(tmp_path)
    alice = Player("alice", tmp_path)
    for name in ("alice", "bob", "carol"):
        alice.run("key", "new", name, "--email", f"{name}@example.org", "--no-passphrase")
    seats = [a for n in ("alice", "bob", "carol") for a in ("--seat", n)]
    alice.run("new", "guess", *seats, "--option", "rounds=1", "--as", "alice", "-o", "g.json")
    for name in ("bob", "carol", "alice"):  # the joins, then the setup draw
        alice.run("play", "g.json", "--as", name)
    alice.run("play", "g.json", "guess 7", "--as", "alice", "-o", "mine.json")
    alice.run("send", "mine.json", "--as", "alice", "--full", "--eml", "m.eml")
    msg = email.message_from_bytes(Path("m.eml").read_bytes(), policy=email.policy.default)
    attachment, page = list(msg.iter_attachments())
    html = page.get_content()
    copy = tmp_path / attachment.get_filename()
    copy.write_bytes(attachment.get_content())
    assert html == alice.run("show", copy, "-o", "-").stdout
    private = alice.run("show", copy, "--as", "alice", "-o", "-").stdout
    assert "guess 7" in private and "guess 7" not in html


# aiosmtpd warns that AUTH does not require STARTTLS: with implicit TLS there is no clear text.
@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_send_over_implicit_tls(tmp_path: Path, certs: Certs, imap: Dovecot) -> None:
    with smtp_server(certs, imap, "tls") as smtps:
        alice, bob = make_players(tmp_path, smtps, imap, certs, ("alice", "bob"))
        game = new_game([alice, bob], tmp_path)
        alice.run("send", game)
        assert imap.count(bob.email) == 1
        assert smtps.delivery.messages[0][1] == [bob.email]


def test_a_refusing_or_absent_server_is_one_line_and_exit_2(
    trio: list[Player], tmp_path: Path, smtp: object
) -> None:
    alice = trio[0]
    game = new_game(trio, tmp_path)
    smtp.delivery.refuse = True  # type: ignore[attr-defined]
    result = alice.run("send", game, code=2)
    assert result.stderr.count("\n") == 1
    assert "554" in result.stderr and "nothing was sent" in result.stderr
    alice.run("config", "set", "smtp.port", "1")  # nothing listens there
    result = alice.run("send", game, code=2)
    assert result.stderr.startswith("pbem: error: SMTP server 127.0.0.1:1: ")


def test_receive_from_eml_mbox_maildir_and_stdin(trio: list[Player], tmp_path: Path) -> None:
    alice, bob, _ = trio
    game = new_game(trio, tmp_path)
    eml = tmp_path / "m.eml"
    alice.run("send", game, "--eml", eml)
    raw = eml.read_bytes()

    report = bob.json("receive", eml, "--as", "bob")
    (entry,) = report["games"]
    assert entry["status"] == "new" and entry["your_move"] is True

    box = mailbox.mbox(tmp_path / "box.mbox")
    box.add(raw)
    box.flush()
    maildir = mailbox.Maildir(tmp_path / "Maildir")
    maildir.add(raw)
    for source in (tmp_path / "box.mbox", tmp_path / "Maildir"):
        (entry,) = bob.json("receive", source)["games"]
        assert entry["status"] == "duplicate"
    result = bob.run("receive", "-", stdin=raw)
    assert "nothing new (seen before)" in result.stdout
    assert len(bob.store().ids()) == 1


def test_a_pipe_or_a_huge_file_planted_in_a_maildir_is_one_problem_and_the_rest_is_read(
    trio: list[Player], tmp_path: Path
) -> None:
    """A Maildir is another program's folder: an entry that is a named pipe would block a
    reader for ever, and a huge one exhaust its memory. Each is refused as any input file
    is (one line naming it), and the game mail beside them is imported all the same."""
    alice, bob, _ = trio
    eml = tmp_path / "m.eml"
    alice.run("send", new_game(trio, tmp_path), "--eml", eml)
    box = mailbox.Maildir(tmp_path / "Maildir")
    box.add(eml.read_bytes())
    new = tmp_path / "Maildir" / "new"
    os.mkfifo(new / "0.pipe")
    with open(new / "1.huge", "wb") as huge:
        huge.truncate(MAX_MAIL_BYTES + 1)  # sparse: no disk used
    result = bob.run("receive", tmp_path / "Maildir", "--as", "bob", code=1)
    lines = result.stderr.splitlines()
    assert f"pbem: {new / '0.pipe'}: is not a regular file" in lines[0], lines
    assert f"pbem: {new / '1.huge'} is larger than 96 MiB" == lines[1], lines
    assert "2 problems; everything else was imported" in lines[-1], lines
    assert len(bob.store().ids()) == 1


def test_receive_reports_unopenable_sources_in_one_line(trio: list[Player], tmp_path: Path) -> None:
    bob = trio[1]
    result = bob.run("receive", tmp_path / "nope.mbox", code=2)
    assert result.stderr == f"pbem: error: {tmp_path / 'nope.mbox'}: no such file or mailbox\n"
    (tmp_path / "notmaildir").mkdir()
    result = bob.run("receive", tmp_path / "notmaildir", code=2)
    assert "not a Maildir" in result.stderr and result.stderr.count("\n") == 1
