"""Generated tray motion for the tilt detector's tests and bench (issue 3, "Done when").

A scene is what happens to the tray over time: deliberate tilts toward a seat, hovering,
drift, knocks, vibration, a jostled table, a lift. :func:`samples` turns it into what a
breakout taped under the tray reads (g), at 100 Hz or irregular times, with noise.

Tray frame: z up, seat k sits in compass direction ``SEAT_DIRS[k]`` (seat 1 toward +x,
seat 2 +y, seat 3 -x, seat 4 -y). Tilting the tray toward a seat lowers that edge, so the
up vector gains a component away from the seat. The sensor reads the up vector (1 g at
rest) plus any linear acceleration, in its own axes: ``mount`` gives the sensor's x, y, z
axes in tray coordinates (identity: taped flat, Z up, X toward seat 1).

    python tests/tilt_motion.py      # rewrites tests/data/tilt-two-seats.csv
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

SEAT_DIRS = {1: (1.0, 0.0), 2: (0.0, 1.0), 3: (-1.0, 0.0), 4: (0.0, -1.0)}
FLAT = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
UPSIDE_DOWN = ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, -1.0))  # turned over about x
ON_ITS_SIDE = ((0.0, 0.0, 1.0), (0.0, 1.0, 0.0), (-1.0, 0.0, 0.0))  # sensor x points up
_c, _s = math.cos(math.radians(30)), math.sin(math.radians(30))
SKEWED = ((_c, -_s, 0.0), (-_s, -_c, 0.0), (0.0, 0.0, -1.0))  # upside down, turned 30 deg


@dataclass(frozen=True)
class Tilt:
    """Tilt toward ``seat`` to ``angle_deg``: ramp up over ``ramp_s`` from ``start`` (s),
    hold ``hold_s``, ramp back over ``back_s`` (default: ``ramp_s``)."""

    seat: int
    angle_deg: float
    start: float
    ramp_s: float
    hold_s: float
    back_s: float | None = None
    wobble_deg: float = 0.0  # +- this, on top, while held (hovering)
    wobble_hz: float = 2.0

    @property
    def end(self) -> float:
        return self.start + self.ramp_s + self.hold_s + (self.ramp_s if self.back_s is None else self.back_s)

    def angle_at(self, t: float) -> float:
        u = t - self.start
        back = self.ramp_s if self.back_s is None else self.back_s
        if u <= 0 or u >= self.ramp_s + self.hold_s + back:
            return 0.0
        if u < self.ramp_s:
            return self.angle_deg * u / self.ramp_s
        u -= self.ramp_s
        if u <= self.hold_s:
            return self.angle_deg + self.wobble_deg * math.sin(2 * math.pi * self.wobble_hz * u)
        return self.angle_deg * (1 - (u - self.hold_s) / back)

    def crossing(self, deg: float = 15.0) -> float:
        """When the tray first passes ``deg`` degrees (s)."""
        return self.start + self.ramp_s * min(1.0, deg / self.angle_deg)


@dataclass(frozen=True)
class Knock:
    """A half-sine jolt of ``peak_g`` lasting ``dur_s``, along ``axis`` (tray frame)."""

    t: float
    peak_g: float
    dur_s: float = 0.03
    axis: tuple[float, float, float] = (1.0, 0.0, 0.0)

    def accel(self, t: float) -> float:
        u = t - self.t
        return self.peak_g * math.sin(math.pi * u / self.dur_s) if 0 <= u <= self.dur_s else 0.0


@dataclass(frozen=True)
class Vibration:
    """``amp_g`` at ``hz`` along ``axis`` from ``start`` for ``dur_s``; ``circular`` adds the
    same on the next axis a quarter turn later (a table shaking in a circle)."""

    start: float
    dur_s: float
    amp_g: float
    hz: float
    axis: tuple[float, float, float] = (1.0, 0.0, 0.0)
    circular: bool = False


@dataclass(frozen=True)
class Push:
    """A jostled table: ``g`` along ``axis`` for ``dur_s`` from ``start``, then the same back."""

    start: float
    g: float
    dur_s: float
    axis: tuple[float, float, float] = (1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Scene:
    duration: float
    tilts: tuple[Tilt, ...] = ()
    knocks: tuple[Knock, ...] = ()
    vibrations: tuple[Vibration, ...] = ()
    pushes: tuple[Push, ...] = ()
    lift: tuple[float, float, float] | None = None  # (start, seconds at peak, peak g), e.g. 1.3

    def reading(self, t: float) -> tuple[float, float, float]:
        """What a flat sensor would read (g, tray frame), without noise."""
        tx = ty = 0.0
        for tilt in self.tilts:
            a = math.radians(tilt.angle_at(t))
            dx, dy = SEAT_DIRS[tilt.seat]
            tx, ty = tx + a * dx, ty + a * dy
        a = math.hypot(tx, ty)
        v = [0.0, 0.0, 1.0] if a == 0 else [-math.sin(a) * tx / a, -math.sin(a) * ty / a, math.cos(a)]
        for k in self.knocks:
            g = k.accel(t)
            v = [c + g * ax for c, ax in zip(v, k.axis)]
        for vib in self.vibrations:
            if vib.start <= t <= vib.start + vib.dur_s:
                w = 2 * math.pi * vib.hz * (t - vib.start)
                g, axis = vib.amp_g * math.sin(w), vib.axis
                v = [c + g * ax for c, ax in zip(v, axis)]
                if vib.circular:
                    q = vib.amp_g * math.cos(w)
                    v = [v[0] - q * axis[1], v[1] + q * axis[0], v[2]]
        for p in self.pushes:
            u = t - p.start
            g = p.g if 0 <= u < p.dur_s else -p.g if p.dur_s <= u < 2 * p.dur_s else 0.0
            v = [c + g * ax for c, ax in zip(v, p.axis)]
        if self.lift is not None:
            start, hold, peak = self.lift
            edge, u = 0.05, t - start
            if 0 <= u <= hold + 2 * edge:
                ramp = min(1.0, u / edge, (hold + 2 * edge - u) / edge)
                v[2] += (peak - 1.0) * ramp
        return v[0], v[1], v[2]


def times(duration: float, rate_hz: float = 100.0, irregular: bool = False, seed: int = 1) -> list[float]:
    """Sample times (s): steady, or irregular (3-17 ms apart, with an occasional 40 ms stall)."""
    if not irregular:
        return [i / rate_hz for i in range(int(duration * rate_hz) + 1)]
    rng, t, out = random.Random(seed), 0.0, []
    while t <= duration:
        out.append(t)
        t += 0.04 if rng.random() < 0.01 else rng.uniform(0.003, 0.017)
    return out


def samples(scene: Scene, *, rate_hz: float = 100.0, irregular: bool = False, noise_g: float = 0.015,
            mount=FLAT, seed: int = 1) -> list[tuple[float, float, float, float]]:
    """``(t, x, y, z)`` as the sensor reads the scene (s, g), with Gaussian noise per axis."""
    rng = random.Random(seed * 7919 + 17)
    out = []
    for t in times(scene.duration, rate_hz, irregular, seed):
        v = scene.reading(t)
        out.append((t, *(sum(a * c for a, c in zip(axis, v)) + rng.gauss(0.0, noise_g) for axis in mount)))
    return out


def held(seat: int, angle_deg: float = 20.0, *, mount=FLAT, seconds: float = 1.0, seed: int = 3):
    """Calibration samples: the tray held still, tilted toward ``seat`` (0: level)."""
    tilts = () if seat == 0 else (Tilt(seat, angle_deg, -1.0, 0.5, 10.0),)
    return [s[1:] for s in samples(Scene(seconds, tilts=tilts), mount=mount, seed=seed)]


TWO_SEATS = Scene(10.0, tilts=(Tilt(1, 25.0, 2.0, 0.3, 1.0), Tilt(3, 30.0, 6.5, 0.2, 1.2)),
                  knocks=(Knock(5.0, 2.5, 0.04, (0.6, 0.0, 0.8)),))


def write_two_seats(path: Path) -> None:
    """tests/data/tilt-two-seats.csv: 10 s at 100 Hz; seat 1 at 2 s, a knock at 5 s, seat 3 at 6.5 s."""
    lines = ["t,ax,ay,az"]
    for t, x, y, z in samples(TWO_SEATS, noise_g=0.015, seed=11):
        lines.append(f"{t:.3f},{x:.4f},{y:.4f},{z:.4f}")
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    write_two_seats(Path(__file__).resolve().parent / "data" / "tilt-two-seats.csv")
