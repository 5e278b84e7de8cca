"""Naming a keyboard-mode scanner that has no stable link: by its evdev name or ``uniq``.

A USB scanner gets a ``/dev/input/by-id/...`` link from udev, so ``hid:auto`` and a path
can name it. A **Bluetooth** scanner gets none (udev builds by-id links from USB serial
numbers) and its ``/dev/input/eventN`` changes at every reconnect, which a sleeping
Bluetooth scanner does all day. So it is named by what the device itself says:

- ``hid:name:TEXT``: the device whose evdev name contains TEXT (case does not matter),
  e.g. ``hid:name:BARCODE`` or ``hid:name:Inateck BCST-70``;
- ``hid:uniq:ID``: the device whose evdev ``uniq`` is ID (a Bluetooth device's address,
  ``aa:bb:cc:dd:ee:ff``; case does not matter).

``companion doctor`` lists the keyboard-like input devices it sees with both. The device is
looked for again at every open and reopen, among ``/dev/input/event*``; of the devices a
Bluetooth HID device makes (a keyboard, a "Consumer Control", a "System Control"), only
one with Enter and digit keys and no absolute axes counts.

>>> parse_identity("name:Inateck BCST")
DeviceMatch(kind='name', value='Inateck BCST')
>>> parse_identity("name:")
Traceback (most recent call last):
...
ValueError: hid:name: needs the text to look for after it, e.g. hid:name:BARCODE (see companion doctor)
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any, Callable

log = logging.getLogger(__name__)

KINDS = ("name", "uniq")
_EV_KEY, _EV_ABS = 0x01, 0x03
_ENTER = 28
_DIGITS = frozenset(range(2, 12)) | frozenset({71, 72, 73, 75, 76, 77, 79, 80, 81, 82})  # the row and the keypad


@dataclass(frozen=True)
class DeviceMatch:
    """A device asked for by its evdev ``name`` (a part of it) or ``uniq`` (all of it)."""

    kind: str
    value: str

    def matches(self, device: Any) -> bool:
        """Does the open ``device`` (an ``evdev.InputDevice``) have this name or uniq?"""
        have = (getattr(device, self.kind, "") or "").casefold()
        want = self.value.casefold()
        return want in have if self.kind == "name" else want == have

    @property
    def text(self) -> str:
        """As written after ``hid:``."""
        return f"{self.kind}:{self.value}"

    def describe(self) -> str:
        """Words for the log and the screen: ``named 'BARCODE'`` or ``with uniq aa:bb``."""
        return f"named {self.value!r}" if self.kind == "name" else f"with uniq {self.value}"


def is_identity(text: str) -> bool:
    """Is ``text`` (what follows ``hid:``) a ``name:`` or ``uniq:`` match?"""
    return text.partition(":")[0] in KINDS and ":" in text


def parse_identity(text: str) -> DeviceMatch:
    """``"name:TEXT"`` or ``"uniq:ID"`` -> :class:`DeviceMatch`. Raises ValueError."""
    kind, _, value = text.partition(":")
    if kind not in KINDS:
        raise ValueError(f"hid:{text}: write hid:name:TEXT or hid:uniq:ID")
    value = value.strip()
    if not value:
        example = "BARCODE" if kind == "name" else "aa:bb:cc:dd:ee:ff"
        raise ValueError(f"hid:{kind}: needs the text to look for after it, e.g. hid:{kind}:{example} "
                         "(see companion doctor)")
    return DeviceMatch(kind, value)


def typing_keys(capabilities: dict) -> bool:
    """Do a device's capabilities (``capabilities(absinfo=False)``) show a scanner's keys
    (Enter and digits) and no absolute axes (a touchscreen)?"""
    keys = set(capabilities.get(_EV_KEY, ()))
    return _EV_ABS not in capabilities and _ENTER in keys and bool(keys & _DIGITS)


def find_by_identity(match: DeviceMatch, input_dir: str = "/dev/input",
                     opener: Callable[[str], Any] | None = None) -> list[str]:
    """The ``/dev/input/eventN`` paths (in ``input_dir``) of the devices ``match`` names
    that type like a scanner (:func:`typing_keys`), in number order. ``opener(path)``
    opens a device (``evdev.InputDevice``); one that cannot be opened is passed over
    (logged)."""
    if opener is None:
        import evdev

        opener = evdev.InputDevice
    try:
        names = [n for n in os.listdir(input_dir) if n.startswith("event") and n[5:].isdigit()]
    except OSError:
        return []
    found = []
    for name in sorted(names, key=lambda n: int(n[5:])):
        path = os.path.join(input_dir, name)
        try:
            device = opener(path)
        except OSError as exc:
            log.debug("cannot open %s to look at it: %s", path, exc)
            continue
        try:
            if match.matches(device) and typing_keys(device.capabilities(absinfo=False)):
                found.append(path)
        finally:
            device.close()
    return found
