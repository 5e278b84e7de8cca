"""The tray sensor: where its settings live and how to open it (real or emulated). The
commands that use it (``companion calibrate``, ``tilt``) are in :mod:`companion.cli.tray`.

Settings live in ``~/.config/sugar-companion/`` (``$XDG_CONFIG_HOME``):
``config.toml`` holds what a user may change (a ``[tilt]`` table overriding
:class:`~companion.devices.tilt.TiltConfig`, e.g. ``threshold_deg = 18``), and
``calibration.toml`` is written by ``companion calibrate``.
"""

from __future__ import annotations

import math
import os
import tomllib
from pathlib import Path
from typing import Any, Callable

from ..core.clock import Clock
from .tilt import Calibration, TiltConfig, TiltDetector

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
    """Write ``cal`` to ``path`` (default ``calibration.toml`` in :data:`CONFIG_DIR`, made
    when missing) and return the path. Raises OSError when it cannot be written."""
    path = path or CONFIG_DIR / "calibration.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "# Written by `companion calibrate`.\n" + cal.to_toml()
    if path.exists() and not path.is_file():  # a device or a pipe: written as it is
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path
    # A new file beside it, flushed, then renamed over it: a full disk keeps the old one whole.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
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
        from .emulated.chips import EmulatedAdxl345
        from .emulated.i2c import EmulatedBus

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

        try:
            return SMBus(int(number))
        except OSError as exc:
            raise bus_problem(int(number), exc) from exc
    return open_smbus


def bus_problem(number: int, exc: OSError) -> OSError:
    """``exc`` from opening ``/dev/i2c-<number>``, said with what to do about it: a
    :class:`~companion.core.errors.DeviceError` (an OSError with the same errno) for a
    missing bus or a permission refused, else ``exc`` itself."""
    from ..core.errors import DeviceError

    path = f"/dev/i2c-{number}"
    if isinstance(exc, FileNotFoundError):
        why = f"there is no I2C bus {path}: turn I2C on (sudo raspi-config nonint do_i2c 0, then reboot)"
    elif isinstance(exc, PermissionError):
        why = f"{path} cannot be opened: permission denied: add the user to the i2c group (sudo adduser $USER i2c)"
    else:
        return exc
    err = DeviceError(why)
    err.errno = exc.errno
    return err


def detector(calibration: Calibration | None, config: TiltConfig | None = None) -> TiltDetector:
    """A detector with the saved calibration, or the default seats for a flat breakout."""
    return TiltDetector(calibration or Calibration.default(LEVEL), config or TiltConfig())


def open_chip(spec: str, clock: Clock, tray: EmulatedTray | None = None):
    """Open the tray sensor named by ``spec`` (``i2c:N`` or ``emulated``), find which chip
    it is and set it to +-2 g at 100 Hz: ``(bus, chip, bus name)``. Raises ValueError for
    a bad spec, OSError when the bus cannot be opened, and AccelError or LookupError when
    no known chip answers (see :func:`companion.devices.accel.detect`)."""
    from .accel import detect

    bus = bus_opener(spec, clock, tray)()
    name = "emulated bus" if spec == "emulated" else f"/dev/i2c-{spec.partition(':')[2]}"
    chip = detect(bus, name)
    chip.init(range_g=2, rate_hz=100)
    return bus, chip, name
