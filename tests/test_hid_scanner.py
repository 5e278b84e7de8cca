"""The keyboard-mode (HID) scanner: the key decoder, finding scanners, and the driver run
for real against an emulated evdev device."""

from __future__ import annotations

import logging
import os
import queue
import threading
import time

import pytest
from evdev import InputEvent, ecodes as e

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, DeviceStatus
from companion.devices.emulated.hid import (
    KEYBOARD_CAPABILITIES,
    SCANNER_CAPABILITIES,
    TOUCHSCREEN_CAPABILITIES,
    FakeInputDevice,
    key_events,
)
from companion.devices.scan import hid
from companion.devices.scan.hid import PERMISSION_FIX, UNPLUGGED, HidScanner, KeyDecoder, find_scanners, parse_match
from queue_helpers import WatchedClock, drain, next_status

CODES = ["SRS71M", "SHX02K", "SBL9Q", "SWD3Z7"]
BY_ID = "/dev/input/by-id/usb-Honeywell_Imaging___Mobility_1900_Barcode_Scanner-event-kbd"


def decode(events, decoder=None) -> list:
    decoder = decoder or KeyDecoder()
    return [scan for ev in events for scan in decoder.feed(ev.type, ev.code, ev.value)]


def keys(*pairs) -> list[tuple[int, int, int]]:
    """Raw EV_KEY events from (code, value) pairs."""
    return [(e.EV_KEY, code, value) for code, value in pairs]


def _ev(event_type: int, code: int, value: int) -> InputEvent:
    return InputEvent(0, 0, event_type, code, value)


def feed_raw(decoder: KeyDecoder, events) -> list:
    return [scan for event in events for scan in decoder.feed(*event)]


def stream(codes=CODES, **options) -> list:
    return [ev for code in codes for ev in key_events(code, **options)]


# --- KeyDecoder: pure ---------------------------------------------------------------------


@pytest.mark.parametrize("shift_style", ["left", "right", "held"])
def test_upper_and_lower_case_follow_either_shift_key(shift_style):
    assert decode(key_events("SrS71m Hello WORLD", shift_style=shift_style)) == ["SrS71m Hello WORLD"]


def test_a_shift_released_mid_scan_makes_the_next_letters_lower_case():
    events = keys((e.KEY_RIGHTSHIFT, 1), (e.KEY_A, 1), (e.KEY_A, 0), (e.KEY_RIGHTSHIFT, 0),
                  (e.KEY_A, 1), (e.KEY_A, 0), (e.KEY_ENTER, 1))
    assert feed_raw(KeyDecoder(), events) == ["Aa"]


def test_both_shifts_held_then_one_released_is_still_shifted():
    events = keys((e.KEY_LEFTSHIFT, 1), (e.KEY_RIGHTSHIFT, 1), (e.KEY_LEFTSHIFT, 0), (e.KEY_B, 1),
                  (e.KEY_RIGHTSHIFT, 0), (e.KEY_B, 1), (e.KEY_ENTER, 1))
    assert feed_raw(KeyDecoder(), events) == ["Bb"]


def test_digits_and_every_us_symbol():
    text = "0123456789 !@#$%^&*()-_=+[]{}\\|;:'\",.<>/?`~"
    assert decode(key_events(text)) == [text.strip()]


def test_keypad_keys_type_digits_and_operators():
    assert decode(key_events("0123456789-+./*", keypad=True)) == ["0123456789-+./*"]


def test_a_shifted_keypad_digit_is_a_cursor_key_and_rejects_the_scan():
    events = keys((e.KEY_A, 1), (e.KEY_LEFTSHIFT, 1), (e.KEY_KP5, 1), (e.KEY_LEFTSHIFT, 0), (e.KEY_ENTER, 1))
    assert feed_raw(KeyDecoder(), events) == [None]


@pytest.mark.parametrize("terminator", ["enter", "kpenter", "tab"])
def test_enter_keypad_enter_and_tab_each_end_a_scan(terminator):
    assert decode(stream(terminator=terminator)) == CODES


def test_no_terminator_no_scan_yet():
    decoder = KeyDecoder()
    assert decode(key_events("SRS71M", terminator=None), decoder) == []
    assert feed_raw(decoder, keys((e.KEY_TAB, 1))) == ["SRS71M"]


def test_key_up_adds_nothing():
    assert feed_raw(KeyDecoder(), keys((e.KEY_A, 0), (e.KEY_1, 0), (e.KEY_ENTER, 0), (e.KEY_ENTER, 1))) == []


def test_autorepeat_adds_nothing():
    assert decode(stream(autorepeat=3)) == CODES
    decoder = KeyDecoder()
    assert feed_raw(decoder, keys((e.KEY_A, 1), (e.KEY_A, 2), (e.KEY_A, 2), (e.KEY_ENTER, 2))) == []
    assert feed_raw(decoder, keys((e.KEY_ENTER, 1))) == ["a"]


