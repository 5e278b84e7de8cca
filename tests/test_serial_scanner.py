"""The USB-serial scanner driver, run for real against a pseudo-terminal scanner."""

from __future__ import annotations

import logging
import os
import queue
import select
import time

import pytest

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, DeviceStatus
from companion.devices.emulated.serial_scanner import PtyScanner
from companion.devices.scan.serial import UNPLUGGED, LineFramer, SerialScanner, decode_line
from queue_helpers import WatchedClock, drain, next_status

CODES = ["SRS71M", "SHX02K", "SBL9Q", "SWD3Z7"]
STREAM = b"SRS71M\r\nSHX02K\rSBL9Q\nSWD3Z7\r\n"



def send_and_collect(pty: PtyScanner, scanner: SerialScanner, q: queue.Queue, data: bytes) -> list:
    target = scanner.bytes_read + len(data)
    pty.send(data)
    assert scanner.wait_for_bytes(target, timeout=2.0)
    return drain(q)


@pytest.fixture
def clock():
    return FakeClock(100.0)


@pytest.fixture
def mono():
    """The in-thread reader's monotonic clock: it stands still unless a test moves it."""
    return WatchedClock(0.0)


@pytest.fixture(params=[False, True], ids=["in-thread", "stamped"])
def rig(clock, mono, request):
    """A plugged-in emulated scanner and a started driver, its "connected" status
    consumed: read by the thread itself (its idle gap measured on ``mono``), and through
    a stamping process (issue 24), whose reads are stamped with ``time.monotonic()``."""
    q: queue.Queue = queue.Queue()
    pty = PtyScanner()
    stamped = request.param
    scanner = SerialScanner(pty.path, q, clock, name="left", seat=2, stamped=stamped,
                            **({} if stamped else {"monotonic": mono.now}))
    scanner.start()
    connected = q.get(timeout=2.0)
    assert connected == DeviceStatus("left", "connected", 100.0)
    try:
        yield pty, scanner, q
    finally:
        scanner.stop()
        pty.close()


# --- LineFramer and decode_line: pure ------------------------------------------------


def test_every_single_and_double_split_of_the_stream_gives_the_same_lines():
    expected = [c.encode() for c in CODES]
    n = len(STREAM)
    for i in range(n + 1):
        for j in range(i, n + 1):
            framer = LineFramer()
            lines = framer.feed(STREAM[:i]) + framer.feed(STREAM[i:j]) + framer.feed(STREAM[j:])
            assert lines == expected, (i, j)


def test_byte_at_a_time_gives_the_same_lines():
    framer = LineFramer()
    lines = [line for byte in STREAM for line in framer.feed(bytes([byte]))]
    assert lines == [c.encode() for c in CODES]


def test_crlf_split_between_two_chunks_is_one_terminator():
    framer = LineFramer()
    assert framer.feed(b"SRS71M\r") == [b"SRS71M"]
    assert framer.feed(b"\nSHX02K\r\n") == [b"SHX02K"]


def test_empty_lines_between_terminators_yield_nothing():
    assert LineFramer().feed(b"\r\n\r\n\n\rSBL9Q\r\r\n\n") == [b"SBL9Q"]


def test_line_of_exactly_max_length_is_kept_and_one_more_byte_is_discarded(caplog):
    framer = LineFramer(max_length=8)
    assert framer.feed(b"A" * 8 + b"\r") == [b"A" * 8]
    with caplog.at_level(logging.WARNING):
        assert framer.feed(b"B" * 9 + b"\rOK\r") == [None, b"OK"]  # None: one garbled read
    assert "longer than 8 bytes" in caplog.text


def test_rest_of_an_overlong_line_in_later_chunks_is_discarded_too():
    framer = LineFramer(max_length=8)
    assert framer.feed(b"X" * 20) == [None]  # reported once, as soon as it is too long
    assert framer.feed(b"STILLTHESAMELINE") == []
    assert framer.feed(b"TAIL\r\nSBL9Q\n") == [b"SBL9Q"]


def test_reset_drops_a_partial_line():
    framer = LineFramer()
    assert framer.feed(b"SRS7") == []
    framer.reset()
    assert framer.feed(b"SHX02K\r") == [b"SHX02K"]


def test_decode_line():
    assert decode_line(b"SRS71M") == "SRS71M"
    assert decode_line(b" \tSRS71M  ") == "SRS71M"
    assert decode_line(b"   ") == ""
    assert decode_line(b"\xff\xfe") is None
    assert decode_line(b"SRS\x0071M") is None
    assert decode_line(b"SRS\x1b71M") is None
    assert decode_line("SRSé1M".encode()) is None


