"""One key-position decoder for every keyboard-mode scanner, whatever path its keys take.

A scanner in keyboard mode "types" each label as key presses on a US keyboard. What it
means is the position of each key, never what the system's keymap makes of it: on a Pi
set to a German keymap the key a US scanner presses for ``Y`` types ``z``, on a French
one the digit keys type ``&é"'(``, and with NumLock off the keypad digits type nothing.
So every path decodes the key positions with the US layout here: the evdev path
(:class:`~companion.devices.scan.hid.HidScanner`, Linux key codes) and the window
(:class:`~companion.ui.app.App`: SDL's scan codes, which are USB HID usages, turned into
Linux key codes by :func:`from_sdl`). This module is pure: no evdev, no pygame, no clock.

Key codes are Linux's (``linux/input-event-codes.h``, the numbers python-evdev's
``ecodes`` holds; a test checks they agree).

>>> d = KeyDecoder()
>>> keys = [(KEY["LEFTSHIFT"], 1), (KEY["S"], 1), (KEY["S"], 0), (KEY["LEFTSHIFT"], 0),
...         (KEY["KP7"], 1), (KEY["KP7"], 0), (KEY["ENTER"], 1)]
>>> [scan for code, value in keys for scan in d.feed(EV_KEY, code, value)]
['S7']
>>> [from_sdl(usage) == KEY["Y"] for usage in (28,)]
[True]
"""

from __future__ import annotations

import logging
import math
import string
from dataclasses import dataclass

from .normalise import NO_FRAMING, Framing, clean_scan

log = logging.getLogger(__name__)

EV_SYN, EV_KEY = 0x00, 0x01
SYN_REPORT, SYN_DROPPED = 0, 3
_UP, _DOWN, _REPEAT = 0, 1, 2  # EV_KEY values

_NAMES = (  # Linux key codes 1..88 in order (linux/input-event-codes.h)
    "ESC 1 2 3 4 5 6 7 8 9 0 MINUS EQUAL BACKSPACE TAB Q W E R T Y U I O P LEFTBRACE RIGHTBRACE ENTER "
    "LEFTCTRL A S D F G H J K L SEMICOLON APOSTROPHE GRAVE LEFTSHIFT BACKSLASH Z X C V B N M COMMA DOT "
    "SLASH RIGHTSHIFT KPASTERISK LEFTALT SPACE CAPSLOCK F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 NUMLOCK "
    "SCROLLLOCK KP7 KP8 KP9 KPMINUS KP4 KP5 KP6 KPPLUS KP1 KP2 KP3 KP0 KPDOT - ZENKAKUHANKAKU 102ND F11 F12"
).split()
#: key name (python-evdev's without ``KEY_``) -> Linux key code
KEY: dict[str, int] = {name: code for code, name in enumerate(_NAMES, start=1) if name != "-"}
KEY |= {"KPENTER": 96, "RIGHTCTRL": 97, "KPSLASH": 98, "SYSRQ": 99, "RIGHTALT": 100, "HOME": 102, "UP": 103,
        "PAGEUP": 104, "LEFT": 105, "RIGHT": 106, "END": 107, "DOWN": 108, "PAGEDOWN": 109, "INSERT": 110,
        "DELETE": 111, "PAUSE": 119, "LEFTMETA": 125, "RIGHTMETA": 126, "COMPOSE": 127}

