"""Bad command-line input found by a new user's trial: each gets one clear line, exit
status 2, and changes nothing (no traceback, no file written or overwritten)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pytest

from companion.core.store import EventStore


def companion(*args, stdin="", env=None):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", **(env or {})})


def run_headless(store, *args, stdin=""):
    return companion("run", "--game", "sugarrr", "--names", "A,B", "--headless", "--simulate",
                     "--store", str(store), *args, stdin=stdin)


def refused(proc, start: str) -> None:
    """One line on stderr starting with ``start``, exit status 2, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith(f"companion: {start}"), proc.stderr


# ---------------------------------------------------------------- --record

def test_record_onto_the_store_itself_is_refused_and_the_store_is_untouched(tmp_path):
    store = tmp_path / "table.db"
    assert run_headless(store, stdin="SRS215\n").returncode == 0
    before = store.read_bytes()
    link = tmp_path / "link.db"
    link.symlink_to(store)
    for record in (store, link, tmp_path / "." / "table.db"):
        refused(run_headless(store, "--record", str(record), stdin="SRS223\n"), f"--record {record} is the game store")
    assert store.read_bytes() == before
    assert [g.inputs for g in EventStore(store, readonly=True).games()] == [1]


def test_record_onto_the_store_before_it_exists_is_refused(tmp_path):
    store = tmp_path / "new.db"
    refused(run_headless(store, "--record", str(store)), f"--record {store} is the game store")
    assert not store.exists()


def test_record_onto_a_file_that_is_not_a_trace_is_refused(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("milk\neggs\n")
    refused(run_headless(tmp_path / "t.db", "--record", str(notes)), f"--record {notes} already exists and is not a trace")
    assert notes.read_text() == "milk\neggs\n"
    assert not (tmp_path / "t.db").exists()


def test_record_may_replace_a_trace_or_fill_an_empty_file(tmp_path):
    trace = tmp_path / "game.trace"
    trace.write_text("")
    assert run_headless(tmp_path / "a.db", "--record", str(trace), stdin="SRS215\n").returncode == 0
    assert json.loads(trace.read_text().splitlines()[0])["trace"] == 1
    proc = run_headless(tmp_path / "b.db", "--record", str(trace), stdin="SRS223\n")  # another game: replaced
    assert proc.returncode == 0, proc.stderr
    assert "SRS223" in trace.read_text() and "SRS215" not in trace.read_text()


def test_record_help_says_what_happens_to_an_existing_file():
    out = " ".join(companion("run", "--help").stdout.split())
    assert "added to" in out and "replaced" in out and "other existing file is refused" in out
