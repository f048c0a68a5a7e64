"""The game commands end to end, through the real keyring and files (architecture §8)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import Result

from tests.helpers import new_keys, ok, pbem


def error(code: int, fragment: str, *args: str | Path) -> None:
    """The command fails with ``code`` and one line that says why."""
    result = pbem(*args)
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: error: "), result.stderr
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in result.output


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three identities in one keyring and a new ``guess`` game created by alice."""
    monkeypatch.chdir(tmp_path)
    new_keys("alice", "bob", "carol")
    ok("key", "export", "bob", "-o", "bob.card.json")
    ok(
        "new",
        "guess",
        "--seat",
        "alice",
        "--seat",
        "bob.card.json",
        "--seat",
        "carol",
        "--option",
        "rounds=1",
        "--as",
        "alice",
        "-o",
        "g.json",
    )
    return tmp_path


def last_file(report: Result) -> Path:
    return Path(json.loads(report.stdout)["file"])


def test_a_whole_game_by_commands(table: Path) -> None:
    made = ok("play", "g.json", "--as", "bob", "--json")
    f = last_file(made)
    f = last_file(ok("play", f, "--as", "carol", "--json"))
    moves = ok("moves", f, "--as", "alice", "--json")  # alice owes the setup beacon first
    assert json.loads(moves.stdout)["moves"] == []
    assert "pbem play" in ok("moves", f, "--as", "alice").stdout
    f = last_file(ok("play", f, "--as", "alice", "--json"))
    report = json.loads(ok("moves", f, "--as", "alice", "--json").stdout)
    assert "guess 7" in report["moves"]
    for name, value in (("alice", 3), ("bob", 5)):
        f = last_file(ok("play", f, f"guess {value}", "--as", name, "--json"))
    status = ok("status", f, "--as", "bob")
    assert "your sealed choice (only you can see it): guess 5" in status.stdout
    result = ok("play", f, "guess 8", "--as", "carol", "--json")  # commits, then reveals
    f = last_file(result)
    for name in ("alice", "bob"):
        f = last_file(ok("play", f, "--as", name, "--json"))
    report = json.loads(ok("status", f, "--json").stdout)
    assert report["next"] != "nothing"
    while not json.loads(ok("status", f, "--json").stdout).get("result"):
        awaiting = json.loads(ok("status", f, "--json").stdout)["next"]
        who = awaiting.split()[0].rstrip(",")
        text = "bank" if "bank" in awaiting else None
        args = ["play", f, *([text] if text else []), "--as", who, "--json"]
        f = last_file(ok(*args))
    assert "game over" in ok("status", f).stdout
    assert "OK" in ok("verify", f).stdout
    log = ok("log", f).stdout
    assert (
        "every seat joined" in log and "guess: alice: guess 3; bob: guess 5; carol: guess 8" in log
    )


def test_the_input_file_is_never_changed_with_o_and_o_never_overwrites(table: Path) -> None:
    before = Path("g.json").read_bytes()
    ok("play", "g.json", "--as", "bob", "-o", "b.json")
    assert Path("g.json").read_bytes() == before
    error(
        2,
        "exists already; pbem never writes over a file",
        "play",
        "g.json",
        "--as",
        "carol",
        "-o",
        "g.json",
    )
    assert Path("g.json").read_bytes() == before


def test_wrong_seat_and_double_action(table: Path) -> None:
    f = last_file(ok("play", "g.json", "--as", "bob", "--json"))
    error(1, "nothing to do: carol to join", "play", f, "--as", "bob")
    error(
        1,
        "cannot play 'guess 3': it is not your move (carol to join)",
        "play",
        f,
        "guess 3",
        "--as",
        "bob",
    )


def test_a_move_typed_when_only_an_automatic_step_is_owed_keeps_that_step(table: Path) -> None:
    """Bob types a move while his join is owed: the join is automatic, made and kept, and
    the move is reported as not played (the game waits for carol); before, the refusal of
    the move threw the join away with it."""
    report = json.loads(ok("play", "g.json", "join", "--as", "bob", "--json").stdout)
    assert report["automatic"] == 1 and report["played"] == []
    assert report["not_played"] == ["join"] and report["awaiting"] == ["carol"]
    error(1, "nothing to do: carol to join", "play", report["file"], "--as", "bob")


