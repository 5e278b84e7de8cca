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

import glob
import logging
import os
import select
import threading
from typing import Callable

log = logging.getLogger(__name__)

#: The Linux input devices SDL's evdev support reads (kmsdrm, fbdev).
EVDEV_PATTERN = "/dev/input/event*"


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
        """Watch ``fd`` too (a readable file descriptor: an emulated device's pipe). The
        watch owns it from now: made non-blocking, closed at end of file or :meth:`stop`."""
        os.set_blocking(fd, False)
        with self._lock:
            self._added[fd] = name
        os.write(self._stop_w, b"r")  # the thread's select picks up the new fd

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
                os.close(self._paths.pop(path))
            for path in sorted(found - set(self._paths)):
                try:
                    self._paths[path] = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
                except OSError as err:  # no permission (not in the input group), or gone already
                    log.debug("input watch: cannot open %s: %s", path, err)

    def _forget(self, fd: int) -> None:
        with self._lock:
            for path, known in list(self._paths.items()):
                if known == fd:
                    del self._paths[path]
                    os.close(fd)
            if self._added.pop(fd, None) is not None:
                os.close(fd)

    def _drop_closed(self) -> None:
        with self._lock:
            for path, fd in list(self._paths.items()):
                if not _open(fd):
                    del self._paths[path]
            for fd in [fd for fd in self._added if not _open(fd)]:
                del self._added[fd]

    def _drain(self, fd: int) -> bool:
        """Read everything waiting on ``fd``; False when the device is gone (unplugged,
        or an emulated device's pipe closed)."""
        try:
            while True:
                if not os.read(fd, 4096):
                    return False  # end of file: the writer closed it
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
