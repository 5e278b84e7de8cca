"""What the benches share: the row protocol, percentiles, the family traces, and a table
run end to end (pseudo-terminal scanner, posted window events, the real Runner with an
App, the JSON log read back from a pipe).

The protocol (see README.md): a bench module ``bench/bench_NAME.py`` defines
``rows(quick: bool = False) -> list[dict]``; each dict is made by :func:`row`. Run alone,
it calls :func:`main` with its ``rows`` and prints the same table ``make bench`` prints.
"""

from __future__ import annotations

import json
import math
import os
import queue
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

DATA = ROOT / "tests" / "data"
FRAME_MS = 1000 / 60
TIMEOUT = 5.0  # seconds to wait for one verdict line before calling the input lost


# ---------------------------------------------------------------- a Zero 2 W's speed

#: Set (by ``run.py --zero``) in a bench process that runs held to 1/8 of a core.
ZERO = os.environ.get("BENCH_ZERO") == "1"
#: The CPU quota that stands for a Raspberry Pi Zero 2 W: 1.25 ms of CPU every 10 ms of
#: a core running at :data:`REFERENCE_PACE_MS`.
ZERO_QUOTA_US, ZERO_PERIOD_US = 1250, 10000
#: This machine's pace (:func:`pace_ms`) when its host is quiet: the core the Zero is 1/8
#: of. The host of this VM runs Python at this pace at its best and at up to four times it
#: when it is busy (bench/README.md), which a fixed quota would make a Zero four times slower.
REFERENCE_PACE_MS = 21.0


def pace_ms(additions: int = 1_000_000, tries: int = 3) -> float:
    """How fast the host runs Python now: the milliseconds a million additions take in
    this process at full speed (``additions`` of them, scaled to a million), the best of
    ``tries``."""
    best = float("inf")
    for _ in range(tries):
        t0, total = time.perf_counter(), 0
        for i in range(additions):
            total += i
        best = min(best, time.perf_counter() - t0)
    return best * 1000 * 1_000_000 / additions


def zero_quota_us(pace: float, period_us: int = ZERO_PERIOD_US) -> int:
    """The quota that holds a process to a Zero 2 W's speed on a core whose pace is
    ``pace`` ms: :data:`ZERO_QUOTA_US` at :data:`REFERENCE_PACE_MS`, in proportion to the
    pace, within half that and the whole period."""
    return int(max(ZERO_QUOTA_US / 2, min(period_us, ZERO_QUOTA_US * pace / REFERENCE_PACE_MS)))


def at_speed(full, zero):
    """``zero`` in a bench held to 1/8 of a core (:data:`ZERO`), else ``full``: a target
    that differs between the two speeds."""
    return zero if ZERO else full


class CpuQuota:
    """A child cgroup whose processes together get ``quota_us`` of CPU time every
    ``period_us`` (cgroup v2 ``cpu.max``, or v1 ``cpu.cfs_quota_us``/``cpu.cfs_period_us``,
    whichever the machine mounts). Creating it needs root: :meth:`create` raises
    ``PermissionError`` or ``OSError`` with the reason otherwise.

    ``procs`` is the file a process writes its pid into to join the quota; ``outside`` the
    file of the cgroup this process was in, to leave it again (the reading side of a bench
    stays out of the quota). Both go to a bench's children in the environment
    (``BENCH_ZERO_PROCS``, ``BENCH_OUTSIDE_PROCS``)."""

    def __init__(self, path: Path, outside: Path, v2: bool):
        self.path, self.outside, self.v2 = path, outside, v2
        self.procs = path / "cgroup.procs"

    @classmethod
    def create(cls, quota_us: int = ZERO_QUOTA_US, period_us: int = ZERO_PERIOD_US) -> "CpuQuota":
        """Make the cgroup (``bench-zero-PID``) beside this process's own; raises
        ``OSError`` (``PermissionError`` without root) saying why it cannot."""
        root = Path("/sys/fs/cgroup")
        lines = Path("/proc/self/cgroup").read_text().splitlines()
        v1 = [ln.split(":", 2) for ln in lines if ln.count(":") >= 2]
        for _, controllers, rel in v1:
            names = controllers.split(",")
            if "cpu" in names:
                base = root / controllers
                if not base.is_dir():
                    base = root / "cpu"
                if not (base / "cpu.cfs_quota_us").exists():
                    continue
                own = base / rel.lstrip("/")
                path = own / f"bench-zero-{os.getpid()}"
                path.mkdir(exist_ok=True)
                (path / "cpu.cfs_period_us").write_text(str(period_us))
                (path / "cpu.cfs_quota_us").write_text(str(quota_us))
                return cls(path, own / "cgroup.procs", v2=False)
        for hier, controllers, rel in v1:
            if hier == "0" and controllers == "":
                for mount in (root, root / "unified"):
                    if "cpu" in (mount / "cgroup.controllers").read_text().split() if (mount / "cgroup.controllers").exists() else []:
                        own = mount / rel.lstrip("/")
                        path = own / f"bench-zero-{os.getpid()}"
                        path.mkdir(exist_ok=True)
                        (path / "cpu.max").write_text(f"{quota_us} {period_us}")
                        return cls(path, own / "cgroup.procs", v2=True)
        raise OSError("no cgroup CPU controller is mounted (neither v1 cpu.cfs_quota_us nor v2 cpu.max)")

    def env(self) -> dict:
        """What a bench process run under the quota finds in its environment."""
        return {"BENCH_ZERO": "1", "BENCH_ZERO_PROCS": str(self.procs), "BENCH_OUTSIDE_PROCS": str(self.outside)}

    def set(self, quota_us: int) -> None:
        """Give the processes ``quota_us`` of CPU time every period from now on."""
        if self.v2:
            period = (self.path / "cpu.max").read_text().split()[1]
            (self.path / "cpu.max").write_text(f"{quota_us} {period}")
        else:
            (self.path / "cpu.cfs_quota_us").write_text(str(quota_us))

    def throttled(self) -> tuple[int, float]:
        """``(periods throttled, seconds throttled)`` so far (cpu.stat)."""
        stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines() if line.strip())
        if self.v2:
            return int(stat.get("nr_throttled", 0)), int(stat.get("throttled_usec", 0)) / 1e6
        return int(stat.get("nr_throttled", 0)), int(stat.get("throttled_time", 0)) / 1e9

    def close(self) -> None:
        """Move anything left back outside and remove the cgroup."""
        try:
            for pid in self.procs.read_text().split():
                try:
                    self.outside.write_text(pid)
                except OSError:
                    pass
            self.path.rmdir()
        except OSError:
            pass


