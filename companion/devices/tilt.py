"""Tray tilt detection for Sugar Blast: accelerometer samples in, TrayTilted/TrayLevel out.

Sugar Blast rulebook, 'Every Time You Make a Blast': "Tilt the board in your direction
... Release the board so that it goes back to its initial position." The accelerometer
under the tray tells which seat tilted it and when it came back, so the flow can prompt
the refill. Pure: no I/O, threads or clock; the sampling thread feeds ``(t, x, y, z)``
(seconds, g) and queues what comes back. One sample goes through (issue 3):

1. a **gate**: magnitude more than ``magnitude_tol`` from the level's is a knock, lift or
   free fall, not orientation; it and the next ``shock_holdoff_s`` of ringing are skipped;
2. a **low-pass** filter (time constant ``lowpass_s``, by ``t``: irregular spacing is fine);
3. the **angle** from the calibrated level, and the **seat** whose calibrated direction is
   closest to the way the vector moved;
4. **dwell and hysteresis**: past ``threshold_deg - arm_margin_deg`` a tilt must hold about
   ``hold_s`` in one direction to be reported; it must then stay under ``level_deg`` for
   ``level_hold_s`` to be reported level, and only then can a new tilt be reported.
   Knocks, vibration and a jostled table drop or swing the angle long before that.

>>> det = TiltDetector(Calibration.default((0.0, 0.0, 1.0)))
>>> events = []
>>> for i in range(200):            # 100 Hz; the +X edge (seat 1) lowered 25 deg at 0.5 s
...     a = math.radians(25.0 if i >= 50 else 0.0)
...     events += det.feed(i / 100, -math.sin(a), 0.0, math.cos(a))
>>> [(type(e).__name__, getattr(e, "seat", None), round(e.t, 2)) for e in events]
[('TrayTilted', 1, 0.75)]
>>> det.state, round(det.angle_deg, 1)
('tilted', 25.0)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, fields
from typing import Any, Iterable, Mapping, Sequence

from companion.core.events import TrayLevel, TrayTilted

Vector = tuple[float, float, float]

UNKNOWN, LEVEL, TILTING, TILTED, LEVELLING = "unknown", "level", "tilting", "tilted", "levelling"


def _norm(v: Sequence[float]) -> float:
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _perpendicular(v: Sequence[float], unit: Sequence[float]) -> Vector:
    d = _dot(v, unit)  # v minus its component along unit
    return (v[0] - d * unit[0], v[1] - d * unit[1], v[2] - d * unit[2])


def _vector(value: Any, what: str) -> Vector:
    try:
        v = tuple(float(c) for c in value)
        if len(v) == 3 and all(math.isfinite(c) for c in v):
            return v  # type: ignore[return-value]
    except (TypeError, ValueError):
        pass
    raise ValueError(f"{what} must be three numbers [x, y, z] in g, got {value!r}")


@dataclass(frozen=True)
class TiltConfig:
    """Detector settings; the user can change each one in the config file (``[tilt]``).

    Guarantees, from issue 3: a tilt of ``threshold_deg`` (15) or more held ``hold_s``
    (0.3 s) is reported within 0.35 s of passing 15; a tilt that stays under ``quiet_deg``
    (6) is never reported; the tray is reported level once within ``level_deg`` (6) for
    ``level_hold_s`` (0.3 s). The rest are tuning, chosen here and checked by
    ``tests/test_tilt.py`` against knocks, vibration, lifts, drift and hovering:

    - ``lowpass_s`` (s): time constant of the low-pass filter; 0.02 s halves 10-30 Hz
      vibration and noise yet lags a fast (0.1 s) tilt by only about 0.03 s.
    - ``dwell_slack_s`` (s): the dwell is ``hold_s`` minus this, to absorb that lag and the
      spacing of samples, so a tilt held just ``hold_s`` is still reported, in time.
    - ``magnitude_tol`` (fraction of 1 g): samples outside 0.85-1.15 of the level's
      magnitude are knocks, lifts or free fall, not orientation (the issue's example).
    - ``shock_holdoff_s`` (s): after such a sample, ignore this long of ringing.
    - ``arm_margin_deg``: the dwell starts this far below ``threshold_deg``, so neither
      the filter's lag nor noise can make a steady 15 deg tilt miss or come late.
    - ``dwell_drop_deg``: a tilt in its dwell is dropped if it falls this far below the
      arming angle (or under ``quiet_deg``); hovering a few degrees around 15 is one tilt.
    - ``max_swing_deg``: a tilt in its dwell restarts the dwell if its direction swings
      more than this (vibration, a shaken tray); a deliberate tilt keeps its direction.
    - ``max_gap_s`` (s): no accepted sample for this long (sensor offline, long lift)
      restarts the filter and any dwell, since the tray may have moved unseen.
    """

    threshold_deg: float = 15.0
    hold_s: float = 0.3
    quiet_deg: float = 6.0
    level_deg: float = 6.0
    level_hold_s: float = 0.3
    lowpass_s: float = 0.02
    dwell_slack_s: float = 0.06
    magnitude_tol: float = 0.15
    shock_holdoff_s: float = 0.05
    arm_margin_deg: float = 1.0
    dwell_drop_deg: float = 3.0
    max_swing_deg: float = 45.0
    max_gap_s: float = 0.25

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"tilt setting {f.name} must be a number, got {value!r}")
            if value < 0:
                raise ValueError(f"tilt setting {f.name} must not be negative, got {value}")
        arm = self.arm_deg
        for ok, message in (
            (0 < self.threshold_deg < 90, f"threshold_deg must be between 0 and 90 degrees, got {self.threshold_deg}"),
            (arm > self.quiet_deg, f"threshold_deg - arm_margin_deg ({arm}) must be above quiet_deg "
                                   f"({self.quiet_deg}), or a tilt under quiet_deg could be reported"),
            (0 < self.level_deg < arm, f"level_deg ({self.level_deg}) must be above 0 and below threshold_deg - "
                                       f"arm_margin_deg ({arm}), or a tray resting between them would flap"),
            (0 < self.magnitude_tol < 1, f"magnitude_tol must be between 0 and 1 (a fraction of 1 g), "
                                         f"got {self.magnitude_tol}"),
            (0 < self.max_swing_deg <= 180, f"max_swing_deg must be between 0 and 180, got {self.max_swing_deg}"),
            (self.dwell_slack_s <= self.hold_s, f"dwell_slack_s ({self.dwell_slack_s}) must not exceed hold_s "
                                                f"({self.hold_s})"),
            (self.max_gap_s > 0, "max_gap_s must be above 0 seconds"),
        ):
            if not ok:
                raise ValueError(message)

    @property
    def arm_deg(self) -> float:
        """Angle (degrees) at which a tilt starts its dwell: ``threshold_deg - arm_margin_deg``."""
        return self.threshold_deg - self.arm_margin_deg

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TiltConfig":
        """From a config table (e.g. ``[tilt]`` in TOML); unknown keys are an error.

        >>> TiltConfig.from_dict({"threshold_deg": 20}).threshold_deg
        20
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown tilt setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**dict(data))


