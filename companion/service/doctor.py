"""``companion doctor``: everything the table needs, checked in one go, each problem with
the command that fixes it. One report for the terminal and the same on the screen.

Checks, in the order a person would fix them: the Pi model, OS and power supply, whose
access is checked, the config file, the graphics libraries, a desktop holding the
display, the panel, the display driver, the touch input devices, I2C (enabled, bus speed)
and the tray sensor, the card readers (found, openable) and a serial console on the NFC
reader's UART, GPIO (pins gpiozero can really drive), the game store (writable, and
sound by SQLite's quick check), and the service (enabled, running). Paths are read under
``root`` (default ``/``), so the tests run every check on a made-up Pi; the Pi's own
checks are in :mod:`companion.service.doctor_pi`.

Access is checked for the user whose table it is (:class:`~companion.service.doctor_pi.Identity`):
the caller, or, run as root, the service's user ``companion`` (root opens everything,
so its own access would pass every check). Fix lines name that user, and point to
installed files and ``companion`` commands, never into a source copy.

A check is ``ok``, ``warn`` (works, but not as a Pi table should), ``fail`` (the table
will not work until fixed) or ``skip`` (not configured, nothing to check).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

from .config import ConfigError, load, parse
from .doctor_board import OVERLAY_FIX, check_board, volatile
from .doctor_pi import (Check, Identity, check_desktop, check_graphics, check_panel, check_power, check_serial_console,
                        check_user, drive_pins)

#: Where the installer puts the example config and the README (hardware/install.sh).
INSTALLED_EXAMPLE = "/opt/companion/companion.toml.example"
#: The example config a fix line names: the installed one, or the project's before installing.
EXAMPLE = (INSTALLED_EXAMPLE if Path(INSTALLED_EXAMPLE).exists()
           else "hardware/companion.toml.example in the project's folder")
README = "/opt/companion/README.md"
RULES = "/etc/udev/rules.d/99-sugar-companion.rules"

MARKS = {"ok": "OK  ", "warn": "WARN", "fail": "FAIL", "skip": "--  "}


class Machine:
    """The files a check reads, under ``root``; ``run`` runs a command for its output;
    ``user`` is whose access is checked (default :meth:`Identity.for_doctor`)."""

    def __init__(self, root: str | Path = "/", run: Callable[[list[str]], str | None] | None = None,
                 user: Identity | None = None):
        self.root = Path(root)
        self.run = run or _run
        self.user = user or Identity.for_doctor()

    def can(self, path, mode: int) -> bool:
        """May the checked user open ``path`` for ``mode``?"""
        return self.user.can(path, mode)

    def path(self, p: str) -> Path:
        return self.root / p.lstrip("/")

    def read(self, p: str, binary: bool = False) -> Any:
        try:
            return self.path(p).read_bytes() if binary else self.path(p).read_text(errors="replace")
        except OSError:
            return None


def _run(argv: list[str]) -> str | None:
    if shutil.which(argv[0]) is None:
        return None
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip()


# ---------------------------------------------------------------- the checks

def check_pi(m: Machine) -> Check:
    model = (m.read("/proc/device-tree/model") or m.read("/sys/firmware/devicetree/base/model") or "").strip("\0\n ")
    if model.startswith("Raspberry Pi"):
        slow = "Zero" in model
        return Check("Pi model", "ok", model + (" (the slowest target: keep other programs off it)" if slow else ""))
    return Check("Pi model", "warn", f"not a Raspberry Pi ({model or 'no device-tree model'})",
                 "fine for a trial run; the table is built for a Pi 4, 5 or Zero 2 W")


def check_os(m: Machine) -> Check:
    release = m.read("/etc/os-release") or ""
    fields = dict(line.split("=", 1) for line in release.splitlines() if "=" in line)
    name = fields.get("PRETTY_NAME", "unknown").strip('"')
    if m.path("/etc/rpi-issue").exists():
        return Check("OS", "ok", f"Raspberry Pi OS ({name})")
    return Check("OS", "warn", f"{name}, not Raspberry Pi OS", "the installer expects Raspberry Pi OS Lite (Bookworm or later)")


def check_config(path: Path | None) -> tuple[Check, dict | None]:
    try:
        cfg, read = load(path)
    except ConfigError as err:
        return Check("Config", "fail", str(err), f"edit {path or 'the config'}: every key with its default is in "
                     f"{EXAMPLE}"), None
    if read is None:
        return Check("Config", "ok", f"no config file: every default ({EXAMPLE} lists them)"), cfg
    return Check("Config", "ok", f"{read}: valid"), cfg


def check_display(m: Machine, environ: dict) -> Check:
    """The DRM card SDL's kmsdrm driver opens, and whether the user may open it."""
    driver = environ.get("SDL_VIDEODRIVER", "")
    cards = sorted(p.name for p in m.path("/dev/dri").glob("card*")) if m.path("/dev/dri").is_dir() else []
    if driver in ("dummy", "offscreen"):
        return Check("Display", "warn", f"SDL_VIDEODRIVER={driver}: no picture", "unset SDL_VIDEODRIVER (the service sets kmsdrm)")
    if not cards:
        return Check("Display", "fail", "no /dev/dri/card*: the KMS display driver is off",
                     "add dtoverlay=vc4-kms-v3d to /boot/firmware/config.txt and reboot")
    card = m.path("/dev/dri/" + cards[0])
    if not m.can(card, os.R_OK | os.W_OK):
        return Check("Display", "fail", f"/dev/dri/{cards[0]} is not writable by {m.user.name}",
                     f"sudo usermod -aG video,render {m.user.name}")
    return Check("Display", "ok", f"{', '.join(cards)}; SDL driver {driver or 'auto (kmsdrm without a desktop)'}")


