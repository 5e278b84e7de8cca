"""The PN532 NFC reader over UART (HSU, 115200 baud): frames, commands, NTAG text, a reader thread.

Frames (NXP UM0701-02 §6.2.1), host -> PN532 TFI ``D4``, PN532 -> host ``D5``::

    normal    00 00 FF LEN LCS TFI PD0..PDn DCS 00     LEN = len(TFI..PDn), LEN+LCS = 0 (mod 256)
    extended  00 00 FF FF FF LENM LENL LCS TFI .. DCS 00                 TFI+PD0+..+PDn+DCS = 0
    ACK       00 00 FF 00 FF 00          the PN532 took the command
    NACK      00 00 FF FF 00 00          "send your last frame again"
    error     00 00 FF 01 FF 7F 81 00    application-level (syntax) error

PD0 is the command code; the response's is the code + 1. Each command is ACKed, then
answered by one response frame (§6.2.2). After power-up the PN532 C106 sleeps in "low
battery" mode: the host sends the HSU wake-up (``55 55 00 00 ...``) and SAMConfiguration
first (§7.2.10; NXP AN10609 §3). Commands used: GetFirmwareVersion (§7.2.2),
SAMConfiguration, RFConfiguration MaxRetries (§7.3.1: so InListPassiveTarget answers
"no tag" at once instead of waiting forever), InListPassiveTarget 106 kbps type A
(§7.3.5) and InDataExchange (§7.3.8) carrying the NTAG READ ``30 page`` (4 pages, 16 bytes).

Why not nfcpy (1.0.4 installs from PyPI): its ``tty:NAME:pn532`` path only names a file
directly in ``/dev`` matching ``[a-zA-Z0-9-]+``, so it can open neither the stable
``/dev/serial/by-id/...`` path the companion reattaches by nor a pseudo-terminal
(``tty:pts/0`` fails with ENODEV); its PN532 set-up also switches baud rate and sends a
dozen RF register commands, and it has no unplug/reattach loop. The five commands above
are small enough to own, test byte for byte and emulate.

>>> build_frame(bytes([0x02]))
b'\\x00\\x00\\xff\\x02\\xfe\\xd4\\x02*\\x00'
>>> FrameParser().feed(b"\\x00" * 3 + ACK_FRAME + build_frame(b"\\x03\\x32\\x01\\x06\\x07", 0xD5))
[<Control.ACK: 'ACK'>, Frame(tfi=213, data=b'\\x032\\x01\\x06\\x07')]
>>> text_record(ndef_text_message("SRS71M"))
'SRS71M'
"""

from __future__ import annotations

import collections
import enum
import logging
import queue
import termios
import time
from dataclasses import dataclass
from typing import Callable

import serial

from companion.core.clock import Clock
from companion.core.codes import unpaired_tag
from companion.core.errors import DeviceError
from companion.core.events import CardScanned

from .base import ReaderThread
from .normalise import NO_FRAMING, Framing, clean_scan
from .ndef import NdefError, _ShortArea, ndef_message, ndef_text_message, ndef_tlv, text_record  # noqa: F401

log = logging.getLogger(__name__)

_TFI_HOST, _TFI_PN532, _TFI_ERROR = 0xD4, 0xD5, 0x7F
_GET_FIRMWARE_VERSION = 0x02
_SAM_CONFIGURATION = 0x14
_RF_CONFIGURATION = 0x32
_IN_DATA_EXCHANGE = 0x40
_IN_LIST_PASSIVE_TARGET = 0x4A
_CFG_MAX_RETRIES = 0x05  # RFConfiguration item: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
_NTAG_WRITE = 0xA2  # Type 2 Tag WRITE: 4 bytes to the given page
_NTAG_READ = 0x30  # Type 2 Tag READ: 16 bytes from the given page (4 bytes a page)
_WAKEUP = b"\x55\x55" + bytes(15)  # HSU wake-up: 0x55 pulses, then a long run of 0x00
_READ_TIMEOUT = 0.02  # seconds one port read waits, so stop() is noticed within this

ACK_FRAME = b"\x00\x00\xff\x00\xff\x00"
NACK_FRAME = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
UNPLUGGED = "NFC reader disconnected: check its USB cable (or the wires to pins 8 and 10)"
NOT_RESPONDING = ("NFC reader not responding: check its power, that TX and RX are crossed "
                  "and that its mode switches select UART (HSU); still trying")