def test_syn_and_msc_events_are_ignored():
    decoder = KeyDecoder()
    assert decoder.feed(e.EV_SYN, e.SYN_REPORT, 0) == []
    assert decoder.feed(e.EV_MSC, e.MSC_SCAN, 0x70028) == []
    assert decoder.feed(e.EV_LED, e.LED_CAPSL, 1) == []
    assert decode(key_events("SBL9Q"), decoder) == ["SBL9Q"]


@pytest.mark.parametrize("intruder", [e.KEY_F1, e.KEY_ESC, e.KEY_BACKSPACE, e.KEY_102ND, e.BTN_LEFT])
def test_an_unmapped_key_rejects_the_whole_scan(intruder, caplog):
    decoder = KeyDecoder()
    events = key_events("SRS", terminator=None) + [
        *[_ev(e.EV_KEY, intruder, v) for v in (1, 0)], *key_events("71M")]
    with caplog.at_level(logging.WARNING):
        assert decode(events, decoder) == [None]
    assert "scan is rejected" in caplog.text
    assert decode(key_events("SHX02K"), decoder) == ["SHX02K"]  # the next scan is clean


@pytest.mark.parametrize("modifier, key", [(e.KEY_LEFTCTRL, e.KEY_KP6), (e.KEY_RIGHTALT, e.KEY_KP6),
                                           (e.KEY_LEFTALT, e.KEY_A), (e.KEY_LEFTMETA, e.KEY_KP6)])
def test_a_key_with_ctrl_alt_altgr_or_meta_held_rejects_the_scan(modifier, key):
    # (Left Alt over keypad digits is an Alt + keypad code since issue 37: see test_keys.py.)
    events = keys((e.KEY_S, 1), (modifier, 1), (key, 1), (e.KEY_KP5, 1), (modifier, 0), (e.KEY_ENTER, 1))
    assert feed_raw(KeyDecoder(), events) == [None]


def test_an_unmapped_key_before_any_text_still_rejects_the_scan():
    assert feed_raw(KeyDecoder(), keys((e.KEY_F5, 1), (e.KEY_A, 1), (e.KEY_ENTER, 1))) == [None]


def test_numlock_is_ignored_and_capslock_flips_letters_only():
    events = keys((e.KEY_NUMLOCK, 1), (e.KEY_CAPSLOCK, 1), (e.KEY_A, 1), (e.KEY_1, 1), (e.KEY_LEFTSHIFT, 1),
                  (e.KEY_B, 1), (e.KEY_LEFTSHIFT, 0), (e.KEY_CAPSLOCK, 1), (e.KEY_C, 1), (e.KEY_ENTER, 1))
    assert feed_raw(KeyDecoder(), events) == ["A1bc"]


def test_empty_scans_yield_nothing_and_spaces_are_stripped():
    assert decode(key_events("") + key_events("   ") + key_events("  SBL9Q ")) == ["SBL9Q"]


def test_scan_of_exactly_max_length_is_kept_and_one_more_is_discarded_as_one_garbled_read(caplog):
    decoder = KeyDecoder(max_length=6)
    assert decode(key_events("SRS71M"), decoder) == ["SRS71M"]
    with caplog.at_level(logging.WARNING):
        assert decode(key_events("SRS71MX" + "Y" * 20), decoder) == [None]
    assert "longer than 6" in caplog.text
    assert decode(key_events("SBL9Q"), decoder) == ["SBL9Q"]


def test_default_max_length_is_64():
    assert decode(key_events("A" * 64) + key_events("B" * 65) + key_events("C")) == ["A" * 64, None, "C"]


def test_reset_drops_a_partial_scan_and_held_shift():
    decoder = KeyDecoder()
    feed_raw(decoder, keys((e.KEY_LEFTSHIFT, 1), (e.KEY_X, 1)))
    decoder.reset()
    assert feed_raw(decoder, keys((e.KEY_Y, 1), (e.KEY_ENTER, 1))) == ["y"]


def test_us_layout_whatever_the_locale(monkeypatch):
    for name, value in {"LANG": "de_DE.UTF-8", "LC_ALL": "fr_FR.UTF-8", "XKB_DEFAULT_LAYOUT": "de"}.items():
        monkeypatch.setenv(name, value)
    assert feed_raw(KeyDecoder(), keys((e.KEY_Y, 1), (e.KEY_Z, 1), (e.KEY_Q, 1), (e.KEY_A, 1), (e.KEY_ENTER, 1))) == ["yzqa"]


def test_every_single_and_double_split_of_the_event_stream_gives_the_same_scans():
    events = stream(["SRS71M", "sh", "12"], shift_style="held", keypad=True, autorepeat=1)
    n = len(events)
    for i in range(n + 1):
        for j in range(i, n + 1):
            decoder = KeyDecoder()
            scans = decode(events[:i], decoder) + decode(events[i:j], decoder) + decode(events[j:], decoder)
            assert scans == ["SRS71M", "sh", "12"], (i, j)


