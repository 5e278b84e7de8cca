"""Bluetooth keyboard-mode scanners (issue 37, part C): no /dev/input/by-id link, so they
are named by their evdev name or uniq (``hid:name:TEXT``, ``hid:uniq:ID``), looked for
again among /dev/input/event* at every open (a new eventN at every reconnect); and
``companion doctor`` lists the keyboard-like input devices it sees by name. Fake evdev
devices throughout; the real driver runs against them."""

from __future__ import annotations

import errno
import queue
from pathlib import Path

import pytest
from evdev import ecodes as e

from companion.core.clock import FakeClock
from companion.devices.emulated.hid import KEYBOARD_CAPABILITIES, SCANNER_CAPABILITIES, FakeInputDevice
from companion.devices.readers import parse_reader, resolve
from companion.devices.scan.hid import HidScanner, auto_scanner
from companion.devices.scan.identity import DeviceMatch, find_by_identity, parse_identity
from queue_helpers import next_status

NAME = "Inateck BCST-70"
UNIQ = "AA:BB:CC:DD:EE:0F"
CONSUMER = {e.EV_SYN: [e.SYN_REPORT, e.EV_KEY], e.EV_KEY: [e.KEY_VOLUMEUP, e.KEY_VOLUMEDOWN, e.KEY_MUTE]}


class InputDir:
    """/dev/input with fake evdev devices at eventN (a real folder holding their names,
    and the opener that opens them)."""

    def __init__(self, root: Path):
        self.root = root
        self.devices: dict[str, FakeInputDevice] = {}

    def add(self, n: int, name: str, **kw) -> FakeInputDevice:
        path = str(self.root / f"event{n}")
        Path(path).touch()
        self.devices[path] = FakeInputDevice(path, name=name, **kw)
        return self.devices[path]

    def remove(self, n: int) -> None:
        path = str(self.root / f"event{n}")
        Path(path).unlink()
        self.devices.pop(path).unplug()

    def open(self, path: str):
        if path not in self.devices:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        return self.devices[path].open(path)


@pytest.fixture
def inputs(tmp_path):
    folder = InputDir(tmp_path)
    folder.add(3, "Dell KB216 Wired Keyboard", capabilities=KEYBOARD_CAPABILITIES)
    folder.add(7, NAME, uniq=UNIQ, bustype=e.BUS_BLUETOOTH, vendor=0, product=0)
    folder.add(8, NAME + " Consumer Control", uniq=UNIQ, bustype=e.BUS_BLUETOOTH, capabilities=CONSUMER)
    return folder


def reader(inputs, match: str, q: queue.Queue) -> HidScanner:
    return HidScanner(match, q, FakeClock(100.0), name="bt", opener=inputs.open, match=match,
                      input_dir=str(inputs.root))


@pytest.mark.parametrize("match", ["name:inateck bcst", f"uniq:{UNIQ.lower()}", f"name:{NAME}"])
def test_a_bluetooth_scanner_is_found_by_its_name_or_uniq_and_read(inputs, match):
    """Of the devices the scanner makes, only the one with a scanner's keys is taken (not
    its "Consumer Control"), never the keyboard beside it."""
    assert find_by_identity(parse_identity(match), str(inputs.root), inputs.open) == [str(inputs.root / "event7")]
    q: queue.Queue = queue.Queue()
    scanner = reader(inputs, match, q)
    scanner.start()
    try:
        assert next_status(q, "connected")
        inputs.devices[str(inputs.root / "event7")].scan("SRS41Y")
        assert q.get(timeout=2.0).code == "SRS41Y"
        assert inputs.devices[str(inputs.root / "event7")].grabbed
        assert not inputs.devices[str(inputs.root / "event3")].grabbed
    finally:
        scanner.stop()


def test_a_bluetooth_scanner_asleep_at_the_start_is_waited_for_and_found_again_at_a_new_event_number(inputs):
    inputs.remove(7)
    inputs.remove(8)
    q: queue.Queue = queue.Queue()
    scanner = reader(inputs, f"name:{NAME}", q)
    scanner.start()
    try:
        status = next_status(q, "disconnected")
        assert f"no scanner named {NAME!r} is connected" in status.detail
        woken = inputs.add(12, NAME, uniq=UNIQ, bustype=e.BUS_BLUETOOTH)
        assert next_status(q, "connected")
        woken.scan("SRS42W")
        assert q.get(timeout=2.0).code == "SRS42W"
        inputs.remove(12)  # it sleeps again ...
        assert "scan once to wake it" in next_status(q, "disconnected").detail
        again = inputs.add(13, NAME, uniq=UNIQ, bustype=e.BUS_BLUETOOTH)  # ... and comes back as event13
        assert next_status(q, "connected")
        again.scan("SRS51U")
        assert q.get(timeout=2.0).code == "SRS51U"
    finally:
        scanner.stop()


