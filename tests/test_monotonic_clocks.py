"""The table's clocks run on the monotonic clock: a Pi has no real-time clock and NTP
steps the wall clock after boot, which must move no timer (turn limit, chess clock, game
clock, bid countdown, tap-off window); and the clocks still survive a restart."""

from __future__ import annotations

import glob
import io
import os
import subprocess
import sys

import pytest

from companion.core.clock import FakeClock, TableClock
from companion.core.events import CardScanned
from companion.core.store import EventStore
from companion.table.runner import Runner
from companion.table.session import Session
from companion.ui.timers import Timers
from sugarrr_helpers import STARTS

T0 = 1_700_000_000.0
TWO_HOURS = 7200.0


class Pi:
    """A wall clock NTP can step and a monotonic clock it cannot."""

    def __init__(self):
        self.wall, self.mono = FakeClock(T0), FakeClock(50.0)

    def clock(self, **kw) -> TableClock:
        return TableClock(self.wall.now, self.mono.now, **kw)

    def wait(self, seconds: float) -> None:
        self.wall.advance(seconds)
        self.mono.advance(seconds)


def _started(pi, clock, db, game="sugarrr", names=("Ana", "Ben"), **kw):
    session = Session.start(game, list(names), EventStore(db), clock, **kw)
    if game == "sugarrr":
        for code in STARTS:
            pi.wait(1.0)
            assert session.handle(CardScanned(code, "scanner", clock.now())).verdict == "accepted"
    return session


def test_ntp_stepping_the_wall_clock_two_hours_changes_no_turn_chess_or_game_clock(tmp_path):
    pi = Pi()
    clock = pi.clock()
    said = io.StringIO()
    session = _started(pi, clock, tmp_path / "t.db")
    runner = Runner(session, clock, timers=Timers(limit=60, bank=600), text_out=said)
    pi.wait(5.0)
    before = runner.clocks()
    assert before["turn"] == 5.0 and before["left"] == 55.0
    pi.wall.advance(TWO_HOURS)  # NTP's step, 5 s into the turn
    runner.step()
    assert runner.clocks() == before
    assert "Time is up" not in said.getvalue()
    pi.wall.advance(-2 * TWO_HOURS)  # and a step back
    pi.wait(1.0)
    runner.step()
    assert runner.clocks()["turn"] == 6.0 and runner.clocks()["game"] == before["game"] + 1.0
    assert "Time is up" not in said.getvalue()


def test_the_bid_countdown_ignores_a_wall_clock_step(tmp_path):
    pi = Pi()
    clock = pi.clock()
    session = _started(pi, clock, tmp_path / "t.db", "sweet-deals", ("Ana", "Ben", "Cy"),
                       options={"mode": "open", "hybrid": None})
    runner = Runner(session, clock, timers=Timers(bid=15))
    pi.wait(1.0)
    runner.touch("offer cupcake")
    runner.step()
    pi.wait(4.0)
    pi.wall.advance(TWO_HOURS)
    assert runner.info().bid_left == 11  # not 0: the bidder still has their time


@pytest.mark.parametrize("step, second", [(TWO_HOURS, "ignored"), (-TWO_HOURS, "rejected")])
def test_the_tap_off_window_ignores_a_wall_clock_step(tmp_path, step, second):
    """The same card 0.3 s later is the same tap (ignored) even if the wall clock jumped
    forward in between; 2 s later it is a new scan (here refused: the card is on the
    table) even if the wall clock jumped back."""
    pi = Pi()
    clock = pi.clock()
    session = _started(pi, clock, tmp_path / "t.db")
    pi.wait(1.0)
    code = STARTS[0]
    first = session.handle(CardScanned(code, "scanner", clock.now()))
    assert first.verdict == "rejected"  # already on the table
    pi.wall.advance(step)
    pi.wait(0.3 if second == "ignored" else 2.0)
    assert session.handle(CardScanned(code, "scanner", clock.now())).verdict == second


