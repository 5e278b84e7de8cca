"""Inputs at 50 a second through rules, commit and verdict: none lost, doubled or out of
order (issue 5, issue 15).

    .venv/bin/python bench/bench_scan_burst.py [--quick]

Both streams go into a table built as ``companion run --log-format json`` builds it
(:class:`benchlib.Table`: pseudo-terminal + real SerialScanner, real Runner with an App,
real json_logger read back from a pipe), 20 ms apart:

- **scans**: 500 scans (CR, LF and CRLF in turn) cycling through the codes of the
  recorded Sugarrr! family game, played into a real game: most are rejected by the
  rules, some accepted and committed. Checked: exactly one verdict line per scan, in the
  order written; every accepted scan is in the store (its ``inputs`` rows); a fresh
  Session rebuilt from the store has the live session's state digest.
- **mixed**: the family game's own scans and touches in their order, at the same pace,
  sent by a hand in a process of its own (:data:`SENDER`), outside the table's CPU
  quota under ``--zero`` as the log reader is (a family's hands are not on the Pi's
  CPU): scans written into the scanner's pseudo-terminal, taps into the emulated
  touchscreen, which SDL reads when the loop pumps its events, as on the Pi. The game
  was recorded on an older screen, so it is first played one input at a time to name
  each tap as today's screen reads it (:func:`as_tapped_today`: the same game, checked
  to end in the recorded state); a button in a menu is two taps, its opener and then
  the button. Checked: inputs handled out of order (sent minus the longest common
  subsequence of sent and logged), none lost, doubled, or left unpressed. Its note gives
  the gaps the hand kept between inputs and the CPU this process used while the inputs
  went in, as a share of one core: at full speed that is what the table needs for the
  pace; held to 1/8 of a core it cannot go past 12.5 %.

Baseline for the latency figures: the same 500 scans at 50/s into a bare
pseudo-terminal read by an ``os.read`` thread that commits each line (WAL,
synchronous=FULL).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import Table, as_tapped_today, demo_trace, main, med, pct, row, trace_inputs  # noqa: E402
from bench_scan import BareScanPath  # noqa: E402

PACE_S = 0.02  # 50 inputs a second
TERMINATORS = (b"\r", b"\n", b"\r\n")


def lcs(a: list, b: list) -> int:
    """Length of the longest common subsequence of ``a`` and ``b``."""
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def paced(items: list, send) -> None:
    """Call ``send(item)`` every PACE_S seconds on a steady schedule."""
    start = time.perf_counter()
    for i, item in enumerate(items):
        delay = start + i * PACE_S - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        send(item)


def burst(n: int) -> dict:
    from companion.core.store import EventStore
    from companion.core.clock import SystemClock
    from companion.table.session import Session
    from companion.table.verdicts import state_digest

    trace, inputs = trace_inputs(demo_trace("sugarrr"))
    codes = [v for _, k, v in inputs if k == "scan"]
    sent = [codes[i % len(codes)] for i in range(n)]
    table = Table(trace.game, list(trace.players), trace.options)
    starts: list[float] = []

    def driver(t: Table):
        time.sleep(0.3)
        paced(list(enumerate(sent)), lambda item: starts.append(t.scan(item[1], TERMINATORS[item[0] % 3])))
        deadline = time.monotonic() + 10
        while len(t.lines) < n and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)  # anything doubled would arrive now
    try:
        table.run(driver)
        logged = [rec.get("raw", rec.get("code")) for _, rec in table.lines]
        lat = [(t1 - t0) * 1000 for (t1, _), t0 in zip(table.lines, starts)]
        accepted = sum(rec["verdict"] == "accepted" for _, rec in table.lines)
        stored = len(table.store.inputs(table.session.game_id))
        other = EventStore(str(table.db))
        rebuilt = Session.start(trace.game, [], other, SystemClock())
        same = state_digest(rebuilt.state) == state_digest(table.session.state)
        other.close()
        verdicts = {}
        for _, rec in table.lines:
            verdicts[rec["verdict"]] = verdicts.get(rec["verdict"], 0) + 1
    finally:
        table.close()
    lost = max(0, n - len(logged))
    doubled = max(0, len(logged) - n)
    order = n - lcs(sent, logged)
    return {"n": n, "lost": lost, "doubled": doubled, "out_of_order": order, "lat": lat, "accepted": accepted,
            "stored": stored, "same": same, "verdicts": verdicts}


def bare(n: int) -> list[float]:
    with tempfile.TemporaryDirectory(prefix="bench-burst-") as tmp:
        path = BareScanPath(tmp)
        out: list[float] = []
        try:
            start = time.perf_counter()
            for i in range(n):
                delay = start + i * PACE_S - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                out.append(path.round_trip(f"SRX{i:03d}"))
        finally:
            path.close()
    return out


#: The sending hand of the mixed run, in a process of its own outside the table's CPU
#: quota (a family's hands are not on the Pi's CPU): a scan is written into the scanner's
#: pseudo-terminal, a tap into the emulated touchscreen's two pipes, each on a steady
#: 20 ms schedule; it prints when each input went out (perf_counter: CLOCK_MONOTONIC).
SENDER = """
import json, os, sys, time
from companion.devices.emulated.touch import tap_bytes
from bench_scan_burst import paced
plan, pty, device, sdl = json.loads(sys.stdin.read())
out = []