class PaceFollower:
    """Keeps a :class:`CpuQuota` at a Zero 2 W's speed while the host's speed changes: a
    thread measures the pace (:func:`pace_ms`, 200,000 additions, best of three) every
    ``every`` seconds and sets the quota to :func:`zero_quota_us` of it. ``settings`` is
    every ``(pace, quota_us)`` it used. Runs in the process that starts the benches,
    outside the quota, so its probe takes the other core for about 5-20 ms a second."""

    def __init__(self, quota: CpuQuota, every: float = 1.0):
        self.quota, self.every = quota, every
        self.settings: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def follow(self) -> None:
        """Set the quota for the pace now, and keep it set until :meth:`stop`."""
        self._stop.clear()
        self._set()
        self._thread = threading.Thread(target=self._run, name="pace-follower", daemon=True)
        self._thread.start()

    def _set(self) -> None:
        pace = pace_ms(200_000)
        quota = zero_quota_us(pace)
        self.quota.set(quota)
        self.settings.append((pace, quota))

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self._set()

    def stop(self) -> None:
        """Stop following; the quota stays at its last setting."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def summary(self, since: int = 0) -> str:
        """The paces and quotas used (from the ``since``-th setting on), in words: median
        and range."""
        settings = self.settings[since:]
        if not settings:
            return "no pace measured"
        paces = sorted(p for p, _ in settings)
        quotas = sorted(q for _, q in settings)
        return (f"pace {paces[len(paces) // 2]:.0f} ms median ({paces[0]:.0f}-{paces[-1]:.0f}), quota "
                f"{quotas[len(quotas) // 2] / 1000:.2f} ms median ({quotas[0] / 1000:.2f}-{quotas[-1] / 1000:.2f}) "
                f"of {ZERO_PERIOD_US / 1000:g} ms, {len(settings)} settings")


def join_quota(procs: str | None = None) -> Callable[[], None]:
    """A ``preexec_fn`` that puts the child into the CPU quota whose ``cgroup.procs`` is
    ``procs`` (default: this bench's, ``BENCH_ZERO_PROCS``); it does nothing outside ``--zero``.
    (A ``preexec_fn`` runs before the child's own environment is set, so the path is
    read here, in the parent.)"""
    procs = procs or os.environ.get("BENCH_ZERO_PROCS")

    def join() -> None:
        if procs:
            with open(procs, "w") as f:
                f.write(str(os.getpid()))
    return join


def leave_quota() -> None:
    """Take the calling process out of the bench's CPU quota (``preexec_fn`` of a child
    on the reading side); nothing outside ``--zero``."""
    outside = os.environ.get("BENCH_OUTSIDE_PROCS")
    if outside and ZERO:
        with open(outside, "w") as f:
            f.write(str(os.getpid()))


# ---------------------------------------------------------------- rows and the table

def row(metric: str, target: str, *, median: float | None = None, p99: float | None = None,
        unit: str = "ms", baseline: float | None = None, baseline_name: str = "",
        ratio: float | None = None, ok: bool | None = None, note: str = "", n: int | None = None,
        interval: tuple[float, float] | None = None, interval_of: str = "", unsure: bool = False,
        rounds: int | None = None) -> dict:
    """One line of the bench table. ``median``/``p99`` are the measured figures in
    ``unit``; ``baseline`` the baseline's median in the same unit, measured in the same
    run; ``ratio`` measured/baseline (computed from the medians when not given);
    ``ok`` True (PASS), False (FAIL) or None (information only, no target).

    A row judged with its confidence (:func:`judge`) also gives ``interval`` (``lo, hi``:
    the 95 % interval of what the target is about, ``interval_of`` says which figure:
    "ratio of medians", "p99", ...), ``unsure`` True when that interval straddles the
    target (``ok`` is then None and the table says UNSURE), and ``rounds`` (interleaved
    rounds it took)."""
    if ratio is None and baseline and median is not None:
        ratio = median / baseline
    return {"metric": metric, "target": target, "median": median, "p99": p99, "unit": unit,
            "baseline": baseline, "baseline_name": baseline_name, "ratio": ratio, "ok": ok,
            "note": note, "n": n, "interval": list(interval) if interval is not None else None,
            "interval_of": interval_of, "unsure": bool(unsure) and ok is None, "rounds": rounds}


def result(r: dict) -> str:
    """A row's result in the table: PASS, FAIL, UNSURE (its interval straddles the
    target) or info."""
    if r.get("unsure"):
        return "UNSURE"
    return {True: "PASS", False: "FAIL", None: "info"}[r.get("ok")]


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile by nearest rank (p99 of 150 values is the 149th smallest)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    k = max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[k]


def med(values: list[float]) -> float:
    return statistics.median(values) if values else math.nan


def _num(v: float | None, unit: str = "") -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if unit not in ("ms", "s", "%") and float(v).is_integer():
        return str(int(v))
    if unit == "MB" or abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}" if abs(v) >= 0.1 else f"{v:.3f}"


def format_table(rows: list[dict]) -> str:
    """The single table: metric, target, measured median and p99, baseline, ratio, result."""
    head = ["bench", "metric", "target", "median", "p99", "unit", "baseline (median)", "ratio", "95 % interval",
            "result"]
    lines = []
    for r in rows:
        base = "-" if r.get("baseline") is None else f"{_num(r['baseline'], r['unit'])} {r.get('baseline_name', '')}".strip()
        lines.append([r.get("bench", ""), r["metric"], r["target"], _num(r.get("median"), r["unit"]),
                      _num(r.get("p99"), r["unit"]), r["unit"], base,
                      "-" if r.get("ratio") is None else f"{r['ratio']:.2f}x", fmt_interval(r), result(r)])
    widths = [max(len(str(x[i])) for x in [head] + lines) for i in range(len(head))]
    out = [" | ".join(h.ljust(w) for h, w in zip(head, widths)), "-+-".join("-" * w for w in widths)]
    out += [" | ".join(str(c).ljust(w) for c, w in zip(line, widths)) for line in lines]
    notes = [f"  [{r.get('bench', '')}] {r['metric']}: {note(r)}" for r in rows if note(r)]
    return "\n".join(out + ([""] + notes if notes else []))


def note(r: dict) -> str:
    """A row's note, with what its interval is of and the rounds it took."""
    extra = ""
    if r.get("interval"):
        extra = f"interval: 95 % of {r.get('interval_of') or 'the figure'}"
        if r.get("rounds"):
            extra += f", {r['rounds']} interleaved rounds"
    return "; ".join(x for x in (r.get("note") or "", extra) if x)


