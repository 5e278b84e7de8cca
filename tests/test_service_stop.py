"""``companion run`` the way systemd runs it: READY=1 on the notify socket, and a SIGTERM
that exits 0 within 2 s with every accepted input saved and the trace closed."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

from companion.core.store import EventStore
from sugarrr_helpers import STARTS


def test_sigterm_saves_everything_and_exits_0_within_2_seconds(tmp_path):
    notify = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(20)
    store, trace = tmp_path / "table.db", tmp_path / "game.trace"
    env = {**os.environ, "NOTIFY_SOCKET": str(notify), "WATCHDOG_USEC": "1000000",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--headless", "--simulate", "--names", "Ana,Ben",
         "--store", str(store), "--record", str(trace), "--log-format", "json"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert sock.recv(4096).startswith(b"READY=1")
        for code in STARTS:
            proc.stdin.write(code + "\n")
        proc.stdin.flush()  # stdin stays open: the table is still playing when systemd stops it
        accepted = 0
        while accepted < len(STARTS):
            line = json.loads(proc.stdout.readline())
            accepted += line.get("event") == "scan" and line["verdict"] == "accepted"
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=10)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
        sock.close()
    assert rc == 0, proc.stderr.read()
    assert took < 2.0
    assert json.loads(proc.stdout.read().splitlines()[-1])["event"] == "stop"
    saved = EventStore(str(store))
    game = saved.unfinished("sugarrr")
    assert game is not None and [i.code for i in saved.inputs(game.id)] == STARTS
    assert trace.read_text().count("\n") >= len(STARTS) + 1  # header + every scan, flushed
