"""The PN532 NFC driver: its frame parser byte by byte, and the real reader thread against
an emulated PN532 on a pseudo-terminal, with faults on the line."""

from __future__ import annotations

import logging
import os
import queue
import time

import pytest
import serial

from companion.core.clock import FakeClock
from companion.core.codes import check_code, unpaired_tag
from companion.core.errors import BadScan
from companion.core.events import CardScanned, DeviceStatus
from companion.devices.emulated.pn532 import EmulatedPn532
from companion.devices.scan.pn532 import (
    ACK_FRAME, ERROR_FRAME, NACK_FRAME, NOT_RESPONDING, UNPLUGGED, ChecksumError, Control, Frame,
    FrameParser, NdefError, NoAckError, Pn532, Pn532Error, Pn532Reader, build_frame, ndef_message,
    ndef_text_message, ndef_tlv, parse_target, TagError, Target, text_record, _ShortArea,
)
from queue_helpers import WatchedClock, drain

NTAG_UID = bytes.fromhex("04A1B2C3D4E5F6")
OTHER_UID = bytes.fromhex("04112233445566")
CLASSIC_UID = bytes.fromhex("DEADBEEF")
ENROLLED = {"04112233445566": "SHX02K", "DEADBEEF": "SBL9Q"}
FIRMWARE = build_frame(b"\x03\x32\x01\x06\x07", 0xD5)

# A stream with every kind of item, and the line noise the parser must skip.
STREAM = (
    b"\x00\x00\x00" + ACK_FRAME          # extra leading zeros
    + b"\x55\x13\xff\x37" + FIRMWARE     # junk (with an FF) before a frame
    + NACK_FRAME + ERROR_FRAME
    + b"\x00\x00\xff\x00\x00\x00\x00\x00\xff\x01\xff\x7f\x81\x00"  # empty frame, then the error frame
    + b"\x00\x00\xff\x03\xfd\xd5\x15\x00\x00"  # bad DCS
    + build_frame(b"\x4b\x00", 0xD5)
)
EXPECTED = [
    Control.ACK, Frame(0xD5, b"\x03\x32\x01\x06\x07"), Control.NACK, Control.ERROR,
    ChecksumError, Control.ERROR, ChecksumError, Frame(0xD5, b"\x4b\x00"),
]


def same_items(items: list, expected: list) -> bool:
    if len(items) != len(expected):
        return False
    return all(isinstance(i, e) if isinstance(e, type) else i == e for i, e in zip(items, expected))


# --- FrameParser: pure ---------------------------------------------------------------


def test_the_stream_decodes_in_one_piece():
    assert same_items(FrameParser().feed(STREAM), EXPECTED)


def test_every_single_and_double_split_of_the_stream_decodes_the_same():
    n = len(STREAM)
    for i in range(n + 1):
        for j in range(i, n + 1):
            parser = FrameParser()
            items = parser.feed(STREAM[:i]) + parser.feed(STREAM[i:j]) + parser.feed(STREAM[j:])
            assert same_items(items, EXPECTED), (i, j)


def test_byte_at_a_time_decodes_the_same():
    parser = FrameParser()
    assert same_items([item for b in STREAM for item in parser.feed(bytes([b]))], EXPECTED)


def test_build_frame_round_trips_every_length():
    parser = FrameParser()
    for length in range(0, 254):
        data = bytes((length * 7 + k) & 0xFF for k in range(length + 1))
        assert parser.feed(build_frame(data)) == [Frame(0xD4, data)]


def test_frame_layout_matches_the_manual():
    # UM0701-02 §6.2.1.1: 00 00 FF LEN LCS TFI PD0..PDn DCS 00; GetFirmwareVersion is D4 02.
    assert build_frame(b"\x02") == bytes.fromhex("0000FF02FED4022A00")
    assert build_frame(b"\x14\x01\x14\x01") == bytes.fromhex("0000FF05FBD4140114010200")


def test_bad_length_checksum_is_reported_and_the_next_frame_still_decodes():
    items = FrameParser().feed(b"\x00\x00\xff\x05\xfa\xd5\x03" + FIRMWARE)
    assert isinstance(items[0], ChecksumError) and "length" in str(items[0])
    assert items[1:] == [Frame(0xD5, b"\x03\x32\x01\x06\x07")]


