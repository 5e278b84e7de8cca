"""Guided calibration works whatever way up the breakout is taped."""

import math
import random

import pytest

from companion.devices.calibrate import Calibrator
from companion.devices.tilt import TiltDetector
from companion.core.events import TrayTilted


def rotate(v, axis, deg):
    """Rotate vector v about a unit axis by deg (Rodrigues)."""
    a = math.radians(deg)
    k = axis
    c, s = math.cos(a), math.sin(a)
    dot = sum(x * y for x, y in zip(k, v))
    cross = (k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0])
    return tuple(v[i] * c + cross[i] * s + k[i] * dot * (1 - c) for i in range(3))


def mounting(level, right):
    """Seat tilt directions for a sensor whose 'up' reads `level`: seats 90 degrees apart."""
    up = level
    fwd = (up[1] * right[2] - up[2] * right[1], up[2] * right[0] - up[0] * right[2], up[0] * right[1] - up[1] * right[0])
    return {1: right, 2: fwd, 3: tuple(-c for c in right), 4: tuple(-c for c in fwd)}


def tilted(level, direction, deg):
    return tuple(l * math.cos(math.radians(deg)) + d * math.sin(math.radians(deg)) for l, d in zip(level, direction))


@pytest.mark.parametrize("level, right", [
    ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0)),        # flat, Z up
    ((0.0, 0.0, -1.0), (0.0, 1.0, 0.0)),       # upside down, turned 90 degrees
    ((1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),        # on its side: X up
])
def test_calibration_then_detection_names_the_right_seat(level, right):
    rng = random.Random(1)
    dirs = mounting(level, right)
    cal = Calibrator(seats=4)
    t = 0.0
    prompts = [cal.prompt]

    def hold(vec, seconds):
        nonlocal t
        for _ in range(int(seconds * 100)):
            t += 0.01
            noisy = tuple(c + rng.gauss(0, 0.005) for c in vec)
            if cal.feed(t, *noisy):
                prompts.append(cal.prompt)

    hold(level, 2.0)
    for seat in range(1, 5):
        hold(tilted(level, dirs[seat], 20), 1.5)
        hold(level, 0.5)
    assert cal.done and cal.result is not None
    assert prompts[0].startswith("Leave the tray level") and "seat 4" in " ".join(prompts)
    # The detector with this calibration names each seat correctly.
    for seat in range(1, 5):
        det = TiltDetector(cal.result)
        events = []
        for i in range(300):
            vec = level if i < 100 or i > 220 else tilted(level, dirs[seat], 25)
            events += det.feed(i / 100, *vec)
        tilts = [e for e in events if isinstance(e, TrayTilted)]
        assert [e.seat for e in tilts] == [seat]


def test_a_knock_during_the_level_phase_is_ignored():
    cal = Calibrator(seats=2)
    for i in range(100):
        cal.feed(i / 100, 0, 0, 1.0)
    assert not cal.feed(1.0, 0, 0, 2.5)  # a knock: not a sample
    for i in range(101, 200):
        cal.feed(i / 100, 0, 0, 1.0)
    assert cal.phase == "seat"
