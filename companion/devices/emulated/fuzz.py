"""Fuzzing the card readers' decoders: random and mutated streams through the code each
reader thread runs, counting what comes out.

Five decoders, each fed ``n`` streams (half mutated from well-formed scans, half random):

* **serial**: byte streams into :class:`~companion.devices.scan.serial.SerialScanner`'s
  consume/flush path (line framing, then :mod:`~companion.devices.scan.normalise`);
* **hid**: evdev event sequences into :class:`~companion.devices.scan.hid.HidScanner`'s
  consume/flush path (the US-layout key decoder), some with kernel buffer overruns
  (a stretch lost, ``SYN_DROPPED`` in its place: a code joined across it was never sent);
* **pn532**: the PN532's replies (ACK and response frames) to one poll of
  :class:`~companion.devices.scan.pn532.Pn532Reader`, mutated on the wire or carrying a
  mutated NDEF data area in well-formed frames, through the reader's poll step;
* **ndef**: Type 2 tag data areas into ``ndef_message`` and ``text_record``;
* **stdin**: lines typed under ``--simulate`` (any bytes, any encoding) into
  :func:`~companion.devices.scan.normalise.typed_line` and the scan clean-up.

The streams come from :class:`random.Random` with a fixed seed (not hypothesis or
atheris): the same streams every run, no new dependency, the emulators' own stream
builders reused, and a bench can run 10,000 per decoder in seconds; a failure names
its seed and stream number and replays exactly.

For every stream: **no exception escapes** (only the errors the reader itself handles:
``Pn532Error``, ``NdefError``, a short area), and **no code is accepted that the stream
did not carry**: a read that passes the check character
(:func:`~companion.core.codes.check_code`) must appear verbatim in what was sent (the
bytes, the typed keys, the tag's data area).

>>> c = fuzz_serial(50, seed=1)
>>> c.streams, c.escaped, c.wrongly_accepted
(50, 0, 0)
"""

from __future__ import annotations

import logging
import queue
import random
import time
from dataclasses import dataclass, fields

from evdev import ecodes as e

from companion.core.clock import FakeClock
from companion.core.codes import ALPHABET, BODY_LENGTH, check_code, make_code
from companion.core.errors import BadScan
from companion.core.events import CardScanned

from ..scan.hid import KEYPAD_KEYS, US_KEYS, HidScanner
from ..scan.ndef import NdefError, _ShortArea, ndef_message, ndef_text_message, ndef_tlv, text_record
from ..scan.pn532 import ACK_FRAME, Pn532, Pn532Error, Pn532Reader, build_frame
from ..scan.serial import SerialScanner
from .hid import key_events

FRAMINGS = [b"", b"]C0", b"]Q1", b"\x02", b" ", b"\t"]
ENDINGS = [b"\r", b"\n", b"\r\n", b"\x03\r\n", b""]


@dataclass
class Counts:
    """What one fuzz run saw. ``reads``: CardScanned delivered; ``garbled``: with no code;
    ``rejected``: a code the check character refused; ``accepted``: a code it passed (each
    checked against the stream); ``escaped``: exceptions out of the reader's code."""

    streams: int = 0
    reads: int = 0
    garbled: int = 0
    rejected: int = 0
    accepted: int = 0
    escaped: int = 0
    wrongly_accepted: int = 0

    def row(self) -> list[int]:
        return [getattr(self, f.name) for f in fields(self)]


def random_code(rng: random.Random) -> str:
    return make_code(rng.choice(["SR", "SH", "SB", "SD"]), "".join(rng.choice(ALPHABET) for _ in range(BODY_LENGTH)))


def mutate(rng: random.Random, data: bytes, edits: int | None = None) -> bytes:
    """``data`` with 1-4 random edits: flip a bit, replace, insert or delete a byte,
    duplicate or drop a run, or truncate."""
    out = bytearray(data)
    for _ in range(edits or rng.randint(1, 4)):
        i = rng.randrange(len(out) + 1)
        kind = rng.randrange(7)
        if kind == 0 and i < len(out):
            out[i] ^= 1 << rng.randrange(8)
        elif kind == 1 and i < len(out):
            out[i] = rng.randrange(256)
        elif kind == 2:
            out.insert(i, rng.randrange(256))
        elif kind == 3 and i < len(out):
            del out[i]
        elif kind == 4 and out:
            j = rng.randrange(len(out))
            out[i:i] = out[j : j + rng.randint(1, 8)]
        elif kind == 5 and i < len(out):
            del out[i : i + rng.randint(1, 8)]
        elif kind == 6:
            del out[i:]
    return bytes(out)


