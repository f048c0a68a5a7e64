"""Playing from the board in a real headless Chromium against a real ``pbem ui`` process:
a Rattaneer Morning placement (R-5.1) and a Rattus turn (T-5) made by clicking, signed
with the passphrase typed in the page, exported, and compared with what ``pbem play``
makes of the same moves from a copy of the same store; refused clicks show the rule and
sign nothing; the page loads nothing from outside. Screenshots of both decision views go
to ``test-artifacts/ui/``.

Chromium is required (Debian's ``chromium``), as for the viewer's tests: without it these
tests fail rather than skip.
"""

from __future__ import annotations

import email
import email.policy
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pbem.cli.main import main
from pbem.format import gamefile
from pbem.format.bundle import STEPS_TYPE, decode_bundle
from pbem.format.gamefile import GameFile, step_hash
from pbem.games.rattaneer.state import AREA_NAMES
from pbem.games.rattus.state import State as RattusState
from pbem.games.rattus.state import board_of
from pbem.ledger.replay import Replay, replay_file
from pbem.play.author import automatic, own_sealed_action
from pbem.ruleset import registry
from pbem.store.store import Store
from tests.mail.servers import HOST, Certs, Smtp
from tests.ui.conftest import Homes, Server
from tests.ui.tables import PASSPHRASE
from tests.view.browser import Browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ui"


# ----- driving the page ---------------------------------------------------------------------


def text(browser: Browser, element: str) -> str:
    return str(browser.evaluate(f"document.getElementById({json.dumps(element)}).textContent"))


def let_in(browser: Browser, server: Server) -> None:
    """The printed address, as a player opens it: a page that sets the cookie and refreshes
    to the games list. Its load event comes first; the games list is waited for."""
    browser.goto(server.url)
    where = "location.href + ' ' + document.readyState + ' ' + !!document.getElementById('games')"
    games = f"{server.pages}/ complete true"
    browser.wait_for(lambda: browser.evaluate(where) == games)


def open_game(browser: Browser, server: Server, game: str) -> None:
    """From the games list (reached with the printed address), to the game's page."""
    let_in(browser, server)
    row = browser.evaluate(f"document.querySelector(\"tr[data-game='{game}']\").innerText")
    assert "your move" in row
    browser.click(f"tr[data-game='{game}'] a")
    browser.wait_for(
        lambda: browser.evaluate("document.body && document.body.dataset.decision") == "ready"
    )


def click_and_wait(browser: Browser, selector: str, ready: str) -> None:
    browser.click(selector)
    browser.wait_for(lambda: ready in text(browser, "ready"))


def refused(browser: Browser, selector: str) -> str:
    """Click, and the rule's refusal the page shows."""
    browser.click(selector)
    browser.wait_for(lambda: not browser.evaluate("document.getElementById('refusal').hidden"))
    return text(browser, "refusal")


def sign(browser: Browser, passphrase: str = PASSPHRASE) -> None:
    browser.type("#passphrase", passphrase)
    browser.click("#sign-button")
    browser.wait_for(
        lambda: (
            browser.evaluate("document.body.dataset.signed") == "true"
            or text(browser, "refusal").startswith(("wrong", "the passphrase"))
        )
    )


def export(browser: Browser) -> Path:
    browser.evaluate("document.getElementById('after-result').textContent = ''")
    browser.click("#export")
    browser.wait_for(lambda: text(browser, "after-result") != "")
    said = text(browser, "after-result")
    assert said.startswith("Saved "), said
    return Path(said.removeprefix("Saved "))


def area(number: int) -> str:
    return f"#frame g.area[data-pick='{number}'] text.big"


def region(name: str) -> str:
    return f"#frame g.region[data-pick='{name}'] text.name"


# ----- what pbem play makes of the same moves --------------------------------------------


