"""`companion run --record` writes what the scanner sent; replaying it gives the same game."""

import json
import os
import signal
import subprocess
import sys
import time

from companion.devices.emulated.serial_scanner import PtyScanner
from companion.replay import replay
from companion.trace import read
from sugarrr_helpers import STARTS, fruit


def wait_for(proc, predicate, timeout=15.0):
    """Read JSON lines from proc.stdout until predicate(obj) holds."""
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        obj = json.loads(line)
        seen.append(obj)
        if predicate(obj):
            return seen
    raise AssertionError(f"timed out; saw {seen}")


def test_a_recorded_session_replays_to_the_same_state(tmp_path):
    trace = tmp_path / "table.trace"
    with PtyScanner() as pty:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--game", "sugarrr", "--names", "Ana,Ben",
             "--scanner", f"serial:{pty.path}", "--headless", "--log-format", "json",
             "--store", str(tmp_path / "t.db"), "--record", str(trace)],
            stdout=subprocess.PIPE, text=True, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
        try:
            wait_for(proc, lambda o: o.get("event") == "device" and o["status"] == "connected")
            codes = STARTS + [fruit("Pineapple", 5)]
            for i, code in enumerate(codes):
                if i == 2:  # one scan split over two reads, as a slow scanner sends it
                    pty.send(code[:3].encode())
                    time.sleep(0.05)
                    pty.send(code[3:].encode() + b"\r")
                else:
                    pty.scan(code, b"\n" if i % 2 else b"\r\n")
                wait_for(proc, lambda o: o.get("event") == "scan")
            pty.scan("SRS7")  # garbled: rejected, recorded all the same
            seen = wait_for(proc, lambda o: o.get("event") == "scan")
            assert seen[-1]["verdict"] == "rejected"
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=10) == 0
    recorded = read(trace)
    assert recorded.players == ("Ana", "Ben")
    assert b"".join(r.data for r in recorded.records).count(b"SRS7") == 1  # the garbled read
    runner = replay(trace, window=False)
    state = runner.session.state
    assert state.columns[0] == (STARTS[0], fruit("Pineapple", 5))
    assert [c[0] for c in state.columns] == STARTS
