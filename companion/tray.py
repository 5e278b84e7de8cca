"""The tray sensor from the command line: where its settings live, how to open it
(real or emulated), and ``companion calibrate``, ``tilt record`` and ``doctor``.

Settings live in ``~/.config/sugar-companion/`` (``$XDG_CONFIG_HOME``):
``config.toml`` holds what a user may change (a ``[tilt]`` table overriding
:class:`~companion.devices.tilt.TiltConfig`, e.g. ``threshold_deg = 18``), and
``calibration.toml`` is written by ``companion calibrate``.
"""

from __future__ import annotations

import math
import os
import sys
import time
import tomllib
from pathlib import Path
from typing import Any, Callable

from .core.clock import Clock, SystemClock
from .devices.tilt import Calibration, TiltConfig, TiltDetector

CONFIG_DIR = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "sugar-companion"
LEVEL = (0.0, 0.0, 1.0)


def load_tilt_config(path: Path | None = None) -> TiltConfig:
    """The ``[tilt]`` table of config.toml over the defaults. Raises ValueError naming the file."""
    path = path or CONFIG_DIR / "config.toml"
    if not path.exists():
        return TiltConfig()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return TiltConfig.from_dict(data.get("tilt", {}))
    except (tomllib.TOMLDecodeError, ValueError, TypeError) as exc:
        raise ValueError(f"{path}: {exc}") from exc


def load_calibration(path: Path | None = None) -> Calibration | None:
    """The saved calibration, or None when there is none yet. Raises ValueError naming the file."""
    path = path or CONFIG_DIR / "calibration.toml"
    if not path.exists():
        return None
    try:
        return Calibration.from_dict(tomllib.loads(path.read_text(encoding="utf-8"))["calibration"])
    except (tomllib.TOMLDecodeError, KeyError, ValueError, TypeError) as exc:
        raise ValueError(f"{path}: {exc}: run `companion calibrate` again") from exc


def save_calibration(cal: Calibration, path: Path | None = None) -> Path:
    path = path or CONFIG_DIR / "calibration.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Written by `companion calibrate`.\n" + cal.to_toml(), encoding="utf-8")
    return path


class EmulatedTray:
    """A tray orientation for ``--simulate``: level, or tilted ``angle`` degrees toward a
    seat (1-4: the +X, +Y, -X, -Y edges lowered), returning level after ``hold`` seconds."""

    DIRECTIONS = {1: (-1.0, 0.0, 0.0), 2: (0.0, -1.0, 0.0), 3: (1.0, 0.0, 0.0), 4: (0.0, 1.0, 0.0)}

    def __init__(self, clock: Clock, angle: float = 25.0, hold: float = 1.5):
        self.clock, self.angle, self.hold = clock, angle, hold
        self.seat: int | None = None
        self.since = -math.inf
        self.script: list[tuple[float, int | None]] = []  # (seconds from start, seat) for unattended runs
        self._t0 = clock.now()

    def tilt(self, seat: int) -> None:
        """Tilt toward ``seat`` now (arrow keys under ``--simulate``)."""
        self.seat, self.since = seat, self.clock.now()

    def __call__(self, t: float) -> tuple[float, float, float]:
        seat = self.seat if t - self.since < self.hold else None
        for start, scripted in self.script:
            if t - self._t0 >= start:
                seat = scripted
        if seat is None:
            return LEVEL
        a = math.radians(self.angle)
        d = self.DIRECTIONS[seat]
        return tuple(d[i] * math.sin(a) + LEVEL[i] * math.cos(a) for i in range(3))


def bus_opener(spec: str, clock: Clock, tray: EmulatedTray | None = None) -> Callable[[], Any]:
    """``i2c:N`` (a real bus via smbus2) or ``emulated`` (an ADXL345 emulator driven by
    ``tray``). Raises ValueError for another spec."""
    if spec == "emulated":
        from .devices.emulated.i2c import EmulatedAdxl345, EmulatedBus

        bus = EmulatedBus(EmulatedAdxl345(orientation=tray or EmulatedTray(clock), clock=clock))

        def reopen():
            bus.open()
            return bus
        return reopen
    kind, _, number = spec.partition(":")
    if kind != "i2c" or not number.isdigit():
        raise ValueError(f"--tray {spec!r}: write i2c:1 for I2C bus 1, or emulated")

    def open_smbus():
        from smbus2 import SMBus

        return SMBus(int(number))
    return open_smbus


