"""The screen at rest: idle CPU and one full redraw, against a loop redrawing every frame
at 60 Hz in the same run; and the peak memory of a running game.

    SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_idle.py [--seconds 10]

A Sugar Blast game (the screen with the most to draw) with the tray sensor emulated and
sampled at 100 Hz by the real :class:`TraySampler` thread (reading the FIFO in batches,
as ``companion run`` does), and no input.

- **Measured (idle)**: the real main loop (:meth:`Runner.loop`: wait on the input queue,
  woken by an input, by the touchscreen's device file through an
  :class:`~companion.ui.wakeup.InputWatch` (an emulated touchscreen here, as in
  bench_scan) or by the turn clock's next second; redraw only when something changed or
  that second ticked) for ``--seconds``. CPU is the process's (``time.process_time``: every thread, the sampler's
  too) per wall second.
- **Baseline**: the same game, sampler and window, redrawing the full screen every frame
  at 60 Hz for the same time (what a naive game loop does).
- **One full redraw**: the median time of ``App.show`` of the whole game screen, as a
  fraction of the baseline's CPU per second.
- **Peak RSS**: ``ru_maxrss`` at the end (the whole process: Python, pygame, SQLite).

Targets (issue 13): idle under 1/20 of the 60 Hz loop; RSS under 120 MB.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from companion.core.clock import SystemClock  # noqa: E402
from companion.core.store import EventStore  # noqa: E402
from companion.devices.accel.sampler import TraySampler  # noqa: E402
from companion.devices.emulated.touch import EmulatedTouchscreen  # noqa: E402
from companion.table.runner import Runner  # noqa: E402
from companion.table.session import Session  # noqa: E402
from companion.devices.tray import EmulatedTray, bus_opener, detector  # noqa: E402
from companion.ui.app import App  # noqa: E402
from companion.ui.wakeup import InputWatch  # noqa: E402


def cpu_per_second(run, seconds: float) -> float:
    """CPU seconds the whole process used per wall second while ``run(until)`` ran."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    run(time.perf_counter() + seconds)
    return (time.process_time() - cpu0) / (time.perf_counter() - wall0)


def measure(seconds: float) -> dict:
    """Idle, 60 Hz loop and sampler-alone CPU (fractions of a core), one redraw (s), RSS (MB)."""
    clock = SystemClock()
    app = App()
    with tempfile.TemporaryDirectory() as tmp:
        session = Session.start("sugar-blast", ["Ana", "Ben"], EventStore(Path(tmp) / "t.db"), clock,
                                options={"goal": "five-different", "solo": False, "quick": False})
        runner = Runner(session, clock, app=app)
        # As `companion run` on the Pi: the touchscreen's device file wakes the loop
        # (here an emulated touchscreen's; nobody touches it during the bench).
        watch = InputWatch(runner.wake, pattern="/nonexistent/bench/event*").start()
        touchscreen = EmulatedTouchscreen(app.size).attach(watch)
        runner.watch = watch
        tray = EmulatedTray(clock)
        sampler = TraySampler(bus_opener("emulated", clock, tray), runner.inputs, clock, detector(None),
                              fifo=True)  # as `companion run` samples it
        sampler.start()
        try:
            def idle_loop(until: float) -> None:
                threading.Timer(until - time.perf_counter(), runner.stop).start()
                runner.stopping = False
                runner.loop()

            def sixty(until: float) -> None:
                frame = 1 / 60
                nxt = time.perf_counter()
                while time.perf_counter() < until:
                    runner.poll_window()
                    session.pump(runner.inputs)
                    app.show(runner.draw)
                    nxt += frame
                    time.sleep(max(0.0, nxt - time.perf_counter()))

            def nothing(until: float) -> None:  # only the sampler thread runs
                time.sleep(max(0.0, until - time.perf_counter()))

            idle_loop(time.perf_counter() + 1.0)  # warm up: the first frame drawn, fonts loaded
            half = seconds / 2  # alternate, so all see the same machine load
            idle, loop, floor = [], [], []
            for _ in range(2):
                idle.append(cpu_per_second(idle_loop, half))
                loop.append(cpu_per_second(sixty, half))
                floor.append(cpu_per_second(nothing, half / 2))
            idle_cpu, loop_cpu, floor_cpu = map(statistics.mean, (idle, loop, floor))
            redraws = []
            for _ in range(100):
                t0 = time.perf_counter()
                app.show(runner.draw)
                redraws.append(time.perf_counter() - t0)
        finally:
            sampler.stop()
            watch.stop()
            touchscreen.close()
    app.close()
    return {"idle": idle_cpu, "loop": loop_cpu, "floor": floor_cpu, "redraw": statistics.median(redraws),
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def rows(quick: bool = False) -> list[dict]:
    """The bench-table rows (bench/README.md, the protocol)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from benchlib import row

    m = measure(4.0 if quick else 10.0)
    return [
        row("screen at rest: idle CPU against a 60 Hz redraw loop", "< 1/20 (0.05x)", median=m["idle"] * 100,
            unit="% core", baseline=m["loop"] * 100, baseline_name="60 Hz full redraw loop",
            ok=m["idle"] / m["loop"] < 1 / 20, note=f"tray sampler alone {m['floor'] * 100:.2f} %; one full redraw "
                                                   f"{m['redraw'] * 1000:.2f} ms"),
        row("screen at rest: peak RSS", "< 120 MB", median=m["rss_mb"], unit="MB", ok=m["rss_mb"] < 120),
    ]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0, help="each of idle and the 60 Hz loop (default 10)")
    args = ap.parse_args()
    m = measure(args.seconds)
    idle_cpu, loop_cpu, floor_cpu, redraw, rss_mb = m["idle"], m["loop"], m["floor"], m["redraw"], m["rss_mb"]
    print(f"screen at rest: Sugar Blast, 2 players, tray emulated at 100 Hz, no input, {args.seconds:g} s each")
    print(f"  baseline  redraw every frame at 60 Hz:   CPU {loop_cpu * 100:6.2f} % of a core")
    print(f"  measured  idle main loop:                CPU {idle_cpu * 100:6.2f} % of a core")
    print(f"  (info)    the tray sampler thread alone: CPU {floor_cpu * 100:6.2f} % of a core")
    print(f"  ratio idle/60 Hz loop:  {idle_cpu / loop_cpu:6.3f}   (target under {1 / 20:.3f})")
    print(f"  ratio without the sampler (both minus it): {(idle_cpu - floor_cpu) / (loop_cpu - floor_cpu):6.3f}")
    print(f"  one full redraw: median {redraw * 1000:6.2f} ms = {redraw / loop_cpu:6.3f} of the 60 Hz loop's CPU second")
    print(f"  peak RSS: {rss_mb:6.1f} MB   (target under 120 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
