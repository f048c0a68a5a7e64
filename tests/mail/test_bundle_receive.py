"""Issue 27: ``pbem receive`` of a step bundle on a store that lacks the steps before it
(here: a fresh store, on a player's new machine) keeps it and says so; when the missing
steps come (the whole file), both are taken and the store is at the newest head."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.mail.conftest import Player, new_game


def test_a_bundle_on_a_store_that_lacks_its_parent_is_kept_then_taken(
    trio: list[Player], tmp_path: Path
) -> None:
    alice, bob, carol = trio
    game = new_game(trio, tmp_path, "guess", "rounds=1")
    for player in (bob, carol):  # the joins, made from files
        player.run("status", game, "--as", player.name)
        player.run("play", player.store().ids()[0][:8], "--as", player.name)
        latest = Path(player.json("export", player.store().ids()[0][:8])["file"])
        alice.run("status", latest)
    short = alice.store().ids()[0][:8]
    alice.run("play", short, "--as", "alice")  # the setup draw
    alice.run("play", short, "guess 4", "--as", "alice")
    alice.run("send", short, "--as", "alice", "--eml", tmp_path / "steps.eml")
    alice.run("send", short, "--as", "alice", "--full", "--eml", tmp_path / "file.eml")

    # bob on a new machine: his keyring, an empty store
    fresh = Player("bob", tmp_path / "new-machine")
    fresh.home.mkdir(parents=True)
    for folder in ("keys", "cards"):
        if (bob.home / folder).is_dir():
            shutil.copytree(bob.home / folder, fresh.home / folder)
    kept = fresh.run("receive", tmp_path / "steps.eml", "--json")
    report = json.loads(kept.stdout)
    assert report["games"][0]["status"] == "pending"
    text = fresh.run("receive", tmp_path / "steps.eml").stdout
    assert "kept until the steps before them arrive" in text
    fresh.run("receive", tmp_path / "file.eml")
    store = fresh.store()
    assert store.head(store.ids()[0]).text() == alice.store().head(store.ids()[0]).text()
    assert store.db.execute("SELECT count(*) FROM pending").fetchone()[0] == 0
