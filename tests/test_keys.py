"""The one key-position decoder (companion/devices/scan/keys.py), fed key events, and the
window's keyboard path through it (issue 37): a US-layout keyboard-mode scanner typing
into the window reads right whatever the keymap, with NumLock off, with a late key-up,
and in "Alt + keypad" mode; a name typed into a focused text field still goes through the
keymap."""

from __future__ import annotations

import os

import pytest
from evdev import ecodes as e

from companion.core.clock import FakeClock
from companion.core.store import EventStore
from companion.devices.emulated.hid import HID_USAGES
from companion.devices.scan import keys
from companion.devices.scan.keys import KEY, EV_KEY, KeyDecoder, KeyStream, ScanEnd
from companion.table.runner import Runner
from companion.table.session import Session

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

# --- the tables -----------------------------------------------------------------------


def test_the_key_codes_are_linuxs_as_python_evdev_has_them():
    assert KEY and all(getattr(e, f"KEY_{name}") == code for name, code in KEY.items())


def test_sdls_scan_codes_are_the_usb_usages_of_the_keys():
    """SDL numbers its scan codes as USB HID usages (the emulated scanner's table)."""
    for code, usage in HID_USAGES.items():
        assert keys.from_sdl(usage) == code, e.KEY[code]


# --- the decoder, fed key events ------------------------------------------------------

US_CHARS = {}  # character -> (key code, needs Shift) on a US keyboard
for _code, (_plain, _shifted) in keys.US_KEYS.items():
    US_CHARS.setdefault(_plain, (_code, False))
    US_CHARS.setdefault(_shifted, (_code, True))


def typed(text: str, terminator: int | None = KEY["ENTER"]) -> list[tuple[int, int]]:
    """(key code, value) a US-layout scanner sends for ``text``."""
    out = []
    for char in text:
        code, shift = US_CHARS[char]
        out += ([(KEY["LEFTSHIFT"], 1)] if shift else []) + [(code, 1), (code, 0)] + (
            [(KEY["LEFTSHIFT"], 0)] if shift else [])
    return out + ([(terminator, 1), (terminator, 0)] if terminator else [])


def alt_typed(text: str, zero: bool = True) -> list[tuple[int, int]]:
    """What a scanner in "Alt + keypad" mode sends: left Alt held over each character's
    decimal number on the keypad (with a leading 0, the Windows code page, or without)."""
    out = []
    for char in text:
        out.append((KEY["LEFTALT"], 1))
        for digit in (f"0{ord(char)}" if zero else str(ord(char))):
            out += [(KEY[f"KP{digit}"], 1), (KEY[f"KP{digit}"], 0)]
        out.append((KEY["LEFTALT"], 0))
    return out


def feed(pairs, decoder=None) -> list:
    decoder = decoder or KeyDecoder()
    return [scan for code, value in pairs for scan in decoder.feed(EV_KEY, code, value)]


def test_a_repeated_key_adds_nothing():
    """A wireless scanner whose key-up comes 450 ms late: the kernel repeats the key
    (value 2) until it does; one key is one character."""
    pairs = typed("SRS41", terminator=None) + [(KEY["Y"], 1)] + [(KEY["Y"], 2)] * 8 + [(KEY["Y"], 0),
                                                                                      (KEY["ENTER"], 1)]
    assert feed(pairs) == ["SRS41y"]


@pytest.mark.parametrize("zero", [True, False])
def test_an_alt_keypad_scanner_is_decoded(zero):
    """Scanners set to "Alt + keypad" (the vendors' advice for non-US layouts) type each
    character as its number on the keypad with Alt held; CR typed so ends the scan."""
    assert feed(alt_typed("SRS41Y\r", zero)) == ["SRS41Y"]


def test_an_alt_code_for_tab_or_line_feed_ends_the_scan_and_framing_codes_are_stripped():
    assert feed(alt_typed("\x02SRS41Y\x03\t") + alt_typed("SHX02K\n")) == ["SRS41Y", "SHX02K"]


