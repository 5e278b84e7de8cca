"""The guided tray calibration (``companion calibrate``): level, then a tilt toward each seat.

:class:`Calibrator` is pure: fed samples (seconds, g), it says what to ask the table and,
when done, gives a :class:`~companion.devices.tilt.Calibration`. It works whatever way up
the breakout is taped, because it only compares samples with each other:

1. "Leave the tray level": 1.5 s of still samples (each within 0.03 g of the previous
   second's median) become the level reference.
2. For each seat: "Tilt the tray toward seat N and hold it": once the vector has moved
   more than 10 degrees from level and stayed still for 1 s, that hold is the seat's sample.
3. "Put it back level" before the next seat.

Samples far from 1 g (knocks, a lift) are skipped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .tilt import Calibration

STILL_G = 0.06        # g: how far a sample may stray from the hold's mean and still count as still
LEVEL_HOLD_S = 1.5    # seconds of stillness for the level reference
SEAT_HOLD_S = 1.0     # seconds a seat tilt must be held
SEAT_MIN_DEG = 10.0   # degrees from level before a hold counts as a seat tilt
BACK_DEG = 4.0        # degrees: "back to level" between seats


def _angle(a, b) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(x * x for x in b))
    return math.degrees(math.acos(max(-1.0, min(1.0, dot / (na * nb)))))


@dataclass
class Calibrator:
    """Guided calibration for ``seats`` seats (1-based). Feed samples; read :attr:`prompt`;
    :attr:`result` is the Calibration once :attr:`done`. Raises ValueError from
    :meth:`Calibration.from_samples` if the seat tilts cannot be told apart."""

    seats: int = 4
    phase: str = "level"          # "level", "seat", "back", "done"
    seat: int = 1
    result: Calibration | None = None
    _level: list = field(default_factory=list)
    _held: list = field(default_factory=list)
    _seat_samples: dict = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return self.phase == "done"

    @property
    def prompt(self) -> str:
        return {
            "level": "Leave the tray level and don't touch it...",
            "seat": f"Tilt the tray toward seat {self.seat} (about 20 degrees) and hold it still...",
            "back": "Good. Now put the tray back level.",
            "done": "Calibration done.",
        }[self.phase]

    def feed(self, t: float, x: float, y: float, z: float) -> bool:
        """One sample. Returns True when the prompt changed."""
        g = (x, y, z)
        size = math.sqrt(x * x + y * y + z * z)
        if not 0.85 <= size <= 1.15 or self.done:
            return False
        before = (self.phase, self.seat)
        if self.phase == "level":
            self._hold(t, g, LEVEL_HOLD_S, self._level_done)
        elif self.phase == "seat":
            if _angle(g, self.level) < SEAT_MIN_DEG:
                self._held.clear()
            else:
                self._hold(t, g, SEAT_HOLD_S, self._seat_done)
        elif self.phase == "back" and _angle(g, self.level) < BACK_DEG:
            self.phase = "seat"
        return (self.phase, self.seat) != before

    @property
    def level(self):
        return tuple(sum(c) / len(self._level) for c in zip(*self._level))

    def _hold(self, t, g, seconds, then) -> None:
        if self._held:
            mean = [sum(c) / len(self._held) for c in zip(*(s for _, s in self._held))]
            if max(abs(a - b) for a, b in zip(g, mean)) > STILL_G:
                self._held.clear()
        self._held.append((t, g))
        if t - self._held[0][0] >= seconds:
            samples = [s for _, s in self._held]
            self._held = []
            then(samples)

    def _level_done(self, samples) -> None:
        self._level = samples
        self.phase = "seat"

    def _seat_done(self, samples) -> None:
        self._seat_samples[self.seat] = samples
        if self.seat == self.seats:
            self.result = Calibration.from_samples(self._level, self._seat_samples)
            self.phase = "done"
        else:
            self.seat += 1
            self.phase = "back"
