"""The session's one input queue, in arrival order.

Every device thread puts its inputs here; the main loop (:class:`~companion.table.runner.Runner`)
takes them in the order they happened, whatever device they came from (see
:meth:`Runner.step <companion.table.runner.Runner.step>`).
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from typing import Callable


class InputQueue(queue.Queue):
    """The session's one input queue: every device thread puts its inputs here.

    Each input gets a number in arrival order, and ``notify(n)`` (when set) is called
    after it is queued: with a window, that posts a marker among the window's events, so
    the main loop handles a scan and a touch in the order they happened (SDL keeps its
    events in one queue). ``ready`` is set on every put, to wake a waiting loop.
    """

    def __init__(self) -> None:
        super().__init__()
        self.ready = threading.Event()
        self.notify: Callable[[int], None] | None = None
        self.ids: deque[int] = deque()
        self.times: deque[float] = deque()  # time.monotonic() each waiting input was queued
        self._count = 0
        self._mine = threading.local()

    def _put(self, item) -> None:  # called with the queue's mutex held
        self._count += 1
        self._mine.seq = self._count
        self.ids.append(self._count)
        self.times.append(time.monotonic())
        self.queue.append(item)

    def _get(self):
        self.ids.popleft()
        self.times.popleft()
        return self.queue.popleft()

    def put(self, item, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        notify = self.notify
        if notify is not None:
            notify(self._mine.seq)  # the marker first: a loop woken by ready finds it
        self.ready.set()

    def first_id(self) -> int | None:
        """The number of the oldest waiting input, or None."""
        with self.mutex:
            return self.ids[0] if self.ids else None

    def first_age(self) -> float:
        """Seconds the oldest waiting input has waited (0 when none waits)."""
        with self.mutex:
            return time.monotonic() - self.times[0] if self.times else 0.0


#: With a window whose input nothing watches (no :class:`~companion.ui.wakeup.InputWatch`
#: device), how often the loop looks at the window's events: a touch is handled within
#: this plus the verdict's own time, inside one 60 Hz frame.
WINDOW_POLL = 1 / 100
#: With a window, a device input is handled when its marker comes up among the window's
#: events (so a touch made before it is handled first); one whose marker has not come up
#: after this many seconds (the window's queue dropped it) is handled anyway.
MARKER_GRACE = 0.05
#: The longest the loop sleeps when nothing is due (seconds): the turn clock's next second
#: usually comes first; systemd's watchdog is pinged at least this often.
IDLE_WAIT = 1.0
