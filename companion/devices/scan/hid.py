"""A keyboard-mode (HID) barcode scanner: key events in, one :class:`CardScanned` per label.

A scanner in keyboard mode "types" each label as key presses, then Enter (or Tab). Read
through python-evdev the keys arrive as raw keycodes, so :class:`KeyDecoder` turns them
into text with the US layout whatever the system locale: the scanner is set up for US
keyboards, and a German or French console keymap must not turn ``Y`` into ``Z``.
:func:`find_scanners` finds scanners by stable path; :class:`HidScanner` reads one in its
own thread, grabbed so no scan ever types into the console or the UI.

>>> from evdev import ecodes as e
>>> d = KeyDecoder()
>>> keys = [(e.KEY_LEFTSHIFT, 1), (e.KEY_S, 1), (e.KEY_S, 0), (e.KEY_LEFTSHIFT, 0),
...         (e.KEY_KP7, 1), (e.KEY_KP7, 0), (e.KEY_ENTER, 1)]
>>> [scan for code, value in keys for scan in d.feed(e.EV_KEY, code, value)]
['S7']
"""

from __future__ import annotations

import errno
import logging
import os
import queue
import re
import select
import string
import threading
from typing import Callable

import evdev
from evdev import ecodes as e

from companion.core.clock import Clock
from companion.core.events import CardScanned

from .base import ReaderThread

log = logging.getLogger(__name__)

_UP, _DOWN = 0, 1  # EV_KEY values (2 is autorepeat)
_READ_TIMEOUT = 0.05  # seconds one select() waits, so stop() is noticed within this
_RETRY_PERIOD = 0.5  # seconds between attempts to reopen an unplugged scanner

UNPLUGGED = "scanner disconnected: check its USB cable"
PERMISSION_FIX = "add the service user to the `input` group or install hardware/99-sugar-companion.rules"


_US_LAYOUT = (  # keycode names, what each key types, and with Shift (US layout)
    [*"ABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890"] + "MINUS EQUAL LEFTBRACE RIGHTBRACE BACKSLASH SEMICOLON "
    "APOSTROPHE GRAVE COMMA DOT SLASH SPACE".split(),
    "abcdefghijklmnopqrstuvwxyz1234567890-=[]\\;'`,./ ",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()_+{}|:\"~<>? ",
)
#: keycode -> (character, character with Shift) on a US keyboard
US_KEYS: dict[int, tuple[str, str]] = {getattr(e, f"KEY_{n}"): (p, s) for n, p, s in zip(*_US_LAYOUT, strict=True)}
#: keypad keycode -> character, as typed with NumLock on (scanners assume it is)
KEYPAD_KEYS: dict[int, str] = {getattr(e, f"KEY_KP{d}"): d for d in "0123456789"} | {
    e.KEY_KPMINUS: "-", e.KEY_KPPLUS: "+", e.KEY_KPDOT: ".", e.KEY_KPSLASH: "/", e.KEY_KPASTERISK: "*",
}
#: keys that end a scan
TERMINATORS = frozenset({e.KEY_ENTER, e.KEY_KPENTER, e.KEY_TAB})
_SHIFTS = frozenset({e.KEY_LEFTSHIFT, e.KEY_RIGHTSHIFT})
# Any of these held turns the next key into something that is not US ASCII text.
_OTHER_MODIFIERS = frozenset({e.KEY_LEFTCTRL, e.KEY_RIGHTCTRL, e.KEY_LEFTALT, e.KEY_RIGHTALT,
                              e.KEY_LEFTMETA, e.KEY_RIGHTMETA})
# With Shift, these keypad keys are cursor keys on a PC (NumLock is overridden), not digits.
_KEYPAD_NAVIGATION = frozenset(k for k, c in KEYPAD_KEYS.items() if c in "0123456789.")


def _key_name(code: int) -> str:
    name = e.KEY.get(code) or e.BTN.get(code) or f"key {code}"
    return name[0] if isinstance(name, (list, tuple)) else name


