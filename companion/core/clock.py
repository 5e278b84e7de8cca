"""Injectable clocks, so that replay is deterministic and tests never sleep.

>>> c = FakeClock(10.0); c.advance(0.5); c.now()
10.5
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    """Anything with ``now() -> float`` in seconds."""

    def now(self) -> float: ...


class SystemClock:
    """Wall-clock seconds since the epoch (``time.time``), stored with every input."""

    def now(self) -> float:
        return time.time()


class FakeClock:
    """A clock that moves only when told: used by tests and by trace replay."""

    def __init__(self, start: float = 0.0):
        self._t = float(start)
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._t

    def set(self, t: float) -> None:
        """Jump to ``t`` seconds (never backwards)."""
        with self._lock:
            self._t = max(self._t, float(t))

    def advance(self, dt: float) -> None:
        """Move forward by ``dt`` seconds."""
        with self._lock:
            self._t += float(dt)
