"""The main loop's own commands: menus stay on screen, game commands reach the session."""

import pytest

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
    assert r.window.menu == "deck" and r.window.deck_draft == r.session.state.deck
    r.touch("draft 40")
    assert r.window.deck_draft == 40 and drain(r) == []
    r.touch("deck 40")
    assert r.window.menu is None and drain(r) == [Touch("deck 40", 100.0)]


def test_swap_menu_cancel_sends_nothing():
    r = make_runner()
    r.touch("swap")
    assert r.window.menu == "swap"
    r.touch("cancel")
    assert r.window.menu is None and drain(r) == []


def test_more_turns_a_long_menus_page_and_any_input_turns_it_back():
    r = make_runner()
    r.touch("page")
    r.touch("page")
    assert r.info().page == 2 and drain(r) == []  # the screen's own: nothing for the game
    r.session.handle(CardScanned(STARTS[0], "scanner", 100.0))  # the menu it paged may be gone now
    assert r.info().page == 0
    r.touch("page")
    r.touch("cancel")
    assert r.info().page == 0


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
        playing(r)
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
        playing(r)
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


def test_an_input_whose_marker_could_not_be_posted_is_handled_in_the_same_turn(tmp_path):
    r = windowed_runner(tmp_path)
    try:
        said = heard(r)
        r.inputs.notify = None  # no marker can be posted
        r.inputs.put(CardScanned(STARTS[0], "scanner", r.clock.now()))
        r.step()
        assert [v for _, v in said] == ["accepted"]
    finally:
        r.app.close()


def test_an_input_whose_posted_marker_the_window_lost_is_handled_after_the_poll(tmp_path):
    import pygame

    r = windowed_runner(tmp_path)
    try:
        said = heard(r)
        r.inputs.put(CardScanned(STARTS[0], "scanner", r.clock.now()))
        pygame.event.clear()  # the window's queue lost the marker
        r.step()
        assert [v for _, v in said] == ["accepted"]
    finally:
        r.app.close()


class _StalledClock:
    """``time.monotonic`` for the input queue, moved only by the test: a stalled loop is
    this clock jumping, so nothing here is timed."""

    def __init__(self):
        self.t = 1000.0

    def monotonic(self):
        return self.t


def test_a_loop_stalled_after_reading_the_window_still_takes_a_tap_before_a_later_scan(tmp_path, monkeypatch):
    """CPU starvation, deterministically: the loop reads the window, then is stalled (10 s
    on the queue's clock) while a tap comes and then a scan is queued. However long the
    stall, the scan is not taken ahead of the tap before it (it was, after 50 ms)."""
    import companion.table.inputs as inputs_module
    from sugarrr_helpers import fruit

    stalled = _StalledClock()
    monkeypatch.setattr(inputs_module, "time", stalled)
    r = windowed_runner(tmp_path)
    try:
        playing(r)
        said = heard(r)
        polled = r.poll_window

        def stalled_poll():
            polled()                 # the window read...
            tap(r, "done")           # ...a tap comes while the loop is stalled...
            r.inputs.put(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()))  # ...then a scan
            stalled.t += 10.0        # ...and the loop stays stalled a long time
            r.poll_window = polled
        r.poll_window = stalled_poll
        r.step()
        r.step()
        assert [(type(i).__name__, v) for i, v in said] == [("Touch", "accepted"), ("CardScanned", "rejected")]
    finally:
        r.app.close()