def at_guess(table: Path) -> Path:
    """Everyone joined and the setup beacon made: the sealed guesses are awaited."""
    f = last_file(ok("play", "g.json", "--as", "bob", "--json"))
    f = last_file(ok("play", f, "--as", "carol", "--json"))
    return last_file(ok("play", f, "--as", "alice", "--json"))


def test_bad_notation_says_what_was_expected(table: Path) -> None:
    f = at_guess(table)
    error(1, "expected 'guess N', 'bank' or 'risk', not 'guess'", "play", f, "guess", "--as", "bob")
    error(1, "a guess is a number from 1 to 10", "play", f, "guess 11", "--as", "bob")


def test_unknown_identity_and_missing_file(table: Path) -> None:
    error(2, "no identity 'dave'", "play", "g.json", "--as", "dave")
    error(2, "nope.json: no such file", "status", "nope.json")


@pytest.mark.parametrize(
    ("content", "code", "fragment"),
    [
        (b'{"format": "pbem/1", ', 1, "is not valid JSON (line 1"),
        (b'{"format": "pbem/2", "genesis": {}, "steps": []}', 1, "has format 'pbem/2'"),
        (b"\xff\xfe{}", 1, "is not UTF-8"),
        (b'{"format": "pbem/1", "format": "pbem/1"}', 1, "bad.json: duplicate key 'format'"),
        (b'{"format": "pbem/1", "steps": [1.5]}', 1, "bad.json: number 1.5 is not an integer"),
        (b"[" * 10000 + b"]" * 10000, 1, "bad.json: JSON is nested deeper than 64"),
        (b'{"format": "pbem/1", "genesis": {}, "steps": []}', 1, "bad.json: no 'state'"),
        (
            b'{"format": "pbem/1", "genesis": {}, "steps": [], "state": {}}',
            1,
            "genesis: field game: Field required",
        ),
    ],
)
def test_bad_files_give_one_line(table: Path, content: bytes, code: int, fragment: str) -> None:
    Path("bad.json").write_bytes(content)
    for command in ("status", "verify", "log"):
        error(code, fragment, command, "bad.json")
    assert Path("bad.json").read_bytes() == content


