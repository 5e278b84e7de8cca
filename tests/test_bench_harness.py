"""``make bench``'s harness (bench/run.py, bench/benchlib.py): one table, a FAIL row for a
missed target or a crashed bench, legacy scripts still run, exit 1 when anything FAILs."""

import sys
import time
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import benchlib  # noqa: E402
import run  # noqa: E402
from bench_scan_burst import first_out_of_order, lcs  # noqa: E402


def test_p99_is_the_nearest_rank():
    assert benchlib.pct(list(range(1, 101)), 99) == 99
    assert benchlib.pct([3.0, 1.0, 2.0], 99) == 3.0  # a handful of values: the worst
    assert benchlib.pct(list(range(1, 101)), 50) == 50


def test_out_of_order_counts_inputs_not_in_the_longest_common_order():
    sent = ["a", "b", "c", "d"]
    assert len(sent) - lcs(sent, ["a", "b", "c", "d"]) == 0
    assert len(sent) - lcs(sent, ["b", "a", "c", "d"]) == 1  # a touch handled after the next scan
    assert len(sent) - lcs(sent, ["a", "c", "d"]) == 1  # or one lost


def test_the_mixed_note_names_where_the_order_first_broke():
    sent = [("scan", "A"), ("touch", "done"), ("scan", "B")]
    assert first_out_of_order(sent, sent, [0.0, 0.02, 0.04]) == ""
    swapped = first_out_of_order(sent, [sent[1], sent[0], sent[2]], [0.0, 0.0007, 0.04])
    assert "input 2 (a touch) handled before input 1 (a scan)" in swapped and "0.7 ms" in swapped
    assert first_out_of_order(sent, [sent[0], sent[2]], [0.0, 0.02, 0.04]) == (
        "first: input 2 (touch done) never logged; in its place scan B")


def test_the_table_has_every_column_and_says_pass_fail_info():
    rows = [benchlib.row("scan", "p99 <= 8 ms", median=2.0, p99=7.5, baseline=1.0, baseline_name="pty", ok=True),
            benchlib.row("touch", "p99 <= 16.7 ms", median=20.0, p99=33.0, ok=False, note="slow"),
            benchlib.row("rss", "-", median=38.0, unit="MB")]
    text = benchlib.format_table(rows)
    head = text.splitlines()[0]
    for column in ("metric", "target", "median", "p99", "baseline", "ratio", "result"):
        assert column in head
    assert "2.00x" in text and "PASS" in text and "FAIL" in text and "info" in text and "slow" in text


def write(folder, name, text):
    (folder / name).write_text(text)


def test_the_harness_runs_every_bench_and_exits_1_on_a_fail(tmp_path, capsys):
    write(tmp_path, "bench_good.py", "from benchlib import row\n"
          "def rows(quick=False):\n    return [row('fast thing', '<= 1 ms', median=0.5, ok=True)]\n")
    write(tmp_path, "bench_slow.py", "from benchlib import row\n"
          "def rows(quick=False):\n    return [row('slow thing', '<= 1 ms', median=5.0, ok=quick)]\n")
    write(tmp_path, "bench_crash.py", "def rows(quick=False):\n    raise RuntimeError('boom')\n")
    write(tmp_path, "bench_legacy.py", "print('legacy ran')\n")
    write(tmp_path, "helper.py", "raise SystemExit('not a bench: never run')\n")
    assert run.main(["--dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    lines = {line.split("|")[0].strip(): line for line in out.splitlines() if "|" in line}
    assert "PASS" in lines["good"] and "FAIL" in lines["slow"]
    assert "FAIL" in lines["crash"] and "boom" in out
    assert "PASS" in lines["legacy"] and "not in the row protocol" in lines["legacy"]
    assert "helper" not in lines
    assert run.main(["--dir", str(tmp_path), "--only", "good,legacy"]) == 0
    assert run.main(["--dir", str(tmp_path), "--only", "slow", "--quick"]) == 0  # quick reaches the bench


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCH.glob("bench_*.py")))
def test_every_bench_here_follows_the_protocol(name):
    """Each bench in this repository gives rows, so its targets decide PASS/FAIL in the
    table."""
    assert run.has_rows(BENCH / f"{name}.py")


