"""Notes and press (issue 17, point 3): ``pbem play ... --note TEXT`` signs words into the
step; ``--note-to NAME`` seals them to one player with HPKE. Shown in log, status, show and
the mail body; a sealed note is readable only with ``--as`` its reader, and its text is
nowhere else: not in the file, the store, the public page or the log."""

from __future__ import annotations

import email
import email.policy
import json
from pathlib import Path

import pytest

from pbem.crypto import notes
from pbem.crypto.keyring import Keyring
from pbem.format import gamefile
from pbem.format.canonical import b64e
from pbem.format.gamefile import message_for
from tests.cli.test_game_cli import error, ok, pbem
from tests.helpers import new_keys

SECRET = "Carol, the Tavern is yours if you leave me the island."
PUBLIC = "Good luck, everyone!"


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A 3-seat guess game at its sealed guesses: alice with a public note, bob with one
    sealed to carol."""
    monkeypatch.chdir(tmp_path)
    new_keys("alice", "bob", "carol")
    seats = [a for n in ("alice", "bob", "carol") for a in ("--seat", n)]
    ok("new", "guess", *seats, "--option", "rounds=1", "--as", "alice", "-o", "g.json")
    for name in ("bob", "carol", "alice"):
        ok("play", stored(), "--as", name)
    ok("play", stored(), "guess 7", "--as", "alice", "--note", PUBLIC)
    ok("play", stored(), "guess 3", "--as", "bob", "--note", SECRET, "--note-to", "carol")
    return tmp_path / "g.json"


def stored() -> Path:
    """The game's one working file: every play replaces it with the newest version."""
    return Path("g.json")


def newest(folder: Path) -> Path:
    return folder / "g.json"


def test_notes_show_in_log_status_show_and_mail(game: Path) -> None:
    log = ok("log", game).stdout
    assert "   3 commit  guess: 2 envelopes in, more awaited" in log
    assert f"note: alice: {PUBLIC!r}" in log and "note: bob to carol: (a sealed note)" in log
    status = ok("status", game).stdout
    assert f"alice: {PUBLIC!r}" in status and "bob to carol: (a sealed note)" in status
    assert SECRET not in status
    carol = ok("status", game, "--as", "carol").stdout
    assert f"bob to you (sealed, only you can read it): {SECRET!r}" in carol
    page = pbem("show", game, "-o", "-").stdout
    assert PUBLIC in page and "bob to carol: (a sealed note)" in page
    assert SECRET in pbem("show", game, "--as", "carol", "-o", "-").stdout
    ok("send", game, "--as", "alice", "--eml", "m.eml")
    msg = email.message_from_bytes(Path("m.eml").read_bytes(), policy=email.policy.default)
    body = msg.get_body(("plain",)).get_content()
    assert f"note: alice: {PUBLIC!r}" in body and "note: bob to carol: (a sealed note)" in body
    report = json.loads(ok("status", game, "--json").stdout)
    assert {n["text"] for n in report["notes"]} >= {f"alice: {PUBLIC!r}"}


def test_a_sealed_note_is_nowhere_but_with_its_reader(game: Path, tmp_path: Path) -> None:
    """The privacy scan: every file in the folder, the store's database, the public page,
    the pages and logs of the others, the JSON reports."""
    ok("play", stored(), "guess 5", "--as", "carol")
    for name in ("bob", "alice"):  # the reveals (carol made hers): the note stays
        ok("play", stored(), "--as", name)
    log = ok("log", game).stdout
    assert "bob to carol: (a sealed note)" in log
    outputs = [
        log,
        ok("log", game, "--as", "alice").stdout,
        ok("log", game, "--json").stdout,
        ok("status", game, "--as", "bob").stdout,
        pbem("show", game, "-o", "-").stdout,
        pbem("show", game, "--as", "alice", "-o", "-").stdout,
        ok("verify", newest(tmp_path)).stdout,
    ]
    files = [p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "store.sqlite" for p in tmp_path.rglob("*"))  # the store is scanned
    for needle in (SECRET, SECRET.encode(), json.dumps(SECRET)):
        assert not any(str(needle) in out for out in outputs)
    words = SECRET.encode()
    assert not any(words in data for data in files)
    assert (
        f"bob to you (sealed, only you can read it): {SECRET!r}"
        in ok("log", game, "--as", "carol").stdout
    )