# --- SerialScanner on a real pseudo-terminal ------------------------------------------


@pytest.mark.parametrize("terminator", [b"\r", b"\n", b"\r\n"], ids=["CR", "LF", "CRLF"])
def test_each_terminator_delivers_one_scan_per_card(rig, clock, terminator):
    pty, scanner, q = rig
    clock.set(101.5)
    events = send_and_collect(pty, scanner, q, b"".join(c.encode() + terminator for c in CODES))
    assert events == [CardScanned(code, "left", 101.5, seat=2) for code in CODES]


def test_crlf_split_across_two_reads_of_the_port_counts_once(rig):
    pty, scanner, q = rig
    # Waiting for the first half to be consumed forces the CR and the LF into separate reads.
    assert send_and_collect(pty, scanner, q, b"SRS71M\r") == [CardScanned("SRS71M", "left", 100.0, 2)]
    assert send_and_collect(pty, scanner, q, b"\nSHX02K\r") == [CardScanned("SHX02K", "left", 100.0, 2)]
    assert send_and_collect(pty, scanner, q, b"\n") == []
    assert scanner.bytes_read == len(b"SRS71M\r\nSHX02K\r\n")


def test_scan_helper_and_whitespace_only_lines(rig):
    pty, scanner, q = rig
    target = scanner.bytes_read + len(b"SBL9Q\r\n") + len(b"   \r\n")
    pty.scan("SBL9Q")
    pty.send(b"   \r\n")
    assert scanner.wait_for_bytes(target)
    assert [e.code for e in drain(q)] == ["SBL9Q"]


def test_garbled_bytes_give_a_scan_with_no_code(rig):
    pty, scanner, q = rig
    events = send_and_collect(pty, scanner, q, b"\xff\xfe\rSRS71M\r")
    assert [e.code for e in events] == [None, "SRS71M"]
    assert all(isinstance(e, CardScanned) and e.reader == "left" for e in events)


def test_overlong_line_is_discarded_and_the_next_line_still_decodes(rig, caplog):
    pty, scanner, q = rig
    with caplog.at_level(logging.WARNING):
        events = send_and_collect(pty, scanner, q, b"9" * 200 + b"\r\nSHX02K\r\n")
    assert [e.code for e in events] == [None, "SHX02K"]  # the overlong line is a garbled read
    assert "longer than 64 bytes" in caplog.text


def test_wait_for_bytes_means_the_queue_is_complete_every_time(rig, clock):
    pty, scanner, q = rig
    for i in range(50):
        clock.advance(1.0)
        code = f"SRS{i:02d}M"
        events = send_and_collect(pty, scanner, q, code.encode() + b"\r\n")
        assert events == [CardScanned(code, "left", clock.now(), 2)], i


def test_a_burst_longer_than_one_read_gives_every_scan_once_in_order(rig):
    # 1,000 labels (9 kB) written at once: a terminal's buffer holds 4 kB, so the reader
    # gets them over several reads, and a label cut between two reads is still one scan.
    pty, scanner, q = rig
    codes = [f"SRS{i:03d}M" for i in range(1000)]
    data = b"".join(c.encode() + b"\r\n" for c in codes)
    assert len(data) > 2 * 4096
    events = send_and_collect(pty, scanner, q, data)
    assert [e.code for e in events] == codes


def test_wait_for_bytes_times_out_with_false(rig):
    _, scanner, _ = rig
    start = time.monotonic()
    assert scanner.wait_for_bytes(scanner.bytes_read + 1, timeout=0.1) is False
    assert time.monotonic() - start < 1.0


def test_stop_is_prompt_and_idempotent(rig):
    _, scanner, _ = rig
    assert scanner.running and scanner.connected
    start = time.monotonic()
    scanner.stop()
    assert time.monotonic() - start < 1.0
    assert not scanner.running and not scanner.connected
    scanner.stop()
    with pytest.raises(RuntimeError):
        scanner.start()


def test_stop_before_start_is_harmless(clock):
    with PtyScanner() as pty:
        SerialScanner(pty.path, queue.Queue(), clock).stop()


