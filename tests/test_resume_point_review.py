"""Review of the resume point (companion.table.resume_point): what a restart must not do
with a point that does not hold, beyond tests/test_resume_point.py."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from companion.table import resume_point
from test_resume_point import kept_game, restarted


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
