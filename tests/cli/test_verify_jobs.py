"""``pbem verify --jobs N``: files verified in parallel report exactly what one process
reports, rollbacks, mergeable copies, other games and equivocation across the files
included. (Two honest copies of a ``guess`` game cannot fork without one seat signing
twice, so the fork here is the equivocation; ``compare`` names both the same way.)"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.cli.test_game_cli import at_guess, ok, pbem, table

__all__ = ["table"]  # the fixture, used by name


def test_reports_with_two_jobs_equal_one_job(table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = Path(os.environ["PBEM_HOME"])
    for other in ("second-home", "third-home"):
        shutil.copytree(home / "keys", table / other / "keys")
    ok("new", "guess", "--seat", "alice", "--seat", "carol", "--as", "alice", "-o", "h.json")
    f = at_guess(table)
    # bob signs two different guesses from two keyrings (equivocation); carol guesses
    # in a third copy (mergeable with bob's)
    ok("play", f, "guess 2", "--as", "bob", "-o", "b1.json")
    monkeypatch.setenv("PBEM_HOME", str(table / "second-home"))
    ok("play", f, "guess 9", "--as", "bob", "-o", "b2.json")
    monkeypatch.setenv("PBEM_HOME", str(table / "third-home"))
    ok("play", f, "guess 5", "--as", "carol", "-o", "c1.json")
    files = ["g.json", "h.json", f, "b1.json", "c1.json", "b2.json"]
    for extra in ([], ["--json"]):
        one = pbem("verify", *files, "--jobs", "1", *extra)
        two = pbem("verify", *files, "--jobs", "2", *extra)
        assert one.exit_code == two.exit_code == 1
        assert (one.stdout, one.stderr) == (two.stdout, two.stderr)
    text = pbem("verify", *files, "--jobs", "2").output
    for said in ("equivocation: seat 1", "rollback:", "envelopes of step", "different games"):
        assert said in text, said


def test_a_refused_file_is_named_the_same_with_two_jobs(table: Path) -> None:
    f = at_guess(table)
    Path("bad.json").write_text(Path(f).read_text().replace('"seat": 1', '"seat": 2', 1))
    one = pbem("verify", "g.json", "bad.json", "--jobs", "1", "--json")
    two = pbem("verify", "g.json", "bad.json", "--jobs", "2", "--json")
    assert one.exit_code == two.exit_code != 0
    assert one.stdout == two.stdout and '"error"' in one.stdout