_US_LAYOUT = (  # key names, what each key types, and with Shift (US layout)
    [*"ABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890"] + "MINUS EQUAL LEFTBRACE RIGHTBRACE BACKSLASH SEMICOLON "
    "APOSTROPHE GRAVE COMMA DOT SLASH SPACE".split(),
    "abcdefghijklmnopqrstuvwxyz1234567890-=[]\\;'`,./ ",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()_+{}|:\"~<>? ",
)
#: key code -> (character, character with Shift) on a US keyboard
US_KEYS: dict[int, tuple[str, str]] = {KEY[n]: (p, s) for n, p, s in zip(*_US_LAYOUT, strict=True)}
#: keypad key code -> character, with NumLock on or off: a scanner means the digit, and its
#: key position says so whatever the NumLock state (with NumLock off a keymap would make
#: it a cursor key, and the digit would vanish)
KEYPAD_KEYS: dict[int, str] = {KEY[f"KP{d}"]: d for d in "0123456789"} | {
    KEY["KPMINUS"]: "-", KEY["KPPLUS"]: "+", KEY["KPDOT"]: ".", KEY["KPSLASH"]: "/", KEY["KPASTERISK"]: "*",
}
_KEYPAD_DIGITS = {code: char for code, char in KEYPAD_KEYS.items() if char.isdigit()}
#: keys that end a scan
TERMINATORS = frozenset({KEY["ENTER"], KEY["KPENTER"], KEY["TAB"]})
#: with Ctrl held, these end a scan too: Ctrl+J is line feed, Ctrl+M carriage return
#: (scanners set to send CR/LF "as control characters"), Ctrl+I is Tab
CTRL_TERMINATORS = frozenset({KEY["J"], KEY["M"], KEY["I"]})
#: key -> the control character Ctrl + that key types (Ctrl+B STX, Ctrl+C ETX, Ctrl+] GS...)
CTRL_KEYS: dict[int, str] = {KEY[c]: chr(ord(c) - 0x40) for c in string.ascii_uppercase} | {
    KEY["LEFTBRACE"]: "\x1b", KEY["BACKSLASH"]: "\x1c", KEY["RIGHTBRACE"]: "\x1d",
}
_CTRLS = frozenset({KEY["LEFTCTRL"], KEY["RIGHTCTRL"]})
_SHIFTS = frozenset({KEY["LEFTSHIFT"], KEY["RIGHTSHIFT"]})
_ALT = KEY["LEFTALT"]  # Alt + keypad codes: the left Alt (the right one is AltGr on most layouts)
_OTHER_MODIFIERS = frozenset({KEY["LEFTCTRL"], KEY["RIGHTCTRL"], KEY["LEFTALT"], KEY["RIGHTALT"],
                              KEY["LEFTMETA"], KEY["RIGHTMETA"]})
_NOT_TEXT_MODIFIERS = _OTHER_MODIFIERS - _CTRLS
#: every modifier the decoder keeps track of
MODIFIERS = _SHIFTS | _OTHER_MODIFIERS
_LOCKS = frozenset({KEY["NUMLOCK"], KEY["CAPSLOCK"]})
# With Shift, these keypad keys are cursor keys on a PC (NumLock is overridden), not digits.
_KEYPAD_NAVIGATION = frozenset(k for k, c in KEYPAD_KEYS.items() if c in "0123456789.")
#: the keys a scanner types with: a scan can start with any of these (the window leaves
#: every other key alone while no scan is under way)
SCAN_KEYS = frozenset(US_KEYS) | frozenset(KEYPAD_KEYS) | TERMINATORS | MODIFIERS | _LOCKS

_CODE_NAMES = {code: name for name, code in KEY.items()}


def key_name(code: int) -> str:
    """``KEY_F1`` for a key code (or ``key 200`` for one not named here), for the log."""
    return f"KEY_{_CODE_NAMES[code]}" if code in _CODE_NAMES else f"key {code}"


# --- SDL's scan codes -------------------------------------------------------------------

def _sdl_table() -> dict[int, int]:
    """SDL scan code (the USB HID usage on the keyboard page, HID Usage Tables section 10,
    as SDL's ``SDL_Scancode`` numbers them) -> Linux key code."""
    table = {0x04 + i: KEY[c] for i, c in enumerate(string.ascii_uppercase)}
    table |= {0x1E + i: KEY[d] for i, d in enumerate("1234567890")}
    runs = ((0x28, "ENTER ESC BACKSPACE TAB SPACE MINUS EQUAL LEFTBRACE RIGHTBRACE BACKSLASH BACKSLASH SEMICOLON "
                   "APOSTROPHE GRAVE COMMA DOT SLASH CAPSLOCK F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12 SYSRQ "
                   "SCROLLLOCK PAUSE INSERT HOME PAGEUP DELETE END PAGEDOWN RIGHT LEFT DOWN UP NUMLOCK KPSLASH "
                   "KPASTERISK KPMINUS KPPLUS KPENTER KP1 KP2 KP3 KP4 KP5 KP6 KP7 KP8 KP9 KP0 KPDOT 102ND COMPOSE"),
            (0xE0, "LEFTCTRL LEFTSHIFT LEFTALT LEFTMETA RIGHTCTRL RIGHTSHIFT RIGHTALT RIGHTMETA"))
    for start, names in runs:
        table |= {start + i: KEY[name] for i, name in enumerate(names.split())}
    return table


SDL_SCANCODES: dict[int, int] = _sdl_table()


