"""A game's resume point (companion.table.resume_point): a restart that starts from it is
the same game as a restart that replays every stored input, and a point that does not
hold is never used (issue 24)."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from companion.core.clock import FakeClock
from companion.core.events import Touch
from companion.core.store import EventStore
from companion.table import resume_point
from companion.table.replay import data_dir, replay
from companion.table.runner import Runner
from companion.table.session import Session
from toy_helpers import every_game

GAMES = ["sugarrr", "sugar-heist", "sugar-blast", "sweet-deals"]
#: What a restart must give the same, from a point or from the whole replay.
SAME = ("state", "entry", "undo", "turn_started", "pauses", "repeats", "last_message", "last_ok",
        "last_saved", "resumed_inputs", "saved_inputs", "started")


def recorded(game: str, tmp_path: Path) -> tuple[list, list, dict]:
    """The stored inputs of a recorded family game (tests/data), its players and options."""
    db = tmp_path / f"{game}-source.db"
    runner = replay(data_dir() / f"{game}-family.trace", store=str(db), window=False)
    record = runner.session.store.games()[-1]
    inputs = runner.session.store.inputs(record.id)
    runner.session.store.close()
    return inputs, list(record.players), dict(record.config)


def live(game, players, options, db: Path, inputs) -> Session:
    """A table that took ``inputs`` one by one (every one accepted)."""
    clock = FakeClock(0.0)
    session = Session.start(game, players, EventStore(str(db)), clock, resume=False, options=options)
    for item in inputs:
        clock.set(item.t)
        verdict = session.handle(item)
        assert verdict is not None and verdict.verdict == "accepted", (item, verdict)
    return session


def restarted(game: str, db: Path, point: bool) -> Session:
    """A fresh start on ``db``: with its resume point, or with it moved aside."""
    path = Path(str(db) + ".resume")
    aside = Path(str(db) + ".aside")
    if not point and path.exists():
        path.rename(aside)
    try:
        return Session.start(game, [], EventStore(str(db)), FakeClock(1e9))
    finally:
        if aside.exists():
            aside.rename(path)


def assert_same(a: Session, b: Session) -> None:
    for name in SAME:
        assert getattr(a, name) == getattr(b, name), name
    assert a.prompt() == b.prompt() and a.undo_label() == b.undo_label()
    assert a.spent_by_seat(a.last_input_t() + 30.0) == b.spent_by_seat(b.last_input_t() + 30.0)


@pytest.mark.parametrize("game", every_game(GAMES))
def test_a_restart_from_a_point_is_the_game_a_whole_replay_rebuilds(game, tmp_path):
    inputs, players, options = recorded(game, tmp_path)
    n = len(inputs) - 1  # the last input ends the game: a finished game is not resumed
    stops = sorted({1, 2, n // 3, n // 2, n - 1, n} | set(range(5, n, max(1, n // 12))))
    for stop in stops:
        for behind in (0, 3):  # the point kept `behind` inputs before the stop (a burst, then a power cut)
            if behind >= stop:
                continue
            db = tmp_path / f"{game}-{stop}-{behind}.db"
            table = live(game, players, options, db, inputs[:stop - behind])
            assert table.keep_resume_point()
            clock = table.clock
            for item in inputs[stop - behind:stop]:
                clock.set(item.t)
                assert table.handle(item).verdict == "accepted"
            table.store.close()
            quick, whole = restarted(game, db, point=True), restarted(game, db, point=False)
            assert quick.resumed_from_point == stop - behind and whole.resumed_from_point == 0
            assert_same(quick, whole)
            assert quick.saved_inputs == stop


@pytest.mark.parametrize("commands", [("pause", "resume", "undo", "undo", "pause"), ("undo",), ("pause", "undo"),
                                      ("undo", "pause", "resume")])
def test_undo_and_pauses_kept_in_a_point_take_back_as_after_a_whole_replay(commands, tmp_path):
    inputs, players, options = recorded("sugar-heist", tmp_path)
    db = tmp_path / "heist.db"
    table = live("sugar-heist", players, options, db, inputs[:40])
    clock = table.clock
    for dt, command in enumerate(commands, 1):
        clock.set(inputs[39].t + dt)
        assert table.handle(Touch(command, clock.now())).verdict == "accepted", command
    assert table.keep_resume_point()
    table.store.close()
    quick, whole = restarted("sugar-heist", db, point=True), restarted("sugar-heist", db, point=False)
    assert quick.resumed_from_point == 40 + len(commands)
    assert_same(quick, whole)
    assert quick.paused == (commands[-1] == "pause") and len(quick.undo) == 40 - commands.count("undo")
    for session in (quick, whole):  # Undo goes on taking back the same inputs
        session.clock.set(inputs[39].t + 20.0)
    for _ in range(5):
        a, b = quick.handle(Touch("undo", quick.clock.now())), whole.handle(Touch("undo", whole.clock.now()))
        assert a.message == b.message and quick.state == whole.state


def kept_game(tmp_path: Path, game: str = "sugarrr", n: int = 20) -> tuple[Path, list]:
    inputs, players, options = recorded(game, tmp_path)
    db = tmp_path / "kept.db"
    table = live(game, players, options, db, inputs[:n])
    assert table.keep_resume_point()
    table.store.close()
    return db, inputs


def test_a_point_is_used_and_the_table_says_the_same(tmp_path):
    db, _ = kept_game(tmp_path)
    session = restarted("sugarrr", db, point=True)
    assert session.resumed_from_point == 20
    assert session.last_message.startswith("Welcome back: the game is as you left it (20 moves kept).")


def test_a_torn_or_damaged_point_is_not_used(tmp_path):
    db, _ = kept_game(tmp_path)
    path = Path(str(db) + ".resume")
    whole = path.read_bytes()
    for damaged in (b"", whole[:len(whole) // 2], whole[:-1] + bytes([whole[-1] ^ 1]),
                    whole[:40] + bytes([whole[40] ^ 0x10]) + whole[41:], b"x" * len(whole)):
        path.write_bytes(damaged)
        session = restarted("sugarrr", db, point=True)
        assert session.resumed_from_point == 0 and session.saved_inputs == 20


def test_a_point_made_by_another_program_is_not_used(tmp_path, monkeypatch):
    db, _ = kept_game(tmp_path)
    monkeypatch.setattr(resume_point, "_fingerprint", ["another version"])
    assert restarted("sugarrr", db, point=True).resumed_from_point == 0


def test_the_fingerprint_changes_when_a_source_file_changes(tmp_path, monkeypatch):
    pkg = tmp_path / "companion"
    (pkg / "games").mkdir(parents=True)
    (pkg / "games" / "rules.py").write_text("X = 1\n")
    (pkg / "table").mkdir()
    monkeypatch.setattr(resume_point, "__file__", str(pkg / "table" / "resume_point.py"))

    def fresh() -> str:
        monkeypatch.setattr(resume_point, "_fingerprint", [])
        return resume_point.fingerprint()
    first = fresh()
    assert fresh() == first
    os.utime(pkg / "games" / "rules.py", ns=(1, 1))
    second = fresh()
    (pkg / "games" / "rules.py").write_text("X = 2\n")
    os.utime(pkg / "games" / "rules.py", ns=(1, 1))  # the same time, the same size: another file would...
    assert fresh() == second  # (...not be told apart: size and time are what an upgrade changes)
    (pkg / "games" / "rules.py").write_text("X = 10\n")
    os.utime(pkg / "games" / "rules.py", ns=(1, 1))
    assert len({first, second, fresh()}) == 3
    (pkg / "games" / "more.py").write_text("")
    assert fresh() not in {first, second}


def test_a_point_is_not_used_when_the_stored_inputs_it_covers_differ(tmp_path):
    db, _ = kept_game(tmp_path)
    with sqlite3.connect(db) as raw:  # a store put back from another copy: one early input's time differs
        (payload,) = raw.execute("SELECT payload FROM inputs WHERE seq = 3").fetchone()
        changed = json.loads(payload)
        changed["t"] += 0.25
        raw.execute("UPDATE inputs SET payload = ? WHERE seq = 3", (json.dumps(changed),))
    session = restarted("sugarrr", db, point=True)
    assert session.resumed_from_point == 0 and session.saved_inputs == 20


def test_a_point_for_more_inputs_than_the_store_has_is_not_used(tmp_path):
    db, _ = kept_game(tmp_path)
    with sqlite3.connect(db) as raw:  # the store lost its last input (an older copy put back)
        raw.execute("DELETE FROM inputs WHERE seq = 20")
    session = restarted("sugarrr", db, point=True)
    assert session.resumed_from_point == 0 and session.saved_inputs == 19


def test_a_point_of_another_game_is_not_used(tmp_path):
    db, inputs = kept_game(tmp_path)
    point = Path(str(db) + ".resume").read_bytes()
    store = EventStore(str(db))
    session = Session.start("sugarrr", ["Ana", "Ben"], store, FakeClock(1e6), new_game=True)  # the old one set aside
    assert session.handle(Touch("undo", 1e6 + 1)).verdict == "rejected"
    store.close()
    Path(str(db) + ".resume").write_bytes(point)  # the old game's point, beside the new game
    again = restarted("sugarrr", db, point=True)
    assert again.game_id == session.game_id and again.resumed_from_point == 0
    assert again.saved_inputs == 0 and again.state == session.state


def test_a_point_that_cannot_be_written_changes_nothing(tmp_path, monkeypatch):
    inputs, players, options = recorded("sugarrr", tmp_path)
    db = tmp_path / "full.db"
    table = live("sugarrr", players, options, db, inputs[:10])

    real_fdopen = os.fdopen

    class Full:  # a full card: part of the file is written, then ENOSPC
        def __init__(self, fd, *a, **k):
            self.f = real_fdopen(fd, *a, **k)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            self.f.write(data[:100])
            self.f.flush()
            raise OSError(28, "No space left on device")
    monkeypatch.setattr(resume_point.os, "fdopen", Full)
    assert table.keep_resume_point() is False
    monkeypatch.undo()
    assert not Path(str(db) + ".resume").exists()
    assert not Path(str(db) + ".resume.tmp").exists()  # what was written of it is gone
    item = inputs[10]
    table.clock.set(item.t)
    assert table.handle(item).verdict == "accepted"  # the table plays on
    table.store.close()
    assert restarted("sugarrr", db, point=True).saved_inputs == 11


def test_no_point_for_a_store_in_memory_or_a_game_that_is_over(tmp_path):
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(0.0), resume=False)
    session.handle(Touch("undo", 1.0))
    assert session.keep_resume_point() is False
    inputs, players, options = recorded("sugarrr", tmp_path)
    db = tmp_path / "over.db"
    table = live("sugarrr", players, options, db, inputs)
    assert table.over and table.keep_resume_point() is False
    assert not Path(str(db) + ".resume").exists()


def test_the_runner_keeps_a_point_once_the_table_is_idle_and_when_it_stops(tmp_path):
    inputs, players, options = recorded("sugarrr", tmp_path)
    every = resume_point.KEEP_EVERY
    db = tmp_path / "runner.db"
    path = Path(str(db) + ".resume")
    table = live("sugarrr", players, options, db, inputs[:every - 1])
    clock = table.clock
    runner = Runner(table, clock)
    t = clock.now()
    clock.set(t + 60)
    runner.tick()
    assert runner.keep_resume_point() is False and not path.exists()  # idle, but too few inputs to rewrite it for
    runner.inputs.put(inputs[every - 1])
    runner.step()
    t = clock.now()
    assert runner.keep_resume_point() is False and not path.exists()  # just changed: wait for quiet
    clock.set(t + resume_point.IDLE_SECONDS - 0.1)
    assert runner.keep_resume_point() is False and not path.exists()
    clock.set(t + resume_point.IDLE_SECONDS)
    runner.tick()  # (the loop's turn keeps it)
    assert path.exists() and restarted_point(db) == every
    clock.set(t + 60)
    assert runner.keep_resume_point() is False  # kept once per count of inputs
    for item in inputs[every:every + 3]:
        clock.set(clock.now() + 10)
        runner.inputs.put(item)
        runner.step()
        runner.tick()
    assert table.saved_inputs == every + 3 and restarted_point(db) == every  # a few more: the old point stands
    runner.stop()
    runner.loop()  # stopping: the point is kept now
    assert restarted_point(db) == every + 3


def test_a_resumed_table_keeps_a_new_point_once_enough_inputs_were_replayed_or_played(tmp_path):
    db, inputs = kept_game(tmp_path, n=20)
    aside = Path(str(db) + ".resume")
    aside.unlink()  # the first start after an upgrade: no point that holds
    session = restarted("sugarrr", db, point=True)
    runner = Runner(session, session.clock)
    clock = session.clock
    runner.tick()
    clock.set(clock.now() + resume_point.IDLE_SECONDS)
    runner.tick()
    assert restarted_point(db) == 20  # 20 replayed: a point is kept as soon as the table is idle
    session = restarted("sugarrr", db, point=True)
    runner = Runner(session, session.clock)
    runner.tick()
    session.clock.set(session.clock.now() + 60)
    assert runner.keep_resume_point() is False  # resumed from a point that holds them all: nothing to keep


def restarted_point(db: Path) -> int:
    session = restarted("sugarrr", db, point=True)
    session.store.close()
    return session.resumed_from_point


class NotAState:
    """A state of no game (the type check of a point that otherwise holds)."""


@pytest.mark.parametrize("how", ["another type", "a missing class", "fields missing"])
def test_a_point_whose_contents_do_not_fit_the_game_is_not_used(tmp_path, how):
    import pickle
    import zlib

    db, _ = kept_game(tmp_path)
    path = Path(str(db) + ".resume")
    kept = pickle.loads(zlib.decompress(path.read_bytes()[len(resume_point.MAGIC) + 4:]))
    if how == "another type":
        kept["fields"]["state"] = NotAState()
    elif how == "fields missing":
        del kept["fields"]["pauses"]
    body = pickle.dumps(kept)
    if how == "a missing class":
        kept["fields"]["state"] = NotAState()
        body = pickle.dumps(kept).replace(b"NotAState", b"NotAThing")
    body = zlib.compress(body)
    path.write_bytes(resume_point.MAGIC + zlib.crc32(body).to_bytes(4, "little") + body)
    session = restarted("sugarrr", db, point=True)
    assert session.resumed_from_point == 0 and session.saved_inputs == 20


@pytest.mark.parametrize("how", ["the old names", "a part of another class"])
def test_a_point_kept_by_the_session_before_its_parts_is_not_used(tmp_path, how):
    """The session before it held its parts (issue 35) kept ``_done`` (a list), ``pauses``
    (a list) and ``_saved_last``; such a point, or one whose part is of another class, is
    not used: the whole game is replayed, to the same game."""
    import pickle
    import zlib

    db, _ = kept_game(tmp_path)
    path = Path(str(db) + ".resume")
    kept = pickle.loads(zlib.decompress(path.read_bytes()[len(resume_point.MAGIC) + 4:]))
    fields = kept["fields"]
    if how == "the old names":
        kept["fields"] = {"state": fields["state"], "entry": fields["entry"], "_done": list(fields["undo"].done),
                          "turn_started": fields["turn_started"], "pauses": list(fields["pauses"].spans),
                          "_saved_last": tuple(fields["repeats"].newest)}
    else:
        fields["pauses"] = list(fields["pauses"].spans)
    body = zlib.compress(pickle.dumps(kept))
    path.write_bytes(resume_point.MAGIC + zlib.crc32(body).to_bytes(4, "little") + body)
    session = restarted("sugarrr", db, point=True)
    assert session.resumed_from_point == 0 and session.saved_inputs == 20
    assert_same(session, restarted("sugarrr", db, point=False))


def test_a_point_is_never_written_through_a_link_left_in_its_place(tmp_path):
    inputs, players, options = recorded("sugarrr", tmp_path)
    db = tmp_path / "link.db"
    table = live("sugarrr", players, options, db, inputs[:10])
    victim = tmp_path / "someone-elses-file"
    victim.write_text("keep me")
    Path(str(db) + ".resume.tmp").symlink_to(victim)
    assert table.keep_resume_point()
    assert victim.read_text() == "keep me"
    table.store.close()
    assert restarted_point(db) == 10


def test_a_touch_a_game_keeps_secret_is_kept_secret_from_a_point_as_in_a_replay(tmp_path, monkeypatch):
    """A replay asks the game's flow whether every input is secret; the live table must
    keep the same answer in its point (no game marks a touch secret today)."""
    from companion.games import find_game

    flow = find_game("sugarrr").flow
    monkeypatch.setattr(flow, "secret", lambda state, item: isinstance(item, Touch), raising=False)
    inputs, players, options = recorded("sugarrr", tmp_path)
    touch = next(i for i, item in enumerate(inputs) if isinstance(item, Touch) and i > 5)
    db = tmp_path / "secret.db"
    table = live("sugarrr", players, options, db, inputs[:touch + 1])
    assert table.keep_resume_point()
    table.store.close()
    quick, whole = restarted("sugarrr", db, point=True), restarted("sugarrr", db, point=False)
    assert quick.resumed_from_point == touch + 1 and whole.repeats.newest.hidden is True
    assert_same(quick, whole)


def test_the_json_start_line_says_how_many_inputs_were_replayed(tmp_path, capsys):
    from companion.table.build import _json_start

    db, inputs = kept_game(tmp_path, n=20)
    session = restarted("sugarrr", db, point=True)
    _json_start(session)
    line = json.loads(capsys.readouterr().out)
    assert line["resumed_inputs"] == 20 and line["replayed_inputs"] == 0
    whole = restarted("sugarrr", db, point=False)
    _json_start(whole)
    assert json.loads(capsys.readouterr().out)["replayed_inputs"] == 20


def test_a_package_folder_that_cannot_be_listed_makes_points_no_other_process_uses(tmp_path, monkeypatch):
    def unreadable(folder, cut):
        raise PermissionError(13, "Permission denied", folder)
        yield  # (a generator, as _sources is)
    monkeypatch.setattr(resume_point, "_sources", unreadable)
    monkeypatch.setattr(resume_point, "_fingerprint", [])
    db, _ = kept_game(tmp_path)  # Session.start and the keep do not raise
    assert resume_point.fingerprint().startswith("unknown")
    assert restarted_point(db) == 20  # this process's own point
    monkeypatch.setattr(resume_point, "_fingerprint", [])  # another process, unable to list it too
    assert restarted_point(db) == 0


def test_a_new_game_takes_the_fingerprint_at_its_first_frame_not_before(tmp_path, monkeypatch):
    monkeypatch.setattr(resume_point, "_fingerprint", [])
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(str(tmp_path / "new.db")), FakeClock(0.0),
                            resume=False)
    assert resume_point._fingerprint == []  # nothing to resume: the first frame does not wait for it
    Runner(session, session.clock).tick()  # the loop's turn after the first frame
    assert resume_point._fingerprint == [resume_point.fingerprint()] and resume_point._fingerprint[0]
