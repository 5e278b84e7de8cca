"""The main loop's own commands: menus stay on screen, game commands reach the session."""

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.runner import Runner
from companion.table import Session
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
    from companion.tray import EmulatedTray

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