def test_the_side_by_side_table_shows_both_speeds_and_a_row_only_one_pass_gave():
    full = [dict(benchlib.row("scan", "p99 <= 8 ms", median=2.0, p99=7.5, ok=True), bench="scan")]
    zero = [dict(benchlib.row("scan", "p99 <= 33 ms", median=9.0, p99=30.0, ok=True), bench="scan"),
            dict(benchlib.row("cold start", "p99 <= 1.5 s", median=1200.0, ok=False), bench="resume")]
    text = benchlib.format_side_by_side(full, zero)
    head, _, scan, cold = text.splitlines()[:4]
    assert "1/8 core: target" in head
    assert "p99 <= 8 ms" in scan and "p99 <= 33 ms" in scan and "7.50" in scan and "30.0" in scan
    assert cold.split("|")[8].strip() == "-" and "FAIL" in cold  # no full-speed figures for it


def test_zero_without_a_quota_says_why_and_exits_2(tmp_path, monkeypatch, capsys):
    write(tmp_path, "bench_good.py", "from benchlib import row\n"
          "def rows(quick=False):\n    return [row('fast thing', '<= 1 ms', median=0.5, ok=True)]\n")

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied", "/sys/fs/cgroup/cpu/bench-zero")
    monkeypatch.setattr(run.CpuQuota, "create", classmethod(lambda cls, *a, **k: refuse()))
    assert run.main(["--dir", str(tmp_path), "--zero"]) == 2
    assert "1/8 of a core" in capsys.readouterr().err