class Pn532Error(DeviceError):
    """Root of PN532 errors (an OSError, via DeviceError)."""


class ChecksumError(Pn532Error, ValueError):
    """A frame whose length (LCS) or data (DCS) checksum does not add up to zero."""


class NoAckError(Pn532Error, TimeoutError):
    """No ACK frame arrived for a command within the ACK timeout, on every try."""


class NoResponseError(Pn532Error, TimeoutError):
    """A command was ACKed but its response frame did not arrive in time."""


class ApplicationError(Pn532Error):
    """The PN532 answered with the error frame (§6.2.1.5): it could not parse the command."""


class TagError(Pn532Error):
    """InDataExchange status byte not 0 (§7.1 table 7-1): e.g. 0x01 the tag left, 0x14 auth."""

    def __init__(self, status: int):
        super().__init__(f"tag exchange failed, PN532 status 0x{status:02X}")
        self.status = status


@dataclass(frozen=True)
class Frame:
    """An information frame: ``tfi`` (0xD4 or 0xD5) and ``data`` = PD0..PDn."""

    tfi: int
    data: bytes


class Control(enum.Enum):
    """The frames that carry no data (§6.2.1.3-6.2.1.5)."""

    ACK = "ACK"
    NACK = "NACK"
    ERROR = "error frame"


def build_frame(data: bytes, tfi: int = _TFI_HOST) -> bytes:
    """A normal information frame carrying ``data`` (PD0..PDn, PD0 the command code)."""
    body = bytes([tfi]) + data
    if len(body) > 255:
        raise ValueError(f"{len(body)} bytes do not fit a normal frame (max 255 with TFI)")
    return b"\x00\x00\xff" + bytes([len(body), -len(body) & 0xFF]) + body + bytes([-sum(body) & 0xFF, 0])


class FrameParser:
    """Turns a byte stream into Frame, Control and ChecksumError items. Pure.

    Bytes before a start code ``00 FF`` (preamble zeros, postambles, junk, the wake-up
    ``55``) are skipped. Nothing is decided before the bytes it depends on arrive, so a
    stream split anywhere gives the same items. After a checksum error the search resumes
    just past that start code, so a real frame hidden behind a false start is still found.

    >>> p = FrameParser(); p.feed(b"\\x12\\x00\\x00\\xff\\x00"), p.feed(b"\\xff\\x00")
    ([], [<Control.ACK: 'ACK'>])
    >>> p.feed(b"\\x00\\x00\\xff\\x03\\x00")
    [ChecksumError('bad length checksum: LEN 0x03, LCS 0x00')]
    """

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list:
        """Add ``data``; return the items it completed, in order."""
        self._buf += data
        items = []
        while (item := self._next()) is not None:
            items.append(item)
        return items

    def reset(self) -> None:
        """Forget a partial frame."""
        self._buf.clear()

    def _next(self):
        buf = self._buf
        start = buf.find(b"\x00\xff")
        if start < 0:
            del buf[: len(buf) - 1 if buf.endswith(b"\x00") else len(buf)]
            return None
        del buf[:start]
        if len(buf) < 4:
            return None
        length, lcs, head = buf[2], buf[3], 4
        if (length, lcs) in ((0x00, 0xFF), (0xFF, 0x00)):
            del buf[:4]
            return Control.ACK if length == 0 else Control.NACK
        if (length, lcs) == (0xFF, 0xFF):  # extended frame: LENM LENL LCS follow
            if len(buf) < 7:
                return None
            length, lcs, head = buf[4] << 8 | buf[5], (buf[4] + buf[5] + buf[6]) & 0xFF, 7
        elif length:
            lcs = (length + lcs) & 0xFF
        if lcs or not length:
            del buf[:2]
            return ChecksumError(f"bad length checksum: LEN 0x{buf[0]:02X}, LCS 0x{buf[1]:02X}")
        if len(buf) < head + length + 1:
            return None
        body = bytes(buf[head : head + length])
        if (sum(body) + buf[head + length]) & 0xFF:
            del buf[:2]
            return ChecksumError(f"bad data checksum in a {length}-byte frame")
        del buf[: head + length + 1]  # the postamble 00 is skipped as preamble of the next
        return Control.ERROR if body == bytes([_TFI_ERROR]) else Frame(body[0], body[1:])


