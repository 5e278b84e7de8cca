"""Readers named on the command line: ``KIND:PATH[@SEAT]``, e.g.
``serial:/dev/serial/by-id/usb-Netum-if00@2`` (a USB-serial scanner bound to seat 2),
``hid:/dev/input/by-id/usb-Honeywell-event-kbd``, ``hid:auto``, ``hid:0c2e:0b61``,
``hid:name:BARCODE`` or ``hid:uniq:aa:bb:cc:dd:ee:ff`` (a keyboard-mode scanner by path,
found, by USB vendor:product, or by its evdev name or uniq: a Bluetooth scanner),
``nfc:/dev/serial/by-id/usb-...`` (a PN532 NFC reader over UART).

>>> parse_reader("serial:/dev/ttyACM0@3")
ReaderSpec(kind='serial', path='/dev/ttyACM0', seat=3)
>>> parse_reader("hid:0c2e:0b61@2")
ReaderSpec(kind='hid', path='0c2e:0b61', seat=2)
>>> parse_reader("usb")
Traceback (most recent call last):
...
ValueError: --scanner 'usb': write KIND:PATH[@SEAT] with KIND one of serial, hid, nfc (e.g. serial:/dev/serial/by-id/usb-...@1)
"""

from __future__ import annotations

import queue
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from companion.core.clock import Clock

from .scan.keys import DEFAULT_END, ScanEnd
from .scan.normalise import NO_FRAMING, Framing

KINDS = ("serial", "hid", "nfc")


@dataclass(frozen=True)
class ReaderSpec:
    """One reader from the command line or config: its kind, stable device path, and
    the seat (1-based) it is bound to, or None for a reader the whole table shares.
    ``match`` is the USB ``vendor:product`` a HID scanner was asked for by (kept after
    :func:`resolve` turns it into a path, so every reopen checks that id). ``end`` and
    ``gap`` are how this reader's scans end, where its config entry says
    (:class:`~companion.devices.scan.keys.ScanEnd`), None for the table's setting."""

    kind: str
    path: str
    seat: int | None = None
    match: str | None = field(default=None, repr=False)
    end: str | None = field(default=None, repr=False)
    gap: float | None = field(default=None, repr=False)

    @property
    def text(self) -> str:
        """The reader as written: ``KIND:PATH[@SEAT]``."""
        return f"{self.kind}:{self.path}" + (f"@{self.seat}" if self.seat else "")

    def scan_end(self, default: ScanEnd) -> ScanEnd:
        """How this reader's scans end: its own ``end`` and ``gap`` where its entry gave
        them, ``default`` (the ``[readers]`` keys, ``--scan-end``, ``--scan-gap``) for the rest."""
        return ScanEnd(default.end if self.end is None else self.end, default.gap if self.gap is None else self.gap)


#: the keys of a reader written as a table in the config: { reader = "hid:auto", gap = 0.3 }
ENTRY_KEYS = ("reader", "end", "gap")


def parse_entry(entry: "str | dict | ReaderSpec") -> ReaderSpec:
    """A ``[readers] scanners`` entry: ``"KIND:PATH[@SEAT]"``, or a table with the reader
    and how its scans end, ``{ reader = "hid:name:BARCODE", end = "auto", gap = 0.3 }``
    (``end`` and ``gap`` as in :class:`~companion.devices.scan.keys.ScanEnd`; a key left
    out is the table's default). Raises ValueError saying what is wrong.

    >>> parse_entry({"reader": "hid:auto@2", "gap": 0.3}).scan_end(ScanEnd())
    ScanEnd(end='auto', gap=0.3)
    """
    if isinstance(entry, ReaderSpec):
        return entry
    if isinstance(entry, str):
        return parse_reader(entry)
    if not isinstance(entry, dict) or not isinstance(entry.get("reader"), str):
        raise ValueError('a reader is "KIND:PATH[@SEAT]" or a table with one, '
                         'like { reader = "hid:auto", gap = 0.3 }')
    stray = sorted(set(entry) - set(ENTRY_KEYS))
    if stray:
        raise ValueError(f"a reader's table has the keys {', '.join(ENTRY_KEYS)}, not {', '.join(stray)}")
    spec = parse_reader(entry["reader"])
    ScanEnd(**{key: entry[key] for key in ("end", "gap") if key in entry})  # ValueError says what is allowed
    return replace(spec, end=entry.get("end"), gap=entry.get("gap"))


