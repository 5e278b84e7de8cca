"""The shared chrome's clocks: the game clock in the top bar, the Sweet Deals bidding
countdown; and the top bar's touch targets. (The buzzer at the 10 s warning is
``Runner.alarm``, tested in test_pi_gpio.)"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from companion.core.clock import FakeClock
from companion.core.events import Touch
from companion.core.store import EventStore
from companion.table.runner import Runner
from companion.table.session import Session
from companion.ui import chrome
from companion.ui.app import App, TableInfo
from companion.ui.timers import Timers
from companion.ui.widgets import record_text
from test_timers import T0, setup_done


@pytest.fixture
def app():
    a = App()
    yield a
    a.close()


def drawn_texts(app, draw):
    with record_text() as drawn:
        app.show(draw)
    return [d.text for d in drawn]


def bar(info, **kw):
    return lambda s: chrome.top_bar(s, pygame.Rect(0, 0, 800, 48), info, **kw)


def test_the_top_bar_shows_the_game_clock_and_gives_it_up_before_a_device_problem(app):
    info = TableInfo(game_name="Sugar Blast", game_seconds=754, can_pause=True, undo="x", devices={"tray": "connected"})
    assert "12:34" in drawn_texts(app, bar(info, turn=3))
    crowded = [chrome.Pill("Bag 36", 130)]
    trouble = TableInfo(game_name="Sugar Blast", game_seconds=754, can_pause=True, undo="x",
                        devices={"tray": "tray unplugged"})
    texts = drawn_texts(app, bar(trouble, turn=3, pills=crowded))
    assert "tray unplugged" in texts and "12:34" not in texts


def test_working_devices_whose_names_do_not_fit_are_counted_not_cut(app):
    # Sugarrr!'s bar with its deck pill and two scanners, as on the Pi: the names were
    # cut to "scanner1 · sc..." there, which reads as a fault.
    deck = [chrome.Pill("Deck 93", 140, command="deck")]

    def pill(devices):
        info = TableInfo(game_name="Sugarrr!", game_seconds=3, can_pause=True, devices=devices)
        with record_text() as drawn:
            app.show(bar(info, turn=1, pills=deck))
        return [d for d in drawn if "ready" in d.text.lower() or "connected" in d.text or "scanner" in d.text]

    two = pill({"scanner1": "connected", "scanner2": "connected"})
    assert [(d.text, d.clipped) for d in two] == [("Both ready", False)]
    three = pill({"scanner1": "connected", "scanner2": "connected", "tray": "connected"})
    assert [(d.text, d.clipped) for d in three] == [("All 3 ready", False)]
    assert [(d.text, d.clipped) for d in pill({"scanner": "connected"})] == [("scanner", False)]  # fits: named
    down = pill({"scanner1": "connected", "scanner2": "scanner disconnected: check its USB cable"})
    assert [d.text for d in down if "scanner2" in d.text or "disconnected" in d.text]  # a fault is still named


def test_a_screen_with_its_own_turn_clock_gets_no_second_countdown_in_the_bar(app):
    info = TableInfo(game_name="Sugarrr!", game_seconds=60, turn_left=25, can_pause=True)
    assert "00:25" in drawn_texts(app, bar(info, turn=2))
    texts = drawn_texts(app, bar(info, turn=2, clock_below=True))
    assert "00:25" not in texts and "01:00" in texts


def test_every_top_bar_button_is_a_48_px_target(app):
    info = TableInfo(game_name="Sugarrr!", undo="Strawberry 7", can_pause=True)
    app.show(bar(info, turn=2, pills=[chrome.Pill("Deck 40", 140, command="deck")]))
    assert {b.command for b in app.buttons} == {"deck", "menu table", "menu undo"}  # Pause is in the menu
    assert all(b.rect.height >= 48 and b.rect.width >= 48 for b in app.buttons)


def test_the_bidding_countdown_suggests_pass_at_zero_and_never_passes(tmp_path):
    clock = FakeClock(100.0)
    session = Session.start("sweet-deals", ["Ana", "Ben", "Cy"], EventStore(tmp_path / "t.db"), clock,
                            options={"mode": "open", "hybrid": None})
    runner = Runner(session, clock, timers=Timers(bid=15))
    assert runner.info().bid_left is None  # no auction yet
    clock.set(101.0)
    runner.touch("offer cupcake")
    runner.step()
    clock.set(105.0)
    assert runner.info().bid_left == 11
    runner.touch("bid 1")
    runner.step()
    clock.set(110.0)
    assert runner.info().bid_left == 10  # the next bidder's own 15 s
    clock.set(200.0)
    runner.step()
    info = runner.info()
    assert info.bid_left == 0 and "Pass" in info.prompt
    assert session.view.bidding.to_act == 2 and session.state.phase == "bid"  # nobody was passed


def test_the_bidding_countdown_is_drawn_big_where_the_turn_clock_is(app, tmp_path):
    info = TableInfo(bid_left=7.2)
    texts = drawn_texts(app, lambda s: chrome.turn_clock(s, pygame.Rect(576, 350, 216, 44), info) or [])
    assert texts == ["8 s to bid"]


def test_a_turn_limit_running_out_during_an_auction_never_passes_a_bidder(tmp_path):
    """The trial: A's turn clock ran out while C was to bid, and "pass" was sent, so C
    passed without a word from C. A bid is the bidder's: the turn clock only says so."""
    import io

    clock = FakeClock(100.0)
    session = Session.start("sweet-deals", ["A", "B", "C", "D"], EventStore(tmp_path / "t.db"), clock,
                            options={"mode": "open", "hybrid": None})
    said = io.StringIO()
    runner = Runner(session, clock, timers=Timers(limit=3, at_zero="pass"), text_out=said)
    clock.set(101.0)
    runner.touch("offer donut")
    runner.step()
    runner.touch("bid 1")
    runner.step()
    waiting = session.view.bidding.to_act
    clock.set(110.0)  # well past the 3 s turn limit
    runner.step()
    runner.step()
    assert session.view.bidding.to_act == waiting and session.state.phase == "bid"  # nobody was passed
    assert "Time is up for A's turn, but a bid is never passed for a player: bid or Pass." in said.getvalue()
    clock.set(120.0)
    runner.step()
    assert said.getvalue().count("Time is up") == 1  # once a turn