def check_touch(m: Machine) -> Check:
    """The touchscreen's input devices: SDL reads them for taps, and the loop watches them
    to sleep until a tap (companion/ui/wakeup.py); unreadable, the loop polls instead."""
    events = sorted(m.path("/dev/input").glob("event*")) if m.path("/dev/input").is_dir() else []
    if not events:
        return Check("Touch input", "warn", "no /dev/input/event*: no touchscreen, keyboard or mouse found",
                     "check the touchscreen's cable (DSI ribbon or USB for touch)")
    readable = [e.name for e in events if m.can(e, os.R_OK)]
    if not readable:
        return Check("Touch input", "fail", f"{len(events)} input devices, none readable by {m.user.name}: taps are "
                     "not seen on the console, and the idle screen polls 100 times a second",
                     f"sudo usermod -aG input {m.user.name}")
    return Check("Touch input", "ok", f"{len(readable)} of {len(events)} input devices readable: taps wake the screen")


#: input bus types (linux/input.h) as a person would say them
_BUSES = {0x03: "USB", 0x05: "Bluetooth", 0x11: "PS/2", 0x19: "built-in", 0x06: "virtual"}
_EV_KEY, _EV_ABS, _KEY_ENTER = 0x01, 0x03, 28
_DIGIT_KEYS = frozenset(range(2, 12)) | frozenset({71, 72, 73, 75, 76, 77, 79, 80, 81, 82})


def _bitmap(text: str | None) -> int:
    """A sysfs capability bitmap (``capabilities/key``: words of a C long in hex, the most
    significant first) as one number."""
    import struct

    width, value = struct.calcsize("l") * 8, 0
    for word in (text or "").split():
        value = (value << width) | int(word, 16)
    return value


