"""A full storage card at the game's last input: the input is saved, the winner shows,
and the game is marked finished as soon as there is room (or on the next start).
Mid-game a full card refuses the input and keeps the state.

The card is :class:`FullCard`: a real store on a real file whose writes fail, once the
test says the card is full, with the error SQLite gives then ("database or disk is
full"); ``room_for_inputs`` lets the last input's commit through and not the result's.
The last test fills a real file system instead: the operating system's file size limit
(RLIMIT_FSIZE) in a child process.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.core.clock import FakeClock
from companion.core.errors import StoreError
from companion.core.store import EventStore
from companion.table.replay import replay
from companion.table.runner import Runner
from companion.table.session import Session, state_digest

ROOT = Path(__file__).resolve().parent.parent
TRACE = ROOT / "tests" / "data" / "sugarrr-family.trace"


class FullCard(EventStore):
    """An event store on a card that can fill up: while ``full``, every write fails as
    SQLite's does on a full disk (SQLITE_FULL, rolled back), except appends while
    ``room_for_inputs``."""

    full = False
    room_for_inputs = False
    _appending = False

    @contextmanager
    def transaction(self):
        if self.full and not (self.room_for_inputs and self._appending):
            with super().transaction():
                raise sqlite3.OperationalError("database or disk is full")
        with super().transaction() as db:
            yield db

    def append(self, game_id, item):
        self._appending = True
        try:
            return super().append(game_id, item)
        finally:
            self._appending = False


@pytest.fixture(scope="module")
def family_game(tmp_path_factory):
    """Every stored input of the recorded family game, in order, and its players."""
    path = tmp_path_factory.mktemp("family") / "family.db"
    runner = replay(TRACE, store=str(path), window=False)
    store = runner.session.store
    inputs = store.inputs(runner.session.game_id)
    players = list(runner.session.state.players)
    result = runner.session.result().to_dict()
    return inputs, players, result


def fill_up(store: FullCard, room_for_inputs: bool = True) -> None:
    store.full, store.room_for_inputs = True, room_for_inputs


def make_room(store: FullCard) -> None:
    store.full = False


def play_all_but_the_last(tmp_path, family_game):
    inputs, players, _ = family_game
    store = FullCard(tmp_path / "table.db")
    session = Session.start("sugarrr", players, store, FakeClock(inputs[0].t))
    for item in inputs[:-1]:
        assert session.handle(item).verdict in ("accepted", "ignored")
    return session, store


def test_disk_full_at_the_last_input_saves_it_shows_the_winner_and_finishes_on_the_next_start(tmp_path, family_game):
    inputs, players, result = family_game
    session, store = play_all_but_the_last(tmp_path, family_game)
    fill_up(store)
    with pytest.raises(StoreError, match="database or disk is full"):  # no room for the result
        store.finish(session.game_id, 0.0, result)

    verdict = session.handle(inputs[-1])  # must not raise out of the session

    assert verdict.verdict == "accepted"
    assert store.inputs(session.game_id) == inputs  # the last input is saved
    assert session.over and session.result().to_dict() == result
    assert store.unfinished("sugarrr").id == session.game_id  # not yet marked finished
    runner = Runner(session, session.clock)
    import pygame

    pygame.font.init()
    surface = pygame.Surface((800, 480))
    runner.draw(surface)  # the final screen draws, with the winner

    # The daemon stops (or the power goes); with room on the card it starts again.
    store.close()
    store = EventStore(tmp_path / "table.db")
    again = Session.start("sugarrr", [], store, FakeClock(inputs[-1].t + 60))
    assert again.over and again.result().to_dict() == result
    assert store.unfinished("sugarrr") is None
    assert store.games()[0].result == result


def test_finishing_is_retried_while_the_table_runs(tmp_path, family_game):
    inputs, _, result = family_game
    session, store = play_all_but_the_last(tmp_path, family_game)
    fill_up(store)
    clock = session.clock
    runner = Runner(session, clock)
    runner.inputs.put(inputs[-1])
    runner.step()
    assert session.over and store.unfinished("sugarrr") is not None
    make_room(store)  # the host deletes something
    clock.advance(10.0)
    runner.step()
    assert store.unfinished("sugarrr") is None and store.games()[0].result == result


def test_mid_game_a_full_disk_still_refuses_the_input_and_keeps_the_state(tmp_path, family_game):
    inputs, players, _ = family_game
    store = FullCard(tmp_path / "table.db")
    session = Session.start("sugarrr", players, store, FakeClock(inputs[0].t))
    for item in inputs[:20]:
        session.handle(item)
    stored = store.inputs(session.game_id)
    before = state_digest(session.state)
    fill_up(store, room_for_inputs=False)  # no room at all
    verdict = session.handle(inputs[20])
    assert verdict.verdict == "rejected" and "could not save" in verdict.reason
    assert state_digest(session.state) == before
    make_room(store)
    assert store.inputs(session.game_id) == stored


REAL_FULL_DISK = r'''
import json, os, resource, shutil, signal, sys
from companion.core.clock import FakeClock
from companion.core.events import input_from_dict
from companion.core.store import EventStore
from companion.table.session import Session

folder, players = sys.argv[1], json.loads(sys.argv[2])
inputs = [input_from_dict(d) for d in json.loads(sys.argv[3])]
path = os.path.join(folder, "table.db")
store = EventStore(path)
session = Session.start("sugarrr", players, store, FakeClock(inputs[0].t))
for item in inputs[:-1]:
    session.handle(item)
store.query("PRAGMA wal_checkpoint(TRUNCATE)")
# How many bytes the last input's commit writes: measured on a copy of the file.
shutil.copy(path, path + ".probe")
probe = EventStore(path + ".probe")
probe.query("PRAGMA wal_checkpoint(TRUNCATE)")  # whatever opening it wrote
probe.append(session.game_id, inputs[-1])
needed = os.path.getsize(path + ".probe-wal")
probe.close()
# The card now has room for that commit and 2 KiB more: no room for the result's page.
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
resource.setrlimit(resource.RLIMIT_FSIZE, (needed + 2048, resource.RLIM_INFINITY))
verdict = session.handle(inputs[-1])
print(json.dumps({"verdict": verdict.verdict, "over": session.over,
                  "unsaved": session.unsaved_result is not None,
                  "stored": len(store.inputs(session.game_id))}))
'''


def test_a_really_full_file_system_at_the_last_input(tmp_path, family_game):
    """The same with the operating system refusing to grow the store's files
    (RLIMIT_FSIZE, in a child process): room for the last input's commit (two 4 KiB WAL
    frames, measured on a copy) and 2 KiB more, so about 10 KiB left before the last
    input. The input is committed, the result's frame is not, nothing escapes, and the
    next start finishes the game."""
    import json
    import subprocess
    import sys

    from companion.core.events import input_to_dict

    inputs, players, result = family_game
    child = subprocess.run(
        [sys.executable, "-c", REAL_FULL_DISK, str(tmp_path), json.dumps(players),
         json.dumps([input_to_dict(i) for i in inputs])],
        capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    said = json.loads(child.stdout.strip().splitlines()[-1])
    assert said == {"verdict": "accepted", "over": True, "unsaved": True, "stored": len(inputs)}
    store = EventStore(tmp_path / "table.db")
    assert store.unfinished("sugarrr") is not None  # the result did not fit
    again = Session.start("sugarrr", [], store, FakeClock(inputs[-1].t + 60))
    assert again.over and store.unfinished("sugarrr") is None
    assert store.games()[0].result == result
