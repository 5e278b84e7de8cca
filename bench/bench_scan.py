"""Scan to verdict and touch to verdict, end to end with the screen (issue 15).

    .venv/bin/python bench/bench_scan.py [--quick]

The whole recorded Sugarrr! family game (``tests/data/sugarrr-family.trace``: about 156
scans and 63 touches) is played into a table built as ``companion run --log-format json``
builds it (:class:`benchlib.Table`): scan bytes go into a pseudo-terminal read by the real
``SerialScanner``; touches come from an emulated touchscreen
(``companion/devices/emulated/touch.py``) as MOUSEBUTTONDOWN/UP and FINGERDOWN/UP events
in turn, on the button the screen drew for that command (``swap N`` opens the swap menu
first): posted into SDL's queue, with a write to the device pipe the Runner's
``InputWatch`` reads to wake the loop, as the Pi's touchscreen does; the real
``Runner`` loop with an ``App`` (SDL dummy driver, 800x480) handles them and redraws; the
real ``json_logger`` writes into a pipe and another process reads each verdict line back
and stamps it (so reading never competes with the loop for the GIL). Time
is from the first byte written (or the event posted) to the verdict line read back.
Inputs come one at a time with seeded random gaps of 60-250 ms, so each finds the loop
idle, waiting, as at a table (never back to back on warm threads).

Baselines, in the same run:

- scans: alternately with each measured scan, the same bytes into a second
  pseudo-terminal read back by a bare ``os.read`` thread, which then commits one row to
  a SQLite file in WAL mode with synchronous=FULL (the floor of any scan that is stored);
- touches: after the game, a bare pygame-ce loop (``pygame.event.wait``) on the same
  800x480 dummy window gets the same posted clicks at the same gaps, commits one row the
  same way, writes a JSON line into a pipe read back the same way, and flips the frame.

Targets: scan p99 <= 8 ms; touch p99 <= 16.7 ms (one 60 Hz frame). Held to 1/8 of a
core (``run.py --zero``, a Pi Zero 2 W's speed): scan and touch p99 <= 33 ms (two
frames), input to its frame on screen p99 <= 50 ms. Each p99 is judged by its
distribution-free interval (``benchlib.quantile_verdict``): PASS when even its upper end
is within (for a game's 156 scans: the worst scan), FAIL when its lower end is over,
UNSURE between. And at either speed the medians against the baselines: scan <= 3.5x the
bare pty+WAL path, touch <= 2x the bare pygame loop (today about 2.2x and 1.15x), judged
by the bootstrap interval of the ratio: the rows that catch an input path that got
slower while staying inside a frame.
"""

from __future__ import annotations

import json
import os
import queue
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import (FRAME_MS, TIMEOUT, Table, WalCommit, as_tapped_today, at_speed, demo_trace, full_speed,  # noqa: E402
                      gaps, main, med, pct, quantile_verdict, ratio_row, row, trace_inputs)

# Issue 15's targets at this machine's speed; issue 24's at 1/8 of a core (run.py --zero).
SCAN_TARGET_MS = at_speed(8.0, 33.0)
TOUCH_TARGET_MS = at_speed(FRAME_MS, 33.0)
FRAME_TARGET_MS = at_speed(None, 50.0)  # input to its frame: information at full speed
#: Budgets on the medians against the baselines measured beside them (issue 39): what a
#: scan or a touch costs the table beyond the least any stored input costs. Today about
#: 2.2x (scan) and 1.15x (touch) at either speed; an input path that takes 2 ms more (a
#: slower commit, a sleep, a redraw before the verdict) is over them.
SCAN_RATIO, TOUCH_RATIO = 3.5, 2.0


class BareScanPath:
    """The scan baseline: bytes into a pseudo-terminal, a bare ``os.read`` thread frames
    the line and commits one row (WAL, synchronous=FULL); the caller waits for it."""

    def __init__(self, directory: str):
        from companion.devices.emulated.serial_scanner import PtyScanner

        self.pty = PtyScanner()
        self.fd = os.open(self.pty.path, os.O_RDWR | os.O_NOCTTY)
        import termios
        import tty

        tty.setraw(self.fd, termios.TCSANOW)
        self.wal = WalCommit(directory)
        self.done: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True, name="bench-bare-pty").start()

    def _read(self) -> None:
        buf = b""
        while True:
            try:
                chunk = os.read(self.fd, 256)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            while b"\n" in buf:
                line, _, buf = buf.partition(b"\n")
                self.wal.commit(line.rstrip(b"\r").decode("latin-1"))
                self.done.put(time.perf_counter())

    def round_trip(self, code: str) -> float:
        t0 = time.perf_counter()
        self.pty.send(code.encode("latin-1") + b"\r\n")
        return (self.done.get(timeout=TIMEOUT) - t0) * 1000

    def close(self) -> None:
        self.pty.close()
        os.close(self.fd)
        self.wal.close()


