"""The screen at rest: idle CPU against a Pi that draws nothing, as a share of a Zero 2 W
core, the loop's wake-ups; one full redraw and the peak memory of a running game.

    SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_idle.py [--quick]

A Sugar Blast game (the screen with the most to draw) with the tray sensor emulated and
sampled at 100 Hz by the real :class:`TraySampler` thread (reading the FIFO in batches,
as ``companion run`` does), running through every phase, and no input.

- **Measured (idle)**: the real main loop (:meth:`Runner.loop`: wait on the input queue,
  woken by an input, by the touchscreen's device file through an
  :class:`~companion.ui.wakeup.InputWatch` (an emulated touchscreen here, as in
  bench_scan) or by the turn clock's next second; redraw only when something changed or
  that second ticked), in :data:`PHASE_S` s phases. CPU is the process's
  (``time.process_time``: every thread, the sampler's too) per wall second.
- **Baseline**: the bare paced display loop, in the same process with the same window
  and the same sampler thread running: the window's events read 60 times a second and
  nothing drawn (a Pi that shows a picture and draws nothing). Phases of each alternate,
  round after round, until the 95 % bootstrap interval of the ratio of their medians is
  clear of the target (:func:`benchlib.until_sure`). This baseline does not move when the
  table's drawing gets faster or slower: it draws nothing.
- **A share of a Zero 2 W core**: each idle phase's share of this core x 8 x
  ``REFERENCE_PACE_MS`` / the host's pace then (a Zero's core is 1/8 of this one at its
  quiet pace), with the distribution-free interval of its median.
- **Wake-ups**: the loop's turns per second at rest: the turn clock's visible tick, no more.
- **Information**: a loop redrawing the whole screen at 60 Hz (the old baseline, which
  shrank whenever drawing got faster), the sampler alone, one full redraw (median
  ``App.show``), peak RSS (``ru_maxrss``).

Targets: idle at most the bare loop (1.0x); at most 8 % of a Zero core (issue 24's 1 % of
a host core held to 1/8 of it); at most 1 wake-up a second; RSS under 120 MB.
"""

from __future__ import annotations

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


#: run.py --zero runs it once, at full speed: a quota delays work, it does not make it smaller: the CPU an idle table takes is the same held to 1/8 of a core, and its share of a Zero core is its own row
SPEED_INDEPENDENT = True

#: Targets. Against the bare paced display loop with the same tray sampler (a Pi that
#: draws nothing): at most as much. As a share of one Zero 2 W core: at most 8 % (issue
#: 24's 1 % of a host core at 1/8 of it). Wake-ups: at most the turn clock's visible tick.
BARE_AT_MOST = 1.0
ZERO_CORE_PCT = 8.0
WAKEUPS_PER_S = 1.0
PHASE_S = 2.0  # whole seconds: a phase then holds a fixed number of the clock's ticks
DISPLAY_HZ = 60  # the bare loop's rate: a polling loop that handles a touch within a frame


