"""A USB-serial barcode scanner: bytes in, one :class:`CardScanned` per scanned label.

A scanner in USB-serial (CDC-ACM) mode sends each label as ASCII text followed by a
terminator, CR, LF or CRLF depending on its setup. :class:`LineFramer` cuts the byte stream
into lines and :func:`decode_line` turns a line into a code. Both are pure, so they can be
tested byte by byte. :class:`SerialScanner` reads the port with pyserial in its own thread
and survives the cable being pulled out and put back.

>>> framer = LineFramer()
>>> framer.feed(b"SRS71M\\r"), framer.feed(b"\\nSHX02K\\n")
([b'SRS71M'], [b'SHX02K'])
>>> decode_line(b" SRS71M "), decode_line(b"\\xff\\xfe")
('SRS71M', None)

Framing (AIM identifiers, configured prefixes and suffixes, control characters) is
stripped by :mod:`companion.devices.scan.normalise`, the same for every reader.
"""

from __future__ import annotations

import logging
import queue
import select
import threading
import time
from typing import Callable

import serial

from companion.core.clock import Clock
from companion.core.errors import DeviceError
from companion.core.events import CardScanned

from .base import ReaderThread
from .normalise import NO_FRAMING, Framing, clean_scan

log = logging.getLogger(__name__)

_CR = 0x0D
_LF = 0x0A
_READ_TIMEOUT = 0.05  # seconds a read of a port select() found readable may wait
_RETRY_PERIOD = 0.5  # seconds between attempts to reopen an unplugged scanner

UNPLUGGED = "scanner disconnected: check its USB cable"


class LineFramer:
    """Cuts a byte stream into lines. Pure: no I/O, no clock.

    A line ends at CR, LF or CRLF; a CRLF counts once even when the CR ends one chunk and
    the LF starts the next. Empty lines yield nothing. A line longer than ``max_length``
    bytes (a scanner stuck sending, or line noise) is dropped whole, up to its terminator,
    with a logged warning, and yields None once, as soon as it is too long: a garbled
    read that still gets a verdict.

    >>> f = LineFramer(max_length=4)
    >>> f.feed(b"TOOLONG\\rOK\\r\\n\\n")
    [None, b'OK']
    """

    def __init__(self, max_length: int = 64):
        if max_length < 1:
            raise ValueError(f"max_length must be at least 1 byte, not {max_length}")
        self.max_length = max_length
        self._line = bytearray()
        self._discarding = False  # inside an overlong line: drop bytes until its terminator
        self._after_cr = False  # the last byte was CR, so an LF now completes a CRLF

    def feed(self, chunk: bytes) -> list[bytes | None]:
        """Add ``chunk`` and return the lines it completed, terminators removed (None for
        a line that grew too long)."""
        lines: list[bytes | None] = []
        for byte in chunk:
            if byte == _LF and self._after_cr:
                self._after_cr = False
                continue
            self._after_cr = byte == _CR
            if byte in (_CR, _LF):
                if self._line and not self._discarding:
                    lines.append(bytes(self._line))
                self._line.clear()
                self._discarding = False
            elif not self._discarding:
                self._line.append(byte)
                if len(self._line) > self.max_length:
                    log.warning(
                        "scanner line longer than %d bytes discarded (starts %r)",
                        self.max_length,
                        bytes(self._line[:16]),
                    )
                    self._line.clear()
                    self._discarding = True
                    lines.append(None)
        return lines

    @property
    def pending(self) -> bool:
        """True while a partial line waits for its terminator (or an idle gap)."""
        return bool(self._line) and not self._discarding

    def flush(self) -> bytes | None:
        """End the partial line now (a scanner with no terminator went quiet): return it,
        or None when there is none (or it was overlong)."""
        line = bytes(self._line) if self._line and not self._discarding else None
        self.reset()
        return line

    def reset(self) -> None:
        """Forget any partial line, e.g. after an unplug, so it is never joined to later data."""
        self._line.clear()
        self._discarding = False
        self._after_cr = False


def decode_line(line: bytes, framing: Framing = NO_FRAMING) -> str | None:
    """The code in one line, framing stripped by
    :func:`~companion.devices.scan.normalise.clean_scan` (control characters and white
    space at the ends, configured prefix and suffix, an AIM identifier such as ``]C0``).

    Returns None when a byte left is not printable ASCII (a garbled read) and ``""`` for a
    line of only framing.

    >>> decode_line(b"\\tSBL9Q  "), decode_line(b"SB\\x00L9Q"), decode_line(b"  ")
    ('SBL9Q', None, '')
    """
    return clean_scan(line, framing)