def format_side_by_side(full: list[dict], zero: list[dict]) -> str:
    """The table of ``run.py --zero``: each row at this machine's speed and held to 1/8 of
    a core, side by side (a row only one pass gave shows ``-`` in the other)."""
    head = ["bench", "metric", "target", "median", "p99", "unit", "baseline (median)", "ratio", "95 % interval",
            "result", "1/8 core: target", "median", "p99", "baseline (median)", "ratio", "95 % interval", "result"]

    def cells(r):
        if r is None:
            return ["-"] * 7
        base = "-" if r.get("baseline") is None else f"{_num(r['baseline'], r['unit'])} {r.get('baseline_name', '')}".strip()
        return [r["target"], _num(r.get("median"), r["unit"]), _num(r.get("p99"), r["unit"]), base,
                "-" if r.get("ratio") is None else f"{r['ratio']:.2f}x", fmt_interval(r), result(r)]
    keys: list[tuple] = []
    by_full = {(r.get("bench", ""), r["metric"]): r for r in full}
    by_zero = {(r.get("bench", ""), r["metric"]): r for r in zero}
    for r in full + zero:
        k = (r.get("bench", ""), r["metric"])
        if k not in keys:
            keys.append(k)
    lines = []
    for k in keys:
        f, z = by_full.get(k), by_zero.get(k)
        c = cells(f)
        zc = cells(z)
        lines.append([k[0], k[1], c[0], c[1], c[2], (f or z)["unit"], c[3], c[4], c[5], c[6]] + zc)
    widths = [max(len(str(x[i])) for x in [head] + lines) for i in range(len(head))]
    out = [" | ".join(h.ljust(w) for h, w in zip(head, widths)), "-+-".join("-" * w for w in widths)]
    out += [" | ".join(str(c).ljust(w) for c, w in zip(line, widths)) for line in lines]
    notes = [f"  [{r.get('bench', '')}] {r['metric']}: {note(r)}" for r in full if note(r)]
    notes += [f"  [{r.get('bench', '')} at 1/8 core] {r['metric']}: {note(r)}" for r in zero if note(r)]
    return "\n".join(out + ([""] + notes if notes else []))


def main(rows_fn: Callable[..., list[dict]], name: str | None = None) -> int:
    """Run one bench alone: print its table; exit 1 if any target is missed."""
    quick = "--quick" in sys.argv[1:]
    rows = rows_fn(quick=quick)
    for r in rows:
        r.setdefault("bench", name or Path(sys.argv[0]).stem.removeprefix("bench_"))
    print(format_table(rows))
    return 1 if any(r.get("ok") is False for r in rows) else 0


# ---------------------------------------------------------------- verdicts with their confidence

#: The confidence of every interval in the table.
CONFIDENCE = 0.95
#: Bootstrap resamples per interval: enough for the 2.5th and 97.5th percentiles to move
#: by less than the table prints (about 0.01x on a ratio near 1 with a few hundred values).
BOOT_REPS = 1000


