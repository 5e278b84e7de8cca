"""The clocks: game clock, turn limit with its warning and its action at zero, chess clock,
pause; all derived from stored input times, so a restart keeps them."""

from __future__ import annotations

import pytest

from companion.core.clock import FakeClock
from companion.core.events import CardScanned, Touch
from companion.core.store import EventStore
from companion.table.runner import Runner
from companion.table.session import Session
from companion.ui import timers
from companion.ui.timers import Timers
from sugarrr_helpers import STARTS

T0 = 1_700_000_000.0


def setup_done(db, clock, **kw):
    """Ana and Ben, the five columns started at T0+1..T0+5: Ana's first turn from T0+5."""
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(db), clock)
    for i, code in enumerate(STARTS, 1):
        clock.set(T0 + i)
        assert session.handle(CardScanned(code, "scanner", clock.now())).verdict == "accepted"
    return session


def test_pauses_are_left_out_of_every_clock():
    assert timers.paused_between([(10, 20), (30, None)], 0, 40) == 20
    assert timers.game_seconds(0, 40, [(10, 20), (30, None)]) == 20
    assert timers.turn_seconds(15, 40, [(10, 20)]) == 20
    assert timers.spent_by_seat([(0, 0), (10, 1), (25, 0)], 40, [(12, 17)]) == {0: 25, 1: 10}


def test_turn_limit_warns_in_the_last_ten_seconds_and_expires():
    t = Timers(limit=60)
    assert t.left(20) == 40 and not t.warning(49.9) and t.warning(50) and not t.expired(59)
    assert t.expired(61) and t.left(61) == 0
    assert Timers().left(1000) is None and not Timers().warning(1000)
    with pytest.raises(ValueError):
        Timers(at_zero="explode")
    with pytest.raises(ValueError):
        Timers(limit=0)


def test_the_runner_shows_the_clocks_and_pause_stops_them(tmp_path):
    clock = FakeClock(T0)
    session = setup_done(tmp_path / "t.db", clock)
    runner = Runner(session, clock, timers=Timers(limit=30))
    clock.set(T0 + 20)
    info = runner.info()
    assert info.turn_seconds == 15 and info.turn_left == 15 and not info.warning and info.game_seconds == 20
    runner.touch("pause")
    runner.step()
    assert session.paused and runner.info().paused
    clock.set(T0 + 120)
    info = runner.info()
    assert info.turn_seconds == 15 and info.game_seconds == 20  # frozen while paused
    runner.touch("resume")
    runner.step()
    clock.set(T0 + 126)
    info = runner.info()
    assert not info.paused and info.turn_seconds == 21 and info.turn_left == 9 and info.warning


def test_a_play_ends_a_pause(tmp_path):
    clock = FakeClock(T0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(tmp_path / "t.db"), clock)
    session.handle(Touch("pause", T0 + 10))
    assert session.paused
    assert session.handle(Touch("nonsense", T0 + 20)).verdict == "rejected" and session.paused
    session.handle(CardScanned(STARTS[0], "scanner", T0 + 30))
    assert not session.paused and session.pauses.spans == [(T0 + 10, T0 + 30)]


def test_resume_while_playing_and_pause_while_paused_are_refused_and_change_nothing(tmp_path):
    """The trial: /resume as the first line paused the game, and a second /pause resumed
    it. Each touch says what it does; the GPIO pause button still toggles."""
    from companion.core.events import ButtonPressed

    db = tmp_path / "t.db"
    clock = FakeClock(T0)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(db), clock)
    verdict = session.handle(Touch("resume", T0 + 1))
    assert verdict.verdict == "rejected" and "not paused" in verdict.reason and not session.paused
    assert session.handle(Touch("pause", T0 + 2)).verdict == "accepted" and session.paused
    verdict = session.handle(Touch("pause", T0 + 3))
    assert verdict.verdict == "rejected" and "already paused" in verdict.reason and session.paused
    assert session.handle(ButtonPressed("pause", T0 + 4)).verdict == "accepted" and not session.paused
    assert session.pauses.spans == [(T0 + 2, T0 + 4)]
    session.store.close()
    again = Session.start("sugarrr", [], EventStore(db), clock)  # the refused touches were not stored
    assert again.pauses.spans == [(T0 + 2, T0 + 4)]