def test_key_events_sends_scan_codes_and_syn_reports_like_a_boot_keyboard():
    events = key_events("A", terminator=None)
    assert [(ev.type, ev.code, ev.value) for ev in events] == [
        (e.EV_MSC, e.MSC_SCAN, 0x700E1), (e.EV_KEY, e.KEY_LEFTSHIFT, 1),
        (e.EV_MSC, e.MSC_SCAN, 0x70004), (e.EV_KEY, e.KEY_A, 1), (e.EV_SYN, e.SYN_REPORT, 0),
        (e.EV_MSC, e.MSC_SCAN, 0x700E1), (e.EV_KEY, e.KEY_LEFTSHIFT, 0),
        (e.EV_MSC, e.MSC_SCAN, 0x70004), (e.EV_KEY, e.KEY_A, 0), (e.EV_SYN, e.SYN_REPORT, 0)]
    with pytest.raises(ValueError, match="no key on a US keyboard"):
        key_events("é")


# --- find_scanners --------------------------------------------------------------------------


@pytest.fixture
def dev_input(tmp_path):
    """A fake /dev/input: event nodes, by-id and by-path links, and an opener over fakes."""
    root = tmp_path / "input"
    (root / "by-id").mkdir(parents=True)
    (root / "by-path").mkdir()
    fakes: dict[str, FakeInputDevice] = {}

    def add(n, by_id=None, by_path=None, **device):
        node = root / f"event{n}"
        node.touch()
        for folder, link in (("by-id", by_id), ("by-path", by_path)):
            if link:
                os.symlink(f"../event{n}", root / folder / link)
        fakes[str(node)] = FakeInputDevice(str(node), **device)
        return fakes[str(node)]

    def opener(path):
        fake = fakes[os.path.realpath(path)]
        return fake.open(fake.path)

    return root, add, opener


def test_find_scanners_picks_the_scanner_and_skips_the_touchscreen_and_the_keyboard(dev_input):
    root, add, opener = dev_input
    add(0, by_path="platform-fe204000.i2c-event", name="10-0038 generic ft5x06 (79)",
        capabilities=TOUCHSCREEN_CAPABILITIES)
    add(1, by_id="usb-ILITEK_Multi-Touch-V5100-if01-event-kbd", name="ILITEK Multi-Touch-V5100",
        capabilities=TOUCHSCREEN_CAPABILITIES | {e.EV_KEY: SCANNER_CAPABILITIES[e.EV_KEY]})
    add(2, by_id="usb-Logitech_USB_Keyboard-event-kbd", by_path="platform-xhci-hcd.0-usb-0:1.1:1.0-event-kbd",
        name="Logitech USB Keyboard", capabilities=KEYBOARD_CAPABILITIES)
    add(3, by_id="usb-Honeywell_Imaging___Mobility_1900_Barcode_Scanner-event-kbd",
        by_path="platform-xhci-hcd.0-usb-0:1.2:1.0-event-kbd")
    found = find_scanners(str(root / "by-id"), str(root / "by-path"), opener=opener)
    assert found == [str(root / "by-id" / "usb-Honeywell_Imaging___Mobility_1900_Barcode_Scanner-event-kbd")]


def test_a_scanner_with_no_by_id_link_is_found_by_path_and_never_by_event_number(dev_input):
    root, add, opener = dev_input
    add(4, by_path="platform-xhci-hcd.0-usb-0:1.4:1.0-event-kbd", name="USB Adapter USB Device")
    found = find_scanners(str(root / "by-id"), str(root / "by-path"), opener=opener)
    assert found == [str(root / "by-path" / "platform-xhci-hcd.0-usb-0:1.4:1.0-event-kbd")]
    assert not any(os.path.basename(path).startswith("event") for path in found)


def test_a_scanner_named_so_is_taken_even_if_it_declares_a_full_keyboard(dev_input):
    root, add, opener = dev_input
    add(5, by_id="usb-NETUM_NT-1228BL-event-kbd", name="NETUM Wireless", capabilities=KEYBOARD_CAPABILITIES)
    assert find_scanners(str(root / "by-id"), str(root / "by-path"), opener=opener) == [
        str(root / "by-id" / "usb-NETUM_NT-1228BL-event-kbd")]


def test_a_nameless_scanner_that_looks_like_a_keyboard_needs_its_usb_id_in_config(dev_input):
    root, add, opener = dev_input
    add(2, by_id="usb-Logitech_USB_Keyboard-event-kbd", name="Logitech USB Keyboard",
        vendor=0x046D, product=0xC31C, capabilities=KEYBOARD_CAPABILITIES)
    add(6, by_id="usb-SM_SM-2D_PRODUCT_HID_KBW_APP-000000000-event-kbd", name="SM SM-2D PRODUCT HID KBW",
        vendor=0x0483, product=0x0011, capabilities=KEYBOARD_CAPABILITIES)
    add(7, by_path="platform-fe204000.i2c-event", capabilities=TOUCHSCREEN_CAPABILITIES, vendor=0x0483,
        product=0x0011)
    dirs = (str(root / "by-id"), str(root / "by-path"))
    assert find_scanners(*dirs, opener=opener) == []
    assert find_scanners(*dirs, match="0483:0011", opener=opener) == [
        str(root / "by-id" / "usb-SM_SM-2D_PRODUCT_HID_KBW_APP-000000000-event-kbd")]
    assert find_scanners(*dirs, match="046d:c31c", opener=opener) == [
        str(root / "by-id" / "usb-Logitech_USB_Keyboard-event-kbd")]  # config wins


