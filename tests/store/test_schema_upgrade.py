"""A store made by an older pbem is upgraded when it is opened, whole, in one transaction;
one made by a newer pbem is refused in one line and left as it is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pbem.format.errors import UsageError
from pbem.store.db import APPLICATION_ID, FILE_NAME, SCHEMA, SCHEMA_VERSION, connect


def old_store(path: Path, version: int) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(SCHEMA)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {version}")
    db.close()


def test_a_store_of_schema_1_gains_the_tables_of_schema_2_and_3(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    old_store(path, 1)
    db = connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"pending", "asked", "quarantine", "games", "steps"} <= tables
    db.close()
    connect(path).close()  # opening it again changes nothing


def test_a_store_of_a_newer_pbem_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    old_store(path, 99)
    before = path.read_bytes()
    with pytest.raises(UsageError, match=r"a store of a newer pbem \(schema 99; this pbem"):
        connect(path)
    assert path.read_bytes() == before
