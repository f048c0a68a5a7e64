"""Issue 30: each player's mail in the language of their card, through real servers. A
card may name a language (``pbem key new NAME --lang ja``); ``pbem send`` and the robot
send one message for each language the recipients read, each with its subject and body in
that language and all with the same attachments (the same signed steps, byte for byte)."""

from __future__ import annotations

import contextlib
import email
import email.policy
import imaplib
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from tests.mail.conftest import Player, new_game
from tests.mail.servers import HOST, PASSWORD, Certs, Dovecot, Smtp


def inbox(player: Player) -> list[EmailMessage]:
    """Every message in the player's INBOX, oldest first."""
    return _fetch(player.email)


def _fetch(user: str) -> list[EmailMessage]:
    imap = imaplib.IMAP4(HOST, _PORT[0], timeout=10)
    try:
        imap.login(user, PASSWORD)
        imap.select("INBOX", readonly=True)
        _status, data = imap.search(None, "ALL")
        found = []
        for number in (data[0] or b"").split():
            _status, parts = imap.fetch(number, "(RFC822)")
            raw = parts[0][1]
            assert isinstance(raw, bytes)
            message = email.message_from_bytes(raw, policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            found.append(message)
        return found
    finally:
        with contextlib.suppress(Exception):
            imap.logout()


_PORT: list[int] = [0]


def players(root: Path, smtp: Smtp, imap: Dovecot, certs: Certs) -> list[Player]:
    """alice (no language on her card), 花子 (ja) and 王小明 (zh-Hant); alice holds the
    others' cards."""
    _PORT[0] = imap.port
    made = []
    for index, (name, lang) in enumerate([("alice", None), ("花子", "ja"), ("王小明", "zh-Hant")]):
        player = Player(name, root)
        player.email = f"player{index}.{id(player)}@example.org"  # an address is ASCII
        more: list[Any] = ["--lang", lang] if lang else []
        player.run("key", "new", name, "--email", player.email, "--no-passphrase", *more)
        player.run("key", "export", name, "-o", root / f"{name}.card.json")
        player.configure(smtp, imap, certs)
        made.append(player)
    return made


def text(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def attachments(message: EmailMessage) -> list[tuple[str | None, bytes]]:
    return [(a.get_filename(), a.get_payload(decode=True)) for a in message.iter_attachments()]


def test_send_writes_each_player_in_the_language_of_their_card(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    alice, hanako, ming = players(tmp_path, smtp, imap, certs)
    game = new_game([alice, hanako, ming], tmp_path, "guess", "rounds=1")
    report = alice.json("send", game)
    assert sorted(report["sent_to"]) == sorted([hanako.email, ming.email])
    assert len(report["messages"]) == 2

    (to_hanako,) = inbox(hanako)
    (to_ming,) = inbox(ming)
    assert to_hanako["Content-Language"] == "ja" and to_ming["Content-Language"] == "zh-Hant"
    assert to_hanako["To"].addresses[0].display_name == "花子"
    assert to_ming["To"].addresses[0].display_name == "王小明"
    # The subjects: "[pbem] guess ID step 0: 花子, 王小明 to join", in each language.
    assert "ステップ 0" in to_hanako["Subject"] and "の参加待ち" in to_hanako["Subject"]
    assert "第 0 步" in to_ming["Subject"] and "等待 花子, 王小明 加入" in to_ming["Subject"]
    japanese, chinese = text(to_hanako), text(to_ming)
    assert "いま待っているもの: 花子, 王小明 の参加待ち" in japanese
    assert "席: alice [" in japanese and "--as 花子" in japanese
    assert "目前等待: 等待 花子, 王小明 加入" in chinese and "座位: alice [" in chinese
    assert "Awaited now" not in japanese + chinese
    # The same steps, byte for byte, and the same name for them.
    assert attachments(to_hanako) == attachments(to_ming) and attachments(to_ming)

    # The robot too. 花子's watch makes her join and mails it to 王小明, in Chinese.
    hanako.run("watch", "--once", "--as", "花子")
    later = inbox(ming)
    assert len(later) == 2 and later[1]["Content-Language"] == "zh-Hant"
    assert later[1]["From"].addresses[0].display_name == "花子"  # RFC 2047 on the way
    assert "=?utf-8?" in later[1].as_string().split("\n\n", 1)[0]  # the headers stay ASCII
    assert "第 1 步: 等待 王小明 加入" in later[1]["Subject"] and "目前等待" in text(later[1])
    # 王小明's join completes the joins: his watch mails alice, whose card names no
    # language, for her beacon, in his own language (the sender's).
    ming.run("watch", "--once", "--as", "王小明")
    (to_alice,) = inbox(alice)
    assert to_alice["Content-Language"] == "zh-Hant" and "目前等待: 等待 alice" in text(to_alice)
    # alice's watch makes her beacon and asks both for their guesses: one message each.
    alice.run("watch", "--once", "--as", "alice")
    to_hanako, to_ming = inbox(hanako)[-1], inbox(ming)[-1]
    assert to_hanako["Content-Language"] == "ja" and to_ming["Content-Language"] == "zh-Hant"
    assert "花子 さん、あなたの番です" in text(to_hanako)
    assert "王小明，輪到你決定" in text(to_ming)
    assert attachments(to_hanako) == attachments(to_ming) and attachments(to_ming)


def test_a_card_without_a_language_gets_the_senders(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    """Who names no language reads the sender's: one message, as before issue 30."""
    alice, hanako, ming = players(tmp_path, smtp, imap, certs)
    game = new_game([hanako, alice], tmp_path, "guess", "rounds=1")
    report = hanako.json("send", game)
    assert "messages" not in report and report["sent_to"] == [alice.email]
    (message,) = inbox(alice)
    assert message["Content-Language"] == "ja" and "いま待っているもの" in text(message)
    del ming


@pytest.mark.parametrize("lang", ["ja", "zh-Hans"])
def test_send_to_a_file_writes_one_file_per_language(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs, lang: str
) -> None:
    alice, hanako, ming = players(tmp_path, smtp, imap, certs)
    ming.run("key", "lang", "王小明", lang)
    ming.run("key", "export", "王小明", "-o", tmp_path / "ming2.card.json")
    (tmp_path / "王小明.card.json").unlink()
    (tmp_path / "ming2.card.json").rename(tmp_path / "王小明.card.json")
    game = new_game([alice, hanako, ming], tmp_path, "guess", "rounds=1")
    report = alice.json("send", game, "--eml", tmp_path / "out.eml")
    if lang == "ja":  # both read Japanese: one message for both
        assert "emls" not in report and "messages" not in report
        return
    # The first where it was asked, the next beside it, named after its language.
    assert report["emls"] == [str(tmp_path / "out.eml"), str(tmp_path / "out.zh-Hans.eml")]
    first, second = (
        email.message_from_bytes((tmp_path / name).read_bytes(), policy=email.policy.default)
        for name in ("out.eml", "out.zh-Hans.eml")
    )
    assert isinstance(first, EmailMessage) and isinstance(second, EmailMessage)
    assert first["Content-Language"] == "ja" and "いま待っているもの" in text(first)
    assert "当前等待" in text(second)  # Simplified, not Traditional
    assert attachments(first) == attachments(second)


def test_a_language_named_after_the_game_began_is_used(
    tmp_path: Path, smtp: Smtp, imap: Dovecot, certs: Certs
) -> None:
    """The game keeps the cards it began with; the card a player sends later, with a
    language, is imported over the old one and names the language of their mail."""
    alice, hanako, ming = players(tmp_path, smtp, imap, certs)
    game = new_game([alice, ming], tmp_path, "guess", "rounds=1")
    ming.run("key", "lang", "王小明", "zh-Hans")
    ming.run("key", "export", "王小明", "-o", tmp_path / "new.card.json")
    assert alice.json("key", "import", tmp_path / "new.card.json")["imported"] is True
    alice.json("send", game)
    (message,) = inbox(ming)
    assert message["Content-Language"] == "zh-Hans" and "当前等待" in text(message)
    del hanako
