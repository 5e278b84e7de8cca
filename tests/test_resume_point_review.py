"""Review of the resume point (companion.table.resume_point): what a restart must not do
with a point that does not hold, beyond tests/test_resume_point.py."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

from test_resume_point import kept_game, restarted

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