def cpu_per_second(run, seconds: float) -> float:
    """CPU seconds the whole process used per wall second while ``run(until)`` ran."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    run(time.perf_counter() + seconds)
    return (time.process_time() - cpu0) / (time.perf_counter() - wall0)


def measure(quick: bool, seconds: float | None = None) -> dict:
    """Idle phases of the real loop interleaved with the bare paced display loop (both with
    the same tray sampler running), until the ratio's interval is clear of its target;
    a 60 Hz full redraw loop and the sampler alone beside them (information); one
    redraw (s); RSS (MB)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import pygame
    from benchlib import bootstrap_ratio, pace_ms, until_sure

    clock = SystemClock()
    app = App()
    phase = seconds if seconds is not None else PHASE_S
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
        out: dict = {"idle": [], "bare": [], "loop": [], "floor": [], "turns": [], "frames": [], "pace": []}
        try:
            shown = []
            show = app.show

            def counted_show(draw, _show=show):
                shown.append(1)
                return _show(draw)
            app.show = counted_show

            def idle_loop(until: float) -> None:
                threading.Timer(until - time.perf_counter(), runner.stop).start()
                runner.stopping = False
                runner.loop()

            def bare(until: float) -> None:
                """The bare paced display loop: the window's events read 60 times a
                second, nothing drawn (the screen keeps its last frame), as a Pi
                that shows a picture and waits for a touch by polling would."""
                frame = 1 / DISPLAY_HZ
                nxt = time.perf_counter()
                while time.perf_counter() < until:
                    pygame.event.get()
                    nxt += frame
                    time.sleep(max(0.0, nxt - time.perf_counter()))

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

            def one_round(i: int) -> None:
                # the order alternates round by round, so neither side always follows the other
                for which in (("idle", "bare") if i % 2 == 0 else ("bare", "idle")):
                    if which == "idle":
                        # wake-ups: the turns in a window of whole seconds inside the phase
                        # (so neither the loop's first turn nor its stop is counted)
                        marks: list = []
                        mark = (lambda: marks.append((time.perf_counter(), runner.turns, len(shown))))
                        inner = max(1.0, float(int(phase - 0.5)))
                        timers = [threading.Timer(0.25, mark), threading.Timer(0.25 + inner, mark)]
                        for tm in timers:
                            tm.start()
                        out["idle"].append(cpu_per_second(idle_loop, phase))
                        for tm in timers:
                            tm.join()
                        if len(marks) == 2:
                            (a, n0, f0), (b, n1, f1) = marks
                            out["turns"].append((n1 - n0) / inner)
                            out["frames"].append((f1 - f0) / inner)
                    else:
                        out["bare"].append(cpu_per_second(bare, phase))
                out["pace"].append(pace_ms(200_000))  # between phases: the host's speed now

            judged = until_sure(one_round, lambda: bootstrap_ratio(out["idle"], out["bare"]), BARE_AT_MOST,
                                min_rounds=3 if quick else 4, max_rounds=6 if quick else 10)
            for _ in range(1 if quick else 2):  # information: the old baseline and the floor
                out["loop"].append(cpu_per_second(sixty, phase))
                out["floor"].append(cpu_per_second(nothing, phase / 2))
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
    out.update(judged=judged, redraw=statistics.median(redraws),
               rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


def rows(quick: bool = False) -> list[dict]:
    """The bench-table rows (bench/README.md, the protocol)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from benchlib import REFERENCE_PACE_MS, med, quantile_verdict, ratio_row, row

    m = measure(quick)
    pct = [x * 100 for x in m["idle"]]
    # A Zero 2 W core: 1/8 of this machine's core at its quiet pace. The CPU time a phase
    # took on a host running at pace p is p / REFERENCE_PACE_MS times what the same work
    # takes at the reference pace, so a phase's share of a Zero core is
    # share x 8 x REFERENCE_PACE_MS / p (p measured after each round).
    zero = [x * 8 * REFERENCE_PACE_MS / p for x, p in zip(pct, m["pace"])]
    zv = quantile_verdict(zero, ZERO_CORE_PCT, q=0.5)
    wv = quantile_verdict(m["turns"], WAKEUPS_PER_S, q=0.5)
    loop = med(m["loop"]) * 100
    return [
        ratio_row("screen at rest: idle CPU against the bare paced display loop, same tray sampler",
                  f"<= {BARE_AT_MOST:g}x bare loop", pct, [x * 100 for x in m["bare"]], BARE_AT_MOST,
                  unit="% core", baseline_name=f"bare {DISPLAY_HZ} Hz loop drawing nothing + tray", judged=m["judged"],
                  note=f"{PHASE_S:g} s phases, interleaved; both with the real TraySampler at 100 Hz (FIFO); the "
                       f"sampler alone {med(m['floor']) * 100:.2f} %"),
        row("screen at rest: idle CPU as a share of one Zero 2 W core", f"<= {ZERO_CORE_PCT:g} % of a Zero core",
            median=med(zero), unit="% Zero", ok=zv["ok"], unsure=zv["unsure"], interval=zv["interval"],
            interval_of="median", n=len(zero),
            note=f"share of this core x 8 x {REFERENCE_PACE_MS:g} ms / the host's pace (pace {med(m['pace']):.0f} ms "
                 f"median, {min(m['pace']):.0f}-{max(m['pace']):.0f}): a Zero's core is 1/8 of this one at its quiet "
                 f"pace (bench/README.md)"),
        row("screen at rest: loop wake-ups a second", f"<= {WAKEUPS_PER_S:g} (the clock's visible tick)",
            median=med(m["turns"]), unit="/s", ok=wv["ok"], unsure=wv["unsure"], interval=wv["interval"],
            interval_of="median", n=len(m["turns"]),
            note=f"Runner.loop turns in a whole second inside each idle phase; full frames drawn {med(m['frames']):.2f} a second (the "
                 f"clocks alone redrawn); the bare loop wakes {DISPLAY_HZ} times"),
        row("screen at rest: idle CPU against a 60 Hz redraw loop (info)", "-", median=med(pct), unit="% core",
            baseline=loop, baseline_name="60 Hz full redraw loop",
            note=f"information only: this baseline shrinks whenever drawing gets faster; one full redraw "
                 f"{m['redraw'] * 1000:.2f} ms"),
        row("screen at rest: peak RSS", "< 120 MB", median=m["rss_mb"], unit="MB", ok=m["rss_mb"] < 120),
    ]


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import benchlib

    return benchlib.main(rows, "idle")


if __name__ == "__main__":
    sys.exit(main())