def test_a_restart_in_the_same_boot_goes_on_from_the_kept_anchor_whatever_the_wall_clock_did(tmp_path):
    pi, db = Pi(), str(tmp_path / "t.db")
    first = TableClock.for_store(db, None, pi.wall.now, pi.mono.now, boot=lambda: "boot-A")
    session = _started(pi, first, db)
    runner = Runner(session, first, timers=Timers(limit=60))
    pi.wait(20.0)
    was = runner.clocks()
    session.store.close()
    pi.wall.advance(TWO_HOURS)  # NTP stepped while the companion restarted (2 s)
    pi.wait(2.0)
    again = TableClock.for_store(db, T0 + 5, pi.wall.now, pi.mono.now, boot=lambda: "boot-A")
    resumed = Session.start("sugarrr", [], EventStore(db), again)
    now = Runner(resumed, again, timers=Timers(limit=60)).clocks()
    assert now["turn"] == was["turn"] + 2.0 and now["left"] == was["left"] - 2.0


def test_after_a_reboot_an_unfinished_games_clocks_go_on_from_its_last_stored_time(tmp_path):
    pi, db = Pi(), str(tmp_path / "t.db")
    first = TableClock.for_store(db, None, pi.wall.now, pi.mono.now, boot=lambda: "boot-A")
    session = _started(pi, first, db)
    pi.wait(20.0)  # 20 s into Ana's turn: the power is cut
    was = Runner(session, first, timers=Timers(limit=60)).clocks()
    last = max(i.t for i in session.store.inputs(session.game_id))
    session.store.close()
    pi.mono = FakeClock(3.0)  # a new boot: the monotonic clock starts again
    pi.wall.advance(TWO_HOURS)  # and the wall clock is whatever it is
    again = TableClock.for_store(db, last, pi.wall.now, pi.mono.now, boot=lambda: "boot-B")
    resumed = Session.start("sugarrr", [], EventStore(db), again)
    now = Runner(resumed, again, timers=Timers(limit=60)).clocks()
    # The 20 s before the cut are lost with the power (nothing was stored after the last
    # input); the time the table was off is not counted: not "Time is up".
    assert now["turn"] == 0.0 and now["left"] == 60.0 and now["game"] == was["game"] - 20.0
    pi.wait(7.0)
    assert Runner(resumed, again, timers=Timers(limit=60)).clocks()["turn"] == 7.0


def test_a_new_game_takes_the_wall_time_again_so_the_history_dates_follow_ntp(tmp_path):
    pi = Pi()
    clock = pi.clock()
    pi.wall.advance(TWO_HOURS)
    store = EventStore(tmp_path / "t.db")
    session = Session.start("sugarrr", ["Ana", "Ben"], store, clock)
    assert store.games()[0].started == pi.wall.now() == clock.now()
    assert session.turn_started == pi.wall.now()


LIBFAKETIME = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))


@pytest.mark.skipif(not LIBFAKETIME, reason="libfaketime not installed (apt install faketime)")
def test_companion_run_under_libfaketime_a_two_hour_step_does_not_end_the_turn(tmp_path):
    """The issue's own check: the wall clock stepped +2 h by libfaketime, the monotonic
    clock untouched, 1 s into a 60 s turn."""
    stamp = tmp_path / "faketime"
    stamp.write_text("+0\n")
    env = dict(os.environ, LD_PRELOAD=LIBFAKETIME[0], FAKETIME_TIMESTAMP_FILE=str(stamp), FAKETIME_NO_CACHE="1",
               FAKETIME_DONT_FAKE_MONOTONIC="1", XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--headless", "--simulate",
                             "--names", "Ana,Ben", "--turn-limit", "60", "--store", str(tmp_path / "t.db")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        for code in STARTS:
            proc.stdin.write(code + "\n")
        proc.stdin.flush()
        seen = []
        while len([l for l in seen if "starts column 5" in l]) < 1:  # every start card handled
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            seen.append(line)
        stamp.write_text("+2h\n")  # NTP's step
        proc.stdin.write("/help\n")  # one more loop turn after the step, at least
        proc.stdin.close()
        out, err = proc.stdout.read(), proc.stderr.read()
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Time is up" not in "".join(seen) + out


def test_the_clock_file_beside_the_store_is_readable_by_its_owner_only(tmp_path):
    # Issue 37: "store and trace files are created 0600" -- the clock file (STORE.clock)
    # sits beside the store and is written on every start, under any umask.
    import os
    import stat
    db = str(tmp_path / "t.db")
    old = os.umask(0o022)
    try:
        TableClock.for_store(db, None, boot=lambda: "boot-A")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(db + ".clock").st_mode) == 0o600