@pytest.mark.parametrize("seed", range(8))
def test_mixed_taps_and_scans_are_handled_in_arrival_order_whatever_the_loop_stalls(tmp_path, monkeypatch, seed):
    """A deterministic interleaving (seeded): taps on the window and scans from a device
    arrive in some order while the loop runs turns at random points and is stalled (its
    queue clock jumps) at others. The session hears them in exactly the arrival order."""
    import random

    import companion.table.inputs as inputs_module
    from sugarrr_helpers import fruit

    rng = random.Random(seed)
    stalled = _StalledClock()
    monkeypatch.setattr(inputs_module, "time", stalled)
    r = windowed_runner(tmp_path)
    try:
        for code in STARTS:
            r.inputs.put(CardScanned(code, "scanner", r.clock.now()))
        r.step()
        r.inputs.put(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()))
        r.step()
        r.render(force=True)
        r.render = lambda *a, **k: None  # the buttons stay where they were drawn: every tap hits one
        said = heard(r)
        arrived = []
        polled = r.poll_window
        pending = []

        def arrive():
            if rng.random() < 0.5:
                tap(r, "done")
                arrived.append("done")
            else:
                code = fruit("Pineapple", rng.randint(1, 5))
                r.inputs.put(CardScanned(code, "scanner", r.clock.now()))
                arrived.append(code)

        def racing_poll():
            polled()
            for _ in range(pending.pop() if pending else 0):  # inputs arriving mid-turn
                arrive()
            stalled.t += rng.choice([0.0, 0.06, 5.0])
        r.poll_window = racing_poll
        for _ in range(60):
            if rng.random() < 0.5:
                arrive()
            else:
                pending.append(rng.randint(0, 3))
                r.step()
        pending.clear()
        for _ in range(3):
            r.step()
        heard_order = ["done" if isinstance(i, Touch) else i.code for i, _ in said]
        assert heard_order == arrived
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
        tap(r, "swap")  # where Swap is drawn before the scan; a played card puts Done there
        r.render(force=True)
        r.step(block=0.05)
        # The scan first; then the tap, matched against the screen after the scan (see
        # test_a_tap_lands_on_the_screen_as_it_stands_after_the_inputs_before_it): Done.
        assert [(type(i).__name__, getattr(i, "command", None)) for i, _ in said] == [("CardScanned", None),
                                                                                     ("Touch", "done")]
        assert r.window.menu is None
    finally:
        r.app.close()


def test_a_tap_lands_on_the_screen_as_it_stands_after_the_inputs_before_it(tmp_path):
    """A Zero 2 W falls behind at a fast table: a scan is handled and its frame is not yet
    drawn when a tap comes. The tap is matched against the screen as it stands after the
    scan (that frame is drawn first), never against the stale frame, so what a tap hits
    never depends on how fast the frames came (issue 23's order, at issue 24's speed)."""
    import pygame

    from companion.ui.app import Button

    r = windowed_runner(tmp_path)
    try:
        said = heard(r)
        spot = pygame.Rect(300, 200, 200, 80)
        r.draw = lambda surface: [Button(spot, "done" if said else "swap")]  # the scan changes what is there
        r.render(force=True)
        assert r.app.hit(spot.center) == "swap"
        r.inputs.put(CardScanned(STARTS[0], "scanner", r.clock.now()))  # the scan's marker first...
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.center, button=1))  # ...then the tap
        r.step()
        assert [type(item).__name__ for item, _ in said] == ["CardScanned", "Touch"]
        assert said[1][0].command == "done"
    finally:
        r.app.close()


# ------------------------------------------- taps and scans by when they were made (issue 24)

def watched_runner(tmp_path):
    """A windowed runner whose taps come from an emulated touchscreen as on the Pi: SDL
    gets a tap only when the loop pumps, and the watch keeps its kernel time stamp."""
    from companion.devices.emulated.touch import EmulatedTouchscreen
    from companion.ui.wakeup import InputWatch

    r = windowed_runner(tmp_path)
    r.watch = InputWatch(r.wake, pattern=str(tmp_path / "none*")).start()
    ts = EmulatedTouchscreen(r.app.size).attach(r.watch, app=r.app)
    return r, ts


def playing(r):
    from sugarrr_helpers import fruit

    for code in STARTS:
        r.inputs.put(CardScanned(code, "scanner", r.clock.now()))
        r.step()
    r.inputs.put(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()))
    r.step()
    assert r.session.state.phase == "playing"
    r.render(force=True)
    return next(b.rect for b in r.app.buttons if b.command == "done").center


def who(said) -> list[str]:
    """What was heard, in order: a scan by its reader's name, anything else by its type."""
    return [getattr(item, "reader", type(item).__name__) for item, _ in said]


def close(r, ts):
    ts.close()
    r.watch.stop()
    r.app.close()


def test_a_tap_made_before_a_scan_comes_first_though_the_scan_reached_the_queue_first(tmp_path):
    """On the Pi, SDL reads a tap only when the loop pumps; a scan's reader can queue it
    (and post its marker) before that. The tap was made 8 ms before the scan arrived,
    so it is handled first: the scan is then a fresh play, refused."""
    import time

    from sugarrr_helpers import fruit

    r, ts = watched_runner(tmp_path)
    try:
        spot = playing(r)
        said = heard(r)
        ts.tap(*spot)  # in the kernel, not yet in SDL's queue
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()), time.monotonic() + 0.008)
        r.step()
        assert [(type(i).__name__, v) for i, v in said] == [("Touch", "accepted"), ("CardScanned", "rejected")]
    finally:
        close(r, ts)