def test_unplug_mid_game_reports_disconnected_and_keeps_the_thread_alive(rig, clock):
    pty, scanner, q = rig
    assert [e.code for e in send_and_collect(pty, scanner, q, b"SRS71M\r\n")] == ["SRS71M"]
    target = scanner.bytes_read + 4
    pty.send(b"SHX0")  # the cable comes out in the middle of a label
    assert scanner.wait_for_bytes(target)
    clock.set(130.0)
    pty.close()
    status = next_status(q, "disconnected")
    assert status == DeviceStatus("left", "disconnected", 130.0, UNPLUGGED)
    assert "USB cable" in status.detail
    assert scanner.running and not scanner.connected
    start = time.monotonic()
    scanner.stop()
    assert time.monotonic() - start < 1.0
    assert not scanner.running
    assert [e for e in drain(q) if isinstance(e, CardScanned)] == []


@pytest.mark.parametrize("stamped", [False, True], ids=["in-thread", "stamped"])
def test_replugged_scanner_on_the_same_path_is_read_again(tmp_path, clock, stamped):
    """A udev symlink (e.g. /dev/sugar-scanner) stays put while the tty under it changes
    (read through a stamping process, a new one for the new tty)."""
    link = tmp_path / "sugar-scanner"
    q: queue.Queue = queue.Queue()
    first = PtyScanner()
    os.symlink(first.path, link)
    scanner = SerialScanner(str(link), q, clock, name="left", stamped=stamped)
    second = None
    try:
        scanner.start()
        next_status(q, "connected")
        first.send(b"SRS7")  # half a label, then the cable is pulled
        assert scanner.wait_for_bytes(4)
        first.close()
        next_status(q, "disconnected")
        second = PtyScanner()
        os.replace(_tmp_symlink(tmp_path, second.path), link)
        next_status(q, "connected")
        assert scanner.running and scanner.connected
        second.send(b"1M\r\nSHX02K\r\n")
        assert scanner.wait_for_bytes(4 + len(b"1M\r\nSHX02K\r\n"))
        # The cut-off "SRS7" is never joined to "1M".
        assert [e.code for e in drain(q) if isinstance(e, CardScanned)] == ["1M", "SHX02K"]
    finally:
        scanner.stop()
        first.close()
        if second is not None:
            second.close()


def test_scanner_missing_at_start_is_reported_and_picked_up_when_plugged_in(tmp_path, clock):
    link = tmp_path / "sugar-scanner"
    q: queue.Queue = queue.Queue()
    scanner = SerialScanner(str(link), q, clock, name="left")
    pty = None
    try:
        scanner.start()
        status = q.get(timeout=2.0)
        assert status.status == "disconnected" and str(link) in status.detail
        assert "USB cable" in status.detail
        assert scanner.running and not scanner.connected
        pty = PtyScanner()
        os.symlink(pty.path, link)
        next_status(q, "connected")
        pty.scan("SWD3Z7")
        assert scanner.wait_for_bytes(len(b"SWD3Z7\r\n"))
        assert drain(q) == [CardScanned("SWD3Z7", "left", 100.0)]
    finally:
        scanner.stop()
        if pty is not None:
            pty.close()


def _tmp_symlink(directory, target: str):
    """A new symlink beside the real one, so os.replace swaps it in atomically."""
    tmp = directory / "sugar-scanner.new"
    os.symlink(target, tmp)
    return tmp


# --- no terminator, AIM identifiers, doubled reads (issue 5) ---------------------------


def next_scan(q: queue.Queue, timeout: float = 2.0) -> CardScanned:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = q.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(item, CardScanned):
            return item
    pytest.fail("no scan arrived")


def quiet(scanner: SerialScanner, mono: WatchedClock, seconds: float) -> None:
    """``seconds`` of silence from the scanner: on the reader's clock ``mono`` when it is
    read in its thread; in real time when stamped (the stamping process stamps each read
    with ``time.monotonic()``, the clock that reader's idle gap is measured on)."""
    if scanner.stamped:
        time.sleep(seconds)
    else:
        mono.advance(seconds)


def test_a_scanner_with_no_terminator_ends_each_scan_after_the_idle_gap(rig, mono):
    pty, scanner, q = rig
    for code in ("SRS71M", "SRP21T"):
        target = scanner.bytes_read + len(code)
        pty.send(code.encode())
        assert scanner.wait_for_bytes(target)
        quiet(scanner, mono, 0.1)
        assert next_scan(q).code == code


