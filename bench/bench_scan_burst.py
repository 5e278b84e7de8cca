"""A burst of scans through a pseudo-terminal: none lost or doubled, and the reader's
latency under load as a ratio to the foundation's serial baseline.

    .venv/bin/python bench/bench_scan_burst.py [--rate 50] [--seconds 10]

Sends ``rate`` scans per second for ``seconds`` into an emulated USB-serial scanner (a real
pseudo-terminal, CR/LF/CRLF terminators in turn, every card code of Sugarrr! in a cycle).
The real :class:`~companion.devices.scan.serial.SerialScanner` (pyserial, its own thread,
idle gap on) reads them. Checks every scan arrives exactly once and in order, and prints
the write-to-queue latency under this load against the baseline measured in the same run
first: one scan at a time into an idle reader (the foundation's serial path). Exit status
1 if any scan was lost or doubled; no timing is asserted.
"""

from __future__ import annotations

import argparse
import queue
import statistics
import sys
import time

from companion.core.clock import SystemClock
from companion.core.events import CardScanned
from companion.devices.emulated.serial_scanner import PtyScanner
from companion.devices.scan.serial import SerialScanner
from companion.games.sugarrr.cards import CARDS

TERMINATORS = (b"\r", b"\n", b"\r\n")


def next_scan(q: queue.Queue, timeout: float = 5.0) -> tuple[CardScanned, float]:
    deadline = time.monotonic() + timeout
    while True:
        item = q.get(timeout=max(0.001, deadline - time.monotonic()))
        if isinstance(item, CardScanned):
            return item, time.perf_counter()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rate", type=float, default=50.0, help="scans per second")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--baseline", type=int, default=100, help="single scans for the baseline")
    args = ap.parse_args()
    codes = sorted(CARDS)
    q: queue.Queue = queue.Queue()
    with PtyScanner() as pty:
        reader = SerialScanner(pty.path, q, SystemClock(), name="burst")
        reader.start()
        try:
            # Baseline: one scan at a time into an idle reader.
            base = []
            for i in range(args.baseline):
                t0 = time.perf_counter()
                pty.send(codes[i % len(codes)].encode() + b"\r\n")
                scan, t1 = next_scan(q)
                assert scan.code == codes[i % len(codes)]
                base.append((t1 - t0) * 1000)
                time.sleep(0.005)
            # Burst: paced sends from this thread, a collector thread timestamps arrivals.
            n = int(args.rate * args.seconds)
            sent_at: list[float] = []
            arrived: list[tuple[str | None, float]] = []
            import threading

            def collect() -> None:
                while len(arrived) < n:
                    try:
                        scan, t = next_scan(q, timeout=3.0)
                    except queue.Empty:
                        return
                    arrived.append((scan.code, t))

            collector = threading.Thread(target=collect, daemon=True)
            collector.start()
            start = time.perf_counter()
            for i in range(n):
                due = start + i / args.rate
                delay = due - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                sent_at.append(time.perf_counter())
                pty.send(codes[i % len(codes)].encode() + TERMINATORS[i % 3])
            collector.join(10.0)
        finally:
            reader.stop()
    expected = [codes[i % len(codes)] for i in range(n)]
    got = [code for code, _ in arrived]
    lost = n - len(got)
    wrong = sum(1 for a, b in zip(expected, got) if a != b)
    burst = [(t - s) * 1000 for (_, t), s in zip(arrived, sent_at)]
    print(f"burst: {n} scans at {args.rate:.0f}/s for {args.seconds:.0f} s through a pty")
    print(f"  delivered {len(got)}, lost {lost}, out of order or doubled {wrong}")
    bm, bp = statistics.median(base), statistics.quantiles(base, n=20)[-1]
    m, p = statistics.median(burst), statistics.quantiles(burst, n=20)[-1]
    print(f"  baseline  one scan into an idle reader:  median {bm:6.3f} ms   p95 {bp:6.3f} ms")
    print(f"  measured  under the burst:               median {m:6.3f} ms   p95 {p:6.3f} ms")
    print(f"  ratio measured/baseline:  median {m / bm:5.2f}x   p95 {p / bp:5.2f}x")
    return 0 if lost == 0 and wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