class SerialScanner(ReaderThread):
    """A USB-serial barcode scanner read in its own daemon thread.

    Every completed line becomes ``CardScanned(code, reader=name, t=clock.now(), seat)`` on
    ``out`` (``code`` None for a garbled read; whitespace-only lines are skipped). Device
    changes become :class:`DeviceStatus` on ``out``: ``"connected"`` when the port opens,
    ``"disconnected"`` (with a sentence for the players) when it cannot be opened or is
    unplugged. While disconnected the same path is retried every 0.5 s, so a scanner
    plugged back in (same udev symlink or device node) is picked up again.

    ``baudrate`` is in bits per second; ``max_length`` in bytes (see :class:`LineFramer`).
    Nothing here raises for a missing or vanished device: it is reported on ``out``.
    ``tap(data, t)``, when given, sees every chunk of raw bytes as read (``--record``).
    ``idle_gap`` (seconds, default 0.1) ends a scan from a scanner set up with no
    terminator: a partial line followed by that much silence is one scan. A label split
    over two reads less than ``idle_gap`` apart is still one scan. None waits for a
    terminator forever (trace replay, whose chunks already carry their terminators).
    ``stamped``: the port is read by a :class:`~companion.devices.scan.stamper.Stamper`
    process, which notes when each read came however busy this process is; each scan is
    queued with the time the read that ended it came, and the loop can ask
    :meth:`arriving_before` (``companion run`` reads its serial scanners so; without a
    stamping process, the thread's own clock after its wait is used).

    ``monotonic`` (a ``() -> float`` in seconds, default ``time.monotonic``) is the clock
    the idle gap is measured on and, unstamped, the arrival times are taken from; a test
    passes a :class:`~companion.core.clock.FakeClock`'s ``now`` and advances it. Stamped,
    or queueing on an :class:`~companion.table.inputs.InputQueue`, it must be
    ``time.monotonic``: the stamping process and the queue keep their times on it.
    Raises ValueError for a ``max_length`` below 1.
    """

    def __init__(
        self,
        port: str,
        out: queue.Queue,
        clock: Clock,
        name: str = "serial",
        baudrate: int = 9600,
        seat: int | None = None,
        max_length: int = 64,
        tap: "Callable[[bytes, float], None] | None" = None,
        idle_gap: float | None = 0.1,
        framing: Framing = NO_FRAMING,
        stamped: bool = False,
        monotonic: Callable[[], float] = time.monotonic,
    ):
        super().__init__(name, out, clock, monotonic)
        self.stamped = stamped
        self._stamper = None  # a Stamper while the port is open, when stamped
        self._inflight = threading.Lock()  # held from taking a stamped read until its scans are queued
        if stamped and hasattr(out, "sources"):
            out.sources.append(self.arriving_before)  # the loop asks before handling a tap
        self.framing = framing
        self.port = port
        self.baudrate = baudrate
        self.seat = seat
        self._framer = LineFramer(max_length)
        self._serial: serial.Serial | None = None
        self._counted = threading.Condition()
        self._bytes_read = 0
        self._tap = tap
        self._idle_gap = idle_gap
        self._last_data = 0.0  # monotonic() of the last byte read (the stamping process's, stamped)
        self._arrived: float | None = None  # monotonic() the last wait for bytes ended

    # --- public API ---------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """True while the port is open."""
        return self._serial is not None

    @property
    def bytes_read(self) -> int:
        """Total bytes consumed from the port since construction, across reconnects."""
        with self._counted:
            return self._bytes_read

    def arriving_before(self, t: float) -> bool:
        """True when a read that came before ``t`` (``time.monotonic()`` s) has not been
        taken yet, or is being taken and its scans are not queued yet: the loop then
        waits for it before handling a tap made at ``t``; so is a partial line read
        before ``t`` that the idle gap will end (it is queued stamped with its last byte).
        Always False unstamped."""
        with self._inflight:
            stamper = self._stamper
            if stamper is None:
                return False
            if self._idle_gap is not None and self._framer.pending and self._last_data < t:
                return True
            came = stamper.oldest()
            return came is not None and came < t

    def wait_for_bytes(self, total: int, timeout: float = 2.0) -> bool:
        """Block until ``bytes_read >= total`` or ``timeout`` seconds pass; True if reached.

        The count grows only after the events for those bytes are on ``out``, so once this
        returns True the queue holds every scan that those bytes completed.
        """
        with self._counted:
            return self._counted.wait_for(lambda: self._bytes_read >= total, timeout)

    # --- reader thread --------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                port = self._serial
                if port is None:
                    if not self._try_open(first=False):
                        self._stopping.wait(_RETRY_PERIOD)
                    continue
                wait = self._quiet_wait(self._idle_gap, self._framer.pending, self._last_data)
                if self._stamper is not None:
                    self._run_stamped(wait)
                    continue
                try:
                    ready, _, _ = select.select([port.fileno(), *self._stop_fds()], [], [], wait)
                    self._arrived = self._monotonic()  # the earliest this thread can tell the bytes came
                    data = b""
                    if port.fileno() in ready:
                        # Readable with nothing waiting is an unplugged port: pyserial's
                        # read then raises "device reports readiness to read but returned
                        # no data" after at most _READ_TIMEOUT.
                        data = port.read(port.in_waiting or 1)
                except (serial.SerialException, OSError, ValueError) as exc:
                    self._lost(exc)
                    continue
                if data:
                    self._last_data = self._monotonic()
                    self._consume(data)
                else:
                    self._end_by_idle_gap()
        finally:
            self._close()

    def _run_stamped(self, wait: float) -> None:
        """One wait of :meth:`_run` on the stamping process instead of the port."""
        stamper = self._stamper
        try:
            ready, _, _ = select.select([stamper.fileno(), *self._stop_fds()], [], [], wait)
            if stamper.fileno() in ready:
                with self._inflight:
                    self._arrived, data = stamper.read()
                    self._last_data = self._arrived
                    self._consume(data)
                return
        except OSError as exc:
            self._lost(exc)
            return
        self._end_by_idle_gap()

    def _end_by_idle_gap(self) -> None:
        """A partial line followed by ``idle_gap`` of silence is one scan, stamped with its
        last byte (and still on its way, :meth:`arriving_before`, until it is queued)."""
        if self._idle_gap_passed(self._idle_gap, self._last_data):
            with self._inflight:
                if (line := self._framer.flush()) is not None:
                    self._arrived = self._last_data
                    self._emit(line)

    def _consume(self, data: bytes) -> None:
        if self._tap is not None:
            self._tap(data, self._clock.now())
        for line in self._framer.feed(data):
            self._emit(line)
        # Counted only now: wait_for_bytes() promises the events above are already queued.
        with self._counted:
            self._bytes_read += len(data)
            self._counted.notify_all()

    def _emit(self, line: bytes | None) -> None:
        """One line -> one CardScanned (None: an overlong line, a garbled read)."""
        code = None if line is None else decode_line(line, self.framing)
        if code == "":
            return
        if code is None:
            log.info("scanner %s: garbled read %r", self.name, line)
        self._queue(CardScanned(code=code, reader=self.name, t=self._clock.now(), seat=self.seat), self._arrived)

    def _try_open(self, first: bool) -> bool:
        """One attempt to open the port. Reports "connected", or on the first failure only,
        "disconnected"; retries are silent so the screen is not flooded."""
        try:
            self._serial = self._open()
        except DeviceError as exc:
            if first:
                log.warning("%s: %s; retrying every %.1f s", self.name, exc, _RETRY_PERIOD)
                self._status("disconnected", str(exc))
            return False
        self._framer.reset()
        if self.stamped:
            from .stamper import Stamper

            try:
                self._stamper = Stamper(self._serial.fileno())
            except OSError as exc:  # no process could be started: read it here, as unstamped
                log.warning("scanner %s: no stamping process (%s); reading it in this process", self.name, exc)
        log.info("scanner %s: connected at %s", self.name, self.port)
        self._status("connected")
        return True

    def _open(self) -> serial.Serial:
        """Open and configure the port. Raises DeviceError (an OSError) saying what to check."""
        try:
            return serial.Serial(self.port, self.baudrate, timeout=_READ_TIMEOUT)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise DeviceError(f"no scanner found at {self.port}: check its USB cable") from exc

    def _lost(self, exc: Exception) -> None:
        log.warning("%s at %s lost (%s); retrying every %.1f s", self.name, self.port, exc, _RETRY_PERIOD)
        self._framer.reset()  # a cut-off line must never be joined to later data
        self._close()
        self._status("disconnected", UNPLUGGED)
        self._stopping.wait(_RETRY_PERIOD)

    def _close(self) -> None:
        stamper, self._stamper = self._stamper, None
        if stamper is not None:
            stamper.close()
        port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError) as exc:
                log.debug("scanner %s: error closing %s: %s", self.name, self.port, exc)