def from_sdl(scancode: int) -> int | None:
    """The Linux key code at the key position SDL's ``scancode`` names (pygame's
    ``event.scancode``), or None for a key a scanner never types with. The same under
    every SDL video driver (kmsdrm reads evdev, x11 the X server's key codes): the
    keymap plays no part."""
    return SDL_SCANCODES.get(scancode)


# --- Alt + keypad -----------------------------------------------------------------------

def alt_code(digits: str) -> str:
    """The character an "Alt + keypad" code types: Alt held, the character's number in
    decimal on the keypad, Alt let go (as on Windows, the mode scanner makers advise for
    non-US layouts). Numbers are taken modulo 256 as Windows does; 0-127 are ASCII (a
    leading 0 picks the Windows code page and no 0 the DOS one, which differ only above
    127: any such character garbles a scan anyway, a card code is ASCII).

    >>> alt_code("083"), alt_code("83"), alt_code("13")
    ('S', 'S', '\\r')
    """
    value = int(digits) % 256
    if value < 128:
        return chr(value)
    return bytes([value]).decode("cp1252" if digits.startswith("0") else "cp437", errors="replace")


# --- where a scan ends -------------------------------------------------------------------

#: seconds of quiet that end a scan with no terminator, by default: above the 150 ms a
#: 2.4 GHz dongle pauses inside one label, and short enough that a scanner sending no
#: terminator still has its verdict within about half a second
DEFAULT_GAP = 0.5
ENDS = ("auto", "key", "gap")


@dataclass(frozen=True)
class ScanEnd:
    """How a keyboard-mode reader knows a scan has ended (config ``[readers]`` ``end`` and
    ``gap``, per reader). A terminator key (Enter, keypad Enter, Tab, Ctrl+J, Ctrl+M, an
    Alt code for CR, LF or Tab) always ends a scan. ``end``:

    - ``"auto"`` (the default): until the scanner has ended a scan with a terminator,
      ``gap`` seconds of quiet end one too (a scanner set to send none); from its first
      terminator on, only a terminator does, so a slow wireless scanner pausing inside a
      label is never split;
    - ``"key"``: only a terminator ends a scan (the gap never does);
    - ``"gap"``: the scanner sends no terminator: ``gap`` seconds of quiet end each scan.

    >>> ScanEnd().gap_applies(terminated=False), ScanEnd().gap_applies(terminated=True)
    (True, False)
    """

    end: str = "auto"
    gap: float = DEFAULT_GAP

    def __post_init__(self) -> None:
        if self.end not in ENDS:
            raise ValueError(f"a scan's end is one of {', '.join(ENDS)}, not {self.end!r}")
        if isinstance(self.gap, bool) or not isinstance(self.gap, (int, float)) or not math.isfinite(self.gap) \
                or not 0 < self.gap <= 10:
            raise ValueError(f"the silence gap is seconds above 0 and at most 10, not {self.gap!r}")

    def gap_applies(self, terminated: bool) -> bool:
        """Does the silence gap end a scan, for a scanner that has (``terminated``) or has
        not yet ended a scan with a terminator key?"""
        return self.end == "gap" or (self.end == "auto" and not terminated)

    def idle_gap(self, terminated: bool) -> float | None:
        """The gap now in force (seconds), or None when only a terminator ends a scan."""
        return self.gap if self.gap_applies(terminated) else None


DEFAULT_END = ScanEnd()


# --- the decoder ------------------------------------------------------------------------

