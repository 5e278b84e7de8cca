"""Venue mode at a café's scale (issue 25): 50 tables into one local Mosquitto.

    .venv/bin/python bench/bench_venue.py [--quick]

**Scale.** 50 simulated tables (the real :class:`Session` with an on-disk store and the
real :class:`VenuePublisher`, in :data:`WORKERS` processes of their own) play the recorded Sugarrr!, Sugar Heist
and Sweet Deals family games (scans and touches at their recorded times) into one
private ``mosquitto``; the dashboard is ``companion venue`` in its own process, and this
process follows its page's server-sent events as a browser would. Measured: from a
verdict (the session's listener, ``time.time()``) to the first page update that shows
it (an SSE ``table`` event with that table's ``last_seq`` at or past it), p99; and
messages lost (events published minus events the dashboard counted, read from its
``/state.json``). Two runs:

- at table speed, a window of each game (:data:`WINDOW` s; 30 s and 10 tables with
  ``--quick``): whole games would take the Sugar Heist game's 1537 s. Table ``i`` is
  first fast-forwarded (its publisher not yet listening) to its own point in its game,
  so the 50 windows cover the games' beginnings, middles and ends;
- at 10x table speed, whole games (154 s for the longest), with :data:`PAGES` open pages
  (10 with ``--quick``) following the event stream, from five loopback addresses (the
  server's cap is 32 connections per address), read by a process of their own (:func:`follow_pages`)
  so that reading 100 streams does not slow this process's tables.

Targets: p99 <= 1 s at table speed (one page); at 10x with 100 open pages (issue 40),
p99 <= 250 ms over the updates of 10 of the pages, spread over the order they connected
in (every page is read as fast as it is written; see :func:`follow_pages`), each judged by
its p99's block-bootstrap interval (:func:`p99_verdict`: PASS, FAIL or UNSURE); 0 messages lost. The dashboard's CPU (its
process's user + system time over the run, as a share of one core) and its peak memory
(VmHWM) are printed for the 10x run.

**The table's own speed.** A table as ``companion run --log-format json`` builds it
(``benchlib.Table``: a pty scanner, the real Runner with its window, the JSON log read
back) plays a third of the Sugarrr! game's scans (every third, from a turning start) with
random 60-250 ms gaps, its scans with venue mode and without it **in turn, scan by
scan**: the publisher (made and connected once) is among the session's listeners for one
scan and not for the next, so both sides see the same minute of the host. One table has
a broker there, another none (an unreachable port); a round is each over the same third.
At least :data:`MIN_ROUNDS` rounds, then more until the bootstrap intervals of both
medians' ratios are clear of the target, at most :data:`MAX_ROUNDS`. Target:
scan-to-verdict median with venue mode <= 1.10x without, broker there or not, judged by
its 95 % interval; the p99s' ratio is judged the same way (its interval is wide: a
handful of slow scans). The scans without venue mode run beside the publisher's idle
thread (it wakes once a second): the nearest honest baseline that shares the minute.
At 1/8 of a core only this part runs; ``--quick`` leaves out the 10x whole games.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from benchlib import (DATA, ZERO, Table, block_quantile_interval, bootstrap_ratio, gaps, judge, main, med,  # noqa: E402
                      pct, ratio_row, row, trace_inputs, until_sure)

TABLES = 50
GAMES = ("sugarrr-family", "sugar-heist-family", "sweet-deals-family")
WINDOW = 30.0           # seconds of each game played at table speed
LATENCY_TARGET_S = 1.0
FAST_TARGET_S = 0.25    # at 10x with PAGES open pages (issue 40)
PAGES = 100
SLOWER_AT_MOST = 1.10
#: Rounds of the table-speed modes, interleaved: each round plays one slice of the game's
#: scans (:data:`SLICES` of them, in turn) in each mode; at least MIN, more until the
#: intervals of the medians' ratios are clear of the target, at most MAX.
MIN_ROUNDS, MAX_ROUNDS, SLICES = 2, 4, 3


class SimTable:
    """One simulated table: its inputs at their recorded times, a session, a publisher."""

    def __init__(self, i: int, folder: Path, url: str, venue: str):
        from companion.core.clock import FakeClock
        from companion.core.store import EventStore
        from companion.table.session import Session
        from companion.venue.publish import VenuePublisher
        from companion.venue.settings import VenueSettings

        self.name = f"table-{i + 1}"
        trace, self.inputs = trace_inputs(DATA / f"{GAMES[i % len(GAMES)]}.trace")
        self.clock = FakeClock(0.0)
        self.store = EventStore(str(folder / f"{self.name}.db"))
        self.session = Session.start(trace.game, list(trace.players), self.store, self.clock, resume=False,
                                     options=trace.options)
        self.publisher = VenuePublisher(VenueSettings.parse(url, self.name, venue), self.session)
        self.verdicts: dict[int, float] = {}   # event seq -> time.time() at the verdict
        self.end = self.inputs[-1][0] if self.inputs else 0.0

    def fast_forward(self, upto: float) -> list:
        """Play (unpublished) every input before ``upto`` s; returns the rest."""
        rest = []
        for t, kind, value in self.inputs:
            if t < upto:
                self.clock.set(t)
                self.session.handle(self._input(t, kind, value))
            else:
                rest.append((t, kind, value))
        return rest

    def _input(self, t, kind, value):
        from companion.core.events import CardScanned, Touch

        return CardScanned(value.upper(), "scanner", t) if kind == "scan" else Touch(value, t)

    def attach(self) -> None:
        self.session.listeners.append(self._verdict)
        self.session.listeners.append(self.publisher)
        self.publisher.start()
        self.publisher.connect()

    def _verdict(self, item, verdict) -> None:
        if verdict is not None:
            self.verdicts[self.publisher.outbox.next_seq()] = time.time()

    def handle(self, t, kind, value) -> None:
        self.clock.set(t)
        self.session.handle(self._input(t, kind, value))


#: A page's ``table`` event: the table's name and the newest event number it shows.
TABLE_EVENT = re.compile(rb'event: table\ndata: \{"table": "([^"]+)".*?"last_seq": (\d+)')


def follow_pages(url: str, n: int, out: str, measured: int = 10) -> None:
    """``bench_venue.py --pages URL N OUT``: follow the page's event stream ``n`` times at
    once (from five loopback addresses; one thread, non-blocking sockets), say "ready",
    and at the end of stdin write the updates of ``measured`` of the streams, spread over
    the order they connected in (the dashboard writes them in that order each frame),
    ``[{table: [[last_seq, arrival time], ...]}]``, to ``out``. In those, each ``table``
    event's name and number are found by a regular expression; the other streams are read
    and thrown away unparsed (``recv_into`` one buffer). Parsing all 100 cost this process
    about half a core on 2 cores (19 MB/s), and a reader that falls behind measures its own
    queue, not the dashboard's: every stream is still read as fast as it is written."""
    import selectors
    import socket
    from urllib.parse import urlsplit

    where = urlsplit(url)
    sel = selectors.DefaultSelector()
    for k in range(n):
        sock = socket.create_connection((where.hostname, where.port), source_address=(f"127.0.0.{2 + k % 5}", 0))
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
        sock.setblocking(False)
        sel.register(sock, selectors.EVENT_READ, k)
    bufs, heads = [b""] * n, [True] * n
    updates: list[dict[str, list]] = [{} for _ in range(n)]
    step = max(1, n // max(1, measured))
    parsed = set(range(0, n, step)[:measured])
    sink = bytearray(1 << 20)
    total = 0
    done = threading.Event()
    print("ready", flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    while not done.is_set():
        for key, _ in sel.select(0.2):
            k, now = key.data, time.time()
            if k not in parsed:
                try:
                    got = key.fileobj.recv_into(sink)
                except BlockingIOError:
                    continue
                if not got:
                    sel.unregister(key.fileobj)
                total += got
                continue
            try:
                data = key.fileobj.recv(1 << 20)
            except BlockingIOError:
                continue
            if not data:
                sel.unregister(key.fileobj)
                continue
            total += len(data)
            buf = bufs[k] + data
            if heads[k]:
                if b"\r\n\r\n" not in buf:
                    bufs[k] = buf
                    continue
                buf, heads[k] = buf.split(b"\r\n\r\n", 1)[1], False
            end = buf.rfind(b"\n\n")
            if end >= 0:
                for m in TABLE_EVENT.finditer(buf, 0, end):
                    updates[k].setdefault(m.group(1).decode(), []).append((int(m.group(2)), now))
                buf = buf[end + 2:]
            bufs[k] = buf
    import resource

    use = resource.getrusage(resource.RUSAGE_SELF)
    Path(out).write_text(json.dumps({"updates": [updates[k] for k in sorted(parsed)], "cpu_s": use.ru_utime + use.ru_stime, "bytes": total}))


class Pages:
    """:func:`follow_pages` in its own process."""

    def __init__(self, url: str, n: int, folder: Path):
        self.out = folder / "pages.json"
        self.proc = subprocess.Popen([sys.executable, __file__, "--pages", url, str(n), str(self.out)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "ready"

    def updates(self) -> list[dict[str, list]]:
        """The measured streams' updates (``[{table: [[last_seq, arrival], ...]}]``); also sets
        :attr:`cpu_s` (the reader's CPU seconds) and :attr:`bytes` (all it read)."""
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        got = json.loads(self.out.read_text())
        self.cpu_s, self.bytes = got["cpu_s"], got["bytes"]
        return got["updates"]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (s), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _peak_mb(pid: int) -> float:
    """Peak resident memory of process ``pid`` (VmHWM, MB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return math.nan


#: Processes the simulated tables are played in (each a slice of them, every ``WORKERS``-th
#: table): 50 sessions, 50 publishers and their 100 threads behind one interpreter lock fell
#: seconds behind their own schedule at 10x (132 inputs a second), which measured this
#: process's queue, not the dashboard. 50 tables are 50 Pis; five processes come nearer.
WORKERS = 5


def play_tables(url: str, venue: str, folder: str, speed: float, window: float, n: int, k: int, out: str) -> None:
    """``bench_venue.py --tables URL VENUE FOLDER SPEED WINDOW N K OUT``: one worker of
    :func:`scale`: builds tables ``k, k + WORKERS, ...`` of ``n`` (``window`` 0: whole games),
    fast-forwards and attaches them, says "ready", reads the start (a ``time.monotonic()``
    value, the same clock in every process on Linux) from stdin, plays every input at its
    time (divided by ``speed``), closes the publishers and writes ``{"tables": {name:
    {"verdicts": {seq: time.time()}, "published": n}}, "behind": [s], "messages": m}``."""
    tables = [SimTable(i, Path(folder), url, venue) for i in range(k, n, WORKERS)]
    events = []
    for table, i in zip(tables, range(k, n, WORKERS)):
        start = 0.0 if not window else max(0.0, (table.end - window) * i / max(1, n - 1))
        rest = table.fast_forward(start)
        if window:
            rest = [x for x in rest if x[0] < start + window]
        table.attach()
        events += [((t - start) / speed, table, t, kind, value) for t, kind, value in rest]
    events.sort(key=lambda e: e[0])
    print("ready", flush=True)
    began = float(sys.stdin.readline())
    behind = []
    for at, table, t, kind, value in events:
        wait = began + at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        else:
            behind.append(-wait)
        table.handle(t, kind, value)
    for table in tables:
        table.publisher.close(timeout=30)
    import resource

    use = resource.getrusage(resource.RUSAGE_SELF)
    Path(out).write_text(json.dumps({"cpu_s": use.ru_utime + use.ru_stime,
        "tables": {t.name: {"verdicts": t.verdicts, "published": t.publisher.outbox.next_seq() - 1} for t in tables},
        "behind": behind, "messages": sum(t.publisher.sent for t in tables)}))


class Players:
    """:func:`play_tables` in :data:`WORKERS` processes (fewer with fewer tables)."""

    def __init__(self, url: str, venue: str, folder: Path, speed: float, window: float | None, n: int):
        self.outs = [folder / f"player-{k}.json" for k in range(min(WORKERS, n))]
        self.procs = [subprocess.Popen([sys.executable, __file__, "--tables", url, venue, str(folder), str(speed),
                                        str(window or 0), str(n), str(k), str(out)],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                      for k, out in enumerate(self.outs)]
        for proc in self.procs:
            line = proc.stdout.readline().strip()
            if line != "ready":
                raise RuntimeError(f"a player process did not start: {line!r} (exit {proc.wait()})")

    def play(self) -> dict:
        """Start them all at once (in half a second); wait for them; their results merged:
        ``{"tables": {name: {"verdicts": {seq: t}, "published": n}}, "behind": [...], "messages": m}``."""
        began = time.monotonic() + 0.5
        for proc in self.procs:
            proc.stdin.write(f"{began!r}\n")
            proc.stdin.flush()
        merged: dict = {"tables": {}, "behind": [], "messages": 0, "began": began}
        for proc, out in zip(self.procs, self.outs):
            if proc.wait(timeout=3600) != 0:
                raise RuntimeError(f"a player process failed (exit {proc.returncode})")
            got = json.loads(out.read_text())
            for name, t in got["tables"].items():
                merged["tables"][name] = {"verdicts": {int(q): v for q, v in t["verdicts"].items()},
                                          "published": t["published"]}
            merged["behind"] += got["behind"]
            merged["messages"] += got["messages"]
            merged["cpu_s"] = merged.get("cpu_s", 0.0) + got["cpu_s"]
        return merged


def scale(speed: float, window: float | None, quick: bool, pages: int = 1) -> dict:
    """One scale run; ``window`` None plays whole games; ``pages`` open pages follow it.
    The tables are played by :class:`Players`; the dashboard, the broker and the pages'
    reader are processes of their own."""
    from venue_helpers import Mosquitto, free_port, wait_for

    tmp = Path(tempfile.mkdtemp(prefix="bench-venue-"))
    broker = Mosquitto(tmp / "broker").start()
    venue = f"bench{int(speed)}"
    port = free_port()
    dash = subprocess.Popen([sys.executable, "-m", "companion", "venue", "--broker", broker.url, "--venue-name", venue,
                             "--listen", f"127.0.0.1:{port}", "--store", str(tmp / "dashboard.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    page = f"http://127.0.0.1:{port}/"
    dash.stdout.readline()  # "the dashboard is on ..."
    wait_for(lambda: json.loads(urllib.request.urlopen(page + "state.json").read())["broker"], what="dashboard up")
    readers = Pages(page, pages, tmp)
    n = 10 if quick else TABLES
    players = Players(broker.url, venue, tmp, speed, window, n)
    cpu0 = _cpu_seconds(dash.pid)
    got = players.play()
    played = time.monotonic() - got["began"]
    cpu = (_cpu_seconds(dash.pid) - cpu0) / played * 100
    tables = got["tables"]
    published = {name: t["published"] for name, t in tables.items()}
    first = {name: (min(t["verdicts"]) if t["verdicts"] else 1) for name, t in tables.items()}

    def counted():
        state = json.loads(urllib.request.urlopen(page + "state.json").read())
        return {d["table"]: d for d in state["tables"]}

    try:
        wait_for(lambda: all(counted().get(k, {}).get("last_seq") == v for k, v in published.items()), timeout=60,
                 what="the dashboard catching up")
    except AssertionError:
        pass
    seen = counted()
    sent = sum(published[k] - first[k] + 1 for k in published)
    got_events = sum(seen.get(k, {}).get("events", 0) for k in published)
    # the dashboard counts every event it got from the table's first published one on
    lost = sent - got_events
    lat, timed, missed = [], [], 0
    for updates in readers.updates():
        for name, table in tables.items():
            ups = updates.get(name, [])
            j = 0
            for seq in sorted(table["verdicts"]):
                while j < len(ups) and ups[j][0] < seq:
                    j += 1
                if j < len(ups):
                    lat.append(max(0.0, ups[j][1] - table["verdicts"][seq]))
                    timed.append((table["verdicts"][seq], lat[-1]))
                else:
                    missed += 1   # this page never showed it
    peak = _peak_mb(dash.pid)
    dash.terminate()
    dash.wait(timeout=10)
    broker.stop()
    behind = got["behind"]
    return {"lat": lat, "timed": timed, "lost": lost, "sent": sent, "played": played, "tables": n, "pages": pages,
            "missed": missed, "cpu": cpu, "peak_mb": peak, "reader_cpu": readers.cpu_s / played * 100,
            "players_cpu": got["cpu_s"] / played * 100,
            "reader_mb": readers.bytes / 1e6,
            "behind_p99": pct(behind, 99) if behind else 0.0, "messages": got["messages"]}


#: Blocks a scale run is cut into, by verdict time, for its p99's interval (:func:`p99_verdict`).
BLOCKS = 15


def p99_verdict(r: dict, target_s: float) -> dict:
    """The :func:`row` fields of a scale run's target "p99 verdict to page <= ``target_s``",
    judged by the block-bootstrap interval of the p99 (:func:`benchlib.block_quantile_interval`,
    the run cut into :data:`BLOCKS` spells of its verdicts' times): one run of whole games
    is all the bench can afford, and its slow updates come in spells (a host's stall delays
    every table's update of that second), so the values are not independent and the
    order-statistic interval would be far too narrow. A page that never showed an event,
    a message lost, or no update at all, is a FAIL whatever the interval (as before)."""
    if not r["lat"] or r["missed"] or r["lost"]:
        return {"ok": False, "interval": None}
    span = max(t for t, _ in r["timed"]) - min(t for t, _ in r["timed"])
    lo, hi = block_quantile_interval(r["timed"], 0.99, max(1.0, span / BLOCKS), seed=3)
    ok, unsure = judge(lo, hi, target_s)
    return {"ok": ok, "unsure": unsure, "interval": (lo * 1000, hi * 1000),
            "interval_of": f"p99 (block bootstrap, {BLOCKS} spells of the run)"}


def table_speed(mode: str, quick: bool, url: str, part: int = 0) -> tuple[list[float], list[float]]:
    """Scan-to-verdict (ms) of one ``companion run``-built table in venue mode (``mode``
    "on": a broker there; "down": none) and without it, scan by scan in turn:
    ``(with, without)``. The publisher is made and connected once; for a scan without
    venue mode it is not among the session's listeners (the table calls nothing of it;
    its thread sleeps, waking once a second), for a scan with it, it is. Over the
    ``part``-th of :data:`SLICES` slices of the Sugarrr! game's scans (every
    :data:`SLICES`-th scan from ``part`` on)."""
    from companion.venue.publish import VenuePublisher
    from companion.venue.settings import VenueSettings

    trace, inputs = trace_inputs(DATA / "sugarrr-family.trace")
    scans = [v for _, k, v in inputs if k == "scan"]
    scans = scans[part % SLICES::SLICES]
    if quick:
        scans = scans[:30]
    table = Table(trace.game, list(trace.players), trace.options, tap_off=0.0)
    pub = VenuePublisher(VenueSettings.parse(url, "speed", "bench"), table.session)
    listeners = table.session.listeners
    listeners.append(pub)
    pub.start()
    pub.connect()
    pauses = gaps(len(scans), 0.06, 0.25, seed=7 + part)

    def driver(tb):
        on, off = [], []
        for j, (code, pause) in enumerate(zip(scans, pauses)):
            venue = (j + part) % 2 == 0  # in turn, from a turning start
            if venue and pub not in listeners:
                listeners.append(pub)
            elif not venue and pub in listeners:
                listeners.remove(pub)
            time.sleep(pause)
            t0 = tb.scan(code)
            got = tb.next_verdict()
            if got is not None:
                (on if venue else off).append((got[0] - t0) * 1000)
        return on, off

    try:
        return table.run(driver)
    finally:
        pub.close(timeout=5)
        table.close()


def rows(quick: bool = False, only: str | None = None) -> list[dict]:
    """Every row (``only="10x"``: only the 10x whole games with :data:`PAGES` pages, and
    no table-speed rounds: ``bench_venue.py --only 10x``)."""
    from venue_helpers import MOSQUITTO, Mosquitto, free_port

    if MOSQUITTO is None:
        return [row("venue bench", "a mosquitto broker", ok=False, note="no mosquitto: apt-get install -y mosquitto")]
    out = []
    window = 30.0 if quick else WINDOW
    # 50 tables in one process stand for 50 Pis, not for one Zero: at 1/8 of a core only the
    # table's own speed is measured (bench/README.md); the whole games at 10x only in a full run.
    scales = [] if ZERO else [(1.0, window, 1, LATENCY_TARGET_S)] + (
        [] if quick else [(10.0, None, PAGES, FAST_TARGET_S)])
    if only == "10x":
        scales = [(10.0, None, 10 if quick else PAGES, FAST_TARGET_S)]
    for speed, win, pages, target in scales:
        r = scale(speed, win, quick, pages)
        judged = p99_verdict(r, target)
        what = "whole games" if win is None else f"{win:.0f} s of each game"
        shown = f"{target * 1000:.0f} ms" if target < 1 else f"{target:g} s"
        out.append(row(f"{r['tables']} tables at {speed:g}x table speed, {pages} open page{'s' * (pages > 1)}: "
                       "verdict to page update", f"p99 <= {shown}", median=med(r["lat"]) * 1000,
                       p99=pct(r["lat"], 99) * 1000, n=len(r["lat"]), **judged,
                       note=f"{what}, {r['sent']} events ({r['messages']} messages acknowledged) in {r['played']:.0f} s; "
                            f"{r['missed']} (page, event) pairs never shown; "
                            f"the players ran late by p99 {r['behind_p99'] * 1000:.0f} ms and used {r['players_cpu']:.0f} % "
                            f"of a core; the pages' reader used "
                            f"{r['reader_cpu']:.0f} % of a core and read {r['reader_mb']:.0f} MB"))
        out.append(row(f"{r['tables']} tables at {speed:g}x: messages lost", "0", median=r["lost"], unit="events",
                       ok=r["lost"] == 0, n=r["sent"]))
        if speed > 1:
            out.append(row(f"the dashboard's CPU, {r['tables']} tables at {speed:g}x with {pages} pages",
                           "(printed)", median=r["cpu"], unit="%", note="user + system time over the run, "
                           "as a share of one core"))
            out.append(row(f"the dashboard's peak memory, {r['tables']} tables at {speed:g}x with {pages} pages",
                           "(printed)", median=r["peak_mb"], unit="MB", note="VmHWM of `companion venue`"))
    if only == "10x":
        return out
    broker = Mosquitto(Path(tempfile.mkdtemp(prefix="bench-venue-speed-"))).start()
    runs: dict[str, list[list[float]]] = {"on": [], "off-on": [], "down": [], "off-down": []}

    def one_round(i: int) -> None:
        # a table with a broker there and one with none, each over the same slice of the
        # game, its scans in venue mode and without it in turn
        for mode in (("on", "down") if i % 2 == 0 else ("down", "on")):
            url = broker.url if mode == "on" else f"mqtt://127.0.0.1:{free_port()}"
            with_venue, without = table_speed(mode, quick, url, part=i)
            runs[mode].append(with_venue)
            runs["off-" + mode].append(without)

    def interval() -> tuple[float, float]:
        # both intervals (with a broker, with none) together: clear only when both are
        a = bootstrap_ratio(runs["on"], runs["off-on"], seed=1)
        b = bootstrap_ratio(runs["down"], runs["off-down"], seed=2)
        return (min(a[0], b[0]), max(a[1], b[1]))
    try:
        until_sure(one_round, interval, SLOWER_AT_MOST, min_rounds=2 if quick else MIN_ROUNDS,
                   max_rounds=4 if quick else MAX_ROUNDS)
    finally:
        broker.stop()
    done = len(runs["on"])
    for mode, name, seed in (("on", "broker there", 1), ("down", "no broker", 2)):
        flat = [v for r in runs[mode] for v in r]
        base = [v for r in runs["off-" + mode] for v in r]
        base_p99 = pct(base, 99)
        out.append(ratio_row(f"scan to verdict with venue mode ({name})", f"median <= {SLOWER_AT_MOST:.2f}x without",
                             runs[mode], runs["off-" + mode], SLOWER_AT_MOST, baseline_name="without venue mode",
                             seed=seed,
                             note=f"{done} rounds, the table's scans with venue mode and without it in turn, "
                                  f"{len(base)} without; p99 {pct(flat, 99):.2f} ms with, {base_p99:.2f} ms without"))
        lo, hi = bootstrap_ratio(runs[mode], runs["off-" + mode], stat=lambda v: pct(v, 99), seed=seed)
        ok, unsure = judge(lo, hi, SLOWER_AT_MOST)
        out.append(row(f"scan to verdict with venue mode ({name}): p99", f"p99 <= {SLOWER_AT_MOST:.2f}x without",
                       median=med(flat), p99=pct(flat, 99), baseline=base_p99, baseline_name="p99 without venue mode",
                       ratio=pct(flat, 99) / base_p99 if base_p99 else None, ok=ok, unsure=unsure, interval=(lo, hi),
                       interval_of="ratio of p99s (bootstrap)", rounds=done, n=len(flat),
                       note="the tail: a handful of slow scans on a shared machine, whichever mode they fall in"))
    return out


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pages"]:
        follow_pages(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        sys.exit(0)
    if sys.argv[1:2] == ["--tables"]:
        url, venue, folder, speed, window, n, k, out = sys.argv[2:10]
        play_tables(url, venue, folder, float(speed), float(window), int(n), int(k), out)
        sys.exit(0)
    if "--only" in sys.argv[1:]:
        which = sys.argv[sys.argv.index("--only") + 1]
        if which != "10x":
            sys.exit(f"bench_venue.py: --only takes 10x, not {which}")
        sys.exit(main(lambda quick: rows(quick, only=which), "venue"))
    sys.exit(main(rows, "venue"))