def keyboard_like(m: Machine) -> list[dict]:
    """The keyboard-like input devices (Enter and digit keys, no absolute axes: keyboards
    and keyboard-mode scanners, USB or Bluetooth), from sysfs: each with its ``event``
    (``event7``), ``name``, ``uniq`` and ``bus``, in event order."""
    folder = m.path("/sys/class/input")
    events = sorted((p for p in folder.glob("event*") if p.name[5:].isdigit()), key=lambda p: int(p.name[5:])) \
        if folder.is_dir() else []
    found = []
    for event in events:
        dev = f"/sys/class/input/{event.name}/device"
        ev, keys = _bitmap(m.read(f"{dev}/capabilities/ev")), _bitmap(m.read(f"{dev}/capabilities/key"))
        if not ev >> _EV_KEY & 1 or ev >> _EV_ABS & 1 or not keys >> _KEY_ENTER & 1 \
                or not any(keys >> k & 1 for k in _DIGIT_KEYS):
            continue
        bus = (m.read(f"{dev}/id/bustype") or "").strip()
        found.append({"event": event.name, "name": (m.read(f"{dev}/name") or "?").strip(),
                      "uniq": (m.read(f"{dev}/uniq") or "").strip(),
                      "bus": _BUSES.get(int(bus, 16), f"bus {bus}") if bus else "?"})
    return found


def check_input_devices(m: Machine) -> Check:
    """The keyboard-like input devices by name (issue 37): a keyboard-mode scanner with no
    /dev/input/by-id link (a Bluetooth one) is named by its name or uniq, ``hid:name:...``."""
    found = keyboard_like(m)
    if not found:
        return Check("Keyboards and scanners", "ok", "no keyboard or keyboard-mode scanner among the input devices "
                     "(none is needed with a USB-serial scanner, an NFC reader or touch only)")
    shown = "; ".join(f"{d['name']!r} ({d['bus']}" + (f", uniq {d['uniq']}" if d["uniq"] else "") + f", {d['event']})"
                      for d in found)
    bluetooth = [d for d in found if d["bus"] == "Bluetooth"]
    fix = ""
    if bluetooth:
        d = bluetooth[0]
        fix = (f"a Bluetooth scanner has no /dev/input/by-id link: name it in [readers] scanners as "
               f"\"hid:name:{d['name']}\"" + (f" or \"hid:uniq:{d['uniq']}\"" if d["uniq"] else ""))
    return Check("Keyboards and scanners", "ok", shown, fix)


def i2c_speed(m: Machine, bus: int) -> int | None:
    """The bus clock in Hz from the device tree, or None when it cannot be read."""
    for p in (f"/sys/class/i2c-adapter/i2c-{bus}/of_node/clock-frequency",
              f"/sys/bus/i2c/devices/i2c-{bus}/of_node/clock-frequency"):
        raw = m.read(p, binary=True)
        if raw and len(raw) == 4:
            return int.from_bytes(raw, "big")
    return None


def check_i2c(m: Machine, sensor: str | None) -> Check:
    bus = int(sensor.partition(":")[2]) if sensor and sensor.startswith("i2c:") else 1
    dev = m.path(f"/dev/i2c-{bus}")
    if not dev.exists():
        status = "fail" if sensor and sensor.startswith("i2c:") else "skip"
        return Check("I2C", status, f"/dev/i2c-{bus} missing: I2C is off", "sudo raspi-config nonint do_i2c 0 (then reboot)")
    speed = i2c_speed(m, bus)
    detail = f"/dev/i2c-{bus}" + (f", {speed // 1000} kHz" if speed else ", speed unknown")
    if not m.can(dev, os.R_OK | os.W_OK):
        return Check("I2C", "fail", detail + f", not openable by {m.user.name}", f"sudo usermod -aG i2c {m.user.name}")
    if speed and speed > 400_000:
        return Check("I2C", "warn", detail + ": faster than the sensors' 400 kHz",
                     "dtparam=i2c_arm_baudrate=100000 in /boot/firmware/config.txt")
    return Check("I2C", "ok", detail)


