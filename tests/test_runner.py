"""The main loop's own commands: menus stay on screen, game commands reach the session."""

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.table.runner import Runner
from companion.table.session import Session
from sugarrr_helpers import STARTS


def make_runner():
    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), clock)
    return Runner(session, clock, simulate=True)


def drain(runner):
    items = []
    while not runner.inputs.empty():
        items.append(runner.inputs.get_nowait())
    return items


def test_deck_menu_opens_with_the_count_and_sends_only_the_final_choice():
    r = make_runner()
    r.touch("deck")
    assert r.menu == "deck" and r.deck_draft == r.session.state.deck
    r.touch("draft 40")
    assert r.deck_draft == 40 and drain(r) == []
    r.touch("deck 40")
    assert r.menu is None and drain(r) == [Touch("deck 40", 100.0)]


def test_swap_menu_cancel_sends_nothing():
    r = make_runner()
    r.touch("swap")
    assert r.menu == "swap"
    r.touch("cancel")
    assert r.menu is None and drain(r) == []


def test_typed_lines_are_scans_and_slash_lines_are_touches():
    r = make_runner()
    r.typed(STARTS[0].lower() + "\n")
    r.typed("/column 2")
    r.typed("   ")
    assert drain(r) == [CardScanned(STARTS[0], "keyboard", 100.0), Touch("column 2", 100.0)]


def test_step_hands_queued_inputs_to_the_session():
    r = make_runner()
    for code in STARTS:
        r.typed(code)
    assert r.step() == 5
    assert r.session.state.phase == "turn"


def test_arrow_keys_tilt_the_emulated_tray_under_simulate():
    from companion.devices.tray import EmulatedTray

    class FakeApp:
        def poll(self):
            return [("arrow", "down")]

    r = make_runner()
    r.app = FakeApp()
    r.tray = EmulatedTray(r.clock, angle=30)
    r.poll_window()
    assert r.tray.seat == 3
    x, y, z = r.tray(r.clock.now())
    assert x > 0.45 and abs(y) < 1e-9  # seat 3 is the -X edge lowered: x grows


# ---------------------------------------------------------------- one order for every source

def windowed_runner(tmp_path):
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.ui.app import App

    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock, tap_off=1.0)
    runner = Runner(session, clock, app=App())
    return runner


def heard(runner):
    said = []
    runner.session.listeners.append(lambda item, verdict: verdict and said.append((item, verdict.verdict)))
    return said


def tap(runner, command):
    """Post a real mouse click on the button whose command is ``command``."""
    import pygame

    runner.render(force=True)
    rect = next(b.rect for b in runner.app.buttons if b.command == command)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))


def test_a_touch_before_a_scan_is_handled_before_it(tmp_path):
    # The report: Done tapped 8 ms before the next scan was handled after it, so the scan
    # was judged a repeat of the card before. In arrival order it is a fresh, refused play.
    from sugarrr_helpers import fruit

    r = windowed_runner(tmp_path)
    try:
        for code in STARTS:
            r.inputs.put(CardScanned(code, "scanner", r.clock.now()))
            r.step()
        r.inputs.put(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()))
        r.step()
        assert r.session.state.phase == "playing"
        said = heard(r)
        tap(r, "done")                                                      # first the tap...
        r.inputs.put(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now() + 0.008))  # ...then the scan
        r.step(block=0.05)
        assert [(type(i).__name__, v) for i, v in said] == [("Touch", "accepted"), ("CardScanned", "rejected")]
    finally:
        r.app.close()


def test_a_scan_queued_just_after_the_window_was_read_still_waits_for_an_earlier_touch(tmp_path):
    """The race the mixed 50/s stream found under load: the loop reads the window's
    events, a tap comes, then a scan is queued, all before the loop takes the queue. The
    scan's marker is behind the tap in the window's queue, so the scan waits a turn."""
    from sugarrr_helpers import fruit

    r = windowed_runner(tmp_path)
    try:
        for code in STARTS:
            r.inputs.put(CardScanned(code, "scanner", r.clock.now()))
            r.step()
        r.inputs.put(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()))
        r.step()
        said = heard(r)
        tap(r, "done")
        polled = r.poll_window

        def racing_poll():
            import pygame

            pending = pygame.event.get()  # the loop read the window just before the tap...
            for event in pending:
                pygame.event.post(event)  # (...put back: it is the tap itself, coming in now)
            r.poll_window = polled
            r.inputs.put(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now() + 0.008))  # ...then the scan
        r.poll_window = racing_poll
        r.step()
        assert said == []  # the scan was not taken ahead of the tap still in the window's queue
        r.step()
        assert [(type(i).__name__, v) for i, v in said] == [("Touch", "accepted"), ("CardScanned", "rejected")]
    finally:
        r.app.close()


def test_an_input_whose_window_marker_was_lost_is_still_handled(tmp_path):
    import time

    from companion.table.inputs import MARKER_GRACE

    r = windowed_runner(tmp_path)
    try:
        said = heard(r)
        r.inputs.notify = None  # the window's queue drops the marker
        r.inputs.put(CardScanned(STARTS[0], "scanner", r.clock.now()))
        t0 = time.monotonic()
        while not said and time.monotonic() - t0 < 1.0:
            r.step(block=0.5)
        assert [v for _, v in said] == ["accepted"]
        assert MARKER_GRACE <= time.monotonic() - t0 < 0.5
    finally:
        r.app.close()


def test_a_scan_queued_before_a_touch_is_handled_first(tmp_path):
    from sugarrr_helpers import fruit

    r = windowed_runner(tmp_path)
    try:
        for code in STARTS:
            r.inputs.put(CardScanned(code, "scanner", r.clock.now()))
        r.step()
        said = heard(r)
        r.inputs.put(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()))
        tap(r, "swap")  # a window menu: the screen's own, nothing reaches the session
        r.render(force=True)
        r.step(block=0.05)
        assert [type(i).__name__ for i, _ in said] == ["CardScanned"]
        assert r.menu == "swap"
    finally:
        r.app.close()