def test_the_turn_limit_waits_for_set_up_and_starts_with_the_first_turn(tmp_path):
    """The trial: "Time is up for Player 1's turn" while the column starters were
    scanned. Set-up is no one's turn; the first turn's clock starts when it ends."""
    import io

    from companion.core.events import CardScanned
    from sugarrr_helpers import STARTS

    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock)
    said = io.StringIO()
    runner = Runner(session, clock, timers=Timers(limit=5, at_zero="pass"), text_out=said)
    for n, code in enumerate(STARTS):
        clock.set(110.0 + 10 * n)  # ten seconds a card: well past the 5 s limit
        runner.inputs.put(CardScanned(code, "scanner", clock.now()))
        runner.step()
    assert "Time is up" not in said.getvalue() and session.turn_started == 150.0
    clock.set(153.0)
    runner.step()
    assert "Time is up" not in said.getvalue()
    clock.set(156.0)
    runner.step()
    assert said.getvalue().count("Time is up for Ana's turn") == 1


def test_at_zero_pass_says_so_when_the_rules_allow_no_pass(tmp_path):
    import io

    from companion.core.events import CardScanned
    from sugarrr_helpers import STARTS

    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock)
    said = io.StringIO()
    runner = Runner(session, clock, timers=Timers(limit=5, at_zero="pass"), text_out=said)
    for code in STARTS:
        runner.inputs.put(CardScanned(code, "scanner", clock.now()))
        runner.step()
    clock.set(200.0)  # Sugarrr! allows a Pass only in the Final Round
    runner.step()
    line = "Time is up for Ana's turn, but the rules allow no pass now: play on."
    assert line in said.getvalue() and session.last_message == line  # on the screen too
    assert session.state.active == 0


def test_a_turn_running_out_is_one_line_of_the_json_log(tmp_path):
    """Under the service the log is JSON lines in the journal: a turn that ran out is told
    there too (once), so a host, and the appliance check, can see when a timer fired."""
    import io
    import json

    from companion.core.events import CardScanned
    from sugarrr_helpers import STARTS

    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock)
    out = io.StringIO()
    runner = Runner(session, clock, timers=Timers(limit=5), json_out=out)
    for n, code in enumerate(STARTS):
        runner.inputs.put(CardScanned(code, "scanner", clock.now()))
        runner.step()
    clock.set(104.0)
    runner.step()
    assert "time_up" not in out.getvalue()
    clock.set(106.0)
    runner.step()
    clock.set(120.0)
    runner.step()
    lines = [json.loads(raw) for raw in out.getvalue().splitlines()]
    up = [rec for rec in lines if rec.get("event") == "time_up"]
    assert up == [{"event": "time_up", "player": "Ana", "turn": 1, "limit_s": 5, "passed": False,
                   "message": "Time is up for Ana's turn.", "t": 106.0}]


@pytest.mark.toy_game
def test_a_new_games_turns_are_timed_by_the_shared_clocks(tmp_path, app):
    """The toy game (tests/toy_game.py) times nothing itself: its set-up phase (the deal,
    its descriptor's ``setup_phases``) is no one's turn, each ``TurnEnded`` it returns
    starts the next player's clock, its screen counts the limit down, and at zero the
    table says so (High Card has no pass, so nothing is passed)."""
    import io

    from companion.core.events import CardScanned
    from toy_game import CARDS

    clock = FakeClock(100.0)
    session = Session.start("toy", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock, options={"rounds": "2"})
    said = io.StringIO()
    runner = Runner(session, clock, timers=Timers(limit=30, at_zero="pass"), text_out=said)
    cards = list(CARDS)
    for n, code in enumerate(cards[:4]):  # the deal: ten seconds a card, well past the limit in all
        clock.set(110.0 + 10 * n)
        runner.inputs.put(CardScanned(code, "scanner", clock.now()))
        runner.step()
    assert "Time is up" not in said.getvalue() and session.turn_started == 140.0 and session.state.phase == "play"
    clock.set(165.0)
    runner.step()
    texts = drawn_texts(app, runner.draw)
    assert "00:05" in texts and "left" in texts and "Time is up" not in said.getvalue()
    clock.set(171.0)
    runner.step()
    line = "Time is up for Ana's turn, but the rules allow no pass now: play on."
    assert said.getvalue().count(line) == 1 and session.last_message == line and session.state.active == 0
    clock.set(175.0)  # Ana lays a card face down: Ben's turn, Ben's clock
    runner.inputs.put(CardScanned(cards[0], "scanner", clock.now()))
    runner.step()
    assert session.state.active == 1 and session.turn_started == 175.0
    clock.set(204.0)
    runner.step()
    assert "Time is up for Ben's turn" not in said.getvalue()
    clock.set(206.0)
    runner.step()
    assert said.getvalue().count("Time is up for Ben's turn, but the rules allow no pass now: play on.") == 1