def test_a_scan_that_arrived_before_a_tap_comes_first_though_its_marker_came_after(tmp_path):
    """The other way round: the scan arrived first, its reader thread queued it late,
    after SDL already had the tap. By the times, the scan comes first: before Done it is
    the card just played read again, so it is ignored; then Done is taken."""
    import time

    from sugarrr_helpers import fruit

    r, ts = watched_runner(tmp_path)
    try:
        spot = playing(r)
        said = heard(r)
        arrived = time.monotonic()
        ts.tap(*spot)
        ts.pump()  # SDL has the tap...
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()), arrived)  # ...then the marker
        r.step()
        assert [(type(i).__name__, v) for i, v in said] == [("CardScanned", "ignored"), ("Touch", "accepted")]
    finally:
        close(r, ts)


def test_a_scan_waits_for_a_tap_made_before_it_that_sdl_has_not_read_yet(tmp_path):
    """The tap's press is in the watch's copy of the device but not yet in SDL's (the
    loop pumped between the two): the scan made after it is held for the next turn,
    never handled ahead of it."""
    import os
    import time

    from companion.devices.emulated.touch import tap_bytes
    from sugarrr_helpers import fruit

    r, ts = watched_runner(tmp_path)
    try:
        spot = playing(r)
        said = heard(r)
        device, sdl = ts.sender_fds()
        press, line, release = tap_bytes(*spot)
        os.write(device, press)
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()), time.monotonic())
        r.step()
        assert said == []  # held: a press made before it is still to come
        os.write(sdl, line)
        os.write(device, release)
        r.step()
        assert [(type(i).__name__, v) for i, v in said] == [("Touch", "accepted"), ("CardScanned", "rejected")]
    finally:
        close(r, ts)


def test_a_press_sdl_never_gives_holds_a_scan_for_two_pumps_at_most(tmp_path):
    """A press on a device the watch reads and SDL does not: after two pumps without it,
    it is forgotten and the scan is handled; nothing waits on it for ever."""
    import os
    import time

    from companion.devices.emulated.touch import tap_bytes

    r, ts = watched_runner(tmp_path)
    try:
        playing(r)
        said = heard(r)
        device, _ = ts.sender_fds()
        os.write(device, tap_bytes(1, 1)[0])
        r.inputs.put_arrived(CardScanned(STARTS[0], "scanner", r.clock.now()), time.monotonic())
        for _ in range(3):
            r.step()
        assert [type(i).__name__ for i, _ in said] == ["CardScanned"]
        assert r.watch.presses() == []
    finally:
        close(r, ts)


def test_a_tap_waits_for_a_scan_that_came_before_it_and_is_still_on_its_way(tmp_path):
    """The scan came first; its reader has not queued it yet when the loop pumps the
    tap (the scanner's stamping process saw it, the table's thread is slow to take it).
    The tap is held, the scan queued, and the scan is handled first."""
    import time

    from sugarrr_helpers import fruit

    r, ts = watched_runner(tmp_path)
    try:
        spot = playing(r)
        said = heard(r)
        came = time.monotonic()
        on_its_way = [came]
        r.inputs.sources.append(lambda t: bool(on_its_way) and on_its_way[0] < t)
        ts.tap(*spot)
        r.step()
        assert said == []  # the tap waits for the scan made before it
        on_its_way.clear()
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()), came)
        r.step()
        assert [(type(i).__name__, v) for i, v in said] == [("CardScanned", "ignored"), ("Touch", "accepted")]
    finally:
        close(r, ts)


def test_scans_queued_out_of_the_order_they_came_keep_a_tap_between_them(tmp_path):
    """Two scanners: the right one's scan came after the tap and its reader queued it
    first; the left one's came before the tap and was queued second (its thread was
    slow to get to it). By the times: left, the tap, right; taking the left scan must
    not take the right one, queued before it, ahead of the tap."""
    import time

    from sugarrr_helpers import fruit

    r, ts = watched_runner(tmp_path)
    try:
        spot = playing(r)
        said = heard(r)
        came = time.monotonic()
        ts.tap(*spot)
        ts.pump()
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "right", r.clock.now()), time.monotonic() + 0.01)
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "left", r.clock.now()), came)
        r.step()
        assert who(said) == ["left", "Touch", "right"]
        assert r.inputs.waiting() == []
    finally:
        close(r, ts)