def test_note_options_are_checked(game: Path) -> None:
    ok("play", stored(), "guess 5", "--as", "carol")  # the guesses are complete
    bob = ("play", stored(), "x", "--as", "bob")
    error(2, "--note-to NAME seals a --note TEXT", *bob, "--note-to", "alice")
    error(2, "a note is signed into a move", "play", stored(), "--as", "bob", "--note", "hi")
    error(2, "not another player of this game", *bob, "--note", "hi", "--note-to", "bob")
    error(2, "a note holds 1 to 300 bytes", *bob, "--note", "x" * 301)
    error(2, "no control character", *bob, "--note", "a\x07b")


def _with_note(path: Path, note: dict, index: int = -1) -> bytes:
    """The file with ``note`` added to the last envelope of step ``index``, re-signed by its
    own author (a forger holding the key: only the note's shape can refuse it)."""
    data = json.loads(path.read_text())
    envelope = data["steps"][index]["envelopes"][-1]
    envelope["notes"] = [*envelope["notes"], note]
    author = Keyring().load(data["genesis"]["seats"][envelope["seat"]]["name"], None)
    unsigned = {k: v for k, v in envelope.items() if k != "signature"}
    envelope["signature"] = b64e(author.sign(message_for("envelope", unsigned)))
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("note", "reason"),
    [
        ({"kind": "sealed", "to": 1, "sealed": "A" * 70}, "not another seat"),
        ({"kind": "sealed", "to": 7, "sealed": "A" * 70}, "seat 7, not another seat"),
        ({"kind": "public", "text": "x" * 301}, "a note holds 1 to 300 bytes"),
        ({"kind": "public", "text": ""}, "a note holds 1 to 300 bytes"),
        ({"kind": "public", "text": "a\u0000b"}, "no control character"),
        ({"kind": "sealed", "to": 2, "sealed": "AAAA"}, "a sealed note holds 49 to 348"),
        ({"kind": "secret", "text": "x"}, "notes"),
        ({"kind": "public", "text": "x", "to": 2}, "notes"),
    ],
)
def test_a_malformed_note_is_refused_naming_the_step_and_seat(
    game: Path, tmp_path: Path, note: dict, reason: str
) -> None:
    """Bob's envelope of the guesses (step 3) carries a note that breaks the format."""
    bad = tmp_path / "bad.json"
    bad.write_bytes(_with_note(newest(tmp_path), note))
    result = pbem("verify", bad)
    assert result.exit_code == 1, result.output
    assert "step 3, seat 1 (bob)" in result.stderr and reason in result.stderr, result.stderr
    report = json.loads(pbem("verify", bad, "--json").stdout)
    assert report["ok"] is False and reason in report["error"]


def test_a_copied_or_readdressed_sealed_note_opens_for_nobody(game: Path) -> None:
    (envelope,) = [e for e in gamefile.read(newest(game.parent)).steps[-1].envelopes if e.seat == 1]
    (note,) = envelope.notes
    carol = Keyring().load("carol", None)
    args = (envelope.game, envelope.parent)
    assert notes.open_note(carol, note, *args, 1) == SECRET
    assert notes.open_note(carol, note, *args, 0) is None  # as if alice had signed it
    other = "0" * 64
    assert notes.open_note(carol, note, envelope.game, other, 1) is None  # another step
    moved = note.model_copy(update={"to": 0})
    alice = Keyring().load("alice", None)
    assert notes.open_note(alice, moved, *args, 1) is None  # re-addressed to alice
