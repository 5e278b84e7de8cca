"""An emulated keyboard-mode (HID) barcode scanner, at the level of evdev input events.

:func:`key_events` gives the exact events the kernel delivers for a scanner "typing" a
label on a US boot keyboard: for each HID report an ``EV_MSC/MSC_SCAN`` with the USB usage,
the ``EV_KEY`` changes (modifiers first, as hid-input orders them) and an ``EV_SYN``.
:class:`FakeInputDevice` is the device plugged in at a stable path, with the
``evdev.InputDevice`` surface :class:`~companion.devices.scan.hid.HidScanner` uses; its
:meth:`~FakeInputDevice.open` is the opener, so the real driver runs unchanged.

>>> from evdev import ecodes as e
>>> [(ev.code, ev.value) for ev in key_events("a", terminator=None) if ev.type == e.EV_KEY]
[(30, 1), (30, 0)]
"""

from __future__ import annotations

import collections
import errno
import os
import select
import threading
from typing import Iterator

from evdev import InputEvent, ecodes as e
from evdev.device import DeviceInfo

from companion.devices.scan.hid import KEYPAD_KEYS, US_KEYS


def _usages() -> dict[int, int]:
    """keycode -> HID usage on the keyboard page (USB HID Usage Tables, section 10)."""
    usages = {getattr(e, f"KEY_{c}"): 0x04 + i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")}
    usages |= {getattr(e, f"KEY_{d}"): 0x1E + i for i, d in enumerate("1234567890")}
    for usage, name in enumerate(("ENTER", "ESC", "BACKSPACE", "TAB", "SPACE", "MINUS", "EQUAL", "LEFTBRACE",
                                  "RIGHTBRACE", "BACKSLASH"), start=0x28):
        usages[getattr(e, f"KEY_{name}")] = usage
    for usage, name in enumerate(("SEMICOLON", "APOSTROPHE", "GRAVE", "COMMA", "DOT", "SLASH", "CAPSLOCK"),
                                 start=0x33):
        usages[getattr(e, f"KEY_{name}")] = usage
    for usage, name in enumerate(("NUMLOCK", "KPSLASH", "KPASTERISK", "KPMINUS", "KPPLUS", "KPENTER", "KP1",
                                  "KP2", "KP3", "KP4", "KP5", "KP6", "KP7", "KP8", "KP9", "KP0", "KPDOT"),
                                 start=0x53):
        usages[getattr(e, f"KEY_{name}")] = usage
    usages |= {getattr(e, f"KEY_F{n}"): 0x39 + n for n in range(1, 13)}
    usages |= {e.KEY_LEFTCTRL: 0xE0, e.KEY_LEFTSHIFT: 0xE1, e.KEY_LEFTALT: 0xE2, e.KEY_LEFTMETA: 0xE3,
               e.KEY_RIGHTCTRL: 0xE4, e.KEY_RIGHTSHIFT: 0xE5, e.KEY_RIGHTALT: 0xE6, e.KEY_RIGHTMETA: 0xE7}
    return usages


HID_USAGES = _usages()
_TERMINATOR_KEYS = {"enter": e.KEY_ENTER, "kpenter": e.KEY_KPENTER, "tab": e.KEY_TAB}
_SHIFT_STYLES = ("left", "right", "held")
_CHAR_KEYS: dict[str, tuple[int, bool]] = {}  # character -> (keycode, needs Shift)
for _code, (_plain, _shifted) in US_KEYS.items():
    _CHAR_KEYS.setdefault(_plain, (_code, False))
    _CHAR_KEYS.setdefault(_shifted, (_code, True))
_KEYPAD_CHARS = {char: code for code, char in KEYPAD_KEYS.items()}


def key_events(text: str, terminator: str | None = "enter", shift_style: str = "left", keypad: bool = False,
               autorepeat: int = 0, t0: float = 0.0, step: float = 0.002) -> list[InputEvent]:
    """The events a US-layout keyboard-mode scanner sends for ``text``, then ``terminator``.

    ``terminator``: ``"enter"``, ``"kpenter"``, ``"tab"`` or None. ``shift_style``: ``"left"``
    or ``"right"`` presses that Shift with each shifted character and releases it in the
    same report as the key; ``"held"`` keeps left Shift down through a run of shifted
    characters. ``keypad``: type digits and ``-+./*`` on the keypad. ``autorepeat``: how
    many value-2 events (held too long) follow each key down. Timestamps start at ``t0``
    seconds and advance ``step`` seconds per report. Raises ValueError for a character
    with no key on a US keyboard, or an unknown option.
    """
    if terminator is not None and terminator not in _TERMINATOR_KEYS:
        raise ValueError(f"terminator must be one of {sorted(_TERMINATOR_KEYS)} or None, not {terminator!r}")
    if shift_style not in _SHIFT_STYLES:
        raise ValueError(f"shift_style must be one of {_SHIFT_STYLES}, not {shift_style!r}")
    keys: list[tuple[int, bool]] = []
    for char in text:
        if keypad and char in _KEYPAD_CHARS:
            keys.append((_KEYPAD_CHARS[char], False))
        elif char in _CHAR_KEYS:
            keys.append(_CHAR_KEYS[char])
        else:
            raise ValueError(f"{char!r} has no key on a US keyboard")
    if terminator is not None:
        keys.append((_TERMINATOR_KEYS[terminator], False))
    shift_key = e.KEY_RIGHTSHIFT if shift_style == "right" else e.KEY_LEFTSHIFT
    reports: list[list[tuple[int, int]]] = []  # each report: (keycode, value) changes
    shift_down = False
    for i, (code, shifted) in enumerate(keys):
        press = [(shift_key, 1)] if shifted and not shift_down else []
        release = []
        keep = shift_style == "held" and i + 1 < len(keys) and keys[i + 1][1]
        if shifted and not keep:
            release.append((shift_key, 0))
        shift_down = shifted and keep
        reports.append(press + [(code, 1)])
        reports.extend([[(code, 2)]] * autorepeat)
        reports.append(release + [(code, 0)])
    events: list[InputEvent] = []
    for n, report in enumerate(reports):
        t = t0 + n * step
        sec, usec = int(t), int(round((t - int(t)) * 1e6))
        for code, value in report:
            if value != 2:  # kernel autorepeat comes with no scan code
                events.append(InputEvent(sec, usec, e.EV_MSC, e.MSC_SCAN, 0x70000 | HID_USAGES[code]))
            events.append(InputEvent(sec, usec, e.EV_KEY, code, value))
        events.append(InputEvent(sec, usec, e.EV_SYN, e.SYN_REPORT, 0))
    return events


_TYPING_KEYS = sorted(set(US_KEYS) | set(KEYPAD_KEYS) | set(_TERMINATOR_KEYS.values())
                      | {e.KEY_LEFTSHIFT, e.KEY_RIGHTSHIFT, e.KEY_LEFTCTRL, e.KEY_LEFTALT, e.KEY_CAPSLOCK,
                         e.KEY_NUMLOCK, e.KEY_ESC, e.KEY_BACKSPACE})
#: what a typical scanner declares: keys to type with, scan codes, no LEDs, no F-keys
SCANNER_CAPABILITIES = {e.EV_SYN: [e.SYN_REPORT, e.EV_KEY, e.EV_MSC], e.EV_KEY: _TYPING_KEYS,
                        e.EV_MSC: [e.MSC_SCAN]}
#: a real keyboard: F-keys and NumLock/CapsLock/ScrollLock LEDs too
KEYBOARD_CAPABILITIES = SCANNER_CAPABILITIES | {
    e.EV_KEY: sorted(set(_TYPING_KEYS) | {getattr(e, f"KEY_F{n}") for n in range(1, 13)}),
    e.EV_LED: [e.LED_NUML, e.LED_CAPSL, e.LED_SCROLLL], e.EV_REP: [e.REP_DELAY, e.REP_PERIOD]}
#: a touchscreen: absolute axes and a touch button
TOUCHSCREEN_CAPABILITIES = {e.EV_SYN: [e.SYN_REPORT, e.EV_KEY, e.EV_ABS], e.EV_KEY: [e.BTN_TOUCH],
                            e.EV_ABS: [e.ABS_X, e.ABS_Y, e.ABS_MT_SLOT, e.ABS_MT_POSITION_X, e.ABS_MT_POSITION_Y]}


class FakeInputDevice:
    """An input device plugged in at ``path`` (a by-id link, say), and its one open handle.

    Call :meth:`open` (the ``opener`` for HidScanner and find_scanners) to get it, as
    ``evdev.InputDevice(path)`` would. Events sent with :meth:`send` while it is open wait in
    a queue behind a real pipe fd, so ``select()`` works; sent while closed they are lost,
    as with the kernel. :meth:`unplug` makes reads raise ``OSError(ENODEV)`` and opens raise
    FileNotFoundError until :meth:`plug`; ``denied = True`` makes opens raise PermissionError;
    ``grabbed_elsewhere = True`` makes :meth:`grab` raise OSError(EBUSY).
    """

    def __init__(self, path: str, name: str = "Honeywell Imaging & Mobility 1900 Barcode Scanner",
                 vendor: int = 0x0C2E, product: int = 0x0B61, capabilities: dict | None = None,
                 phys: str = "usb-0000:01:00.0-1.3/input0", uniq: str = "", bustype: int = e.BUS_USB):
        self.path = path
        self.name = name
        self.phys = phys
        self.uniq = uniq  # a Bluetooth device's address (evdev's uniq); "" for most USB devices
        self.info = DeviceInfo(bustype=bustype, vendor=vendor, product=product, version=0x0111)
        self.version = 0x10001
        self._capabilities = dict(SCANNER_CAPABILITIES if capabilities is None else capabilities)
        self.denied = False
        self.grabbed = False
        self.grabbed_elsewhere = False  # another program holds EVIOCGRAB: our grab() fails
        self.grabs = 0  # grab() calls that succeeded, across opens
        self.opens = 0  # open() calls that succeeded
        self._plugged = True
        self.buffer_size: int | None = None  # events the kernel buffers for a reader (None: no limit)
        self.overruns = 0
        self._queue: collections.deque[InputEvent] = collections.deque()
        self._lock = threading.Lock()
        self._pipe: tuple[int, int] | None = None

    # --- the physical device ---------------------------------------------------------------

    def open(self, path: str) -> FakeInputDevice:
        """Open the device as ``evdev.InputDevice(path)``. Raises FileNotFoundError when
        unplugged or for another path, PermissionError when ``denied``."""
        if path != self.path or not self._plugged:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        if self.denied:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        with self._lock:
            if self._pipe is None:
                self._pipe = os.pipe()
                os.set_blocking(self._pipe[0], False)
                os.set_blocking(self._pipe[1], False)
                self.opens += 1
        return self

    def send(self, events: list[InputEvent]) -> None:
        """The scanner sends ``events`` (see :func:`key_events`); lost if not open. With
        :attr:`buffer_size` set, a full buffer overruns as the kernel's evdev client buffer
        does (``__pass_event`` in drivers/input/evdev.c): every unread event is dropped,
        leaving ``SYN_DROPPED`` and the newest event; :attr:`overruns` counts them."""
        with self._lock:
            if self._pipe is None or not self._plugged:
                return
            for event in events:
                self._queue.append(event)
                if self.buffer_size is not None and len(self._queue) >= self.buffer_size:
                    newest = self._queue[-1]
                    self._queue.clear()
                    self._queue.extend([InputEvent(newest.sec, newest.usec, e.EV_SYN, e.SYN_DROPPED, 0), newest])
                    self.overruns += 1
            self._wake()

    def scan(self, code: str, **options) -> None:
        """Send one label: :func:`key_events` of ``code`` with ``options``."""
        self.send(key_events(code, **options))

    def unplug(self) -> None:
        """Pull the cable: pending events are lost and the open handle fails with ENODEV."""
        with self._lock:
            self._plugged = False
            self._queue.clear()
            self._wake()

    def plug(self) -> None:
        """Plug the device back in at the same path (the old handle stays dead)."""
        with self._lock:
            self._plugged = True

    @property
    def pending(self) -> int:
        """Events sent but not yet read."""
        with self._lock:
            return len(self._queue)

    # --- the evdev.InputDevice surface ----------------------------------------------------

    @property
    def fd(self) -> int:
        """The fd to ``select()`` on: readable while events (or an unplug) are pending; -1 closed."""
        return self._pipe[0] if self._pipe is not None else -1

    def fileno(self) -> int:
        return self.fd

    def read_one(self) -> InputEvent | None:
        """The next event, or None if none is pending. Raises OSError(ENODEV) once unplugged
        and OSError(EBADF) once closed."""
        with self._lock:
            if self._pipe is None:
                raise OSError(errno.EBADF, "Bad file descriptor")
            if not self._plugged:
                raise OSError(errno.ENODEV, "No such device")
            if not self._queue:
                self._drain()
                return None
            return self._queue.popleft()

    def read(self) -> Iterator[InputEvent]:
        """All pending events; BlockingIOError if there are none (as evdev)."""
        first = self.read_one()
        if first is None:
            raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
        batch = [first]
        while (event := self.read_one()) is not None:
            batch.append(event)
        return iter(batch)

    def read_loop(self) -> Iterator[InputEvent]:
        """Events forever, waiting in ``select()`` between them."""
        while True:
            select.select([self.fd], [], [])
            event = self.read_one()
            if event is not None:
                yield event

    def grab(self) -> None:
        """EVIOCGRAB: OSError(EBUSY) if already grabbed, here or elsewhere, as the kernel does."""
        if self.grabbed or self.grabbed_elsewhere:
            raise OSError(errno.EBUSY, "Device or resource busy")
        self.grabbed = True
        self.grabs += 1

    def ungrab(self) -> None:
        """Release the grab: OSError(EINVAL) if not grabbed, as the kernel does."""
        if not self.grabbed:
            raise OSError(errno.EINVAL, "Invalid argument")
        self.grabbed = False

    def close(self) -> None:
        """Close the handle (releasing any grab). Idempotent."""
        with self._lock:
            pipe, self._pipe = self._pipe, None
            self._queue.clear()
            self.grabbed = False
        for fd in pipe or ():
            os.close(fd)

    def capabilities(self, verbose: bool = False, absinfo: bool = True) -> dict:
        """Event types -> codes, as ``evdev.InputDevice.capabilities(verbose=False)`` (no AbsInfo)."""
        return {kind: list(codes) for kind, codes in self._capabilities.items()}

    def leds(self, verbose: bool = False) -> list[int]:
        return []

    def _wake(self) -> None:  # with the lock held
        if self._pipe is not None:
            try:
                os.write(self._pipe[1], b"\0")
            except BlockingIOError:
                pass  # the pipe is full, so already readable

    def _drain(self) -> None:  # with the lock held
        try:
            while os.read(self._pipe[0], 4096):
                pass
        except BlockingIOError:
            pass

    def __repr__(self) -> str:
        state = "unplugged" if not self._plugged else "open" if self._pipe else "closed"
        return f"<FakeInputDevice {self.path} {self.name!r} {state}>"