def test_a_scanner_we_may_not_open_is_still_found_by_its_name(dev_input):
    root, add, opener = dev_input
    add(3, by_id="usb-Zebra_Technologies_Symbol_Bar_Code_Scanner-event-kbd").denied = True
    add(2, by_id="usb-Logitech_USB_Keyboard-event-kbd", capabilities=KEYBOARD_CAPABILITIES).denied = True
    assert find_scanners(str(root / "by-id"), str(root / "by-path"), opener=opener) == [
        str(root / "by-id" / "usb-Zebra_Technologies_Symbol_Bar_Code_Scanner-event-kbd")]


def test_find_scanners_with_no_dev_input_finds_nothing(tmp_path):
    assert find_scanners(str(tmp_path / "none"), str(tmp_path / "nada")) == []


def test_find_scanners_closes_what_it_opened(dev_input):
    root, add, opener = dev_input
    fake = add(3, by_id="usb-Honeywell_Barcode_Scanner-event-kbd")
    find_scanners(str(root / "by-id"), str(root / "by-path"), opener=opener)
    assert fake.opens == 1 and fake.fd == -1 and not fake.grabbed


@pytest.mark.parametrize("bad", ["0c2e", "0c2e:0b61:1", "xyz:0b61", "10000:1", ""])
def test_a_malformed_match_says_what_is_expected(bad):
    with pytest.raises(ValueError, match="vendor:product in hex"):
        parse_match(bad)
    assert parse_match("0C2E:0b61") == (0x0C2E, 0x0B61)


# --- HidScanner against the emulated device ---------------------------------------------------



def send_and_collect(fake: FakeInputDevice, scanner: HidScanner, q: queue.Queue, events) -> list:
    target = scanner.events_read + len(events)
    fake.send(events)
    assert scanner.wait_for_events(target, timeout=2.0)
    return drain(q)


def codes(items) -> list:
    return [item.code for item in items if isinstance(item, CardScanned)]


@pytest.fixture
def clock():
    return FakeClock(100.0)


@pytest.fixture
def mono():
    """The reader's monotonic clock: it stands still unless a test moves it, so no idle
    gap ends a scan because the machine was slow."""
    return WatchedClock(0.0)


class CountedOpener:
    """An opener that counts its calls (the failed ones too), so a test waits for the
    reader's reopens instead of sleeping through them."""

    def __init__(self, open_):
        self._open, self.calls, self._called = open_, 0, threading.Condition()

    def __call__(self, path: str):
        with self._called:
            self.calls += 1
            self._called.notify_all()
        return self._open(path)

    def wait_more(self, more: int, timeout: float = 3.0) -> bool:
        """Block until ``more`` further calls began; the one before the last has ended then."""
        with self._called:
            target = self.calls + more
            return self._called.wait_for(lambda: self.calls >= target, timeout)


@pytest.fixture
def quick_retries(monkeypatch):
    """The reader's real wait between reopens, 0.5 s, cut to 0.02 s: a test waits for
    several reopens (counted, :class:`CountedOpener`), not for the seconds between them."""
    monkeypatch.setattr(hid, "_RETRY_PERIOD", 0.02)


@pytest.fixture
def rig(clock, mono):
    """A plugged-in emulated scanner and a started driver, its "connected" status consumed."""
    q: queue.Queue = queue.Queue()
    fake = FakeInputDevice(BY_ID)
    scanner = HidScanner(BY_ID, q, clock, name="left", seat=2, opener=CountedOpener(fake.open), monotonic=mono.now)
    scanner.start()
    assert q.get(timeout=2.0) == DeviceStatus("left", "connected", 100.0)
    try:
        yield fake, scanner, q
    finally:
        scanner.stop()


def test_each_scan_is_one_card_scanned_with_reader_seat_and_time(rig, clock):
    fake, scanner, q = rig
    clock.set(105.5)
    assert send_and_collect(fake, scanner, q, stream()) == [
        CardScanned(code, reader="left", t=105.5, seat=2) for code in CODES]


def test_the_device_is_grabbed_so_scans_never_reach_the_console(rig):
    fake, scanner, q = rig
    assert fake.grabbed and fake.grabs == 1 and scanner.connected


def test_grab_can_be_turned_off(clock):
    q: queue.Queue = queue.Queue()
    fake = FakeInputDevice(BY_ID)
    scanner = HidScanner(BY_ID, q, clock, opener=fake.open, grab=False)
    scanner.start()
    try:
        next_status(q, "connected")
        assert not fake.grabbed and fake.grabs == 0
    finally:
        scanner.stop()


def test_a_rejected_scan_arrives_with_no_code(rig):
    fake, scanner, q = rig
    events = key_events("SR", terminator=None) + [_ev(e.EV_KEY, e.KEY_F2, 1), _ev(e.EV_KEY, e.KEY_F2, 0)]
    assert codes(send_and_collect(fake, scanner, q, events + key_events("S71M") + key_events("SBL9Q"))) == [
        None, "SBL9Q"]


