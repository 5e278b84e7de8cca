"""A quiet reader sleeps in select() on its device and a stop pipe: it costs nothing
while nobody scans, stops at once, and holds no file descriptor it does not need."""

import os
import queue
import select
import threading
import time
from types import SimpleNamespace

from companion.core.clock import FakeClock
from companion.core.events import CardScanned
from companion.devices.emulated.serial_scanner import PtyScanner
from companion.devices.scan import serial as serial_scan
from companion.devices.scan.base import IDLE_WAIT
from companion.devices.scan.serial import SerialScanner


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_quiet_serial_reader_stops_at_once_and_leaves_no_descriptor_open(monkeypatch):
    pty = PtyScanner()
    try:
        before = open_fds()
        q: queue.Queue = queue.Queue()
        reader = SerialScanner(pty.path, q, FakeClock())
        quiet = threading.Event()

        def watched_select(rlist, wlist, xlist, timeout):
            if timeout == IDLE_WAIT and reader.bytes_read == 7:
                quiet.set()  # the scan is read: the thread waits for the next one
            return select.select(rlist, wlist, xlist, timeout)

        monkeypatch.setattr(serial_scan, "select", SimpleNamespace(select=watched_select))
        assert open_fds() == before  # built, not started: nothing opened
        reader.start()
        pty.send(b"SRS215\r")
        item = q.get(timeout=2.0)
        while not isinstance(item, CardScanned):
            item = q.get(timeout=2.0)
        assert item.code == "SRS215"
        assert quiet.wait(2.0)  # quiet: the thread waits in select() (up to 5 s)
        t0 = time.monotonic()
        reader.stop()
        assert time.monotonic() - t0 < 0.5
        assert not reader.running
        assert open_fds() == before
    finally:
        pty.close()


def test_a_label_with_no_terminator_still_ends_after_the_idle_gap():
    pty = PtyScanner()
    q: queue.Queue = queue.Queue()
    mono = FakeClock()
    reader = SerialScanner(pty.path, q, FakeClock(), idle_gap=0.1, monotonic=mono.now)
    reader.start()
    try:
        pty.send(b"SRS215")  # no CR: the quiet gap ends the scan
        assert reader.wait_for_bytes(6)
        t0 = time.monotonic()
        mono.advance(0.1)  # the gap passes on the reader's clock: its select() wait is that short
        item = q.get(timeout=2.0)
        while not isinstance(item, CardScanned):
            item = q.get(timeout=2.0)
        assert item.code == "SRS215" and time.monotonic() - t0 < 1.0
    finally:
        reader.stop()
        pty.close()
