"""`companion run --record` writes what the scanner sent; replaying it gives the same game."""

import json
import os
import signal
import subprocess
import sys
import time

from companion.devices.emulated.serial_scanner import PtyScanner
from companion.table.replay import replay
from companion.table.trace import read
from sugarrr_helpers import STARTS, fruit


def wait_for(proc, predicate, timeout=15.0):
    """Read JSON lines from proc.stdout until predicate(obj) holds."""
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        obj = json.loads(line)
        seen.append(obj)
        if predicate(obj):
            return seen
    raise AssertionError(f"timed out; saw {seen}")


def test_a_recorded_session_replays_to_the_same_state(tmp_path):
    trace = tmp_path / "table.trace"
    with PtyScanner() as pty:
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--game", "sugarrr", "--names", "Ana,Ben",
             "--scanner", f"serial:{pty.path}", "--headless", "--log-format", "json",
             "--store", str(tmp_path / "t.db"), "--record", str(trace)],
            stdout=subprocess.PIPE, text=True, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
        try:
            wait_for(proc, lambda o: o.get("event") == "device" and o["status"] == "connected")
            codes = STARTS + [fruit("Pineapple", 5)]
            for i, code in enumerate(codes):
                if i == 2:  # one scan split over two reads, as a slow scanner sends it
                    pty.send(code[:3].encode())
                    time.sleep(0.05)
                    pty.send(code[3:].encode() + b"\r")
                else:
                    pty.scan(code, b"\n" if i % 2 else b"\r\n")
                wait_for(proc, lambda o: o.get("event") == "scan")
            pty.scan("SRS7")  # garbled: rejected, recorded all the same
            seen = wait_for(proc, lambda o: o.get("event") == "scan")
            assert seen[-1]["verdict"] == "rejected"
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=10) == 0
    recorded = read(trace)
    assert recorded.players == ("Ana", "Ben")
    assert b"".join(r.data for r in recorded.records).count(b"SRS7") == 1  # the garbled read
    runner = replay(trace, window=False)
    state = runner.session.state
    assert state.columns[0] == (STARTS[0], fruit("Pineapple", 5))
    assert [c[0] for c in state.columns] == STARTS


# --- records survive a restart; keyboard-mode and NFC reads are recorded too -------------

from companion.core.clock import FakeClock  # noqa: E402
from companion.core.store import EventStore  # noqa: E402
from companion.devices.emulated.pn532 import EmulatedPn532  # noqa: E402
from companion.table.session import Session, state_digest  # noqa: E402
from companion.table.trace import TraceWriter  # noqa: E402


def run(tmp_path, trace, *scanners, names=("Ana", "Ben")):
    args = [sys.executable, "-m", "companion.cli", "run", "--game", "sugarrr", "--headless",
            "--log-format", "json", "--store", str(tmp_path / "t.db"), "--record", str(trace)]
    if names:
        args += ["--names", ",".join(names)]
    for spec in scanners:
        args += ["--scanner", spec]
    return subprocess.Popen(args, stdout=subprocess.PIPE, text=True, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})


def scan_and_wait(proc, pty, code):
    pty.scan(code)
    seen = wait_for(proc, lambda o: o.get("event") == "scan")
    assert seen[-1]["verdict"] == "accepted", seen[-1]


