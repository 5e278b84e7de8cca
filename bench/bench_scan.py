"""Scan-to-verdict latency, as a ratio against the bare pseudo-terminal round trip.

    .venv/bin/python bench/bench_scan.py [--scans 150]

Baseline: write a code + CRLF into an emulated scanner (a real pseudo-terminal) and read
it back from the slave side with ``os.read`` in a thread, until the line is complete.

Measured: write the same bytes into another emulated scanner; the real
:class:`~companion.devices.scan.serial.SerialScanner` reads them (pyserial, its own
thread) and puts ``CardScanned`` on the queue; the main thread takes it and calls
``Session.handle`` (flow, rules, and for an accepted scan the commit to an on-disk SQLite
store, WAL + synchronous=FULL) until the verdict comes back.

The scans are the first ``--scans`` of the recorded family game, in order, through a real
game (its touches are applied between scans, untimed), so the verdicts are real: most
accepted, some rejected, the double read ignored. The two paths are timed alternately,
scan by scan, so both see the same machine load. No timing is asserted: the script prints
the figures and the ratio and exits 0.
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, DeviceStatus, Touch
from companion.core.store import EventStore
from companion.devices.emulated.serial_scanner import PtyScanner
from companion.devices.scan.serial import SerialScanner
from companion.table import Session
from companion.trace import read

ROOT = Path(__file__).resolve().parent.parent
TRACE = ROOT / "tests" / "data" / "sugarrr-family.trace"
FRAME_MS = 1000 / 60
TIMEOUT = 5.0  # seconds to wait for one line or verdict before giving up


def trace_inputs(path: Path, scans: int):
    """``(t, kind, value)`` in trace order up to the ``scans``-th scan: ``("scan", code)`` with
    split reads joined, or ``("touch", command)``."""
    trace = read(path)
    out, pending, count = [], b"", 0
    for record in trace.records:
        if record.kind == "touch":
            out.append((record.t, "touch", record.command))
            continue
        data = pending + record.data
        if not data.endswith((b"\r", b"\n")):
            pending = data  # first half of a split read
            continue
        pending = b""
        code = data.strip(b"\r\n").decode("latin-1")
        if code:
            out.append((record.t, "scan", code))
            count += 1
            if count == scans:
                break
    return trace, out


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def line_reader(fd: int, lines: "queue.Queue[bytes]") -> None:
    """Baseline reader: raw ``os.read`` on the slave, one queue item per completed line."""
    buf = b""
    while True:
        try:
            chunk = os.read(fd, 256)
        except OSError:  # the emulator was closed (EIO): done
            return
        if not chunk:
            return
        buf += chunk
        while b"\n" in buf:
            line, _, buf = buf.partition(b"\n")
            lines.put(line.rstrip(b"\r"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scans", type=int, default=150, help="how many scans of the demo trace to time")
    args = ap.parse_args()
    trace, inputs = trace_inputs(TRACE, args.scans)

    base_pty = PtyScanner()
    base_fd = os.open(base_pty.path, os.O_RDWR | os.O_NOCTTY)
    base_lines: queue.Queue = queue.Queue()
    threading.Thread(target=line_reader, args=(base_fd, base_lines), daemon=True).start()

    tmp = tempfile.TemporaryDirectory(prefix="bench-scan-")
    clock = FakeClock(0.0)
    store = EventStore(Path(tmp.name) / "table.db")
    session = Session.start(trace.game, list(trace.players), store, clock, resume=False)
    pty = PtyScanner()
    q: queue.Queue = queue.Queue()
    scanner = SerialScanner(pty.path, q, clock, name="scanner")
    scanner.start()

    def verdict_of(data: bytes):
        pty.send(data)
        while True:
            item = q.get(timeout=TIMEOUT)
            if isinstance(item, DeviceStatus):
                session.handle(item)
                continue
            return session.handle(item)

    try:
        for _ in range(20):  # warm up both paths (thread wake-ups, page cache) with a non-card
            base_pty.send(b"WARMUP\r\n")
            base_lines.get(timeout=TIMEOUT)
        while True:  # consume "connected"
            try:
                session.handle(q.get(timeout=0.2))
            except queue.Empty:
                break

        base_ms, meas_ms, by_verdict = [], [], {}
        counts: Counter = Counter()
        for t, kind, value in inputs:
            clock.set(t)
            if kind == "touch":
                session.handle(Touch(value, t))  # moves the game on; not timed
                continue
            data = value.encode("latin-1") + b"\r\n"

            t0 = time.perf_counter()
            base_pty.send(data)
            line = base_lines.get(timeout=TIMEOUT)
            t1 = time.perf_counter()
            assert line == data[:-2], (line, data)
            base_ms.append((t1 - t0) * 1000)

            t0 = time.perf_counter()
            verdict = verdict_of(data)
            t1 = time.perf_counter()
            meas_ms.append((t1 - t0) * 1000)
            counts[verdict.verdict] += 1
            by_verdict.setdefault(verdict.verdict, []).append((t1 - t0) * 1000)
    finally:
        scanner.stop()
        pty.close()
        base_pty.close()
        os.close(base_fd)
        store.close()
        tmp.cleanup()

    b_med, b_p95 = statistics.median(base_ms), percentile(base_ms, 95)
    m_med, m_p95 = statistics.median(meas_ms), percentile(meas_ms, 95)
    mix = ", ".join(f"{n} {v}" for v, n in counts.most_common())
    print(f"scan-to-verdict: {len(meas_ms)} scans of {TRACE.name} ({mix}); on-disk store, synchronous=FULL")
    print(f"  baseline  pty round trip (os.read thread):     median {b_med:7.3f} ms   p95 {b_p95:7.3f} ms")
    print(f"  measured  pty -> SerialScanner -> handle():    median {m_med:7.3f} ms   p95 {m_p95:7.3f} ms")
    for v, values in sorted(by_verdict.items()):
        print(f"            {v:<9} ({len(values):3d} scans):             median {statistics.median(values):7.3f} ms")
    print(f"  ratio measured/baseline:  median {m_med / b_med:5.1f}x   p95 {m_p95 / b_p95:5.1f}x")
    print(f"  (info) measured median = {m_med / FRAME_MS:.3f} of one 60 Hz frame ({FRAME_MS:.1f} ms); "
          f"p95 = {m_p95 / FRAME_MS:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
