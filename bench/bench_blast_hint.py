"""Listing every legal Sugar Blast swap and its Blasts, as a ratio against one scan for runs.

    .venv/bin/python bench/bench_blast_hint.py [--boards 200] [--repeat 5]

Baseline: ``start_runs(board)``, one full scan of a 6x6 board for lines of 3+ (what the
set-up check does). Measured: ``hint_json(board)``, every swap of neighbours tried, and
the Blasts of each legal one found and described (what ``companion hint sugar-blast
--json`` and the "No Blasts?" check do). The boards are shuffled from the 72 candies with
a fixed seed and kept only when they have no run, as at set-up. Both are timed
alternately, board by board, so both see the same machine load. Nothing is asserted:
the script prints the figures and the ratio and exits 0.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.games.sugar_blast.parts.board import COLS, KINDS, ROWS, hint_json, start_runs
from companion.games.sugar_blast.rules import PER_KIND

#: run.py --zero runs it once, at full speed: information only, and a ratio of two timings the speed scales alike
SPEED_INDEPENDENT = True

FRAME_MS = 1000 / 60


def boards(n: int, seed: int = 4) -> list[tuple[str, ...]]:
    rng = random.Random(seed)
    pool = [k for k in KINDS for _ in range(PER_KIND)]
    out = []
    while len(out) < n:
        rng.shuffle(pool)
        board = tuple("".join(pool[r * COLS:(r + 1) * COLS]) for r in range(ROWS))
        if not start_runs(board):
            out.append(board)
    return out


def timed(fn, board, repeat: int) -> float:
    t = time.perf_counter()
    for _ in range(repeat):
        fn(board)
    return (time.perf_counter() - t) / repeat * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    sample = boards(args.boards)
    for board in sample[:10]:                          # warm-up
        hint_json(board), start_runs(board)
    base, hint, swaps = [], [], []
    for board in sample:
        base.append(timed(start_runs, board, args.repeat))
        hint.append(timed(hint_json, board, args.repeat))
        swaps.append(len(hint_json(board)["swaps"]))
    b, h = statistics.median(base), statistics.median(hint)
    ratios = sorted(y / x for x, y in zip(base, hint))
    print(f"{len(sample)} boards {ROWS}x{COLS}, legal swaps per board: median {statistics.median(swaps)}, "
          f"min {min(swaps)}, max {max(swaps)}")
    print(f"baseline  start_runs (one scan for runs): median {b:.4f} ms")
    print(f"measured  hint_json (every swap + Blasts): median {h:.4f} ms, max {max(hint):.4f} ms")
    print(f"ratio     {h / b:.1f}x (per board: median {statistics.median(ratios):.1f}x, "
          f"p95 {ratios[int(0.95 * (len(ratios) - 1))]:.1f}x)")
    print(f"budget    {h / FRAME_MS:.3f} of a 60 Hz frame (median), {max(hint) / FRAME_MS:.3f} (max)")
    return 0


def rows(quick: bool = False) -> list[dict]:
    """The bench-table rows (see README.md): per-board hint time against one scan for runs."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from benchlib import med, pct, row

    sample = boards(40 if quick else 200)
    for board in sample[:10]:  # warm-up
        hint_json(board), start_runs(board)
    base = [timed(start_runs, board, 5) for board in sample]
    hint = [timed(hint_json, board, 5) for board in sample]
    return [row("Sugar Blast hint: every swap and its Blasts (info)", "-", median=med(hint), p99=pct(hint, 99),
                baseline=med(base), baseline_name="start_runs, one scan", n=len(hint),
                note=f"{len(sample)} boards; max {max(hint):.3f} ms = {max(hint) / FRAME_MS:.3f} of a 60 Hz frame")]


if __name__ == "__main__":
    raise SystemExit(main())
