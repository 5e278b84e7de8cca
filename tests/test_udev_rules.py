"""hardware/99-sugar-companion.rules: a parser check of every line, and the rules run
over made-up devices the way udev matches them (udevadm cannot test a rule without the
real device in sysfs, so this evaluator stands in: it implements the subset of udev's
rule language the file uses and refuses anything else)."""

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "hardware" / "99-sugar-companion.rules"
MATCH_KEYS = {"ACTION", "SUBSYSTEM", "KERNEL", "KERNELS", "SYMLINK"}
MATCH_BRACED = {"ENV", "ATTRS"}
ASSIGN_KEYS = {"GROUP", "MODE", "SYMLINK"}
TOKEN = re.compile(r'\s*([A-Z]+)(?:\{([^}]+)\})?\s*(==|!=|\+=|:=|=)\s*"([^"]*)"\s*(?:,|$)')


def parse_line(line: str):
    """A rule line as [(key, attr, op, value)]; raises AssertionError on anything odd."""
    tokens, pos = [], 0
    while pos < len(line):
        m = TOKEN.match(line, pos)
        assert m, f"cannot parse rule at {line[pos:pos + 40]!r}"
        key, attr, op, value = m.groups()
        if op in ("==", "!="):
            assert key in MATCH_KEYS | MATCH_BRACED, f"unknown match key {key}"
            assert (attr is None) == (key in MATCH_KEYS), f"{key} takes {{...}}: {line}"
        else:
            assert key in ASSIGN_KEYS, f"{key} cannot be assigned here: {line}"
            assert op in ("=", "+="), f"{key}{op}: {line}"
        tokens.append((key, attr, op, value))
        pos = m.end()
    return tokens


def rules(active_only=True):
    """(line number, tokens) for each rule; commented-out example rules too when asked."""
    out = []
    for n, raw in enumerate(RULES.read_text().splitlines(), 1):
        line = raw.strip()
        if line.startswith("#"):
            body = line.lstrip("#").strip()
            if active_only or not body.startswith("ACTION"):
                continue
            line = body
        if line:
            out.append((n, parse_line(line)))
    return out


@dataclass
class Device:
    """A device node as udev sees it: its own properties, then its parents from the
    nearest up, each with a kernel name and sysfs attributes."""

    subsystem: str
    kernel: str
    env: dict = field(default_factory=dict)
    parents: list = field(default_factory=list)  # [(kernel name, {attr: value})]
    symlinks: list = field(default_factory=list)  # symlinks other rules gave it already


def udev_match(value: str, pattern: str) -> bool:
    return any(fnmatch.fnmatchcase(value, p) for p in pattern.split("|"))


def apply_rules(dev: Device, action="add"):
    """What the rules file does to ``dev``: (symlinks, group, mode)."""
    links, group, mode = list(dev.symlinks), None, None
    own = []
    for _, tokens in rules():
        matched_parent = None
        ok = True
        for key, attr, op, value in tokens:
            if op not in ("==", "!="):
                continue
            if key in ("KERNELS", "ATTRS"):
                continue  # matched together below, against one parent
            actual = {"ACTION": action, "SUBSYSTEM": dev.subsystem, "KERNEL": dev.kernel}.get(key)
            if key == "ENV":
                actual = dev.env.get(attr, "")
            if key == "SYMLINK":
                hit = any(udev_match(s, value) for s in links)
            else:
                hit = udev_match(actual, value)
            ok &= hit if op == "==" else not hit
        parent_keys = [(k, a, v) for k, a, op, v in tokens if k in ("KERNELS", "ATTRS")]
        if ok and parent_keys:
            for kernel, attrs in dev.parents:  # udev: all of them on one device up the chain
                if all(udev_match(kernel if k == "KERNELS" else attrs.get(a, "\0"), v) for k, a, v in parent_keys):
                    matched_parent = attrs
                    break
            ok = matched_parent is not None
        if not ok:
            continue
        for key, attr, op, value in tokens:
            if op in ("==", "!="):
                continue
            value = re.sub(r"\$attr\{(\w+)\}", lambda m: (matched_parent or {})[m.group(1)], value)
            if key == "SYMLINK":
                own.append(value)
                links.append(value)
            elif key == "GROUP":
                group = value
            elif key == "MODE":
                mode = value
    return own, group, mode


def usb(kernel, vendor, product, **more):
    return (kernel, {"idVendor": vendor, "idProduct": product, **more})


def tty(kernel, *parents, symlinks=()):
    return Device("tty", kernel, parents=[("1-1.2:1.0", {}), *parents, ("usb1", {})], symlinks=list(symlinks))


# ---------------------------------------------------------------- the file itself

def test_every_line_parses_including_the_commented_examples():
    assert len(rules()) >= 5
    assert len(rules(active_only=False)) > len(rules())


@pytest.mark.parametrize("n, tokens", rules(active_only=False), ids=lambda x: str(x) if isinstance(x, int) else "")
def test_no_rule_is_world_writable_and_every_name_is_under_sugar_companion(n, tokens):
    assigned = {k: v for k, _, op, v in tokens if op in ("=", "+=")}
    assert assigned.get("MODE") == "0660", f"line {n}: group access only, never 0666"
    assert assigned.get("GROUP") in ("input", "dialout"), f"line {n}"
    assert assigned["SYMLINK"].startswith("sugar-companion/"), f"line {n}"
    assert ("ACTION", None, "!=", "remove") in tokens, f"line {n}: rules apply on add and change only"
    for k, a, op, v in tokens:
        if k == "ATTRS" and a in ("idVendor", "idProduct"):
            assert all(re.fullmatch(r"[0-9a-f]{4}", part) for part in v.split("|")), f"line {n}: {a}=={v}"
    group = "input" if ("SUBSYSTEM", None, "==", "input") in tokens else "dialout"
    assert assigned["GROUP"] == group, f"line {n}: input devices go to input, ttys to dialout"