@dataclass(frozen=True)
class Target:
    """One ISO14443A tag from InListPassiveTarget (§7.3.5), response after ``4B NbTg``::

        Tg SENS_RES(2) SEL_RES NFCIDLength NFCID1(n) [ATS]

    SEL_RES 0x00 is a Type 2 tag (NTAG21x, Ultralight); 0x08 MIFARE Classic; 0x20 ISO-DEP.
    """

    number: int
    sens_res: bytes
    sel_res: int
    uid: bytes


def parse_target(data: bytes) -> Target | None:
    """The first target in an InListPassiveTarget response (bytes after 0x4B), or None."""
    if not data or data[0] == 0:
        return None
    if len(data) < 6 or len(data) < 6 + data[5]:
        raise Pn532Error(f"short InListPassiveTarget response {data.hex(' ')}")
    return Target(data[1], bytes(data[2:4]), data[4], bytes(data[6 : 6 + data[5]]))


class Pn532:
    """PN532 commands over a byte port (a pyserial ``Serial``: write, read, in_waiting,
    reset_input_buffer). A command is resent when its ACK or response does not come, is
    corrupt, or is the error frame; after ``tries`` tries the last error is raised.
    Timeouts in seconds, measured on ``monotonic()`` (seconds, default ``time.monotonic``;
    the port's own read timeout still passes in real time, a test's fake clock is
    advanced instead). ``cancelled()`` returning True ends any wait early."""

    def __init__(self, port, tries: int = 3, ack_timeout: float = 0.1, response_timeout: float = 0.5,
                 cancelled: Callable[[], bool] = lambda: False, monotonic: Callable[[], float] = time.monotonic):
        self.port, self.tries = port, tries
        self.ack_timeout, self.response_timeout = ack_timeout, response_timeout
        self._cancelled = cancelled
        self._monotonic = monotonic
        self._parser = FrameParser()
        self._items: collections.deque = collections.deque()

    def wake(self) -> None:
        """Send the HSU wake-up preamble; SAMConfiguration must follow."""
        self.port.write(_WAKEUP)

    def command(self, code: int, params: bytes = b"") -> bytes:
        """Send command ``code`` and return its response data after the response code.
        Raises NoAckError, NoResponseError, ChecksumError or ApplicationError (the last
        try's) after ``tries`` tries or once ``cancelled()``, and the port's OSError or
        SerialException at once."""
        for attempt in range(1, self.tries + 1):
            try:
                return self._exchange(code, params)
            except (NoAckError, NoResponseError, ChecksumError, ApplicationError) as exc:
                log.debug("PN532 command 0x%02X try %d/%d: %s", code, attempt, self.tries, exc)
                if attempt == self.tries or self._cancelled():
                    raise

    def _exchange(self, code: int, params: bytes) -> bytes:
        self.port.reset_input_buffer()  # a late answer to an earlier try is not this one's
        self._parser.reset()
        self._items.clear()
        self.port.write(build_frame(bytes([code]) + params))
        self._await(lambda item: item is Control.ACK, self.ack_timeout,
                    NoAckError(f"no ACK for command 0x{code:02X} within {self.ack_timeout:.2f} s"))
        response = self._await(
            lambda item: isinstance(item, Frame) and item.tfi == _TFI_PN532 and item.data[:1] == bytes([code + 1]),
            self.response_timeout,
            NoResponseError(f"no response to command 0x{code:02X} within {self.response_timeout:.2f} s"))
        return response.data[1:]

    def _await(self, wanted: Callable[[object], bool], timeout: float, timed_out: Pn532Error):
        """The first item ``wanted`` accepts. Other items are skipped; after a bad frame
        (false start code in line noise, or a corrupted answer) the real one may follow at
        once, so it is waited for only ``ack_timeout`` more, then the ChecksumError raised."""
        deadline, damaged = self._monotonic() + timeout, None
        while (item := self._read(deadline)) is not None:
            if wanted(item):
                return item
            if item is Control.ERROR:
                raise ApplicationError("the PN532 answered with the error frame (syntax error)")
            if isinstance(item, ChecksumError):
                damaged = item
                deadline = min(deadline, self._monotonic() + self.ack_timeout)
        raise damaged or timed_out

    def _read(self, deadline: float):
        while not self._items:
            if self._cancelled() or self._monotonic() >= deadline:
                return None
            data = self.port.read(max(1, self.port.in_waiting))
            if data:
                self._items.extend(self._parser.feed(data))
        return self._items.popleft()

    def begin(self) -> tuple[int, int]:
        """Wake, SAMConfiguration (normal mode, §7.2.10), check the chip (IC 0x32), and make
        InListPassiveTarget retry activation twice, not forever (MxRtyPassiveActivation 0xFF),
        before it answers. Returns the firmware (version, revision)."""
        self.wake()
        self.command(_SAM_CONFIGURATION, b"\x01\x14\x01")  # normal mode, 1 s timeout, use IRQ
        ic, ver, rev, _support = (self.command(_GET_FIRMWARE_VERSION) + bytes(4))[:4]
        if ic != 0x32:
            raise Pn532Error(f"GetFirmwareVersion says IC 0x{ic:02X}, not 0x32: is this a PN532?")
        self.command(_RF_CONFIGURATION, bytes([_CFG_MAX_RETRIES, 0xFF, 0x01, 0x02]))
        return ver, rev

    def list_passive_target(self) -> Target | None:
        """Poll once for one ISO14443A tag at 106 kbps (BrTy 0x00)."""
        return parse_target(self.command(_IN_LIST_PASSIVE_TARGET, b"\x01\x00"))

    def read_pages(self, target: int, page: int) -> bytes:
        """NTAG READ through InDataExchange: 16 bytes from ``page``. Raises TagError."""
        data = self.command(_IN_DATA_EXCHANGE, bytes([target, _NTAG_READ, page]))
        if not data or data[0] & 0x3F:
            raise TagError(data[0] & 0x3F if data else 0xFF)
        if len(data) != 17:
            raise TagError(0xFF)
        return data[1:]

    def write_page(self, target: int, page: int, data: bytes) -> None:
        """NTAG WRITE (0xA2) through InDataExchange: 4 bytes to ``page`` (4 and up are user
        memory; NTAG21x datasheet, section 10.4). Raises TagError when the tag refuses."""
        if len(data) != 4:
            raise ValueError("a Type 2 tag page is 4 bytes")
        reply = self.command(_IN_DATA_EXCHANGE, bytes([target, _NTAG_WRITE, page]) + data)
        if not reply or reply[0] & 0x3F:
            raise TagError(reply[0] & 0x3F if reply else 0xFF)

    def write_ndef_text(self, target: Target, text: str) -> None:
        """Write ``text`` as the tag's only NDEF record (a well-known Text record, "en"),
        from page 4. Raises TagError, or NdefError when the tag is not NDEF-formatted."""
        cc = self.read_pages(target.number, 3)[:4]
        if cc[0] != 0xE1:
            raise NdefError("the sticker is not NDEF-formatted (no capability container): use an NTAG213/215")
        area = ndef_tlv(ndef_text_message(text))
        if len(area) > cc[2] * 8:
            raise NdefError(f"{len(area)} bytes do not fit the sticker's {cc[2] * 8}-byte data area")
        area += bytes(-len(area) % 4)
        for i in range(0, len(area), 4):
            self.write_page(target.number, 4 + i // 4, area[i : i + 4])

    def read_ndef_text(self, target: Target) -> str | None:
        """The Text record of an NTAG21x: capability container (page 3: E1 ver size access,
        data area = size x 8 bytes), then TLVs from page 4. None when there is none.

        At most :data:`MAX_NDEF_READ` bytes are read (pages 4-255, all a READ can address
        without SECTOR_SELECT: NTAG I2C 1k/2k keep more in sector 1): a longer message
        (no card code needs one) raises :class:`NdefError`, so the tag's UID is used."""
        first = self.read_pages(target.number, 3)
        if first[0] != 0xE1:
            return None  # not NDEF-formatted
        size, area = first[2] * 8, bytearray(first[4:])
        while True:
            try:
                message = ndef_message(area)
            except _ShortArea as short:
                if short.needed > size:
                    raise NdefError(f"NDEF TLV runs past the {size}-byte data area") from None
                if short.needed > MAX_NDEF_READ:
                    raise NdefError(f"the sticker's NDEF message needs {short.needed} bytes, more than the "
                                    f"{MAX_NDEF_READ} read for a card code") from None
                area += self.read_pages(target.number, 4 + len(area) // 4)
                continue
            return None if message is None else text_record(message)


#: The most of a tag's data area the reader reads (bytes): pages 4 to 255, 4 bytes each
#: (a Type 2 READ's page number is one byte). A card code's Text record needs ~20.
MAX_NDEF_READ = (256 - 4) * 4


def _as_code(text: str | None, framing: Framing = NO_FRAMING) -> str | None:
    """The code in a tag's Text record, cleaned like every other reader's scan
    (:func:`~companion.devices.scan.normalise.clean_scan`); None when there is no usable
    text, so the tag's UID is looked up instead."""
    code = clean_scan(text or "", framing)
    return code if code and " " not in code else None


_FAILED = object()  # the enrolment lookup raised: the tag's pairing is not known


class Pn532Reader(ReaderThread):
    """A PN532 on a serial port, polled in its own daemon thread.

    Each newly placed tag puts ``CardScanned(code, reader=name, t=clock.now(), seat)`` on
    ``out``: ``code`` from the tag's NDEF Text record (cleaned with ``framing``, see
    :mod:`.normalise`), else ``uid_to_code(uid_hex)`` (the enrolment lookup, called from
    the reader thread), else :func:`~companion.core.codes.unpaired_tag` of its UID, which
    the session rejects with "This sticker is not paired with a card: run `companion
    enroll`" (and the log says "tag UID … is not enrolled"): every tag gets a verdict.
    ``on_uid(uid_hex)`` sees every new tag's UID (upper-case hex); ``tap(uid_hex, code,
    t)``, when given, sees every tag read and the code it gave (``--record``).
    A tag resting on the reader is one scan until ``lift_polls`` polls in a row miss it.
    A tag taken away in the middle of its read is read again at the next poll, or, if it
    is gone by then, is one unreadable scan (``code`` None: "scan the card again").

    :class:`DeviceStatus` on ``out``: ``"connected"`` once the PN532 answers, ``"reader not
    responding"`` after ``tries`` unanswered tries of a command (then set-up is retried
    every ``retry_period`` s), ``"disconnected"`` when the port cannot be opened or is
    unplugged (reopened by path every ``retry_period`` s). Times are in seconds; the
    command timeouts are measured on ``monotonic()`` (default ``time.monotonic``, see
    :class:`Pn532`), the poll and retry periods are waited in real time. Raises
    ValueError when ``tries`` or ``lift_polls`` is below 1.
    """

    def __init__(self, port: str, out: queue.Queue, clock: Clock, name: str = "nfc",
                 seat: int | None = None, uid_to_code: Callable[[str], str | None] | None = None,
                 poll_interval: float = 0.1, *, on_uid: Callable[[str], None] | None = None,
                 baudrate: int = 115200, tries: int = 3, ack_timeout: float = 0.1,
                 response_timeout: float = 0.5, retry_period: float = 1.0, lift_polls: int = 2,
                 framing: Framing = NO_FRAMING, tap: Callable[[str, str | None, float], None] | None = None,
                 monotonic: Callable[[], float] = time.monotonic):
        if tries < 1 or lift_polls < 1:
            raise ValueError("tries and lift_polls must be at least 1")
        super().__init__(name, out, clock, monotonic)
        self.port, self.seat, self.baudrate = port, seat, baudrate
        self.poll_interval, self.retry_period, self.lift_polls = poll_interval, retry_period, lift_polls
        self._timing = dict(tries=tries, ack_timeout=ack_timeout, response_timeout=response_timeout)
        self._uid_to_code, self._on_uid = uid_to_code, on_uid
        self.framing = framing
        self._tap = tap
        self._serial: serial.Serial | None = None
        self._pn532: Pn532 | None = None
        self._ready = False  # the PN532 answered set-up on the open port
        self._silent = False  # "reader not responding" was reported and not yet cleared
        self._present: bytes | None = None  # UID of the tag resting on the reader
        self._interrupted: str | None = None  # UID of a tag taken away in the middle of its read
        self._misses = 0

    @property
    def connected(self) -> bool:
        """True while the port is open and the PN532 answers."""
        return self._serial is not None and self._ready

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                if self._serial is None:
                    if not self._try_open(first=False):
                        self._stopping.wait(self.retry_period)
                    continue
                try:
                    if not self._ready:
                        self._begin()
                    self._poll()
                    self._stopping.wait(self.poll_interval)
                except Pn532Error as exc:
                    self._not_responding(exc)
                except (serial.SerialException, OSError, termios.error) as exc:
                    self._lost(exc)
        finally:
            self._close()

    def _begin(self) -> None:
        ver, rev = self._pn532.begin()
        self._ready = True
        self._silent = False
        log.info("NFC reader %s: PN532 firmware %d.%d at %s", self.name, ver, rev, self.port)
        self._status("connected", f"PN532 firmware {ver}.{rev}")

    def _poll(self) -> None:
        target = self._pn532.list_passive_target()
        if target is None:
            if self._interrupted is not None:  # it was taken away before it could be read
                log.info("NFC reader %s: tag %s left before it was read", self.name, self._interrupted)
                self._interrupted = None
                self._out.put(CardScanned(code=None, reader=self.name, t=self._clock.now(), seat=self.seat))
            self._misses += 1
            if self._present is not None and self._misses >= self.lift_polls:
                log.debug("NFC reader %s: tag %s lifted", self.name, self._present.hex().upper())
                self._present = None
            return
        self._misses = 0
        if target.uid == self._present:
            return
        uid_hex = target.uid.hex().upper()
        code = None
        if target.sel_res == 0x00:  # Type 2 tag: NTAG21x / Ultralight may carry the code
            try:
                code = _as_code(self._pn532.read_ndef_text(target), self.framing)
            except TagError as exc:
                log.info("NFC reader %s: tag %s moved away while being read (%s)", self.name, uid_hex, exc)
                self._interrupted = uid_hex  # a verdict if it does not come back at the next poll
                return  # not marked present: the next poll reads it again
            except NdefError as exc:
                log.warning("NFC reader %s: tag %s: %s; using its UID", self.name, uid_hex, exc)
        self._present, self._interrupted = target.uid, None
        self._call(self._on_uid, uid_hex)
        looked_up = True
        if code is None and self._uid_to_code is not None:
            code = self._call(self._uid_to_code, uid_hex, failed=_FAILED)
            looked_up = code is not _FAILED
            code = None if code is _FAILED else code
        if code is None and looked_up:  # a failed lookup stays None: "scan it again"
            log.info("NFC reader %s: tag UID %s is not enrolled", self.name, uid_hex)
            code = unpaired_tag(uid_hex)
        if self._tap is not None:
            self._call(lambda uid: self._tap(uid, code, self._clock.now()), uid_hex)
        self._out.put(CardScanned(code=code, reader=self.name, t=self._clock.now(), seat=self.seat))

    def _call(self, callback, uid_hex: str, failed=None):
        if callback is None:
            return None
        try:
            return callback(uid_hex)
        except Exception:  # a broken callback must not stop the reader
            log.exception("NFC reader %s: callback failed for tag %s", self.name, uid_hex)
            return failed

    def _not_responding(self, exc: Pn532Error) -> None:
        if self._stopping.is_set():
            return
        self._ready = False
        if not self._silent:
            self._silent = True
            log.warning("NFC reader %s at %s: %s; retrying every %.1f s", self.name, self.port, exc, self.retry_period)
            self._status("reader not responding", NOT_RESPONDING)
        self._stopping.wait(self.retry_period)

    def _try_open(self, first: bool) -> bool:
        try:
            self._serial = serial.Serial(self.port, self.baudrate, timeout=_READ_TIMEOUT)
        except (serial.SerialException, OSError, ValueError) as exc:
            if first:
                log.warning("NFC reader %s: cannot open %s (%s); retrying every %.1f s",
                            self.name, self.port, exc, self.retry_period)
                self._status("disconnected", f"no NFC reader found at {self.port}: {UNPLUGGED.partition(': ')[2]}")
            return False
        self._pn532 = Pn532(self._serial, cancelled=self._stopping.is_set, monotonic=self._monotonic, **self._timing)
        self._ready = False
        return True

    def _lost(self, exc: Exception) -> None:
        log.warning("NFC reader %s at %s lost (%s); retrying every %.1f s", self.name, self.port, exc, self.retry_period)
        self._close()
        self._silent = False
        self._status("disconnected", UNPLUGGED)
        self._stopping.wait(self.retry_period)

    def _close(self) -> None:
        port, self._serial, self._ready = self._serial, None, False
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError) as exc:
                log.debug("NFC reader %s: error closing %s: %s", self.name, self.port, exc)
