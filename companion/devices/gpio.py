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
import time
from typing import Any, Callable

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


class Debouncer:
    """Decides which edges of one button are presses, by time. Pure: times are given.

    A press counts unless the contact changed (pressed or released) less than
    ``bounce_time`` seconds before it: the extra edges of a bouncing contact all come
    within a few milliseconds of another edge, a real second press does not.

    >>> d = Debouncer(0.05)
    >>> [d.edge(p, t) for p, t in [(True, 0.0), (False, 0.002), (True, 0.004), (False, 0.2), (True, 0.35)]]
    [True, False, False, False, True]
    """

    def __init__(self, bounce_time: float):
        self.bounce_time = bounce_time
        self._last_edge = float("-inf")
        self._lock = threading.Lock()

    def edge(self, pressed: bool, t: float) -> bool:
        """Note an edge at ``t`` seconds; True when it is a press that counts."""
        with self._lock:
            quiet = t - self._last_edge >= self.bounce_time
            self._last_edge = t
            return pressed and quiet


class TableButtons:
    """The confirm and undo arcade buttons, wired from a GPIO pin to GND (internal pull-up).

    Each press puts ``ButtonPressed(name, t)`` on ``out`` (``t`` from ``clock``).
    Debounced here, by time (:class:`Debouncer`, ``bounce_time`` seconds, None for off),
    not by gpiozero's pin-level ``bounce_time``, which some pin factories ignore (the mock
    factory does), so a bouncing press is one press under every factory. ``timer`` gives
    the debounce times (default ``time.monotonic``: not disturbed by the wall clock
    being set).
    """

    def __init__(self, out: "queue.Queue", clock: Clock, pins: dict[str, int], pin_factory: Any = None,
                 bounce_time: float | None = 0.05, timer: Callable[[], float] = time.monotonic):
        from gpiozero import Button

        self._buttons = {}
        for name, pin in pins.items():
            button = Button(pin, pull_up=True, pin_factory=pin_factory)
            debounce = Debouncer(bounce_time or 0.0)

            def pressed(_b=None, name=name, debounce=debounce) -> None:
                if debounce.edge(True, timer()):
                    out.put(ButtonPressed(name, clock.now()))

            button.when_pressed = pressed
            button.when_released = lambda _b=None, debounce=debounce: debounce.edge(False, timer())
            self._buttons[name] = button

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()


class TimerAlarm:
    """Sounds ``feedback``'s "alert" (three long beeps) once as a turn's clock starts
    warning (10 s left of a turn limit or a chess-clock bank), not again until the warning
    has ended and starts anew.

    >>> class Fb:
    ...     def signal(self, verdict): print(verdict)
    >>> alarm = TimerAlarm(Fb())
    >>> for warning in (False, True, True, False, True): alarm(warning)
    alert
    alert
    """

    def __init__(self, feedback):
        self._feedback = feedback
        self._on = False

    def __call__(self, warning: bool) -> None:
        if warning and not self._on:
            self._feedback.signal("alert")
        self._on = warning


class StatusLed:
    """One LED that says how the table is: steady on, ready; slow blink (1 s on, 1 s off),
    a device is offline; fast blink (0.1 s), an error that needs a person.

    >>> from gpiozero.pins.mock import MockFactory
    >>> led = StatusLed(23, pin_factory=MockFactory())
    >>> led.show("ready"); led.state
    'ready'
    >>> led.close()
    """

    BLINKS = {"offline": (1.0, 1.0), "error": (0.1, 0.1)}

    def __init__(self, pin: int, pin_factory: Any = None, error_if: Callable[[], bool] | None = None):
        from gpiozero import LED

        self._led = LED(pin, pin_factory=pin_factory)
        self._devices: dict[str, str] = {}
        self._error_if = error_if
        self.state: str | None = None

    def show(self, state: str) -> None:
        """``"ready"``, ``"offline"`` or ``"error"`` (an unknown state is an error)."""
        if state == self.state:
            return
        self.state = state
        if state == "ready":
            self._led.on()
        else:
            on, off = self.BLINKS.get(state, self.BLINKS["error"])
            self._led.blink(on_time=on, off_time=off, background=True)

    def heard(self, item, verdict) -> None:
        """A session listener: ``error_if()`` true (e.g. a result the store could not save)
        is an error; else a device that reports anything but "connected" is offline."""
        if verdict is None and hasattr(item, "status"):
            self._devices[item.device] = item.status
        if self._error_if is not None and self._error_if():
            self.show("error")
            return
        offline = any(status != "connected" for status in self._devices.values())
        self.show("offline" if offline else "ready")

    def close(self) -> None:
        self._led.close()


def table_gpio(gpio: dict, out: "queue.Queue", clock: Clock, pin_factory: Any = None,
               error_if: Callable[[], bool] | None = None):
    """The buttons and status LED named in the config's ``[gpio]`` table (pins or None),
    as ``(buttons or None, status LED or None)``. gpiozero errors (not a Pi, pin busy)
    propagate; the caller reports them and carries on without."""
    pins = {name: gpio[name] for name in ("confirm", "undo") if gpio.get(name) is not None}
    buttons = TableButtons(out, clock, pins, pin_factory, gpio.get("bounce", 0.05)) if pins else None
    try:
        led = StatusLed(gpio["led"], pin_factory, error_if) if gpio.get("led") is not None else None
    except Exception:
        if buttons is not None:
            buttons.close()
        raise
    return buttons, led
