"""The idle table: the loop sleeps until an input, a touch or the clock's next second
(issues 13 and 15), and a second that only moves the clocks redraws just them."""

import os
import threading
import time

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from companion.core.clock import FakeClock, SystemClock  # noqa: E402
from companion.core.store import EventStore  # noqa: E402
from companion.devices.emulated.touch import EmulatedTouchscreen  # noqa: E402
from companion.table.runner import Runner  # noqa: E402
from companion.table.session import Session  # noqa: E402
from companion.ui.app import App  # noqa: E402
from companion.ui.wakeup import InputWatch  # noqa: E402


def wait_for(condition, timeout=2.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.005)
    return condition()


# ---------------------------------------------------------------- InputWatch


def test_a_device_with_input_wakes_once_per_burst_and_is_drained(tmp_path):
    app = App()  # the taps go into SDL's queue too
    woken = threading.Event()
    watch = InputWatch(woken.set, pattern=str(tmp_path / "event*")).start()
    ts = EmulatedTouchscreen().attach(watch)
    try:
        assert watch.watching and watch.devices() == ["emulated touchscreen"]
        assert not woken.wait(0.1)  # nothing touched: nothing wakes
        ts.tap(10, 10)
        assert woken.wait(1.0)
        assert wait_for(lambda: watch.wakes == 1)
        woken.clear()
        assert not woken.wait(0.1)  # drained: the same tap does not wake it again
    finally:
        ts.close()
        watch.stop()
        app.close()


def test_an_unplugged_device_is_forgotten_and_a_new_one_found(tmp_path):
    """Devices come and go (a touchscreen's USB cable): fifos stand in for event files."""
    os.mkfifo(tmp_path / "event0")
    watch = InputWatch(lambda: None, pattern=str(tmp_path / "event*"), rescan_s=0.05).start()
    try:
        assert watch.devices() == [str(tmp_path / "event0")]
        os.mkfifo(tmp_path / "event1")
        assert wait_for(lambda: len(watch.devices()) == 2)
        os.unlink(tmp_path / "event0")
        assert wait_for(lambda: watch.devices() == [str(tmp_path / "event1")])
        ts = EmulatedTouchscreen().attach(watch)
        ts.close()  # the emulated device unplugged: end of file
        assert wait_for(lambda: watch.devices() == [str(tmp_path / "event1")])
    finally:
        watch.stop()


def test_nothing_to_watch_means_the_loop_must_poll(tmp_path):
    watch = InputWatch(lambda: None, pattern=str(tmp_path / "none*"))
    assert not watch.watching and watch.devices() == []
    watch.stop()


# ---------------------------------------------------------------- the loop


def idle_table(tmp_path, watched: bool):
    clock = SystemClock()
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock, tap_off=1.0)
    runner = Runner(session, clock, app=App())
    ts = None
    if watched:
        runner.watch = InputWatch(runner.wake, pattern=str(tmp_path / "none*")).start()
        ts = EmulatedTouchscreen(runner.app.size).attach(runner.watch)
    return runner, ts


def run_loop_for(runner, seconds, during=None):
    runner.stopping = False
    threading.Timer(seconds, runner.stop).start()
    if during is not None:
        threading.Thread(target=during, daemon=True).start()
    runner.loop()


def test_an_idle_watched_loop_wakes_about_once_a_second_and_a_tap_wakes_it_at_once(tmp_path):
    runner, ts = idle_table(tmp_path, watched=True)
    try:
        runner.step()  # the first frame
        turns = runner.turns
        run_loop_for(runner, 1.6)
        assert runner.turns - turns <= 4  # one a second (the turn clock), not 100 a second

        # A tap on the emulated touchscreen is handled at once, not at the next second.
        seen = []
        runner.session.listeners.append(lambda item, verdict: seen.append(time.perf_counter()))
        runner.touch("menu table")  # Pause is in the game menu (issue 38)
        runner.render()
        rect = next(b.rect for b in runner.app.buttons if b.command == "pause")
        tapped = []

        def tap_later():
            time.sleep(0.3)
            tapped.append(time.perf_counter())
            ts.tap(*rect.center)
        run_loop_for(runner, 1.2, tap_later)
        assert runner.session.paused, "the tap on Pause was handled"
        assert seen and seen[0] - tapped[0] < 0.1
    finally:
        runner.watch.stop()
        ts.close()
        runner.app.close()