def test_truncated_file(table: Path) -> None:
    text = Path("g.json").read_bytes()
    Path("cut.json").write_bytes(text[: len(text) // 2])
    error(1, "cut.json is not valid JSON", "verify", "cut.json")


def test_huge_file(table: Path) -> None:
    Path("huge.json").write_bytes(b" " * (64 * 1024 * 1024 + 1))
    error(1, "larger than 64 MiB", "verify", "huge.json")


def test_unknown_ruleset(table: Path) -> None:
    error(
        2,
        "unknown ruleset 'chess'",
        "new",
        "chess",
        "--seat",
        "alice",
        "--seat",
        "carol",
        "--as",
        "alice",
        "-o",
        "x.json",
    )
    game = json.loads(Path("g.json").read_text())
    game["genesis"]["ruleset"]["id"] = "chess"
    Path("chess.json").write_text(json.dumps(game))
    error(1, "unknown ruleset 'chess'", "verify", "chess.json")


def test_bad_option_is_a_usage_error(table: Path) -> None:
    error(
        2,
        "option rounds takes a whole number",
        "new",
        "guess",
        "--seat",
        "alice",
        "--seat",
        "carol",
        "--option",
        "rounds=x",
        "--as",
        "alice",
        "-o",
        "y.json",
    )
    error(
        2,
        "--option takes KEY=VALUE",
        "new",
        "guess",
        "--seat",
        "alice",
        "--seat",
        "carol",
        "--option",
        "rounds",
        "--as",
        "alice",
        "-o",
        "y.json",
    )
    assert not Path("y.json").exists()


def test_merge_refuses_equivocation_and_prints_proof(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bob signs two different guesses from two keyrings holding his key (two stores, so no
    journal can stop him): merging the copies and verifying them both show it, with both
    signed steps as proof."""
    f = at_guess(table)
    home = Path(os.environ["PBEM_HOME"])
    second = table / "second-home"
    shutil.copytree(home / "keys", second / "keys")
    ok("play", f, "guess 2", "--as", "bob", "-o", "b1.json")
    monkeypatch.setenv("PBEM_HOME", str(second))
    ok("play", f, "guess 9", "--as", "bob", "-o", "b2.json")
    monkeypatch.setenv("PBEM_HOME", str(table / "third-home"))
    result = pbem("merge", "b1.json", "b2.json", "-o", "m.json")
    assert result.exit_code == 1
    assert "equivocation refused: seat 1 (bob) signed two different steps" in result.stderr
    assert '"equivocation"' in result.stderr and "signature" in result.stderr
    assert not Path("m.json").exists()
    result = pbem("verify", "b1.json", "b2.json")
    assert result.exit_code == 1 and "equivocation" in result.stderr


def test_verify_reports_a_rollback(table: Path) -> None:
    shutil.copy("g.json", "g0.json")
    f = last_file(ok("play", "g.json", "--as", "bob", "--json"))
    out = ok("verify", "g0.json", f).stdout
    assert f"rollback: g0.json is a strict prefix of {f}" in out


def test_console_script_runs_as_a_process(table: Path) -> None:
    """The installed entry point, in a real process: exit code and one line on stderr."""
    proc = subprocess.run(
        [sys.executable, "-m", "pbem", "verify", "missing.json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == "pbem: error: missing.json: no such file"


def test_a_seat_named_like_a_folder_is_the_keyring_s(table: Path) -> None:
    """``--seat carol`` beside a folder ``carol`` (a player's home, say) is carol of the
    keyring, not a card file that cannot be read; a folder named ``x.json`` is refused in
    one line."""
    (table / "carol").mkdir()
    ok("new", "guess", "--seat", "alice", "--seat", "carol", "--as", "alice", "-o", "h.json")
    (table / "dave.json").mkdir()
    argv = ["new", "guess", "--seat", "alice", "--seat", "dave.json", "--as", "alice"]
    error(2, "dave.json: is a folder, not a file", *argv, "-o", "i.json")
    assert not (table / "i.json").exists()


@pytest.mark.parametrize("files", ["one", "numbered"])
def test_merge_replaces_the_first_copy_or_writes_beside_it_named_by_step(
    table: Path, monkeypatch: pytest.MonkeyPatch, files: str
) -> None:
    """Without -o the merged head replaces the first copy (which the store then holds
    whole), as ``pbem play`` replaces its game file; with the setting ``files numbered``
    it goes beside it, named by step. Merging the same copies again writes no new file."""
    second = table / "second-home"
    shutil.copytree(Path(os.environ["PBEM_HOME"]) / "keys", second / "keys")
    shutil.copy("g.json", "bob.json")
    shutil.copy("g.json", "carol.json")
    bob = last_file(ok("play", "bob.json", "--as", "bob", "--json"))
    monkeypatch.setenv("PBEM_HOME", str(second))  # carol joins on her own machine
    carol = last_file(ok("play", "carol.json", "--as", "carol", "--json"))
    assert (bob.name, carol.name) == ("bob.json", "carol.json")
    monkeypatch.setenv("PBEM_HOME", str(table / "third-home"))
    ok("config", "set", "files", files)
    before = set(table.glob("*.json"))
    merged = last_file(ok("merge", bob, carol, "--json"))
    assert merged.name == ("bob.json" if files == "one" else "bob.s0001.json")
    assert set(table.glob("*.json")) == before | {table / merged}
    assert last_file(ok("merge", bob, carol, "--json")) == merged
    assert set(table.glob("*.json")) == before | {table / merged}
    assert "OK, 1 step verified" in ok("verify", merged).stdout


def test_the_file_of_the_head_is_named_only_while_it_holds_the_head(
    table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``pbem ui`` titles its page with: the newest export only while no step came
    in since (else the page named a file that holds fewer steps than it shows)."""
    from pbem.store.exports import newest_export
    from pbem.store.store import Store

    home = Path(os.environ["PBEM_HOME"])
    mine = last_file(ok("play", "g.json", "--as", "bob", "--json"))
    (game,) = Store().ids()
    assert newest_export(Store(), game, of_head=True) == str(mine)
    monkeypatch.setenv("PBEM_HOME", str(table / "carol-home"))
    shutil.copytree(home / "keys", table / "carol-home" / "keys")
    theirs = last_file(ok("play", mine, "--as", "carol", "--json"))
    monkeypatch.setenv("PBEM_HOME", str(home))
    ok("status", theirs)  # imported: a newer version, in no file of this home's yet
    assert newest_export(Store(), game) == str(mine)
    assert newest_export(Store(), game, of_head=True) is None
    exported = last_file(ok("export", game, "--json"))
    assert Path(newest_export(Store(), game, of_head=True) or "").resolve() == exported.resolve()
