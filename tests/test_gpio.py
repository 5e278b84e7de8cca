"""GPIO feedback and buttons on gpiozero's MockFactory."""

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.core.clock import FakeClock
from companion.core.events import ButtonPressed
from companion.devices.gpio import Feedback, TableButtons


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


def wait_states(pin, n, timeout=2.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(pin.states) < n:
        time.sleep(0.01)
    return [s.state for s in pin.states]


def test_a_rejected_scan_beeps_twice_and_an_accepted_one_once(factory):
    fb = Feedback(buzzer_pin=18, led_pin=23, pin_factory=factory)
    try:
        fb.signal("rejected")
        assert wait_states(factory.pin(18), 5) == [False, True, False, True, False]
        assert wait_states(factory.pin(23), 5) == [False, True, False, True, False]
        factory.pin(18).clear_states()
        fb.signal("ignored")   # nothing: the first read already beeped
        fb.signal("accepted")
        states = wait_states(factory.pin(18), 3)
        assert states[-3:] == [False, True, False] and len(states) == 3
    finally:
        fb.close()


def test_buttons_put_presses_on_the_queue(factory):
    q = queue.Queue()
    buttons = TableButtons(q, FakeClock(5.0), {"confirm": 17, "undo": 27}, pin_factory=factory, bounce_time=None)
    try:
        factory.pin(27).drive_low()
        assert q.get(timeout=2.0) == ButtonPressed("undo", 5.0)
        factory.pin(27).drive_high()
        factory.pin(17).drive_low()
        assert q.get(timeout=2.0) == ButtonPressed("confirm", 5.0)
    finally:
        buttons.close()


def drain(q) -> list:
    items = []
    while True:
        try:
            items.append(q.get(timeout=0.2))
        except queue.Empty:
            return items


def bounce(pin, clock, edges=5, every=0.0025):
    """A press whose contact bounces: ``edges`` alternating edges ``every`` s apart,
    starting and ending closed (low)."""
    for i in range(edges):
        pin.drive_low() if i % 2 == 0 else pin.drive_high()
        clock.advance(every)


def test_a_bouncing_press_is_one_press_even_where_the_pin_factory_ignores_bounce_time(factory):
    """gpiozero's MockFactory (like some real pin factories) ignores the pin-level
    bounce_time: five edges in 10 ms must still be one press."""
    q, clock = queue.Queue(), FakeClock(0.0)
    buttons = TableButtons(q, clock, {"confirm": 17}, pin_factory=factory, timer=clock.now)
    try:
        pin = factory.pin(17)
        bounce(pin, clock)
        clock.advance(0.1)
        bounce(pin, clock, edges=4)  # the release bounces too, ending open (high)
        pin.drive_high()
        assert drain(q) == [ButtonPressed("confirm", 0.0)]
        clock.advance(0.15)  # a real second press 150 ms after the release
        pressed_at = clock.now()
        bounce(pin, clock)
        assert drain(q) == [ButtonPressed("confirm", pressed_at)]
    finally:
        buttons.close()


def test_each_button_is_debounced_on_its_own(factory):
    q, clock = queue.Queue(), FakeClock(0.0)
    buttons = TableButtons(q, clock, {"confirm": 17, "undo": 27}, pin_factory=factory, timer=clock.now)
    try:
        factory.pin(17).drive_low()
        factory.pin(27).drive_low()
        assert [p.name for p in drain(q)] == ["confirm", "undo"]
    finally:
        buttons.close()