def test_two_devices_with_the_name_are_not_guessed_between(inputs):
    inputs.add(9, NAME + " (2)", capabilities=SCANNER_CAPABILITIES)
    q: queue.Queue = queue.Queue()
    scanner = reader(inputs, "name:inateck", q)
    scanner.start()
    try:
        assert "several devices named 'inateck'" in next_status(q, "disconnected").detail
        assert not any(device.grabbed for device in inputs.devices.values())
    finally:
        scanner.stop()


def test_a_name_or_uniq_is_a_reader_spec_that_needs_no_device_at_the_start():
    spec = resolve(parse_reader("hid:name:Inateck BCST-70@2"))
    assert (spec.path, spec.match, spec.seat) == ("name:Inateck BCST-70", "name:Inateck BCST-70", 2)
    assert resolve(parse_reader(f"hid:uniq:{UNIQ}")).match == f"uniq:{UNIQ}"
    with pytest.raises(ValueError, match="needs the text to look for"):
        resolve(parse_reader("hid:name: "))


def test_uniq_must_match_whole_and_name_in_part():
    class Device:
        name, uniq = NAME, UNIQ

    assert DeviceMatch("name", "bcst").matches(Device) and not DeviceMatch("uniq", UNIQ[:-1]).matches(Device)


def test_hid_auto_with_nothing_found_says_how_to_name_a_bluetooth_scanner(tmp_path):
    with pytest.raises(LookupError, match="hid:name:TEXT"):
        auto_scanner(str(tmp_path / "by-id"), str(tmp_path / "by-path"))


# --- companion doctor lists the keyboard-like input devices -----------------------------


def _bits(codes) -> str:
    """A sysfs capability bitmap (``capabilities/key``): hex words, most significant first."""
    value = sum(1 << c for c in codes)
    words = []
    while value:
        words.append(value & (2 ** 64 - 1))
        value >>= 64
    return " ".join(f"{w:x}" for w in reversed(words)) or "0"


def sysfs_device(root: Path, n: int, name: str, keys, ev=(e.EV_SYN, e.EV_KEY), uniq: str = "", bus: int = e.BUS_USB):
    d = root / "sys/class/input" / f"event{n}" / "device"
    (d / "capabilities").mkdir(parents=True)
    (d / "id").mkdir()
    (d / "name").write_text(name + "\n")
    (d / "uniq").write_text(uniq + "\n")
    (d / "id/bustype").write_text(f"{bus:04x}\n")
    (d / "capabilities/ev").write_text(_bits(ev) + "\n")
    (d / "capabilities/key").write_text(_bits(keys) + "\n")
    (root / "dev/input").mkdir(parents=True, exist_ok=True)
    (root / "dev/input" / f"event{n}").touch()


def test_doctor_lists_the_keyboard_like_input_devices_by_name_and_uniq(tmp_path):
    from companion.service.doctor import Machine, check_input_devices

    sysfs_device(tmp_path, 3, "Dell KB216 Wired Keyboard", KEYBOARD_CAPABILITIES[e.EV_KEY])
    sysfs_device(tmp_path, 7, NAME, SCANNER_CAPABILITIES[e.EV_KEY], uniq=UNIQ, bus=e.BUS_BLUETOOTH)
    sysfs_device(tmp_path, 8, NAME + " Consumer Control", CONSUMER[e.EV_KEY], uniq=UNIQ, bus=e.BUS_BLUETOOTH)
    sysfs_device(tmp_path, 9, "ft5x06 touchscreen", [e.BTN_TOUCH], ev=(e.EV_SYN, e.EV_KEY, e.EV_ABS))
    check = check_input_devices(Machine(tmp_path))
    assert check.status == "ok"
    assert f"'{NAME}' (Bluetooth, uniq {UNIQ}, event7)" in check.detail
    assert "'Dell KB216 Wired Keyboard' (USB, event3)" in check.detail
    assert "Consumer Control" not in check.detail and "touchscreen" not in check.detail
    assert f"hid:name:{NAME}" in check.fix  # how to name the Bluetooth one


def test_doctor_says_when_it_sees_no_keyboard_like_device(tmp_path):
    from companion.service.doctor import Machine, check_input_devices

    sysfs_device(tmp_path, 9, "ft5x06 touchscreen", [e.BTN_TOUCH], ev=(e.EV_SYN, e.EV_KEY, e.EV_ABS))
    check = check_input_devices(Machine(tmp_path))
    assert check.status == "ok" and "no keyboard or keyboard-mode scanner" in check.detail and not check.fix


def test_doctor_checks_a_reader_named_by_name_against_what_it_sees(tmp_path):
    from companion.service.doctor import Machine, check_readers

    m = Machine(tmp_path)
    assert check_readers(m, ["hid:name:inateck"])[0].status == "warn"
    sysfs_device(tmp_path, 7, NAME, SCANNER_CAPABILITIES[e.EV_KEY], uniq=UNIQ, bus=e.BUS_BLUETOOTH)
    check = check_readers(m, ["hid:name:inateck", f"hid:uniq:{UNIQ}"])
    assert [c.status for c in check] == ["ok", "ok"] and "event7" in check[0].detail