def test_clocks_survive_a_restart(tmp_path):
    db = tmp_path / "t.db"
    clock = FakeClock(T0)
    session = setup_done(db, clock)
    session.handle(Touch("pause", T0 + 8))
    session.handle(Touch("resume", T0 + 68))
    session.handle(Touch("column 1", T0 + 70))
    before = Runner(session, clock, timers=Timers(limit=90, bank=600))
    clock.set(T0 + 100)
    was = before.clocks()
    session.store.close()
    again = Session.start("sugarrr", [], EventStore(db), clock)  # the Pi restarted
    assert again.pauses.spans == [(T0 + 8, T0 + 68)]
    now = Runner(again, clock, timers=Timers(limit=90, bank=600)).clocks()
    assert now == was and now["turn"] == 35 and now["game"] == 40
    # The clock runs for the active seat, set-up included: Ana 5 s of set-up + 35 s of turn.
    assert now["banks"] == {0: 600 - 40, 1: 600}


def test_at_zero_the_turn_passes_where_the_rules_allow_and_only_warns_elsewhere(tmp_path):
    clock = FakeClock(T0)
    session = setup_done(tmp_path / "t.db", clock)
    runner = Runner(session, clock, timers=Timers(limit=30, at_zero="pass"))
    clock.set(T0 + 40)
    runner.step()  # Ana's normal turn: no Pass in Sugarrr! outside the final round
    assert session.state.active == 0 and runner.info().warning and runner.info().turn_left == 0
    # The Fruit Deck runs out and Ana swaps: the final round, where Pass is allowed.
    for cmd in ("deck 0", "swap 2"):
        assert session.handle(Touch(cmd, clock.now())).verdict == "accepted", cmd
    assert session.state.final_left is not None and session.state.active == 1
    clock.advance(29)
    runner.step()
    assert session.state.active == 1
    clock.advance(2)
    runner.step()
    runner.step()
    assert session.last_message.startswith("Ben passes") and session.state.phase == "hand"
    clock.advance(60)
    runner.step()  # Ben's hand is not a turn that can be passed: nothing more is sent
    assert session.last_message.startswith("Ben passes")


def test_the_chess_clock_kept_per_input_is_the_clock_worked_out_from_every_turn(tmp_path):
    """Session.spent_by_seat keeps what was spent up to the last input (it is asked for on
    every frame); through a whole recorded game, with pauses, undos and pauses ended by a
    play, it stays the chess clock worked out afresh from every turn at every moment."""
    import json

    from pathlib import Path

    trace = Path(__file__).parent / "data" / "sugar-heist-family.trace"
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    clock = FakeClock(T0)
    session = Session.start("sugar-heist", lines[0]["players"], EventStore(tmp_path / "t.db"), clock)

    def same_as_afresh(now):
        afresh = timers.spent_by_seat(session.turns(), now, session.pauses)
        kept = session.spent_by_seat(now)
        assert kept.keys() == afresh.keys() and all(abs(kept[k] - afresh[k]) < 1e-9 for k in kept), (now, kept, afresh)

    seen = 0
    for i, line in enumerate(lines[1:80]):
        t = T0 + line["t"]
        if "touch" in line:
            item = Touch(line["touch"], t)
        else:
            item = CardScanned(line["data"].strip(), line["device"], t)
        clock.set(t)
        same_as_afresh(t - 0.5)  # asked before and after each input, as frames are
        if session.handle(item).verdict == "accepted":
            seen += 1
        same_as_afresh(t)
        same_as_afresh(t + 0.7)
        if i % 9 == 4:  # a pause, the clock asked during it, then ended by Resume
            session.handle(Touch("pause", t + 0.1))
            same_as_afresh(t + 0.3)
            session.handle(Touch("resume", t + 0.4))
            same_as_afresh(t + 0.6)
        if i % 13 == 6:  # an undo, the clock asked, and the input again
            session.handle(Touch("undo", t + 0.2))
            same_as_afresh(t + 0.25)
            session.handle(item)
            same_as_afresh(t + 0.3)
    assert seen > 40 and len(set(session.spent_by_seat(T0 + 200))) == 3