def _judge(counts: Counts, items, carried) -> None:
    """Count the reads in ``items``; ``carried(code)`` says whether the stream held it."""
    for item in items:
        if not isinstance(item, CardScanned):
            continue
        counts.reads += 1
        if item.code is None:
            counts.garbled += 1
            continue
        try:
            check_code(item.code)
        except BadScan:
            counts.rejected += 1
            continue
        counts.accepted += 1
        if not carried(item.code):
            counts.wrongly_accepted += 1


def _drain(q: queue.Queue) -> list:
    items = []
    while not q.empty():
        items.append(q.get_nowait())
    return items


# --- serial ------------------------------------------------------------------------------


def serial_stream(rng: random.Random) -> bytes:
    if rng.random() < 0.3:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 80)))
    scans = b"".join(rng.choice(FRAMINGS) + random_code(rng).encode() + rng.choice(ENDINGS)
                     for _ in range(rng.randint(1, 4)))
    return mutate(rng, scans) if rng.random() < 0.8 else scans


def fuzz_serial(n: int, seed: int = 0) -> Counts:
    rng, counts, q = random.Random(seed), Counts(), queue.Queue()
    reader = SerialScanner("/dev/null-fuzz", q, FakeClock(), name="fuzz", max_length=32)
    for _ in range(n):
        stream = serial_stream(rng)
        counts.streams += 1
        try:
            reader._framer.reset()
            for start in range(0, len(stream), 7):  # arrives in chunks, as reads of a port do
                reader._consume(stream[start : start + 7])
            if (line := reader._framer.flush()) is not None:  # the scanner went quiet
                reader._emit(line)
        except Exception:  # noqa: BLE001 - counting what would kill the reader thread
            counts.escaped += 1
        _judge(counts, _drain(q), lambda code: code.encode() in stream)
    return counts


# --- keyboard mode -----------------------------------------------------------------------

_CHAR_KEY = {plain: code for code, (plain, _) in US_KEYS.items()} | {
    shifted: code for code, (_, shifted) in US_KEYS.items()}
_EVERY_KEY = sorted(set(US_KEYS) | set(KEYPAD_KEYS) | {
    e.KEY_ENTER, e.KEY_KPENTER, e.KEY_TAB, e.KEY_LEFTSHIFT, e.KEY_RIGHTSHIFT, e.KEY_LEFTCTRL, e.KEY_LEFTALT,
    e.KEY_CAPSLOCK, e.KEY_NUMLOCK, e.KEY_F1, e.KEY_ESC, e.KEY_BACKSPACE})


def key_stream(rng: random.Random) -> list[tuple[int, int, int]]:
    if rng.random() < 0.3:
        return [(rng.choice([e.EV_KEY, e.EV_KEY, e.EV_SYN, e.EV_MSC]), rng.choice(_EVERY_KEY), rng.randrange(3))
                for _ in range(rng.randint(0, 60))]
    events = []
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(["", "]C0", "]Q1", " "]) + random_code(rng)
        events += [(ev.type, ev.code, ev.value) for ev in key_events(
            text, terminator=rng.choice(["enter", "kpenter", "tab", None]), keypad=rng.random() < 0.3,
            shift_style=rng.choice(["left", "right", "held"]))]
    if rng.random() < 0.8:
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(events) + 1)
            kind = rng.randrange(3)
            if kind == 0 and i < len(events):
                del events[i]
            elif kind == 1:
                events.insert(i, (e.EV_KEY, rng.choice(_EVERY_KEY), rng.randrange(3)))
            elif kind == 2 and i < len(events):
                events[i] = (events[i][0], rng.choice(_EVERY_KEY), events[i][2])
    if rng.random() < 0.4:
        events = overrun(rng, events)
    return events


def overrun(rng: random.Random, events: list) -> list:
    """``events`` as a stalled reader finds them after the kernel's buffer overran (once
    or twice): a stretch of events lost, ``SYN_DROPPED`` in its place, then the events
    up to the next report (which the reader must drop too), as drivers/input/evdev.c does."""
    for _ in range(rng.randint(1, 2)):
        if not events:
            break
        i = rng.randrange(len(events))
        j = min(len(events), i + rng.randint(1, 40))
        events = events[:i] + [(e.EV_SYN, e.SYN_DROPPED, 0)] + events[j:]
    return events


