"""An emulated PN532 NFC reader on a real pseudo-terminal, with a tag you can place and lift.

The real :class:`~companion.devices.scan.pn532.Pn532Reader` opens :attr:`EmulatedPn532.path`
as it would ``/dev/serial0``. A thread reads host frames from the pty master and answers as
a PN532 C106 does (UM0701-02 §6.2.2): an ACK, then one response frame, for the commands the
driver uses: GetFirmwareVersion, SAMConfiguration, RFConfiguration, InListPassiveTarget
(106 kbps type A) and InDataExchange carrying an NTAG READ (``30 page``). It sleeps until
the HSU wake-up (``55 ..``) arrives, like the chip after power-up; a NACK gets the last
frame again; any other command gets the error frame. Closing it is pulling the cable out.

Faults for tests (each set from any thread): :meth:`drop_acks`, :meth:`corrupt_responses`,
:meth:`error_frames`, :meth:`noise` (junk and extra 0x00 before every frame),
:meth:`chunked` (frames written in small random pieces), :meth:`miss_polls` (a tag at
the edge of the field), :meth:`power_cycle`, :attr:`silent` (answers nothing).

>>> with EmulatedPn532() as pn532:
...     pn532.place(bytes.fromhex("04A1B2C3D4E5F6"), "SRS71M")
...     pn532.path.startswith("/dev/")
True
"""

from __future__ import annotations

import collections
import os
import random
import select
import threading
import time
import tty
from dataclasses import dataclass

from companion.devices.scan.pn532 import (ACK_FRAME, ERROR_FRAME, Control, Frame, FrameParser, build_frame,
                                          ndef_text_message, ndef_tlv)

_TFI_PN532 = 0xD5
_FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])  # IC PN532, version 1.6, ISO14443A/B and 18092
_NTAG213 = (45, 0x12)  # pages, capability-container size byte (data area = size x 8 bytes)
_NTAG215 = (135, 0x3E)
_NTAG216 = (231, 0x6D)
#: NTAG I2C plus 2k: 1912 bytes of user memory; the pages past 255 are in sector 1, which
#: a plain READ cannot address (it needs SECTOR_SELECT).
_NTAG_I2C_2K = (485, 0xEA)
_SIZES = (_NTAG213, _NTAG215, _NTAG216, _NTAG_I2C_2K)


@dataclass
class _Tag:
    uid: bytes
    memory: bytearray  # every page, 4 bytes each; empty for a MIFARE Classic (reads fail)

    @property
    def type2(self) -> bool:
        return len(self.uid) == 7


def ntag_memory(uid: bytes, data_area: bytes) -> bytes:
    """NTAG213 (or NTAG215, NTAG216, NTAG I2C 2k: the smallest ``data_area`` fits) memory:
    UID and check bytes in pages 0-2, capability container ``E1 10 size 00`` in page 3,
    ``data_area`` from page 4."""
    fits = [(pages, size) for pages, size in _SIZES if len(data_area) <= size * 8]
    if not fits:
        raise ValueError(f"{len(data_area)} bytes do not fit an NTAG I2C 2k")
    pages, size = fits[0]
    bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
    bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
    head = uid[:3] + bytes([bcc0]) + uid[3:7] + bytes([bcc1, 0x48, 0, 0]) + bytes([0xE1, 0x10, size, 0])
    return (head + data_area).ljust(pages * 4, b"\x00")


