""" "Sign and send" in ``pbem ui``, clicked in a real headless Chromium against a real
``pbem ui`` process and the real SMTP server of the mail tests: with mail set up one
button signs the move and mails it (``ui.sign_and_send``, on by default); with the setting
off it signs and saves, and the move is shown as "signed, not sent" (the games list, the
game's page, ``pbem games``) until Send by mail sends it; without mail set up it signs,
saves and says that mail is not set up; a mail that fails leaves the move signed, says why,
and Send by mail tries again. A Rattaneer Morning placement (R-5.1) is the move."""

from __future__ import annotations

import json
from pathlib import Path

from tests.mail.servers import Certs, Smtp
from tests.ui.conftest import Homes, Server
from tests.ui.tables import PASSPHRASE
from tests.ui.test_board_page import (
    area,
    click_and_wait,
    configure_mail,
    let_in,
    open_game,
    pbem,
    sign,
    text,
)
from tests.view.browser import Browser

PLACEMENT = "pirates 3 7, henchmen 3"


def place(browser: Browser) -> None:
    """Bot1's Morning placement, clicked on the board."""
    browser.click(area(3))
    browser.wait_for(lambda: "second pirate" in text(browser, "prompt"))
    click_and_wait(browser, area(7), "pirates 3 7, henchmen X")
    click_and_wait(browser, area(3), PLACEMENT)


def games_row(browser: Browser, server: Server, game: str) -> str:
    let_in(browser, server)
    return str(browser.evaluate(f"document.querySelector(\"tr[data-game='{game}']\").innerText"))


def listed(home: Path, game: str) -> tuple[bool, str]:
    """``pbem games``: the game's ``unsent`` in JSON, and its lines as printed."""
    rows = json.loads(pbem(home, "games", "--as", "bot1", "--json"))["games"]
    (row,) = [r for r in rows if r["game"] == game]
    printed = pbem(home, "games", "--as", "bot1")
    return row["unsent"], printed


def test_sign_and_send_is_one_click(homes: Homes, server: Server, smtp: Smtp, certs: Certs) -> None:
    game = homes.table.rattaneer.genesis.game
    configure_mail(homes.ui, smtp, certs)
    with Browser() as browser:
        open_game(browser, server, game)
        assert text(browser, "sign-button") == "Sign and send"
        assert browser.evaluate("document.getElementById('sign-smtp-password')") is None
        place(browser)
        sign(browser)
        said = text(browser, "after-text")
        assert said.startswith(f"Signed and saved in your store: {PLACEMENT}."), said
        assert " Sent [pbem] rattaneer " in said, said
        assert "to bot2@example.org, bot3@example.org." in said, said
        assert browser.evaluate("document.getElementById('send').hidden") is True
        assert "signed, not sent" not in games_row(browser, server, game)
        assert browser.problems(server.base) == []
    assert len(smtp.delivery.messages) == 1
    unsent, printed = listed(homes.ui, game)
    assert unsent is False and "NOT SENT" not in printed


def test_signed_not_sent_until_send_by_mail(
    homes: Homes, server: Server, smtp: Smtp, certs: Certs
) -> None:
    game = homes.table.rattaneer.genesis.game
    configure_mail(homes.ui, smtp, certs)
    pbem(homes.ui, "config", "set", "ui.sign_and_send", "false")
    assert "ui.sign_and_send = false" in pbem(homes.ui, "config", "show")
    with Browser() as browser:
        open_game(browser, server, game)
        assert text(browser, "sign-button") == "Sign and save"
        place(browser)
        sign(browser)
        said = text(browser, "after-text")
        assert "Signed, not sent yet: Send by mail sends it." in said, said
        assert smtp.delivery.messages == []
        unsent, printed = listed(homes.ui, game)
        assert unsent is True
        assert f"SIGNED, NOT SENT (pbem send {game[:8]})" in printed, printed
        assert "signed, not sent" in games_row(browser, server, game)
        browser.goto(f"{server.pages}/game/{game}")  # the page says so too, once reloaded
        assert text(browser, "after-text").startswith("Signed, not sent: your move")
        browser.click("#send")
        browser.wait_for(lambda: text(browser, "after-result") != "")
        assert text(browser, "after-result").startswith("Sent "), text(browser, "after-result")
        assert "signed, not sent" not in games_row(browser, server, game)
        assert browser.problems(server.base) == []
    assert len(smtp.delivery.messages) == 1
    unsent, printed = listed(homes.ui, game)
    assert unsent is False and "NOT SENT" not in printed


