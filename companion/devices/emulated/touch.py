"""An emulated touchscreen: taps posted as SDL events, with a device file that wakes the loop.

On the Pi a tap reaches two readers at once: SDL (through its own fd on
``/dev/input/eventN``) and :class:`~companion.ui.wakeup.InputWatch` (through another fd on
the same device), which wakes the main loop to pump SDL's events. This emulation does the
same with what a machine without a touchscreen has: the tap is posted into SDL's event
queue (as the kmsdrm driver would queue it) and 24 bytes (one ``struct input_event`` on a
64-bit kernel) are written to a pipe the watch reads instead of the device file.

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

import pygame

#: One ``struct input_event`` (struct timeval, u16 type, u16 code, s32 value) on 64-bit Linux.
INPUT_EVENT_BYTES = 24


class EmulatedTouchscreen:
    """Taps at window pixels ``(x, y)`` on a panel of ``size`` pixels."""

    def __init__(self, size: tuple[int, int] = (800, 480)):
        self.size = size
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        self.taps = 0

    def attach(self, watch) -> "EmulatedTouchscreen":
        """Hand the device file's read end to ``watch`` (an :class:`InputWatch`, which
        then owns it); returns self."""
        fd, self._r = self._r, None
        watch.add(fd, "emulated touchscreen")
        return self

    def post(self, *events: pygame.event.Event) -> None:
        """Queue ``events`` in SDL, then signal the device file (one input_event each)."""
        for event in events:
            pygame.event.post(event)
        os.write(self._w, bytes(INPUT_EVENT_BYTES * len(events)))

    def tap(self, x: float, y: float, finger: bool = False) -> None:
        """A press and release at ``(x, y)`` window pixels: as a finger (FINGERDOWN/UP,
        positions as fractions of the panel) or as a mouse click."""
        self.taps += 1
        if finger:
            w, h = self.size
            common = dict(x=x / w, y=y / h, dx=0.0, dy=0.0, touch_id=1, finger_id=1)
            self.post(pygame.event.Event(pygame.FINGERDOWN, pressure=1.0, **common),
                      pygame.event.Event(pygame.FINGERUP, pressure=0.0, **common))
        else:
            self.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y)),
                      pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(x, y)))

    def close(self) -> None:
        """Unplug: close the device file (a watch sees end of file and forgets it)."""
        for fd in (self._w, self._r):
            if fd is not None:
                os.close(fd)
        self._w = self._r = None