class EmulatedPn532:
    """A PN532 behind a pseudo-terminal. ``seed`` fixes the chunking randomness."""

    def __init__(self, seed: int = 0) -> None:
        self._master, self._slave = os.openpty()
        self._wake_r, self._wake_w = os.pipe()
        try:
            tty.setraw(self._slave)
            self.path: str = os.ttyname(self._slave)
        except BaseException:
            for fd in (self._master, self._slave, self._wake_r, self._wake_w):
                os.close(fd)
            raise
        self._rng = random.Random(seed)
        self._changed = threading.Condition()
        self._parser = FrameParser()
        self._tag: _Tag | None = None
        self._listed: _Tag | None = None  # the tag the last InListPassiveTarget activated
        self._last = b""  # the last frame sent, for a NACK
        self._asleep = True
        self._closed = False
        self.silent = False
        self.counts: collections.Counter = collections.Counter()  # command code -> times received
        self.sam_mode: int | None = None
        self.passive_retries = 0xFF  # RFConfiguration MxRtyPassiveActivation (0xFF: forever)
        self._drop_acks = self._corrupt = self._errors = self._misses = 0
        self._junk, self._zeros, self._max_chunk = b"", 0, 0
        self._thread = threading.Thread(target=self._run, name="emulated-pn532", daemon=True)
        self._thread.start()

    # --- the tag --------------------------------------------------------------------

    def place(self, uid: bytes, ndef_text: str | None = None, *, data_area: bytes | None = None) -> None:
        """Put a tag on the reader. A 7-byte UID is an NTAG21x holding ``ndef_text`` as a
        Text record (or a blank NDEF message, or raw ``data_area`` from page 4); a 4-byte
        UID is a MIFARE Classic, whose pages cannot be read without authentication."""
        if len(uid) not in (4, 7):
            raise ValueError("a tag UID is 4 or 7 bytes")
        if len(uid) == 4:
            tag = _Tag(uid, b"")
        else:
            if data_area is None:
                data_area = ndef_tlv(ndef_text_message(ndef_text) if ndef_text is not None else b"")
            tag = _Tag(uid, bytearray(ntag_memory(uid, data_area)))
        with self._changed:
            self._tag = tag

    def lift(self) -> None:
        """Take the tag away."""
        with self._changed:
            self._tag = None

    # --- faults ---------------------------------------------------------------------

    def drop_acks(self, n: int = 1) -> None:
        """The next ``n`` commands get no ACK (their response is still sent)."""
        with self._changed:
            self._drop_acks = n

    def corrupt_responses(self, n: int = 1) -> None:
        """The next ``n`` response frames go out with a wrong data checksum."""
        with self._changed:
            self._corrupt = n

    def error_frames(self, n: int = 1) -> None:
        """The next ``n`` commands are answered (after the ACK) with the error frame."""
        with self._changed:
            self._errors = n

    def noise(self, junk: bytes = b"", zeros: int = 0) -> None:
        """Send ``junk`` then ``zeros`` extra 0x00 bytes before every frame from now on."""
        with self._changed:
            self._junk, self._zeros = bytes(junk), zeros

    def miss_polls(self, n: int = 1) -> None:
        """The next ``n`` polls do not see the tag (a tag at the edge of the field)."""
        with self._changed:
            self._misses = n

    def chunked(self, max_chunk: int = 3) -> None:
        """Write every frame in random pieces of 1..``max_chunk`` bytes (0: whole)."""
        with self._changed:
            self._max_chunk = max_chunk

    def power_cycle(self) -> None:
        """The reader lost power: asleep again until the next HSU wake-up."""
        with self._changed:
            self._asleep, self.sam_mode, self.passive_retries = True, None, 0xFF

    # --- observing ------------------------------------------------------------------

    def wait_commands(self, code: int, n: int, timeout: float = 3.0) -> bool:
        """Block until command ``code`` has arrived ``n`` more times; False on timeout."""
        with self._changed:
            target = self.counts[code] + n
            return self._changed.wait_for(lambda: self.counts[code] >= target, timeout)

    def wait_polls(self, n: int, timeout: float = 3.0) -> bool:
        """Block until ``n`` more InListPassiveTarget polls arrived. The driver sends a poll
        only after handling the previous answer, so ``n`` polls mean at least ``n - 1``
        answers were fully handled."""
        return self.wait_commands(0x4A, n, timeout)

    # --- the line -------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            try:
                ready, _, _ = select.select([self._master, self._wake_r], [], [])
                if self._wake_r in ready:
                    return
                data = os.read(self._master, 1024)
            except OSError:
                return
            with self._changed:
                if self.silent:
                    continue
                if self._asleep and b"\x55" in data:
                    self._asleep = False
                    self._parser.reset()
                items = [] if self._asleep else self._parser.feed(data)
            for item in items:
                self._handle(item)

    def _handle(self, item) -> None:
        if item is Control.NACK and self._last:
            self._write(self._last)
            return
        if not isinstance(item, Frame) or item.tfi != 0xD4 or not item.data:
            return  # a host ACK (abort), a bad frame: a real PN532 ignores it
        code, params = item.data[0], item.data[1:]
        with self._changed:  # counted before answering: once the host has the answer, so do waiters
            self.counts[code] += 1
            self._changed.notify_all()
            send_ack = self._drop_acks == 0
            self._drop_acks = max(0, self._drop_acks - 1)
            response = self._respond(code, params)
            if response is None or self._errors:
                self._errors = max(0, self._errors - 1)
                frame = ERROR_FRAME
            else:
                frame = build_frame(bytes([code + 1]) + response, _TFI_PN532)
                if self._corrupt:
                    self._corrupt -= 1
                    frame = frame[:-2] + bytes([frame[-2] ^ 0x5A]) + frame[-1:]
        if send_ack:
            self._write(ACK_FRAME)
        self._last = frame
        self._write(frame)

    def _respond(self, code: int, params: bytes) -> bytes | None:
        """The response data after the response code, or None for the error frame."""
        if code == 0x02:  # GetFirmwareVersion
            return _FIRMWARE
        if code == 0x14 and params:  # SAMConfiguration: Mode [Timeout [IRQ]]
            self.sam_mode = params[0]
            return b""
        if code == 0x32 and params:  # RFConfiguration: CfgItem ConfigurationData
            if params[0] == 0x05 and len(params) == 4:
                self.passive_retries = params[3]
            return b""
        if code == 0x4A and len(params) >= 2:  # InListPassiveTarget: MaxTg BrTy
            tag = self._tag if params[1] == 0x00 and not self._misses else None
            self._misses = max(0, self._misses - 1)
            self._listed = tag
            if tag is None:
                return b"\x00"
            sens_res, sel_res = (b"\x00\x44", 0x00) if tag.type2 else (b"\x00\x04", 0x08)
            return bytes([1, 1]) + sens_res + bytes([sel_res, len(tag.uid)]) + tag.uid
        if code == 0x40 and len(params) >= 2:  # InDataExchange: Tg DataOut
            tag = self._listed
            if tag is None or tag is not self._tag:
                return b"\x01"  # status 0x01: the target did not answer in time
            if not tag.type2:
                return b"\x14"  # MIFARE authentication error
            if params[1] == 0xA2 and len(params) == 7:  # Type 2 WRITE: page, 4 bytes
                page = params[2]
                if not 4 <= page < len(tag.memory) // 4:
                    return b"\x14"  # the tag NAKs a write outside its user pages
                tag.memory[page * 4 : page * 4 + 4] = params[3:7]
                return b"\x00"
            if params[1] != 0x30 or len(params) != 3:
                return b"\x27"  # command not acceptable in this context
            start = params[2] * 4
            memory = bytes(tag.memory) * 2  # READ rolls over past the last page
            return b"\x00" + memory[start % len(tag.memory) :][:16]
        return None

    def _write(self, frame: bytes) -> None:
        with self._changed:
            data = self._junk + bytes(self._zeros) + frame
            max_chunk = self._max_chunk
        pieces = [data]
        if max_chunk:
            pieces, i = [], 0
            while i < len(data):
                n = self._rng.randint(1, max_chunk)
                pieces.append(data[i : i + n])
                i += n
        for n, piece in enumerate(pieces):
            if n:
                time.sleep(0.001)  # a gap on the line, so the reader sees separate reads
            try:
                os.write(self._master, piece)
            except OSError:
                return

    # --- the cable ------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Unplug: stop the thread, then close both ends of the pty. Idempotent."""
        if self._closed:
            return
        self._closed = True
        os.write(self._wake_w, b"x")
        self._thread.join(2.0)
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> EmulatedPn532:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<EmulatedPn532 {self.path} {'unplugged' if self._closed else 'plugged in'}>"