def test_a_game_recorded_across_a_crash_and_a_restart_replays_whole_from_one_file(tmp_path):
    trace = tmp_path / "table.trace"
    with PtyScanner() as pty:
        proc = run(tmp_path, trace, f"serial:{pty.path}")
        try:
            wait_for(proc, lambda o: o.get("event") == "device" and o["status"] == "connected")
            for code in STARTS[:3]:
                scan_and_wait(proc, pty, code)
            pty.send(b"SRS")  # half a scan when the power goes
            time.sleep(0.2)
        finally:
            proc.kill()  # SIGKILL: no clean shutdown, as in a power cut
            proc.wait(timeout=10)
        with EmulatedPn532() as nfc:
            proc = run(tmp_path, trace, f"serial:{pty.path}", f"nfc:{nfc.path}", names=())
            try:
                wait_for(proc, lambda o: o.get("event") == "start" and o["resumed_inputs"] == 3)
                wait_for(proc, lambda o: o.get("event") == "device" and o["device"] == "scanner2"
                         and o["status"] == "connected")
                for code in STARTS[3:]:
                    scan_and_wait(proc, pty, code)
                nfc.place(bytes.fromhex("04112233445566"), fruit("Pineapple", 5))  # the sticker holds the code
                seen = wait_for(proc, lambda o: o.get("event") == "scan")
                assert seen[-1]["verdict"] == "accepted" and seen[-1]["reader"] == "scanner2"
                nfc.lift()
                nfc.place(bytes.fromhex("04000000000001"))  # a blank sticker no one paired
                seen = wait_for(proc, lambda o: o.get("event") == "scan")
                assert seen[-1]["verdict"] == "rejected"
                assert seen[-1]["reason"] == "This sticker is not paired with a card: run `companion enroll`."
            finally:
                proc.send_signal(signal.SIGTERM)
                assert proc.wait(timeout=10) == 0
    lines = trace.read_text().splitlines()
    assert sum(1 for line in lines if '"trace"' in line) == 1  # one header: appended, not started afresh
    recorded = read(trace)
    kinds = [r.kind for r in recorded.records]
    assert kinds.count("restart") == 1 and kinds.count("tag") == 2
    assert [r.t for r in recorded.records] == sorted(r.t for r in recorded.records)
    store = EventStore(tmp_path / "t.db")
    game = store.games()[0]
    table = Session.start("sugarrr", [], store, FakeClock(1e12))
    runner = replay(trace, window=False)
    def what(inputs):  # the stored inputs apart from their times (the trace's are relative)
        return [(i.code, i.reader) for i in inputs]

    assert what(runner.session.store.inputs(runner.session.game_id)) == what(store.inputs(game.id))
    assert state_digest(runner.session.state) == state_digest(table.state)
    assert runner.session.state.columns[0] == (STARTS[0], fruit("Pineapple", 5))


def test_a_line_cut_short_by_the_crash_is_dropped_before_appending(tmp_path):
    path = tmp_path / "t.trace"
    first = TraceWriter(path, "sugarrr", ["Ana", "Ben"], 1000.0, game_id=7)
    first.bytes("scanner", 1001.0, b"SRS71M\r")
    first.close()
    with open(path, "a") as f:
        f.write('{"t": 2.0, "device": "scan')  # the power went mid-line
    again = TraceWriter(path, "sugarrr", ["Ana", "Ben"], 1500.0, game_id=7)
    again.touch(1501.0, "done")
    again.close()
    assert again.appended
    records = read(path).records
    assert [(r.t, r.kind) for r in records] == [(1.0, "bytes"), (500.0, "restart"), (501.0, "touch")]


def test_another_game_starts_the_file_afresh(tmp_path):
    path = tmp_path / "t.trace"
    TraceWriter(path, "sugarrr", ["Ana", "Ben"], 1000.0, game_id=7).close()
    other = TraceWriter(path, "sugarrr", ["Ana", "Ben"], 2000.0, game_id=8)
    other.close()
    assert not other.appended and read(path).records == ()


def test_keyboard_mode_scans_are_recorded_and_replay_through_the_real_reader(tmp_path):
    import queue as queue_module

    from companion.table.build import _record_taps
    from companion.devices.emulated.hid import FakeInputDevice, key_events
    from companion.devices.scan.hid import HidScanner

    path = tmp_path / "hid.trace"
    clock = FakeClock(1000.0)
    writer = TraceWriter(path, "sugarrr", ["Ana", "Ben"], clock.now(), game_id=1)
    fake = FakeInputDevice("/dev/input/by-id/usb-Netum_Barcode_Scanner-event-kbd")
    q: queue_module.Queue = queue_module.Queue()
    reader = HidScanner(fake.path, q, clock, name="scanner", opener=fake.open,
                        tap=_record_taps(writer, "scanner")["hid_tap"])
    reader.start()
    try:
        for code in STARTS:
            clock.advance(2.0)
            events = key_events("]C0" + code)  # with an AIM identifier, as the scanner was set up
            target = reader.events_read + len(events)
            fake.send(events)
            assert reader.wait_for_events(target)
    finally:
        reader.stop()
        writer.close()
    assert {r.kind for r in read(path).records} == {"key"}
    runner = replay(path, window=False)
    assert [c[0] for c in runner.session.state.columns] == STARTS
