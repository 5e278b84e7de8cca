"""Ranks use each game's tie-break for every place, not only for the win (issue 22,
item 7): in ``score``, the history's CSV and the final screen alike."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys

from companion.core.store import EventStore
from companion.games import find_game
from sugarrr_helpers import fruit, salad, saur

# Ann wins; Bob and Cy tie on 2 points below her, Bob first in seat order, Cy with the more
# Fruit-O-Saur cards (Sugarrr!'s tie-break: rulebook, "Scoring").
HOLDINGS = [("Ann", [fruit("Strawberry", 2), saur("Strawberry", 5)]), ("Bob", [salad(1), salad(2)]),
            ("Cy", [fruit("Grapes", 5), saur("Grapes", 2)])]


def companion(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, SDL_VIDEODRIVER="dummy"))


def test_sugarrr_places_below_the_winner_go_by_its_tie_break_not_seat_order():
    result = find_game("sugarrr").score_holdings(HOLDINGS)
    assert [p.score for p in result.players] == [5, 2, 2]
    assert [p.name for p in result.ranked()] == ["Ann", "Cy", "Bob"]


def test_score_prints_the_tied_places_by_the_tie_break():
    text = "".join(f"{name}: {' '.join(codes)}\n" for name, codes in HOLDINGS)
    proc = companion("score", "sugarrr", "-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert [line.split()[0] for line in proc.stdout.splitlines()[2:5]] == ["Ann", "Cy", "Bob"]


def test_the_history_csv_ranks_by_the_tie_break(tmp_path):
    db = tmp_path / "t.db"
    store = EventStore(db)
    gid = store.new_game("sugarrr", ["Ann", "Bob", "Cy"], 1_700_000_000.0)
    store.finish(gid, 1_700_000_600.0, find_game("sugarrr").score_holdings(HOLDINGS).to_dict())
    store.close()
    proc = companion("history", "--store", str(db), "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    ranks = {row["player"]: row["rank"] for row in csv.DictReader(io.StringIO(proc.stdout))}
    assert ranks["Ann"] == "1" and ranks["Cy"] == "2" and ranks["Bob"] == "3"


def test_the_final_screen_lists_the_tied_places_by_the_tie_break():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.core.clock import FakeClock
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.ui.app import App
    from companion.ui.widgets import record_text

    session = Session.start("sugarrr", ["Ann", "Bob", "Cy"], EventStore(":memory:"), FakeClock(), tap_off=0)
    result = find_game("sugarrr").score_holdings(HOLDINGS)
    session.result = lambda: result  # the final screen of a game that ended this way
    app = App()
    try:
        with record_text() as drawn:
            app.show(Runner(session, session.clock, app=app).draw)
        names = [d.text for d in drawn if d.text in ("Ann", "Bob", "Cy")]
        assert names == ["Ann", "Cy", "Bob"]
    finally:
        app.close()
