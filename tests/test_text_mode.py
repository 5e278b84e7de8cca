"""Headless text mode as a person reads it: whose turn and what is awaited after every
input and on resume, the deck count when it changes, and the score table at the end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion.table.replay import replay

DATA = Path(__file__).parent / "data"


def simulate_lines(trace: Path) -> str:
    """The trace's scans and touches as lines typed under --simulate."""
    lines, pending = [], {}
    for raw in trace.read_text().splitlines()[1:]:
        rec = json.loads(raw)
        if "touch" in rec:
            lines.append("/" + rec["touch"])
        elif "data" in rec:  # a reader's bytes may come in pieces: a code ends at CR or LF
            text = pending.get(rec["device"], "") + rec["data"]
            *done, pending[rec["device"]] = text.replace("\r", "\n").split("\n")
            lines += [code for code in done if code]
    return "\n".join(lines) + "\n"


def run(*args, stdin=""):
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
    return subprocess.run([sys.executable, "-m", "companion.cli", "run", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, env=env)


def test_a_whole_game_in_text_mode_ends_with_the_score_table(tmp_path):
    trace = DATA / "sugarrr-family.trace"
    names = ",".join(json.loads(trace.read_text().splitlines()[0])["players"])
    proc = run("--names", names, "--headless", "--simulate", "--tap-off", "0", "--store", str(tmp_path / "t.db"),
               stdin=simulate_lines(trace))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    expected = replay(trace, window=False).session.result().text().splitlines()
    assert out[-len(expected):] == expected
    assert any(line.startswith("Player") for line in out) and "*" in "\n".join(expected)
    # The deck count is printed when it changes, and only then.
    decks = [line for line in out if "Fruit Deck:" in line]
    counts = [int(line.split("Fruit Deck:")[1].split()[0]) for line in decks]
    from companion.games.sugarrr import rules
    assert counts[0] == rules.new_game(names.split(",")).deck
    assert all(a != b for a, b in zip(counts, counts[1:])) and len(counts) > 10
    # After every judged input comes whose turn it is and what the table waits for.
    nows = [line for line in out if line.strip().startswith("Now: ")]
    assert len(nows) >= 50 and "Mum's turn" in nows[0] and "scan the card that starts column 1" in nows[0]


def test_resume_says_whose_turn_and_menus_ask_for_a_number(tmp_path):
    db = str(tmp_path / "t.db")
    from sugarrr_helpers import STARTS

    first = run("--names", "Ana,Ben", "--headless", "--simulate", "--store", db, stdin="\n".join(STARTS) + "\n")
    assert first.returncode == 0, first.stderr
    again = run("--headless", "--simulate", "--store", db, stdin="/deck\n/swap\n")
    assert again.returncode == 0, again.stderr
    lines = again.stdout.splitlines()
    assert lines[0] == "Sugarrr!: Ana, Ben (resumed, 5 inputs)"
    assert "Now: Ana's turn (turn 1). Ana: scan a card to Play, or tap Swap (/swap N)." in again.stdout
    assert "/deck 40" in again.stdout and "/swap 2" in again.stdout


def test_headless_with_nothing_to_read_says_so_and_stores_nothing(tmp_path):
    db = tmp_path / "t.db"
    proc = run("--names", "Ana,Ben", "--headless", "--store", str(db))
    assert proc.returncode == 2 and "nothing to read plays from" in proc.stderr and "--simulate" in proc.stderr
    assert not db.exists()


def test_history_exports_a_finished_game_as_csv_rows_in_seat_order_with_ranks(tmp_path):
    import csv
    import io

    trace = DATA / "sugarrr-family.trace"
    db = tmp_path / "t.db"
    replay(trace, store=str(db), window=False)
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "history", "--store", str(db), "--csv"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert [r["player"] for r in rows] == ["Mum", "Dad", "Maya", "Leo"]
    assert [(r["rank"], r["winner"], r["score"]) for r in rows][0] == ("1", "yes", "63")
    assert {r["status"] for r in rows} == {"finished"} and rows[3]["rank"] == "4"