def _typed(events, code: str) -> bool:
    """Whether the key-down events hold the keys for ``code`` in a row (digits on either
    the main keys or the keypad), with no overrun (``SYN_DROPPED``) among them: keys
    either side of lost events were never typed in a row. An oracle that does not use
    the decoder."""
    stretches: list[list] = [[]]
    for event in events:
        if event[0] == e.EV_SYN and event[1] == e.SYN_DROPPED:
            stretches.append([])
        else:
            stretches[-1].append(event)
    return any(_typed_in_a_row(stretch, code) for stretch in stretches)


def _typed_in_a_row(events, code: str) -> bool:
    downs = [c for t, c, v in events if t == e.EV_KEY and v == 1 and (c in US_KEYS or c in KEYPAD_KEYS)]
    main = [_CHAR_KEY[ch] for ch in code]
    keypad = {code: char for code, char in KEYPAD_KEYS.items()}
    for start in range(len(downs) - len(main) + 1):
        window = downs[start : start + len(main)]
        if all(k == m or keypad.get(k) == ch for k, m, ch in zip(window, main, code)):
            return True
    return False


def fuzz_hid(n: int, seed: int = 0) -> Counts:
    rng, counts, q = random.Random(seed), Counts(), queue.Queue()
    reader = HidScanner("/dev/input/fuzz", q, FakeClock(), name="fuzz", max_length=32)
    for _ in range(n):
        events = key_stream(rng)
        counts.streams += 1
        try:
            reader._decoder.reset()
            for event in events:
                reader._consume(*event)
            reader._put(reader._decoder.flush())  # the scanner went quiet
        except Exception:  # noqa: BLE001
            counts.escaped += 1
        _judge(counts, _drain(q), lambda code: _typed(events, code))
    return counts


# --- PN532 and NDEF -----------------------------------------------------------------------


def ndef_area(rng: random.Random) -> bytes:
    if rng.random() < 0.2:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
    text = rng.choice(["", "]Q1", " "]) + random_code(rng)
    message = ndef_text_message(text)
    if rng.random() < 0.3:  # UTF-16, with or without a byte-order mark
        bom = rng.choice([b"", b"\xfe\xff"])
        payload = bytes([0x82]) + b"en" + bom + text.encode("utf-16-be")
        message = bytes([0xD1, 1, len(payload)]) + b"T" + payload
    area = ndef_tlv(message)
    return mutate(rng, area) if rng.random() < 0.8 else area


def _carried(area: bytes, code: str) -> bool:
    return any(code.encode(codec) in area for codec in ("ascii", "utf-16-be", "utf-16-le"))


def fuzz_ndef(n: int, seed: int = 0) -> Counts:
    rng, counts = random.Random(seed), Counts()
    for _ in range(n):
        area = ndef_area(rng)
        counts.streams += 1
        text = None
        try:
            message = ndef_message(area)
            text = text_record(message) if message is not None else None
        except (NdefError, _ShortArea):
            pass  # what the reader handles: the tag's UID is used instead
        except Exception:  # noqa: BLE001
            counts.escaped += 1
        if text is not None:
            from ..scan.pn532 import _as_code

            _judge(counts, [CardScanned(_as_code(text), "fuzz", 0.0)], lambda code: _carried(area, code))
    return counts


