"""The optional GPIO parts: two arcade buttons (confirm, undo), a buzzer and a status LED.

gpiozero drives the pins; tests use its ``MockFactory`` (``gpiozero.pins.mock``), so the
same code runs on a desk. Pins are BCM numbers from config; every part is optional.

Feedback, as at a museum's card reader: every scan gets a sound and a light, a short
high beep and a green blink for accepted, two low beeps and a longer blink for rejected,
nothing for a read ignored inside the tap-off window (the first read already beeped).

>>> from gpiozero.pins.mock import MockFactory
>>> fb = Feedback(buzzer_pin=18, led_pin=23, pin_factory=MockFactory())
>>> fb.pattern("accepted")
((0.08, 0.0),)
>>> fb.close()
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any

from companion.core.clock import Clock
from companion.core.events import ButtonPressed

log = logging.getLogger(__name__)

# (on seconds, off seconds) pairs for the buzzer and LED.
_PATTERNS = {
    "accepted": ((0.08, 0.0),),
    "rejected": ((0.15, 0.1), (0.15, 0.0)),
    "alert": ((0.3, 0.15), (0.3, 0.15), (0.3, 0.0)),
}


class Feedback:
    """A buzzer and/or an LED that answer each verdict. Either pin may be None.

    Patterns play in a background thread so the session never waits on a beep. Raises
    whatever gpiozero raises for a pin that is in use or does not exist
    (``gpiozero.GPIOZeroError``); the caller logs it and carries on without feedback.
    """

    def __init__(self, buzzer_pin: int | None = None, led_pin: int | None = None, pin_factory: Any = None):
        from gpiozero import LED, Buzzer

        self._buzzer = Buzzer(buzzer_pin, pin_factory=pin_factory) if buzzer_pin is not None else None
        self._led = LED(led_pin, pin_factory=pin_factory) if led_pin is not None else None
        self._jobs: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="feedback", daemon=True)
        self._thread.start()

    @staticmethod
    def pattern(verdict: str) -> tuple[tuple[float, float], ...]:
        """The (on, off) seconds for a verdict; () for "ignored" or anything unknown."""
        return _PATTERNS.get(verdict, ())

    def signal(self, verdict: str) -> None:
        """Play the pattern for ``"accepted"``, ``"rejected"`` or ``"alert"`` (non-blocking)."""
        if self.pattern(verdict):
            self._jobs.put(verdict)

    def _run(self) -> None:
        while True:
            verdict = self._jobs.get()
            if verdict is None:
                return
            for on, off in self.pattern(verdict):
                for part in (self._buzzer, self._led):
                    if part is not None:
                        part.on()
                threading.Event().wait(on)
                for part in (self._buzzer, self._led):
                    if part is not None:
                        part.off()
                threading.Event().wait(off)

    def close(self) -> None:
        """Stop the pattern thread and release the pins (idempotent)."""
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join(2.0)
        for part in (self._buzzer, self._led):
            if part is not None:
                part.close()


class TableButtons:
    """The confirm and undo arcade buttons, wired from a GPIO pin to GND (internal pull-up).

    Each press puts ``ButtonPressed(name, t)`` on ``out``. ``bounce_time`` is in seconds.
    """

    def __init__(self, out: "queue.Queue", clock: Clock, pins: dict[str, int], pin_factory: Any = None,
                 bounce_time: float = 0.05):
        from gpiozero import Button

        self._buttons = {}
        for name, pin in pins.items():
            button = Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
            button.when_pressed = lambda _b=None, name=name: out.put(ButtonPressed(name, clock.now()))
            self._buttons[name] = button

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