class KeyDecoder:
    """Turns evdev key events into scanned text with the US layout. Pure: no I/O, no clock.

    Only key-down events (value 1) type; key-up (0) and autorepeat (2) add nothing, except
    that Shift (left or right) counts as held from its down to its up. Enter, keypad Enter
    or Tab end a scan; surrounding spaces are stripped and an empty scan yields nothing.
    NumLock presses are ignored; CapsLock toggles the case of letters as on a PC.

    A key that is not US ASCII text inside a scan (F-keys, Escape, Backspace, any key with
    Ctrl, Alt, AltGr or Meta held, a shifted keypad digit) rejects the whole scan: it is
    logged and returned as None, never as a shorter code. A scan longer than ``max_length``
    characters is discarded whole, up to its terminator, with a logged warning.

    >>> d = KeyDecoder(max_length=2)
    >>> d.feed(e.EV_KEY, e.KEY_A, 1) + d.feed(e.EV_KEY, e.KEY_F1, 1) + d.feed(e.EV_KEY, e.KEY_TAB, 1)
    [None]
    """

    def __init__(self, max_length: int = 64):
        if max_length < 1:
            raise ValueError(f"max_length must be at least 1 character, not {max_length}")
        self.max_length = max_length
        self.reset()

    def reset(self) -> None:
        """Forget the partial scan, held modifiers and CapsLock, e.g. after an unplug."""
        self._held: set[int] = set()
        self._caps = False
        self._chars: list[str] = []
        self._garbled = False
        self._discarding = False  # inside an overlong scan: drop keys until its terminator

    def feed(self, event_type: int, code: int, value: int) -> list[str | None]:
        """Add one event and return the scans it completed (None for a rejected scan).

        Events other than EV_KEY (EV_SYN, EV_MSC, ...) are ignored."""
        if event_type != e.EV_KEY:
            return []
        if code in _SHIFTS or code in _OTHER_MODIFIERS:
            if value == _DOWN:
                self._held.add(code)
            elif value == _UP:
                self._held.discard(code)
            return []
        if value != _DOWN:
            return []
        if code in TERMINATORS:
            return self._finish()
        if code == e.KEY_NUMLOCK:
            return []
        if code == e.KEY_CAPSLOCK:
            self._caps = not self._caps
            return []
        if self._discarding:
            return []
        char = self._char(code)
        if char is None and not self._garbled:
            log.warning("scanner sent %s, which is not US ASCII text: the scan is rejected", _key_name(code))
            self._garbled = True
        self._chars.append(char or "")
        if len(self._chars) > self.max_length:
            log.warning("scan longer than %d characters discarded (starts %r)",
                        self.max_length, "".join(self._chars[:16]))
            self._chars.clear()
            self._discarding = True
        return []

    def _char(self, code: int) -> str | None:
        if self._held & _OTHER_MODIFIERS:
            return None
        shift = bool(self._held & _SHIFTS)
        if code in KEYPAD_KEYS:
            return None if shift and code in _KEYPAD_NAVIGATION else KEYPAD_KEYS[code]
        if code not in US_KEYS:
            return None
        plain, shifted = US_KEYS[code]
        if self._caps and plain.isalpha():
            shift = not shift
        return shifted if shift else plain

    def _finish(self) -> list[str | None]:
        text, garbled, discarding = "".join(self._chars).strip(), self._garbled, self._discarding
        self._chars.clear()
        self._garbled = self._discarding = False
        if discarding:
            return []
        if garbled:
            return [None]
        return [text] if text else []


# --- finding scanners -------------------------------------------------------------------

#: words in a device's by-id or evdev name that say "barcode scanner" (whole words, except
#: the first two, which may be part of a longer word such as "BarcodeScanner")
SCANNER_WORDS = ("barcode", "scanner", "bar_code", "honeywell", "metrologic", "hand_held", "zebra", "symbol",
                 "datalogic", "newland", "netum", "tera", "inateck", "eyoyo", "opticon", "cipherlab", "unitech",
                 "wasp")
_SCANNER_NAME = re.compile(f"barcode|scanner|(?<![a-z0-9])(?:{'|'.join(SCANNER_WORDS[2:])})(?![a-z0-9])")
_F_KEYS = frozenset(getattr(e, f"KEY_F{n}") for n in range(1, 13))
_LETTERS = frozenset(getattr(e, f"KEY_{c}") for c in string.ascii_uppercase)
_DIGITS = frozenset(getattr(e, f"KEY_{d}") for d in "0123456789") | frozenset(KEYPAD_KEYS)


def _has_scanner_word(name: str) -> bool:
    return _SCANNER_NAME.search(re.sub(r"[^a-z0-9]+", "_", name.lower())) is not None