def test_alt_with_a_key_that_is_not_a_keypad_digit_still_rejects_the_scan():
    pairs = typed("SRS", terminator=None) + [(KEY["LEFTALT"], 1), (KEY["A"], 1), (KEY["LEFTALT"], 0)] + typed("41Y")
    assert feed(pairs) == [None]


def test_right_alt_over_keypad_digits_is_altgr_and_rejects_the_scan():
    pairs = [(KEY["RIGHTALT"], 1), (KEY["KP8"], 1), (KEY["KP3"], 1), (KEY["RIGHTALT"], 0)] + typed("RS41Y")
    assert feed(pairs) == [None]


def test_alt_pressed_and_let_go_alone_types_nothing():
    assert feed([(KEY["LEFTALT"], 1), (KEY["LEFTALT"], 0)] + typed("SRS41Y")) == ["SRS41Y"]


def test_keypad_digits_are_digits_whatever_numlock_says():
    pairs = [(KEY["NUMLOCK"], 1), (KEY["NUMLOCK"], 0)] + typed("SRS", terminator=None) + [
        (KEY["KP4"], 1), (KEY["KP4"], 0), (KEY["KP1"], 1), (KEY["KP1"], 0)] + typed("Y", terminator=KEY["KPENTER"])
    assert feed(pairs) == ["SRS41Y"]


def test_a_decoder_knows_once_its_scanner_sends_a_terminator():
    decoder = KeyDecoder()
    feed(typed("SRS41Y", terminator=None), decoder)
    assert not decoder.terminated
    assert decoder.flush() == ["SRS41Y"] and not decoder.terminated
    feed(typed("SRS41Y"), decoder)
    assert decoder.terminated


# --- the window's key stream, on a fake clock ------------------------------------------

SDL = {code: usage for usage, code in keys.SDL_SCANCODES.items()}  # key code -> SDL scan code


def stream_keys(stream: KeyStream, pairs, t: float = 0.0, step: float = 0.0) -> list:
    out = []
    for i, (code, value) in enumerate(pairs):
        out += stream.key(SDL[code], value == 1, value == 2, t + i * step)
    return out


def test_the_window_stream_leaves_a_persons_keys_alone_until_a_scan_starts():
    stream = KeyStream()
    assert stream_keys(stream, [(KEY["F5"], 1), (KEY["F5"], 0), (KEY["BACKSPACE"], 1)]) == []
    assert not stream.decoder.pending
    assert stream_keys(stream, typed("SRS", None) + [(KEY["F5"], 1)] + typed("41Y")) == [None]


def test_the_window_stream_ignores_sdls_key_repeat():
    pairs = typed("SRS41", None) + [(KEY["Y"], 1), (KEY["Y"], 2), (KEY["Y"], 2), (KEY["Y"], 0), (KEY["ENTER"], 1)]
    assert stream_keys(KeyStream(), pairs) == ["SRS41y"]


# --- the real window, with the keymap's text beside the keys ---------------------------


def us_scanner_events(text: str, keymap: dict[str, str] | None = None, terminator: str = "\r",
                      keypad: bool = False, numlock_off: bool = False):
    """The pygame events a US-layout scanner typing ``text`` makes in the window under a
    keymap that types ``keymap.get(char, char)`` for each key (SDL's TEXTINPUT; nothing
    for a keypad digit with NumLock off)."""
    import pygame

    keymap = keymap or {}
    events = []

    def key(kind, code, text="", sym=0):
        events.append(pygame.event.Event(kind, key=sym, mod=0, unicode=text, scancode=SDL[code]))

    for char in text + terminator:
        if char == "\r":
            key(pygame.KEYDOWN, KEY["ENTER"], "\r", pygame.K_RETURN)
            key(pygame.KEYUP, KEY["ENTER"], sym=pygame.K_RETURN)
            continue
        if keypad and char.isdigit():
            code, shift = KEY[f"KP{char}"], False
        else:
            code, shift = US_CHARS[char]
        if shift:
            key(pygame.KEYDOWN, KEY["LEFTSHIFT"])
        key(pygame.KEYDOWN, code, keymap.get(char, char))
        if not (keypad and numlock_off and char.isdigit()):
            events.append(pygame.event.Event(pygame.TEXTINPUT, text=keymap.get(char, char)))
        key(pygame.KEYUP, code)
        if shift:
            key(pygame.KEYUP, KEY["LEFTSHIFT"])
    return events