def test_bad_data_checksum_is_reported_and_the_next_frame_still_decodes():
    bad = bytearray(FIRMWARE)
    bad[-2] ^= 0x01
    items = FrameParser().feed(bytes(bad) + ACK_FRAME)
    assert isinstance(items[0], ChecksumError) and "data" in str(items[0])
    assert items[1:] == [Control.ACK]


def test_a_false_start_code_in_junk_does_not_swallow_the_real_frame():
    # "00 FF 05 FB" looks like a 5-byte frame header and eats into the ACK and frame after it.
    items = FrameParser().feed(b"\x00\xff\x05\xfb" + ACK_FRAME + FIRMWARE)
    assert items[-2:] == [Control.ACK, Frame(0xD5, b"\x03\x32\x01\x06\x07")]


def test_extended_frame_decodes():
    data = bytes(range(256)) * 2
    body = b"\xd5" + data
    frame = b"\x00\x00\xff\xff\xff" + bytes([len(body) >> 8, len(body) & 0xFF, -(len(body) >> 8) - (len(body) & 0xFF) & 0xFF])
    frame += body + bytes([-sum(body) & 0xFF, 0])
    assert FrameParser().feed(frame[:100]) == []
    assert FrameParser().feed(frame) == [Frame(0xD5, data)]


def test_junk_with_no_start_code_is_dropped_but_a_trailing_zero_is_kept():
    parser = FrameParser()
    assert parser.feed(b"\x55" * 500 + b"\x00") == []
    assert parser.feed(b"\xff\x00\xff\x00") == [Control.ACK]


def test_error_types_can_be_caught_as_builtins():
    assert issubclass(ChecksumError, ValueError) and issubclass(ChecksumError, Pn532Error)
    assert issubclass(NoAckError, TimeoutError) and issubclass(Pn532Error, OSError)


# --- targets and NDEF: pure -----------------------------------------------------------


def test_parse_target_reads_the_uid_of_an_ntag():
    target = parse_target(bytes.fromhex("0101004400 07") + NTAG_UID)
    assert (target.number, target.sens_res, target.sel_res, target.uid) == (1, b"\x00\x44", 0, NTAG_UID)
    assert parse_target(b"\x00") is None
    with pytest.raises(Pn532Error):
        parse_target(bytes.fromhex("01010044000704A1"))


def test_ndef_text_round_trips_with_language_and_utf16():
    assert text_record(ndef_text_message("SRS71M", lang="en-GB")) == "SRS71M"
    payload = bytes([0x80 | 2]) + b"fr" + "Sucre".encode("utf-16")
    assert text_record(bytes([0xD1, 1, len(payload)]) + b"T" + payload) == "Sucre"
    long = "X" * 300
    assert text_record(ndef_text_message(long)) == long


@pytest.mark.parametrize("encoded", [
    "SRS71M".encode("utf-16-be"),                 # no byte-order mark: big-endian (RFC 2781 4.3)
    b"\xfe\xff" + "SRS71M".encode("utf-16-be"),  # BOM says big-endian
    b"\xff\xfe" + "SRS71M".encode("utf-16-le"),  # BOM says little-endian
])
def test_a_utf16_text_without_a_byte_order_mark_is_big_endian(encoded):
    """NFC Forum Text RTD 1.0 3.2.1: UTF-16 text may start with a BOM; without one it is
    big-endian, not the machine's order (which would read 'SRS71M' as '匀刀匀...')."""
    payload = bytes([0x80 | 2]) + b"en" + encoded
    assert text_record(bytes([0xD1, 1, len(payload)]) + b"T" + payload) == "SRS71M"


def test_text_record_skips_other_records_and_finds_none_in_a_uri_record():
    uri = bytes([0x91, 1, 4]) + b"U" + b"\x04a.b"  # MB, SR, well-known URI, not ME
    text = ndef_text_message("SBL9Q")
    text = bytes([text[0] & ~0x80 & 0xFF]) + text[1:]  # clear MB: the second record
    assert text_record(uri + text) == "SBL9Q"
    assert text_record(bytes([0xD1, 1, 4]) + b"U" + b"\x04a.b") is None
    assert text_record(b"") is None