def play(quick: bool) -> dict:
    trace, _ = trace_inputs(demo_trace("sugarrr"))
    # The family game as a hand tapping today's screen plays it (benchlib.as_tapped_today):
    # the recording's taps are named by the buttons drawn at their places now. Worked out
    # before the table starts, at full speed whatever the pass (no table does it).
    with full_speed():
        inputs, known, check = as_tapped_today(demo_trace("sugarrr"))
    if quick:
        inputs = inputs[:60]
    tmp = tempfile.TemporaryDirectory(prefix="bench-scan-")
    bare = BareScanPath(tmp.name)
    table = Table(trace.game, list(trace.players), trace.options, known=known)
    out = {"scan": [], "touch": [], "base": [], "frame": [], "lost": 0, "no_button": 0, "verdicts": {},
           "reference": check["verdicts"], "same_game": check["same"]}

    def driver(t: Table) -> None:
        time.sleep(0.3)  # the window's first frame, the scanner's "connected"
        for _ in range(10):
            bare.round_trip("WARMUP")
        touches = 0
        for gap, (_, kind, value) in zip(gaps(len(inputs), 0.06, 0.25, seed=15), inputs):
            time.sleep(gap)
            if kind == "scan":
                t0 = t.scan(value)
            else:
                touches += 1
                t0 = t.click(value, finger=touches % 2 == 0)  # mouse clicks and finger taps in turn
                if t0 is None:
                    out["no_button"] += 1
                    out.setdefault("missing", []).append(value)
                    continue
            got = t.next_verdict()
            if got is None:
                out["lost"] += 1
                continue
            t1, record = got
            out[kind].append((t1 - t0) * 1000)
            st = dict(t.stamps)
            if {"handle", "handled"} <= st.keys() and st.get("put", 0.0) < t0:
                st["put"] = st["handle"]  # handled straight from the window poll, never queued
            if {"put", "handle", "handled"} <= st.keys() and t0 <= st["put"] <= st["handle"] <= st["handled"] <= t1:
                out.setdefault(kind + "_parts", []).append(
                    ((t1 - t0) * 1000, [(st["put"] - t0) * 1000, (st["handle"] - st["put"]) * 1000,
                                        (st["handled"] - st["handle"]) * 1000, st.get("handle_cpu", 0.0) * 1000,
                                        (t1 - st["handled"]) * 1000]))
            out["verdicts"][record["verdict"]] = out["verdicts"].get(record["verdict"], 0) + 1
            shown = t.frame_showing(len(t.lines))
            if shown is not None:
                out["frame"].append((shown - t0) * 1000)
            if kind == "scan":
                time.sleep(gap / 2)
                out["base"].append(bare.round_trip(value))
    try:
        table.run(driver)
        out["sequence"] = [(rec["event"], rec.get("code") or rec.get("command"), rec["verdict"]) for _, rec in table.lines]
    finally:
        table.close()
        bare.close()
    out["touch_base"] = bare_touch_loop(len(out["touch"]) or 20, tmp.name)
    tmp.cleanup()
    return out


def bare_touch_loop(n: int, directory: str) -> list[float]:
    """The touch baseline: a bare pygame-ce loop woken by the window's events."""
    import pygame

    pygame.display.init()
    surface = pygame.display.set_mode((800, 480))
    from benchlib import LogReader

    wal = WalCommit(directory)
    reader = LogReader()
    log = reader.sink
    read_back: queue.Queue = queue.Queue()

    def read():
        for t, _ in reader.lines():
            read_back.put(t)
    threading.Thread(target=read, daemon=True).start()
    times: list[float] = []
    stop = threading.Event()

    def driver():
        time.sleep(0.2)
        for gap in gaps(n, 0.06, 0.25, seed=16):
            time.sleep(gap)
            t0 = time.perf_counter()
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(400, 240)))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(400, 240)))
            times.append((read_back.get(timeout=TIMEOUT) - t0) * 1000)
        stop.set()
    thread = threading.Thread(target=driver, daemon=True)
    thread.start()
    while not stop.is_set():
        event = pygame.event.wait(100)
        if event.type == pygame.MOUSEBUTTONDOWN:
            wal.commit("touch")
            log.write(json.dumps({"event": "touch", "verdict": "accepted"}) + "\n")
            surface.fill((30, 30, 40))
            pygame.display.flip()
    thread.join()
    reader.close()
    wal.close()
    pygame.display.quit()
    return times


