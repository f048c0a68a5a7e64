"""Dropouts through the commands (issue 14): a deadline set at ``pbem new``, shown by
``pbem status``; ``pbem call`` refused before it passes and taking effect once every
other seat has signed; ``pbem handover`` to a substitute who then sees the seat's hand."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CLOCK_START
from tests.helpers import new_keys, ok, pbem, report

NAMES = ("ann", "bea", "cid")


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    new_keys(*NAMES, "dan")
    ok("key", "export", "dan", "-o", "dan.card.json")
    return tmp_path


def settle(f: Path) -> Path:
    """Every automatic step owed, by whoever owes it."""
    while "automatic" in (aw := report("status", f)["next"]) or "to join" in aw:
        f = Path(report("play", f, "--as", aw.split()[0].rstrip(","))["file"])
    return f


def until_alone(f: Path, name: str) -> Path:
    """The others play (the first legal move each) until the game waits for ``name``
    alone: when pbem lets a seat resign or hand itself over."""
    for _ in range(200):
        f = settle(f)
        awaiting = report("status", f)["awaiting"]
        if awaiting == [name]:
            return f
        mover = next(n for n in awaiting if n != name)
        move = report("moves", f, "--as", mover)["moves"][0]
        f = Path(report("play", f, move, "--as", mover)["file"])
    raise AssertionError(f"{name} was never awaited alone")


def test_a_late_seat_is_shown_then_called_by_everyone_else(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats = [a for n in NAMES for a in ("--seat", n)]
    ok("new", "guess", *seats, "--deadline", "1h", "--as", "ann", "-o", "g.json")
    f = settle(Path("g.json"))
    for name, value in (("ann", 3), ("bea", 5)):
        f = Path(report("play", f, f"guess {value}", "--as", name)["file"])
    text = ok("status", f).stdout
    assert "cid awaited since 2026-01-01 00:00 UTC" in text
    assert "the deadline passes at 2026-01-01 01:00 UTC" in text
    early = pbem("call", f, "cid", "--as", "ann")
    assert early.exit_code == 1 and "too early" in early.stderr
    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START + 2 * 3600))
    assert "the deadline passed" in ok("status", f).stdout
    wrong = pbem("call", f, "bea", "--as", "ann")
    assert wrong.exit_code == 2 and "a call names every seat awaited now: cid" in wrong.stderr
    first = report("call", f, "cid", "--as", "ann")
    assert first["done"] == "called cid (the other seats must sign the call too)"
    assert (
        "being signed: a call (signed by ann; still to sign: bea)"
        in ok("status", first["file"]).stdout
    )
    done = report("call", first["file"], "cid", "--as", "bea")
    assert done["done"] == "called cid"
    log = ok("log", done["file"]).stdout
    assert "call on cid: the stand-in plays, in the open: cid: guess" in log
    assert ok("verify", done["file"]).exit_code == 0


def test_a_handed_over_seat_is_played_by_the_substitute_with_its_hand(table: Path) -> None:
    seats = [a for n in NAMES for a in ("--seat", n)]
    opts = [
        "--option",
        "africanus=on",
        "--option",
        "classes=Peasant,Monk,Witch,King,Sultan,Caravan",
    ]
    ok("new", "rattus", *seats, *opts, "--as", "ann", "-o", "g.json")
    f = until_alone(Path("g.json"), "bea")
    mine = ok("status", f, "--as", "bea").stdout
    hand = next(x for x in mine.splitlines() if x.startswith("Your region cards: "))
    f = Path(report("handover", f, "--to", "dan.card.json", "--as", "bea")["file"])
    for name in ("ann", "cid"):
        f = Path(report("handover", f, "--to", "dan.card.json", "--as", name)["file"])
    assert "bea's seat handed over to dan" in ok("log", f).stdout
    theirs = ok("status", f, "--as", "dan").stdout
    assert hand in theirs  # the substitute sees the seat's hand, decrypted with its key
    gone = pbem("status", f, "--as", "bea")
    assert gone.exit_code == 2 and "holds no seat in this game" in gone.stderr
    assert ok("verify", f).exit_code == 0


def machines(table: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """A home (keyring and store) for each player: ``at(name)`` works on that one."""
    homes = {name: table / f"home-{name}" for name in NAMES}
    for home in homes.values():
        shutil.copytree(Path(os.environ["PBEM_HOME"]) / "keys", home / "keys")
    return lambda name: monkeypatch.setenv("PBEM_HOME", str(homes[name]))


def new_game_apart(at: Callable[[str], None]) -> Path:
    """A guess game with a deadline of 1 hour, joined and set up, every step made on its
    signer's own machine: the file of its first guess."""
    at("ann")
    seats = [a for n in NAMES for a in ("--seat", n)]
    ok("new", "guess", *seats, "--deadline", "1h", "--as", "ann", "-o", "g.json")
    f = Path("g.json")
    while "automatic" in (aw := report("status", f)["next"]) or "to join" in aw:
        at(who := aw.split()[0].rstrip(","))
        f = Path(report("play", f, "--as", who)["file"])
    return f