def parse_match(match: str) -> tuple[int, int]:
    """``"0c2e:0b61"`` (hex vendor:product, as ``lsusb`` prints) -> ``(0x0C2E, 0x0B61)``.

    Raises ValueError saying what is expected."""
    try:
        vendor, product = (int(part, 16) for part in match.split(":"))
        if 0 <= vendor <= 0xFFFF and 0 <= product <= 0xFFFF:
            return vendor, product
    except ValueError:
        pass
    raise ValueError(f"scanner match {match!r} should be vendor:product in hex, like 0c2e:0b61 (see lsusb)")


def find_scanners(
    by_id_dir: str = "/dev/input/by-id",
    by_path_dir: str = "/dev/input/by-path",
    match: str | None = None,
    opener: Callable[[str], evdev.InputDevice] = evdev.InputDevice,
) -> list[str]:
    """Stable paths of the keyboard-mode barcode scanners plugged in, by-id first, each once.

    Only udev's links are read (``*-event-kbd`` in ``by_id_dir``, then ``by_path_dir``),
    never a bare ``/dev/input/eventN``, which can change at every boot or replug. With
    ``match`` (hex ``"vendor:product"`` from config) exactly the devices with that USB id are
    returned, even if they look like a keyboard: config wins. Without it a device is a
    scanner if its name says so (:data:`SCANNER_WORDS`) or it types letters and digits but
    has no F-keys and no LEDs; many cheap scanners claim to be full keyboards and need a
    ``match``. A device with absolute axes (the touchscreen) is never returned.
    ``opener(path)`` opens a device to inspect it (closed again here); one that cannot be
    opened (permissions) counts only if its link's name says scanner, so that
    :class:`HidScanner` reports the fix. Raises ValueError for a malformed ``match``.
    """
    wanted = parse_match(match) if match else None
    found: list[str] = []
    seen: set[str] = set()
    for folder in (by_id_dir, by_path_dir):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue  # no such folder: no device of that kind
        for name in names:
            if not (("-event" in name) if wanted else name.endswith("-event-kbd")):
                continue
            path = os.path.join(folder, name)
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            if _is_scanner(path, opener, wanted):
                found.append(path)
    return found


def _is_scanner(path: str, opener: Callable[[str], evdev.InputDevice], wanted: tuple[int, int] | None) -> bool:
    hinted = _has_scanner_word(os.path.basename(path))
    try:
        device = opener(path)
    except OSError as exc:
        log.info("cannot open %s to look at it (%s)%s", path, exc, "; its name says scanner" if hinted else "")
        return hinted and wanted is None
    try:
        info, name, caps = device.info, device.name, device.capabilities(absinfo=False)
    finally:
        device.close()
    if e.EV_ABS in caps:
        log.debug("%s (%s) has absolute axes (a touchscreen?): not a scanner", path, name)
        return False
    if wanted is not None:
        return (info.vendor, info.product) == wanted
    keys = set(caps.get(e.EV_KEY, ()))
    if e.KEY_ENTER not in keys or not keys & _DIGITS:
        return False
    if hinted or _has_scanner_word(name):
        return True
    if keys & _F_KEYS or e.EV_LED in caps:
        log.debug("%s (%s) looks like a real keyboard: not a scanner", path, name)
        return False
    return _LETTERS <= keys


# --- the reader ---------------------------------------------------------------------------