def pbem(home: Path, *args: str, **env: str) -> str:
    result = CliRunner().invoke(
        main, list(args), env={"PBEM_HOME": str(home), **env}, catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def played_by_cli(homes: Homes, game: str, moves: str, out: Path) -> Path:
    pbem(homes.cli, "play", game, moves, "--as", "bot1", "-o", str(out), PBEM_PASSPHRASE=PASSPHRASE)
    return out


def verified(path: Path, tmp_path: Path) -> GameFile:
    """``pbem verify`` says OK (from an empty home: no store helps it)."""
    assert f"{path}: OK, " in pbem(tmp_path / "auditor", "verify", str(path))
    return gamefile.read(path)


def shape(game: GameFile) -> list[tuple[Any, ...]]:
    """Each step's kind, decision and signing seats: what was signed, not how."""
    out = []
    for step in game.steps:
        if isinstance(step, gamefile.Batch):
            out.append(("batch", step.decision, tuple(e.seat for e in step.envelopes)))
        else:
            out.append((step.kind, step.seat))
    return out


def revealed(game: GameFile, homes: Homes) -> Replay:
    """The game once the other seats have made their automatic steps (their reveals)."""
    replay = replay_file(game, registry.get(game.genesis.ruleset.id))
    for seat in (1, 2):
        automatic(replay, homes.table.ids[seat])
    return replay


# ----- the tests -------------------------------------------------------------------------------


def configure_mail(home: Path, smtp: Smtp, certs: Certs) -> None:
    settings = {
        "smtp.host": HOST,
        "smtp.port": str(smtp.port),
        "smtp.security": smtp.security,
        "smtp.user": "bot1@example.org",
        "smtp.ca_file": str(certs.ca),
    }
    for key, value in settings.items():
        pbem(home, "config", "set", key, value)


def test_a_morning_placement_by_clicking(
    homes: Homes, server: Server, tmp_path: Path, smtp: Smtp, certs: Certs
) -> None:
    game = homes.table.rattaneer.genesis.game
    configure_mail(homes.ui, smtp, certs)
    with Browser() as browser:
        let_in(browser, server)
        rows = browser.evaluate("document.getElementById('games').innerText")
        assert "the deadline passes at 2026-01-03 00:00 UTC" in rows  # the Rattaneer game's
        browser.screenshot("#games", ARTIFACTS / "games.png")
        open_game(browser, server, game)
        assert "place your pieces (R-5.1)" in text(browser, "asked")
        pickable = browser.evaluate("document.querySelectorAll('#frame g.area.pickable').length")
        assert pickable == 10, "areas 1-10 are outlined, the Farm is not"
        browser.click(area(3))
        browser.wait_for(lambda: "second pirate" in text(browser, "prompt"))
        # issue 32: what was clicked, by name (the area's number is its name on the board)
        assert text(browser, "so-far") == (
            f"Clicked so far: Place your pieces (R-5.1) — 3 ({AREA_NAMES[3]})"
        )
        assert "R-5.1: your two pirates must be on different areas" in refused(browser, area(3))
        click_and_wait(browser, area(7), "pirates 3 7, henchmen X")
        click_and_wait(browser, area(3), "pirates 3 7, henchmen 3")
        assert browser.evaluate("document.querySelectorAll('#frame .dashed').length") == 2
        browser.screenshot("#decision, #frame figure.board", ARTIFACTS / "rattaneer-morning.png")
        assert text(browser, "sign-button") == "Sign and send"  # mail is set up
        sign(browser)
        said = text(browser, "after-text")
        assert "pirates 3 7, henchmen 3" in said and " Sent " in said, said
        assert browser.evaluate("document.body.dataset.sent") == "true"
        exported = export(browser)
        assert exported.parent == server.work
        assert browser.problems(server.base) == []

        # the private page: the sealed placement, seen by its player only
        browser.goto(f"{server.pages}/game/{game}")
        browser.type("#unlock input[name=passphrase]", PASSPHRASE)
        browser.click("#unlock button")
        browser.wait_for(lambda: browser.evaluate("!!document.querySelector('.private')"))
        private = browser.evaluate("document.querySelector('.private').textContent")
        assert "Your sealed choice, not yet revealed to anyone: pirates 3 7, henchmen 3" in private

    ui = verified(exported, tmp_path)
    cli = verified(
        played_by_cli(homes, game, "pirates 3 7, henchmen 3", tmp_path / "c.json"), tmp_path
    )
    assert shape(ui) == shape(cli)
    mine = [
        own_sealed_action(replay_file(g, registry.get("rattaneer")), homes.table.ids[0])
        for g in (ui, cli)
    ]
    assert mine[0] == mine[1] and mine[0] is not None
    after = [revealed(g, homes) for g in (ui, cli)]
    assert after[0].state == after[1].state
    assert [r.summary for r in after[0].records] == [r.summary for r in after[1].records]
    assert "bot1 places pirates 3 7, henchmen 3;" in after[0].records[-1].summary
    ((sender, to, raw),) = smtp.delivery.messages  # the send flow of pbem send
    assert (sender, sorted(to)) == ("bot1@example.org", ["bot2@example.org", "bot3@example.org"])
    attached = next(
        p for p in email.message_from_bytes(raw, policy=email.policy.default).iter_attachments()
    )
    # the others signed their joins: they get the steps they lack, the file's last ones
    assert attached.get_content_type() == STEPS_TYPE
    bundle = decode_bundle(attached.get_content())
    steps = gamefile.decode(exported.read_bytes()).steps
    assert bundle.index > 0 and len(steps) == bundle.index + len(bundle.steps)
    assert [step_hash(s) for s in bundle.steps] == [step_hash(s) for s in steps[bundle.index :]]


def test_a_rattus_turn_by_clicking(homes: Homes, server: Server, tmp_path: Path) -> None:
    game = homes.table.rattus.genesis.game
    state = Replay.start(homes.table.rattus.genesis, registry.get("rattus"))
    for step in homes.table.rattus.steps:
        state.add(step)
    s = state.state
    assert isinstance(s, RattusState)
    card = next(c.name for c in s.cards if c.holder != 0)
    empty = next(r.name for r in s.regions if not r.tokens)
    place = next(r.name for r in s.regions if r.tokens)
    assert s.plague is not None
    plague = board_of(s).neighbours(s.plague)[0]
    moves = f"take {card}; place {place}; plague {plague}"
    with Browser() as browser:
        open_game(browser, server, game)
        # issue 32: the kinds of move read as sentences, not as the notation's <slots>
        verbs = browser.evaluate(
            "[...document.querySelectorAll('#verbs button')].map(b => b.textContent)"
        )
        assert "Take: take a class card from the supply or a player (T-5 A)" in verbs
        assert not [v for v in verbs if "<" in v], verbs
        click_and_wait(browser, f"#frame g.chip[data-pick='{card}']", f"take {card}")
        assert f"T-5 B: {empty} has no rat tokens" in refused(browser, region(empty))
        click_and_wait(browser, region(place), f"take {card}; place {place}")
        outlined = browser.evaluate(
            "[...document.querySelectorAll('#frame polygon.pickable')].map(e => e.dataset.pick)"
        )
        assert plague in outlined and s.plague not in outlined
        browser.screenshot("#decision, #frame figure.board", ARTIFACTS / "rattus-turn.png")
        click_and_wait(browser, region(plague), moves)
        sign(browser)
        exported = export(browser)
        assert browser.problems(server.base) == []
    ui = verified(exported, tmp_path)
    cli_path = played_by_cli(homes, game, moves, tmp_path / "c.json")
    verified(cli_path, tmp_path)
    assert exported.read_text() == cli_path.read_text(), "the same signed steps, byte for byte"
    assert shape(ui)[-3:] == [("turn", 0)] * 3


def test_refused_clicks_and_moves_sign_nothing(homes: Homes, server: Server) -> None:
    game = homes.table.rattaneer.genesis.game

    def signed() -> tuple[str, int]:
        store = Store(homes.ui)
        try:
            head = store.head(game).digest
            return head, store.db.execute("SELECT count(*) FROM journal").fetchone()[0]
        finally:
            store.close()

    before = signed()
    with Browser() as browser:
        open_game(browser, server, game)
        browser.click("[data-go=prev]")  # an earlier position: its board is not the decision's
        assert "step to the last position" in refused(browser, area(5))
        browser.click("[data-go=last]")
        browser.wait_for(
            lambda: browser.evaluate("document.querySelectorAll('#frame .pickable').length") > 0
        )
        browser.click(area(5))
        browser.wait_for(lambda: "second pirate" in text(browser, "prompt"))
        assert "R-5.1: your two pirates must be on different areas" in refused(browser, area(5))
        assert "pirates" not in text(browser, "ready"), "a refused click is undone"
        click_and_wait(browser, area(6), "pirates 5 6")
        sign(browser, "not the passphrase")
        assert "wrong passphrase for identity 'bot1'" in text(browser, "refusal")
        browser.type("#typed-text", "pirates 2 2, henchmen X")
        left = "new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true})"
        browser.evaluate(f"document.getElementById('typed-text').dispatchEvent({left})")
        shown = "document.querySelector('#frame .position').dataset.step"
        assert browser.evaluate(shown) == "3", "an arrow key in the field is the field's"
        browser.click("#typed button")
        browser.wait_for(lambda: "your two pirates" in text(browser, "refusal"))
        refusal = "the server responded with a status of 409"  # the wrong passphrase's
        assert [p for p in browser.problems(server.base) if refusal not in p] == []
    assert signed() == before
