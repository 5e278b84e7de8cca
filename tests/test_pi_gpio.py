"""The buttons and status LED from the config, on gpiozero's MockFactory: each press
reaches the session as exactly one ButtonPressed, contact bounce included."""

import queue
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.core.clock import FakeClock
from companion.core.events import ButtonPressed, DeviceStatus
from companion.devices.gpio import StatusLed, TableButtons, table_gpio


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


def bounce(pin, times=4):
    """A worn switch: the contact chatters before it settles closed."""
    for _ in range(times):
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()


def drain(q, wait=0.2):
    items, deadline = [], time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            items.append(q.get(timeout=0.02))
        except queue.Empty:
            pass
    return items


def test_a_bouncing_press_is_one_input_and_the_next_press_another(factory):
    q = queue.Queue()
    buttons = TableButtons(q, FakeClock(7.0), {"confirm": 17, "undo": 27}, pin_factory=factory, bounce_time=0.05)
    try:
        bounce(factory.pin(17))
        assert drain(q) == [ButtonPressed("confirm", 7.0)]
        factory.pin(17).drive_high()  # released; the release chatters too
        factory.pin(17).drive_low()
        factory.pin(17).drive_high()
        assert drain(q, 0.01) == []
        time.sleep(0.06)
        bounce(factory.pin(27))
        factory.pin(17).drive_low()  # the other button is not held back by this one
        assert sorted(drain(q), key=lambda b: b.name) == [ButtonPressed("confirm", 7.0), ButtonPressed("undo", 7.0)]
    finally:
        buttons.close()


def test_status_led_steady_when_ready_and_blinks_for_an_offline_device(factory):
    led = StatusLed(23, pin_factory=factory)
    try:
        led.show("ready")
        assert factory.pin(23).state == 1
        led.heard(DeviceStatus("scanner", "connected", 1.0), None)
        assert led.state == "ready"
        led.heard(DeviceStatus("scanner", "disconnected", 2.0, "unplugged"), None)
        assert led.state == "offline"
        factory.pin(23).clear_states()
        time.sleep(1.3)
        assert len(factory.pin(23).states) >= 2  # on, then off after 1 s: blinking
        led.heard(DeviceStatus("scanner", "connected", 3.0), None)
        assert led.state == "ready" and factory.pin(23).state == 1
        led.show("error")
        factory.pin(23).clear_states()
        time.sleep(0.5)
        assert len(factory.pin(23).states) >= 4  # a fast blink
    finally:
        led.close()


def test_status_led_blinks_fast_while_a_result_is_unsaved_and_is_steady_after(factory):
    unsaved = [True]
    led = StatusLed(23, pin_factory=factory, error_if=lambda: unsaved[0])
    try:
        led.show("ready")
        led.heard(DeviceStatus("scanner", "connected", 1.0), None)
        assert led.state == "error"
        unsaved[0] = False  # the runner's retry saved it
        led.heard(object(), object())  # the next input's verdict
        assert led.state == "ready"
    finally:
        led.close()


def test_table_gpio_builds_only_what_the_config_names(factory):
    buttons, led = table_gpio({"confirm": None, "undo": None, "led": None, "bounce": 0.05}, queue.Queue(),
                              FakeClock(0.0), factory)
    assert buttons is None and led is None
    buttons, led = table_gpio({"confirm": None, "undo": 27, "led": 23, "bounce": 0.05}, queue.Queue(),
                              FakeClock(0.0), factory)
    assert buttons is not None and led is not None
    buttons.close()
    led.close()


def test_companion_run_wires_config_buttons_into_the_session(tmp_path, monkeypatch):
    """The whole path: config [gpio] -> `companion run` -> the session's queue -> the
    session, one ButtonPressed per press (a bouncing Undo takes back one scan, not two);
    the status LED is on once the table is ready."""
    import signal

    from companion import cli
    from companion.core.events import CardScanned
    from companion.table.runner import Runner
    from sugarrr_helpers import STARTS

    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    f = tmp_path / "c.toml"
    f.write_text("[game]\nnames = [\"Ana\", \"Ben\"]\n[gpio]\nconfirm = 17\nundo = 27\nled = 23\n")
    heard, led_on = [], []

    def loop(self, frame=1 / 30):
        self.session.listeners.append(lambda item, verdict: heard.append((item, verdict)))
        led_on.append(factory.pin(23).state)
        for code in STARTS[:2]:
            self.inputs.put(CardScanned(code, "scanner", self.clock.now()))
        self.step(block=0.05)
        bounce(factory.pin(27))  # Undo, chattering
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and len(heard) < 3:
            self.step(block=0.05)
        for _ in range(5):
            self.step(block=0.02)  # anything more that came (it must not)

    monkeypatch.setattr(Runner, "loop", loop)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))  # --simulate reads nothing typed
    old = signal.getsignal(signal.SIGTERM)
    try:
        assert cli.main(["run", "--config", str(f), "--headless", "--simulate", "--store", str(tmp_path / "t.db")]) == 0
    finally:
        signal.signal(signal.SIGTERM, old)
        factory.reset()
    presses = [(item, verdict) for item, verdict in heard if isinstance(item, ButtonPressed)]
    assert [(item.name, verdict.verdict) for item, verdict in presses] == [("undo", "accepted")]
    assert [type(e).__name__ for e in presses[0][1].events] == ["Undone"]
    assert led_on == [1]


def test_the_buzzer_sounds_once_as_a_turns_last_ten_seconds_begin(factory):
    """A 30 s turn limit: three long beeps at 20 s (10 s left), none before, none again
    while the warning lasts; the main loop's tick drives it."""
    from companion.core.store import EventStore
    from companion.devices.gpio import Feedback, TimerAlarm
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.ui.timers import Timers

    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), clock)
    feedback = Feedback(buzzer_pin=18, pin_factory=factory)
    try:
        runner = Runner(session, clock, timers=Timers(limit=30))
        runner.alarm = TimerAlarm(feedback)
        buzzer = factory.pin(18)
        buzzer.clear_states()
        for t in (105.0, 115.0, 119.9):
            clock.set(t)
            runner.tick()
        time.sleep(0.2)
        assert len(buzzer.states) == 1  # just the initial state: silent so far
        for t in (120.0, 121.0, 125.0, 131.0):
            clock.set(t)
            runner.tick()
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and len(buzzer.states) < 7:
            time.sleep(0.05)
        time.sleep(0.3)
        assert [s.state for s in buzzer.states][1:] == [True, False, True, False, True, False]  # one alert
    finally:
        feedback.close()
