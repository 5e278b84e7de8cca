"""The workloads bench_instructions.py counts under ``valgrind --tool=callgrind``.

    valgrind --tool=callgrind --dump-before=getppid --callgrind-out-file=DIR/cg.%p \\
        .venv/bin/python bench/icount.py SCENARIO

Each measured operation is bracketed by two ``os.getppid()`` calls (a libc call nothing
else here makes): callgrind dumps its counters before each, so the dump that the second
call closes holds exactly the instructions of the operation, every thread included. The
setup (a game replayed to where the operation happens, fonts loaded, one warm-up) is in
other dumps. On stdout: one JSON line, the labels of the measured operations in order.

Scenarios:

- ``scan``: ``Session.handle`` of the next scans of the recorded Sugarrr! family game,
  halfway through it, with the store on disk (its commit) and the JSON log line written
  (``json_logger`` into /dev/null); the touches between them are handled unmeasured.
- ``touch``: a tap on the button the screen drew, halfway through the same game: posted
  into the window's queue, taken by ``Runner.poll_window`` into ``Session.handle`` with
  the store commit and the log line (the redraw after it is not counted here).
- ``redraw``: one full frame of each game (``Runner.render(force=True)``: clear, the
  game's screen, the chrome, flip) halfway through its demo game, after a warm-up frame.
- ``idle``: one second of ``Runner.loop`` with the window on and the tray sensor sampled
  at 100 Hz (the real TraySampler reading an emulated ADXL345's FIFO), after two warm-up
  seconds; nothing is played.
- ``nothing``: an empty bracket, the markers' own cost (subtracted from the others).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from benchlib import demo_trace  # noqa: E402

LABELS: list[str] = []


def measure(label: str, op):
    """Run ``op()`` between two markers (two callgrind dumps); returns what it returned."""
    os.getppid()
    try:
        return op()
    finally:
        os.getppid()
        LABELS.append(label)


def half_game(slug: str, store: str = ":memory:", fraction: float = 0.5):
    """``(runner, the rest of the trace's records)``: the demo game of ``slug`` replayed
    headless through its first ``fraction`` of records (the real replay: emulated
    readers and tray)."""
    from companion.table.replay import replay
    from companion.table.trace import read

    path = demo_trace(slug)
    lines = path.read_text(encoding="utf-8").splitlines()
    cut = 1 + int((len(lines) - 1) * fraction)
    part = Path(tempfile.mkdtemp(prefix="icount-")) / path.name
    part.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    runner = replay(part, store=store, window=False)
    rest = read(path).records[cut - 1:]
    return runner, rest


def codes(data: bytes) -> list[str]:
    return [c.decode("latin-1") for c in data.replace(b"\r", b"\n").split(b"\n") if c]


def scan(n: int = 8) -> None:
    from companion.core.events import CardScanned
    from companion.table.logs import json_logger

    tmp = tempfile.mkdtemp(prefix="icount-")
    runner, rest = half_game("sugarrr", store=str(Path(tmp) / "table.db"))
    session, clock = runner.session, runner.clock
    session.listeners.append(json_logger(open(os.devnull, "w")))
    done = 0
    for record in rest:
        clock.set(record.t)
        if record.kind == "touch":
            runner.touch(record.command, now=True)
            continue
        for code in codes(record.data):
            item = CardScanned(code, record.device, clock.now())
            if done == 0:
                session.handle(item)  # a warm-up scan, not counted
            else:
                measure("scan", lambda: session.handle(item))
            done += 1
        if done > n:
            return


def _app(runner):
    from companion.ui.app import App

    runner.app = App()
    runner.render(force=True)  # the window's first frame loads the fonts
    runner.render(force=True)


def touch(n: int = 5) -> None:
    import pygame

    from companion.table.logs import json_logger

    tmp = tempfile.mkdtemp(prefix="icount-")
    runner, rest = half_game("sugarrr", store=str(Path(tmp) / "table.db"))
    session, clock = runner.session, runner.clock
    session.listeners.append(json_logger(open(os.devnull, "w")))
    _app(runner)
    done = 0
    from companion.core.events import CardScanned

    verdicts = []
    session.listeners.append(lambda item, verdict: verdicts.append(verdict) if verdict is not None else None)

    for record in rest:
        clock.set(record.t)
        if record.kind != "touch":
            for code in codes(record.data):
                session.handle(CardScanned(code, record.device, clock.now()))
            runner.render()
            continue
        rect = next((b.rect for b in runner.app.buttons if b.command == record.command), None)
        if rect is None:  # a menu's button (not on the screen yet): not counted
            runner.touch(record.command, now=True)
            runner.render()
            continue
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, button=1, pos=rect.center))
        before = len(verdicts)
        measure("touch", runner.poll_window)
        if len(verdicts) != before + 1:  # the tap must have reached the game: one verdict
            LABELS[-1] = "touch without one verdict"
        runner.render()
        done += 1
        if done >= n:
            return


def redraw(repeat: int = 3) -> None:
    from companion.games import GAMES

    for slug in GAMES:
        runner, _ = half_game(slug)
        _app(runner)
        for _ in range(repeat):
            measure(f"redraw {slug}", lambda: runner.render(force=True))


def idle() -> None:
    from benchlib import Table
    from companion.devices.accel.sampler import TraySampler
    from companion.devices.emulated.chips import EmulatedAdxl345
    from companion.devices.emulated.i2c import EmulatedBus
    from companion.devices.tilt import Calibration, TiltDetector

    table = Table("sugar-blast", ["Mum", "Leo", "Maya"], {"goal": "five-different"})
    bus = EmulatedBus(EmulatedAdxl345(clock=table.clock))
    sampler = TraySampler(lambda: bus.open() or bus, table.runner.inputs, table.clock,
                          TiltDetector(Calibration.default((0.0, 0.0, 1.0))), fifo=True)
    sampler.start()
    runner = table.runner

    def for_seconds(s: float):
        timer = threading.Timer(s, runner.stop)
        timer.start()
        runner.loop()
        timer.join()
        runner.stopping = False
    try:
        for_seconds(2.0)  # the first frame, the sensor found and configured
        measure("idle second", lambda: for_seconds(1.0))
    finally:
        sampler.stop()
        table.close()


def nothing() -> None:
    for _ in range(3):
        measure("nothing", lambda: None)


SCENARIOS = {"nothing": nothing, "scan": scan, "touch": touch, "redraw": redraw, "idle": idle}

if __name__ == "__main__":
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from companion.core import startup

    startup.speed_ups()  # the table's process, as `companion run` starts it
    SCENARIOS[sys.argv[1]]()
    sys.stdout.write(json.dumps(LABELS) + "\n")
    sys.stdout.flush()
    time.sleep(0.05)