def check_sensor(sensor: str | None, open_chip: Callable | None = None, service_running: bool = False) -> Check:
    """Find and read the tray sensor. Opening it resets and sets up the chip, so while
    the service runs (and samples it) it is not touched: the check says so instead."""
    if not sensor:
        return Check("Tray sensor", "skip", "none configured ([tray] sensor)")
    if service_running:
        return Check("Tray sensor", "skip", f"{sensor}: not read while the companion service uses it (reading "
                     "it would reset it mid-game); to check it: sudo systemctl stop companion, run doctor, then "
                     "sudo systemctl start companion")
    from ..core.clock import SystemClock
    from ..devices.accel import AccelError

    if open_chip is None:
        from ..devices.tray import open_chip
    try:
        bus, chip, name = open_chip(sensor, SystemClock())
    except (OSError, AccelError, LookupError, ValueError) as exc:
        return Check("Tray sensor", "fail", f"not found on {sensor}: {exc}",
                     f"check the wiring (the pin table in {README}, 'Readers and the tray') and run: i2cdetect -y 1")
    try:
        ident = bus.read_byte_data(chip.address, chip.id_register)
        x, y, z = chip.read_g()
    finally:
        bus.close()
    return Check("Tray sensor", "ok", f"{chip.name} at 0x{chip.address:02X} on {name}: {chip.id_register_name} "
                                      f"read 0x{ident:02X}, expected 0x{chip.id_value:02X}; "
                                      f"now x={x:+.2f} y={y:+.2f} z={z:+.2f} g")


def reader_texts(entries: list) -> list[str]:
    """The ``[readers] scanners`` entries as ``KIND:PATH[@SEAT]`` (a table's ``reader``)."""
    from ..devices.readers import parse_entry

    return [entry if isinstance(entry, str) else parse_entry(entry).text for entry in entries]


def _check_named_scanner(m: Machine, spec: str, match) -> Check:
    """A ``hid:name:`` or ``hid:uniq:`` reader: is a keyboard-like device with it there now?"""
    from types import SimpleNamespace

    seen = [d for d in keyboard_like(m) if match.matches(SimpleNamespace(name=d["name"], uniq=d["uniq"]))]
    if len(seen) == 1:
        return Check(f"Reader {spec}", "ok", f"{seen[0]['name']!r} ({seen[0]['bus']}, {seen[0]['event']}), "
                     "looked for again at every reconnect")
    if seen:
        return Check(f"Reader {spec}", "fail", f"{len(seen)} devices {match.describe()}: "
                     + ", ".join(f"{d['name']!r} ({d['event']})" for d in seen),
                     "name it by more of its name, or by its uniq (listed under Keyboards and scanners)")
    return Check(f"Reader {spec}", "warn", f"no keyboard-like device {match.describe()} connected now",
                 "switch the scanner on or scan once to wake it; a Bluetooth scanner must be paired first "
                 "(bluetoothctl: pair, trust, connect)")


def check_readers(m: Machine, scanners: list[str]) -> list[Check]:
    from ..devices.readers import parse_reader
    from ..devices.scan.identity import is_identity, parse_identity

    checks = []
    for spec in scanners:
        reader = parse_reader(spec)
        if reader.kind == "hid" and is_identity(reader.path):  # a Bluetooth scanner, by name or uniq
            checks.append(_check_named_scanner(m, spec, parse_identity(reader.path)))
            continue
        if reader.kind == "hid" and not reader.path.startswith("/"):
            checks.append(Check(f"Reader {spec}", "ok", "found by vendor:product when the table starts"))
            continue
        path = m.path(reader.path)
        if not path.exists():
            checks.append(Check(f"Reader {spec}", "fail", f"{reader.path} does not exist: not plugged in, or no udev name",
                                f"plug it in; check ls -l /dev/sugar-companion/ and the udev rules in {RULES}"))
        elif not m.can(path, os.R_OK | os.W_OK):
            group = "input" if reader.kind == "hid" else "dialout"
            checks.append(Check(f"Reader {spec}", "fail", f"{reader.path} is not openable by {m.user.name}",
                                f"sudo usermod -aG {group} {m.user.name} (the udev rules in {RULES} do it for "
                                "the named readers)"))
        else:
            checks.append(Check(f"Reader {spec}", "ok", f"{reader.path} -> {os.path.realpath(path)}, can open"))
    seen = []
    for folder in ("/dev/sugar-companion", "/dev/serial/by-id", "/dev/input/by-id"):
        d = m.path(folder)
        seen += [f"{folder}/{p.name}" for p in sorted(d.iterdir())] if d.is_dir() else []
    if not scanners:
        status = "warn"  # Sugar Blast needs none: its candies are entered by touch
        fix = "" if not seen else "name one in [readers] scanners"
        checks.append(Check("Readers", status, ("plugged in, none configured: " + ", ".join(seen[:4])) if seen
                            else "none configured and none plugged in", fix or "plug a scanner in, then run doctor again"))
    return checks


