"""Input to screen: a scan handled and the Sugarrr! scoreboard redrawn, as a ratio to
drawing an empty frame in the same run (DESIGN.md budget: well under one 60 Hz frame).

    SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_screen.py [--repeat 200]

Baseline: ``App.show`` of an empty frame (clear, flip). Measured: ``Session.handle`` of a
scan (flow, rules, commit to an on-disk store) followed by ``App.show`` of the full game
screen, as the main loop does. Software rendering at 800x480 with SDL's dummy driver.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from companion.core.clock import FakeClock  # noqa: E402
from companion.core.events import CardScanned, Touch  # noqa: E402
from companion.core.store import EventStore  # noqa: E402
from companion.runner import Runner  # noqa: E402
from companion.table import Session  # noqa: E402
from companion.ui.app import App  # noqa: E402
from sugarrr_helpers import STARTS, fruit  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    app = App()
    base, measured = [], []
    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock(0.0)
        session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(Path(tmp) / "t.db"), clock)
        runner = Runner(session, clock, app=app)
        for code in STARTS:
            session.handle(CardScanned(code, "scanner", clock.now()))
        # Alternate a rejected scan (no commit) and a column tap (a commit) so every
        # round changes the screen, and time both paths against the empty frame.
        for i in range(args.repeat):
            clock.advance(2.0)
            t0 = time.perf_counter()
            app.show(lambda surface: [])
            base.append((time.perf_counter() - t0) * 1000)
            item = Touch(f"column {i % 5 + 1}", clock.now()) if i % 2 else CardScanned(fruit("Blueberries", 5), "scanner", clock.now())
            t0 = time.perf_counter()
            session.handle(item)
            app.show(runner.draw)
            measured.append((time.perf_counter() - t0) * 1000)
    app.close()
    b, m = statistics.median(base), statistics.median(measured)
    p95 = statistics.quantiles(measured, n=20)[-1]
    print(f"input to screen, {args.repeat} inputs (half rejected scans, half column taps), 800x480")
    print(f"  baseline  empty frame (clear + flip):        median {b:7.3f} ms")
    print(f"  measured  handle + full game screen + flip:  median {m:7.3f} ms   p95 {p95:7.3f} ms")
    print(f"  ratio measured/baseline:  median {m / b:5.1f}x")
    print(f"  (info) measured median = {m / (1000 / 60):.2f} of one 60 Hz frame (16.7 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