class KeyDecoder:
    """Turns key events (Linux key codes) into scanned text with the US layout. Pure: no
    I/O, no clock.

    Only key-down events (value 1) type; key-up (0) and key repeat (2: a key held past
    the repeat delay, as a wireless scanner's late key-up makes it) add nothing, except
    that Shift, Ctrl and Alt count as held from their down to their up. Enter, keypad
    Enter or Tab end a scan, and so do Ctrl+J (line feed) and Ctrl+M (carriage return).
    Keypad digits are digits with NumLock on or off. The text is cleaned by
    :func:`~companion.devices.scan.normalise.clean_scan` (framing control characters,
    ``framing``'s prefix and suffix, an AIM identifier such as ``]C0``; with
    ``clean=False`` it is returned raw, for a path that cleans it later), and an empty
    scan yields nothing. NumLock presses are ignored; CapsLock toggles the case of
    letters as on a PC. Ctrl + a letter (or ``[ \\ ]``) types the control character a
    terminal would (Ctrl+B STX, Ctrl+C ETX), which is framing at the ends of a scan and
    garbles it inside. Left Alt held over keypad digits types the character with that
    number when Alt is let go (:func:`alt_code`): CR, LF or Tab sent so end the scan.

    A key that is not US ASCII text inside a scan (F-keys, Escape, Backspace, any other
    key with Alt, AltGr or Meta held, a shifted keypad digit) rejects the whole scan: it
    is logged and returned as None, never as a shorter code. A scan longer than
    ``max_length`` characters is discarded whole, up to its terminator, with a logged
    warning, and returned as None at once (a garbled read gets a verdict too).

    :attr:`terminated` says whether a terminator key has ended a scan since the decoder
    was made: a reader then knows the scanner sends one (``end = "auto"``).

    >>> d = KeyDecoder(max_length=2)
    >>> d.feed(EV_KEY, KEY["A"], 1) + d.feed(EV_KEY, KEY["F1"], 1) + d.feed(EV_KEY, KEY["TAB"], 1)
    [None]
    """

    def __init__(self, max_length: int = 64, framing: Framing = NO_FRAMING, clean: bool = True):
        if max_length < 1:
            raise ValueError(f"max_length must be at least 1 character, not {max_length}")
        self.max_length = max_length
        self.framing = framing
        self.clean = clean
        self.terminated = False
        self.reset()

    def reset(self) -> None:
        """Forget the partial scan, held modifiers and CapsLock, e.g. after an unplug."""
        self._held: set[int] = set()
        self._caps = False
        self._chars: list[str] = []
        self._alt_digits: str | None = None  # an Alt + keypad code being typed
        self._garbled = False
        self._discarding = False  # inside an overlong or cut scan: drop keys until its terminator
        self._resyncing = False  # after SYN_DROPPED: drop events up to the next SYN_REPORT
        self.overruns = getattr(self, "overruns", 0)  # SYN_DROPPED seen (kept across resets)

    def resync(self, held: set[int]) -> None:
        """After an overrun: the modifier keys really held now (``EVIOCGKEY``, python-evdev's
        ``active_keys()``), since their key-up events may have been lost."""
        self._held = {k for k in held if k in MODIFIERS}

    def _dropped_events(self) -> list[str | None]:
        self.overruns += 1
        cut = bool(self._chars) or self._garbled
        log.warning("the scanner's events overran the kernel's buffer (SYN_DROPPED): %s",
                    "the scan it cut is dropped" if cut else "the next scan is dropped, its start may be lost")
        already = self._discarding and not self._chars
        self._chars.clear()
        self._garbled = False
        self._held.clear()
        self._alt_digits = None
        self._resyncing = True
        self._discarding = True
        return [] if already else [None]

    def feed(self, event_type: int, code: int, value: int) -> list[str | None]:
        """Add one event and return the scans it completed (None for a rejected scan).

        Events other than EV_KEY (EV_SYN, EV_MSC, ...) are ignored, but for
        ``SYN_DROPPED``: the kernel's event buffer overran (the reader stalled) and events
        were lost, so the scan it cut (and the next one, whose start may be lost) could be
        halves of two labels. Everything up to the next ``SYN_REPORT`` is dropped, as the
        evdev documentation says, then every key up to the next terminator (or until the
        scanner goes quiet: :meth:`flush`, the reader's idle gap); the scan is
        returned as None at once (the table is told to scan again), and logged.
        Held modifiers are forgotten (their key-ups may be lost; see :meth:`resync`)."""
        if event_type == EV_SYN and code == SYN_DROPPED:
            return self._dropped_events()
        if self._resyncing:
            if event_type == EV_SYN and code == SYN_REPORT:
                self._resyncing = False
            return []
        if event_type != EV_KEY or value == _REPEAT:
            return []
        if code in MODIFIERS:
            return self._modifier(code, value)
        if value != _DOWN:
            return []
        if self._alt_digits is not None and code in _KEYPAD_DIGITS and self._alt_only():
            self._alt_digits += _KEYPAD_DIGITS[code]
            return []
        if code in TERMINATORS or (code in CTRL_TERMINATORS and self._ctrl_only()):
            return self._finish(by_key=True)
        if code == KEY["NUMLOCK"]:
            return []
        if code == KEY["CAPSLOCK"]:
            self._caps = not self._caps
            return []
        return self._type(self._char(code), code)

    def _modifier(self, code: int, value: int) -> list[str | None]:
        if value == _DOWN:
            self._held.add(code)
            if code == _ALT:
                self._alt_digits = ""
            return []
        if value != _UP:
            return []
        self._held.discard(code)
        if code != _ALT or self._alt_digits is None:
            return []
        digits, self._alt_digits = self._alt_digits, None
        if not digits:
            return []  # Alt pressed and let go alone
        char = alt_code(digits)
        if char in "\r\n\t":
            return self._finish(by_key=True)
        return self._type(char, code)

    def _type(self, char: str | None, code: int) -> list[str | None]:
        if self._discarding:
            return []
        if char is None and not self._garbled:
            log.warning("scanner sent %s, which is not US ASCII text: the scan is rejected", key_name(code))
            self._garbled = True
        self._chars.append(char or "")
        if len(self._chars) > self.max_length:
            log.warning("scan longer than %d characters discarded (starts %r)",
                        self.max_length, "".join(self._chars[:16]))
            self._chars.clear()
            self._garbled = False
            self._discarding = True
            return [None]
        return []

    def flush(self) -> list[str | None]:
        """End the partial scan now (a scanner with no terminator went quiet): the scans
        that completes, like a terminator would, or [] when there is none."""
        if not self._chars and not self._garbled:
            self._discarding = False
            return []
        return self._finish()

    @property
    def pending(self) -> bool:
        """True while a scan has started and not ended."""
        return bool(self._chars) or self._garbled or self._discarding or bool(self._alt_digits)

    def _ctrl_only(self) -> bool:
        return bool(self._held & _CTRLS) and not self._held & _NOT_TEXT_MODIFIERS

    def _alt_only(self) -> bool:
        return self._held & (_OTHER_MODIFIERS | _SHIFTS) == {_ALT}

    def _char(self, code: int) -> str | None:
        if self._ctrl_only():
            return CTRL_KEYS.get(code)
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

    def _finish(self, by_key: bool = False) -> list[str | None]:
        text, garbled, discarding = "".join(self._chars), self._garbled, self._discarding
        self._chars.clear()
        self._garbled = self._discarding = False
        if by_key:
            self.terminated = True
        if discarding:
            return []  # already returned as None when it grew too long
        if garbled:
            return [None]
        code = clean_scan(text, self.framing) if self.clean else text
        return [code] if code != "" else []