def check_gpio(m: Machine, gpio: dict, drive: Callable[[dict], str | None] = drive_pins,
               service_running: bool = False) -> Check:
    """The configured pins: the GPIO chip, the user's access to it, and gpiozero really
    claiming each pin as the table does (a venv without a pin library, such as lgpio on
    a Pi 5, has a chip but drives nothing). Not while the service holds the pins."""
    pins = {name: gpio.get(name) for name in ("confirm", "undo", "buzzer", "led") if gpio.get(name) is not None}
    if not pins:
        return Check("GPIO", "skip", "no buttons, buzzer or LED configured ([gpio])")
    chips = sorted(p.name for p in m.path("/dev").glob("gpiochip*"))
    listed = ", ".join(f"{name} GPIO{pin}" for name, pin in pins.items())
    if not chips:
        return Check("GPIO", "fail", f"{listed}: no /dev/gpiochip*", "this is not a Pi, or the kernel has no GPIO")
    if not m.can(m.path("/dev/" + chips[0]), os.R_OK | os.W_OK):
        return Check("GPIO", "fail", f"{listed}: /dev/{chips[0]} is not openable by {m.user.name}",
                     f"sudo usermod -aG gpio {m.user.name}")
    if service_running:
        return Check("GPIO", "skip", f"{listed} on /dev/{chips[0]}: the companion service holds the pins, so they "
                     "are not tried now")
    problem = drive(pins)
    if problem and not m.can(Path(os.getcwd()), os.W_OK):  # lgpio makes its notify file in the working folder
        return Check("GPIO", "fail", f"{listed}: gpiozero cannot drive the pins ({problem}): lgpio cannot create its "
                     f"notify file in the working folder {os.getcwd()}, which {m.user.name} cannot write",
                     "run it from a writable folder: cd /var/lib/companion first (companion doctor does so itself "
                     "when it can; the service's WorkingDirectory= is that folder)")
    if problem:
        return Check("GPIO", "fail", f"{listed}: gpiozero cannot drive the pins ({problem})",
                     "sudo apt install python3-lgpio (the companion's venv uses the system's lgpio); a pin in use "
                     "by another program: stop it")
    return Check("GPIO", "ok", f"{listed} on /dev/{chips[0]}: each pin claimed and let go by gpiozero")


def check_store(m: Machine, path: str) -> Check:
    p = m.path(path)
    folder = p.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    damaged = store_damage(p) if p.exists() and os.access(p, os.R_OK) else None  # the worse problem first
    if damaged:
        return Check("Game store", "fail", damaged,
                     f"use a backup copy ([store] path in the config), or move the file aside to start "
                     f"afresh: mv {path} {path}.damaged")
    lost = volatile(m, path)
    if lost and (p.exists() or m.can(folder, os.W_OK)):  # writable now, gone after the next power cut
        return Check("Game store", "fail", f"{path} is written to memory only: {lost}, so every game is lost at the "
                     "next power cut", OVERLAY_FIX)
    if p.exists() and m.can(p, os.W_OK) or not p.exists() and m.can(folder, os.W_OK):
        return Check("Game store", "ok", f"{path} writable" + ("" if p.exists() else " (made at the first game)"))
    if not p.parent.exists():
        shown = Path(path).parent
        return Check("Game store", "fail", f"{shown} does not exist and cannot be made by {m.user.name}",
                     f"sudo install -d -o companion -g companion -m 0750 {shown} "
                     "(the installer does it; so does the service's first start)")
    return Check("Game store", "fail", f"{path} is not writable by {m.user.name}",
                 f"sudo chown {m.user.name} {path}; or check it as the service's user: "
                 "sudo companion doctor")


