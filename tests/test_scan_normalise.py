"""One normalisation for every reader: serial lines, keyboard-mode scans and NFC Text
records strip the same framing (AIM identifiers, configured prefixes and suffixes, framing
control characters), and every read gets a verdict."""

from __future__ import annotations

import logging

import pytest
from evdev import ecodes as e

from companion.core.codes import check_code, unpaired_tag
from companion.core.errors import BadScan
from companion.devices.emulated.hid import key_events
from companion.devices.scan.hid import KeyDecoder
from companion.devices.scan.normalise import Framing, clean_scan
from companion.devices.scan.pn532 import _as_code
from companion.devices.scan.serial import LineFramer, decode_line

FRAMED = [
    (b"]C0SRS71M", "AIM Code 128"),
    (b"]Q1SRS71M", "AIM QR"),
    (b"\x02SRS71M\x03", "STX ... ETX"),
    (b"\x02]C0SRS71M\x03\x04", "STX, AIM, ETX, EOT"),
    (b"\x1dSRS71M", "a leading GS"),
    (b"  SRS71M\t", "spaces and a tab"),
]


def ctrl(letter: str) -> list[tuple[int, int, int]]:
    """Ctrl + ``letter`` as a keyboard-mode scanner sends a control character."""
    key = getattr(e, f"KEY_{letter}")
    return [(e.EV_KEY, e.KEY_LEFTCTRL, 1), (e.EV_KEY, key, 1), (e.EV_KEY, key, 0), (e.EV_KEY, e.KEY_LEFTCTRL, 0)]


def typed(text: str, terminator="enter") -> list[tuple[int, int, int]]:
    return [(ev.type, ev.code, ev.value) for ev in key_events(text, terminator=terminator)]


def feed(decoder: KeyDecoder, events) -> list:
    return [scan for event in events for scan in decoder.feed(*event)]


# --- the one module -------------------------------------------------------------------


@pytest.mark.parametrize("raw, why", FRAMED, ids=[w for _, w in FRAMED])
def test_clean_scan_strips_framing_and_the_check_character_still_decides(raw, why):
    assert clean_scan(raw) == "SRS71M"
    assert clean_scan(raw.decode("latin-1")) == "SRS71M"


def test_a_control_character_or_non_ascii_byte_inside_the_code_is_garbled_not_shortened():
    assert clean_scan(b"SRS\x0271M") is None
    assert clean_scan(b"SRS\xe971M") is None
    assert clean_scan("SRSé1M") is None


def test_configured_prefix_and_suffix_are_stripped_once_and_only_at_their_ends():
    framing = Framing(prefixes=("CARD:",), suffixes=("#",))
    assert clean_scan(b"CARD:]C0SRS71M#\r", framing) == "SRS71M"
    assert clean_scan(b"SRS71M", framing) == "SRS71M"
    assert clean_scan(b"XCARD:SRS71M", framing) == "XCARD:SRS71M"  # not at the start: the check character rejects it
    with pytest.raises(ValueError):
        Framing(prefixes=("\x02",))


# --- every reader uses it ---------------------------------------------------------------


@pytest.mark.parametrize("raw, why", FRAMED, ids=[w for _, w in FRAMED])
def test_the_serial_reader_strips_the_same_framing(raw, why):
    lines = LineFramer().feed(raw + b"\r\n")
    assert [decode_line(line) for line in lines] == ["SRS71M"]


@pytest.mark.parametrize("text", ["]C0SRS71M", "]Q1SRS71M", "  SRS71M "])
def test_the_keyboard_reader_strips_an_aim_identifier(text):
    """A scanner set to send ]C0 first used to give "That scan was garbled (]C0SRS71M)"."""
    assert feed(KeyDecoder(), typed(text)) == ["SRS71M"]


@pytest.mark.parametrize("end", ["J", "M"], ids=["Ctrl+J (line feed)", "Ctrl+M (carriage return)"])
def test_ctrl_j_or_ctrl_m_ends_a_keyboard_mode_scan(end):
    decoder = KeyDecoder()
    assert feed(decoder, typed("SRS71M", terminator=None) + ctrl(end)) == ["SRS71M"]
    assert feed(decoder, typed("SBL9Q", terminator=None) + ctrl(end)) == ["SBL9Q"]


def test_ctrl_b_and_ctrl_c_framing_around_a_keyboard_scan_is_stripped():
    """STX and ETX typed as Ctrl+B and Ctrl+C, as scanners set up for framing send them."""
    assert feed(KeyDecoder(), ctrl("B") + typed("SRS71M", terminator=None) + ctrl("C") + ctrl("M")) == ["SRS71M"]


def test_a_control_key_inside_a_keyboard_scan_still_rejects_it():
    assert feed(KeyDecoder(), typed("SRS", terminator=None) + ctrl("B") + typed("71M")) == [None]


def test_the_keyboard_reader_takes_a_configured_prefix():
    decoder = KeyDecoder(framing=Framing(prefixes=("@",)))
    assert feed(decoder, typed("@SRS71M")) == ["SRS71M"]


@pytest.mark.parametrize("raw, why", FRAMED, ids=[w for _, w in FRAMED])
def test_an_nfc_text_record_strips_the_same_framing(raw, why):
    assert _as_code(raw.decode("latin-1")) == "SRS71M"


def test_the_same_framing_gives_the_same_code_from_every_reader():
    framing = Framing(prefixes=("~",), suffixes=("!",))
    raw = "~]C0SRS71M!"
    serial = decode_line(raw.encode(), framing)
    keyboard = feed(KeyDecoder(framing=framing), typed(raw))
    nfc = _as_code(raw, framing)
    assert serial == nfc == "SRS71M" and keyboard == ["SRS71M"]


# --- every read gets a verdict ----------------------------------------------------------


def test_an_overlong_serial_line_is_a_garbled_read_not_silence(caplog):
    framer = LineFramer(max_length=8)
    with caplog.at_level(logging.WARNING):
        lines = framer.feed(b"9" * 30 + b"\r\nSHX02K\r\n")
    assert [decode_line(line) if line is not None else None for line in lines] == [None, "SHX02K"]


def test_an_overlong_keyboard_scan_is_a_garbled_read_not_silence():
    assert feed(KeyDecoder(max_length=6), typed("SRS71MX") + typed("SBL9Q")) == [None, "SBL9Q"]


def test_a_keyboard_scan_with_no_terminator_ends_when_the_scanner_goes_quiet():
    decoder = KeyDecoder()
    assert feed(decoder, typed("SRS71M", terminator=None)) == []
    assert decoder.flush() == ["SRS71M"]
    assert decoder.flush() == []


def test_an_unpaired_nfc_sticker_is_rejected_with_what_to_do():
    with pytest.raises(BadScan) as info:
        check_code(unpaired_tag("04A1B2C3D4E5F6"))
    assert info.value.message == "This sticker is not paired with a card: run `companion enroll`."


def test_a_scanner_typing_into_the_window_is_cleaned_the_same_way():
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.runner import Runner
    from companion.table.session import Session

    clock = FakeClock()
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), clock)
    runner = Runner(session, clock, framing=Framing(suffixes=(";",)))
    for typed_text in ["]C0SRS71M", "\x02SRS71M\x03", "SRS71M;", "\r\n"]:
        runner.scan_text(typed_text)
    scans = [runner.inputs.get_nowait().code for _ in range(runner.inputs.qsize())]
    assert scans == ["SRS71M", "SRS71M", "SRS71M"]