# ---------------------------------------------------------------- on made-up devices

def test_a_serial_scanner_gets_its_fixed_name_by_vendor_and_product():
    dev = tty("ttyACM0", usb("1-1.2", "0c2e", "0b61"))
    assert apply_rules(dev) == (["sugar-companion/scanner-1"], "dialout", "0660")


def test_two_identical_scanners_are_named_by_their_usb_socket():
    left = tty("ttyACM0", usb("1-1.1", "1eab", "1a03"))
    right = tty("ttyACM1", usb("1-1.3", "1eab", "1a03"))
    assert apply_rules(left)[0] == ["sugar-companion/scanner-2"]
    assert apply_rules(right)[0] == ["sugar-companion/scanner-3"]
    # plugged the other way round, the names follow the sockets, not the plug order
    assert apply_rules(tty("ttyACM0", usb("1-1.3", "1eab", "1a03")))[0] == ["sugar-companion/scanner-3"]
    # in a socket no rule names: no name (and no access change)
    assert apply_rules(tty("ttyACM2", usb("1-1.4", "1eab", "1a03"))) == ([], None, None)


def test_the_ids_must_come_from_the_same_usb_device_as_the_socket():
    """The hub at 1-1 matches neither: udev walks up and tests one device at a time."""
    dev = tty("ttyACM0", usb("1-1.1", "0bda", "5411"), usb("1-1", "1eab", "1a03"))
    assert apply_rules(dev)[0] == []


def test_a_usb_serial_adapter_is_not_the_nfc_reader_until_its_rule_names_it():
    """A CH340 or CP2102 may be a GPS, an Arduino or a 3D printer: none gets the name by
    default. The commented examples name one adapter, by serial number or by socket."""
    ch340 = tty("ttyUSB0", usb("1-1.4", "1a86", "7523"))
    cp2102 = tty("ttyUSB1", usb("1-1.2", "10c4", "ea60", serial="0001"))
    assert apply_rules(ch340) == ([], None, None)
    assert apply_rules(cp2102) == ([], None, None)
    examples = {n: tokens for n, tokens in rules(active_only=False) if ("SYMLINK", None, "+=", "sugar-companion/nfc") in tokens
                and ("SUBSYSTEM", None, "==", "tty") in tokens and ("KERNEL", None, "==", "ttyAMA0|ttyS0") not in tokens
                and ("KERNEL", None, "==", "ttyAMA0") not in tokens}  # (the Pi 5's pins 8/10: not an adapter)
    assert len(examples) == 2
    for tokens in examples.values():  # each example pins ONE adapter down: a serial number or a socket
        keys = {(k, a) for k, a, op, v in tokens if op == "=="}
        assert ("ATTRS", "serial") in keys or ("KERNELS", None) in keys, tokens


def test_the_pn532_on_the_pi_uart_is_the_nfc_reader():
    uart = Device("tty", "ttyAMA0", parents=[("fe201000.serial", {})], symlinks=["serial0"])
    assert apply_rules(uart) == (["sugar-companion/nfc"], "dialout", "0660")
    bluetooth = Device("tty", "ttyAMA0", parents=[("fe201000.serial", {})], symlinks=["serial1"])
    assert apply_rules(bluetooth) == ([], None, None)  # a Pi 4 with Bluetooth on ttyAMA0


def test_a_keyboard_mode_scanner_gets_the_input_group_and_a_name():
    scanner = Device("input", "event3", env={"ID_INPUT_KEYBOARD": "1"},
                     parents=[("input7", {}), ("1-1.2:1.0", {}), usb("1-1.2", "05e0", "1200")])
    assert apply_rules(scanner) == (["sugar-companion/scanner-kbd-05e0-1200"], "input", "0660")


def test_an_ordinary_keyboard_and_a_removal_are_left_alone():
    keyboard = Device("input", "event2", env={"ID_INPUT_KEYBOARD": "1"}, parents=[usb("1-1.2", "046d", "c31c")])
    assert apply_rules(keyboard) == ([], None, None)
    scanner = tty("ttyACM0", usb("1-1.2", "0c2e", "0b61"))
    assert apply_rules(scanner, action="remove") == ([], None, None)


def test_on_a_pi_5_the_pn532s_pins_8_and_10_are_ttyama0_not_serial0():
    """A Pi 5: serial0 is ttyAMA10, the debug header; pins 8/10 are RP1's uart0, ttyAMA0
    (with dtparam=uart0=on). The rule used to name no UART on a Pi 5."""
    pins = Device("tty", "ttyAMA0", parents=[("1f00030000.serial", {})])
    assert apply_rules(pins) == (["sugar-companion/nfc"], "dialout", "0660")
    debug = Device("tty", "ttyAMA10", parents=[("107d001000.serial", {})], symlinks=["serial0"])
    assert "sugar-companion/nfc" not in apply_rules(debug)[0]
