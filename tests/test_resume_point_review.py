"""Review of the resume point (companion.table.resume_point): what a restart must not do
with a point that does not hold, beyond tests/test_resume_point.py."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

from test_resume_point import assert_same, kept_game, live, recorded, restarted

from companion.core.errors import StoreError
from companion.table import resume_point


def _package_copy(tmp_path: Path, monkeypatch) -> Path:
    """A copy of the companion package that :func:`resume_point.fingerprint` looks at
    (the code that runs stays this checkout's)."""
    real = Path(resume_point.__file__).resolve().parent.parent
    pkg = tmp_path / "pkg" / "companion"
    shutil.copytree(real, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(resume_point, "__file__", str(pkg / "table" / "resume_point.py"))
    monkeypatch.setattr(resume_point, "_fingerprint", [])
    return pkg


def test_a_point_is_not_used_once_a_card_catalogue_changed(tmp_path, monkeypatch):
    """cards.toml is read by the rules ("correct a number below and the rules, the codes
    and the tests follow"): a state kept before a correction (a vault's lock number, a
    card's value) is not the state a replay with the corrected catalogue gives. The
    module says the fingerprint covers "every file of the companion package"; it covers
    only the .py files."""
    pkg = _package_copy(tmp_path, monkeypatch)
    db, _ = kept_game(tmp_path, "sugar-heist")  # kept by the program as it is
    before = resume_point.fingerprint()
    toml = pkg / "games" / "sugar_heist" / "cards.toml"
    text = toml.read_text()
    assert "lock = 10            # ASSUMED" in text
    toml.write_text(text.replace("lock = 10            # ASSUMED", "lock = 12            # corrected", 1))
    st = toml.stat()
    os.utime(toml, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    monkeypatch.setattr(resume_point, "_fingerprint", [])  # the next start: a new process
    assert resume_point.fingerprint() != before
    assert restarted("sugar-heist", db, point=True).resumed_from_point == 0


def test_a_huge_resume_file_is_not_read_whole_and_the_game_resumes(tmp_path, monkeypatch):
    """A .resume that is not a point the table wrote (a damaged card's file, 1 TiB here,
    sparse) is read whole before its header is looked at: a MemoryError (a Zero 2 W has
    512 MB; this machine fails the same way at 1 TiB) raises out of Session.start, which
    read() says never happens. The store's inputs are all there: the game must resume."""
    db, _ = kept_game(tmp_path)
    path = Path(str(db) + ".resume")
    with open(path, "r+b") as f:
        f.truncate(1 << 40)
    real = Path.read_bytes

    def read_bytes(self):  # what reading it whole does (without trying: it may not fail fast everywhere)
        if self.stat().st_size > 1 << 30:
            raise MemoryError
        return real(self)
    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    session = restarted("sugarrr", db, point=True)
    assert session.resumed_from_point == 0 and session.saved_inputs == 20


def test_a_resume_path_that_is_a_fifo_does_not_hang_the_start(tmp_path):
    """A .resume that is not a regular file (a FIFO here) is opened and read as one: the
    start blocks until something writes to it, the table never shows its first frame."""
    db, _ = kept_game(tmp_path)
    path = Path(str(db) + ".resume")
    path.unlink()
    os.mkfifo(path)
    got: list = []
    start = threading.Thread(target=lambda: got.append(restarted("sugarrr", db, point=True)), daemon=True)
    start.start()
    start.join(5.0)
    hung = start.is_alive()
    if hung:  # let the reader go (end of file) so the thread ends
        os.close(os.open(path, os.O_WRONLY))
        start.join(5.0)
    assert not hung, "Session.start blocked reading the FIFO"
    assert got and got[0].resumed_from_point == 0 and got[0].saved_inputs == 20


def test_a_point_of_another_game_with_the_same_inputs_is_not_used(tmp_path):
    """Only the game's id tells these two apart (the same kind, the same start, the same
    stored inputs). tests/test_resume_point.py's test of another game's point gives the
    new game no inputs, so the point's count rejects it first: that test passes with the
    game check in resume_point.read taken out; this one does not."""
    inputs, players, options = recorded("sugarrr", tmp_path)
    db = tmp_path / "twice.db"
    first = live("sugarrr", players, options, db, inputs[:20])
    assert first.keep_resume_point()
    first.store.close()
    second = live("sugarrr", players, options, db, inputs[:20])  # another game, the first left unfinished
    assert second.game_id != first.game_id and second.started == first.started
    assert second.store.payloads(second.game_id) == second.store.payloads(first.game_id)
    second.store.close()
    quick, whole = restarted("sugarrr", db, point=True), restarted("sugarrr", db, point=False)
    assert quick.game_id == second.game_id and quick.resumed_from_point == 0
    assert_same(quick, whole)


def test_an_input_stored_but_refused_is_not_left_out_of_a_point(tmp_path, monkeypatch):
    """The store committed an input and then reported an error (the session refused it,
    a restart replays it): a point kept after that must not cover the stored inputs with
    the session's state, which lacks it. Session.keep_resume_point's count check does
    this; no test in tests/test_resume_point.py fails without it."""
    inputs, players, options = recorded("sugarrr", tmp_path)
    db = tmp_path / "uncertain.db"
    table = live("sugarrr", players, options, db, inputs[:10])
    real = table.store.append

    def committed_then_failed(game_id, item):
        real(game_id, item)
        raise StoreError("disk I/O error")
    monkeypatch.setattr(table.store, "append", committed_then_failed)
    table.clock.set(inputs[10].t)
    assert table.handle(inputs[10]).verdict == "rejected"
    monkeypatch.undo()
    table.keep_resume_point()
    table.store.close()
    quick, whole = restarted("sugarrr", db, point=True), restarted("sugarrr", db, point=False)
    assert whole.saved_inputs == 11
    assert_same(quick, whole)