def test_without_mail_it_signs_saves_and_says_so(homes: Homes, server: Server) -> None:
    game = homes.table.rattaneer.genesis.game
    with Browser() as browser:
        open_game(browser, server, game)
        assert text(browser, "sign-button") == "Sign and save"
        note = browser.evaluate("document.querySelector('#sign .no-mail').textContent")
        assert "Mail is not set up (pbem config set smtp.host HOST)" in note, note
        place(browser)
        sign(browser)
        said = text(browser, "after-text")
        assert said.endswith("Signed, not sent: mail is not set up. Awaited now: bot2, bot3."), said
        assert browser.evaluate("document.getElementById('send')") is None
        assert "signed, not sent" in games_row(browser, server, game)
        assert browser.problems(server.base) == []
    assert listed(homes.ui, game)[0] is True


def test_a_mail_that_fails_leaves_the_move_signed(
    homes: Homes, server: Server, smtp: Smtp, certs: Certs
) -> None:
    """The SMTP password is typed in the page (neither the environment nor the settings
    have it) and the real server refuses the message: the move stays signed, the page says
    why, and Send by mail (the password typed again) sends it once the server takes mail."""
    game = homes.table.rattaneer.genesis.game
    configure_mail(homes.ui, smtp, certs)
    pbem(homes.ui, "config", "set", "smtp.password_env", "PBEM_TEST_UNSET_PASSWORD")
    smtp.delivery.refuse = True
    with Browser() as browser:
        open_game(browser, server, game)
        place(browser)
        browser.type("#sign-smtp-password", "secret")
        sign(browser)
        said = text(browser, "after-text")
        assert said.startswith(f"Signed and saved in your store: {PLACEMENT}."), said
        assert " Signed, not sent: SMTP server " in said, said
        assert "refused for the test" in said and "(Send by mail tries again)" in said, said
        assert browser.evaluate("document.getElementById('sign-smtp-password').value") == ""
        assert smtp.delivery.refusals == 1 and smtp.delivery.messages == []
        assert listed(homes.ui, game)[0] is True
        smtp.delivery.refuse = False
        browser.type("#smtp-password", "secret")
        browser.click("#send")
        browser.wait_for(lambda: text(browser, "after-result") != "")
        assert text(browser, "after-result").startswith("Sent "), text(browser, "after-result")
        assert browser.problems(server.base) == []
    # The refused message waited in the outbox (pbem.mail.outbox) and went first; then the
    # one Send by mail made. Both carry the same move; the receiver takes it once.
    assert len(smtp.delivery.messages) == 2
    assert listed(homes.ui, game)[0] is False


def test_pbem_games_says_signed_not_sent_until_pbem_send(
    homes: Homes, tmp_path: Path, smtp: Smtp, certs: Certs
) -> None:
    """The same marks from the command line: ``pbem play`` signs, ``pbem games`` says the
    move is not sent, ``pbem send --eml`` and ``pbem send`` (the real SMTP server) send it."""
    game = homes.table.rattaneer.genesis.game
    configure_mail(homes.ui, smtp, certs)
    secrets = {"PBEM_PASSPHRASE": PASSPHRASE, "PBEM_SMTP_PASSWORD": "secret"}
    pbem(
        homes.ui, "play", game, PLACEMENT, "--as", "bot1", "-o", str(tmp_path / "g.json"), **secrets
    )
    unsent, printed = listed(homes.ui, game)
    assert unsent is True and f"SIGNED, NOT SENT (pbem send {game[:8]})" in printed, printed
    pbem(homes.ui, "send", game, "--as", "bot1", "--eml", str(tmp_path / "m.eml"), **secrets)
    assert listed(homes.ui, game)[0] is False, "written for a mail client: handed over"
    assert smtp.delivery.messages == []
    pbem(
        homes.cli,
        "play",
        game,
        PLACEMENT,
        "--as",
        "bot1",
        "-o",
        str(tmp_path / "h.json"),
        **secrets,
    )
    configure_mail(homes.cli, smtp, certs)
    assert listed(homes.cli, game)[0] is True
    pbem(homes.cli, "send", game, "--as", "bot1", **secrets)
    assert len(smtp.delivery.messages) == 1
    unsent, printed = listed(homes.cli, game)
    assert unsent is False and "NOT SENT" not in printed, printed