def test_the_idle_gap_is_measured_on_the_readers_monotonic_clock(clock):
    """Read in its thread, real time passing ends nothing, 0.09 s of silence on the
    reader's clock is not the 0.1 s gap, 0.1 s is."""
    q: queue.Queue = queue.Queue()
    mono = WatchedClock(0.0)
    with PtyScanner() as pty:
        scanner = SerialScanner(pty.path, q, clock, name="left", seat=2, monotonic=mono.now)
        scanner.start()
        try:
            next_status(q, "connected")
            pty.send(b"SRS71M")
            assert scanner.wait_for_bytes(6)  # read at 0.0 on the reader's clock
            assert mono.wait_looked(5)  # the reader went round its loop in real time, and decided
            assert drain(q) == []
            mono.advance(0.09)
            assert mono.wait_looked(5)
            assert drain(q) == []
            mono.set(0.1)  # exactly the idle gap after the last byte
            assert q.get(timeout=2.0) == CardScanned("SRS71M", "left", 100.0, 2)
            assert drain(q) == []
        finally:
            scanner.stop()


def test_a_label_split_over_two_reads_inside_the_idle_gap_is_one_scan(rig, mono):
    pty, scanner, q = rig
    pty.send(b"SRS7")
    assert scanner.wait_for_bytes(4)  # the first read
    quiet(scanner, mono, 0.03)  # a pause shorter than the 0.1 s idle gap
    pty.send(b"1M\r\n")
    assert next_scan(q).code == "SRS71M"
    assert not [i for i in drain(q) if isinstance(i, CardScanned)]


@pytest.mark.parametrize("aim", [b"]C0", b"]Q1", b"]E0", b"]d2"])
def test_aim_symbology_identifiers_are_stripped(aim):
    assert decode_line(aim + b"SRS71M") == "SRS71M"


def test_text_that_only_looks_like_an_identifier_is_kept():
    assert decode_line(b"]") == "]" and decode_line(b"SR]C0") == "SR]C0"


def test_a_stamped_scanner_queues_each_scan_with_when_its_bytes_came(clock):
    """Read by a stamping process, each scan goes on the session's queue with the time
    its bytes came (taken outside this process), so the loop can order it among taps."""
    from companion.table.inputs import InputQueue

    q = InputQueue()
    pty = PtyScanner()
    scanner = SerialScanner(pty.path, q, clock, name="left", stamped=True)
    try:
        scanner.start()
        assert q.get(timeout=2.0).status == "connected"
        assert q.sources == [scanner.arriving_before]
        before = time.monotonic()
        pty.send(b"SRS71M\r")
        assert scanner.wait_for_bytes(7)
        after = time.monotonic()
        (number, came), = q.waiting()
        assert before <= came <= after and q.get_nowait().code == "SRS71M"
        assert not scanner.arriving_before(after + 1.0)  # nothing more on its way
    finally:
        scanner.stop()
        pty.close()


def test_a_stamper_tells_the_oldest_read_waiting_without_taking_it():
    from companion.devices.scan.stamper import Stamper

    r, w = os.pipe()
    stamper = Stamper(r)
    try:
        assert stamper.oldest() is None
        os.write(w, b"SR")
        assert select.select([stamper.fileno()], [], [], 2.0)[0]  # the stamping process passed it on
        came = stamper.oldest()
        assert came is not None and stamper.oldest() == came  # looked at, not taken
        assert stamper.read() == (came, b"SR")
        assert stamper.oldest() is None
    finally:
        stamper.close()
        os.close(w)
        os.close(r)


def test_a_stamped_scan_waiting_for_its_idle_gap_is_still_on_its_way(clock):
    """A scanner with no terminator: its bytes are read, the scan is queued only when
    the idle gap has passed, stamped with its last byte. Until then a tap made after
    those bytes must wait for it (it is still on its way), or the tap would be handled
    first and the scan, made before it, after it."""
    from companion.table.inputs import InputQueue

    q = InputQueue()
    pty = PtyScanner()
    scanner = SerialScanner(pty.path, q, clock, name="left", stamped=True, idle_gap=0.4)
    try:
        scanner.start()
        assert q.get(timeout=2.0).status == "connected"
        pty.send(b"SRS71M")
        assert scanner.wait_for_bytes(6)
        tapped = time.monotonic()
        assert q.waiting() == []  # not queued yet: the idle gap has not passed
        assert scanner.arriving_before(tapped)
        assert q.get(timeout=2.0).code == "SRS71M"
        assert not scanner.arriving_before(time.monotonic())
    finally:
        scanner.stop()
        pty.close()
