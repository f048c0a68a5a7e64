"""The store is the one home of a player's games (architecture §10, issue 12): what the player
signed is never lost or contradicted, reading never signs, stale files get the right
reason, names match steps, and a file is verified only where it differs."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from pbem.crypto.keyring import Keyring
from pbem.format import gamefile
from pbem.format.canonical import b64e
from pbem.format.errors import Rejected
from pbem.play.author import act
from pbem.play.playing import play_moves
from pbem.store.chain import short_id
from pbem.store.db import FILE_NAME, WAL_BYTES, connect, transaction, unpack
from pbem.store.store import Store
from tests.helpers import new_keys, ok, pbem, report

NAMES = ("ann", "bea", "cid")


def fails(code: int, *args: str | Path) -> str:
    result = pbem(*args)
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: error: "), result.stderr
    return lines[0]


def journal(store: Store) -> int:
    return store.db.execute("SELECT count(*) FROM journal").fetchone()[0]


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three identities in one keyring (one store) and a ``guess`` game, joined and set up:
    the sealed guesses are awaited. Returns the file."""
    monkeypatch.chdir(tmp_path)
    new_keys(*NAMES)
    return setup("rounds=2")


def setup(*options: str) -> Path:
    opts = [a for o in options for a in ("--option", o)]
    seats = [a for n in NAMES for a in ("--seat", n)]
    ok("new", "guess", *seats, *opts, "--as", "ann", "-o", "g.json")
    f = Path("g.json")
    for name in ("bea", "cid", "ann"):  # the joins, then ann's setup beacon
        f = Path(report("play", f, "--as", name)["file"])
    return f


# ----- nothing signed is lost or contradicted --------------------------------------------


@pytest.mark.parametrize("place", ["same folder", "another folder", "a copy"])
def test_a_second_sealed_guess_on_one_parent_is_refused(table: Path, place: str) -> None:
    other = {
        "same folder": Path("g-before.json"),
        "another folder": Path("elsewhere") / table.name,
        "a copy": Path("copied.json"),
    }[place]
    other.parent.mkdir(exist_ok=True)
    shutil.copy(table, other)  # the copy of the game before the move (the play replaces g.json)
    first = Path(report("play", table, "guess 3", "--as", "bea")["file"])
    assert first == table  # one working file: replaced in place
    line = fails(1, "play", other, "guess 9", "--as", "bea")
    assert "you signed your commit:guess on it already" in line and str(first) in line
    assert "equivocation" in line


def test_a_second_open_action_on_one_parent_is_refused(tmp_path: Path) -> None:
    os.chdir(tmp_path)
    new_keys(*NAMES)
    f = setup("open=true")
    shutil.copy(f, "copy.json")  # before the move: the play replaces f
    first = Path(report("play", f, "guess 3", "--as", "bea")["file"])
    line = fails(1, "play", "copy.json", "guess 4", "--as", "bea")
    assert "you signed your act:guess on it already" in line and str(first) in line


def test_a_second_turn_on_one_parent_is_refused(table: Path) -> None:
    f = table
    for name, value in zip(NAMES, (3, 5, 8), strict=True):
        f = Path(report("play", f, f"guess {value}", "--as", name)["file"])
    while "to move" not in (aw := report("status", f)["next"]):
        f = Path(report("play", f, "--as", aw.split()[0].rstrip(","))["file"])
    who = aw.split()[0]
    before = Path(shutil.copy(f, "before.json"))  # the play replaces f
    banked = Path(report("play", f, "bank", "--as", who)["file"])
    line = fails(1, "play", before, "risk", "--as", who)
    assert f"you signed your turn on it already (in {banked})" in line


def test_the_same_move_again_is_not_signed_again(table: Path) -> None:
    first = report("play", table, "guess 3", "--as", "bea")
    store = Store()
    signed = journal(store)
    line = fails(1, "play", table, "guess 3", "--as", "bea")
    assert "already" in line and journal(store) == signed
    assert Path(first["file"]).exists()


