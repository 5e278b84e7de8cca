"""Write the held-out tray recordings the tilt bench scores (``bench/data/tilt-heldout-*.csv``
and their labels ``bench/data/tilt-heldout.json``).

    .venv/bin/python bench/make_tilt_recordings.py

Held out: the tests (``tests/test_tilt.py``) tune and check the detector on motions from
``tests/tilt_motion.py``; these come from a different model with different seeds, so the
bench sees motions the detector was never tuned on. The model, in the tray's frame (z up,
seat k toward ``SEATS[k]``):

- deliberate tilts: a minimum-jerk ramp (10t^3 - 15t^4 + 6t^5) to 17-40 degrees over
  0.08-0.9 s, in a direction up to 20 degrees off the seat's (hands are not precise), a
  small damped overshoot (3 Hz, up to 8 %), held 0.35-1.5 s, back over 0.1-0.8 s;
- peeks: the same up to 6-11 degrees (a player lifting an edge to look); dips: past 15
  degrees for under 0.12 s in all (a snatch at the tray);
- cups set down: a damped 35-60 Hz ring of 0.5-4 g decaying in 15-40 ms, along a random
  axis; table sway: 3-6 Hz, 0.1-0.25 g for 0.6-1.5 s; slides: 0.12-0.2 g sideways
  for 0.2-0.6 s then the same back; fidgeting: a slow random walk under 5 degrees;
- the sensor: Gaussian noise 0.008-0.02 g and a fixed bias up to 0.03 g per axis;
  samples every 10 ms +- 1 ms with a rare 30 ms stall; mounted flat, flat but 4 degrees
  off, or upside down and turned 30 degrees. The labels hold the calibration that
  ``companion calibrate`` would measure for that mount (level, and each seat's direction).

Each label gives the seat and the time the true tilt (no noise, no linear acceleration)
first passes 15 degrees.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent / "data"
SEATS = {1: (1.0, 0.0), 2: (0.0, 1.0), 3: (-1.0, 0.0), 4: (0.0, -1.0)}
SEEDS = (9101, 9203, 9307, 9409, 9511, 9613)  # tests/tilt_motion.py uses small seeds (1-120, 11)
SECONDS = 40.0


def _rot(axis, deg):
    """Rotation matrix (rows) about a unit ``axis`` by ``deg`` degrees."""
    x, y, z = axis
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    C = 1 - c
    return ((c + x * x * C, x * y * C - z * s, x * z * C + y * s),
            (y * x * C + z * s, c + y * y * C, y * z * C - x * s),
            (z * x * C - y * s, z * y * C + x * s, c + z * z * C))


def _apply(m, v):
    return tuple(sum(a * b for a, b in zip(r, v)) for r in m)


def _mul(a, b):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))


MOUNTS = {
    "flat": _rot((0.0, 0.0, 1.0), 0.0),
    "flat, 4 degrees off": _rot((0.6, 0.8, 0.0), 4.0),
    "upside down, turned 30 degrees": _mul(_rot((0.0, 0.0, 1.0), 30.0), _rot((1.0, 0.0, 0.0), 180.0)),
}


def _smooth(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * u * (10 - 15 * u + 6 * u * u)


class Gesture:
    """A tilt-like movement: ramp up, overshoot, hold, back. ``direction`` in degrees."""

    def __init__(self, start, angle, direction, ramp, hold, back, overshoot=0.0):
        self.start, self.angle, self.direction = start, angle, direction
        self.ramp, self.hold, self.back, self.overshoot = ramp, hold, back, overshoot

    @property
    def end(self) -> float:
        return self.start + self.ramp + self.hold + self.back

    def angle_at(self, t: float) -> float:
        u = t - self.start
        if u <= 0 or t >= self.end:
            return 0.0
        if u < self.ramp:
            return self.angle * _smooth(u / self.ramp)
        u -= self.ramp
        if u < self.hold:
            return self.angle * (1 + self.overshoot * math.exp(-u / 0.12) * math.sin(2 * math.pi * 3.0 * u))
        return self.angle * (1 - _smooth((u - self.hold) / self.back))

    def crossing(self, deg: float = 15.0) -> float | None:
        t = self.start
        while t < self.end:
            if self.angle_at(t) >= deg:
                return t
            t += 0.0005
        return None


def recording(seed: int, mount_name: str):
    rng = random.Random(seed)
    gestures, accels, labels = [], [], []
    t = 1.0
    kinds = ["tilt"] * 9 + ["peek"] * 3 + ["dip"] * 2 + ["cup"] * 4 + ["sway"] * 2 + ["slide"] * 2
    while t < SECONDS - 4.0:
        kind = rng.choice(kinds)
        if kind in ("tilt", "peek", "dip"):
            seat = rng.randint(1, 4)
            base = math.degrees(math.atan2(SEATS[seat][1], SEATS[seat][0]))
            direction = base + rng.uniform(-20, 20)
            if kind == "tilt":
                g = Gesture(t, rng.uniform(17, 40), direction, rng.uniform(0.08, 0.9), rng.uniform(0.35, 1.5),
                            rng.uniform(0.1, 0.8), rng.uniform(0.0, 0.08))
                labels.append({"seat": seat, "t15": round(g.crossing(), 4), "angle": round(g.angle, 1)})
            elif kind == "peek":
                g = Gesture(t, rng.uniform(6, 11), direction, rng.uniform(0.2, 0.8), rng.uniform(0.3, 1.5),
                            rng.uniform(0.2, 0.8))
            else:
                g = Gesture(t, rng.uniform(17, 22), direction, 0.06, 0.0, 0.06)
            gestures.append(g)
            t = g.end + rng.uniform(1.2, 2.5)
        elif kind == "cup":
            axis = _unit((rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)))
            accels.append(("ring", t, rng.uniform(0.5, 4.0), rng.uniform(35, 60), rng.uniform(0.015, 0.04), axis))
            t += rng.uniform(1.0, 2.0)
        elif kind == "sway":
            axis = _unit((rng.gauss(0, 1), rng.gauss(0, 1), 0.2 * rng.gauss(0, 1)))
            accels.append(("sway", t, rng.uniform(0.1, 0.25), rng.uniform(3, 6), rng.uniform(0.6, 1.5), axis))
            t += 3.0
        else:
            angle = rng.uniform(0, 2 * math.pi)
            accels.append(("slide", t, rng.uniform(0.12, 0.2), 0.0, rng.uniform(0.2, 0.6),
                           (math.cos(angle), math.sin(angle), 0.0)))
            t += 3.0
    mount = MOUNTS[mount_name]
    noise = rng.uniform(0.008, 0.02)
    bias = tuple(rng.uniform(-0.03, 0.03) for _ in range(3))
    walk, walk_dir = 0.0, 0.0
    rows, t = [], 0.0
    while t <= SECONDS:
        tx = ty = 0.0
        for g in gestures:
            a = math.radians(g.angle_at(t))
            if a:
                d = math.radians(g.direction)
                tx, ty = tx + a * math.cos(d), ty + a * math.sin(d)
        walk = max(0.0, min(math.radians(5), walk + rng.gauss(0, 0.002)))
        walk_dir += rng.gauss(0, 0.01)
        tx, ty = tx + walk * math.cos(walk_dir), ty + walk * math.sin(walk_dir)
        a = math.hypot(tx, ty)
        v = [0.0, 0.0, 1.0] if a == 0 else [-math.sin(a) * tx / a, -math.sin(a) * ty / a, math.cos(a)]
        for kind, start, amp, hz, dur, axis in accels:
            u = t - start
            if kind == "ring" and 0 <= u <= 8 * dur:
                g = amp * math.exp(-u / dur) * math.sin(2 * math.pi * hz * u)
            elif kind == "sway" and 0 <= u <= dur:
                g = amp * math.sin(2 * math.pi * hz * u) * math.sin(math.pi * u / dur)
            elif kind == "slide" and 0 <= u <= 2 * dur:
                g = amp if u < dur else -amp
            else:
                continue
            v = [c + g * x for c, x in zip(v, axis)]
        reading = _apply(mount, v)
        rows.append((t, *(r + b + rng.gauss(0, noise) for r, b in zip(reading, bias))))
        t += 0.03 if rng.random() < 0.003 else 0.01 + rng.uniform(-0.001, 0.001)
    level = _apply(mount, (0.0, 0.0, 1.0))
    seats = {str(k): _apply(mount, (-dx, -dy, 0.0)) for k, (dx, dy) in SEATS.items()}
    return rows, labels, {"level": level, "seats": seats}


def _unit(v):
    n = math.sqrt(sum(c * c for c in v)) or 1.0
    return tuple(c / n for c in v)


def main() -> None:
    HERE.mkdir(exist_ok=True)
    index = []
    mounts = list(MOUNTS)
    for i, seed in enumerate(SEEDS):
        mount = mounts[i % len(mounts)]
        rows, labels, cal = recording(seed, mount)
        name = f"tilt-heldout-{i + 1}.csv"
        lines = ["t,ax,ay,az"] + [f"{t:.3f},{x:.4f},{y:.4f},{z:.4f}" for t, x, y, z in rows]
        (HERE / name).write_text("\n".join(lines) + "\n")
        index.append({"file": name, "seed": seed, "mount": mount, "calibration": cal, "tilts": labels})
    (HERE / "tilt-heldout.json").write_text(json.dumps(index, indent=1) + "\n")
    print(f"wrote {len(index)} recordings, {sum(len(r['tilts']) for r in index)} deliberate tilts, to {HERE}")


if __name__ == "__main__":
    main()
