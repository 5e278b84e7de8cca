"""A store file damaged on its card (a power cut, a failing SD card): every command that
opens it says so in one line, with how to go on, and exits 1; damage found in the middle
of a game refuses the input and keeps the state, as a full card does; `doctor` fails it.

The damage is real: pages of a real store overwritten with junk, as a card that loses
power mid-write leaves them. SQLite then reports SQLITE_CORRUPT ("database disk image is
malformed")."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

from companion.core.clock import FakeClock
from companion.core.errors import DamagedStore, StoreError
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.service.doctor import check_store, Machine
from companion.service.doctor_pi import Identity
from companion.table.session import Session


def companion(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})


def junk_after_first_page(path) -> None:
    """Overwrite everything after the file's first page (its schema) with junk."""
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.seek(4096)
        f.write(b"\xde\xad" * ((size - 4096) // 2))


@pytest.fixture
def damaged(tmp_path):
    """A store with one game of 40 inputs, then damaged; its bytes before the commands run."""
    path = tmp_path / "table.db"
    store = EventStore(path)
    gid = store.new_game("sugarrr", ["A", "B"], 0.0)
    for i in range(40):
        store.append(gid, Touch("pause", float(i)))
    store.close()
    junk_after_first_page(path)
    return path, path.read_bytes()


@pytest.mark.parametrize("argv", [
    ["history"],
    ["history", "--json"],
    ["run", "--game", "sugarrr", "--names", "A,B", "--headless", "--simulate"],
    ["run", "--headless", "--simulate"],
    ["enroll", "sugarrr", "--nfc", "emulated"],
])
def test_every_command_on_a_damaged_store_says_so_in_one_line_and_exits_1(damaged, argv):
    path, before = damaged
    proc = companion(*argv, "--store", str(path), stdin="SRS215\n")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"companion: the game store {path} is damaged")
    assert "backup" in lines[0] and f"mv {path} {path}.damaged" in lines[0]
    assert path.read_bytes() == before  # nothing written to it


def test_damage_found_mid_game_refuses_the_input_and_keeps_the_state(tmp_path, caplog):
    path = tmp_path / "table.db"
    store = EventStore(path, exclusive=True)
    clock = FakeClock(0.0)
    session = Session.start("sugarrr", ["A", "B"], store, clock)
    for i in range(40):
        store.append(session.game_id, Touch("pause", float(i)))
    # Another writer changes the file (so the table's cached pages are stale), then the
    # card loses what it held: the table's next read finds the damage.
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("UPDATE games SET config = config")
    other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    other.close()
    junk_after_first_page(path)
    state = session.state
    clock.set(100.0)
    verdict = session.handle(CardScanned("SRS215", "scanner", 100.0))
    assert verdict.verdict == "rejected" and verdict.seq is None
    assert "the game store is damaged" in verdict.reason and "did not count" in verdict.reason
    assert session.state is state
    assert f"mv {path} {path}.damaged" in caplog.text  # the whole story is in the log
    with pytest.raises(DamagedStore):  # every later read says the same, as the store's own error
        store.games()
    with pytest.raises(StoreError, match="is damaged"):
        store.inputs(session.game_id)
    store.close()


def test_a_file_that_is_not_sqlite_is_not_called_damaged(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("shopping list\n" * 400)
    with pytest.raises(StoreError) as err:
        EventStore(path)
    assert not isinstance(err.value, DamagedStore) and "not a companion game store" in str(err.value)


def test_doctor_fails_a_damaged_store_with_the_fix(damaged, tmp_path):
    path, before = damaged
    check = check_store(Machine("/", user=Identity.me()), str(path))  # (the test's own access)
    assert check.status == "fail" and "is damaged" in check.detail
    assert f"mv {path} {path}.damaged" in check.fix
    assert path.read_bytes() == before
    sound = tmp_path / "sound.db"
    EventStore(sound).close()
    assert check_store(Machine("/", user=Identity.me()), str(sound)).status == "ok"


def test_doctor_store_option_checks_that_file(damaged):
    path, _ = damaged
    proc = companion("doctor", "--store", str(path))
    assert "Traceback" not in proc.stderr
    line = next(l for l in proc.stdout.splitlines() if "Game store" in l)
    assert line.startswith("FAIL") and "is damaged" in line