def test_a_scan_held_for_a_press_is_not_taken_with_a_later_numbered_scan_made_before_it(tmp_path):
    """The right scan (queued first) was made after a press SDL has not given yet, so it
    is held; the left scan (queued second) was made before that press and is handled at
    once. Taking it must leave the held right scan for after the press."""
    import os
    import time

    from companion.devices.emulated.touch import tap_bytes
    from sugarrr_helpers import fruit

    r, ts = watched_runner(tmp_path)
    try:
        spot = playing(r)
        said = heard(r)
        device, sdl = ts.sender_fds()
        came = time.monotonic()
        press, line, release = tap_bytes(*spot)
        os.write(device, press)
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "right", r.clock.now()), time.monotonic())
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "left", r.clock.now()), came)
        r.step()
        assert [i.reader for i, _ in said] == ["left"]
        os.write(sdl, line)
        os.write(device, release)
        r.step()
        assert who(said) == ["left", "Touch", "right"]
        assert r.inputs.waiting() == []
    finally:
        close(r, ts)


def test_a_drag_and_release_after_a_held_press_stay_after_it(tmp_path):
    """A press held for a scan still on its way: the finger's drag and release that SDL
    gives at the next pump belong after that press (they carry no time of their own), not
    before it and before the scan."""
    import os
    import time

    import pygame

    from companion.core.input_event import BTN_LEFT, press_event
    from sugarrr_helpers import fruit

    r, ts = watched_runner(tmp_path)
    try:
        spot = playing(r)
        said = heard(r)
        done = []
        pointer = r.window._pointer
        r.window._pointer = lambda kind, value: (done.append(kind), pointer(kind, value))
        came = time.monotonic()
        on_its_way = [came]
        r.inputs.sources.append(lambda t: bool(on_its_way) and on_its_way[0] < t)
        device, _ = ts.sender_fds()
        os.write(device, press_event(time.monotonic(), BTN_LEFT, 1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=spot))
        r.step()
        assert said == [] and done == []  # the press waits for the scan made before it
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, buttons=(1, 0, 0), pos=(spot[0] + 3, spot[1]), rel=(3, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=spot))
        r.step()
        assert done == []  # still held: so are the drag and release
        on_its_way.clear()
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "scanner", r.clock.now()), came)
        r.step()
        assert done == ["press", "drag", "release"]
        assert [(type(i).__name__, v) for i, v in said] == [("CardScanned", "ignored"), ("Touch", "accepted")]
    finally:
        close(r, ts)


def test_a_tap_held_for_an_unmarked_scan_behind_a_held_one_is_not_held_for_ever(tmp_path):
    """The left scan came before the tap but its marker could not be posted; the right
    scan, queued before it, came after the tap. The tap waits for the left scan and the
    right one is held behind the tap: the left scan must still be taken (it has no
    marker to wait for), then the tap, then the right scan, within a few turns."""
    import time

    from sugarrr_helpers import fruit

    r, ts = watched_runner(tmp_path)
    try:
        spot = playing(r)
        said = heard(r)
        came = time.monotonic()
        ts.tap(*spot)
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "right", r.clock.now()), time.monotonic() + 0.01)
        notify, r.inputs.notify = r.inputs.notify, lambda number: False  # its marker is not posted
        r.inputs.put_arrived(CardScanned(fruit("Pineapple", 5), "left", r.clock.now()), came)
        r.inputs.notify = notify
        turns = r.turns
        deadline = time.monotonic() + 1.0
        while len(said) < 3 and time.monotonic() < deadline:
            r.step(block=0.5)
        assert [getattr(i, "reader", type(i).__name__) for i, _ in said] == ["left", "Touch", "right"]
        assert r.turns - turns < 10
    finally:
        close(r, ts)


def test_a_press_made_before_the_window_was_first_pumped_holds_nothing(tmp_path):
    """A press the watch kept from before the screen opened (or while it was lost) was
    made on no screen: the first pump forgets it, and a scan is not held for it."""
    import os
    import time

    from companion.devices.emulated.touch import tap_bytes

    r, ts = watched_runner(tmp_path)
    try:
        said = heard(r)
        device, _ = ts.sender_fds()
        os.write(device, tap_bytes(1, 1, t=time.monotonic() - 5.0)[0])
        r.inputs.put_arrived(CardScanned(STARTS[0], "scanner", r.clock.now()), time.monotonic())
        r.step()
        assert [type(i).__name__ for i, _ in said] == ["CardScanned"]
        assert r.watch.presses() == []
    finally:
        close(r, ts)
