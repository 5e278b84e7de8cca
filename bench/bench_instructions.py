"""Instruction counts of the hot paths, with budgets (issue 24): figures that do not
move with the machine's load, so a change that makes a hot path heavier shows even on a
busy machine.

    .venv/bin/python bench/bench_instructions.py

Each workload of ``bench/icount.py`` runs under ``valgrind --tool=callgrind`` (``apt-get
install -y valgrind``; ``perf stat -e instructions`` needs hardware counters, which a
virtual machine often does not give), with a dump of the counters before each marker
call, so each measured operation's instructions (every thread's) are in a dump of their
own; the markers' own cost (an empty bracket) is subtracted. Rows:

- one scan through ``Session.handle``, with its store commit and JSON log line (median of
  8 scans halfway through the recorded Sugarrr! family game);
- one touch: a tap on a drawn button taken from the window's queue into
  ``Session.handle``, with its commit and log line (median of 5, same game);
- one full redraw of each game halfway through its demo game (median of 3);
- one idle second of the loop with the window on and the tray sensor at 100 Hz (the
  sampler thread and the emulated ADXL345 it reads included: on a Pi the chip's side is
  the I2C driver's);
- a whole cold start, ``exec`` to the first frame (``python -m firstframe``, as
  bench_resume.py times it, the bytecode already compiled as an installed package has
  it, in a venv as install.sh makes one): the start screen, and a resumed 300-input Sugar
  Blast game, from its resume point (kept 10 inputs before the stop, as bench_resume.py
  has it) and with none (the first start after an upgrade: all 300 inputs replayed).

Budgets: what each measured when it was set, plus about a quarter (bench/README.md); a
row over budget FAILs. Valgrind's Ir counts are per x86-64 instruction: a Pi's ARM core
runs a similar number of instructions for the same Python, so a budget reads as a share
of a Zero 2 W's second only roughly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from benchlib import ROOT, main, med, row  # noqa: E402

SPEED_INDEPENDENT = True  # run.py --zero runs it once: instructions do not depend on the speed

#: Budgets in millions of instructions (issue 24), set from the counts plus ~25 %; lowered
#: on 1 Dec 2026 with the faster cold start and redraw, on 2 Dec 2026 with the kept
#: boxes and the lean pygame import, and later that day with the resume point (a resumed
#: game with none, the first start after an upgrade, keeps the old budget) (bench/README.md,
#: "What changed").
BUDGET_M = {
    "scan": 0.6,
    "touch": 0.6,
    "redraw sugarrr": 8.9,
    "redraw sugar-blast": 7.6,
    "redraw sugar-heist": 6.1,
    "redraw sweet-deals": 3.7,
    "idle second": 13.0,
    "cold start screen": 410.0,
    "cold start resume": 490.0,
    "cold start resume, no point": 590.0,
}
WHAT = {
    "scan": "one scan: Session.handle + store commit + log line",
    "touch": "one touch: window event -> Session.handle + commit + log line",
    "idle second": "idle second: loop, window on, tray at 100 Hz",
    "cold start screen": "cold start: exec -> first frame of the start screen",
    "cold start resume": "cold start: exec -> first frame of a resumed 300-input game (resume point 10 behind)",
    "cold start resume, no point": "cold start: exec -> first frame of a resumed 300-input game, no resume point",
}


def counts(scenario: str, out: str) -> list[tuple[str, int]]:
    """``[(label, instructions)]`` of one workload of icount.py under callgrind."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
               PYTHONHASHSEED="0", PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    prefix = Path(out) / scenario
    prefix.mkdir()
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--dump-before=getppid",
                           f"--callgrind-out-file={prefix}/cg.%p", sys.executable, str(HERE / "icount.py"), scenario],
                          capture_output=True, text=True, env=env, timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"{scenario}: exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1:]}")
    labels = json.loads(proc.stdout.strip().splitlines()[-1])
    dumps: dict[int, int] = {}
    for f in prefix.iterdir():
        m = re.fullmatch(r"cg\.\d+(?:\.(\d+))?", f.name)
        if not m or m.group(1) is None:
            continue
        total = re.search(r"^totals: (\d+)", f.read_text(errors="replace"), re.MULTILINE)
        dumps[int(m.group(1))] = int(total.group(1)) if total else 0
    # Dump 2k+1 closes what ran before the k-th marker pair; dump 2k+2 the operation.
    return [(label, dumps[2 * k + 2]) for k, label in enumerate(labels)]