def test_malformed_ndef_raises_ndef_error():
    with pytest.raises(NdefError):
        text_record(bytes([0xD1, 1, 40]) + b"T\x02enSRS")
    with pytest.raises(NdefError):
        text_record(bytes([0xD1, 1, 4]) + b"T\x02en\xff")


def test_ndef_message_skips_null_and_lock_control_tlvs_and_reads_long_lengths():
    message = ndef_text_message("Y" * 300)
    area = b"\x00\x01\x03\xa0\x0c\x44" + ndef_tlv(message)
    assert area[6:10] == b"\x03\xff\x01" + bytes([len(message) & 0xFF])
    assert ndef_message(area) == message
    assert ndef_message(b"\x00\x00\xfe") is None
    assert ndef_message(ndef_tlv(b"")) == b""
    with pytest.raises(_ShortArea) as short:
        ndef_message(area[:20])
    assert short.value.needed == 10 + len(message)


# --- the reader thread on an emulated PN532 --------------------------------------------


def next_of(q: queue.Queue, kind: type, timeout: float = 3.0, status: str | None = None):
    """The next item of ``kind`` (and ``status``) on ``q``, skipping others; fails on timeout."""
    deadline = time.monotonic() + timeout
    while (remaining := deadline - time.monotonic()) > 0:
        try:
            item = q.get(timeout=remaining)
        except queue.Empty:
            break
        if isinstance(item, kind) and (status is None or item.status == status):
            return item
    pytest.fail(f"no {kind.__name__} {status or ''} within {timeout} s")



@pytest.fixture
def clock():
    return FakeClock(100.0)


@pytest.fixture
def rig(clock):
    """A plugged-in emulated PN532 and a started reader, its "connected" status consumed."""
    q: queue.Queue = queue.Queue()
    uids: list[str] = []
    emu = EmulatedPn532(seed=5)
    reader = Pn532Reader(emu.path, q, clock, name="nfc", seat=2, uid_to_code=ENROLLED.get,
                         on_uid=uids.append, poll_interval=0.05, retry_period=0.2)
    reader.start()
    try:
        connected = next_of(q, DeviceStatus)
        assert (connected.device, connected.status, connected.detail) == ("nfc", "connected", "PN532 firmware 1.6")
        yield emu, reader, q, uids
    finally:
        reader.stop()
        emu.close()


def test_reader_wakes_the_pn532_and_configures_normal_mode_and_finite_polls(rig):
    emu, reader, _, _ = rig
    assert emu.wait_polls(2)
    assert emu.sam_mode == 0x01 and emu.passive_retries != 0xFF
    assert reader.connected and reader.running


def test_tag_with_an_ndef_text_code_gives_one_scan_with_that_code(rig, clock):
    emu, _, q, uids = rig
    clock.set(102.5)
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned) == CardScanned("SRS71M", "nfc", 102.5, seat=2)
    assert uids == ["04A1B2C3D4E5F6"]


def test_a_tag_left_on_the_reader_is_one_scan_until_lifted_then_a_new_one(rig):
    emu, reader, q, _ = rig
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"
    assert emu.wait_polls(12)
    assert drain(q) == []
    emu.lift()
    assert emu.wait_polls(reader.lift_polls + 2)
    assert drain(q) == []
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"
    assert emu.wait_polls(5)
    assert drain(q) == []


def test_one_missed_poll_is_not_a_lift(rig):
    emu, reader, q, _ = rig
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"
    emu.miss_polls(reader.lift_polls - 1)  # a tag at the edge of the field
    assert emu.wait_polls(reader.lift_polls + 5)
    assert drain(q) == []


def test_swapping_one_tag_for_another_without_a_gap_is_a_new_scan(rig):
    emu, _, q, _ = rig
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"
    emu.place(OTHER_UID, "SWD3Z7")
    assert next_of(q, CardScanned).code == "SWD3Z7"


