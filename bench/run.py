"""``make bench``: run every ``bench/bench_*.py`` and print one table.

    .venv/bin/python bench/run.py [--quick] [--only scan,tilt] [--timeout 900] [--zero | --zero-only] [--fixed-quota]
    .venv/bin/python bench/run.py --compare A.json B.json     # two runs side by side (make bench-compare A B)

Each bench runs in a fresh process (``run.py --one FILE``), so one bench's pygame window,
threads or peak memory never leak into the next. A bench that follows the protocol in
README.md (a ``rows(quick=False)`` function) gives rows; a script without ``rows()`` is
run as a script and gives one row, PASS when it exits 0. A bench that crashes or times out
gives a FAIL row. A row judged with its confidence is UNSURE when its interval straddles
the target. Exits 1 when any row FAILs (never for UNSURE). Each run writes
``bench/results.json`` (rows, intervals, loads, paces, commit).

``--zero`` runs every bench twice, at this machine's speed and then held to 1/8 of a core
(a Raspberry Pi Zero 2 W's speed: a child cgroup with a CPU quota of 1.25 ms every 10 ms,
:class:`benchlib.CpuQuota`; the bench process and everything it starts join it, except
the process that reads the verdict lines back), and prints the two side by side, each
with its own targets. ``--zero-only`` runs the second pass alone. Both need root; without
it they say why and exit 2. A bench whose figures do not depend on the speed (it defines
``SPEED_INDEPENDENT = True``, e.g. instruction counts) runs once.

"1/8 of a core" is of this machine's core at its quiet speed (``REFERENCE_PACE_MS``): the
host of a VM runs Python up to four times slower when it is busy, and a fixed quota would
then stand for a Zero four times slower than a Zero. So the quota follows the host's pace
(:class:`benchlib.PaceFollower`: measured every second, the quota in proportion);
``--fixed-quota`` holds it at 1.25 ms whatever the host does.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from benchlib import (REFERENCE_PACE_MS, ZERO_QUOTA_US, CpuQuota, PaceFollower, fmt_interval,  # noqa: E402
                      format_side_by_side, format_table, join_quota, pace_ms, result, row)

#: Where each run writes its rows, intervals, loads, paces and commit (``make bench-compare``).
RESULTS = HERE / "results.json"

MARK = "BENCH-ROWS "


def one(path: Path, quick: bool) -> int:
    """In the child: import the bench, call its rows(), print them as JSON after MARK."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    rows = module.rows(quick=quick)
    sys.stdout.flush()
    print(MARK + json.dumps(rows), flush=True)
    return 0


def has_rows(path: Path) -> bool:
    import re

    return re.search(r"^def rows\(", path.read_text(encoding="utf-8"), re.MULTILINE) is not None


def speed_independent(path: Path) -> bool:
    import re

    return re.search(r"^SPEED_INDEPENDENT = True", path.read_text(encoding="utf-8"), re.MULTILINE) is not None


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def pace() -> float:
    """Milliseconds a fixed piece of pure Python (a million additions) takes in this
    process, at full speed, the best of three (:func:`benchlib.pace_ms`): how fast the
    host runs Python right now. The load average misses that a VM's host can run it half
    as fast from one minute to the next, and a CPU quota makes every figure at 1/8 of a
    core eight times that."""
    return pace_ms()


#: Cores' worth of CPU other processes (and the hypervisor's steal) may use on average while
#: a bench runs before its absolute-time FAILs are called UNSURE (:func:`busy_host`).
BUSY_CORES = 0.5


#: A full-speed bench whose host ran pure Python this many times slower than
#: ``REFERENCE_PACE_MS`` both before and after it has its absolute-time FAILs called UNSURE
#: (:func:`slow_host`).
SLOW_PACE = 1.5


