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
    with it **in the same step**, under one lock, before the loop can see the input:
    with a window, that posts a marker among the window's events (SDL keeps its events in
    one queue), so the device inputs' numbers and the window's taps form one order, fixed
    when each input arrives. The loop handles a device input only when its marker comes
    up among the window's events, never by how long it waited: the order does not depend
    on how fast the loop runs. ``notify`` returns True when the marker was posted; an
    input whose marker could not be posted (no window, the window closed) is unmarked
    (:meth:`first_unmarked`) and taken at once in its turn. ``ready`` is set on every
    put, to wake a waiting loop.
    """

    def __init__(self) -> None:
        super().__init__()
        self.ready = threading.Event()
        self.notify: Callable[[int], bool | None] | None = None
        self.ids: deque[int] = deque()
        self.times: deque[float] = deque()  # time.monotonic() each waiting input arrived (or was queued)
        self._arrived: float | None = None  # the time the next _put records (put_arrived)
        #: ``arriving_before(t)`` of each stamped reader (see :meth:`arriving_before`)
        self.sources: list[Callable[[float], bool]] = []
        self._count = 0
        self._order = threading.RLock()     # numbering + marker + visibility: one step
        self._unmarked: set[int] = set()

    def _put(self, item) -> None:  # called with the queue's mutex held
        self._count += 1
        self.ids.append(self._count)
        self.times.append(time.monotonic() if self._arrived is None else self._arrived)
        self.queue.append(item)

    def _get(self):
        self._unmarked.discard(self.ids.popleft())
        self.times.popleft()
        return self.queue.popleft()

    def put(self, item, block: bool = True, timeout: float | None = None) -> None:
        with self._order:
            super().put(item, block, timeout)
            number = self._count
            notify = self.notify
            if notify is None or not notify(number):
                self._unmarked.add(number)
        self.ready.set()

    def put_arrived(self, item, arrived: float) -> None:
        """:meth:`put` an input that arrived at ``arrived`` (``time.monotonic()`` s,
        taken by its reader as the bytes came in): the loop orders it among the window's
        taps by that time (:meth:`waiting`)."""
        with self._order:
            self._arrived = arrived
            try:
                self.put(item)
            finally:
                self._arrived = None

    def arriving_before(self, t: float) -> bool:
        """True when a reader has an input that came before ``t`` (``time.monotonic()``
        s) and is not queued yet (:meth:`SerialScanner.arriving_before
        <companion.devices.scan.serial.SerialScanner.arriving_before>`): a tap made at
        ``t`` waits for it."""
        return any(source(t) for source in self.sources)

    def waiting(self) -> list[tuple[int, float]]:
        """``(number, time it arrived)`` of every waiting input, oldest first."""
        with self.mutex:
            return list(zip(self.ids, self.times))

    def take(self, number: int):
        """Take waiting input ``number`` out of its turn (its marker came up before an
        older input's: they were made in that order); None if it is not waiting. As
        :meth:`get`, the caller calls :meth:`task_done` once it is handled."""
        with self.mutex:
            for i, n in enumerate(self.ids):
                if n == number:
                    del self.ids[i]
                    del self.times[i]
                    item = self.queue[i]
                    del self.queue[i]
                    self._unmarked.discard(number)
                    self.not_full.notify()
                    return item
        return None

    def last_id(self) -> int:
        """The number of the newest input queued so far (0 before any). Every input up
        to it has its marker among the window's events already, if it has one."""
        with self._order:
            return self._count

    def first_unmarked(self, skip: "set[int] | frozenset[int]" = frozenset()) -> int | None:
        """The number of the oldest waiting input (leaving out those in ``skip``: held,
        not waited for) when it has no marker among the window's events (its marker could
        not be posted: the loop takes it without waiting for one); else None."""
        with self._order, self.mutex:
            for number in self.ids:
                if number not in skip:
                    return number if number in self._unmarked else None
        return None

    def first_age(self) -> float:
        """Seconds the oldest waiting input has waited (0 when none waits)."""
        with self.mutex:
            return time.monotonic() - self.times[0] if self.times else 0.0


#: With a window whose input nothing watches (no :class:`~companion.ui.wakeup.InputWatch`
#: device), how often the loop looks at the window's events: a touch is handled within
#: this plus the verdict's own time, inside one 60 Hz frame.
WINDOW_POLL = 1 / 100
#: The longest the loop sleeps when nothing is due (seconds): the turn clock's next second
#: usually comes first; systemd's watchdog is pinged at least this often.
IDLE_WAIT = 1.0