def detector(calibration: Calibration | None, config: TiltConfig | None = None) -> TiltDetector:
    """A detector with the saved calibration, or the default seats for a flat breakout."""
    return TiltDetector(calibration or Calibration.default(LEVEL), config or TiltConfig())


# ---------------------------------------------------------------- commands

def _open_chip(spec: str, clock: Clock, tray: EmulatedTray | None = None):
    from .devices.accel import detect

    bus = bus_opener(spec, clock, tray)()
    name = "emulated bus" if spec == "emulated" else f"/dev/i2c-{spec.partition(':')[2]}"
    chip = detect(bus, name)
    chip.init(range_g=2, rate_hz=100)
    return bus, chip, name


def cmd_doctor(args) -> int:
    """Report the tray sensor (bus, address, chip, ID register, live angle) and readers."""
    from .devices.accel import AccelError

    clock = SystemClock()
    try:
        bus_opener(args.tray, clock)
    except ValueError as err:
        print(f"companion: {err}", file=sys.stderr)
        return 2
    print("Tray sensor")
    try:
        bus, chip, name = _open_chip(args.tray, clock)
    except (OSError, AccelError, LookupError, ValueError) as exc:
        print(f"  not found: {exc}")
        bus = chip = None
    if chip is not None:
        ident = bus.read_byte_data(chip.address, chip.id_register)
        print(f"  {chip.part} at 0x{chip.address:02X} on {name}: {chip.id_register_name} "
              f"(0x{chip.id_register:02X}) read 0x{ident:02X}, expected 0x{chip.id_value:02X}")
        if chip.warning:
            print(f"  warning: {chip.warning}")
        try:
            cal = load_calibration()
        except ValueError as exc:
            print(f"  calibration: {exc}")
            cal = None
        print(f"  calibration: {'saved' if cal else 'none yet (default seats; run `companion calibrate`)'}")
        det = detector(cal)
        for _ in range(50):
            x, y, z = chip.read_g()
            det.feed(clock.now(), x, y, z)
            time.sleep(0.01)
        angle = det.angle_deg
        print(f"  live: x={x:+.3f} g  y={y:+.3f} g  z={z:+.3f} g  angle {angle:.1f} degrees"
              + (f" toward seat {det.seat}" if det.seat else "") if angle is not None else "  live: no usable sample")
        bus.close()
    print("Card readers")
    found = False
    for folder in (Path("/dev/serial/by-id"), Path("/dev/input/by-id")):
        for entry in sorted(folder.glob("*")) if folder.exists() else []:
            found = True
            ok = os.access(entry, os.R_OK | os.W_OK)
            print(f"  {entry} -> {entry.resolve()}  {'can open' if ok else 'NO ACCESS: add the user to the dialout/input group'}")
    if not found:
        print("  none found under /dev/serial/by-id or /dev/input/by-id: is a scanner plugged in?")
    return 0


def _writable(path: str | None) -> str | None:
    """Why ``path`` cannot be written (checked before a long job), or None."""
    if path is None:
        return None
    p = Path(path)
    if p.is_dir():
        return f"{path} is a folder: give a file name"
    if not p.parent.is_dir() or not os.access(p.parent, os.W_OK):
        return f"cannot write {path}: the folder does not exist or is not writable"
    return None


def cmd_calibrate(args) -> int:
    """Guided calibration in the terminal: level, then each seat in turn."""
    from .calibrate import Calibrator
    from .devices.accel import AccelError

    problem = _writable(args.out) or _writable(args.screen_png)  # the default folder is made on save
    if problem:
        print(f"companion: {problem}", file=sys.stderr)
        return 2
    if not (math.isfinite(args.timeout) and 1 <= args.timeout <= 3600):
        print("companion: --timeout is in seconds, from 1 to 3600", file=sys.stderr)
        return 2
    if args.tray == "emulated" and args.seats > len(EmulatedTray.DIRECTIONS):
        print(f"companion: the emulated tray has {len(EmulatedTray.DIRECTIONS)} edges: use --seats 2 to 4",
              file=sys.stderr)
        return 2
    try:
        bus_opener(args.tray, SystemClock())
    except ValueError as err:
        print(f"companion: {err}", file=sys.stderr)
        return 2
    clock = SystemClock()
    tray = EmulatedTray(clock) if args.tray == "emulated" else None
    if tray is not None:  # an unattended run-through for --simulate: level, then each seat
        tray.script = [(0.0, None)] + [(x, s) for k in range(args.seats)
                                       for x, s in ((2.5 + 3 * k, k + 1), (4.5 + 3 * k, None))]
    try:
        bus, chip, name = _open_chip(args.tray, clock, tray)
    except (OSError, AccelError, LookupError, ValueError) as exc:
        print(f"companion: cannot calibrate: {exc}", file=sys.stderr)
        return 1
    cal = Calibrator(seats=args.seats)
    print(f"Calibrating the {chip.name} on {name} for {args.seats} seats.")
    print(cal.prompt, flush=True)
    app = None
    if args.screen or args.screen_png:  # asking for the picture implies the screen
        from .ui.app import App

        app = App()
        app.show(lambda s: draw_calibration(s, cal, None))
    deadline = time.monotonic() + args.timeout
    try:
        while not cal.done and time.monotonic() < deadline:
            try:
                x, y, z = chip.read_g()
            except OSError:
                time.sleep(0.05)
                continue
            if cal.feed(clock.now(), x, y, z):
                print(cal.prompt, flush=True)
            if app is not None:
                app.poll()
                if int(clock.now() * 10) % 2 == 0:  # about 5 redraws a second
                    app.show(lambda s: draw_calibration(s, cal, (x, y, z)))
            time.sleep(0.01)
    except ValueError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    finally:
        bus.close()
        if app is not None:
            if cal.done and args.screen_png:
                app.show(lambda s: draw_calibration(s, cal, None))
                app.save(args.screen_png)
            app.close()
    if not cal.done:
        print(f"companion: calibration timed out after {args.timeout:.0f} s ({cal.prompt})", file=sys.stderr)
        return 1
    path = save_calibration(cal.result, Path(args.out) if args.out else None)
    print(f"Saved to {path}.")
    return 0


def draw_calibration(surface, cal, g) -> list:
    """The calibration screen: the step number, the instruction in big type, and which
    seats are done. Returns no buttons (the tray itself is the input)."""
    from pygame import Rect

    from .ui import theme
    from .ui.widgets import draw_text, draw_wrapped

    w, h = surface.get_size()
    draw_text(surface, "Tray calibration", Rect(20, 16, w - 40, 50), theme.TITLE, theme.HIGHLIGHT, bold=True)
    colour = theme.OK if cal.done else theme.TEXT
    draw_wrapped(surface, cal.prompt, Rect(20, 110, w - 40, 180), theme.TITLE, colour, bold=True, max_lines=3)
    done = cal.seats if cal.done else cal.seat - 1
    marks = "   ".join(f"Seat {n} {'done' if n <= done else '...'}" for n in range(1, cal.seats + 1))
    draw_text(surface, marks, Rect(20, 330, w - 40, 40), theme.MEDIUM, theme.TEXT, align="center")
    if g is not None:
        draw_text(surface, f"sensor: x {g[0]:+.2f} g   y {g[1]:+.2f} g   z {g[2]:+.2f} g",
                  Rect(20, h - 60, w - 40, 40), theme.SMALL, theme.TEXT, align="center")
    return []


def cmd_tilt(args) -> int:
    if args.tilt_command == "analyze":
        from .devices.tilt_analyze import main_analyze

        try:
            config = load_tilt_config()
        except ValueError as err:
            print(f"companion: {err}", file=sys.stderr)
            return 2
        return main_analyze(args.file, args.calibration, args.json, config=config)
    return cmd_tilt_record(args)


def cmd_tilt_record(args) -> int:
    """Record ``t,ax,ay,az`` (seconds, g) from the sensor at 100 Hz for ``--seconds``."""
    from .devices.accel import AccelError

    if not (math.isfinite(args.seconds) and 0 < args.seconds <= 24 * 3600):
        print("companion: --seconds is how long to record, above 0 and at most 86400 (24 hours)", file=sys.stderr)
        return 2
    problem = _writable(args.file)
    if problem:
        print(f"companion: {problem}", file=sys.stderr)
        return 2
    clock = SystemClock()
    try:
        bus_opener(args.tray, clock)
    except ValueError as err:
        print(f"companion: {err}", file=sys.stderr)
        return 2
    try:
        bus, chip, _ = _open_chip(args.tray, clock)
    except (OSError, AccelError, LookupError, ValueError) as exc:
        print(f"companion: cannot record: {exc}", file=sys.stderr)
        return 1
    t0 = time.monotonic()
    n = 0
    with open(args.file, "w", encoding="utf-8") as f:
        f.write("t,ax,ay,az\n")
        while time.monotonic() - t0 < args.seconds:
            try:
                x, y, z = chip.read_g()
            except OSError:
                continue  # an I2C error is never a sample
            f.write(f"{time.monotonic() - t0:.4f},{x:.4f},{y:.4f},{z:.4f}\n")
            n += 1
            time.sleep(0.01)
    bus.close()
    print(f"{n} samples written to {args.file}")
    return 0


def add_parsers(sub) -> None:
    """Add ``calibrate``, ``tilt`` and ``doctor`` to the CLI's subparsers."""
    from .cli.common import user_path

    c = sub.add_parser("calibrate", help="guided tray calibration: level, then each seat")
    c.add_argument("--seats", type=int, default=4, choices=range(2, 7), metavar="N",
                   help="how many seats around the tray, from 2 to 6 (default 4): each is tilted toward in turn")
    c.add_argument("--tray", default="i2c:1", help="i2c:N, or emulated (a scripted run-through)")
    c.add_argument("--out", type=user_path, help="where to save (default ~/.config/sugar-companion/calibration.toml)")
    c.add_argument("--timeout", type=float, default=120.0, help="seconds before giving up")
    c.add_argument("--screen", action="store_true", help="also show the steps on the touchscreen")
    c.add_argument("--screen-png", type=user_path, help="save the last calibration screen as this PNG (implies --screen)")
    c.set_defaults(func=cmd_calibrate)

    t = sub.add_parser("tilt", help="record or analyze tray motion")
    tsub = t.add_subparsers(dest="tilt_command", required=True, metavar="COMMAND",
                            help="record (the sensor to a file) or analyze (a recorded file)")
    a = tsub.add_parser("analyze", help="run the tilt detector over a CSV of t,ax,ay,az")
    a.add_argument("file", type=user_path, help="a CSV with one sample per line: t (seconds), ax, ay, az (g), as tilt record writes")
    a.add_argument("--calibration", metavar="FILE", type=user_path,
                   help="the calibration to use (as companion calibrate saves it; default: sensor flat, "
                        "X toward seat 1)")
    a.add_argument("--json", action="store_true", help="print each tilt found as a JSON object, one per line")
    r = tsub.add_parser("record", help="record the sensor to a CSV")
    r.add_argument("file", type=user_path, help="the CSV to write: t (seconds), ax, ay, az (g), one sample per line")
    r.add_argument("--seconds", type=float, default=10.0, help="how long to record (default 10)")
    r.add_argument("--tray", default="i2c:1", help="the sensor: i2c:N (default i2c:1), or emulated")
    t.set_defaults(func=cmd_tilt)

    from .doctor import cmd_doctor as cmd_full_doctor

    d = sub.add_parser("doctor", help="check everything the table needs, with the fix for each problem")
    d.add_argument("--config", type=user_path, help="the config to check (default /etc/companion/companion.toml if it exists, "
                                    "else ~/.config/sugar-companion/config.toml)")
    d.add_argument("--tray", help="check this tray sensor (i2c:N, or emulated) instead of the config's")
    d.add_argument("--store", type=user_path, help="check this game store file instead of the config's")
    d.add_argument("--png", type=user_path, help="also draw the report as the screen and save it as this PNG")
    d.add_argument("--screen", type=float, metavar="SECONDS", help="also show the report on the screen this long")
    d.set_defaults(func=cmd_full_doctor)