def send(step):
    kind, what = step
    out.append(time.perf_counter())
    if kind == "scan":
        os.write(pty, what.encode("latin-1") + b"\\r\\n")
    else:
        press, line, release = tap_bytes(*what)
        os.write(device, press)
        os.write(sdl, line)
        os.write(device, release)
paced(plan, send)
print(json.dumps(out))
"""


def tap_plan(inputs: list, known: dict, menus: dict) -> tuple[list, list, list, list]:
    """``(plan, sent, steps, missing)``: what the sending hand does (``["scan", code]``
    or ``["tap", [x, y]]``, one every 20 ms), the inputs that expect a verdict in the
    order sent, the step of the plan that sends each, and touches with no known button.
    A button inside a menu is two taps: the menu's opener, then the button where the open
    menu drew it."""
    plan, sent, steps, missing = [], [], [], []
    for _, kind, value in inputs:
        if kind == "scan":
            plan.append(["scan", value])
        elif value in menus:
            opener, button = menus[value]
            plan += [["tap", list(opener.center)], ["tap", list(button.center)]]
        elif value in known:
            plan.append(["tap", list(known[value].center)])
        else:
            missing.append(value)
            continue
        sent.append((kind, value))
        steps.append(len(plan) - 1)
    return plan, sent, steps, missing


def mixed() -> dict:
    import json
    import subprocess

    from benchlib import leave_quota

    trace, _ = trace_inputs(demo_trace("sugarrr"))
    inputs, known, check = as_tapped_today(demo_trace("sugarrr"))
    plan, sent, steps, missing = tap_plan(inputs, known, check["menus"])
    table = Table(trace.game, list(trace.players), trace.options, known=known)
    cpu: dict = {}

    def driver(t: Table):
        time.sleep(0.3)
        device, sdl = t.touchscreen.sender_fds()
        root = str(Path(__file__).resolve().parent.parent)
        cpu["start"], cpu["wall"] = time.process_time(), time.perf_counter()
        hand = subprocess.Popen([sys.executable, "-c", SENDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                text=True, cwd=root, env=dict(os.environ, PYTHONPATH=f"{root}:{root}/bench"),
                                pass_fds=[t.pty.master, device, sdl], preexec_fn=leave_quota)
        out, _ = hand.communicate(json.dumps([plan, t.pty.master, device, sdl]))
        cpu["cpu"], cpu["wall"] = time.process_time() - cpu["start"], time.perf_counter() - cpu["wall"]
        cpu["times"] = json.loads(out)
        deadline = time.monotonic() + 10
        while len(t.lines) < len(sent) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)
    try:
        table.run(driver)
        logged = [("scan", rec.get("raw", rec.get("code"))) if rec["event"] == "scan" else ("touch", rec.get("command"))
                  for _, rec in table.lines]
        missed_hits = table.missed_hits
    finally:
        table.close()
    times = cpu["times"]
    gaps = [(b - a) * 1000 for a, b in zip(times, times[1:])]
    return {"n": len(sent), "lost": max(0, len(sent) - len(logged)), "doubled": max(0, len(logged) - len(sent)),
            "out_of_order": len(sent) - lcs(sent, logged), "missing": missing, "missed_hits": missed_hits,
            "check": check, "first": first_out_of_order(sent, logged, [times[k] for k in steps]),
            "gaps": (min(gaps), max(gaps)),
            "cpu_share": cpu["cpu"] / cpu["wall"], "cpu_per_input": cpu["cpu"] / max(1, len(plan)) * 1000}


def first_out_of_order(sent: list, logged: list, times: list[float]) -> str:
    """Where the logged order first left the sent one, in words (empty when it never
    did): which input was handled early and how long after the input before it it was
    sent. Everything after it follows a game that is no longer the family's, so the
    row's count is mostly what followed from this one."""
    i = next((k for k, (a, b) in enumerate(zip(sent, logged)) if a != b), None)
    if i is None:
        return ""
    if sent[i] not in logged[i:]:  # handled as another command (a tap on a screen not yet changed), or lost
        return f"first: input {i + 1} ({sent[i][0]} {sent[i][1]}) never logged; in its place {logged[i][0]} {logged[i][1]}"
    later = [k for k in range(i + 1, len(sent)) if sent[k] == logged[i]]
    if not later:
        return f"input {i + 1} ({sent[i][0]}) was first handled out of order"
    j = later[0]
    gap = (times[j] - times[j - 1]) * 1000
    return (f"first out of order: input {j + 1} (a {sent[j][0]}) handled before input {i + 1} (a {sent[i][0]}), "
            f"sent {gap:.1f} ms after the input before it")