def _strata(samples) -> list[list[float]]:
    """``samples`` as rounds: a list of lists stays, a flat list is one round."""
    if samples and isinstance(samples[0], (list, tuple)):
        return [list(s) for s in samples if len(s)]
    return [list(samples)] if samples else []


def bootstrap_ratio(measured, baseline, stat: Callable[[list[float]], float] | None = None, *,
                    reps: int = BOOT_REPS, conf: float = CONFIDENCE, seed: int = 0) -> tuple[float, float]:
    """The ``conf`` percentile-bootstrap interval of ``stat(measured) / stat(baseline)``
    (``stat`` the median unless given). Distribution-free: it assumes nothing of how the
    values are spread, only that each side's values are exchangeable within a round.

    ``measured`` and ``baseline`` are lists of values, or lists of rounds (lists of values)
    interleaved with each other: each resample draws every round's values from that round
    alone (a stratified bootstrap), so an interleaved design keeps its pairing of
    conditions (a slow minute of the host weighs on both sides as it did). Seeded: the
    same values give the same interval. The ratio is NaN-free only when the baseline's
    ``stat`` is above 0 in every resample."""
    stat = stat or statistics.median
    m, b = _strata(measured), _strata(baseline)
    if not m or not b:
        return (math.nan, math.nan)
    rng = random.Random(seed)
    ratios = []
    for _ in range(reps):
        ms = [v for r in m for v in rng.choices(r, k=len(r))]
        bs = [v for r in b for v in rng.choices(r, k=len(r))]
        den = stat(bs)
        ratios.append(stat(ms) / den if den > 0 else math.inf)
    return _percentiles(ratios, conf)


def _percentiles(stats: list[float], conf: float) -> tuple[float, float]:
    """The ``conf`` percentile interval ``(lo, hi)`` of a bootstrap's resampled ``stats``."""
    stats = sorted(stats)
    reps, tail = len(stats), (1 - conf) / 2
    return (stats[max(0, int(math.floor(tail * reps)))], stats[min(reps - 1, int(math.ceil((1 - tail) * reps)) - 1)])


def _binom_cdf(k: int, n: int, q: float) -> float:
    """P(X <= k) for X ~ Binomial(n, q)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    total = 0.0
    lq, l1q = math.log(q), math.log1p(-q)
    for i in range(k + 1):
        total += math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lq + (n - i) * l1q)
    return min(1.0, total)


def quantile_interval(values: list[float], q: float, conf: float = CONFIDENCE) -> tuple[float, float, bool]:
    """``(lo, hi, capped)``: the distribution-free ``conf`` interval of the ``q``-quantile
    (0-1) from order statistics: ``[x_(l), x_(u)]`` with ``l`` and ``u`` from the binomial
    count of values below the quantile, no resampling and no assumption about the
    spread. With too few values for an upper end (a p99 of fewer than about 460 values
    at 95 %) ``hi`` is the worst value seen and ``capped`` is True: "every value seen was
    at most hi", which is what a PASS then says."""
    xs = sorted(values)
    n = len(xs)
    if not n:
        return (math.nan, math.nan, True)
    tail = (1 - conf) / 2
    lo_k = 0  # the largest l (1-based) with P(B <= l - 1) <= tail; 0: no lower end, the minimum
    for k in range(n, 0, -1):
        if _binom_cdf(k - 1, n, q) <= tail:
            lo_k = k
            break
    hi_k = n + 1  # the smallest u with P(B <= u - 1) >= 1 - tail; n + 1: none, capped
    for k in range(max(1, lo_k), n + 1):
        if _binom_cdf(k - 1, n, q) >= 1 - tail:
            hi_k = k
            break
    return (xs[max(0, lo_k - 1)], xs[min(n, hi_k) - 1], hi_k > n)