def test_the_event_stream_split_at_every_point_across_reads_gives_the_same_scans(rig):
    fake, scanner, q = rig
    events = stream(CODES[:2], shift_style="held", autorepeat=1)
    for i in range(len(events) + 1):
        first = send_and_collect(fake, scanner, q, events[:i])
        assert codes(first + send_and_collect(fake, scanner, q, events[i:])) == CODES[:2], i


def test_unplug_mid_scan_then_replug_drops_the_partial_scan(rig, clock):
    fake, scanner, q = rig
    partial = key_events("SHX02K")[:14]  # S, H and the Shift around them, no terminator
    assert codes(send_and_collect(fake, scanner, q, key_events("SRS71M") + partial)) == ["SRS71M"]
    clock.set(110.0)
    fake.unplug()
    gone = next_status(q, "disconnected", timeout=1.0)
    assert gone == DeviceStatus("left", "disconnected", 110.0, UNPLUGGED)
    assert scanner.running and not fake.grabbed
    fake.scan("LOST")  # sent while unplugged: nobody hears it
    fake.plug()
    next_status(q, "connected")
    assert fake.grabbed and fake.grabs == 2
    assert codes(send_and_collect(fake, scanner, q, key_events("SBL9Q"))) == ["SBL9Q"]  # never "SHSBL9Q"


def test_unplugged_for_a_while_reports_once_and_reattaches(rig, quick_retries):
    fake, scanner, q = rig
    fake.unplug()
    next_status(q, "disconnected")
    assert scanner._opener.wait_more(3)  # two or three failed reopens
    assert drain(q) == []
    fake.plug()
    next_status(q, "connected")


def test_permission_denied_logs_the_fix_once_and_keeps_retrying(clock, caplog, quick_retries):
    q: queue.Queue = queue.Queue()
    fake = FakeInputDevice(BY_ID)
    fake.denied = True
    opener = CountedOpener(fake.open)
    scanner = HidScanner(BY_ID, q, clock, opener=opener)
    with caplog.at_level(logging.WARNING, logger="companion.devices.scan.hid"):
        scanner.start()
        try:
            status = next_status(q, "disconnected")
            assert "permission denied" in status.detail
            assert opener.wait_more(3)  # a few more refused opens
            assert caplog.text.count(PERMISSION_FIX) == 1
            assert drain(q) == []
            fake.denied = False
            next_status(q, "connected")
            assert codes(send_and_collect(fake, scanner, q, key_events("SWD3Z7"))) == ["SWD3Z7"]
        finally:
            scanner.stop()


def test_a_scanner_missing_at_start_is_picked_up_when_plugged_in(clock):
    q: queue.Queue = queue.Queue()
    fake = FakeInputDevice(BY_ID)
    fake.unplug()
    scanner = HidScanner(BY_ID, q, clock, opener=fake.open)
    scanner.start()
    try:
        assert "no scanner found" in next_status(q, "disconnected").detail
        fake.plug()
        next_status(q, "connected")
        assert codes(send_and_collect(fake, scanner, q, key_events("SBL9Q", terminator="kpenter"))) == ["SBL9Q"]
    finally:
        scanner.stop()


def test_a_scanner_grabbed_by_another_program_is_retried(clock):
    q: queue.Queue = queue.Queue()
    fake = FakeInputDevice(BY_ID)
    fake.grabbed_elsewhere = True
    scanner = HidScanner(BY_ID, q, clock, opener=fake.open)
    scanner.start()
    try:
        assert "another program" in next_status(q, "disconnected").detail
        fake.grabbed_elsewhere = False
        next_status(q, "connected")
        assert fake.grabbed
    finally:
        scanner.stop()


def test_wait_for_events_times_out_with_false(rig):
    fake, scanner, q = rig
    assert not scanner.wait_for_events(scanner.events_read + 1, timeout=0.05)


def test_stop_is_prompt_and_idempotent(rig):
    fake, scanner, q = rig
    started = time.monotonic()
    scanner.stop()
    assert time.monotonic() - started < 0.3
    assert not scanner.running and not scanner.connected
    assert fake.fd == -1 and not fake.grabbed
    scanner.stop()
    with pytest.raises(RuntimeError, match="create a new one"):
        scanner.start()


def test_stop_while_waiting_to_reattach_is_prompt(clock):
    q: queue.Queue = queue.Queue()
    fake = FakeInputDevice(BY_ID)
    fake.unplug()
    scanner = HidScanner(BY_ID, q, clock, opener=fake.open)
    scanner.start()
    next_status(q, "disconnected")
    started = time.monotonic()
    scanner.stop()
    assert time.monotonic() - started < 0.3 and not scanner.running


def test_stop_before_start_is_harmless(clock):
    HidScanner(BY_ID, queue.Queue(), clock, opener=FakeInputDevice(BY_ID).open).stop()


# --- never grab the wrong device ----------------------------------------------------------