class _FuzzPort:
    """The PN532 end of the serial line for one poll: answers each command the reader
    writes like a PN532 holding one NTAG with ``area``, its replies mutated on the wire
    with probability ``wire``. A read that finds nothing takes :data:`READ_TIME` on
    ``clock`` (the driver's monotonic clock), so a lost answer times out after one read,
    whatever the machine's speed."""

    READ_TIME = 0.0005  # seconds on ``clock`` a read that finds nothing takes (the timeouts' length)

    UID = bytes.fromhex("04A1B2C3D4E5F6")

    def __init__(self, rng: random.Random, area: bytes, wire: float):
        self.rng, self.wire = rng, wire
        size = max(0x12, min(0xFF, (len(area) + 7) // 8))  # the capability container's data-area size / 8
        self.memory = (self.UID[:3] + b"\x88" + self.UID[3:] + b"\x00\x48\x00\x00" + bytes([0xE1, 0x10, size, 0]) +
                       area).ljust(4 * 45, b"\x00")
        self.pending = b""
        self.in_waiting = 0
        self.clock = FakeClock()

    def write(self, frame: bytes) -> None:
        code, params = frame[6], frame[7:-2]
        if code == 0x4A:
            reply = bytes([1, 1, 0x00, 0x44, 0x00, len(self.UID)]) + self.UID
        elif code == 0x40 and len(params) >= 3:
            start = params[2] * 4
            reply = b"\x00" + (self.memory * 2)[start % len(self.memory):][:16]
        else:
            reply = b""
        data = ACK_FRAME + build_frame(bytes([code + 1]) + reply, 0xD5)
        self.pending = mutate(self.rng, data) if self.rng.random() < self.wire else data

    def read(self, size: int = 1) -> bytes:
        data, self.pending = self.pending, b""
        if not data:
            self.clock.advance(self.READ_TIME)
        return data

    def reset_input_buffer(self) -> None:
        self.pending = b""


def fuzz_pn532(n: int, seed: int = 0) -> Counts:
    rng, counts, q = random.Random(seed), Counts(), queue.Queue()
    for _ in range(n):
        area = ndef_area(rng)
        if rng.random() < 0.05:  # a tag holding more than 1 kB (NTAG I2C 2k): pages past 255
            area = ndef_tlv(ndef_text_message(random_code(rng) + " " * rng.randint(1000, 1800)))
        port = _FuzzPort(rng, area, wire=rng.choice([0.0, 0.3]))
        counts.streams += 1
        reader = Pn532Reader("/dev/null-fuzz", q, FakeClock(), name="fuzz", uid_to_code=lambda uid: None)
        reader._serial, reader._ready = port, True
        reader._pn532 = Pn532(port, tries=1, ack_timeout=port.READ_TIME, response_timeout=port.READ_TIME,
                              monotonic=port.clock.now)
        try:
            reader._poll()
        except Pn532Error:
            pass  # the thread reports "reader not responding" and tries again
        except Exception:  # noqa: BLE001
            counts.escaped += 1
        _judge(counts, _drain(q), lambda code: _carried(area, code))
    return counts


# --- stdin (--simulate headless) ------------------------------------------------------------


def stdin_stream(rng: random.Random) -> bytes:
    if rng.random() < 0.3:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 80)))
    lines = b"".join(rng.choice([b"", b" ", b"]C0", "\u00e9".encode(), b"\xff"]) + random_code(rng).encode()
                     + rng.choice([b"\n", b"\r\n", b" \n"]) for _ in range(rng.randint(1, 4)))
    return mutate(rng, lines) if rng.random() < 0.8 else lines


def fuzz_stdin(n: int, seed: int = 0) -> Counts:
    """Typed lines as ``companion run --simulate`` reads them from stdin: bytes split at
    LF, decoded by :func:`~companion.devices.scan.normalise.typed_line` (UTF-8 or
    Latin-1), stripped, then what a line that is not a ``/command`` becomes (the
    runner's ``scan_text``: :func:`clean_scan`, upper-cased)."""
    from ..scan.normalise import clean_scan, typed_line

    rng, counts = random.Random(seed), Counts()
    for _ in range(n):
        stream = stdin_stream(rng)
        encoding = rng.choice(["utf-8", "latin-1", "ascii"])
        counts.streams += 1
        items = []
        try:
            for raw in stream.splitlines(keepends=True):
                line = typed_line(raw, encoding).strip()
                if not line or line.startswith("/"):
                    continue
                code = clean_scan(line)
                if code != "":
                    items.append(CardScanned(None if code is None else code.upper(), "keyboard", 0.0))
        except Exception:  # noqa: BLE001
            counts.escaped += 1
        _judge(counts, items, lambda code: code.encode() in stream.upper())
    return counts


FUZZERS = {"serial": fuzz_serial, "hid": fuzz_hid, "pn532": fuzz_pn532, "ndef": fuzz_ndef, "stdin": fuzz_stdin}


def run_all(n: int, seed: int = 0, only: str | None = None) -> dict[str, Counts]:
    """Every decoder (or ``only`` that one), ``n`` streams each (the readers' own log
    lines are silenced meanwhile)."""
    logging.disable(logging.CRITICAL)
    try:
        return {name: fuzz(n, seed) for name, fuzz in FUZZERS.items() if only in (None, name)}
    finally:
        logging.disable(logging.NOTSET)


def table(results: dict[str, Counts], seconds: float | None = None) -> str:
    """The counts as a plain text table."""
    head = ["decoder"] + [f.name for f in fields(Counts)]
    rows = [head] + [[name] + [str(v) for v in c.row()] for name, c in results.items()]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    text = "\n".join("  ".join(cell.rjust(w) for cell, w in zip(r, widths)) for r in rows)
    return text + (f"\n({seconds:.1f} s)" if seconds is not None else "")


if __name__ == "__main__":  # pragma: no cover
    t0 = time.monotonic()
    print(table(run_all(200), time.monotonic() - t0))