def store_damage(path: Path) -> str | None:
    """What is wrong with the store file at ``path`` (SQLite's ``PRAGMA quick_check``, run
    read-only), or None when it is sound. A card that lost power mid-write fails here."""
    from ..core.errors import DamagedStore, StoreError
    from ..core.store import EventStore

    try:
        EventStore(path, readonly=True).close()  # opening runs the quick check
    except DamagedStore as err:
        return err.problem
    except StoreError as err:  # not a store at all, or from a newer companion: the message says which
        return str(err)
    return None


def check_service(m: Machine) -> Check:
    enabled = m.run(["systemctl", "is-enabled", "companion.service"])
    active = m.run(["systemctl", "is-active", "companion.service"])
    if enabled is None:
        return Check("Service", "skip", "no systemctl here")
    if enabled != "enabled":
        return Check("Service", "warn", f"companion.service is {enabled or 'not installed'}",
                     "sudo systemctl enable --now companion" if enabled else
                     "sudo hardware/install.sh, in the project's folder (it installs and starts the service)")
    if active != "active":
        return Check("Service", "fail", f"companion.service is enabled but {active}",
                     "journalctl -u companion -n 30 says why; sudo systemctl restart companion")
    return Check("Service", "ok", "companion.service enabled and running")


def run_checks(config: Path | None, tray: str | None = None, m: Machine | None = None,
               environ: dict | None = None, open_chip: Callable | None = None,
               store: str | None = None, load_lib: Callable[[str], bool] | None = None,
               drive: Callable[[dict], str | None] | None = None,
               more: Callable[..., list] | None = None) -> list[Check]:
    """Every check, in the order to fix them. ``tray`` overrides the config's sensor
    (never read while the service runs: it would reset it), ``store`` its game store; ``load_lib`` and ``drive`` stand in for loading a library and claiming pins;
    ``more(cfg, store, root, service_running)`` adds checks before the service's (venue mode's)."""
    from ..core.store import DEFAULT_STORE

    m = m or Machine()
    environ = os.environ if environ is None else environ
    running = m.run(["systemctl", "is-active", "companion.service"]) == "active"
    checks = [check_pi(m), check_os(m), check_power(m), check_user(m)]
    config_check, cfg = check_config(config)
    checks.append(config_check)
    if cfg is None:  # a bad file: check the rest as if it had every default
        cfg = parse({}, "defaults")
    sensor = tray or cfg["tray"]["sensor"]
    scanners = reader_texts(cfg["readers"]["scanners"])  # (an entry may be a table: its reader's text)
    checks += [check_graphics(environ, **({"load": load_lib} if load_lib else {})), check_desktop(m),
               check_panel(m), *check_board(m, cfg, scanners), check_display(m, environ), check_touch(m),
               check_i2c(m, sensor), check_sensor(sensor, open_chip, service_running=running)]
    checks.append(check_input_devices(m))
    checks += check_readers(m, scanners)
    checks.append(check_serial_console(m, scanners))
    checks += [check_gpio(m, cfg["gpio"], **({"drive": drive} if drive else {}), service_running=running),
               check_store(m, store or cfg["store"]["path"] or str(DEFAULT_STORE))]
    if more is not None:  # venue mode's checks (companion.venue.checks: the CLI hands them in)
        checks += more(cfg, store or cfg["store"]["path"] or str(DEFAULT_STORE), m.root, running)
    checks.append(check_service(m))
    return checks