def test_an_unwatched_window_is_polled_so_a_posted_click_is_still_handled(tmp_path):
    runner, _ = idle_table(tmp_path, watched=False)
    try:
        runner.step()
        runner.touch("menu table")  # Pause is in the game menu (issue 38)
        runner.render()
        rect = next(b.rect for b in runner.app.buttons if b.command == "pause")
        turns = runner.turns

        def click_later():
            time.sleep(0.3)
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))
        run_loop_for(runner, 0.8, click_later)
        assert runner.session.paused
        assert runner.turns - turns >= 20  # it polled the window (WINDOW_POLL)
    finally:
        runner.app.close()


def test_stop_wakes_a_sleeping_loop_at_once(tmp_path):
    runner, ts = idle_table(tmp_path, watched=True)
    try:
        runner.step()
        t0 = time.perf_counter()
        run_loop_for(runner, 0.2)
        assert time.perf_counter() - t0 < 0.6
    finally:
        runner.watch.stop()
        ts.close()
        runner.app.close()


# ---------------------------------------------------------------- clocks-only redraws


@pytest.mark.parametrize("game, names", [("sugarrr", ["Ana", "Ben"]), ("sugar-blast", ["Ana", "Ben"]),
                                         ("sugar-heist", ["Ana", "Ben"]), ("sweet-deals", ["Ana", "Ben", "Cy"])])
def test_a_second_that_only_moves_the_clocks_redraws_them_exactly_as_a_whole_frame_would(tmp_path, game, names):
    from companion.ui.timers import Timers

    clock = FakeClock(1000.0)
    options = {"goal": "five-different"} if game == "sugar-blast" else {}
    session = Session.start(game, names, EventStore(tmp_path / "t.db"), clock, options=options)
    runner = Runner(session, clock, app=App(), timers=Timers(limit=90.0))
    try:
        runner.render(force=True)
        whole, part = runner.app.show, runner.app.show_part
        calls = []
        runner.app.show = lambda draw: calls.append("whole") or whole(draw)
        runner.app.show_part = lambda draw: calls.append("part") or part(draw)
        before = pygame.image.tobytes(runner.app.surface, "RGB")
        clock.advance(61.0)  # 01:01 later: every clock's digits change
        runner.render()
        assert calls == ["part"]
        ticked = pygame.image.tobytes(runner.app.surface, "RGB")
        assert ticked != before
        runner.render(force=True)
        assert calls == ["part", "whole"]
        assert pygame.image.tobytes(runner.app.surface, "RGB") == ticked
    finally:
        runner.app.close()


def test_a_second_that_changes_more_than_the_clocks_redraws_the_whole_frame(tmp_path):
    """The last 10 s of a turn limit turn the clock orange (and may change the prompt):
    the whole frame is drawn; so is any frame with a menu open."""
    from companion.ui.timers import Timers

    clock = FakeClock(1000.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock)
    runner = Runner(session, clock, app=App(), timers=Timers(limit=30.0))
    try:
        runner.render(force=True)
        calls = []
        whole = runner.app.show
        runner.app.show = lambda draw: calls.append("whole") or whole(draw)
        clock.advance(25.0)  # 5 s left: warning
        runner.render()
        assert calls == ["whole"]
        runner.touch("menu undo")
        runner.render()
        clock.advance(1.0)
        runner.render()
        assert calls == ["whole", "whole", "whole"]
    finally:
        runner.app.close()


@pytest.mark.parametrize("size, rotation", [((1024, 600), 0), ((720, 1280), 90), ((800, 480), 180),
                                            ((720, 1280), 270)])