@dataclass(frozen=True)
class Calibration:
    """Where level is and which way each seat is, as this sensor reads them.

    ``level``: the gravity vector (g) the sensor reads with the tray level, whatever way up
    the breakout is taped. ``seats``: for each seat (1-based), the unit direction in which
    the measured vector moves when the tray is tilted toward that seat; it is made
    perpendicular to ``level`` and of length 1 on construction.

    >>> cal = Calibration.default((0.0, 0.0, -1.0))     # breakout taped upside down
    >>> cal.seats[1], cal.seats[2]
    ((-1.0, 0.0, 0.0), (0.0, -1.0, 0.0))
    >>> Calibration.from_dict(cal.to_dict()) == cal
    True
    """

    level: Vector
    seats: dict[int, Vector]

    def __post_init__(self) -> None:
        level, up = _level(self.level)
        if not self.seats:
            raise ValueError("calibration has no seats")
        seats: dict[int, Vector] = {}
        for seat, direction in sorted(self.seats.items()):
            if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
                raise ValueError(f"seat numbers start at 1, got {seat!r}")
            length = _norm(p := _perpendicular(_vector(direction, f"seat {seat} direction"), up))
            if length < 0.2:
                raise ValueError(f"seat {seat} direction is (almost) along the level vector, "
                                 "so no tilt moves toward it: recalibrate that seat")
            seats[seat] = tuple(c / length for c in p)  # type: ignore[misc]
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "seats", seats)

    @classmethod
    def default(cls, level: Sequence[float]) -> "Calibration":
        """Seats 1-4 at the +X, +Y, -X, -Y edges of the sensor (issue 3).

        A sensor at rest reads +1 g along the axis pointing up, so lowering the +X edge
        makes x negative: seat 1 moves the vector toward -X, seat 2 toward -Y, seat 3 toward
        +X, seat 4 toward +Y, each projected onto the plane perpendicular to ``level``.
        Needs the breakout roughly flat (Z up or down); otherwise use :meth:`from_samples`.
        """
        level, up = _level(level)
        for axis, name in ((0, "X"), (1, "Y")):
            if abs(up[axis]) > 0.8:
                raise ValueError(f"the sensor's {name} axis is almost vertical, so the default seats "
                                 "(edges of a flat breakout) do not apply: run `companion calibrate`")
        axes = {1: (-1.0, 0.0, 0.0), 2: (0.0, -1.0, 0.0), 3: (1.0, 0.0, 0.0), 4: (0.0, 1.0, 0.0)}
        return cls(level, {seat: _perpendicular(v, up) for seat, v in axes.items()})

    @classmethod
    def from_samples(cls, level_samples: Iterable[Sequence[float]],
                     seat_samples: Mapping[int, Iterable[Sequence[float]]], *,
                     min_tilt_deg: float = 5.0, min_separation_deg: float = 30.0) -> "Calibration":
        """From the guided calibration: samples (g) with the tray level, then tilted toward
        each seat in turn; the per-axis median of each set ignores a knock or two. Raises
        ValueError, for the person calibrating, when a seat was tilted under ``min_tilt_deg``
        or two seats are closer than ``min_separation_deg``."""
        level, up = _level(_median(level_samples, "level"))
        seats: dict[int, Vector] = {}
        for seat, samples in sorted(seat_samples.items()):
            p = _perpendicular(v := _median(samples, f"seat {seat}"), up)
            tilt = math.degrees(math.atan2(_norm(p), _dot(v, up)))
            if tilt < min_tilt_deg:
                raise ValueError(f"seat {seat}: the tray moved only {tilt:.1f} degrees; "
                                 f"tilt it well toward seat {seat} (about 20 degrees) and try again")
            seats[seat] = tuple(c / _norm(p) for c in p)  # type: ignore[assignment]
        if not seats:
            raise ValueError("calibration needs at least one seat")
        for a, b in itertools.combinations(seats, 2):
            if _dot(seats[a], seats[b]) > math.cos(math.radians(min_separation_deg)):
                raise ValueError(f"seats {a} and {b} were tilted the same way; tilt toward each seat in turn "
                                 "and try again")
        return cls(level, seats)

    def to_dict(self) -> dict[str, Any]:
        """JSON/TOML-ready: ``{"level": [x, y, z], "seats": {"1": [x, y, z], ...}}``."""
        return {"level": [round(c, 6) for c in self.level],
                "seats": {str(s): [round(c, 6) for c in v] for s, v in self.seats.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Calibration":
        """Inverse of :meth:`to_dict`; seat keys may be strings (TOML, JSON) or ints."""
        if not isinstance(data, Mapping) or "level" not in data or "seats" not in data:
            raise ValueError("a calibration needs `level = [x, y, z]` and a `seats` table")
        if not isinstance(data["seats"], Mapping):
            raise ValueError("calibration `seats` must be a table of seat number = [x, y, z]")
        seats = {}
        for key, value in data["seats"].items():
            try:
                seats[int(key)] = value
            except (TypeError, ValueError):
                raise ValueError(f"calibration seat {key!r} is not a seat number") from None
        return cls(data["level"], seats)

    def to_toml(self) -> str:
        """The ``[calibration]`` tables for the config file."""
        d = self.to_dict()
        lines = ["[calibration]", f"level = {d['level']}", "", "[calibration.seats]"]
        lines += [f"{seat} = {v}" for seat, v in d["seats"].items()]
        return "\n".join(lines) + "\n"


def _level(value: Any) -> tuple[Vector, Vector]:
    """The level vector (g) checked to read about 1 g, and its unit vector."""
    level = _vector(value, "calibration level")
    size = _norm(level)
    if not 0.5 <= size <= 2.0:
        raise ValueError(f"the level reading is {size:.2f} g, but a sensor at rest reads about 1 g: "
                         "check the sensor (all zeros means it is not answering) and recalibrate")
    return level, (level[0] / size, level[1] / size, level[2] / size)


def _median(samples: Iterable[Sequence[float]], what: str) -> Vector:
    import statistics  # calibration only: kept off the table's start (statistics loads fractions, decimal)

    rows = [_vector(s, f"a {what} sample") for s in samples]
    if not rows:
        raise ValueError(f"no {what} samples: is the sensor answering?")
    return tuple(statistics.median(column) for column in zip(*rows))  # type: ignore[return-value]


class TiltDetector:
    """Turns samples into ``TrayTilted(seat, angle, t)`` and ``TrayLevel(t)``, once each.

    ``state`` is one of ``"unknown"`` (no usable sample yet), ``"level"``, ``"tilting"``
    (past the arming angle, in its dwell), ``"tilted"`` (reported) and ``"levelling"``
    (reported, now under ``level_deg``, waiting ``level_hold_s``). ``angle_deg`` is the
    filtered angle from level (None before the first usable sample); ``seat`` is the seat
    it leans toward (None under 1 degree). Both are for ``companion doctor`` and the UI.
    """

    def __init__(self, calibration: Calibration, config: TiltConfig = TiltConfig()):
        self.calibration = calibration
        self.config = config
        self._ref = _norm(calibration.level)
        self._up = tuple(c / self._ref for c in calibration.level)
        self._seats = list(calibration.seats.items())
        self._cos_swing = math.cos(math.radians(config.max_swing_deg))
        self._floor = max(config.arm_deg - config.dwell_drop_deg, config.quiet_deg)
        self._filt: list[float] | None = None  # the low-passed vector (g)
        self._last_t: float | None = None
        self._last_ok_t = self._quiet_until = -math.inf  # last gated-in sample; end of holdoff
        self._dt, self._alpha = -1.0, 1.0  # the filter gain for the last spacing
        self._state, self._since = UNKNOWN, 0.0  # since: start of the dwell or of being level
        self._angle: float | None = None
        self._dir = self._pending_dir = (0.0, 0.0, 0.0)  # unit tilt direction: now, at dwell start

    @property
    def state(self) -> str:
        return self._state

    @property
    def angle_deg(self) -> float | None:
        return self._angle

    @property
    def seat(self) -> int | None:
        return None if self._angle is None or self._angle < 1.0 else self._seat_of(self._dir)

    def _seat_of(self, direction: Vector) -> int:
        return max(self._seats, key=lambda item: _dot(item[1], direction))[0]

    def feed(self, t: float, x: float, y: float, z: float) -> list[TrayTilted | TrayLevel]:
        """One sample: ``t`` in seconds (non-decreasing), ``x, y, z`` in g."""
        if self._last_t is not None and t < self._last_t:
            raise ValueError(f"sample time went backwards ({t} after {self._last_t})")
        self._last_t = t
        cfg = self.config
        if not abs(math.sqrt(x * x + y * y + z * z) / self._ref - 1.0) <= cfg.magnitude_tol:  # NaN too
            self._quiet_until = t + cfg.shock_holdoff_s
            return []
        if t < self._quiet_until:
            return []
        f = self._filt
        gap = f is None or t - self._last_ok_t > cfg.max_gap_s
        if gap:
            f = self._filt = [x, y, z]
        else:
            dt = t - self._last_ok_t
            if dt != self._dt:  # at a steady rate exp() runs once, not per sample
                self._dt = dt
                self._alpha = 1.0 - math.exp(-dt / cfg.lowpass_s) if cfg.lowpass_s > 0 else 1.0
            a = self._alpha
            f[0] += a * (x - f[0])
            f[1] += a * (y - f[1])
            f[2] += a * (z - f[2])
        self._last_ok_t = t
        up = self._up
        along = f[0] * up[0] + f[1] * up[1] + f[2] * up[2]
        p = (f[0] - along * up[0], f[1] - along * up[1], f[2] - along * up[2])
        across = math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2])
        self._angle = math.degrees(math.atan2(across, along))
        if across > 1e-12:
            self._dir = (p[0] / across, p[1] / across, p[2] / across)
        return self._step(t, gap)

    def _step(self, t: float, gap: bool) -> list[TrayTilted | TrayLevel]:
        cfg, angle = self.config, self._angle
        assert angle is not None
        if self._state == UNKNOWN:
            self._state = LEVEL
        if self._state == LEVEL and angle >= cfg.arm_deg:
            self._state, self._since, self._pending_dir = TILTING, t, self._dir
            gap = False
        elif self._state == TILTED and angle < cfg.level_deg:
            self._state, self._since = LEVELLING, t
            gap = False
        if self._state == TILTING:
            if angle < self._floor:
                self._state = LEVEL
            elif gap or _dot(self._dir, self._pending_dir) < self._cos_swing:
                self._since, self._pending_dir = t, self._dir  # shaken, or unseen: start again
            elif t - self._since >= cfg.hold_s - cfg.dwell_slack_s - 1e-9:
                self._state = TILTED
                return [TrayTilted(self._seat_of(self._dir), round(angle, 1), t)]
        elif self._state == LEVELLING:
            if angle >= cfg.level_deg:
                self._state = TILTED
            elif gap:
                self._since = t
            elif t - self._since >= cfg.level_hold_s - 1e-9:
                self._state = LEVEL
                return [TrayLevel(t)]
        return []