GERMAN = {"Y": "Z", "Z": "Y", "y": "z", "z": "y"}  # the letters a German keymap swaps
FRENCH = dict(zip("1234567890", "&é\"'(-è_çà"))     # a French keymap's digit row without Shift


@pytest.fixture
def windowed():
    from companion.ui.app import App

    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), clock, tap_off=0.0)
    runner = Runner(session, clock, app=App())
    scanned = []
    session.listeners.append(lambda item, verdict: getattr(item, "reader", None) and scanned.append(item.code))
    yield runner, scanned
    runner.app.close()


def post(events) -> None:
    import pygame

    pygame.event.clear()
    for event in events:
        pygame.event.post(event)


@pytest.mark.parametrize("keymap, label", [(GERMAN, "German"), (FRENCH, "French"), ({}, "US")])
def test_a_us_scanner_typing_into_the_window_reads_right_whatever_the_keymap(windowed, keymap, label):
    """Issue 37: with a German keymap SRS41Y arrived as SRS41Z; with a French one every
    digit was wrong. The window decodes the key positions (SDL's scan codes)."""
    runner, scanned = windowed
    post(us_scanner_events("SRS41Y", keymap))
    runner.poll_window()
    assert scanned == ["SRS41Y"], label


def test_keypad_digits_typed_into_the_window_with_numlock_off_are_read(windowed):
    """Issue 37: with NumLock off (the Linux console's default) SRS41Y arrived as SRSY."""
    runner, scanned = windowed
    post(us_scanner_events("SRS41Y", keypad=True, numlock_off=True))
    runner.poll_window()
    assert scanned == ["SRS41Y"]


def test_a_late_key_up_in_the_window_is_one_character(windowed):
    """Issue 37: a key-up 450 ms late was turned into SRS41YYYYYYY by key repeat (the
    keymap's text repeats; pygame drops SDL's repeated key-downs)."""
    import pygame

    runner, scanned = windowed
    events = us_scanner_events("SRS41Y")
    y_up = next(i for i, ev in enumerate(events) if ev.type == pygame.KEYUP and ev.scancode == SDL[KEY["Y"]])
    repeats = [pygame.event.Event(pygame.TEXTINPUT, text="Y") for _ in range(6)] + [
        pygame.event.Event(pygame.KEYDOWN, key=0, mod=1, unicode="Y", scancode=SDL[KEY["Y"]], repeat=1)]
    post(events[:y_up] + repeats + events[y_up:])
    runner.poll_window()
    assert scanned == ["SRS41Y"]


def test_an_alt_keypad_scanner_typing_into_the_window_is_read(windowed):
    """Issue 37: scanners set to "Alt + keypad" were rejected on every key."""
    import pygame

    runner, scanned = windowed
    events = []
    for code, value in alt_typed("SRS41Y\r"):
        kind = pygame.KEYDOWN if value else pygame.KEYUP
        events.append(pygame.event.Event(kind, key=0, mod=0, unicode="", scancode=SDL[code]))
    post(events)
    runner.poll_window()
    assert scanned == ["SRS41Y"]


def test_a_key_that_is_not_text_inside_a_window_scan_rejects_it(windowed):
    import pygame

    runner, scanned = windowed
    events = us_scanner_events("SRS41Y")
    f5 = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F5, mod=0, unicode="", scancode=SDL[KEY["F5"]])
    post(events[:3] + [f5] + events[3:])
    runner.poll_window()
    assert scanned == [None]


def test_a_scan_with_no_terminator_typed_into_the_window_ends_after_the_gap(windowed, monkeypatch):
    from companion.table import window as window_module

    runner, scanned = windowed
    now = [1000.0]
    monkeypatch.setattr(window_module.time, "monotonic", lambda: now[0])
    post(us_scanner_events("SRS41Y", terminator=""))
    runner.poll_window()
    assert scanned == []
    assert runner.window.keys.due(now[0]) == pytest.approx(keys.DEFAULT_GAP)
    now[0] += keys.DEFAULT_GAP
    post([])
    runner.poll_window()
    assert scanned == ["SRS41Y"]