def test_a_clock_second_on_a_scaled_or_turned_panel_matches_a_whole_frame(tmp_path, size, rotation):
    """On a panel the drawing is scaled or turned for, the clocks alone are scaled and
    turned: the window then shows what a whole frame would, to the filter's rounding."""
    clock = FakeClock(1000.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock)
    app = App(size=size, rotation=rotation)
    runner = Runner(session, clock, app=app)
    try:
        runner.render(force=True)
        before = pygame.image.tobytes(app.window, "RGB")
        calls = []
        whole = app.show
        app.show = lambda draw: calls.append("whole") or whole(draw)
        clock.advance(61.0)
        runner.render()
        assert calls == []  # the clocks alone
        ticked = pygame.image.tobytes(app.window, "RGB")
        assert ticked != before
        runner.render(force=True)
        full = pygame.image.tobytes(app.window, "RGB")
        # The new digits are on the window (a stale digit would differ from the whole
        # frame by a full stroke, up to 255), and what differs is the scaling filter's
        # rounding where each scaled part meets the frame: a few levels of 255.
        digits = sum(1 for a, b in zip(before, full) if abs(a - b) > 64)  # the digits' strokes that moved
        differ = [abs(a - b) for a, b in zip(ticked, full)]
        assert digits > 0
        assert sum(1 for d in differ if d > 64) < digits / 4, (sum(1 for d in differ if d > 64), digits)
    finally:
        app.close()


def test_a_whole_frame_leaves_checking_its_clocks_to_the_first_second_that_ticks(tmp_path, monkeypatch):
    """Whether the clocks can be redrawn alone is checked (each clock drawn again and
    compared) once, when the next second ticks, not on every whole frame: a frame drawn
    for an input reaches the screen sooner (issue 24)."""
    from companion.ui.timers import Timers

    compared = []
    tobytes = pygame.image.tobytes
    monkeypatch.setattr(pygame.image, "tobytes", lambda *a, **k: compared.append(1) or tobytes(*a, **k))
    clock = FakeClock(1000.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock)
    runner = Runner(session, clock, app=App(), timers=Timers(limit=90.0))
    try:
        for _ in range(3):
            runner.render(force=True)
        assert compared == []  # three whole frames, no check
        clock.advance(1.0)
        runner.render()
        assert compared  # the second that ticked checked the last frame's clocks
        checked = len(compared)
        clock.advance(1.0)
        runner.render()
        assert len(compared) == checked  # once per whole frame
    finally:
        runner.app.close()


def test_the_watch_keeps_when_each_press_was_made_until_the_loop_takes_it():
    """The kernel's time stamp of each press (here the emulated touchscreen's), oldest
    first; releases are not presses; the loop takes them as it pairs SDL's presses."""
    app = App()  # the taps go into SDL's queue too
    watch = InputWatch(lambda: None, pattern="/nonexistent/event*")
    ts = EmulatedTouchscreen().attach(watch)
    try:
        before = time.monotonic()
        ts.tap(10, 10)
        ts.tap(20, 20)
        after = time.monotonic()
        times = watch.presses()
        assert len(times) == 2 and before <= times[0] <= times[1] <= after
        watch.took(1)
        assert watch.presses() == times[1:]
        watch.took(0, before=after + 1)  # never given by SDL at two pumps: forgotten
        assert watch.presses() == []
    finally:
        ts.close()
        watch.stop()
        app.close()


def test_a_press_sent_as_touch_and_left_button_at_once_is_one_press():
    from companion.core.input_event import BTN_LEFT, BTN_TOUCH, press_event

    watch = InputWatch(lambda: None, pattern="/nonexistent/event*")
    r, w = os.pipe()
    watch.add(r, "two-button screen")
    try:
        os.write(w, press_event(5.0, BTN_TOUCH) + press_event(5.0, BTN_LEFT) + press_event(5.0, BTN_TOUCH, 0)
                 + press_event(6.5, BTN_LEFT))
        assert watch.presses() == [5.0, 6.5]
    finally:
        os.close(w)
        watch.stop()


def test_the_watch_keeps_only_the_newest_press_times_when_nothing_takes_them():
    """With no screen, nothing pairs the presses: the watch keeps the newest 256, not all."""
    from companion.core.input_event import press_event
    from companion.ui.wakeup import KEPT_PRESSES

    watch = InputWatch(lambda: None, pattern="/nonexistent/event*")
    r, w = os.pipe()
    watch.add(r, "busy screen")
    try:
        for i in range(KEPT_PRESSES + 44):
            os.write(w, press_event(100.0 + i) + press_event(100.0 + i, value=0))
        times = watch.presses()
        assert len(times) == KEPT_PRESSES and times[-1] == 100.0 + KEPT_PRESSES + 43
    finally:
        os.close(w)
        watch.stop()