def breakdown(parts: list, first: str) -> str:
    """Where the time of the slowest 5 % went, as medians of each part (ms)."""
    if not parts:
        return ""
    parts = sorted(parts, key=lambda p: p[0])
    slow = parts[int(len(parts) * 0.95):] or parts[-1:]
    names = (first, "waiting for the loop", "Session.handle + log write", "of which CPU", "log line read back")
    cols = list(zip(*[p[1] for p in slow]))
    return "; slowest 5 %: " + ", ".join(f"{n} {med(list(c)):.2f}" for n, c in zip(names, cols)) + " ms"


def rows(quick: bool = False) -> list[dict]:
    r = play(quick)
    got = r.get("sequence", [])
    ref = r["reference"][:len(got)]  # the same game played one input at a time (FakeClock)
    same = sum(a == b for a, b in zip(got, ref))
    scan, touch, base, tbase = r["scan"], r["touch"], r["base"], r["touch_base"]
    mix = ", ".join(f"{n} {v}" for v, n in sorted(r["verdicts"].items()))
    lost = f"; {r['lost']} inputs got no verdict line" if r["lost"] else ""
    missing = (f"; {r['no_button']} touches had no button on screen ({', '.join(sorted(set(r['missing'])))})"
               if r["no_button"] else "")
    sv = quantile_verdict(scan, SCAN_TARGET_MS) if not r["lost"] else {"ok": False, "unsure": False}
    tv = quantile_verdict(touch, TOUCH_TARGET_MS) if not r["lost"] else {"ok": False, "unsure": False}
    out = [
        row("scan to verdict line, with the screen", f"p99 <= {SCAN_TARGET_MS:g} ms",
            median=med(scan), p99=pct(scan, 99), baseline=med(base), baseline_name="pty+WAL commit", n=len(scan),
            **sv, note=f"{len(scan)} scans of the family game (verdicts of all inputs: {mix}); baseline p99 {pct(base, 99):.2f} ms"
                       f"{breakdown(r.get('scan_parts', []), 'pty to queue')}{lost}{missing}"),
        ratio_row("scan to verdict line against the bare pty+WAL path", f"median <= {SCAN_RATIO:g}x bare path",
                  scan, base, SCAN_RATIO, baseline_name="pty+WAL commit", seed=15,
                  note="the same bytes into a second pty read by a bare thread that commits one row, scan by scan "
                       "in turn with the table's"),
        row("touch (posted click or tap) to verdict line", f"p99 <= {TOUCH_TARGET_MS:.1f} ms",
            median=med(touch), p99=pct(touch, 99), baseline=med(tbase), baseline_name="bare pygame loop+commit",
            n=len(touch), **tv, note=f"{len(touch)} touches; baseline p99 {pct(tbase, 99):.2f} ms"
                                     f"{breakdown(r.get('touch_parts', []), 'posted to handled (window poll)')}"),
        ratio_row("touch to verdict line against a bare pygame loop", f"median <= {TOUCH_RATIO:g}x bare loop",
                  touch, tbase, TOUCH_RATIO, baseline_name="bare pygame loop+commit", seed=16,
                  note="the same posted clicks at the same gaps into a bare pygame-ce loop that commits, logs and "
                       "flips, right after the game"),
        row("verdicts end to end = companion replay of the trace", "all the same", median=same, unit="inputs",
            baseline=len(ref), baseline_name="reference verdicts", ok=same == len(ref) == len(got) and r["same_game"],
            n=len(got), note="the game the bench played, input by input, against the same inputs played one at a time "
                             "through a Session with a FakeClock (benchlib.as_tapped_today), which ends "
                             + ("in the recorded state" if r["same_game"] else "ELSEWHERE than the recording")),
        row("input to its frame on screen", "info" if FRAME_TARGET_MS is None else f"p99 <= {FRAME_TARGET_MS:g} ms", median=med(r["frame"]),
            p99=pct(r["frame"], 99), n=len(r["frame"]),
            **({"ok": None} if FRAME_TARGET_MS is None else quantile_verdict(r["frame"], FRAME_TARGET_MS)),
            note=f"from the byte written / click posted to the flip after the verdict line; "
                 f"{len(r['frame'])} of {len(scan) + len(touch)} verdicts' frames seen; max "
                 f"{max(r['frame'], default=float('nan')):.1f} ms"),
    ]
    return out


if __name__ == "__main__":
    sys.exit(main(rows, "scan"))
