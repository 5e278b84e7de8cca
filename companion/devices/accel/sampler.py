"""Sampling the tray accelerometer in its own thread, and surviving I2C faults.

:class:`TraySampler` opens the bus, finds the chip (:func:`~companion.devices.accel.detect`),
configures it, and reads one burst per sample at the configured rate (default 100 Hz),
feeding the :class:`~companion.devices.tilt.TiltDetector`. Its ``TrayTilted`` and
``TrayLevel`` events go on the session queue.

With ``fifo=True`` (``companion run``) the chip's FIFO collects the samples at the output
data rate and the thread wakes only every ``BATCH_S[0]`` (0.15 s) while the tray is still,
every ``BATCH_S[1]`` (0.05 s) while it moves or a tilt is in its dwell, reading the whole
batch and feeding each sample with the time it was taken (the newest is "now", the others
one output period apart). At most 20 wake-ups a second instead of 100, and a tilt is
still reported at most 0.05 s after the detector's dwell ends. A FIFO that overran (the
thread was held up past 0.32 s) only loses samples; a chip that stops filling it (asleep,
reset) is a failure like any other.

Faults: an I2C error is never a sample. A sample whose three axes are identical (a chip
answering 0x00 or 0xFF everywhere, or one that fell asleep and reads zeros) is a fault
too, not "level". After ``max_failures`` (5) failures in a row the sensor is reported
``offline`` on the scoreboard, the bus is closed and reopened with backoff, and the chip is
re-initialised (re-woken) before its data is trusted again; it comes back by itself. The
daemon never stops because of the sensor.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any, Callable

from companion.core.clock import Clock
from companion.core.events import DeviceStatus

from . import detect

log = logging.getLogger(__name__)

OFFLINE = "tray sensor offline: check its cable"
BACKOFF_S = (0.5, 1.0, 2.0, 5.0)  # seconds between reopen attempts, then every 5 s
BATCH_S = (0.15, 0.05)  # seconds between FIFO reads: tray still, tray moving
MOVING_DEG = 3.0  # a level tray this far off level counts as moving (reads every 0.05 s)


class TraySampler:
    """The tray sensor's thread.

    ``open_bus()`` returns a fresh bus with the smbus2.SMBus API (``smbus2.SMBus(1)`` at
    the table, an :class:`~companion.devices.emulated.i2c.EmulatedBus` in tests and
    ``--simulate``). ``detector`` has ``feed(t, x, y, z) -> list[event]`` (g, seconds).
    ``rate_hz`` is the output data rate and sampling rate; ``range_g`` the full-scale range.
    ``sleep`` is passed to the driver (the MPU-6050 waits 100 ms after a reset).
    ``tap(t, (x, y, z))``, when given, sees every good sample (``run --record``).
    ``fifo`` turns the chip's FIFO on and the thread reads it in batches with
    :meth:`step_batch` (see the module docstring); without it the thread calls :meth:`step`,
    one sample a period, as tests and ``companion replay`` do. ``wakeups`` counts the
    thread's wake-ups, ``overruns`` the FIFO reads that found samples lost.
    """

    def __init__(self, open_bus: Callable[[], Any], out: "queue.Queue", clock: Clock, detector: Any,
                 name: str = "tray", rate_hz: float = 100.0, range_g: int = 2, max_failures: int = 5,
                 bus_name: str = "/dev/i2c-1", sleep: Callable[[float], None] = time.sleep,
                 tap: Callable[[float, tuple[float, float, float]], None] | None = None,
                 fifo: bool = False):
        self.name = name
        self.rate_hz = rate_hz
        self.range_g = range_g
        self.max_failures = max_failures
        self.detector = detector
        self.chip = None
        self.status = "starting"
        self.failures = 0
        self.last_g: tuple[float, float, float] | None = None
        self.fifo = fifo
        self.wakeups = 0
        self.overruns = 0
        self._batching = False  # the connected chip's FIFO is on
        self._empty = 0  # FIFO reads in a row that found nothing
        self._last_t = float("-inf")
        self._open_bus = open_bus
        self._out = out
        self._clock = clock
        self._bus_name = bus_name
        self._tap = tap
        self._sleep = sleep
        self._bus = None
        self._attempt = 0
        self._retry_at = 0.0
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ one step (tests call this)

    def step(self) -> None:
        """One sampling period's work: (re)connect when due, else read and feed one sample."""
        now = self._clock.now()
        if self.chip is None:
            if now >= self._retry_at:
                self._connect(now)
            return
        try:
            x, y, z = self.chip.read_g()
        except OSError as exc:  # NACK 121, EIO 5, ENXIO 6, or AccelError
            self._fail(f"I2C error {getattr(exc, 'errno', None)}: {exc}")
            return
        if x == y == z:
            self._fail(f"implausible sample ({x:.3f}, {y:.3f}, {z:.3f} g): chip asleep or bus stuck")
            return
        self._feed(max(now, self._last_t), (x, y, z))

    def step_batch(self) -> None:
        """One FIFO read: (re)connect when due, else feed every sample the FIFO holds,
        each with the time it was taken. Without a FIFO on, the same as :meth:`step`."""
        if self.chip is None or not self._batching:
            self.step()
            return
        now = self._clock.now()
        try:
            samples, lost = self.chip.read_fifo()
        except OSError as exc:
            self._fail(f"I2C error {getattr(exc, 'errno', None)}: {exc}")
            return
        if lost:
            self.overruns += 1
            log.debug("tray sensor: FIFO overran; samples lost")
        if not samples:
            self._empty += 1
            if self._empty >= 2:  # a FIFO still empty a period later: chip asleep or reset
                self._fail("the FIFO stays empty: chip asleep or reset")
            return
        self._empty = 0
        period = 1.0 / (self.chip.rate_hz or self.rate_hz)
        for i, (x, y, z) in enumerate(samples):
            if x == y == z:
                self._fail(f"implausible sample ({x:.3f}, {y:.3f}, {z:.3f} g): chip asleep or bus stuck")
                if self.chip is None:
                    return
                continue
            t = max(now - (len(samples) - 1 - i) * period, self._last_t)
            self._feed(t, (x, y, z))

    def _feed(self, t: float, g: tuple[float, float, float]) -> None:
        self.failures = 0
        self.last_g = g
        self._last_t = t
        if self._tap is not None:
            self._tap(t, g)
        for event in self.detector.feed(t, *g):
            self._out.put(event)

    def moving(self) -> bool:
        """The tray is moving or a tilt is in its dwell (the detector's state says so)."""
        state = getattr(self.detector, "state", None)
        angle = getattr(self.detector, "angle_deg", None) or 0.0
        return state in (None, "unknown", "tilting", "levelling") or (state == "level" and angle >= MOVING_DEG)

    def _connect(self, now: float) -> None:
        try:
            self._close_bus()
            self._bus = self._open_bus()
            chip = detect(self._bus, self._bus_name, sleep=self._sleep)
            watermark = None
            if self.fifo and chip.fifo_depth:
                watermark = max(1, min(chip.fifo_depth - 1, round(self.rate_hz * BATCH_S[0])))
            chip.init(range_g=self.range_g, rate_hz=self.rate_hz, fifo_watermark=watermark)
            self._batching = watermark is not None
            self._empty = 0
        except (OSError, LookupError) as exc:
            self._close_bus()
            delay = BACKOFF_S[min(self._attempt, len(BACKOFF_S) - 1)]
            self._attempt += 1
            self._retry_at = now + delay
            if self.status != "offline":
                log.warning("tray sensor offline: %s; retrying with backoff", exc)
                self._report("offline", OFFLINE)
            log.info("tray sensor: reconnect failed (%s); next try in %.1f s", exc, delay)
            return
        self.chip, self.failures, self._attempt = chip, 0, 0
        self._report("connected", f"{chip.part} at 0x{chip.address:02X}")

    def _fail(self, why: str) -> None:
        self.failures += 1
        log.debug("tray sensor: %s (%d in a row)", why, self.failures)
        if self.failures >= self.max_failures:
            self.chip = None
            self._close_bus()
            self._retry_at = self._clock.now() + BACKOFF_S[0]
            self._attempt = 1
            log.warning("tray sensor offline after %d failures in a row (%s); reconnecting", self.failures, why)
            self._report("offline", OFFLINE)

    def _report(self, status: str, detail: str) -> None:
        self.status = status
        self._out.put(DeviceStatus(self.name, status, self._clock.now(), detail if status != "connected" else ""))

    def _close_bus(self) -> None:
        if self._bus is not None:
            try:
                self._bus.close()
            except OSError:
                pass
            self._bus = None

    # ------------------------------------------------------------ the thread

    def start(self) -> None:
        """Start sampling in a daemon thread (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"sampler-{self.name}", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        next_t = time.monotonic()
        while not self._stopping.is_set():
            self.wakeups += 1
            try:
                self.step_batch() if self.fifo else self.step()
            except Exception:  # never let the sensor take the daemon down
                log.exception("tray sensor: unexpected error; carrying on")
                self._fail("unexpected error")
            if self._batching and self.chip is not None:
                next_t += BATCH_S[1] if self.moving() else BATCH_S[0]
            else:
                next_t += 1.0 / self.rate_hz
            delay = next_t - time.monotonic()
            if delay < -1.0:  # fell far behind (machine busy): do not try to catch up
                next_t = time.monotonic()
            self._stopping.wait(max(0.0, delay))
        self._close_bus()

    def stop(self) -> None:
        """Stop the thread (within one sampling period) and close the bus. Idempotent."""
        self._stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2.0)
        self._close_bus()