BY_PATH = "/dev/input/by-path/platform-xhci-hcd.0-usb-0:1.3:1.0-event-kbd"


class Port:
    """A USB port behind a by-path link: whatever device is plugged in answers there."""

    def __init__(self, device: FakeInputDevice):
        self.device = device

    def swap(self, device: FakeInputDevice) -> None:
        self.device.unplug()
        self.device = device

    def open(self, path: str) -> FakeInputDevice:
        return self.device.open(path)


@pytest.mark.parametrize("intruder", [
    dict(name="Dell KB216 Wired Keyboard", vendor=0x413C, product=0x2113, capabilities=KEYBOARD_CAPABILITIES),
    dict(name="ILITEK Multi-Touch", vendor=0x222A, product=0x0001, capabilities=TOUCHSCREEN_CAPABILITIES),
], ids=["keyboard", "touchscreen"])
def test_a_keyboard_or_touchscreen_plugged_into_the_scanners_port_is_refused_not_grabbed(clock, intruder,
                                                                                       quick_retries):
    q: queue.Queue = queue.Queue()
    scanner_dev = FakeInputDevice(BY_PATH, name="USB HID Keyboard Barcode Scanner")
    port = Port(scanner_dev)
    opener = CountedOpener(port.open)
    reader = HidScanner(BY_PATH, q, clock, opener=opener)
    reader.start()
    try:
        next_status(q, "connected")
        other = FakeInputDevice(BY_PATH, **intruder)
        port.swap(other)  # unplug the scanner, plug the keyboard or touchscreen into that port
        next_status(q, "disconnected")
        refused = next_status(q, "refused")
        assert intruder["name"] in refused.detail and "left alone" in refused.detail
        assert opener.wait_more(3)  # several reopens: each one refused, reported once, never grabbed
        assert other.grabs == 0 and not other.grabbed
        assert drain(q) == []
        other.unplug()
        scanner_dev.plug()
        port.device = scanner_dev  # the scanner is back in its port
        next_status(q, "connected")
        assert scanner_dev.grabbed
    finally:
        reader.stop()


def test_a_device_opened_at_start_is_checked_too(clock):
    q: queue.Queue = queue.Queue()
    keyboard = FakeInputDevice(BY_PATH, name="Dell KB216 Wired Keyboard", capabilities=KEYBOARD_CAPABILITIES)
    reader = HidScanner(BY_PATH, q, clock, opener=keyboard.open)
    reader.start()
    try:
        assert "looks like a keyboard" in next_status(q, "refused").detail
        assert keyboard.grabs == 0
    finally:
        reader.stop()


def test_with_a_usb_id_only_that_device_is_taken(clock):
    q: queue.Queue = queue.Queue()
    keyboard_like_scanner = FakeInputDevice(BY_PATH, name="USB Keyboard", vendor=0x1EAB, product=0x0D10,
                                            capabilities=KEYBOARD_CAPABILITIES)
    reader = HidScanner(BY_PATH, q, clock, opener=keyboard_like_scanner.open, match="1eab:0d10")
    reader.start()
    try:
        next_status(q, "connected")
    finally:
        reader.stop()
    other = FakeInputDevice(BY_PATH, name="Netum Barcode Scanner", vendor=0x0C2E, product=0x0B61)
    reader = HidScanner(BY_PATH, q, clock, opener=other.open, match="1eab:0d10")
    reader.start()
    try:
        assert "not the scanner 1eab:0d10" in next_status(q, "refused").detail
    finally:
        reader.stop()


def test_a_scan_with_no_terminator_ends_when_the_scanner_goes_quiet(rig, mono):
    """The idle gap (0.5 s by default since issue 37, was 0.1 s) is measured on the
    reader's monotonic clock: real time passing ends nothing, 0.49 s of silence is not the
    gap, 0.5 s is."""
    fake, scanner, q = rig
    events = key_events("SRS71M", terminator=None)
    fake.send(events)
    assert scanner.wait_for_events(len(events))  # every key read at 0.0 on the reader's clock
    assert mono.wait_looked(4)  # the reader went round its loop twice in real time, and decided
    assert codes(drain(q)) == []
    mono.advance(0.49)
    assert mono.wait_looked(4)
    assert codes(drain(q)) == []
    mono.set(0.5)  # exactly the idle gap after the last key
    assert q.get(timeout=2.0) == CardScanned("SRS71M", reader="left", t=100.0, seat=2)
    assert drain(q) == []


def _send_quietly(fake, scanner, mono, events, gap: bool = True) -> None:
    """Send ``events`` and, where a gap is in force (``gap``), let the reader look at its
    clock: it has decided on them. (With none it never looks: nothing silence could end.)"""
    total = scanner.events_read + len(events)
    fake.send(events)
    assert scanner.wait_for_events(total)
    assert not gap or mono.wait_looked(4)


def _one_more_turn(fake, scanner) -> None:
    """A report with no key, so the reader goes round its loop once more."""
    total = scanner.events_read + 1
    fake.send([_ev(e.EV_SYN, e.SYN_REPORT, 0)])
    assert scanner.wait_for_events(total)