def report(checks: list[Check]) -> str:
    """The terminal report: one line per check, the fix indented under a problem."""
    width = max(len(c.name) for c in checks)
    lines = []
    for c in checks:
        lines.append(f"{MARKS[c.status]}  {c.name.ljust(width)}  {c.detail}")
        if c.fix and c.status in ("warn", "fail"):
            lines.append(f"{'':4}  {'':{width}}  fix: {c.fix}")
    fails = sum(c.status == "fail" for c in checks)
    warns = sum(c.status == "warn" for c in checks)
    lines.append("All good." if not fails and not warns else f"{fails} problem(s) to fix, {warns} warning(s).")
    return "\n".join(lines)


def draw_report(surface, checks: list[Check]) -> list:
    """The same report on the touchscreen (drawn at 800x480 and scaled): a title with the
    count of problems, then each problem (FAIL first, then WARN) as its mark, its check
    and what was found, with the fix in the highlight colour under it, each wrapped to the
    screen's width; then one line for the checks that are fine and one for those not set
    up. Problems that do not fit are counted at the foot ("... more: run companion doctor
    in a terminal"): nothing is drawn cut off or under the minimum size."""
    from pygame import Rect

    from ..ui import theme
    from ..ui.widgets import draw_text, wrap

    w, h = surface.get_size()
    surface.fill(theme.BG)
    fails = [c for c in checks if c.status == "fail"]
    warns = [c for c in checks if c.status == "warn"]
    fine = [c.name for c in checks if c.status == "ok"]
    unset = [c.name for c in checks if c.status not in ("ok", "warn", "fail")]
    title = ("Companion check-up: all good" if not fails and not warns else
             f"Companion check-up: {len(fails)} to fix, {len(warns)} to look at")
    draw_text(surface, title, Rect(16, 6, w - 32, 40), theme.MEDIUM, theme.HIGHLIGHT, bold=True)
    colours = {"ok": theme.OK, "warn": theme.WARN, "fail": theme.BAD, "skip": theme.TEXT}
    font, bold = theme.font(theme.SMALL), theme.font(theme.SMALL, True)
    line = font.get_linesize()
    mark_w, x = 82, 16 + 82
    width = w - x - 16
    summary = [("ok", "Fine: " + ", ".join(fine))] if fine else []
    summary += [("skip", "Not set up: " + ", ".join(unset))] if unset else []
    y = 50
    shown = 0
    problems = fails + warns
    blocks = [(wrap(f"{c.name}: {c.detail}", bold, width), wrap(f"fix: {c.fix}", font, width) if c.fix else [])
              for c in problems]
    needs = [(len(said) + len(fix)) * line + 4 for said, fix in blocks]
    foot = sum(len(wrap(text, font, width)) for _, text in summary) * line
    if y + sum(needs) > h - foot:
        foot += line  # not all fit: keep a line to say how many more
    for c, (said, fix), need in zip(problems, blocks, needs):
        if y + need > h - foot:
            break
        draw_text(surface, MARKS[c.status].strip(), Rect(16, y, mark_w - 6, line), theme.SMALL, colours[c.status],
                  bold=True)
        for text in said:
            draw_text(surface, text, Rect(x, y, width, line), theme.SMALL, theme.TEXT, bold=True)
            y += line
        for text in fix:
            draw_text(surface, text, Rect(x, y, width, line), theme.SMALL, theme.HIGHLIGHT)
            y += line
        y += 4
        shown += 1
    if shown < len(problems):
        draw_text(surface, f"{len(problems) - shown} more: run companion doctor in a terminal to see them all",
                  Rect(x, y, width, line), theme.SMALL, theme.TEXT)
        y += line
    for status, text in summary:
        lines = wrap(text, font, width)
        draw_text(surface, MARKS[status].strip(), Rect(16, y, mark_w - 6, line), theme.SMALL, colours[status],
                  bold=True)
        for part in lines:
            draw_text(surface, part, Rect(x, y, width, line), theme.SMALL, theme.TEXT)
            y += line
    return []
