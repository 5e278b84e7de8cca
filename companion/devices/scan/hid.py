"""A keyboard-mode (HID) barcode scanner: key events in, one :class:`CardScanned` per label.

A scanner in keyboard mode "types" each label as key presses, then Enter (or Tab). Read
through python-evdev the keys arrive as raw keycodes, so :class:`~.keys.KeyDecoder` (the
one decoder every keyboard-mode path shares, the window's too) turns them into text by key
position with the US layout whatever the system locale: the scanner is set up for US
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
import time
from typing import Callable

import evdev
from evdev import ecodes as e

from companion.core.clock import Clock
from companion.core.events import CardScanned

from .base import ReaderThread
from .identity import DeviceMatch, find_by_identity, is_identity, parse_identity, typing_keys
from .keys import DEFAULT_END, KEYPAD_KEYS, US_KEYS, KeyDecoder, ScanEnd  # noqa: F401 - KeyDecoder, US_KEYS: API
from .normalise import NO_FRAMING, Framing

log = logging.getLogger(__name__)

_RETRY_PERIOD = 0.5  # seconds between attempts to reopen an unplugged scanner

UNPLUGGED = "scanner disconnected: check its USB cable"
ASLEEP = "scanner disconnected: switch it on, or scan once to wake it"  # a Bluetooth scanner's
PERMISSION_FIX = "add the service user to the `input` group or install hardware/99-sugar-companion.rules"


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


def parse_wanted(match: str | None) -> tuple[int, int] | DeviceMatch | None:
    """What a reader was asked for: a USB ``"vendor:product"`` (:func:`parse_match`), a
    ``"name:TEXT"`` or ``"uniq:ID"`` (:mod:`.identity`, Bluetooth scanners), or nothing.
    Raises ValueError saying what is expected."""
    if not match:
        return None
    return parse_identity(match) if is_identity(match) else parse_match(match)


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


def auto_scanner(
    by_id_dir: str = "/dev/input/by-id",
    by_path_dir: str = "/dev/input/by-path",
    opener: Callable[[str], evdev.InputDevice] = evdev.InputDevice,
) -> str:
    """The one keyboard-mode scanner ``hid:auto`` may grab: the only device
    :func:`find_scanners` finds whose link or name says scanner (:data:`SCANNER_WORDS`).
    A device that only looks like one (letters and digits, no F-keys, no LEDs) is never
    taken by itself: a small keyboard looks the same, and a grabbed keyboard types
    nowhere. Raises LookupError saying what to write instead: none found, only
    lookalikes (name it by USB id, ``hid:VVVV:PPPP``), or several scanners (name one by
    its by-id path)."""
    found = find_scanners(by_id_dir, by_path_dir, opener=opener)
    named = [path for path in found if _named_scanner(path, opener)]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        raise LookupError("hid:auto found several scanners (" + ", ".join(named) + "): name the one to use, "
                          "e.g. --scanner hid:" + named[0])
    if found:
        raise LookupError("hid:auto found no device named as a barcode scanner; " + ", ".join(found) +
                          " looks like one but could be a keyboard, so it is left alone: name it by its USB id "
                          "(hid:VVVV:PPPP, see lsusb) or its by-id path")
    raise LookupError("no keyboard-mode scanner is plugged in (a Bluetooth scanner has no by-id link: name it "
                      "hid:name:TEXT or hid:uniq:ID, see `companion doctor`)")


def _named_scanner(path: str, opener: Callable[[str], evdev.InputDevice]) -> bool:
    if _has_scanner_word(os.path.basename(path)):
        return True
    try:
        device = opener(path)
    except OSError:
        return False
    try:
        return _has_scanner_word(device.name)
    finally:
        device.close()


def _is_scanner(path: str, opener: Callable[[str], evdev.InputDevice], wanted: tuple[int, int] | None) -> bool:
    hinted = _has_scanner_word(os.path.basename(path))
    try:
        device = opener(path)
    except OSError as exc:
        log.info("cannot open %s to look at it (%s)%s", path, exc, "; its name says scanner" if hinted else "")
        return hinted and wanted is None
    try:
        refusal = scanner_refusal(device, path, wanted)
    finally:
        device.close()
    if refusal:
        log.debug("%s: %s", path, refusal)
    return refusal is None


def scanner_refusal(device: evdev.InputDevice, path: str,
                    wanted: tuple[int, int] | DeviceMatch | None) -> str | None:
    """Why the open ``device`` at ``path`` is not to be taken as a barcode scanner, or None
    when it is one: the checks :func:`find_scanners` makes, also made by
    :class:`HidScanner` at every open and reopen (a keyboard or touchscreen plugged into
    the scanner's port must never be grabbed). With ``wanted`` (vendor, product) only that
    USB id counts; with a :class:`~.identity.DeviceMatch`, only a device with that name or
    uniq that has a scanner's keys."""
    info, name, caps = device.info, device.name, device.capabilities(absinfo=False)
    if e.EV_ABS in caps:
        return f"{name!r} has absolute axes (a touchscreen?), not a barcode scanner"
    if isinstance(wanted, DeviceMatch):
        if wanted.matches(device) and typing_keys(caps):
            return None
        return f"{name!r} is not the scanner {wanted.describe()} asked for"
    if wanted is not None:
        if (info.vendor, info.product) == wanted:
            return None
        return (f"{name!r} is USB {info.vendor:04x}:{info.product:04x}, not the scanner "
                f"{wanted[0]:04x}:{wanted[1]:04x} asked for")
    keys = set(caps.get(e.EV_KEY, ()))
    if e.KEY_ENTER not in keys or not keys & _DIGITS:
        return f"{name!r} has no Enter or digit keys, so it is not a barcode scanner"
    if _has_scanner_word(os.path.basename(path)) or _has_scanner_word(name):
        return None
    if keys & _F_KEYS or e.EV_LED in caps or not _LETTERS <= keys:
        return (f"{name!r} looks like a keyboard, not a barcode scanner (a scanner that claims to be "
                "a keyboard is named by its USB id: hid:VENDOR:PRODUCT, see lsusb)")
    return None


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

    Every open and reopen makes :func:`find_scanners`' checks (:func:`scanner_refusal`;
    with ``match``, hex ``"vendor:product"``, only that USB id; ``"name:TEXT"`` or
    ``"uniq:ID"``, a Bluetooth scanner, is looked for again among ``input_dir``'s
    ``event*`` at every open, :mod:`.identity`) before grabbing: a
    keyboard or touchscreen plugged into the scanner's port (a by-path link names the
    port, not the device) is closed again untouched and reported as ``"refused"`` with
    the reason, and the path keeps being retried for the scanner. ``end`` (a
    :class:`~.keys.ScanEnd`: config ``[readers]`` ``end`` and ``gap``; None: only a
    terminator ever ends a scan, as a replay wants) says when silence ends a scan: by
    default (``"auto"``) a scan whose terminator never came ends once the scanner is
    ``gap`` seconds (0.5) quiet, until the scanner has sent a terminator; from then on only
    its terminator ends a scan, so a slow wireless scanner pausing inside one label is
    never split. Silence is measured on ``monotonic`` (a ``() -> float`` in seconds,
    default ``time.monotonic``; a test passes a
    :class:`~companion.core.clock.FakeClock`'s ``now`` and advances it). ``framing`` is stripped from every scan (:mod:`.normalise`).
    Raises ValueError for a malformed ``match`` or a ``max_length`` below 1.
    """

    def __init__(self, path: str, out: queue.Queue, clock: Clock, name: str = "hid", seat: int | None = None,
                 opener: Callable[[str], evdev.InputDevice] = evdev.InputDevice, grab: bool = True,
                 max_length: int = 64, tap: Callable[[int, int, int, float], None] | None = None,
                 match: str | None = None, end: ScanEnd | None = DEFAULT_END, framing: Framing = NO_FRAMING,
                 monotonic: Callable[[], float] = time.monotonic, input_dir: str = "/dev/input"):
        super().__init__(name, out, clock, monotonic)
        self.path = path
        self.seat = seat
        self._opener = opener
        self._grab = grab
        self._tap = tap
        self._wanted = parse_wanted(match)
        self._input_dir = input_dir
        self._end = end
        self._last_event = 0.0  # monotonic() of the last event read
        self._decoder = KeyDecoder(max_length, framing)
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
                gap = self._idle_gap()
                wait = self._quiet_wait(gap, self._decoder.pending, self._last_event)
                try:
                    ready, _, _ = select.select([device.fd, *self._stop_fds()], [], [], wait)
                    ready = device.fd in ready
                    while ready and (event := device.read_one()) is not None:
                        self._last_event = self._monotonic()
                        self._consume(event.type, event.code, event.value)
                        if event.type == e.EV_SYN and event.code == e.SYN_DROPPED:
                            self._resync(device)
                except OSError as exc:  # ENODEV when unplugged; EIO, EBADF when torn down
                    self._lost(exc)
                    continue
                if not ready and self._decoder.pending and self._idle_gap_passed(self._idle_gap(), self._last_event):
                    self._put(self._decoder.flush())
        finally:
            self._close()

    def _idle_gap(self) -> float | None:
        """The silence (seconds) that ends a scan now, or None: only a terminator does."""
        return None if self._end is None else self._end.idle_gap(self._decoder.terminated)

    def _consume(self, event_type: int, code: int, value: int) -> None:
        if self._tap is not None:
            self._tap(event_type, code, value, self._clock.now())
        self._put(self._decoder.feed(event_type, code, value))
        with self._counted:  # after the put: wait_for_events() promises the scans are queued
            self._events_read += 1
            self._counted.notify_all()

    def _resync(self, device) -> None:
        """After SYN_DROPPED: ask the device which keys are held now (EVIOCGKEY)."""
        try:
            self._decoder.resync(set(device.active_keys()))
        except (AttributeError, OSError):
            pass  # an emulator without it, or the device went: the modifiers stay forgotten

    def _put(self, scans: list[str | None]) -> None:
        for code_text in scans:
            self._out.put(CardScanned(code=code_text, reader=self.name, t=self._clock.now(), seat=self.seat))

    def _try_open(self, first: bool = False) -> bool:
        """One attempt to open and grab. Reports "connected", or a failure the first time it
        differs from the last one reported."""
        device = None
        try:
            path = self._where()
        except LookupError as exc:
            self._failed("missing" if "no scanner" in str(exc) else "several", str(exc),
                         f"looked among {self._input_dir}/event*", None)
            return False
        try:
            device = self._opener(path)
            refusal = scanner_refusal(device, path, self._wanted)
            if refusal is not None:
                self._failed("refused", f"not a scanner, left alone: {refusal}", f"at {self.path}", device, "refused")
                return False
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
        log.info("scanner %s: connected at %s (%s)", self.name, path, getattr(device, "name", "?"))
        self._status("connected")
        return True

    def _where(self) -> str:
        """The device to open: :attr:`path`, or for a scanner named by its evdev name or
        uniq (a Bluetooth scanner: no stable link, a new eventN at every reconnect) the
        one device found with it now. Raises LookupError saying why there is none."""
        if not isinstance(self._wanted, DeviceMatch):
            return self.path
        found = find_by_identity(self._wanted, self._input_dir, self._opener)
        if not found:
            raise LookupError(f"no scanner {self._wanted.describe()} is connected: switch it on, or scan once "
                              "to wake it (a Bluetooth scanner must be paired: see docs/scanners.md)")
        if len(found) > 1:
            raise LookupError(f"several devices {self._wanted.describe()} ({', '.join(found)}): name the scanner "
                              "by more of its name, or by its uniq (see `companion doctor`)")
        return found[0]

    def _failed(self, kind: str, message: str, detail: str, device: evdev.InputDevice | None,
                status: str = "disconnected") -> None:
        self._close(device)
        if kind != self._failure:
            self._failure = kind
            log.warning("%s: %s (%s); retrying every %.1f s", self.name, message, detail, _RETRY_PERIOD)
            self._status(status, message)

    def _lost(self, exc: OSError) -> None:
        log.warning("%s at %s lost (%s); retrying every %.1f s", self.name, self.path, exc, _RETRY_PERIOD)
        self._decoder.reset()  # a cut-off scan must never be joined to later keys
        self._close()
        self._failure = "missing"  # the retries that follow fail with ENOENT: already said
        self._status("disconnected", ASLEEP if isinstance(self._wanted, DeviceMatch) else UNPLUGGED)
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