def test_a_slow_wireless_scanner_pausing_inside_a_label_is_one_scan(rig, mono):
    """Issue 37: a 2.4 GHz dongle pausing 150 ms inside one label was split by the 0.1 s
    gap into two garbled scans. The scanner sends Enter: its label is one scan."""
    fake, scanner, q = rig
    _send_quietly(fake, scanner, mono, key_events("SRS4", terminator=None))
    mono.advance(0.15)  # the dongle's pause
    mono.wait_looked(4)  # (the old 0.1 s gap ended the scan here, and the reader stopped looking)
    assert codes(drain(q)) == []
    fake.send(key_events("1Y"))
    assert q.get(timeout=2.0).code == "SRS41Y"
    assert drain(q) == []


def test_once_a_scanner_has_sent_its_terminator_silence_never_ends_its_scan(rig, mono):
    """The silence gap applies only to a scanner that sends no terminator: after its
    first Enter, a label with a long pause inside is still one scan."""
    fake, scanner, q = rig
    fake.send(key_events("SHX02K"))
    assert q.get(timeout=2.0).code == "SHX02K"
    _send_quietly(fake, scanner, mono, key_events("SRS4", terminator=None), gap=False)
    mono.advance(5.0)
    time.sleep(0.3)  # real time for a reader that still kept a gap to look at its clock, and end the scan
    assert codes(drain(q)) == [] and scanner._decoder.pending and scanner._idle_gap() is None
    fake.send(key_events("1Y", terminator="tab"))
    assert q.get(timeout=2.0).code == "SRS41Y"


@pytest.mark.parametrize("end, gap", [("gap", 0.3), ("key", 0.3), ("auto", 0.4)])
def test_the_silence_gap_is_set_per_reader(clock, mono, end, gap):
    """``end = "gap"``: the scanner sends no terminator, the gap ends every scan even after
    an Enter; ``"key"``: only a terminator ends a scan; ``gap`` sets the silence."""
    from companion.devices.scan.keys import ScanEnd

    q: queue.Queue = queue.Queue()
    fake = FakeInputDevice(BY_ID)
    scanner = HidScanner(BY_ID, q, clock, opener=fake.open, monotonic=mono.now, end=ScanEnd(end, gap))
    scanner.start()
    try:
        assert q.get(timeout=2.0).status == "connected"
        if end != "auto":
            fake.send(key_events("SHX02K"))
            assert q.get(timeout=2.0).code == "SHX02K"
        _send_quietly(fake, scanner, mono, key_events("SRS41Y", terminator=None), gap=end != "key")
        mono.advance(gap - 0.01)
        assert end == "key" or mono.wait_looked(4)
        assert codes(drain(q)) == []
        mono.advance(0.01)
        if end == "key":
            _one_more_turn(fake, scanner)
            assert codes(drain(q)) == [] and scanner._decoder.pending
        else:
            assert q.get(timeout=2.0).code == "SRS41Y"
    finally:
        scanner.stop()


def test_a_bug_in_the_decoder_is_reported_and_the_reader_carries_on(rig, monkeypatch, caplog):
    fake, scanner, q = rig
    real_feed, calls = scanner._decoder.feed, []

    def feed_once_broken(*event):
        calls.append(event)
        if len(calls) == 1:
            raise RuntimeError("decoder bug")
        return real_feed(*event)

    monkeypatch.setattr(scanner._decoder, "feed", feed_once_broken)
    with caplog.at_level(logging.ERROR):
        fake.send(key_events("X"))
        assert "decoder bug" in next_status(q, "disconnected").detail
    next_status(q, "connected")  # the thread runs again and reopens the device
    assert scanner.running
    assert codes(send_and_collect(fake, scanner, q, key_events("SBL9Q"))) == ["SBL9Q"]


# --- SYN_DROPPED: the kernel's buffer overran while the reader stalled ------------------------


def _syn(code: int) -> tuple[int, int, int]:
    return (e.EV_SYN, code, 0)


def test_an_overrun_never_joins_the_halves_of_two_scans_into_a_third_card(caplog):
    """The head of one label, an overrun (its tail, its Enter and the head of the next
    label lost), the next label's tail: joined they spell a real card nobody scanned.
    The cut scan is dropped and said (None: scan again), and the next whole scan reads."""
    real = "SRS71M"  # a valid code: what the two halves would spell
    events = [(ev.type, ev.code, ev.value) for ev in key_events(real[:3], terminator=None)]
    events += [_syn(e.SYN_DROPPED), _syn(e.SYN_REPORT)]  # the kernel: the events lost, then a report
    events += [(ev.type, ev.code, ev.value) for ev in key_events(real[3:])]
    decoder = KeyDecoder()
    with caplog.at_level(logging.WARNING):
        assert feed_raw(decoder, events) == [None]
    assert "SYN_DROPPED" in caplog.text and decoder.overruns == 1
    assert decode(key_events("SBL9Q"), decoder) == ["SBL9Q"]


