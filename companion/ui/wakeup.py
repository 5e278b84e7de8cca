"""Waking the main loop when the screen's input devices have something to say.

The main loop owns the window, and SDL reads a touchscreen only when the loop pumps its
events. SDL's own wait (``pygame.event.wait``) blocks properly only on desktop drivers;
on the Pi's ``kmsdrm`` driver (and ``dummy``) it polls every millisecond, and polling the
window from the loop 100 times a second costs about 1 % of a core doing nothing.

:class:`InputWatch` instead watches the same Linux input devices SDL reads
(``/dev/input/event*``: the touchscreen, a keyboard, a mouse), opened read-only and never
grabbed, so SDL and the HID scanner reader still get every event. When one has something
to read, the watch drains its own copy and wakes the loop, which then pumps SDL's events
and finds the touch. An idle table then wakes about once a second (the turn clock), not
100 times. Devices plugged in later are found within ``rescan_s``.

An emulated touchscreen (:class:`companion.devices.emulated.touch.EmulatedTouchscreen`)
is a pipe added with :meth:`InputWatch.add`: the same wake path as a real device.

The watch also keeps **when each press happened**: the kernel stamps every input event,
and the watch's copy carries the stamp (``struct input_event``; the clock is set to
``CLOCK_MONOTONIC`` with ``EVIOCSCLOCKID``, Linux ``Documentation/input/input.rst``). SDL's
own events carry no such time, so the loop pairs SDL's presses with these, in order
(:meth:`InputWatch.presses`), to put a tap and a scan in the order they were made however
late it pumps SDL's events (see :meth:`Runner.step <companion.table.runner.Runner.step>`).

>>> import os
>>> woken = []
>>> watch = InputWatch(lambda: woken.append(1), pattern="/nonexistent/event*")
>>> watch.watching
False
>>> r, w = os.pipe()
>>> watch.add(r, "test pipe")
>>> watch.watching
True
>>> watch.stop()
"""

from __future__ import annotations

import bisect
import fcntl
import glob
import logging
import os
import select
import struct
import threading
import time
from typing import Callable

from ..core.input_event import EV_KEY, EVIOCSCLOCKID, INPUT_EVENT, PRESS_CODES

log = logging.getLogger(__name__)

#: The Linux input devices SDL's evdev support reads (kmsdrm, fbdev).
EVDEV_PATTERN = "/dev/input/event*"

#: The most press times kept for the loop (it takes them at every pump; without a screen
#: nothing takes them, and the newest are all that could still matter).
KEPT_PRESSES = 256