def parse_reader(spec: str) -> ReaderSpec:
    """Parse ``KIND:PATH[@SEAT]``. Raises ValueError with an example for a bad spec."""
    usage = (f"--scanner {spec!r}: write KIND:PATH[@SEAT] with KIND one of {', '.join(KINDS)} "
             "(e.g. serial:/dev/serial/by-id/usb-...@1)")
    kind, sep, rest = spec.partition(":")
    if not sep or kind not in KINDS or not rest:
        raise ValueError(usage)
    path, at, seat = rest.rpartition("@") if "@" in rest else (rest, "", "")
    if at and not (seat.isascii() and seat.isdigit() and 1 <= int(seat) <= 8):
        raise ValueError(f"--scanner {spec!r}: the seat after @ is a number from 1 to 8")
    if not path:
        raise ValueError(usage)
    return ReaderSpec(kind, path, int(seat) if at else None)


def resolve(spec: ReaderSpec) -> ReaderSpec:
    """Check a reader spec against the machine before anything else happens: a HID
    ``auto`` or ``vendor:product`` becomes the stable path of the scanner found.

    A ``name:TEXT`` or ``uniq:ID`` (a Bluetooth scanner: no stable link) is only
    checked for form: the reader looks for the device at every open and reopen, and a
    scanner asleep when the table starts is waited for.

    Raises ValueError for a path that is not stable (``/dev/input/eventN``) and
    LookupError when no matching keyboard-mode scanner is plugged in.
    """
    if spec.kind != "hid":
        return spec
    path = spec.path
    if path.startswith("/dev/input/event"):
        raise ValueError(f"{path} can change at every boot: use its /dev/input/by-id/ link instead")
    if path.startswith("/"):
        return spec
    from .scan.hid import auto_scanner, find_scanners
    from .scan.identity import is_identity, parse_identity

    if is_identity(path):  # a Bluetooth scanner, by its evdev name or uniq: looked for at every (re)open
        parse_identity(path)  # ValueError says what to write
        return replace(spec, match=path)

    if path == "auto":
        return replace(spec, path=auto_scanner(), match=None)  # LookupError says what to write
    found = find_scanners(match=path)
    if not found:
        raise LookupError(f"no keyboard-mode scanner matching {path!r} is plugged in (see `companion doctor`)")
    return replace(spec, path=found[0], match=None if path == "auto" else path)


def open_reader(spec: ReaderSpec, out: "queue.Queue", clock: Clock, name: str,
                tap: Callable[[bytes, float], None] | None = None,
                uid_to_code: Callable[[str], str | None] | None = None,
                on_uid: Callable[[str], None] | None = None,
                framing: Framing = NO_FRAMING,
                hid_tap: Callable[[int, int, int, float], None] | None = None,
                nfc_tap: Callable[[str, str | None, float], None] | None = None,
                end: ScanEnd = DEFAULT_END) -> Any:
    """Build and start the reader for ``spec``; it reports on ``out`` from its own thread.

    ``hid:`` takes a stable path (``/dev/input/by-id/...-event-kbd``), ``auto`` (the one
    device named as a scanner: :func:`~companion.devices.scan.hid.auto_scanner`) or a ``vendor:product``
    USB id, which the reader then also checks at every reopen (``spec.match``). Raises ValueError when no
    such scanner is found or the path is a bare eventN. ``framing`` (prefixes and suffixes
    the scanner adds) is stripped by every kind of reader. ``tap``, ``hid_tap`` and
    ``nfc_tap`` see what a serial, keyboard-mode or NFC reader read (``--record``).
    ``end`` is how a keyboard-mode scanner's scans end (the table's ``[readers]`` ``end``
    and ``gap``), unless its own entry says (:meth:`ReaderSpec.scan_end`); a serial
    scanner keeps its own 0.1 s gap for a label with no terminator unless its entry sets
    ``gap`` (or ``end = "key"``: only its terminator ends a scan).
    """
    if spec.kind == "nfc":
        from .scan.pn532 import Pn532Reader

        reader = Pn532Reader(spec.path, out, clock, name=name, seat=spec.seat, uid_to_code=uid_to_code, on_uid=on_uid,
                             framing=framing, tap=nfc_tap)
    elif spec.kind == "hid":
        from .scan.hid import HidScanner

        spec = resolve(spec)
        reader = HidScanner(spec.path, out, clock, name=name, seat=spec.seat, framing=framing,
                            tap=hid_tap, match=spec.match, end=spec.scan_end(end))
    else:
        from .scan.serial import SerialScanner

        gap = {} if spec.end is None and spec.gap is None else {"idle_gap": spec.scan_end(end).idle_gap(False)}
        reader = SerialScanner(spec.path, out, clock, name=name, seat=spec.seat, tap=tap, framing=framing, stamped=True,
                               **gap)
    reader.start()
    return reader