def test_a_step_kept_by_a_command_killed_before_its_file_is_written_is_not_stranded(
    table: Path, tmp_path: Path
) -> None:
    """architecture §10: ``pbem play`` keeps the step in the store, then writes the file.
    Killed in between, the step is safe but no file carries it, and the others would wait
    for it for ever: running the command again says so, and ``pbem play`` writes it."""
    store = Store()
    me = Keyring(Path(os.environ["PBEM_HOME"])).load("bea", None)
    play_moves(store, gamefile.read(table).genesis.game, me, ["guess 3"], "killed")
    del store  # the process died here: the store holds bea's commit, no file does
    line = fails(1, "play", table, "guess 3", "--as", "bea")
    assert "you signed your commit:guess" in line and "not exported yet" in line
    game = short_id(gamefile.read(table).genesis.game)
    assert "your commit:guess of step 3 is signed but in no file yet" in line
    assert line.endswith(f"pbem play {game} writes it")
    written = Path(report("play", table, "--as", "bea")["file"])
    steps = gamefile.read(written).steps
    assert [e.seat for e in steps[-1].envelopes] == [1]  # bea's commit travels now
    line = fails(1, "play", written, "guess 3", "--as", "bea")
    assert "in no file yet" not in line and f"(in {written})" in line


# ----- numbered exports (the setting files numbered) never overwrite, and are named by step ---


def test_a_second_play_never_replaces_a_file_and_names_sort_in_game_order(table: Path) -> None:
    ok("config", "set", "files", "numbered")
    before = {p: p.read_bytes() for p in Path(".").glob("*.json")}
    a = Path(report("play", table, "guess 3", "--as", "bea")["file"])
    b = Path(report("play", a, "guess 5", "--as", "cid")["file"])
    assert (a.name, b.name) == ("g.s0003-1.json", "g.s0003-2.json")
    assert all(p.read_bytes() == data for p, data in before.items())
    c = Path(report("play", b, "guess 7", "--as", "ann")["file"])
    assert c.name == "g.s0004-1.json"  # ann's guess completed step 3; her reveal opens 4
    names = sorted(p.name for p in Path(".").glob("g.s*.json"))
    assert names == sorted(names, key=lambda n: (int(n[3:7]), n[7:] == ".json", n))