def cold_starts(tmp: str, pool=None, only: tuple[str, ...] | None = None) -> dict[str, list[int]]:
    """Instructions of whole fresh processes to their first frame (bench_resume's
    workloads), each after one uncounted run that writes the bytecode and the compiled
    dataclass methods (as an installed table has them after its first start). With a
    ``pool`` (``concurrent.futures``), the counted runs go two at a time."""
    from bench_resume import build_store, child_env, copy_store, first_frame, table_python

    db = Path(tmp) / "resume.db"
    build_store(db, tmp)
    pyc = str(Path(tmp) / "pycache")
    env = dict(child_env(pyc), PYTHONHASHSEED="0")  # the counted run: the same child as the timed ones
    out: dict[str, list[int]] = {}
    resume = ["run", "--game", "sugar-blast", "--log-format", "json"]
    counted = []
    for label, args in (("cold start screen", ["--start-screen", "run", "--log-format", "json"]),
                        ("cold start resume", resume), ("cold start resume, no point", resume)):
        if only is not None and label not in only:
            continue
        for i in range(2):
            store = Path(tmp) / f"{label.replace(' ', '-').replace(',', '')}-{i}.db"
            if "resume" in label:
                copy_store(db, store, point=not label.endswith("no point"))
            if i == 0:
                first_frame(args + ["--store", str(store)], pyc)  # writes the bytecode
                continue
            counted.append((label, ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                                    table_python(pyc), "-m", "firstframe", *args, "--store", str(store)]))

    def count(cmd):
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    procs = list(pool.map(count, [c for _, c in counted])) if pool is not None else [count(c) for _, c in counted]
    for (label, _), proc in zip(counted, procs):
        got = re.search(r"Collected : (\d+)", proc.stderr)
        if "FIRST-FRAME" in proc.stdout and got:
            out.setdefault(label, []).append(int(got.group(1)))
    return out


def rows(quick: bool = False) -> list[dict]:
    if shutil.which("valgrind") is None:
        return [row("instruction counts", "valgrind installed", ok=False, unit="Minstr",
                    note="valgrind is not installed: apt-get install -y valgrind")]
    from concurrent.futures import ThreadPoolExecutor

    with tempfile.TemporaryDirectory(prefix="bench-icount-") as tmp, ThreadPoolExecutor(2) as pool:
        # Two valgrind runs at a time (this machine's two cores): an operation's count does
        # not depend on what runs beside it. The idle second runs alone: what happens in a
        # wall second depends on how fast the process runs.
        marker = med([n for _, n in counts("nothing", tmp)])
        got: dict[str, list[int]] = {}
        # --quick (a merge's run): the hot paths of an input and a resumed start; the redraws
        # are timed by bench_screen, the start screen's and a pointless resume's cold
        # starts share the resumed one's imports
        scenarios = ("scan", "touch") if quick else ("scan", "touch", "redraw")
        for labelled in pool.map(lambda scenario: counts(scenario, tmp), scenarios):
            for label, n in labelled:
                got.setdefault(label, []).append(max(0, n - marker))
        for label, n in counts("idle", tmp):
            got.setdefault(label, []).append(max(0, n - marker))
        got.update(cold_starts(tmp, pool, only=("cold start resume",) if quick else None))
    out = []
    if got.get("touch without one verdict"):
        out.append(row("instructions: every counted tap reached the game", "one verdict each", ok=False,
                       unit="taps", median=len(got["touch without one verdict"])))
    for label, budget in BUDGET_M.items():
        if quick and (label.startswith("redraw") or label in ("cold start screen", "cold start resume, no point")):
            continue
        values = [n / 1e6 for n in got.get(label, [])]
        if not values:
            out.append(row(f"instructions: {WHAT.get(label, label)}", f"<= {budget:g} M", ok=False, unit="Minstr",
                           note="the workload did not reach this operation"))
            continue
        what = WHAT.get(label) or f"one full redraw, {label.split()[1]}"
        out.append(row(f"instructions: {what}", f"<= {budget:g} M", median=med(values), p99=max(values),
                       unit="Minstr", ok=med(values) <= budget, n=len(values),
                       note=f"{len(values)} measured (p99 column: the most); callgrind Ir, markers' "
                            f"{marker / 1e3:.0f} k subtracted"))
    return out


if __name__ == "__main__":
    sys.exit(main(rows, "instructions"))
