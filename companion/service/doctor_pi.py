"""The doctor's checks of the Pi beneath the table: the graphics libraries SDL's kmsdrm
driver loads, a desktop holding the display, the panel itself, a serial console on the
PN532's UART, the power supply, GPIO pins gpiozero can really drive, and whose access the
checks are about (:class:`Identity`). :mod:`companion.service.doctor` runs them.

Each check reads through a :class:`~companion.service.doctor.Machine` (files under its
root, commands through its ``run``) or takes its loader as an argument, so the tests run
them on a made-up Pi.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable

#: The user the service runs as (the unit's User=).
SERVICE_USER = "companion"

from ..ui.display import GRAPHICS_LIBS, loads

#: The UART devices a PN532 on header pins 8/10 is reached by, and the console names for them.
UART_NAMES = ("serial0", "ttyAMA0", "ttyS0", "ttyAMA10")

#: ``vcgencmd get_throttled`` bits (Raspberry Pi documentation, "vcgencmd: get_throttled").
UNDERVOLTAGE_NOW, UNDERVOLTAGE_SEEN = 1 << 0, 1 << 16

#: Display managers a desktop image may run (Raspberry Pi OS: lightdm).
DISPLAY_MANAGERS = ("display-manager", "lightdm", "gdm3", "gdm", "sddm")


def _check():
    from .doctor import Check

    return Check


@dataclass(frozen=True)
class Identity:
    """Whose access the checks are about: ``name``, ``uid`` and group ids ``gids``.
    ``current`` is the process itself (``os.access`` answers, ACLs included); otherwise
    the answer is worked out from each file's owner, group and mode bits. ``missing``:
    the service user does not exist (not installed)."""

    name: str
    uid: int | None = None
    gids: frozenset = field(default_factory=frozenset)
    current: bool = False
    missing: bool = False
    no_service_user: bool = False    # run as root where there is no service user: root's own access

    @classmethod
    def me(cls) -> "Identity":
        """This process itself (whatever its user: ``os.access`` answers)."""
        import pwd

        try:
            name = pwd.getpwuid(os.geteuid()).pw_name
        except KeyError:
            name = str(os.geteuid())
        return cls(name, os.geteuid(), frozenset(os.getgroups()), current=True)

    @classmethod
    def for_doctor(cls) -> "Identity":
        """The user whose table this is: the caller, or, run as root (``sudo companion
        doctor``), the service's user, so root's access does not pass every check."""
        if os.geteuid() != 0:
            return cls.me()
        service = cls.of(SERVICE_USER)
        if service.missing:  # not installed as a service: whoever runs it, root here
            from dataclasses import replace

            return replace(cls.me(), no_service_user=True)
        return service

    @classmethod
    def of(cls, name: str) -> "Identity":
        """The user ``name`` from the password and group files (``missing`` if none)."""
        import grp
        import pwd

        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            return cls(name, None, frozenset(), missing=True)
        gids = {entry.pw_gid} | {g.gr_gid for g in grp.getgrall() if name in g.gr_mem}
        return cls(name, entry.pw_uid, frozenset(gids))

    def can(self, path, mode: int) -> bool:
        """May this user open ``path`` for ``mode`` (``os.R_OK | os.W_OK`` ...)?"""
        if self.current:
            return os.access(path, mode)
        try:
            st = os.stat(path)
        except OSError:
            return False
        if self.uid == 0:
            return True
        if self.uid is not None and st.st_uid == self.uid:
            bits = st.st_mode >> 6
        elif st.st_gid in self.gids:
            bits = st.st_mode >> 3
        else:
            bits = st.st_mode
        want = (4 if mode & os.R_OK else 0) | (2 if mode & os.W_OK else 0) | (1 if mode & os.X_OK else 0)
        return bits & want == want


def check_user(m) -> Any:
    """Run as root: the service user exists (its access is what the other checks test)."""
    Check = _check()
    user = m.user
    if user.no_service_user:
        return Check("User", "warn", f"run as {user.name}, and there is no {SERVICE_USER} user (the service's is "
                     f"not installed): checking {user.name}'s own access, which opens everything",
                     f"run the table as an ordinary user, or install the service (it creates {SERVICE_USER})")
    if user.current:
        return Check("User", "ok", f"checking what {user.name} may open")
    if user.missing:
        return Check("User", "fail", f"there is no {user.name} user (the service's): the table is not installed",
                     "install the companion first: its installer creates the user")
    return Check("User", "ok", f"run as root: checking what the service's user {user.name} may open")


def check_graphics(environ: dict, load: Callable[[str], bool] = loads) -> Any:
    """SDL's kmsdrm driver draws through GBM and EGL (OpenGL ES): without these libraries
    there is no picture. Raspberry Pi OS Lite lacks them; its desktop image has them."""
    Check = _check()
    driver = environ.get("SDL_VIDEODRIVER", "")
    if driver and driver != "kmsdrm":
        return Check("Graphics libraries", "skip", f"SDL_VIDEODRIVER={driver}: kmsdrm's libraries not needed")
    lost = [name for name in GRAPHICS_LIBS if not load(name)]
    if lost:
        packages = " ".join(GRAPHICS_LIBS[n] for n in lost)
        return Check("Graphics libraries", "fail", f"{', '.join(lost)} missing: SDL's kmsdrm driver cannot draw, so "
                     "the panel stays black", f"sudo apt install {packages}")
    return Check("Graphics libraries", "ok", ", ".join(GRAPHICS_LIBS) + " load")


def check_desktop(m) -> Any:
    """A desktop (a display manager) holds the display, so kmsdrm cannot open it."""
    Check = _check()
    running = [dm for dm in DISPLAY_MANAGERS if m.run(["systemctl", "is-active", f"{dm}.service"]) == "active"]
    if m.run(["systemctl", "--version"]) is None and not running:
        return Check("Desktop", "skip", "no systemctl here")
    if running:
        return Check("Desktop", "fail", f"a desktop is running ({running[0]}): it holds the display, so the table "
                     "cannot show", "boot to the console: sudo raspi-config nonint do_boot_behaviour B1, then "
                     "sudo reboot")
    return Check("Desktop", "ok", "no desktop running: the display is the table's")


def check_panel(m) -> Any:
    """A connected panel (/sys/class/drm/*/status) and the mode it runs at."""
    Check = _check()
    drm = m.path("/sys/class/drm")
    connectors = sorted(p for p in drm.glob("card*-*") if (p / "status").exists()) if drm.is_dir() else []
    if not connectors:
        return Check("Panel", "warn", "no display connectors in /sys/class/drm (no KMS driver loaded)",
                     "add dtoverlay=vc4-kms-v3d to /boot/firmware/config.txt and reboot")
    connected = [p for p in connectors if (m.read(str(p.relative_to(m.root)) + "/status") or "").strip() == "connected"]
    if not connected:
        names = ", ".join(p.name.split("-", 1)[1] for p in connectors)
        return Check("Panel", "fail", f"no panel connected ({names} all disconnected)",
                     "check the display's ribbon (DSI) or HDMI cable and its power, then reboot")
    shown = []
    for p in connected:
        modes = (m.read(str(p.relative_to(m.root)) + "/modes") or "").split()
        shown.append(f"{p.name.split('-', 1)[1]} {modes[0] if modes else '(mode unknown)'}")
    return Check("Panel", "ok", "connected: " + ", ".join(shown))


def _uart(path: str) -> bool:
    real = os.path.realpath(path)
    return any(path.endswith("/" + n) or real.endswith("/" + n) for n in UART_NAMES)


def check_serial_console(m, scanners: list[str]) -> Any:
    """A login console on the UART the PN532 is wired to (pins 8/10) answers its bytes
    and garbles every read: cmdline.txt must not name it."""
    from ..devices.readers import parse_reader

    Check = _check()
    uart = [s for s in scanners if parse_reader(s).kind == "nfc" and _uart(str(m.path(parse_reader(s).path)))]
    cmdline = m.read("/boot/firmware/cmdline.txt") or m.read("/boot/cmdline.txt") or ""
    consoles = [c.split("=", 1)[1].split(",")[0] for c in cmdline.split() if c.startswith("console=")]
    on_uart = [c for c in consoles if c in UART_NAMES]
    if not uart:
        return Check("Serial console", "skip", "no NFC reader on the UART configured")
    if on_uart:
        return Check("Serial console", "fail", f"cmdline.txt has console={on_uart[0]}: a login console on the "
                     "PN532's UART garbles every read", "sudo raspi-config nonint do_serial_cons 1, then sudo reboot")
    return Check("Serial console", "ok", "no console on the UART the NFC reader uses")


def check_power(m) -> Any:
    """Undervoltage from ``vcgencmd get_throttled``: a weak supply makes the Pi, the
    scanners and the card storage fail at random."""
    Check = _check()
    out = m.run(["vcgencmd", "get_throttled"])
    if out is None:
        return Check("Power", "skip", "no vcgencmd here (not a Raspberry Pi OS)")
    found = re.search(r"0x([0-9a-fA-F]+)", out)
    if not found:
        return Check("Power", "warn", f"vcgencmd said {out!r}", "sudo vcgencmd get_throttled")
    bits = int(found.group(1), 16)
    fix = "use the official power supply (5.1 V 3 A for a Pi 4; 5 V 5 A for a Pi 5) and a short cable"
    if bits & UNDERVOLTAGE_NOW:
        return Check("Power", "fail", f"undervoltage now (throttled=0x{bits:x})", fix)
    if bits & UNDERVOLTAGE_SEEN:
        return Check("Power", "warn", f"undervoltage since boot (throttled=0x{bits:x})", fix)
    return Check("Power", "ok", f"no undervoltage since boot (throttled=0x{bits:x})")


def drive_pins(pins: dict[str, int], factory: Any = None) -> str | None:
    """Claim each configured pin as the table will (buttons as inputs with the pull-up,
    the buzzer and LED as outputs, driven low), then let them go. None when every pin
    could be; otherwise gpiozero's reason. ``factory``: a gpiozero pin factory (None:
    gpiozero's own choice, as the table makes it)."""
    import warnings

    try:
        from gpiozero import Button, OutputDevice
    except ImportError as exc:  # pragma: no cover - a dependency
        return f"gpiozero is not installed ({exc})"
    made = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero warns about each pin library it tries
            for name, pin in pins.items():
                if name in ("confirm", "undo", "pause"):
                    made.append(Button(pin, pull_up=True, pin_factory=factory))
                else:
                    device = OutputDevice(pin, initial_value=False, pin_factory=factory)
                    device.off()
                    made.append(device)
    except Exception as exc:  # gpiozero raises many kinds (BadPinFactory, GPIOPinInUse, PinInvalidPin, OSError)
        return f"{type(exc).__name__}: {exc}".rstrip(": ")
    finally:
        for device in made:
            try:
                device.close()
            except Exception:
                pass
    return None