def test_two_moves_on_one_parent_from_two_stores_never_share_a_name(
    table: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two players on two machines answer into one shared folder: same step, same number
    of envelopes, different files."""
    second = tmp_path / "second-home"
    shutil.copytree(Path(os.environ["PBEM_HOME"]) / "keys", second / "keys")
    ok("config", "set", "files", "numbered")
    a = Path(report("play", table, "guess 3", "--as", "bea")["file"])
    monkeypatch.setenv("PBEM_HOME", str(second))
    ok("config", "set", "files", "numbered")
    b = Path(report("play", table, "guess 5", "--as", "cid")["file"])
    assert a != b and a.read_bytes() != b.read_bytes()
    assert (a.name, b.name) == ("g.s0003-1.json", "g.s0003-1~2.json")


# ----- reading never signs ----------------------------------------------------------------


def test_read_commands_sign_nothing_and_write_no_game_file(table: Path) -> None:
    store = Store()
    files = sorted(Path(".").rglob("*"))
    signed = journal(store)
    for args in (
        ("status", table),
        ("status", table, "--as", "bea"),
        ("moves", table, "--as", "bea"),
        ("log", table),
        ("verify", table),
        ("games",),
    ):
        ok(*args)
    assert sorted(Path(".").rglob("*")) == files
    assert journal(store) == signed


def test_reading_says_when_automatic_steps_are_owed_and_makes_none(tmp_path: Path) -> None:
    os.chdir(tmp_path)
    new_keys(*NAMES)
    seats = [a for n in NAMES for a in ("--seat", n)]
    ok("new", "guess", *seats, "--as", "ann", "-o", "g.json")
    text = ok("status", "g.json", "--as", "bea").stdout
    assert "you owe an automatic step" in text and "pbem play g.json makes it" in text
    assert "pbem play g.json" in ok("moves", "g.json", "--as", "bea").stdout
    assert sorted(p.name for p in Path(".").glob("*.json")) == ["g.json"]


def test_no_passphrase_is_asked_unless_a_private_item_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    os.chdir(tmp_path)
    monkeypatch.setenv("PBEM_PASSPHRASE", "secret words")
    for name in NAMES:
        ok("key", "new", name, "--email", f"{name}@example.org")
    f = setup()
    monkeypatch.delenv("PBEM_PASSPHRASE")  # and no terminal: asking would fail
    ok("status", f, "--as", "bea")  # nothing private yet
    ok("moves", f, "--as", "bea")
    monkeypatch.setenv("PBEM_PASSPHRASE", "secret words")
    f = Path(report("play", f, "guess 4", "--as", "bea")["file"])
    monkeypatch.delenv("PBEM_PASSPHRASE")
    ok("status", f, "--as", "cid")  # cid has nothing sealed yet
    line = fails(2, "status", f, "--as", "bea")  # bea's own sealed guess needs her key
    assert "a passphrase is needed for identity 'bea'" in line


# ----- stale files -----------------------------------------------------------------------


def test_reading_a_stale_file_says_what_it_read_and_what_it_acted_on(
    table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The head came by mail from another home, so no file here holds it: the line says
    so, and ``--json`` tells the file read and the head acted on (issue 28)."""
    other = tmp_path / "other-home"
    shutil.copytree(os.environ["PBEM_HOME"], other)
    with monkeypatch.context() as elsewhere:
        elsewhere.setenv("PBEM_HOME", str(other))
        newer = report("play", table, "guess 3", "--as", "bea", "-o", "elsewhere.json")
        ok("send", newer["file"], "--as", "bea", "--eml", "m.eml")
    ok("receive", "m.eml")
    game = report("status", "g.json")["game"][:8]
    said = f"{table} holds 2 steps; your store holds 3 (not exported yet: pbem export {game})"
    for command in (["status"], ["moves", "--as", "ann"], ["log"], ["show", "-o", "-"]):
        args = [command[0], table, *command[1:]]
        assert ok(*args).stderr.splitlines() == [f"{said}; using that"], command
        answer = report(*args)
        assert answer["read"] == {"file": str(table), "steps": 2}, command
        assert answer["head"] == {"steps": 3, "export": None}, command
    ok("export", table, "-o", "head.json")
    assert report("log", table)["head"] == {"steps": 3, "export": "head.json"}
    assert report("log", "head.json")["read"] == {"file": "head.json", "steps": 3}
    assert ok("log", "head.json").stderr == ""  # not behind: nothing to say


def test_a_stale_file_names_the_newer_head_and_the_command_uses_it(table: Path) -> None:
    stale = Path(shutil.copy(table, "stale.json"))
    newer = Path(report("play", table, "guess 3", "--as", "bea")["file"])
    assert newer == table
    result = ok("status", stale)
    said = f"{stale} holds 2 steps; your store holds 3 (newest export: {newer}); using that"
    assert result.stderr.splitlines() == [said]  # stdout: the head's status, as without it
    assert "committed already: bea" in result.stdout
    played = report("play", stale, "guess 6", "--as", "cid")
    assert played["played"] == ["guess 6"] and played["file"] == str(stale)  # brought up to date
    assert gamefile.read(stale).state.steps == 3 and played["kept"] is None
    line = fails(1, "play", "g.json", "guess 2", "--as", "bea")
    assert "g.json is" not in line  # one line: the reason, not the note
    assert "it is not your move" in line or "already" in line


def test_a_game_is_named_by_its_short_id(table: Path) -> None:
    game = report("status", table)["game"]
    assert report("status", game[:8])["steps"] == 2
    made = Path(report("play", game[:8], "guess 3", "--as", "bea")["file"])
    assert made == Path.cwd() / f"guess-{game[:8]}.json"  # the game's working file here
    assert fails(2, "status", "zzzzzzzz").endswith(
        "no stored game with an id starting 'zzzzzzzz' (see: pbem games)"
    )


def test_games_lists_the_step_whose_move_and_the_newest_export(table: Path) -> None:
    made = Path(report("play", table, "guess 3", "--as", "bea")["file"])
    (row,) = report("games", "--as", "cid")["games"]
    assert row["step"] == 3 and row["your_move"] is True
    assert row["file"] == str(made)


# ----- incremental verification is sound --------------------------------------------------


def test_a_tampered_byte_in_a_known_prefix_is_still_refused(table: Path) -> None:
    store = Store()
    data = json.loads(table.read_text())
    sig = data["steps"][0]["envelopes"][0]["signature"]
    data["steps"][0]["envelopes"][0]["signature"] = ("B" if sig[0] == "A" else "A") + sig[1:]
    bad = Path("tampered.json")
    bad.write_text(json.dumps(data, indent=1))
    with pytest.raises(Rejected, match=r"step 1, seat 1 \(bea\): bad signature"):
        store.import_file(bad)
    assert store.db.execute("SELECT count(*) FROM refused").fetchone()[0] == 1


def test_a_checkpoint_is_never_trusted_for_another_head(table: Path) -> None:
    """A checkpoint that does not belong to the stored head (here: planted for another
    step) is ignored: the head is verified again from the stored steps."""
    store = Store()
    game = store.ids()[0]
    honest = store.head(game).position.cached()
    with store.writing():
        store.db.execute("UPDATE checkpoints SET head = ? WHERE game = ?", (bytes(32), game))
    assert store.head(game).position.cached() == honest
    (head,) = store.db.execute("SELECT head FROM checkpoints").fetchone()
    assert head != bytes(32)  # and a fresh one was kept


def test_a_head_read_earlier_is_reused_only_while_it_is_still_the_head(table: Path) -> None:
    """``Store.head(game, read)`` saves a restore only for a head that is still the store's
    and untouched: once another process adds to the game, or a step is added to the read
    position in memory, the checkpoint is restored afresh."""
    store = Store()
    game = store.ids()[0]
    read = store.head(game)
    assert store.head(game, read) is read
    ok("play", table, "guess 3", "--as", "bea")  # another process adds bea's guess
    newer = store.head(game, read)
    assert newer is not read
    assert newer.position.signatures == read.position.signatures + 1
    assert store.head(game, newer) is newer
    mine = store.head(game, newer)
    pos = mine.position
    act(pos, Keyring().load("cid", None), pos.rules.parse_action(pos.state, 2, "guess 1"))
    again = store.head(game, mine)  # cid's guess was added in memory, not kept
    assert again is not mine and again.position.signatures == pos.signatures - 1


def test_extending_a_known_head_verifies_only_the_new_steps(table: Path) -> None:
    """The copy's known steps are recognised by hash and never replayed: a copy that
    extends the head by one envelope costs one envelope's checks."""
    store = Store()
    base = store.head(store.ids()[0]).position.signatures
    before = Path(shutil.copy(table, "before.json"))
    f = Path(report("play", table, "guess 3", "--as", "bea")["file"])
    other = Store(Path("elsewhere-home"))
    other.import_file(before)
    imported = other.import_file(f)
    assert imported.status == "updated" and imported.envelopes_added == 1
    assert imported.head.position.signatures == base + 1


# ----- the database itself ---------------------------------------------------------------


def test_items_are_kept_packed_and_exported_byte_for_byte(table: Path) -> None:
    """The items table keeps each signed item zlib-packed when that is smaller; unpacked
    it is exactly the signed bytes (its hash is the key), an item kept unpacked (an
    earlier store) reads the same, and the head exports as the file it came from."""
    store = Store()
    game = store.ids()[0]
    rows = store.db.execute("SELECT hash, data FROM items").fetchall()
    assert any(not data.startswith(b"{") for _, data in rows)
    assert all(hashlib.sha256(unpack(data)).digest() == digest for digest, data in rows)
    assert store.head(game).text() == table.read_text()
    with store.writing():
        store.db.executemany(
            "UPDATE items SET data = ? WHERE hash = ?", [(unpack(d), h) for h, d in rows]
        )
    assert store.head(game).text() == table.read_text()


def test_a_damaged_or_foreign_database_is_one_line_and_never_touched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("PBEM_HOME", str(home))
    home.mkdir()
    path = home / "store.sqlite"
    for content in (b"this is not a database at all" * 100, b""):
        path.write_bytes(content)
        line = fails(2, "games")
        assert str(path) in line and "not a pbem store" in line
        assert path.read_bytes() == content
    path.unlink()
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE songs (title TEXT)")
    other.commit()
    other.close()
    data = path.read_bytes()
    assert "another program's database" in fails(2, "games")
    assert path.read_bytes() == data


def test_a_store_of_the_earlier_layout_is_imported_and_nothing_is_lost(
    table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folders of the earlier store (a folder per game, a file per version, refused
    copies, the robot's memory and outbox) come into the database on first open."""
    versions = sorted(Path(".").glob("g*.json"))
    game = gamefile.read(versions[-1])
    old = tmp_path / "old-home"
    folder = old / "games" / game.genesis.game
    (folder / "versions").mkdir(parents=True)
    (folder / "refused").mkdir()
    for n, path in enumerate(versions):
        shutil.copy(path, folder / "versions" / f"{n:05d}-{n:016x}.json")
    shutil.copy(versions[-1], folder / "head.json")
    (folder / "refused" / "00001-deadbeef.json").write_text("{}")
    (old / "mail" / "outbox").mkdir(parents=True)
    (old / "mail" / "outbox" / "1.eml").write_bytes(b"Subject: queued\r\n\r\nhi\r\n")
    memory = {"mailboxes": {"u@h/INBOX": {"uidvalidity": 7, "last": 3}}, "messages": ["<m@x>"]}
    (old / "mail" / "robot.json").write_text(json.dumps(memory))
    store = Store(old)
    assert store.ids() == [game.genesis.game]
    assert store.head(game.genesis.game).position.count == len(game.steps)
    db = store.db
    assert db.execute("SELECT count(*) FROM refused").fetchone()[0] == 1
    assert db.execute("SELECT uidvalidity, last FROM mailboxes").fetchone() == (7, 3)
    assert db.execute("SELECT key FROM messages").fetchone() == ("<m@x>",)
    assert db.execute("SELECT count(*) FROM outbox WHERE sent IS NULL").fetchone()[0] == 1
    assert (folder / "head.json").exists()  # the old files stay where they were
    store.close()
    assert Store(old).ids() == [game.genesis.game]  # once only


def test_a_refused_copy_is_kept_as_evidence_even_when_the_command_fails(table: Path) -> None:
    data = json.loads(table.read_text())
    data["steps"][-1]["signature"] = b64e(bytes(64))
    Path("forged.json").write_text(json.dumps(data))
    line = fails(1, "status", "forged.json")
    assert "bad signature" in line
    (label, reason) = Store().db.execute("SELECT label, reason FROM refused").fetchone()
    assert label == "forged.json" and "bad signature" in reason


def test_the_write_ahead_log_stays_small_on_a_connection_kept_open(tmp_path: Path) -> None:
    """A ``watch`` keeps one connection for weeks: its log is folded and cut back, so it
    never grows to SQLite's default high-water mark (about 4 MB) and stays there."""
    path = tmp_path / FILE_NAME
    db = connect(path)
    wal = path.with_name(path.name + "-wal")
    largest = 0
    for n in range(400):  # 6.4 MB written through the one connection
        with transaction(db):
            db.execute(
                "INSERT INTO outbox (queued, message) VALUES (?, ?)", (n, os.urandom(16_000))
            )
        largest = max(largest, wal.stat().st_size)
    db.close()
    assert largest <= 2 * WAL_BYTES
    assert len(sqlite3.connect(path).execute("SELECT id FROM outbox").fetchall()) == 400
