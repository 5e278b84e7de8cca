"""What every card reader shares: a daemon thread that is started once and stopped
promptly, and device status reports on the session queue.

A reader subclasses :class:`ReaderThread` and provides ``_try_open(first) -> bool`` (one
attempt to open the device; called by :meth:`~ReaderThread.start` so that nothing sent
after ``start()`` returns is lost), ``_run()`` (the thread body, which must return soon
after ``_stopping`` is set) and ``_close()``.

Two clocks reach a reader: ``clock`` (:class:`~companion.core.clock.Clock`, the table's
seconds since the epoch) stamps what it puts on the queue, and ``monotonic`` (a
``() -> float`` in seconds, ``time.monotonic`` by default) takes every decision that
depends on time passing: when a scanner's silence ends a scan (the idle gap), when a
command's answer is late. Blocking waits (``select()``, the retry and poll periods) still
pass in real time; a test hands in a :class:`~companion.core.clock.FakeClock`'s ``now``
and advances it instead of sleeping.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from typing import Callable

from companion.core.clock import Clock
from companion.core.events import DeviceStatus

log = logging.getLogger(__name__)

JOIN_TIMEOUT = 1.0  # seconds stop() waits for the reader thread
RESTART_DELAY = 0.5  # seconds before a reader thread that hit a bug runs again
IDLE_WAIT = 5.0  # seconds one select() waits on a quiet device (stop() wakes it at once)


class ReaderThread:
    """The start/stop/status part of a reader. ``name`` names it in statuses and logs;
    ``clock.now()`` (seconds) stamps its statuses; ``monotonic()`` (seconds, never
    stepped) is the clock its idle gaps and timeouts are measured on (see the module)."""

    thread_prefix = "reader"

    def __init__(self, name: str, out: "queue.Queue", clock: Clock,
                 monotonic: Callable[[], float] = time.monotonic):
        self.name = name
        self._out = out
        self._clock = clock
        self._monotonic = monotonic
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        # stop() writes here: a reader waiting in select() on its device includes the read
        # end (``_stop_fds``), so it can wait for as long as its device is quiet. Made by
        # start(), closed by stop(): a reader never started holds no file descriptors.
        self._stop_r = self._stop_w = -1

    def _queue(self, item, arrived: float | None = None) -> None:
        """Put ``item`` on the session's queue; with ``arrived`` (when the device's bytes
        were seen, in seconds on the queue's clock: ``time.monotonic()`` for an
        InputQueue), stamped with it where the queue keeps arrival times
        (:meth:`InputQueue.put_arrived
        <companion.table.inputs.InputQueue.put_arrived>`), so the loop can order it among
        the touchscreen's taps by when it was made."""
        put_arrived = getattr(self._out, "put_arrived", None)
        if arrived is not None and put_arrived is not None:
            put_arrived(item, arrived)
        else:
            self._out.put(item)

    def start(self) -> None:
        """Open the device (once, here) and start the reader thread. Calling it again while
        running does nothing; a stopped reader cannot be restarted (RuntimeError)."""
        if self._stopping.is_set():
            raise RuntimeError(f"reader {self.name!r} was stopped; create a new one")
        if self._thread is not None:
            return
        self._try_open(first=True)
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._guarded, name=f"{self.thread_prefix}-{self.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the reader thread (joined within about 1 s) and close the device. Idempotent."""
        self._stopping.set()
        if self._stop_w >= 0:
            try:
                os.write(self._stop_w, b"s")
            except OSError:  # stopped before: the pipe is closed
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(JOIN_TIMEOUT)
            if self._thread.is_alive():
                log.warning("reader %s: thread did not stop within %.1f s", self.name, JOIN_TIMEOUT)
                return  # the thread still owns the device and closes it on its way out
        self._close()
        for fd in (self._stop_r, self._stop_w):
            if fd >= 0:
                os.close(fd)
        self._stop_r = self._stop_w = -1

    def _quiet_wait(self, idle_gap: float | None, pending: bool, last: float) -> float:
        """Seconds the next select() may wait: until the idle gap after the last read
        (``last``, ``monotonic()`` s) ends a label sent with no terminator when part of
        one is ``pending``, else :data:`IDLE_WAIT`. On a fake ``monotonic`` that has not
        moved this is the whole gap, so the reader looks at the clock again that often."""
        if idle_gap is not None and pending:
            return max(0.0, idle_gap - (self._monotonic() - last))
        return IDLE_WAIT

    def _idle_gap_passed(self, idle_gap: float | None, last: float) -> bool:
        """True when ``idle_gap`` seconds (None: never) have passed on ``monotonic()``
        since ``last`` (``monotonic()`` s), the last read from the device."""
        return idle_gap is not None and self._monotonic() - last >= idle_gap

    def _stop_fds(self) -> list[int]:
        """The stop pipe's read end to select() on with the device (none before start())."""
        return [self._stop_r] if self._stop_r >= 0 else []

    def _guarded(self) -> None:
        """The thread body: :meth:`_run`, started again (after a report and
        :data:`RESTART_DELAY` s) if a bug lets an exception out of it, so a reader never
        dies silently. ``_run`` closes the device on its way out; the next run reopens it."""
        while not self._stopping.is_set():
            try:
                self._run()
                return
            except Exception as exc:  # noqa: BLE001 - the last line of defence of a device thread
                log.exception("reader %s: unexpected error; starting it again", self.name)
                self._status("disconnected", f"{self.name} stopped after an error ({exc}); starting it again")
                self._stopping.wait(RESTART_DELAY)

    @property
    def running(self) -> bool:
        """True while the reader thread is alive (connected or retrying)."""
        return self._thread is not None and self._thread.is_alive()

    def _status(self, status: str, detail: str = "") -> None:
        self._out.put(DeviceStatus(self.name, status, self._clock.now(), detail))

    # Provided by each reader.
    def _try_open(self, first: bool) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def _run(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _close(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError
