"""``companion calibrate`` and ``companion tilt``: the tray sensor from the command line.
Parsing and printing only: the sensor is opened by :mod:`companion.devices.tray`, the
calibration steps are :class:`companion.devices.calibrate.Calibrator`, and the screen is
drawn by :func:`companion.ui.calibration.draw_calibration`."""

from __future__ import annotations

import math
import os
import sys
import time
from pathlib import Path

from ..core.clock import SystemClock
from ..devices.tray import EmulatedTray, bus_opener, load_tilt_config, open_chip, save_calibration
from ..ui.calibration import draw_calibration
from .common import pygame_error, user_path


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


def _calibrate_usage(args) -> str | None:
    """What is wrong with ``companion tray calibrate``'s options (None: nothing)."""
    problem = _writable(args.out) or _writable(args.screen_png)  # the default folder is made on save
    if problem:
        return problem
    if not (math.isfinite(args.timeout) and 1 <= args.timeout <= 3600):
        return "--timeout is in seconds, from 1 to 3600"
    if args.tray == "emulated" and args.seats > len(EmulatedTray.DIRECTIONS):
        return f"the emulated tray has {len(EmulatedTray.DIRECTIONS)} edges: use --seats 2 to 4"
    try:
        bus_opener(args.tray, SystemClock())
    except ValueError as err:
        return str(err)
    return None


def cmd_calibrate(args) -> int:
    """Guided calibration in the terminal: level, then each seat in turn."""
    from ..devices.calibrate import Calibrator
    from ..devices.accel import AccelError

    problem = _calibrate_usage(args)
    if problem:
        print(f"companion: {problem}", file=sys.stderr)
        return 2
    clock = SystemClock()
    tray = EmulatedTray(clock) if args.tray == "emulated" else None
    if tray is not None:  # an unattended run-through for --simulate: level, then each seat
        tray.script = [(0.0, None)] + [(x, s) for k in range(args.seats)
                                       for x, s in ((2.5 + 3 * k, k + 1), (4.5 + 3 * k, None))]
    try:
        bus, chip, name = open_chip(args.tray, clock, tray)
    except (OSError, AccelError, LookupError, ValueError) as exc:
        print(f"companion: cannot calibrate: {exc}", file=sys.stderr)
        return 1
    cal = Calibrator(seats=args.seats)
    print(f"Calibrating the {chip.name} on {name} for {args.seats} seats.")
    print(cal.prompt, flush=True)
    app = None
    if args.screen or args.screen_png:  # asking for the picture implies the screen
        from ..ui.app import App

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
        picture_failed = None
        if app is not None:
            if cal.done and args.screen_png:
                app.show(lambda s: draw_calibration(s, cal, None))
                try:
                    app.save(args.screen_png)
                except (OSError, pygame_error()) as err:
                    picture_failed = getattr(err, "strerror", None) or str(err)
            app.close()
    if not cal.done:
        print(f"companion: calibration timed out after {args.timeout:.0f} s ({cal.prompt})", file=sys.stderr)
        return 1
    try:
        path = save_calibration(cal.result, Path(args.out) if args.out else None)
    except OSError as err:
        print(f"companion: cannot save the calibration to {args.out or 'its file'}: {err.strerror or err} "
              "(is the disk full?): nothing was saved", file=sys.stderr)
        return 1
    print(f"Saved to {path}.")
    if picture_failed:
        print(f"companion: cannot write the screen picture {args.screen_png}: {picture_failed}", file=sys.stderr)
        return 1
    return 0


def cmd_tilt(args) -> int:
    if args.tilt_command == "analyze":
        from ..devices.tilt_analyze import main_analyze

        try:
            config = load_tilt_config()
        except ValueError as err:
            print(f"companion: {err}", file=sys.stderr)
            return 2
        return main_analyze(args.file, args.calibration, args.json, config=config)
    return cmd_tilt_record(args)


def cmd_tilt_record(args) -> int:
    """Record ``t,ax,ay,az`` (seconds, g) from the sensor at 100 Hz for ``--seconds``."""
    from ..devices.accel import AccelError

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
        bus, chip, _ = open_chip(args.tray, clock)
    except (OSError, AccelError, LookupError, ValueError) as exc:
        print(f"companion: cannot record: {exc}", file=sys.stderr)
        return 1
    t0 = time.monotonic()
    n = 0
    try:
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
    except OSError as err:  # a full disk, or the file went away
        print(f"companion: cannot write {args.file}: {err.strerror or err} (is the disk full?)", file=sys.stderr)
        return 1
    finally:
        bus.close()
    print(f"{n} samples written to {args.file}")
    return 0


def add_parsers(sub) -> None:
    """Add ``calibrate`` and ``tilt`` to the CLI's subparsers."""
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
