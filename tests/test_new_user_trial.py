"""Defects a new-user trial found (issue 13): every input gets a visible verdict that
says what is wrong and what to do, in the words of the game being played."""

from __future__ import annotations

import subprocess
import sys

from companion.core.store import EventStore


def companion(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def headless(db, *args, stdin=""):
    return companion("run", "--headless", "--simulate", "--store", str(db), *args, stdin=stdin)


def test_no_names_for_a_game_with_none_unfinished_names_the_other_unfinished_game(tmp_path):
    db = tmp_path / "term.db"
    assert headless(db, "--game", "sugarrr", "--names", "Ann,Bob", stdin="SRS215\n").returncode == 0
    proc = headless(db, "--game", "sugar-blast")
    assert proc.returncode == 2
    said = proc.stderr
    assert "no unfinished Sugar Blast game" in said
    assert "unfinished Sugarrr! game with Ann, Bob" in said and "--game sugarrr" in said
    assert "--names" in said  # how to start a new one instead
    assert [g.game for g in EventStore(db).games()] == ["sugarrr"]  # nothing was started or set aside