def _can_make_a_quota() -> bool:
    try:
        benchlib.CpuQuota.create().close()
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _can_make_a_quota(), reason="needs root and a cgroup CPU controller")
def test_zero_runs_the_bench_inside_the_quota_and_the_log_reader_outside(tmp_path, capsys):
    write(tmp_path, "bench_where.py", "import os\nfrom benchlib import LogReader, ZERO, row\n"
          "def inside(pid='self'):\n"
          "    return 'bench-zero-' in open(f'/proc/{pid}/cgroup').read()\n"
          "def rows(quick=False):\n"
          "    reader = LogReader()\n"
          "    out = inside(reader.proc.pid)\n"
          "    reader.close()\n"
          "    return [row('bench in the quota', 'only at 1/8', ok=inside() == ZERO, unit='-'),\n"
          "            row('log reader outside', 'always', ok=not out, unit='-')]\n")
    assert run.main(["--dir", str(tmp_path), "--zero"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("where")]
    assert len(rows) == 2 and all(line.count("PASS") == 2 for line in rows)  # both speeds, side by side
    assert "load average" in out


def test_the_mixed_run_taps_the_family_game_as_todays_screen_reads_it(tmp_path):
    """The mixed 50/s row taps the places where the recorded family game's buttons were
    drawn. Tapped one at a time (nothing racing) on today's screen, each tap must be the
    command the driver names, every tap must hit a button, and the game must end where
    the family's ended: otherwise the row counts a changed screen as inputs out of order
    (the recorded 'column 4' after a scan is 'place 4' today)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.core.clock import FakeClock
    from companion.core.events import CardScanned
    from companion.core.store import EventStore
    from companion.table.replay import replay
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.table.verdicts import state_digest
    from companion.ui.app import App

    path = benchlib.demo_trace("sugarrr")
    trace, _ = benchlib.trace_inputs(path)
    inputs, known, check = benchlib.as_tapped_today(path)
    clock = FakeClock(0.0)
    session = Session.start(trace.game, list(trace.players), EventStore(str(tmp_path / "t.db")), clock,
                            resume=False, options=trace.options)
    heard = []
    session.listeners.append(lambda item, verdict: verdict is not None and heard.append(item))
    runner = Runner(session, clock, app=App())
    try:
        for t, kind, value in inputs:
            clock.set(t)
            if kind == "scan":
                session.handle(CardScanned(value, "scanner", t))
                continue
            runner.render()
            drawn = {b.command: b.rect for b in runner.app.buttons}
            if value not in drawn and value.split()[0] in drawn:  # a menu's button: open the menu first
                runner.app.pointer("press", drawn[value.split()[0]].center)
                runner.touch(value.split()[0], now=True)
                runner.render()
                drawn = {b.command: b.rect for b in runner.app.buttons}
            rect = drawn.get(value) or known.get(value)
            assert rect is not None, value
            assert runner.app.hit(rect.center) == value
            runner.touch(value, now=True)
        recorded = replay(path, window=False).session.state
        assert state_digest(session.state) == state_digest(recorded)
        assert len(heard) == len(inputs)  # one verdict each: no tap fell on nothing
        assert check["same"] and check["nothing"] == 0
    finally:
        runner.app.close()


def test_the_summary_gives_the_pace_measured_at_the_start_not_before_the_last_bench(tmp_path, capsys, monkeypatch):
    for name in ("bench_a.py", "bench_b.py"):
        write(tmp_path, name, "from benchlib import row\n"
              "def rows(quick=False):\n    return [row('thing', '<= 1 ms', median=0.5, ok=True)]\n")
    paces = iter(range(1, 100))  # each measure numbered (ms): the run's first is 1
    monkeypatch.setattr(run, "pace", lambda: next(paces))
    assert run.main(["--dir", str(tmp_path)]) == 0
    summary = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("load average"))
    assert "1 ms at the start" in summary and "6 ms at the end" in summary, summary


def test_the_zero_quota_is_in_proportion_to_the_hosts_pace():
    ref, q = benchlib.REFERENCE_PACE_MS, benchlib.ZERO_QUOTA_US
    assert benchlib.zero_quota_us(ref) == q
    assert benchlib.zero_quota_us(2 * ref) == 2 * q  # a host half as fast: twice the CPU time, the same Zero
    assert benchlib.zero_quota_us(0.75 * ref) == int(0.75 * q)
    assert benchlib.zero_quota_us(0.1 * ref) == q // 2  # never less than half the quota
    assert benchlib.zero_quota_us(100 * ref) == benchlib.ZERO_PERIOD_US  # nor more than the whole period


def test_the_pace_follower_sets_the_quota_as_the_pace_changes_and_again_after_a_stop(monkeypatch):
    class Quota:
        def __init__(self):
            self.set_to = []

        def set(self, quota_us):
            self.set_to.append(quota_us)

    paces = iter([21.0, 42.0, 63.0, 84.0, 21.0, 42.0] + [42.0] * 100)
    monkeypatch.setattr(benchlib, "pace_ms", lambda *a, **k: next(paces))
    quota = Quota()
    follower = benchlib.PaceFollower(quota, every=0.01)
    def wait_for(n):
        deadline = time.monotonic() + 5
        while len(quota.set_to) < n and time.monotonic() < deadline:
            time.sleep(0.005)
    follower.follow()
    wait_for(4)
    follower.stop()
    assert quota.set_to[:4] == [1250, 2500, 3750, 5000]
    kept = len(quota.set_to)
    time.sleep(0.05)
    assert len(quota.set_to) == kept  # stopped: the quota stays
    follower.follow()  # the next bench: it follows again
    wait_for(kept + 2)
    follower.stop()
    assert len(quota.set_to) >= kept + 2
    assert "quota" in follower.summary() and follower.summary(kept).endswith(f"{len(quota.set_to) - kept} settings")


@pytest.mark.skipif(not _can_make_a_quota(), reason="needs root and a cgroup CPU controller")
@pytest.mark.parametrize("fixed", [False, True])
def test_a_bench_at_one_eighth_runs_under_the_quota_the_pace_calls_for(tmp_path, capsys, monkeypatch, fixed):
    write(tmp_path, "bench_quota.py", "from benchlib import ZERO, row\n"
          "def quota():\n"
          "    line = next(l for l in open('/proc/self/cgroup') if 'bench-zero-' in l)\n"
          "    rel = line.strip().split(':', 2)[2]\n"
          "    for base in ('/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct', '/sys/fs/cgroup'):\n"
          "        try:\n"
          "            return open(base + rel + '/cpu.cfs_quota_us').read().split()[0]\n"
          "        except OSError:\n"
          "            try:\n"
          "                return open(base + rel + '/cpu.max').read().split()[0]\n"
          "            except OSError:\n"
          "                pass\n"
          "def rows(quick=False):\n"
          "    return [row('quota ' + (quota() if ZERO else 'none'), 'any', ok=True, unit='-')]\n")
    monkeypatch.setattr(benchlib, "pace_ms", lambda *a, **k: 2 * benchlib.REFERENCE_PACE_MS)
    assert run.main(["--dir", str(tmp_path), "--zero-only"] + (["--fixed-quota"] if fixed else [])) == 0
    out = capsys.readouterr().out
    assert ("quota 1250 " if fixed else "quota 2500 ") in out, out
    assert ("(--fixed-quota)" if fixed else "followed the host's pace") in out


def test_the_bootstrap_interval_of_a_ratio_of_medians_is_seeded_and_covers_the_truth():
    import random

    rng = random.Random(3)
    base = [rng.lognormvariate(0, 0.3) for _ in range(400)]
    same = [rng.lognormvariate(0, 0.3) for _ in range(400)]
    twice = [2 * rng.lognormvariate(0, 0.3) for _ in range(400)]
    lo, hi = benchlib.bootstrap_ratio(same, base, reps=400)
    assert lo < 1.0 < hi and hi - lo < 0.2
    lo, hi = benchlib.bootstrap_ratio(twice, base, reps=400)
    assert 1.8 < lo < 2.0 < hi < 2.2
    assert benchlib.bootstrap_ratio(twice, base, reps=400) == (lo, hi)  # seeded
    rounds = [twice[:200], twice[200:]], [base[:200], base[200:]]  # stratified by interleaved round
    lo, hi = benchlib.bootstrap_ratio(*rounds, reps=400)
    assert lo < 2.0 < hi


def test_the_quantile_interval_is_from_order_statistics_and_capped_by_the_worst_when_too_few():
    values = list(range(1, 1001))
    lo, hi, capped = benchlib.quantile_interval(values, 0.99)
    assert 980 <= lo < 990 < hi <= 1000 and not capped
    lo, hi, capped = benchlib.quantile_interval(values[:156], 0.99)
    assert capped and hi == 156 and lo < 156
    lo, hi, capped = benchlib.quantile_interval([float(x) for x in range(1, 11)], 0.5)
    assert (lo, hi, capped) == (2.0, 9.0, False)  # the median of 10: x(2) to x(9), 97.9 %


def test_the_block_interval_of_a_p99_widens_for_one_bad_spell_where_order_statistics_do_not():
    # 150 s of updates, 100 a second, 100-110 ms, and one 2 s stall of the host adding 500 ms
    timed = [(i / 100, 0.100 + 0.010 * ((i * 7) % 11) / 10) for i in range(15000)]
    lo, hi = benchlib.block_quantile_interval(timed, 0.99, 10.0, reps=300)
    assert 0.100 <= lo <= hi <= 0.110  # steady: a tight interval
    stalled = [(t, v + (0.5 if 50 <= t < 52 else 0.0)) for t, v in timed]
    lo, hi = benchlib.block_quantile_interval(stalled, 0.99, 10.0, reps=300)
    assert lo < 0.25 < hi  # one spell in 15 blocks: a 250 ms target cannot be told
    olo, ohi, _ = benchlib.quantile_interval([v for _, v in stalled], 0.99)
    assert olo > 0.25 and ohi - olo < (hi - lo) / 4  # taken as independent: a sure FAIL, too narrow
    assert benchlib.block_quantile_interval(stalled, 0.99, 10.0, reps=300) == (lo, hi)  # seeded
    assert benchlib.block_quantile_interval(timed[:50], 0.99, 10.0) == (benchlib.pct([v for _, v in timed[:50]], 99),) * 2


def test_a_verdict_is_pass_or_fail_only_when_the_interval_is_clear_of_the_target():
    assert benchlib.judge(0.9, 1.05, 1.10) == (True, False)
    assert benchlib.judge(1.11, 1.3, 1.10) == (False, False)
    assert benchlib.judge(1.0, 1.2, 1.10) == (None, True)
    assert benchlib.judge(0.2, 0.4, 1.0, at_least=True) == (False, False)
    v = benchlib.quantile_verdict([1.0] * 200 + [30.0] * 10, 8.0)  # 5 % over the target: clearly over
    assert v["ok"] is False
    v = benchlib.quantile_verdict([1.0] * 155 + [9.0], 8.0)  # one scan of 156 over: cannot tell
    assert v["unsure"] and v["ok"] is None
    assert benchlib.quantile_verdict([1.0] * 156, 8.0)["ok"] is True


def test_until_sure_stops_as_soon_as_the_interval_is_clear_or_at_the_round_limit():
    got = {"m": [], "b": []}

    def one(i, scale=1.0):
        got["m"].append([2.0 + 0.01 * k for k in range(20)])
        got["b"].append([1.0 + 0.01 * k for k in range(20)])
    judged = benchlib.until_sure(one, lambda: benchlib.bootstrap_ratio(got["m"], got["b"], reps=200), 1.5,
                                 min_rounds=2, max_rounds=6)
    assert judged["ok"] is False and judged["rounds"] == 2
    noisy = {"m": [], "b": []}

    def jitter(i):
        import random
        rng = random.Random(i)
        noisy["m"].append([rng.uniform(0.5, 1.6) for _ in range(10)])
        noisy["b"].append([rng.uniform(0.5, 1.5) for _ in range(10)])
    judged = benchlib.until_sure(jitter, lambda: benchlib.bootstrap_ratio(noisy["m"], noisy["b"], reps=200), 1.05,
                                 min_rounds=2, max_rounds=4)
    assert judged["unsure"] and judged["rounds"] == 4


def test_unsure_rows_are_counted_apart_and_do_not_fail_the_run_and_results_are_written(tmp_path, capsys):
    write(tmp_path, "bench_shaky.py", "from benchlib import row\n"
          "def rows(quick=False):\n"
          "    return [row('shaky thing', '<= 1.1x', median=1.0, interval=(0.9, 1.3), interval_of='ratio of medians',\n"
          "                unsure=True), row('fine thing', '<= 1 ms', median=0.5, ok=True)]\n")
    out_a = tmp_path / "a.json"
    assert run.main(["--dir", str(tmp_path), "--results", str(out_a)]) == 0
    text = capsys.readouterr().out
    assert "UNSURE" in text and "[0.90, 1.30]x" in text and "1 UNSURE" in text and "0 FAIL" in text
    import json

    record = json.loads(out_a.read_text())
    assert record["counts"]["UNSURE"] == 1 and record["rows"][0]["interval"] == [0.9, 1.3]
    assert {"commit", "load", "pace", "benches", "minutes"} <= record.keys()
    write(tmp_path, "bench_shaky.py", "from benchlib import row\n"
          "def rows(quick=False):\n"
          "    return [row('shaky thing', '<= 1.1x', median=1.5, interval=(1.3, 1.7), interval_of='ratio of medians',\n"
          "                ok=False), row('fine thing', '<= 1 ms', median=0.5, ok=True)]\n")
    out_b = tmp_path / "b.json"
    assert run.main(["--dir", str(tmp_path), "--results", str(out_b)]) == 1
    from compare import compare

    side = compare(str(out_a), str(out_b))
    line = next(ln for ln in side.splitlines() if "shaky thing" in ln)
    assert "UNSURE" in line and "FAIL" in line and "<-" in line and "1.50" in line


def test_a_busy_host_turns_an_absolute_time_fail_unsure_but_a_ratio_fail_stays(tmp_path, capsys, monkeypatch):
    """Issue 39: green when the table is fine. Another process spinning on a core while a
    bench runs makes a p99 over its limit the machine's as much as the code's (UNSURE, the
    note says why); a ratio row against a baseline in the same minute still FAILs."""
    write(tmp_path, "bench_late.py", "import subprocess, sys, time\nfrom benchlib import row\n"
          "def rows(quick=False):\n"
          "    if not quick:\n"
          "        spin = subprocess.Popen([sys.executable, '-c', 'import time\\nprint(1, flush=True)\\n"
          "t=time.time()\\nwhile time.time()-t<30: pass'], stdout=subprocess.PIPE, start_new_session=True)\n"
          "        spin.stdout.readline()  # spinning (a loaded machine can take a second to start it)\n"
          "        time.sleep(1.5)\n"
          "        spin.kill()  # and not waited for: another process's CPU\n"
          "    return [row('scan p99', 'p99 <= 8 ms', median=5.0, p99=20.0, ok=False, interval=(12.0, 30.0),\n"
          "                interval_of='p99'),\n"
          "            row('scan ratio', '<= 3.5x', median=5.0, ok=False, interval=(4.3, 4.6),\n"
          "                interval_of='ratio of medians')]\n")
    assert run.main(["--dir", str(tmp_path), "--results", str(tmp_path / "r.json")]) == 1  # the ratio row
    out = capsys.readouterr().out
    lines = {line.split("|")[1].strip(): line for line in out.splitlines() if line.count("|") > 3}
    assert "UNSURE" in lines["scan p99"] and "FAIL" in lines["scan ratio"]
    assert "busy host: other processes used" in out
    import json

    bench = json.loads((tmp_path / "r.json").read_text())["benches"][0]
    assert bench["others_cores"] > run.BUSY_CORES
    # On a quiet run (no spinner: `--quick` here) at the reference pace the same p99 FAIL stays a FAIL.
    monkeypatch.setattr(run, "pace", lambda: run.REFERENCE_PACE_MS)
    assert run.main(["--dir", str(tmp_path), "--quick", "--results", str(tmp_path / "q.json")]) == 1
    quiet = json.loads((tmp_path / "q.json").read_text())
    if quiet["benches"][0]["others_cores"] <= run.BUSY_CORES:  # the shared machine was quiet enough to tell
        assert [r["ok"] for r in quiet["rows"]] == [False, False]


def test_others_cores_is_the_machines_busy_time_less_ours_over_the_wall_time():
    assert run.others_cores((0.0, 100.0, 10.0), (2.0, 103.0, 11.0)) == pytest.approx(1.0)  # 3 s busy, 1 s ours
    assert run.others_cores((0.0, 100.0, 10.0), (2.0, 101.0, 11.0)) == 0.0
    assert run.others_cores((0.0, float("nan"), 0.0), (1.0, float("nan"), 0.0)) == 0.0  # no /proc/stat: not busy
    mark = run.cpu_mark()
    assert mark[1] > 0 and mark[2] > 0


def test_a_slow_host_turns_an_absolute_time_fail_unsure_but_a_ratio_fail_stays(tmp_path, capsys, monkeypatch):
    """Issue 39: the limits in ms are set at the reference pace (a million Python additions
    in 21 ms). A full-speed bench on a host that ran them in over 1.5x that, before and
    after it, has its absolute-time FAILs called UNSURE with the pace in the note; a ratio
    FAIL stays; one fast measurement of the two keeps the FAIL; a PASS stays a PASS."""
    row = benchlib.row
    fail = row("scan p99", "p99 <= 8 ms", median=5.0, p99=9.4, ok=False, interval=(8.3, 17.5), interval_of="p99")
    ratio = row("scan ratio", "<= 3.5x", median=5.0, ok=False, interval=(4.3, 4.6), interval_of="ratio of medians")
    passed = row("touch p99", "p99 <= 16.7 ms", median=4.0, p99=15.0, ok=True, interval=(10.0, 15.5), interval_of="p99")
    slow = 2 * run.REFERENCE_PACE_MS
    got = run.slow_host([fail, ratio, passed], (slow, slow + 5))
    assert [run.result(r) for r in got] == ["UNSURE", "FAIL", "PASS"]
    assert "slow host: a million Python additions took 42 ms" in got[0]["note"]
    assert [run.result(r) for r in run.slow_host([fail, ratio], (run.REFERENCE_PACE_MS, slow))] == ["FAIL", "FAIL"]
    # through run.main: the host's pace read before and after the bench
    write(tmp_path, "bench_slowhost.py", "from benchlib import row\n"
          "def rows(quick=False):\n"
          "    return [row('scan p99', 'p99 <= 8 ms', median=5.0, p99=9.4, ok=False, interval=(8.3, 17.5),\n"
          "                interval_of='p99')]\n")
    monkeypatch.setattr(run, "pace", lambda: slow)
    monkeypatch.setattr(run, "BUSY_CORES", 99.0)  # (this machine may be busy too: that rule apart)
    assert run.main(["--dir", str(tmp_path), "--results", str(tmp_path / "r.json")]) == 0
    import json

    assert "slow host" in json.loads((tmp_path / "r.json").read_text())["rows"][0]["note"]
    assert "UNSURE" in capsys.readouterr().out
    monkeypatch.setattr(run, "pace", lambda: run.REFERENCE_PACE_MS)
    assert run.main(["--dir", str(tmp_path), "--results", str(tmp_path / "r.json")]) == 1
