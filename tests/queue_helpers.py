"""Waiting on a session queue, or on a reader's clock, in device tests: shared by every
reader's and sensor's tests."""

from __future__ import annotations

import queue
import threading
import time

import pytest

from companion.core.clock import FakeClock
from companion.core.events import DeviceStatus


def drain(q: queue.Queue) -> list:
    """Everything on the queue now, without waiting."""
    items = []
    while True:
        try:
            items.append(q.get_nowait())
        except queue.Empty:
            return items


def next_status(q: queue.Queue, status: str, timeout: float = 3.0) -> DeviceStatus:
    """The next DeviceStatus with ``status``, skipping anything else; fails on timeout."""
    deadline = time.monotonic() + timeout
    while (remaining := deadline - time.monotonic()) > 0:
        try:
            item = q.get(timeout=remaining)
        except queue.Empty:
            break
        if isinstance(item, DeviceStatus) and item.status == status:
            return item
    pytest.fail(f"no {status!r} DeviceStatus within {timeout} s")


class WatchedClock(FakeClock):
    """A fake monotonic clock (a reader's ``monotonic=clock.now``) that counts how often
    it is read, so a test can wait until the reader has looked at it again, and so has
    decided on the time it shows, before asserting what did not happen."""

    def __init__(self, start: float = 0.0):
        super().__init__(start)
        self._looked = threading.Condition()
        self.looks = 0

    def now(self) -> float:
        t = super().now()
        with self._looked:
            self.looks += 1
            self._looked.notify_all()
        return t

    def wait_looked(self, times: int, timeout: float = 3.0) -> bool:
        """Block until the clock has been read ``times`` more times (or ``timeout`` real
        seconds pass); True if it was."""
        with self._looked:
            target = self.looks + times
            return self._looked.wait_for(lambda: self.looks >= target, timeout)