def test_an_overrun_between_scans_drops_the_next_one_whose_start_may_be_lost():
    decoder = KeyDecoder()
    assert decode(key_events("SRS71M"), decoder) == ["SRS71M"]
    assert feed_raw(decoder, [_syn(e.SYN_DROPPED), _syn(e.SYN_REPORT)]) == [None]
    assert decode(key_events("S71M"), decoder) == []  # a tail: dropped
    assert decode(key_events("SRS71M"), decoder) == ["SRS71M"]


def test_a_held_shift_whose_release_was_lost_is_forgotten_after_an_overrun():
    decoder = KeyDecoder()
    feed_raw(decoder, keys((e.KEY_LEFTSHIFT, 1)))
    feed_raw(decoder, [_syn(e.SYN_DROPPED), _syn(e.SYN_REPORT)] + keys((e.KEY_ENTER, 1)))
    assert feed_raw(decoder, keys((e.KEY_A, 1), (e.KEY_ENTER, 1))) == ["a"]


def test_a_stalled_reader_overrun_by_the_kernel_buffer_accepts_no_joined_card(clock, mono):
    """The driver for real against an emulated device whose 64-event buffer overruns
    while the reader thread is stalled (deterministically: held inside its first event)."""
    q: queue.Queue = queue.Queue()
    fake = FakeInputDevice(BY_ID)
    fake.buffer_size = 64  # the kernel's smallest evdev client buffer (EVDEV_MIN_BUFFER_SIZE)
    scanner = HidScanner(BY_ID, q, clock, name="left", opener=fake.open, monotonic=mono.now)
    stalled, release = threading.Event(), threading.Event()
    consume = scanner._consume

    def stall_once(*event):
        if not stalled.is_set():
            stalled.set()
            release.wait(5.0)
        consume(*event)

    scanner._consume = stall_once
    scanner.start()
    try:
        assert q.get(timeout=2.0).status == "connected"
        sent = ["SRS71M", "SHX02K", "SDC310"]
        fake.send(key_events(sent[0]))
        assert stalled.wait(2.0)
        fake.send(key_events(sent[1]) + key_events(sent[2]))  # overruns the 64-event buffer
        assert fake.overruns >= 1
        release.set()
        deadline = time.monotonic() + 3.0  # the overrun's leftovers read, and the scanner quiet:
        while (fake.pending or scanner._decoder.pending) and time.monotonic() < deadline:
            mono.advance(0.1)              # the dropping ends (the idle gap passes on the reader's
            time.sleep(0.01)               # clock; the sleep only lets the thread run)
        fake.send(key_events("SBL9Q"))
        deadline = time.monotonic() + 3.0
        got = []
        while "SBL9Q" not in got and time.monotonic() < deadline:
            try:
                item = q.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(item, CardScanned):
                got.append(item.code)
        assert got and got[-1] == "SBL9Q" and None in got, got  # the cut scan is said, the next one reads
        assert all(code is None or code in sent + ["SBL9Q"] for code in got), got
    finally:
        release.set()
        scanner.stop()


# --- hid:auto ------------------------------------------------------------------------------


def test_hid_auto_never_grabs_a_keyboard_with_no_leds_and_no_f_keys(dev_input):
    """The report: hid:auto took the first device by name, a small keyboard that reports
    no LEDs and no F-keys (what a scanner looks like). It takes the device named as a
    scanner, and a lookalike alone is left alone with the fix."""
    from companion.devices.scan.hid import auto_scanner

    root, add, opener = dev_input
    add(1, by_id="usb-Acme_Mini_Keyboard-event-kbd", name="Acme Mini Keyboard", capabilities=SCANNER_CAPABILITIES)
    dirs = (str(root / "by-id"), str(root / "by-path"))
    with pytest.raises(LookupError, match="hid:VVVV:PPPP"):
        auto_scanner(*dirs, opener=opener)
    add(2, by_id="usb-Zebra_DS2208-event-kbd", name="Zebra DS2208", capabilities=SCANNER_CAPABILITIES)
    assert auto_scanner(*dirs, opener=opener) == str(root / "by-id" / "usb-Zebra_DS2208-event-kbd")
    add(3, by_id="usb-Honeywell_1900-event-kbd", name="Honeywell 1900 Barcode Scanner",
        capabilities=SCANNER_CAPABILITIES)
    with pytest.raises(LookupError, match="several scanners"):
        auto_scanner(*dirs, opener=opener)


def test_hid_auto_with_nothing_plugged_in_says_so(tmp_path):
    from companion.devices.scan.hid import auto_scanner

    with pytest.raises(LookupError, match="no keyboard-mode scanner"):
        auto_scanner(str(tmp_path / "by-id"), str(tmp_path / "by-path"))


def test_resolve_hid_auto_uses_auto_scanner(monkeypatch):
    from companion.devices import readers
    from companion.devices.scan import hid

    monkeypatch.setattr(hid, "auto_scanner", lambda: "/dev/input/by-id/usb-Zebra-event-kbd")
    spec = readers.resolve(readers.ReaderSpec("hid", "auto", 2))
    assert spec.path == "/dev/input/by-id/usb-Zebra-event-kbd" and spec.seat == 2
