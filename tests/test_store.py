"""The event store: durable settings, order, finished and unfinished games."""

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core.errors import StoreError
from companion.core.events import CardScanned, Touch
from companion.core.store import SCHEMA_VERSION, EventStore


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


def test_the_newest_input_time_is_read_without_reading_the_game(tmp_path):
    store = EventStore(tmp_path / "t.db")
    gid, other = store.new_game("sugarrr", ["A", "B"], 0.0), store.new_game("sugarrr", ["C", "D"], 0.0)
    assert store.last_input_time(gid) is None
    for t in (5.0, 7.5, 6.25):  # stored order, not the largest time: a clock stepped back
        store.append(gid, Touch("done", t))
    store.append(other, Touch("done", 99.0))
    assert store.last_input_time(gid) == 6.25 == store.inputs(gid)[-1].t


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


# ---------------------------------------------------------------- formats and migrations

def _format1_store(path):
    """A store as the first companion wrote it: no config column, no user_version."""
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL,
                            started REAL NOT NULL, finished REAL, result TEXT);
        CREATE TABLE inputs (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                             t REAL NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (game_id, seq));
    """)
    db.execute("INSERT INTO games (game, players, started) VALUES ('sugarrr', '[\"Ana\", \"Ben\"]', 0.0)")
    db.execute("""INSERT INTO inputs VALUES (1, 1, 1.0, '{"type":"Touch","command":"done","t":1.0}')""")
    db.commit()
    db.close()


def test_a_format_1_store_is_copied_aside_then_migrated_and_keeps_its_game(tmp_path):
    path = tmp_path / "old.db"
    _format1_store(path)
    store = EventStore(path)
    assert store.migrated_from == 1 and store.backup.exists()
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    record = store.unfinished("sugarrr")
    assert record.players == ("Ana", "Ben") and record.config == {} and record.inputs == 1
    assert store.inputs(record.id) == [Touch("done", 1.0)]
    # the copy aside is the old format, untouched
    old = sqlite3.connect(store.backup)
    assert "config" not in {r[1] for r in old.execute("PRAGMA table_info(games)")}
    # and the migrated store takes new games
    assert store.new_game("sugar-blast", ["Cy"], 2.0, config={"solo": True}) == 2
    store.close()
    assert EventStore(path).migrated_from is None  # opened again: nothing left to do


def test_a_store_from_a_newer_companion_is_refused_with_one_line(tmp_path):
    path = tmp_path / "new.db"
    EventStore(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError) as err:
        EventStore(path)
    message = str(err.value)
    assert "\n" not in message and str(path) in message and "newer companion" in message


@pytest.mark.parametrize("setup, words", [
    ("CREATE TABLE contacts (name TEXT, phone TEXT)", "not a companion game store (its tables: contacts)"),
    ("CREATE TABLE games (id INTEGER PRIMARY KEY)", "not a companion game store (its tables: games)"),
])
def test_another_programs_sqlite_file_is_refused_and_left_alone(tmp_path, setup, words):
    path = tmp_path / "theirs.db"
    db = sqlite3.connect(path)
    db.execute(setup)
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError) as err:
        EventStore(path)
    assert words in str(err.value) and str(path) in str(err.value) and "\n" not in str(err.value)
    assert path.read_bytes() == before


def test_a_file_that_is_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("shopping list\n" * 100)
    with pytest.raises(StoreError, match="not a companion game store"):
        EventStore(path)


def test_read_only_opening_writes_nothing_and_refuses_writes(tmp_path):
    path = tmp_path / "t.db"
    store = EventStore(path)
    gid = store.new_game("sugarrr", ["A", "B"], 0.0)
    store.append(gid, Touch("done", 1.0))
    store.close()
    before = path.read_bytes()
    ro = EventStore(path, readonly=True)
    assert [g.id for g in ro.games()] == [gid] and ro.inputs(gid) == [Touch("done", 1.0)]
    with pytest.raises(StoreError, match="read-only"):
        ro.new_game("sugarrr", ["C", "D"], 2.0)
    ro.close()
    assert path.read_bytes() == before  # (SQLite may still make its -shm/-wal side files)


@pytest.fixture
def read_only_fs(tmp_path):
    """A real read-only file system (a tmpfs remounted read-only); needs mount rights."""
    mnt = tmp_path / "ro"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(mnt)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root): the read-only file system case is not checked")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_history_reads_a_store_on_a_read_only_file_system(read_only_fs):
    path = read_only_fs / "table.db"
    store = EventStore(path)
    gid = store.new_game("sugarrr", ["Ana", "Ben"], 0.0)
    store.append(gid, Touch("done", 1.0))
    store.close()
    assert subprocess.run(["mount", "-o", "remount,ro", str(read_only_fs)]).returncode == 0
    with pytest.raises(StoreError):
        EventStore(path)  # writing is impossible: one clear error
    proc = subprocess.run([sys.executable, "-m", "companion", "history", "--store", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Ana, Ben" in proc.stdout and "unfinished" in proc.stdout


def test_only_one_running_table_holds_a_store(tmp_path):
    path = tmp_path / "t.db"
    first = EventStore(path, exclusive=True)
    with pytest.raises(StoreError, match="in use by another companion"):
        EventStore(path, exclusive=True)
    assert EventStore(path, readonly=True).games() == []  # history still reads it
    first.close()
    EventStore(path, exclusive=True).close()


def test_a_second_run_on_the_same_store_is_refused_and_the_game_stays_playable(tmp_path):
    db = tmp_path / "t.db"
    holder = EventStore(db, exclusive=True)  # a table already running on this store
    proc = subprocess.run([sys.executable, "-m", "companion", "run", "--headless", "--simulate", "--store", str(db),
                           "--names", "A,B"], input="SRS215\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "in use by another companion" in proc.stderr
    assert "Traceback" not in proc.stderr and holder.games() == []
    holder.close()


def test_a_store_on_a_read_only_file_system_says_so(read_only_fs):
    assert subprocess.run(["mount", "-o", "remount,ro", str(read_only_fs)]).returncode == 0
    with pytest.raises(StoreError) as err:
        EventStore(read_only_fs / "new.db")
    assert "not a companion game store" not in str(err.value) and "writable" in str(err.value)


@pytest.mark.parametrize("shm", ["kept", "gone"])
def test_history_after_a_power_cut_reads_the_games_still_in_the_wal_on_a_read_only_file_system(read_only_fs, shm):
    """The report: after a cut most games are still in the WAL (never checkpointed), and
    the read-only fallback read the main file alone: "no such table: games"."""
    path = read_only_fs / "table.db"
    script = ("import os, sys; from companion.core.store import EventStore; from companion.core.events import Touch\n"
              "s = EventStore(sys.argv[1]); g = s.new_game('sugarrr', ['Ana', 'Ben'], 0.0)\n"
              "s.append(g, Touch('done', 1.0)); os._exit(0)  # the power cut: no close, no checkpoint\n")
    subprocess.run([sys.executable, "-c", script, str(path)], check=True)
    assert Path(f"{path}-wal").stat().st_size > 0
    if shm == "gone":
        Path(f"{path}-shm").unlink(missing_ok=True)
    assert subprocess.run(["mount", "-o", "remount,ro", str(read_only_fs)]).returncode == 0
    proc = subprocess.run([sys.executable, "-m", "companion", "history", "--store", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Ana, Ben" in proc.stdout and "unfinished" in proc.stdout
    ro = EventStore(path, readonly=True)
    try:
        assert [list(g.players) for g in ro.games()] == [["Ana", "Ben"]]
        assert ro.inputs(ro.games()[0].id) == [Touch("done", 1.0)]
    finally:
        ro.close()
