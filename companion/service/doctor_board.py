"""The doctor's checks of the board itself (issue 37): which Pi it is and so which UART
is on header pins 8/10, how much current its USB ports may draw, an overlay root file
system that forgets the store at the next power cut, the display's rotation set twice,
and more than one display connected.

Every check reads through a :class:`~companion.service.doctor.Machine` (files under its
``root``: ``/proc/device-tree``, ``/sys``, ``/proc/mounts``, ``/boot/firmware``), so the
tests run them on a made-up Pi 4 or Pi 5.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from .doctor_pi import Check

#: Where Raspberry Pi OS keeps config.txt and cmdline.txt (Bookworm on; /boot before).
BOOT = ("/boot/firmware", "/boot")

#: The Pi 5's USB ports share 600 mA unless the supply says (USB-PD) it gives 5 A, or
#: config.txt sets usb_max_current_enable=1 (then 1.6 A). Raspberry Pi documentation,
#: "Power supply" and "config.txt: usb_max_current_enable".
PI5_USB_LOW, PI5_USB_HIGH, PI5_FULL_SUPPLY_MA = 600, 1600, 5000


def model(m) -> str:
    """The board's model from the device tree ('' when there is none)."""
    return (m.read("/proc/device-tree/model") or m.read("/sys/firmware/devicetree/base/model") or "").strip("\0\n ")


def is_pi5(m) -> bool:
    """A Pi 5 (or a Compute Module 5 / Pi 500): the RP1 south bridge's UARTs and USB."""
    name = model(m)
    return bool(re.search(r"Raspberry Pi (5|500)\b|Compute Module 5", name))


def boot_text(m, name: str) -> str:
    """config.txt or cmdline.txt from the boot partition ('' when neither place has it)."""
    return next((t for t in (m.read(f"{b}/{name}") for b in BOOT) if t), "")


def _config_lines(m) -> list[str]:
    return [line.split("#", 1)[0].strip() for line in boot_text(m, "config.txt").splitlines()
            if line.split("#", 1)[0].strip()]


def _dt_u32(m, p: str) -> int | None:
    raw = m.read(p, binary=True)
    return int.from_bytes(raw[:4], "big") if raw and len(raw) >= 4 else None


# ---------------------------------------------------------------- the UART

def check_uart(m, scanners: list[str]) -> Check:
    """The NFC reader on header pins 8/10 (wiring/README.md): on a Pi 5 those are
    ``ttyAMA0`` once ``dtparam=uart0=on`` is in config.txt, and ``/dev/serial0`` is the
    debug header between the HDMI ports; on older Pis ``serial0`` is pins 8/10."""
    from ..devices.readers import parse_reader

    uart = [parse_reader(s).path for s in scanners if parse_reader(s).kind == "nfc"
            and re.search(r"(serial0|ttyAMA\d+|ttyS0|sugar-companion/nfc)$", parse_reader(s).path)]
    if not uart:
        return Check("UART", "skip", "no NFC reader on the Pi's UART configured")
    path = uart[0]
    real = os.path.realpath(m.path(path)) if m.path(path).exists() else path
    if not is_pi5(m):
        return Check("UART", "ok", f"{path}: header pins 8/10 on a {model(m) or 'Pi'}")
    on = any(re.fullmatch(r"dtparam=uart0(=on)?", line.replace(" ", "")) for line in _config_lines(m))
    if path.endswith("serial0") or real.endswith("ttyAMA10"):
        return Check("UART", "fail", f"{path} is the debug header on a Pi 5 (the 3-pin socket between the HDMI "
                     "ports), not pins 8/10 where the PN532 is wired",
                     "use nfc:/dev/ttyAMA0 (or nfc:/dev/sugar-companion/nfc) in [readers] scanners"
                     + ("" if on else ", add dtparam=uart0=on to /boot/firmware/config.txt") + " and reboot")
    if not on:
        return Check("UART", "fail", f"{path}: pins 8/10 of a Pi 5 are off (no dtparam=uart0=on in config.txt)",
                     "add dtparam=uart0=on to /boot/firmware/config.txt and reboot")
    return Check("UART", "ok", f"{path}: pins 8/10 (ttyAMA0, dtparam=uart0=on) on a Pi 5")


# ---------------------------------------------------------------- USB current

def check_usb_power(m) -> Check:
    """A Pi 5 on a supply that does not say it gives 5 A (a 3 A USB-C one) limits all
    its USB ports together to 600 mA: a scanner, a touch panel and a hub can exceed it
    and brown out. Read from the device tree's ``chosen/power``."""
    if not is_pi5(m):
        return Check("USB power", "ok" if model(m).startswith("Raspberry Pi") else "skip",
                     "no USB current limit to check on this board")
    supply = _dt_u32(m, "/proc/device-tree/chosen/power/max_current")
    lifted = _dt_u32(m, "/proc/device-tree/chosen/power/usb_max_current_enable")
    if supply is None and lifted is None:
        return Check("USB power", "warn", "the Pi 5's USB current limit cannot be read (no chosen/power in the device "
                     "tree: old firmware?)", "sudo rpi-eeprom-update -a, then reboot")
    if lifted:
        return Check("USB power", "ok", f"USB ports may draw {PI5_USB_HIGH} mA in all (supply "
                     f"{(supply or 0) / 1000:.1f} A, usb_max_current_enable)")
    if supply is not None and supply >= PI5_FULL_SUPPLY_MA:
        return Check("USB power", "ok", f"a 5 A supply: USB ports may draw {PI5_USB_HIGH} mA in all")
    shown = f"{supply / 1000:.1f} A" if supply else "an unknown"
    return Check("USB power", "warn", f"{shown} supply: the Pi 5 limits its USB ports to {PI5_USB_LOW} mA in all, "
                 "which a scanner, a touch panel and a hub together can exceed (they brown out and drop)",
                 "use the official 27 W (5 V 5 A) USB-C supply; or power the scanner and panel through a powered "
                 "hub (usb_max_current_enable=1 in config.txt only with a supply that really gives 5 A)")


