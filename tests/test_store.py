"""The event store: durable settings, order, finished and unfinished games."""

import sqlite3

import pytest

from companion.core.errors import StoreError
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore


def test_store_uses_wal_and_full_sync(tmp_path):
    store = EventStore(tmp_path / "t.db")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_an_appended_input_is_visible_to_another_connection_at_once(tmp_path):
    store = EventStore(tmp_path / "t.db")
    gid = store.new_game("sugarrr", ["A", "B"], 0.0)
    assert store.append(gid, CardScanned("SRS71M", "scanner", 1.0)) == 1
    assert store.append(gid, Touch("done", 2.0)) == 2
    other = sqlite3.connect(tmp_path / "t.db")
    assert other.execute("SELECT COUNT(*) FROM inputs WHERE game_id = ?", (gid,)).fetchone()[0] == 2
    assert EventStore(tmp_path / "t.db").inputs(gid) == [CardScanned("SRS71M", "scanner", 1.0), Touch("done", 2.0)]


def test_finished_games_are_not_resumed(tmp_path):
    store = EventStore(tmp_path / "t.db")
    a = store.new_game("sugarrr", ["A", "B"], 0.0)
    b = store.new_game("sugarrr", ["C", "D"], 1.0)
    assert store.unfinished("sugarrr").id == b
    store.finish(b, 2.0, {"winners": ["C"]})
    assert store.unfinished("sugarrr").id == a
    assert store.unfinished("sugar-blast") is None
    assert [g.id for g in store.games()] == [b, a]


def test_an_unopenable_store_says_which_file(tmp_path):
    bad = tmp_path / "not-a-db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not-a-db"):
        EventStore(bad)