def slow_host(rows: list[dict], paces: tuple[float, float]) -> list[dict]:
    """The rows, with every FAIL of an absolute wall-time limit turned UNSURE when the
    host's pace (:func:`benchlib.pace_ms`, before and after the bench, full speed) was
    over ``SLOW_PACE`` x ``REFERENCE_PACE_MS`` both times: the limits in ms are this
    machine's at its reference pace (the 1/8-core pass follows the pace with its quota
    instead), so on a host running Python at half that speed a p99 over its limit is the
    host's as much as the table's. The ratio rows, against a baseline in the same minute,
    still FAIL a slower table; the pace is named in the row's note."""
    if min(paces) <= SLOW_PACE * REFERENCE_PACE_MS:
        return rows
    return unsure_absolute(rows, f"slow host: a million Python additions took {min(paces):.0f} ms at best around "
                           f"this bench, against the {REFERENCE_PACE_MS:g} ms the absolute limits are set at")


def cpu_mark() -> tuple[float, float, float]:
    """``(wall s, machine busy s, ours s)`` now: the machine's busy CPU time from the first
    line of ``/proc/stat`` (user, nice, system, irq, softirq and steal, over every core) and
    this process's and its waited-for children's CPU time (``getrusage``). NaN busy where
    ``/proc/stat`` cannot be read."""
    import resource

    wall = time.monotonic()
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:9]]
        user, nice, system, _idle, _iowait, irq, softirq, steal = fields
        busy = (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError):
        busy = float("nan")
    ours = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for f in ("ru_utime", "ru_stime"))
    return wall, busy, ours


def others_cores(before: tuple[float, float, float], after: tuple[float, float, float]) -> float:
    """Cores' worth of CPU that everything but this run (other processes, the hypervisor's
    steal) used on average between two :func:`cpu_mark` calls: 0.0 on a quiet machine,
    about 1.0 when one other process spins on a core the whole time. A process the bench
    started and did not wait for counts as another's."""
    wall = after[0] - before[0]
    if wall <= 0 or before[1] != before[1] or after[1] != after[1]:
        return 0.0
    return max(0.0, ((after[1] - before[1]) - (after[2] - before[2])) / wall)


def busy_host(rows: list[dict], others: float) -> list[dict]:
    """The rows, with every FAIL of an absolute wall-time limit (a judged row whose interval
    is not of a ratio, in ms or s) turned UNSURE when ``others`` (:func:`others_cores`) is
    over :data:`BUSY_CORES`: with other work taking the cores, a p99 over its limit is the
    machine's as much as the code's. The ratio rows, measured against a baseline in the
    same minute, still FAIL a slower table; a busy host is named in the row's note."""
    if others <= BUSY_CORES:
        return rows
    return unsure_absolute(rows, f"busy host: other processes used {others:.2f} cores on average during this bench")


def unsure_absolute(rows: list[dict], why: str) -> list[dict]:
    """The rows, with every FAIL of an absolute wall-time limit (a judged row whose interval
    is not of a ratio, in ms or s) turned UNSURE, ``why`` and the reason added to its note
    (:func:`busy_host`, :func:`slow_host`)."""
    out = []
    for r in rows:
        if (result(r) == "FAIL" and r.get("interval") and "ratio" not in (r.get("interval_of") or "")
                and r.get("unit") in ("ms", "s")):
            r = dict(r, ok=None, unsure=True,
                     note=(r.get("note") or "") + f"; {why}, so this FAIL of an absolute time is called UNSURE "
                     "(the ratio rows judge the table against a baseline in the same minute)")
        out.append(r)
    return out