# ---------------------------------------------------------------- the overlay file system

def mounts(m) -> list[tuple[str, str, str]]:
    """``(mount point, type, options)`` from /proc/mounts, in order."""
    out = []
    for line in (m.read("/proc/mounts") or "").splitlines():
        parts = line.split()
        if len(parts) >= 4:
            out.append((parts[1].replace("\\040", " "), parts[2], parts[3]))
    return out


def _mount_of(table: list[tuple[str, str, str]], path: str) -> tuple[str, str, str] | None:
    best = None
    for point, kind, opts in table:
        if (path == point or path.startswith(point.rstrip("/") + "/") or point == "/") \
                and (best is None or len(point) >= len(best[0])):
            best = (point, kind, opts)
    return best


def volatile(m, path: str) -> str | None:
    """Why a file at ``path`` would not outlive a power cut (None: it would): on tmpfs,
    or on an overlay whose upper (written) layer is on tmpfs, as raspi-config's Overlay
    File System mounts the root."""
    table = mounts(m)
    where = _mount_of(table, str(Path(path)))
    if where is None:
        return None
    point, kind, opts = where
    if kind in ("tmpfs", "ramfs"):
        return f"{point} is in memory ({kind})"
    if kind != "overlay":
        return None
    upper = next((o.split("=", 1)[1] for o in opts.split(",") if o.startswith("upperdir=")), None)
    below = _mount_of([t for t in table if t[0] != point], upper) if upper else None
    if upper is None or below is None or below[1] in ("tmpfs", "ramfs"):
        return (f"{point} is an overlay (raspi-config's Overlay File System) whose changes live in memory"
                + (f" ({upper} on tmpfs)" if upper else ""))
    return None


OVERLAY_FIX = ("turn the overlay off (sudo raspi-config nonint do_overlayfs 1, then reboot), or keep the store "
               "on a writable data partition: [store] path = \"/data/companion/table.db\" in the config")


# ---------------------------------------------------------------- rotation and displays

def system_rotation(m) -> list[str]:
    """Where the system turns the picture: config.txt's display_rotate/lcd_rotate or an
    overlay's rotation=, cmdline.txt's video=...,rotate= or panel_orientation=."""
    found = []
    for line in _config_lines(m):
        key = line.replace(" ", "")
        if re.fullmatch(r"(display_rotate|display_lcd_rotate|lcd_rotate)=0*[1-9]\w*", key):
            found.append(f"config.txt {key}")
        elif key.startswith("dtoverlay=") and re.search(r",rotation=0*[1-9]", key):
            found.append(f"config.txt {key}")
    for word in boot_text(m, "cmdline.txt").split():
        if word.startswith("video=") and re.search(r"rotate=0*[1-9]|panel_orientation=(?!normal)", word):
            found.append(f"cmdline.txt {word}")
    return found


def check_rotation(m, rotation: int) -> Check:
    """The picture turned by the system and again by the companion's ``[display]
    rotation``: it is turned twice (and taps land on the wrong buttons)."""
    found = system_rotation(m)
    if found and rotation:
        return Check("Rotation", "warn", f"turned twice: by {found[0]} and by the companion's rotation = {rotation}",
                     f"choose one: [display] rotation = 0 in the config, or take the rotation out of {found[0].split()[0]}")
    if found:
        return Check("Rotation", "ok", f"turned by the system ({found[0]}); the companion's rotation is 0")
    return Check("Rotation", "ok", f"the companion's rotation = {rotation}; the system turns nothing")


def connected(m) -> list[str]:
    """The connector names of every connected display (``DSI-1``, ``HDMI-A-1``)."""
    drm = m.path("/sys/class/drm")
    names = []
    for p in sorted(drm.glob("card*-*")) if drm.is_dir() else []:
        if (m.read(str(p.relative_to(m.root)) + "/status") or "").strip() == "connected":
            names.append(p.name.split("-", 1)[1])
    return names


def check_outputs(m, output: str | None) -> Check:
    """Every connected display, and ``[display] output``: with two connected and no
    output set, the table goes to whichever SDL lists first (on a Pi 5 that can change
    between boots)."""
    names = connected(m)
    if output and output not in names:
        return Check("Display output", "fail", f"[display] output = \"{output}\" is not connected "
                     f"(connected: {', '.join(names) or 'none'})",
                     "check its cable, or set output to one of the connected ones")
    if output:
        return Check("Display output", "ok", f"{output} (of {', '.join(names)})")
    if len(names) > 1:
        return Check("Display output", "warn", f"{len(names)} displays connected ({', '.join(names)}): the table goes "
                     "to whichever SDL lists first, which can change between boots",
                     f"set [display] output = \"{names[0]}\" (or another of them) in the config")
    return Check("Display output", "ok" if names else "skip", names[0] if names else "no display connected")


def check_board(m, cfg: dict[str, Any], scanners: list[str]) -> list[Check]:
    """The board's checks, in the report's order."""
    return [check_uart(m, scanners), check_usb_power(m), check_rotation(m, cfg["display"]["rotation"]),
            check_outputs(m, cfg["display"].get("output"))]
