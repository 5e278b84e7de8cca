"""An emulated touchscreen: taps reach SDL's event queue, with a device file that wakes the loop.

On the Pi a tap reaches two readers at once: SDL (through its own fd on
``/dev/input/eventN``, read when the loop pumps SDL's events) and
:class:`~companion.ui.wakeup.InputWatch` (through another fd on the same device), which
wakes the main loop to pump SDL's events and keeps the kernel's time stamp of the press.
This emulation does the same with what a machine without a touchscreen has: the tap's
``struct input_event`` records, stamped with ``time.monotonic()`` as the kernel stamps
them, go into a pipe the watch reads instead of the device file; the tap itself goes into
SDL's event queue, at once, or (:meth:`EmulatedTouchscreen.attach` with ``app``) only
when the loop next pumps SDL's events, as the Pi's kmsdrm driver reads a tap.

Another process can tap it too (a bench's sender, standing for a hand):
:meth:`EmulatedTouchscreen.sender_fds` are the two pipes to write, and
:func:`tap_bytes` what to write into them.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
'dummy'
>>> from companion.ui.wakeup import InputWatch
>>> watch = InputWatch(lambda: None, pattern="/nonexistent/event*")
>>> ts = EmulatedTouchscreen((800, 480)).attach(watch)
>>> watch.devices()
['emulated touchscreen']
>>> ts.close(); watch.stop()
"""

from __future__ import annotations

import os
import time

import pygame

from ...core.input_event import BTN_LEFT, BTN_TOUCH, press_event


def tap_bytes(x: float, y: float, finger: bool = False, t: float | None = None) -> tuple[bytes, bytes, bytes]:
    """A tap at window pixels ``(x, y)`` made at ``t`` (``time.monotonic()`` s, now if
    None), as the two pipes of :meth:`EmulatedTouchscreen.sender_fds` take it:
    ``(press, sdl, release)``, to be written in that order, ``press`` and ``release``
    into the device file and ``sdl`` into SDL's. ``press`` is the press event the watch
    reads (so SDL never has a tap whose press the watch could not read yet); ``sdl`` the
    line the emulated SDL side reads (``"x y finger\n"``); ``release`` the release
    event, which wakes the loop again once SDL's side has the tap."""
    t = time.monotonic() if t is None else t
    code = BTN_TOUCH if finger else BTN_LEFT
    return (press_event(t, code, 1), f"{x:g} {y:g} {int(bool(finger))}\n".encode(),
            press_event(time.monotonic(), code, 0))


class EmulatedTouchscreen:
    """Taps at window pixels ``(x, y)`` on a panel of ``size`` pixels."""

    def __init__(self, size: tuple[int, int] = (800, 480)):
        self.size = size
        self._r, self._w = os.pipe()          # the device file: the watch reads input_events here
        self._sdl_r, self._sdl_w = os.pipe()  # what SDL reads at its pump (after attach(app=...))
        os.set_blocking(self._r, False)
        os.set_blocking(self._sdl_r, False)
        self._pumped = False
        self._line = b""
        self.taps = 0

    def attach(self, watch, app=None) -> "EmulatedTouchscreen":
        """Hand the device file's read end to ``watch`` (an :class:`InputWatch`, which
        then owns it); returns self. With ``app`` (a :class:`~companion.ui.app.App`),
        taps reach SDL's queue only when the app next pumps it (:meth:`pump`), as on the
        Pi; without, at once."""
        fd, self._r = self._r, None
        watch.add(fd, "emulated touchscreen")
        if app is not None:
            self._pumped = True
            app.pumps.append(self.pump)
        return self

    def sender_fds(self) -> tuple[int, int]:
        """``(device, sdl)``: the write ends another process taps through (pass them to
        it, e.g. ``subprocess.Popen(pass_fds=...)``; write :func:`tap_bytes` into them).
        Only for a touchscreen attached with an ``app``."""
        return self._w, self._sdl_w

    def pump(self) -> None:
        """Put every tap written so far into SDL's queue (the app calls this as it pumps)."""
        try:
            while data := os.read(self._sdl_r, 65536):
                self._line += data
        except (BlockingIOError, OSError, TypeError):
            pass
        *lines, self._line = self._line.split(b"\n")
        for line in lines:
            x, y, finger = line.split()
            self._post(float(x), float(y), finger == b"1")

    def _post(self, x: float, y: float, finger: bool) -> None:
        if finger:
            w, h = self.size
            common = dict(x=x / w, y=y / h, dx=0.0, dy=0.0, touch_id=1, finger_id=1)
            events = (pygame.event.Event(pygame.FINGERDOWN, pressure=1.0, **common),
                      pygame.event.Event(pygame.FINGERUP, pressure=0.0, **common))
        else:
            events = (pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y)),
                      pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(x, y)))
        for event in events:
            pygame.event.post(event)

    def tap(self, x: float, y: float, finger: bool = False) -> None:
        """A press and release at ``(x, y)`` window pixels: as a finger (FINGERDOWN/UP,
        positions as fractions of the panel) or as a mouse click, stamped now (see
        :func:`tap_bytes`)."""
        self.taps += 1
        press, sdl, release = tap_bytes(x, y, finger)
        if self._pumped:
            os.write(self._w, press)
            os.write(self._sdl_w, sdl)
            os.write(self._w, release)
        else:  # into SDL's queue at once: the watch has both events first (one wake)
            os.write(self._w, press + release)
            self._post(x, y, finger)

    def close(self) -> None:
        """Unplug: close the device file (a watch sees end of file and forgets it)."""
        for fd in (self._w, self._r, self._sdl_r, self._sdl_w):
            if fd is not None:
                os.close(fd)
        self._w = self._r = self._sdl_r = self._sdl_w = None