def run_bench(path: Path, quick: bool, timeout: float, quota: CpuQuota | None = None) -> list[dict]:
    name = path.stem.removeprefix("bench_")
    env = dict(os.environ, SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "dummy"),
               SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"), PYGAME_HIDE_SUPPORT_PROMPT="1")
    for key in ("BENCH_ZERO", "BENCH_ZERO_PROCS", "BENCH_OUTSIDE_PROCS"):
        env.pop(key, None)
    if quota is not None:
        env.update(quota.env())
    protocol = has_rows(path)
    cmd = [sys.executable, str(HERE / "run.py"), "--one", str(path)] if protocol else [sys.executable, str(path)]
    if quick and protocol:
        cmd.append("--quick")
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=HERE.parent,
                              preexec_fn=join_quota(str(quota.procs)) if quota is not None else None)
    except subprocess.TimeoutExpired:
        return [dict(row("bench finished", f"within {timeout:.0f} s", ok=False, unit="s",
                         note=f"timed out after {timeout:.0f} s"), bench=name)]
    took = time.monotonic() - t0
    if not protocol:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or [""]
        return [dict(row("script exits 0 (not in the row protocol)", "exit 0", median=took, unit="s",
                         ok=proc.returncode == 0, note=f"exit {proc.returncode}; last line: {tail[0][:120]}"),
                     bench=name)]
    marked = [line for line in proc.stdout.splitlines() if line.startswith(MARK)]
    if proc.returncode != 0 or not marked:
        err = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return [dict(row("bench finished", "no error", ok=False, unit="s", median=took,
                         note=f"exit {proc.returncode}: {err[:200]}"), bench=name)]
    return [dict(r, bench=name) for r in json.loads(marked[-1][len(MARK):])]