def test_a_call_in_a_sealed_decision_travels_between_the_players_stores(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each player on a machine of their own. cid never commits his guess; ann calls him
    and bea co-signs on ann's copy. Every store takes the call that follows the open batch:
    bea's, holding only her own commitment; cid's, holding both commitments as ann
    merged them; ann's, holding her half-signed call. Before, each refused it as a fork."""
    at = machines(table, monkeypatch)
    f = new_game_apart(at)
    at("bea")
    hers = report("play", f, "guess 5", "--as", "bea")["file"]
    at("ann")
    mine = report("play", f, "guess 3", "--as", "ann")["file"]
    both = report("merge", mine, hers)["file"]
    at("cid")
    assert "committed already: ann, bea" in ok("status", both).stdout
    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START + 2 * 3600))
    at("ann")
    called = report("call", both, "cid", "--as", "ann")
    assert called["send_to"] == ["bea <bea@example.org>", "cid <cid@example.org>"]
    at("cid")  # he is told that his answer would void it (see the test after this one)
    told = ok("moves", called["file"], "--as", "cid").stdout
    assert told.startswith("your decision: ")
    voids = "a call on you is being signed (signed by ann; still to sign: bea): your move voids it"
    assert voids in told
    at("bea")
    got = ok("receive", called["file"], "--as", "bea").stdout
    being = "being signed: a call (signed by ann; still to sign: bea); your signature is due"
    assert being in got
    due = f"your signature is due: pbem call {called['file']} cid"
    assert due in ok("status", called["file"], "--as", "bea").stdout
    done = report("call", called["file"], "cid", "--as", "bea")
    assert done["done"] == "called cid"
    for name in ("cid", "ann"):
        at(name)
        log = ok("log", done["file"]).stdout
        assert "call on cid: the stand-in plays, in the open: cid: guess" in log
    assert ok("verify", done["file"]).exit_code == 0


def test_a_call_that_crossed_the_called_seat_s_answer_in_the_mail_is_void_in_both_stores(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """architecture §11: cid answers on his copy while ann, not having it yet, calls him. cid's
    store takes her call as an older copy, not a fork; ann's store drops the call when
    cid's answer arrives, and keeps his guess."""
    at = machines(table, monkeypatch)
    f = new_game_apart(at)
    for name, value in (("ann", 3), ("bea", 5)):
        at(name)
        f = Path(report("play", f, f"guess {value}", "--as", name)["file"])
    at("cid")
    mine = shutil.copy(f, "cid.json")  # his own copy: ann's copy must not see his answer
    answer = report("play", mine, "guess 7", "--as", "cid")["file"]
    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START + 2 * 3600))
    at("ann")
    ok("receive", f)
    called = report("call", f, "cid", "--as", "ann")["file"]
    at("cid")
    got = ok("receive", called).stdout
    assert "an older copy" in got and "fork" not in got
    at("ann")
    ok("receive", answer)
    assert "call on cid" not in ok("log", answer).stdout
    assert "being signed" not in ok("status", answer).stdout


def test_the_called_seat_s_answer_voids_a_call_not_yet_signed_by_every_caller(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: ann calls cid, bea never co-signs. cid's own guess, made on the copy with
    the half-signed call, is signed on the step before the call (before: refused, "waits
    for the interruption", and nobody could move until bea signed); ann's and bea's
    stores drop the call when his answer arrives, and the game goes on."""
    at = machines(table, monkeypatch)
    f = new_game_apart(at)
    for name, value in (("ann", 3), ("bea", 5)):
        at(name)
        f = Path(report("play", f, f"guess {value}", "--as", name)["file"])
    monkeypatch.setenv("PBEM_TEST_CLOCK", str(CLOCK_START + 2 * 3600))
    at("ann")
    called = report("call", f, "cid", "--as", "ann")["file"]
    at("cid")
    answer = report("play", called, "guess 7", "--as", "cid")
    assert answer["played"] == ["guess 7"]
    assert "call on cid" not in ok("log", answer["file"]).stdout
    for name in ("ann", "bea"):
        at(name)
        ok("receive", answer["file"])
        status = ok("status", answer["file"]).stdout
        assert (
            "being signed" not in status and "call on cid" not in ok("log", answer["file"]).stdout
        )
        assert "cid" not in report("status", answer["file"])["awaiting"], status
    assert ok("verify", answer["file"]).exit_code == 0