class InputWatch:
    """A thread that calls :attr:`on_input` (``wake``) whenever a watched device has input.

    ``pattern``: the device files to watch (read-only, non-blocking, never grabbed); an
    unreadable one (no ``input`` group) is skipped. ``rescan_s``: seconds between looks
    for devices plugged in later. ``coalesce_s``: after a wake, events arriving within
    this many seconds (the rest of a tap: touch down, position, sync) wake the loop once.
    """

    def __init__(self, wake: Callable[[], None], pattern: str = EVDEV_PATTERN, rescan_s: float = 5.0,
                 coalesce_s: float = 0.004):
        self.on_input = wake  # replaceable: the start screen's wait, then the Runner's
        self.pattern = pattern
        self.rescan_s = rescan_s
        self.coalesce_s = coalesce_s
        self.wakes = 0
        self._times: list[float] = []      # when each press not yet taken by the loop happened, oldest first
        self._timed: set[int] = set()      # fds whose events carry CLOCK_MONOTONIC stamps
        self._partial: dict[int, bytes] = {}  # fd -> the start of an event not yet read whole
        self._last: dict[int, float] = {}     # fd -> the time of its last press
        self._paths: dict[str, int] = {}   # device file -> fd (opened by the watch)
        self._added: dict[int, str] = {}   # fd -> name (added by the caller, e.g. an emulated touchscreen)
        self._lock = threading.Lock()
        self._stop_r, self._stop_w = os.pipe()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._scan()

    @property
    def watching(self) -> bool:
        """True when at least one device is watched (so the loop need not poll)."""
        with self._lock:
            return bool(self._paths or self._added)

    def devices(self) -> list[str]:
        """The watched devices: file paths, then the names of added ones."""
        with self._lock:
            return sorted(self._paths) + sorted(self._added.values())

    def add(self, fd: int, name: str) -> None:
        """Watch ``fd`` too (a readable file descriptor: an emulated device's pipe, whose
        writer stamps its events with ``time.monotonic()``). The watch owns it from now:
        made non-blocking, closed at end of file or :meth:`stop`."""
        os.set_blocking(fd, False)
        with self._lock:
            self._added[fd] = name
            self._timed.add(fd)
        os.write(self._stop_w, b"r")  # the thread's select picks up the new fd

    def presses(self, read: bool = True) -> list[float]:
        """When each press the loop has not taken yet happened (``time.monotonic()``
        seconds, oldest first): the watched devices' touch-downs and left-button presses.
        ``read``: first read whatever the devices have waiting, on the calling thread (the
        loop calls this right after pumping SDL's events, so every press SDL just read is
        in the watch's copy too: the kernel hands an event to every reader at once)."""
        with self._lock:
            if read:
                for fd in [*self._paths.values(), *self._added]:
                    self._read(fd)
            return list(self._times)

    def took(self, n: int, before: float | None = None) -> None:
        """The loop paired the oldest ``n`` presses with SDL's; forget them, and any press
        older than ``before`` (the start of the loop's last pump but one: two pumps went by
        without SDL reporting it, so SDL does not read its device)."""
        with self._lock:
            del self._times[:n]
            if before is not None:
                del self._times[:bisect.bisect_left(self._times, before)]

    def start(self) -> "InputWatch":
        """Start the thread (once); returns self."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, daemon=True, name="input-watch")
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread and close every device it watches."""
        self._stopping.set()
        try:
            os.write(self._stop_w, b"s")
        except OSError:
            pass
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        with self._lock:
            for fd in [*self._paths.values(), *self._added]:
                os.close(fd)
            self._paths.clear()
            self._added.clear()
        for fd in (self._stop_r, self._stop_w):
            try:
                os.close(fd)
            except OSError:
                pass

    # ------------------------------------------------------------ the thread

    def _scan(self) -> None:
        """Open devices that appeared, forget ones that went."""
        found = set(glob.glob(self.pattern))
        with self._lock:
            for path in set(self._paths) - found:
                fd = self._paths.pop(path)
                self._untrack(fd)
                os.close(fd)
            for path in sorted(found - set(self._paths)):
                try:
                    fd = self._paths[path] = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
                except OSError as err:  # no permission (not in the input group), or gone already
                    log.debug("input watch: cannot open %s: %s", path, err)
                    continue
                try:
                    fcntl.ioctl(fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
                    self._timed.add(fd)
                except OSError:  # not an evdev device (a test's fifo): its presses carry no time
                    pass

    def _forget(self, fd: int) -> None:
        with self._lock:
            self._untrack(fd)
            for path, known in list(self._paths.items()):
                if known == fd:
                    del self._paths[path]
                    os.close(fd)
            if self._added.pop(fd, None) is not None:
                os.close(fd)

    def _untrack(self, fd: int) -> None:
        """Forget what was kept about ``fd`` (with the lock held; it is being closed)."""
        self._timed.discard(fd)
        self._partial.pop(fd, None)
        self._last.pop(fd, None)

    def _drop_closed(self) -> None:
        with self._lock:
            for path, fd in list(self._paths.items()):
                if not _open(fd):
                    del self._paths[path]
                    self._untrack(fd)
            for fd in [fd for fd in self._added if not _open(fd)]:
                del self._added[fd]
                self._untrack(fd)

    def _drain(self, fd: int) -> bool:
        """Read everything waiting on ``fd``; False when the device is gone (unplugged,
        or an emulated device's pipe closed)."""
        with self._lock:
            return self._read(fd)

    def _read(self, fd: int) -> bool:
        """:meth:`_drain` with the lock held: keeps the time of every press read."""
        size = INPUT_EVENT.size
        try:
            while True:
                data = os.read(fd, 64 * size)
                if not data:
                    return False  # end of file: the writer closed it
                if fd not in self._timed:
                    continue
                data = self._partial.pop(fd, b"") + data
                whole = len(data) - len(data) % size
                if whole < len(data):
                    self._partial[fd] = data[whole:]
                for sec, usec, kind, code, value in INPUT_EVENT.iter_unpack(data[:whole]):
                    when = sec + usec / 1_000_000
                    # One press a report: a screen that sends BTN_TOUCH and BTN_LEFT
                    # together (one time stamp) is one tap to SDL.
                    if kind == EV_KEY and code in PRESS_CODES and value == 1 and self._last.get(fd) != when:
                        self._last[fd] = when
                        bisect.insort(self._times, when)
                        del self._times[:-KEPT_PRESSES]  # (no loop taking them: a lost screen)
        except BlockingIOError:
            return True
        except OSError:  # ENODEV: unplugged
            return False

    def _run(self) -> None:
        while not self._stopping.is_set():
            with self._lock:
                fds = [self._stop_r, *self._paths.values(), *self._added]
            try:
                ready, _, _ = select.select(fds, [], [], self.rescan_s)
            except (OSError, ValueError):  # an fd closed under us: drop it, look again
                self._drop_closed()
                self._scan()
                continue
            if not ready:
                self._scan()
                continue
            woke = False
            for fd in ready:
                if fd == self._stop_r:
                    os.read(self._stop_r, 64)
                    continue
                if not self._drain(fd):
                    self._forget(fd)
                woke = True
            if woke:
                self.wakes += 1
                self.on_input()
                self._stopping.wait(self.coalesce_s)


def _open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True