def block_quantile_interval(timed: list[tuple[float, float]], q: float, block_s: float, *,
                            reps: int = BOOT_REPS, conf: float = CONFIDENCE, seed: int = 0) -> tuple[float, float]:
    """The ``conf`` interval of the ``q``-quantile (0-1) of the values of ``timed``
    (``(when s, value)`` pairs, one run) by a block bootstrap: the run is cut into blocks
    of ``block_s`` seconds of ``when``, and each resample draws as many blocks, with
    replacement, as the run had. For values that come in spells (one stall of a host
    slows every value of its seconds): :func:`quantile_interval` takes the values as
    independent and gives an interval far too narrow for them, while whole blocks keep a
    spell together, so a run whose tail is one bad spell gets a wide interval. Seeded.
    With fewer than 2 blocks: ``(quantile, quantile)``."""
    if not timed:
        return (math.nan, math.nan)
    t0 = min(t for t, _ in timed)
    blocks: dict[int, list[float]] = {}
    for t, v in timed:
        blocks.setdefault(int((t - t0) // block_s), []).append(v)
    groups = list(blocks.values())
    if len(groups) < 2:
        x = pct([v for _, v in timed], q * 100)
        return (x, x)
    rng = random.Random(seed)
    return _percentiles([pct([v for g in rng.choices(groups, k=len(groups)) for v in g], q * 100)
                         for _ in range(reps)], conf)


def judge(lo: float, hi: float, limit: float, *, at_least: bool = False) -> tuple[bool | None, bool]:
    """``(ok, unsure)`` of a target "at most ``limit``" (``at_least``: "at least") from an
    interval ``[lo, hi]``: PASS only when the whole interval meets the target, FAIL only
    when none of it does, UNSURE (``ok`` None, ``unsure`` True) when it straddles."""
    if any(math.isnan(x) for x in (lo, hi)):
        return (False, False)
    if at_least:
        lo, hi, limit = -hi, -lo, -limit
    if hi <= limit:
        return (True, False)
    if lo > limit:
        return (False, False)
    return (None, True)


def fmt_interval(r: dict) -> str:
    """A row's interval as the table prints it: ``[lo, hi]``, with an ``x`` on a ratio."""
    iv = r.get("interval")
    if not iv:
        return "-"
    x = "x" if "ratio" in (r.get("interval_of") or "") else ""
    if x:
        return f"[{iv[0]:.2f}, {iv[1]:.2f}]x"
    return f"[{_num(iv[0], r.get('unit', ''))}, {_num(iv[1], r.get('unit', ''))}]"


def until_sure(one_round: Callable[[int], None], interval: Callable[[], tuple[float, float]], limit: float, *,
               min_rounds: int, max_rounds: int, at_least: bool = False,
               budget_s: float | None = None) -> dict:
    """Run ``one_round(i)`` (one interleaved round of measured and baseline; it keeps its
    own values) ``min_rounds`` times, then one more at a time until ``interval()`` lies
    clear of ``limit`` (PASS or FAIL), ``max_rounds`` are done, or ``budget_s`` seconds
    have gone. Returns the fields :func:`row` takes: ``ok``, ``unsure``, ``interval``,
    ``rounds``. The interval is worked out outside the CPU quota (:func:`full_speed`)."""
    t0 = time.monotonic()
    done = 0
    while True:
        one_round(done)
        done += 1
        if done < min_rounds:
            continue
        with full_speed():
            lo, hi = interval()
        ok, unsure = judge(lo, hi, limit, at_least=at_least)
        over = budget_s is not None and time.monotonic() - t0 >= budget_s
        if not unsure or done >= max_rounds or over:
            return {"ok": ok, "unsure": unsure, "interval": (lo, hi), "rounds": done}


class full_speed:
    """``with full_speed():`` runs its block with this whole process out of the bench's
    CPU quota, then back in (nothing outside ``--zero``): for work a bench does that the
    speed does not change and that no table does (building a recorded game's store,
    replaying a trace to know its buttons, working out an interval), so that the 1/8-core
    pass spends its time only on what it measures."""

    def __enter__(self):
        self.moved = bool(ZERO and os.environ.get("BENCH_OUTSIDE_PROCS") and os.environ.get("BENCH_ZERO_PROCS"))
        if self.moved:
            with open(os.environ["BENCH_OUTSIDE_PROCS"], "w") as f:
                f.write(str(os.getpid()))
        return self

    def __exit__(self, *exc):
        if self.moved:
            with open(os.environ["BENCH_ZERO_PROCS"], "w") as f:
                f.write(str(os.getpid()))
        return False


def ratio_row(metric: str, target: str, measured, baseline, limit: float, *, unit: str = "ms",
              baseline_name: str = "", note: str = "", stat_name: str = "median", seed: int = 0,
              judged: dict | None = None) -> dict:
    """A row whose target is "stat(measured) <= ``limit`` x stat(baseline)" (the median),
    judged by its bootstrap interval (:func:`bootstrap_ratio`); ``judged`` the result of
    :func:`until_sure` when the rounds were run that way. Values are lists or rounds."""
    flat_m = [v for r in _strata(measured) for v in r]
    flat_b = [v for r in _strata(baseline) for v in r]
    if judged is None:
        with full_speed():
            lo, hi = bootstrap_ratio(measured, baseline, seed=seed)
        ok, unsure = judge(lo, hi, limit)
        rounds = len(_strata(measured))
        judged = {"ok": ok, "unsure": unsure, "interval": (lo, hi), "rounds": rounds if rounds > 1 else None}
    m, b = med(flat_m), med(flat_b)
    return row(metric, target, median=m, p99=pct(flat_m, 99), unit=unit, baseline=b, baseline_name=baseline_name,
               ratio=m / b if b else None, ok=judged["ok"], unsure=judged["unsure"], interval=judged["interval"],
               interval_of=f"ratio of {stat_name}s", rounds=judged["rounds"], n=len(flat_m), note=note)


def quantile_verdict(values: list[float], limit: float, q: float = 0.99) -> dict:
    """The :func:`row` fields of a target "the ``q`` quantile at most ``limit``" judged by
    its distribution-free interval (:func:`quantile_interval`): PASS when the interval's
    upper end (the worst value, for too few values) is within, FAIL when its lower end
    is over, UNSURE between."""
    if not values:
        return {"ok": False, "unsure": False, "interval": None, "interval_of": ""}
    lo, hi, capped = quantile_interval(values, q)
    ok, unsure = judge(lo, hi, limit)
    name = f"p{q * 100:g}" + (" (upper end: the worst)" if capped else "")
    return {"ok": ok, "unsure": unsure, "interval": (lo, hi), "interval_of": name}


# ---------------------------------------------------------------- traces

def trace_inputs(path: Path):
    """``(trace, [(t, kind, value)])``: every input of a recorded trace in order; ``kind``
    is ``"scan"`` (value the code, split reads joined), ``"touch"`` (the command) or
    ``"accel"`` (value the ``(device, (x, y, z))`` sample)."""
    from companion.table.trace import read

    trace = read(path)
    out, pending = [], {}
    for record in trace.records:
        if record.kind == "touch":
            out.append((record.t, "touch", record.command))
        elif record.kind == "accel":
            out.append((record.t, "accel", (record.device, record.g)))
        else:
            data = pending.pop(record.device, b"") + record.data
            if not data.endswith((b"\r", b"\n")):
                pending[record.device] = data
                continue
            for code in data.replace(b"\r", b"\n").split(b"\n"):
                if code:
                    out.append((record.t, "scan", code.decode("latin-1")))
    return trace, out


def demo_trace(slug: str) -> Path:
    """The demo trace of a registered game in tests/data (``<slug>-family.trace``)."""
    return DATA / f"{slug}-family.trace"


# ---------------------------------------------------------------- a table, end to end

class Table:
    """One table as ``companion run --log-format json`` builds it, in this process: an
    on-disk store (WAL, synchronous=FULL), the real :class:`Session`, a real
    :class:`SerialScanner` on a pseudo-terminal, the real :class:`Runner` with an
    :class:`App` (SDL dummy driver, 800x480) on the main thread, and the real
    ``json_logger`` writing into a pipe that a thread reads back.

    ``run(driver)`` runs ``driver(table)`` in a thread while the main thread runs
    ``runner.loop()`` (with its own default wait); the loop stops when the driver returns. The driver sends inputs
    with :meth:`scan` / :meth:`click` and waits for their lines with :meth:`next_verdict`.
    Every verdict line read back is kept in :attr:`lines` as ``(perf_counter, record)``;
    every finished frame in :attr:`frames` as ``(perf_counter after the flip, verdicts
    handled before it was drawn)``.
    """

    def __init__(self, game: str, players: list[str], options: dict | None = None, *, tap_off: float = 1.0,
                 window: bool = True, tmp: str | None = None, known: dict | None = None):
        from companion.core.clock import SystemClock
        from companion.core.events import DeviceStatus
        from companion.core.store import EventStore
        from companion.devices.emulated.serial_scanner import PtyScanner
        from companion.devices.scan.serial import SerialScanner
        from companion.table.logs import json_logger
        from companion.table.runner import Runner
        from companion.table.session import Session

        self._framed = threading.Condition()  # notified after each frame (no polling in the measured process)
        self._tmp = tempfile.TemporaryDirectory(prefix="bench-table-", dir=tmp)
        self.db = Path(self._tmp.name) / "table.db"
        self.clock = SystemClock()
        self.store = EventStore(str(self.db))
        self.session = Session.start(game, players, self.store, self.clock, resume=False, options=options,
                                     tap_off=tap_off)
        self._reader = LogReader()
        self._log = self._reader.sink
        self.session.listeners.append(json_logger(self._log))
        self.handled = 0  # inputs with a verdict so far (counted on the loop's thread)
        self.session.listeners.append(self._count)
        self.app = None
        if window:
            from companion.ui.app import App

            self.app = App()
            show = self.app.show

            def timed_show(draw, _show=show):
                handled = self.handled
                _show(draw)
                with self._framed:
                    self.frames.append((time.perf_counter(), handled))
                    self._framed.notify_all()
                for b in self.app.buttons:
                    self.known.setdefault(b.command, b.rect)
            self.app.show = timed_show
            hit = self.app.hit

            def counted_hit(pos, _hit=hit):
                command = _hit(pos)
                if command is None:
                    self.missed_hits += 1
                return command
            self.app.hit = counted_hit
        self.runner = Runner(self.session, self.clock, app=self.app)
        self.touchscreen = self.watch = None
        if window:
            # The touchscreen as on the Pi: taps queued in SDL, and a device file that the
            # InputWatch sees become readable and wakes the loop (as `companion run` does).
            from companion.devices.emulated.touch import EmulatedTouchscreen
            from companion.ui.wakeup import InputWatch

            self.watch = InputWatch(self.runner.wake, pattern="/nonexistent/bench/event*").start()
            # Taps reach SDL when the loop pumps its events, as kmsdrm reads them on the Pi.
            self.touchscreen = EmulatedTouchscreen(self.app.size).attach(self.watch, app=self.app)
            self.runner.watch = self.watch
        # Where an input's time goes: put on the queue (by a reader thread, or by the loop
        # for a touch), taken by the loop into Session.handle, handled (the log line is
        # written inside). perf_counter of the last input's each.
        self.stamps: dict[str, float] = {}
        inputs, handle = self.runner.inputs, self.session.handle

        def timed_put(item, *args, _put=inputs.put, **kw):
            if not isinstance(item, DeviceStatus):
                self.stamps["put"] = time.perf_counter()
            return _put(item, *args, **kw)

        def timed_handle(item, _handle=handle):
            if isinstance(item, DeviceStatus):
                return _handle(item)
            self.stamps["handle"] = time.perf_counter()
            cpu = time.thread_time()
            try:
                return _handle(item)
            finally:
                self.stamps["handled"] = time.perf_counter()
                self.stamps["handle_cpu"] = time.thread_time() - cpu  # the rest is waiting (fsync, a core)
        inputs.put = timed_put
        self.session.handle = timed_handle
        self.pty = PtyScanner()
        if os.environ.get("BENCH_ZERO"):
            # The scanner's stamping process stands for work on another of the Pi's four
            # cores (it reads and stamps, about 0.05 ms a scan): out of the table's quota.
            from companion.devices.scan.stamper import Stamper

            Stamper.preexec_fn = leave_quota
        self.scanner = SerialScanner(self.pty.path, self.runner.inputs, self.clock, name="scanner", stamped=True)
        self.verdicts: "queue.Queue[tuple[float, dict]]" = queue.Queue()
        self.lines: list[tuple[float, dict]] = []
        self.frames: list[tuple[float, int]] = []
        self.known: dict = dict(known or {})  # command -> the rect it was last drawn at
        self.missed_hits = 0  # presses the window found no button under
        threading.Thread(target=self._read_log, daemon=True, name="bench-log").start()
        self.scanner.start()

    def _count(self, item, verdict) -> None:
        if verdict is not None:
            self.handled += 1

    def _read_log(self) -> None:
        for t, record in self._reader.lines():
            if "verdict" in record:
                self.lines.append((t, record))
                self.verdicts.put((t, record))

    # -- inputs (from the driver thread) --------------------------------------------

    def scan(self, code: str, terminator: bytes = b"\r\n") -> float:
        """Write a code into the scanner's pseudo-terminal; returns perf_counter before."""
        t0 = time.perf_counter()
        self.pty.send(code.encode("latin-1") + terminator)
        return t0

    def button(self, command: str, wait: float = 2.0):
        """The rect of the button for ``command`` on the screen now (waits for a redraw)."""
        end = time.monotonic() + wait
        with self._framed:
            while True:
                for b in list(self.app.buttons):
                    if b.command == command:
                        return b.rect
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self._framed.wait(left)  # the buttons change with a frame

    def click(self, command: str, finger: bool = False, wait: float = 0.2) -> float | None:
        """Post a press and release on the button for ``command`` (opening its menu first
        for ``swap N``); returns perf_counter before the press, None if no such button.

        A button not on the screen now is pressed where it was last drawn (``known``,
        e.g. from :func:`button_map`), as a quick hand would, except a menu's button:
        its menu is opened first and the press waits for the menu to be drawn. The press
        comes from :attr:`touchscreen` (an emulated touchscreen the loop's InputWatch reads)."""
        rect = self.button(command, wait=wait)
        opener = command.split()[0]
        if rect is None and " " in command and (self.button(opener, wait=0) is not None or opener in self.known):
            # A menu's button: open its menu (where its opener is drawn, or was last drawn:
            # the frame after the input before may not be drawn yet) and wait for the menu,
            # never pressing where the menu's button once was with the menu shut.
            self.click(opener)
            rect = self.button(command)
            if rect is None:
                return None
        if rect is None:
            rect = self.known.get(command)
        if rect is None:
            return None
        x, y = rect.center
        t0 = time.perf_counter()
        self.touchscreen.tap(x, y, finger=finger)
        return t0

    def next_verdict(self, timeout: float = TIMEOUT) -> tuple[float, dict] | None:
        try:
            return self.verdicts.get(timeout=timeout)
        except queue.Empty:
            return None

    def frame_showing(self, k: int, wait: float = 1.0) -> float | None:
        """When the first frame drawn after the ``k``-th verdict finished (perf_counter),
        waiting up to ``wait`` s for it."""
        end = time.monotonic() + wait
        with self._framed:
            while True:
                later = [f for f, handled in self.frames[-8:] if handled >= k]
                if later:
                    return later[0]
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self._framed.wait(left)  # woken by the next frame: no polling beside the loop

    # -- running ---------------------------------------------------------------------

    def run(self, driver: Callable[["Table"], object], frame: float | None = None):
        """Run ``driver(self)`` in a thread while the main thread runs the loop; returns
        what the driver returned. An exception in the driver is raised here."""
        result: dict = {}

        def go():
            try:
                result["value"] = driver(self)
            except BaseException as exc:  # noqa: BLE001 - handed to the main thread
                result["error"] = exc
            finally:
                self.runner.stop()
        thread = threading.Thread(target=go, daemon=True, name="bench-driver")
        thread.start()
        if frame is None:
            self.runner.loop()  # the loop's own wait, as `companion run` uses it
        else:
            self.runner.loop(frame)
        thread.join()
        if "error" in result:
            raise result["error"]
        return result.get("value")

    def close(self) -> None:
        if self.watch is not None:
            self.watch.stop()
            self.touchscreen.close()
        self.scanner.stop()
        self.pty.close()
        if self.app is not None:
            self.app.close()
        self._log.close()
        self._reader.close()
        self.store.close()
        self._tmp.cleanup()


class LogReader:
    """Reads a JSON log back in **another process**, as anything watching the companion's
    log would, so the reading never competes with the loop for this process's GIL. The
    reader stamps each line with ``time.perf_counter()`` (CLOCK_MONOTONIC on Linux: the same
    clock in every process) when it arrives; :meth:`lines` yields ``(stamp, record)``.
    Write the log into :attr:`sink`."""

    CHILD = ("import sys, time\n"
             "for line in sys.stdin:\n"
             "    sys.stdout.write(repr(time.perf_counter()) + ' ' + line)\n"
             "    sys.stdout.flush()\n")

    def __init__(self):
        import subprocess

        # Under --zero the reader leaves the CPU quota: it stands for whatever watches the
        # log on the Pi, not for the table.
        self.proc = subprocess.Popen([sys.executable, "-u", "-c", self.CHILD], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1, preexec_fn=leave_quota)
        self.sink = self.proc.stdin

    def lines(self):
        for text in self.proc.stdout:
            stamp, _, body = text.partition(" ")
            yield float(stamp), json.loads(body)

    def close(self) -> None:
        try:
            self.sink.close()
        except OSError:
            pass
        self.proc.wait(timeout=5)


def button_map(path: Path) -> dict:
    """Every touch command of a replayed trace -> the rect its button was drawn at (the
    first time). Replays the trace headless through the real Runner and App."""
    from companion.table.replay import replay
    from companion.ui.app import App

    seen: dict = {}
    show = App.show

    def record(self, draw):
        show(self, draw)
        for b in self.buttons:
            seen.setdefault(b.command, b.rect)
    App.show = record
    try:
        replay(path, window=True)
    finally:
        App.show = show
    return seen


def as_tapped_today(path: Path) -> tuple[list, dict, dict]:
    """The recorded game's inputs as a hand tapping today's screen gives them:
    ``(inputs, known, check)``.

    A trace stores each touch as the command its button sent then. The mixed run taps
    the *place* where that button was drawn, and what a place means can change with the
    screen: since Sugarrr! plays a waiting card with one tap on a column it fits, the
    column the family tapped (``column 4``, then a second scan of the card) is the
    ``place 4`` button now. The inputs are played here one at a time, in order, through
    a real Session and Runner with an App (nothing racing): each touch becomes the
    command of the button drawn at the same place at that moment (the one the recorded
    command had, else where it was first drawn). Where such a tap now plays the card
    that was waiting, the recorded steps that the old screen needed to play it (up to
    and including the second scan of that card, which only chose again or were refused
    there) are left out: today the family would not make them. ``known`` maps every
    command to where it was drawn; ``check`` says whether this game ends in the
    recording's state (``same``: it is the same game), how many touches were renamed,
    inputs left out, or touches hit no button, ``verdicts``: this game's verdicts in
    order, ``(kind, code or command, verdict)``, the reference a bench's live game is
    held to, and ``menus``: for a button inside a menu (``swap 2``), where its menu's
    opener was drawn and where the button was drawn with the menu open."""
    from companion.core.clock import FakeClock
    from companion.core.events import CardScanned
    from companion.core.store import EventStore
    from companion.table.replay import replay
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.table.verdicts import state_digest
    from companion.ui.app import App

    trace, inputs = trace_inputs(path)
    first = button_map(path)
    clock = FakeClock(0.0)
    session = Session.start(trace.game, list(trace.players), EventStore(":memory:"), clock, resume=False,
                            options=trace.options)
    verdicts: list[tuple] = []

    def listen(item, verdict):
        if verdict is not None:
            is_scan = isinstance(item, CardScanned)
            verdicts.append(("scan" if is_scan else "touch", verdict.code if is_scan else item.command, verdict.verdict))
    session.listeners.append(listen)
    runner = Runner(session, clock, app=App())
    known: dict = {}
    menus: dict = {}  # a menu's command -> (its opener's rect, its own rect in the open menu)
    out, renamed, nothing, dropped, skip = [], 0, 0, 0, None
    try:
        for t, kind, value in inputs:
            if skip is not None:  # the old screen's way to play the card a tap played today
                dropped += 1
                skip = None if (kind, value) == ("scan", skip) else skip
                continue
            clock.set(t)
            runner.render()
            drawn = {b.command: b.rect for b in runner.app.buttons}
            for command, rect in drawn.items():
                known.setdefault(command, rect)
            if kind == "scan":
                session.handle(CardScanned(value, "scanner", t))
            elif kind == "touch":
                if value not in drawn and value.split()[0] in drawn:  # a menu's button: the driver opens it
                    out.append((t, kind, value))
                    runner.touch(value.split()[0], now=True)
                    runner.render()
                    inside = {b.command: b.rect for b in runner.app.buttons}
                    if value in inside:
                        menus[value] = (drawn[value.split()[0]], inside[value])
                    runner.touch(value, now=True)
                    continue
                rect = drawn.get(value) or first.get(value)
                now = runner.app.hit(rect.center) if rect is not None else None
                if now is None:
                    nothing += 1
                    continue
                waiting = getattr(session.entry, "card", None)
                out.append((t, kind, now))
                runner.touch(now, now=True)
                if now != value:
                    renamed += 1
                    if waiting is not None and getattr(session.entry, "card", None) is None:
                        skip = waiting
                continue
            out.append((t, kind, value))
        same = state_digest(session.state) == state_digest(replay(path, window=False).session.state)
    finally:
        runner.app.close()
    return out, known, {"same": same, "renamed": renamed, "nothing": nothing, "dropped": dropped,
                        "verdicts": verdicts, "menus": menus}


def gaps(n: int, low: float, high: float, seed: int) -> list[float]:
    """``n`` seeded random gaps between inputs, uniform in [low, high] seconds."""
    rng = random.Random(seed)
    return [rng.uniform(low, high) for _ in range(n)]


class WalCommit:
    """One SQLite file in WAL mode with synchronous=FULL, as the store opens it: the
    baseline's commit (one row inserted and committed)."""

    def __init__(self, directory: str):
        import sqlite3

        self.path = Path(tempfile.mkstemp(prefix="baseline-", suffix=".db", dir=directory)[1])
        self.path.unlink()
        self.db = sqlite3.connect(str(self.path), isolation_level=None,
                                  check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS inputs (seq INTEGER PRIMARY KEY, t REAL, body TEXT)")
        self.n = 0

    def commit(self, body: str) -> None:
        self.n += 1
        self.db.execute("BEGIN")
        self.db.execute("INSERT INTO inputs (t, body) VALUES (?, ?)", (time.time(), body))
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()