class KeyStream:
    """A keyboard-mode scanner typing into the window: SDL's key events (scan code, down
    or up, repeat) in, scans out, by key position through :class:`KeyDecoder`, and ended
    as ``end`` (a :class:`ScanEnd`) says. Scans come back raw (``clean=False``: the table
    cleans a typed scan like any other read), None for one that held a key that is not
    text. Pure: the caller passes the time (``monotonic`` seconds) of each key and asks
    :meth:`due` and :meth:`quiet` when no key comes.

    >>> k = KeyStream()
    >>> [s for usage in (0x1C, 0x1E, 0x28) for s in k.key(usage, True, False, 0.0)]
    ['y1']
    """

    def __init__(self, end: ScanEnd = DEFAULT_END, max_length: int = 64):
        self.end = end
        self.decoder = KeyDecoder(max_length, clean=False)
        self._last = 0.0

    def key(self, scancode: int, down: bool, repeat: bool, now: float) -> list[str | None]:
        """One key event: the scans it ends. A repeat (a key held past the repeat delay,
        as a wireless scanner's late key-up makes it) adds nothing. While no scan is under
        way, a key no scanner types with (an F-key, Backspace, an unknown key) is left
        alone: a person's keyboard, not a scan."""
        if down and repeat:
            return []
        code = from_sdl(scancode)
        if not self.decoder.pending and code not in SCAN_KEYS:
            return []
        self._last = now
        return self.decoder.feed(EV_KEY, -1 if code is None else code, _DOWN if down else _UP)

    def due(self, now: float) -> float | None:
        """Seconds until the silence gap ends the scan under way (0: it has), or None when
        none is under way or only its terminator ends it."""
        gap = self.end.idle_gap(self.decoder.terminated)
        if gap is None or not self.decoder.pending:
            return None
        return max(0.0, gap - (now - self._last))

    def quiet(self, now: float) -> list[str | None]:
        """The scan the silence gap has ended by ``now``, if any (see :meth:`due`)."""
        return self.decoder.flush() if self.due(now) == 0.0 else []