def test_an_unenrolled_blank_tag_is_a_scan_the_session_rejects_with_what_to_do(rig, caplog):
    emu, _, q, uids = rig
    with caplog.at_level(logging.INFO, logger="companion.devices.scan.pn532"):
        emu.place(bytes.fromhex("04000000000001"))
        scan = next_of(q, CardScanned)
    assert scan.code == unpaired_tag("04000000000001")
    with pytest.raises(BadScan, match=r"This sticker is not paired with a card: run `companion enroll`"):
        check_code(scan.code)
    assert uids == ["04000000000001"]
    assert "tag UID 04000000000001 is not enrolled" in caplog.text


def test_an_enrolled_blank_tag_gives_its_enrolled_code(rig):
    emu, _, q, uids = rig
    emu.place(OTHER_UID)
    assert next_of(q, CardScanned).code == "SHX02K"
    assert uids == ["04112233445566"]


def test_a_mifare_classic_is_looked_up_by_uid_without_reading_pages(rig):
    emu, _, q, _ = rig
    emu.place(CLASSIC_UID)
    assert next_of(q, CardScanned).code == "SBL9Q"
    assert emu.counts[0x40] == 0


def test_the_ndef_code_wins_over_the_enrolment(rig):
    emu, _, q, _ = rig
    emu.place(OTHER_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"


def test_a_long_text_is_read_across_many_pages_of_an_ntag215(rig):
    emu, _, q, _ = rig
    code = "S" + "7" * 200
    emu.place(NTAG_UID, data_area=b"\x01\x03\xa0\x0c\x44" + ndef_tlv(ndef_text_message(code)))
    assert next_of(q, CardScanned).code == code
    assert emu.counts[0x40] > 10


def test_malformed_ndef_falls_back_to_the_enrolment(rig, caplog):
    emu, _, q, _ = rig
    with caplog.at_level(logging.WARNING):
        emu.place(OTHER_UID, data_area=b"\x03\x08\xd1\x01\x40T\x02enS\xfe")
        assert next_of(q, CardScanned).code == "SHX02K"
    assert "using its UID" in caplog.text


def test_a_dropped_ack_is_resent_and_the_scan_still_arrives(rig):
    emu, _, q, _ = rig
    assert emu.wait_polls(1)
    emu.drop_acks(2)
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"
    assert not any(isinstance(i, DeviceStatus) for i in drain(q))


def test_a_bad_checksum_frame_is_discarded_and_the_poll_retried(rig):
    emu, _, q, _ = rig
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"
    emu.lift()
    assert emu.wait_polls(4)
    emu.corrupt_responses(2)
    polls = emu.counts[0x4A]
    emu.place(OTHER_UID, "SWD3Z7")
    assert next_of(q, CardScanned).code == "SWD3Z7"
    assert emu.counts[0x4A] >= polls + 1
    assert emu.wait_polls(3)
    assert drain(q) == []


def test_an_error_frame_is_retried(rig):
    emu, _, q, _ = rig
    emu.error_frames(2)
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"
    assert not any(isinstance(i, DeviceStatus) for i in drain(q))


def test_junk_extra_zeros_and_tiny_chunks_on_the_line_change_nothing(rig):
    emu, _, q, _ = rig
    emu.noise(junk=b"\x55\x00\xff\x05\x13", zeros=4)
    emu.chunked(max_chunk=3)
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"
    assert emu.wait_polls(5)
    assert drain(q) == []


def test_silence_reports_not_responding_then_recovers(rig, clock):
    emu, reader, q, _ = rig
    clock.set(110.0)
    emu.silent = True
    status = next_of(q, DeviceStatus)
    assert status == DeviceStatus("nfc", "reader not responding", 110.0, NOT_RESPONDING)
    assert not reader.connected and reader.running
    emu.silent = False
    assert next_of(q, DeviceStatus).status == "connected"
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"


def test_a_power_cycled_reader_is_woken_again(rig):
    emu, _, q, _ = rig
    emu.power_cycle()  # asleep: ignores frames until the HSU wake-up
    assert next_of(q, DeviceStatus).status == "reader not responding"
    assert next_of(q, DeviceStatus).status == "connected"
    assert emu.sam_mode == 0x01
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"


class TimedPort:
    """A serial port whose every read that finds nothing moves ``mono`` (the driver's fake
    monotonic clock) on by ``step`` seconds: time passes on that clock only while the
    driver waits for bytes, and faster than it really does, so a driver that measured its
    timeouts in real time would be seen to."""

    def __init__(self, port: serial.Serial, mono: FakeClock, step: float):
        self._port, self._mono, self._step = port, mono, step

    def read(self, size: int = 1) -> bytes:
        data = self._port.read(size)
        if not data:
            self._mono.advance(self._step)
        return data

    def __getattr__(self, name):
        return getattr(self._port, name)


def test_command_is_tried_three_times_then_raises_no_ack():
    mono = FakeClock(0.0)
    with EmulatedPn532() as emu, serial.Serial(emu.path, 115200, timeout=0.02) as port:
        pn532 = Pn532(TimedPort(port, mono, step=1.0), ack_timeout=2.5, monotonic=mono.now)
        pn532.wake()
        assert pn532.command(0x02) == b"\x32\x01\x06\x07"
        emu.silent = True
        start = mono.now()
        with pytest.raises(NoAckError):
            pn532.command(0x02)
        # each try waits out its 2.5 s ACK timeout, overrunning by at most one read's 1 s
        assert 3 * 2.5 <= mono.now() - start <= 3 * (2.5 + 1.0)
        emu.silent = False
        emu.drop_acks(1)
        assert pn532.command(0x02) == b"\x32\x01\x06\x07"
        assert emu.counts[0x02] == 3  # the first, then this one twice: unACKed, then resent


def test_a_readers_command_timeouts_are_measured_on_its_monotonic_clock(clock):
    """A silent PN532 is "not responding" once its three tries have each waited out their
    timeout on the reader's monotonic clock; real time passing is not enough."""
    q: queue.Queue = queue.Queue()
    mono = WatchedClock(0.0)
    emu = EmulatedPn532(seed=5)
    reader = Pn532Reader(emu.path, q, clock, name="nfc", poll_interval=0.05, retry_period=0.2, monotonic=mono.now)
    reader.start()
    try:
        assert next_of(q, DeviceStatus).status == "connected"  # answers come at once: no time needed
        emu.silent = True
        assert mono.wait_looked(10)  # 0.2 s of port reads waiting for an ACK: more than its 0.1 s timeout
        assert drain(q) == []
        said, advances = [], 0
        while not said and advances < 20:
            mono.advance(1.0)  # past one try's 0.1 s ACK timeout
            advances += 1
            assert mono.wait_looked(3)  # the try gave up, the next one started
            said = [item for item in drain(q) if isinstance(item, DeviceStatus)]
        assert said == [DeviceStatus("nfc", "reader not responding", 100.0, NOT_RESPONDING)]
        assert advances >= 3  # one try ends for each time the clock passed its timeout
    finally:
        reader.stop()
        emu.close()


def test_unplug_reports_disconnected_and_stop_still_works(rig, clock):
    emu, reader, q, _ = rig
    emu.place(NTAG_UID, "SRS71M")
    assert next_of(q, CardScanned).code == "SRS71M"
    clock.set(130.0)
    emu.close()
    assert next_of(q, DeviceStatus, status="disconnected") == DeviceStatus("nfc", "disconnected", 130.0, UNPLUGGED)
    assert reader.running and not reader.connected
    start = time.monotonic()
    reader.stop()
    reader.stop()
    assert time.monotonic() - start < 1.0
    assert not reader.running
    with pytest.raises(RuntimeError):
        reader.start()


def test_replugged_reader_on_the_same_path_scans_again(tmp_path, clock):
    link = tmp_path / "nfc"
    q: queue.Queue = queue.Queue()
    first = EmulatedPn532()
    os.symlink(first.path, link)
    reader = Pn532Reader(str(link), q, clock, retry_period=0.1)
    second = None
    try:
        reader.start()
        next_of(q, DeviceStatus, status="connected")
        first.place(NTAG_UID, "SRS71M")
        assert next_of(q, CardScanned).code == "SRS71M"
        first.close()
        next_of(q, DeviceStatus, status="disconnected")
        second = EmulatedPn532()
        tmp = tmp_path / "nfc.new"
        os.symlink(second.path, tmp)
        os.replace(tmp, link)
        next_of(q, DeviceStatus, status="connected")
        second.place(OTHER_UID, "SWD3Z7")
        assert next_of(q, CardScanned).code == "SWD3Z7"
    finally:
        reader.stop()
        first.close()
        if second is not None:
            second.close()


def test_a_reader_missing_at_start_is_reported_and_picked_up_when_plugged_in(tmp_path, clock):
    link = tmp_path / "nfc"
    q: queue.Queue = queue.Queue()
    reader = Pn532Reader(str(link), q, clock, retry_period=0.1)
    emu = None
    try:
        reader.start()
        status = next_of(q, DeviceStatus)
        assert status.status == "disconnected" and str(link) in status.detail
        emu = EmulatedPn532()
        os.symlink(emu.path, link)
        next_of(q, DeviceStatus, status="connected")
        emu.place(NTAG_UID, "SRS71M")
        assert next_of(q, CardScanned).code == "SRS71M"
    finally:
        reader.stop()
        if emu is not None:
            emu.close()


def test_a_failing_enrolment_lookup_does_not_stop_the_reader(clock, caplog):
    q: queue.Queue = queue.Queue()

    def broken(uid: str) -> str:
        raise RuntimeError("store is locked")

    with EmulatedPn532() as emu:
        reader = Pn532Reader(emu.path, q, clock, uid_to_code=broken)
        reader.start()
        try:
            next_of(q, DeviceStatus, status="connected")
            with caplog.at_level(logging.ERROR):
                emu.place(OTHER_UID)
                assert next_of(q, CardScanned).code is None
            assert "callback failed" in caplog.text
            emu.place(NTAG_UID, "SRS71M")
            assert next_of(q, CardScanned).code == "SRS71M"
        finally:
            reader.stop()


class _Interrupted:
    """A PN532 whose tag is taken away in the middle of its read, then is gone or back."""

    def __init__(self, polls):
        self.polls = list(polls)  # what each poll finds: a Target or None
        self.reads = 0

    def list_passive_target(self):
        return self.polls.pop(0)

    def read_ndef_text(self, target):
        self.reads += 1
        if self.reads == 1:
            raise TagError(0x01)  # the tag left the field mid-read
        return "SRS71M"


TAG = Target(1, b"\x00\x44", 0x00, bytes.fromhex("04A1B2C3D4E5F6"))


def test_a_tag_taken_away_mid_read_and_gone_is_an_unreadable_scan_not_silence(clock):
    q: queue.Queue = queue.Queue()
    reader = Pn532Reader("/dev/null", q, clock, uid_to_code=lambda uid: None)
    reader._pn532 = _Interrupted([TAG, None, None])
    reader._poll()
    assert drain(q) == []  # read again at the next poll before anything is said
    reader._poll()
    assert [item.code for item in drain(q)] == [None]  # gone: "scan the card again"
    reader._poll()
    assert drain(q) == []


def test_a_tag_taken_away_mid_read_and_back_is_one_scan(clock):
    q: queue.Queue = queue.Queue()
    reader = Pn532Reader("/dev/null", q, clock, uid_to_code=lambda uid: None)
    reader._pn532 = _Interrupted([TAG, TAG, None])
    reader._poll()
    reader._poll()
    reader._poll()
    assert [item.code for item in drain(q)] == ["SRS71M"]


@pytest.mark.parametrize("length", [1100, 1800])
def test_a_tag_holding_more_than_1_kb_gives_one_scan_by_its_uid_not_a_crash_loop(rig, caplog, length):
    """The report: a tag with more than about 1 kB made the reader crash-loop (a page
    number past 255, a traceback every 0.5 s, no verdict). Now: one scan, by its UID."""
    emu, reader, q, _ = rig
    with caplog.at_level(logging.WARNING):
        emu.place(OTHER_UID, data_area=ndef_tlv(ndef_text_message("SRS71M" + " " * length)))
        assert next_of(q, CardScanned).code == "SHX02K"  # its enrolment
        assert emu.wait_polls(emu.counts[0x4A] + 3)
    assert "unexpected error" not in caplog.text and "Traceback" not in caplog.text
    assert "using its UID" in caplog.text and reader.running
    assert q.empty() or all(not isinstance(item, CardScanned) for item in list(q.queue))
