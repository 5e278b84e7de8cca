"""The Linux input event (``struct input_event``), as a reader of ``/dev/input/eventN`` gets it.

Shared by the loop's watch on the input devices (:mod:`companion.ui.wakeup`), which reads
when each press was made, and the emulated touchscreen
(:mod:`companion.devices.emulated.touch`), which writes its taps in this form. Source:
Linux ``include/uapi/linux/input.h`` and ``input-event-codes.h``.

>>> len(press_event(1.5)) == INPUT_EVENT.size
True
>>> INPUT_EVENT.unpack(press_event(1.5))
(1, 500000, 1, 330, 1)
"""

from __future__ import annotations

import struct

#: ``struct input_event`` as this process's kernel ABI lays it out: ``struct timeval``
#: (two longs: 24 bytes in all on 64-bit, 16 on 32-bit Pi OS), u16 type, u16 code, s32 value.
INPUT_EVENT = struct.Struct("llHHi")
EV_KEY = 0x01
BTN_TOUCH = 0x14A  # the touchscreen's first finger (``linux/input-event-codes.h``)
BTN_LEFT = 0x110   # a mouse's left button
#: A press: the touchscreen's first finger down, or a mouse's left button.
PRESS_CODES = frozenset({BTN_TOUCH, BTN_LEFT})
#: ``EVIOCSCLOCKID``: ``_IOW('E', 0xa0, int)``, the clock an evdev fd stamps its events with.
EVIOCSCLOCKID = 0x400445A0


def press_event(t: float, code: int = BTN_TOUCH, value: int = 1) -> bytes:
    """One ``struct input_event`` of type EV_KEY at monotonic time ``t`` (s): a press
    (``value`` 1) or its release (0), as a device file gives it to a reader."""
    sec = int(t)
    return INPUT_EVENT.pack(sec, int(round((t - sec) * 1_000_000)), EV_KEY, code, value)