def rows(quick: bool = False) -> list[dict]:
    n = 150 if quick else 500
    b = burst(n)
    base = bare(n)
    m = mixed()
    c = m["check"]
    mix = ", ".join(f"{k} {v}" for k, v in sorted(b["verdicts"].items()))
    bad = b["lost"] + b["doubled"] + b["out_of_order"]
    store_ok = b["stored"] == b["accepted"] and b["same"]
    return [
        row(f"{n} scans at 50/s: lost+doubled+out of order", "0, all accepted stored", median=bad, unit="scans",
            ok=bad == 0 and store_ok, n=n,
            note=f"lost {b['lost']}, doubled {b['doubled']}, out of order {b['out_of_order']}; verdicts: {mix}; "
                 f"{b['accepted']} accepted, {b['stored']} in the store; rebuilt digest "
                 f"{'matches' if b['same'] else 'DIFFERS'}"),
        row(f"{n} scans at 50/s: scan to verdict line", "info", median=med(b["lat"]), p99=pct(b["lat"], 99),
            baseline=med(base), baseline_name="pty+WAL commit at 50/s", n=len(b["lat"]),
            note=f"baseline p99 {pct(base, 99):.2f} ms"),
        row("mixed scans+touches at 50/s: handled out of order", "0 (and none lost)", median=m["out_of_order"],
            unit="inputs", n=m["n"],
            ok=m["out_of_order"] == 0 and m["lost"] == 0 and m["doubled"] == 0 and not m["missing"] and c["same"],
            note=f"{m['n']} inputs of the family game as tapped on today's screen ({c['renamed']} column taps now "
                 f"'place N', {c['dropped']} steps of the old screen left out; played one at a time it ends "
                 f"{'in the recorded state' if c['same'] else 'ELSEWHERE than the recording'}); no verdict for "
                 f"{m['lost']} ({m['missed_hits']} presses found no button), doubled {m['doubled']}"
                 + (f"; {len(m['missing'])} touches with no known button" if m["missing"] else "")
                 + (f"; {m['first']}" if m["first"] else "")
                 + f"; sent {m['gaps'][0]:.1f}-{m['gaps'][1]:.1f} ms apart; CPU while the inputs went in: "
                   f"{m['cpu_share']:.1%} of a core, {m['cpu_per_input']:.1f} ms an input (the table and its reader "
                   f"threads; 1/8 core is 12.5%)"),
    ]


if __name__ == "__main__":
    sys.exit(main(rows, "scan_burst"))