class HidScanner(ReaderThread):
    """A keyboard-mode barcode scanner at a stable ``path``, read in its own daemon thread.

    The device is grabbed (``EVIOCGRAB``, unless ``grab=False``) so its keys reach no one
    else. Every completed scan becomes ``CardScanned(code, reader=name, t=clock.now(),
    seat)`` on ``out`` (``code`` None for a rejected scan, see :class:`KeyDecoder`; ``max_length``
    in characters). Device changes become :class:`DeviceStatus` on ``out``: ``"connected"``
    when opened and grabbed, ``"disconnected"`` (with a sentence for the players) when it
    cannot be opened or is unplugged (ENODEV). While disconnected the same path is reopened
    every 0.5 s; a partial scan cut off by an unplug is dropped, never joined to later keys.
    A ``PermissionError`` logs the fix once and keeps retrying. Nothing here raises for a
    missing or vanished device. ``opener(path)`` opens the device (``evdev.InputDevice``,
    or an emulator); ``tap(type, code, value, t)``, when given, sees every event read.
    """

    def __init__(self, path: str, out: queue.Queue, clock: Clock, name: str = "hid", seat: int | None = None,
                 opener: Callable[[str], evdev.InputDevice] = evdev.InputDevice, grab: bool = True,
                 max_length: int = 64, tap: Callable[[int, int, int, float], None] | None = None):
        super().__init__(name, out, clock)
        self.path = path
        self.seat = seat
        self._opener = opener
        self._grab = grab
        self._tap = tap
        self._decoder = KeyDecoder(max_length)
        self._device: evdev.InputDevice | None = None
        self._failure: str | None = None  # the failure last reported, so retries stay quiet
        self._counted = threading.Condition()
        self._events_read = 0

    @property
    def connected(self) -> bool:
        """True while the device is open (and grabbed)."""
        return self._device is not None

    @property
    def events_read(self) -> int:
        """Input events (any type) read from the device since construction, across reconnects."""
        with self._counted:
            return self._events_read

    def wait_for_events(self, total: int, timeout: float = 2.0) -> bool:
        """Block until ``events_read >= total`` or ``timeout`` seconds pass; True if reached.
        Counted after the scans they complete are on ``out``."""
        with self._counted:
            return self._counted.wait_for(lambda: self._events_read >= total, timeout)

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                device = self._device
                if device is None:
                    if not self._try_open():
                        self._stopping.wait(_RETRY_PERIOD)
                    continue
                try:
                    ready, _, _ = select.select([device.fd], [], [], _READ_TIMEOUT)
                    while ready and (event := device.read_one()) is not None:
                        self._consume(event.type, event.code, event.value)
                except OSError as exc:  # ENODEV when unplugged; EIO, EBADF when torn down
                    self._lost(exc)
        finally:
            self._close()

    def _consume(self, event_type: int, code: int, value: int) -> None:
        if self._tap is not None:
            self._tap(event_type, code, value, self._clock.now())
        for code_text in self._decoder.feed(event_type, code, value):
            self._out.put(CardScanned(code=code_text, reader=self.name, t=self._clock.now(), seat=self.seat))
        with self._counted:  # after the put: wait_for_events() promises the scans are queued
            self._events_read += 1
            self._counted.notify_all()

    def _try_open(self, first: bool = False) -> bool:
        """One attempt to open and grab. Reports "connected", or a failure the first time it
        differs from the last one reported."""
        device = None
        try:
            device = self._opener(self.path)
            if self._grab:
                device.grab()
        except PermissionError as exc:
            self._failed("permission", f"scanner at {self.path} cannot be opened: permission denied",
                         f"{exc}; {PERMISSION_FIX}", device)
            return False
        except OSError as exc:
            if exc.errno == errno.EBUSY:
                self._failed("busy", f"scanner at {self.path} is held by another program", str(exc), device)
            else:
                self._failed("missing", f"no scanner found at {self.path}: check its USB cable", str(exc), device)
            return False
        self._decoder.reset()
        self._device, self._failure = device, None
        log.info("scanner %s: connected at %s (%s)", self.name, self.path, getattr(device, "name", "?"))
        self._status("connected")
        return True

    def _failed(self, kind: str, message: str, detail: str, device: evdev.InputDevice | None) -> None:
        self._close(device)
        if kind != self._failure:
            self._failure = kind
            log.warning("scanner %s: %s (%s); retrying every %.1f s", self.name, message, detail, _RETRY_PERIOD)
            self._status("disconnected", message)

    def _lost(self, exc: OSError) -> None:
        log.warning("scanner %s at %s lost (%s); retrying every %.1f s", self.name, self.path, exc, _RETRY_PERIOD)
        self._decoder.reset()  # a cut-off scan must never be joined to later keys
        self._close()
        self._failure = "missing"  # the retries that follow fail with ENOENT: already said
        self._status("disconnected", UNPLUGGED)
        self._stopping.wait(_RETRY_PERIOD)

    def _close(self, device: evdev.InputDevice | None = None) -> None:
        """Close ``device`` or the open one. Closing the fd also releases the grab, so no
        ungrab() (which fails once the device is gone)."""
        if device is None:
            device, self._device = self._device, None
        try:
            if device is not None:
                device.close()
        except OSError as exc:
            log.debug("scanner %s: error closing %s: %s", self.name, self.path, exc)