def commit() -> str:
    """The checkout's commit, ``+dirty`` when files differ from it (``unknown`` outside git)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, cwd=HERE,
                              timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, cwd=HERE, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head or "unknown") + ("+dirty" if dirty else "")


def counts(rows: list[dict]) -> dict:
    """How many rows PASS, FAIL, are UNSURE and are information only."""
    got = [result(r) for r in rows]
    return {"rows": len(rows), "PASS": got.count("PASS"), "FAIL": got.count("FAIL"), "UNSURE": got.count("UNSURE"),
            "info": got.count("info")}


def summary_line(c: dict) -> str:
    return (f"{c['rows']} rows, {c['PASS']} PASS, {c['FAIL']} FAIL, {c['UNSURE']} UNSURE (the interval straddles "
            f"the target: not a FAIL), {c['info']} information only")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true",
                    help="fewer inputs and repeats: the same verdicts in about 3 minutes, wider intervals")
    ap.add_argument("--only", help="comma-separated bench names (e.g. scan,tilt)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per bench before it counts as FAIL")
    ap.add_argument("--dir", default=str(HERE), help="where the bench_*.py files are (default: this folder)")
    ap.add_argument("--results", help=f"write the run here as JSON (default {RESULTS.relative_to(HERE.parent)} "
                                      "when the benches are this folder's)")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="print two results files side by side and exit")
    speed = ap.add_mutually_exclusive_group()
    speed.add_argument("--zero", action="store_true",
                       help="also run every bench held to 1/8 of a core (a Pi Zero 2 W's speed); needs root")
    speed.add_argument("--zero-only", action="store_true", help="only the 1/8-core pass; needs root")
    ap.add_argument("--fixed-quota", action="store_true",
                    help="at 1/8 core, hold the quota at 1.25 ms every 10 ms whatever the host's pace")
    args = ap.parse_args(argv)
    if args.one:
        return one(Path(args.one), args.quick)
    if args.compare:
        from compare import compare

        print(compare(*args.compare))
        return 0
    results = args.results or (str(RESULTS) if Path(args.dir).resolve() == HERE else None)
    quota = None
    if args.zero or args.zero_only:
        try:
            quota = CpuQuota.create()
        except OSError as err:
            why = "it needs root" if isinstance(err, PermissionError) or os.geteuid() != 0 else str(err)
            print(f"bench: cannot hold the benches to 1/8 of a core with a cgroup CPU quota: {why} ({err})",
                  file=sys.stderr)
            return 2
    files = sorted(Path(args.dir).glob("bench_*.py"))
    if args.only:
        wanted = {n.strip() for n in args.only.split(",")}
        files = [f for f in files if f.stem.removeprefix("bench_") in wanted]
    rows: list[dict] = []
    zero_rows: list[dict] = []
    loads: list[str] = []
    benches: list[dict] = []
    began, wall0 = time.strftime("%Y-%m-%dT%H:%M:%S%z"), time.monotonic()
    started, start_pace = load(), f"{pace():.0f} ms"
    follower = None
    if quota is not None and not args.fixed_quota:
        follower = PaceFollower(quota)
    try:
        for path in files:
            passes = [None] if quota is None else ([quota] if args.zero_only and not speed_independent(path)
                                                   else [None] if speed_independent(path) else [None, quota])
            for q in passes:
                at = "at 1/8 core" if q is not None else "at full speed"
                before, pace0 = load(), pace()
                paced = f"{pace0:.0f} ms"
                print(f"bench: {path.name} {at} (load average {before}) ...", file=sys.stderr, flush=True)
                first = len(follower.settings) if follower is not None else 0
                if q is not None and follower is not None:
                    follower.follow()
                t0, mark = time.monotonic(), cpu_mark()
                try:
                    got = run_bench(path, args.quick, args.timeout, q)
                finally:
                    if q is not None and follower is not None:
                        follower.stop()
                took, others = time.monotonic() - t0, others_cores(mark, cpu_mark())
                got = busy_host(got, others)
                followed = f"; {follower.summary(first)}" if q is not None and follower is not None else ""
                after, pace1 = load(), pace()
                paced_after = f"{pace1:.0f} ms"
                if q is None:
                    got = slow_host(got, (pace0, pace1))
                name = path.stem.removeprefix("bench_")
                loads.append(f"  {name} {at}: {took:.0f} s; load average {before} before, {after} after; "
                             f"pace {paced} before, {paced_after} after; other processes {others:.2f} cores{followed}")
                benches.append({"bench": name, "pass": "zero" if q is not None else "full", "seconds": round(took, 1),
                                "load_before": before, "load_after": after, "pace_before": paced,
                                "pace_after": paced_after, "others_cores": round(others, 2), "quota": followed.removeprefix("; ") or None})
                for r in got:
                    print(f"  {r['metric']}: {r.get('median')} {r['unit']} {fmt_interval(r)} -> {result(r)}",
                          file=sys.stderr, flush=True)
                (zero_rows if q is not None else rows).extend(got)
    finally:
        if follower is not None:
            follower.stop()
        if quota is not None:
            quota.close()
    held = None
    if quota is None:
        print(format_table(rows))
    else:
        print(format_side_by_side(rows, zero_rows))
        held = (f"{ZERO_QUOTA_US / 1000:g} ms of CPU every 10 ms (--fixed-quota)" if follower is None else
                f"1/8 of a core at the reference pace {REFERENCE_PACE_MS:g} ms: the quota followed the host's pace "
                f"({follower.summary()})")
        print(f"\n1/8 core: the bench process (the table, its baseline, the processes it starts) held to {held} "
              "by a cgroup CPU quota; the process reading the verdict lines back runs outside it")
    every = rows + zero_rows
    wall = time.monotonic() - wall0
    ended, end_pace = load(), f"{pace():.0f} ms"
    print(f"\nload average (1, 5, 15 min) at the start {started}, at the end {ended}, on {os.cpu_count()} cores; "
          f"pace (a million Python additions, full speed: the host's speed now) {start_pace} at the start, "
          f"{end_pace} at the end; each bench:")
    print("\n".join(loads))
    c = counts(every)
    print(f"{summary_line(c)}; {wall / 60:.1f} minutes")
    if results:
        record = {"commit": commit(), "started": began, "minutes": round(wall / 60, 2),
                  "args": {"quick": args.quick, "only": args.only, "zero": args.zero, "zero_only": args.zero_only,
                           "fixed_quota": args.fixed_quota},
                  "load": {"start": started, "end": ended}, "pace": {"start": start_pace, "end": end_pace},
                  "quota": held, "counts": c, "benches": benches, "rows": rows, "zero_rows": zero_rows}
        Path(results).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"results: {results}")
    return 1 if c["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