def test_a_name_typed_in_a_focused_text_field_still_goes_through_the_keymap(windowed):
    """Words a person types (a player's name) are read through the keymap: a German
    keyboard's Z is a Z there."""
    runner, scanned = windowed
    runner.simulate = True  # --simulate: a person types codes and /commands, as words
    post(us_scanner_events("SRS41Y", GERMAN))
    runner.poll_window()
    assert scanned == ["SRS41Z"]  # what that person typed on a German keyboard


def test_the_gap_is_kept_by_the_window_only_until_the_scanner_sends_a_terminator():
    stream = KeyStream(ScanEnd("auto", 0.5))
    assert stream_keys(stream, typed("SRS41Y", None), t=0.0) == []
    assert stream.quiet(0.49) == [] and stream.quiet(0.5) == ["SRS41Y"]
    assert stream_keys(stream, typed("SRS41Y"), t=1.0) == ["SRS41Y"]
    assert stream_keys(stream, typed("SRS4", None), t=2.0) == []
    assert stream.due(3.0) is None and stream.quiet(60.0) == []  # a terminator will come
    assert stream_keys(stream, typed("1Y"), t=61.0) == ["SRS41Y"]


# --- where the settings come from: [readers] end and gap, per reader ----------------------


def test_the_silence_gap_and_end_are_set_in_readers_and_per_reader(tmp_path):
    """``[readers] end`` and ``gap`` are the table's (the window's and every keyboard-mode
    reader's); a reader written as a table sets its own, the rest from ``[readers]``."""
    from companion.cli import build_parser
    from companion.core.store import DEFAULT_STORE
    from companion.service import config
    from companion.table.plan import make_plan

    f = tmp_path / "c.toml"
    f.write_text('[readers]\nend = "key"\ngap = 0.3\n'
                 'scanners = [{ reader = "serial:/dev/x@1", gap = 0.8 }, "serial:/dev/y@2",'
                 ' { reader = "serial:/dev/z", end = "gap" }]\n')
    args = build_parser().parse_args(["run", "--config", str(f), "--names", "Ana,Ben", "--headless"])
    cfg = config.apply_to_run(args, str(DEFAULT_STORE))
    plan = make_plan(args, cfg)
    assert plan.scan_end == ScanEnd("key", 0.3)
    assert [r.scan_end(plan.scan_end) for r in plan.readers] == [ScanEnd("key", 0.8), ScanEnd("key", 0.3),
                                                                   ScanEnd("gap", 0.3)]
    args = build_parser().parse_args(["run", "--config", str(f), "--names", "Ana,Ben", "--headless",
                                      "--scan-end", "auto", "--scan-gap", "0.7"])
    assert make_plan(args, config.apply_to_run(args, str(DEFAULT_STORE))).scan_end == ScanEnd("auto", 0.7)


def test_the_default_is_auto_with_a_gap_a_slow_wireless_scanner_passes():
    assert keys.DEFAULT_END == ScanEnd("auto", 0.5) and keys.DEFAULT_END.gap > 0.15


def test_the_window_takes_the_tables_setting(tmp_path):
    from companion.core.clock import SystemClock
    from companion.table.build import open_table
    from companion.table.plan import TablePlan

    plan = TablePlan(game="sugarrr", names=["Ana", "Ben"], options={}, store=str(tmp_path / "t.db"),
                     scan_end=ScanEnd("gap", 0.2))
    with open_table(plan, SystemClock()) as table:
        assert table.runner.window.keys.end == ScanEnd("gap", 0.2)


def test_a_bad_scan_gap_on_the_command_line_is_refused(capsys, tmp_path):
    from companion.cli import main

    assert main(["run", "--headless", "--simulate", "--names", "A,B", "--store", str(tmp_path / "t.db"),
                 "--scan-gap", "0"]) == 2
    assert "--scan-gap is seconds of silence" in capsys.readouterr().err
