"""Sugar Blast with fewer taps (issue 38): "Set up from the screen" (the table draws a
legal starting board, the players lay it out, then tap Ready) and no keep tap where a
Blast leaves only one choice. Today's copy-the-board set-up stays, and a game recorded
with it (``start``, then every keep tapped) replays exactly as before."""

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from companion.core.clock import FakeClock
from companion.core.errors import BadCommand, IllegalAction
from companion.core.events import Touch
from companion.core.store import EventStore
from companion.games.sugar_blast import flow, rules as R, screen
from companion.games.sugar_blast.parts import board as B
from companion.table.session import Session
from companion.ui.app import App, TableInfo

ROOT = Path(__file__).resolve().parents[1]

# Swapping (2,1)<->(2,2) makes PPP down column 2 (rows 0-2): a 3-Blast, keep 1 Purple.
START = ("ORPRBP", "YGPPRO", "BPROYG", "ROYGBP", "YGYPRO", "BPROYG")
# Swapping (0,2)<->(1,2) makes RRRR along row 1: a 4-Blast removing the row, whose other
# candies are a Blue and a Purple: keep 1 Red and 1 Blue, or 1 Red and 1 Purple.
FOUR = ("RRGRBP", "BPROYG", "OYBGPR", "YGPBRO", "POYRGB", "GBOPOY")

SETUP_RULE = ("There cannot be 3 or more Candies of the same type connected in a row or column. If there are, "
              "mix the Candies on the Board until there are no more sequences of the same Candy.")


def lines_of_three(board):
    """Every 3 cells in a row or a column holding one kind (checked here, not by the game's own run finder)."""
    found = []
    for r in range(len(board)):
        for c in range(len(board[0])):
            for dr, dc in ((0, 1), (1, 0)):
                cells = [(r + i * dr, c + i * dc) for i in range(3)]
                if all(0 <= y < len(board) and 0 <= x < len(board[0]) for y, x in cells):
                    kinds = {board[y][x] for y, x in cells}
                    if len(kinds) == 1 and "." not in kinds:
                        found.append(cells)
    return found


def dealt(players=("Ana", "Ben"), goal="five-different", solo=False, command="deal 7", t=1.0):
    s = R.new_game(list(players), goal, solo=solo)
    entry, action, _ = flow.read(s, flow.new_entry(), Touch(command, t))
    return R.step(s, action)[0]


def session(tmp_path, clock=None):
    store = EventStore(tmp_path / "table.db")
    return Session.start("sugar-blast", ["Ana", "Ben"], store, clock or FakeClock(0.0), new_game=True,
                         options={"goal": "five-different"})


# ---------------------------------------------------------------- the board the table draws

@pytest.mark.parametrize("solo", [False, True])
def test_a_board_the_table_draws_is_full_and_never_has_three_of_a_kind_in_a_line(solo):
    # Rulebook, Setup: "Take Candies from the Bag without looking at them and place them on the
    # board until it is full. There cannot be 3 or more Candies of the same type connected in a
    # row or column. If there are, mix the Candies on the Board until there are no more sequences
    # of the same Candy."  Solo-Mode Rules: "Remove all orange candies from the game".
    assert "There cannot be 3 or more Candies" in SETUP_RULE
    for seed in range(150):
        s = dealt(players=("Ana",) if solo else ("Ana", "Ben"), goal=None if solo else "nine-any", solo=solo,
                  command=f"deal {seed}")
        cells = "".join(s.board)
        assert len(s.board) == 6 and all(len(row) == 6 for row in s.board) and "." not in cells, seed
        assert lines_of_three(s.board) == [], (seed, s.board)
        on = R.counts(cells)
        assert all(n <= 12 for n in on) and (on[R.KINDS.index("O")] == 0 if solo else True)
        # the bag holds the rest: every candy is on the board or in the bag
        assert R.plus(on, s.bag) == s.supply and s.bag_n == s.total - 36 and s.on_board_n == 36
        assert s.dealt == seed and s.phase == R.SETUP


def test_the_same_seed_draws_the_same_board_and_other_seeds_other_boards():
    assert dealt(command="deal 42").board == dealt(command="deal 42").board
    assert len({dealt(command=f"deal {n}").board for n in range(20)}) == 20
    # without a number the seed is the tap's time in milliseconds, stored with the input
    assert dealt(command="deal", t=12.345).board == dealt(command="deal 12345").board
    assert dealt(command="deal", t=12.345).dealt == 12345


def test_set_up_from_the_screen_is_refused_in_words_where_it_cannot_be():
    quick = R.new_game(["Ana", "Ben"], "nine-any", quick=True)
    with pytest.raises(IllegalAction, match="Quick mode has no board on the screen"):
        flow.read(quick, flow.new_entry(), Touch("deal", 1.0))
    with pytest.raises(BadCommand):
        flow.read(R.new_game(["Ana", "Ben"], "nine-any"), flow.new_entry(), Touch("deal 1.5", 1.0))
    started = R.step(dealt(), R.StartGame(auto_keep=True))[0]
    with pytest.raises(IllegalAction):
        flow.read(started, flow.new_entry(), Touch("deal", 1.0))
    with pytest.raises(IllegalAction, match="in a line"):  # the rules check a drawn board too
        R.check(R.new_game(["Ana", "Ben"], "nine-any"), R.DealBoard(("RRRGBP",) + START[1:], 1))


def test_the_drawn_board_is_laid_out_with_nothing_tapped_in_then_one_tap_on_ready(tmp_path):
    s = session(tmp_path)
    v = s.handle(Touch("deal", 3.25))
    assert v.verdict == "accepted"
    assert s.prompt() == "Lay the candies out like this, then tap Ready."
    assert s.state.on_board_n == 36 and lines_of_three(s.state.board) == []
    assert s.handle(Touch("ready", 9.0)).verdict == "accepted"
    assert s.state.phase == R.TURN and s.state.auto_keep
    inputs = [i.command for i in s.store.inputs(s.game_id)]
    assert inputs == ["deal", "ready"]  # two taps, where copying the board took 42 and Start


def test_the_drawn_board_comes_back_the_same_on_resume_and_undo_takes_it_back(tmp_path):
    s = session(tmp_path)
    s.handle(Touch("deal", 7.5))
    board = s.state.board
    again = Session.start("sugar-blast", [], EventStore(tmp_path / "table.db"), FakeClock(50.0))
    assert again.state == s.state and again.state.board == board and again.prompt() == s.prompt()
    assert again.handle(Touch("undo", 51.0)).verdict == "accepted"
    assert again.state.board == ("......",) * 6 and again.state.dealt is None
    # and after a restart the undo stays taken back
    third = Session.start("sugar-blast", [], EventStore(tmp_path / "table.db"), FakeClock(60.0))
    assert third.state == again.state


# ---------------------------------------------------------------- no keep tap where there is one choice

def test_a_blast_with_one_choice_is_kept_without_a_tap_and_the_table_is_told(tmp_path):
    # "Keep the Candies based on the Blast you made" (Every Time You Make a Blast); a 3-Blast: "keep 1".
    s = session(tmp_path)
    for command in ("board " + "/".join(START), "ready", "cell 2 1"):
        s.handle(Touch(command, 1.0))
    v = s.handle(Touch("cell 2 2", 2.0))
    assert v.verdict == "accepted" and s.state.phase == R.TILT
    assert s.state.kept[0] == R.counts("P") and s.state.auto_kept == ("P",)
    assert "Only one choice, so Ana keeps 1 Purple; 2 candies to the discards." in s.last_message
    R.check_conservation(s.state)
    with pytest.raises(IllegalAction):  # nothing is left to keep
        R.check(s.state, R.KeepCandies(("P",)))


def test_a_blast_with_a_real_choice_still_waits_for_the_keep_tap():
    s = R.step(R.step(R.step(R.new_game(["Ana", "Ben"], "nine-any"), R.SetBoard(FOUR))[0],
                      R.StartGame(auto_keep=True))[0], R.SwapCandies((0, 2), (1, 2)))[0]
    assert s.phase == R.KEEP and flow.keep_options(s) == [("R", "B"), ("R", "P")]
    s, events = R.step(s, R.KeepCandies(("R", "P")))
    assert s.phase == R.TILT and events[0].message == "Ana keeps 1 Red, 1 Purple; 4 candies to the discards."


def test_a_game_begun_with_start_as_recorded_still_asks_every_keep():
    s = R.step(R.step(R.new_game(["Ana", "Ben"], "nine-any"), R.SetBoard(START))[0], R.StartGame())[0]
    s = R.step(s, R.SwapCandies((2, 1), (2, 2)))[0]
    assert s.phase == R.KEEP and flow.keep_options(s) == [("P",)]
    assert not s.auto_keep and s.auto_kept == ()


def test_the_tilt_screen_says_the_keep_nobody_tapped(tmp_path):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    s = R.step(R.step(R.new_game(["Ana", "Ben"], "nine-any"), R.SetBoard(START))[0], R.StartGame(auto_keep=True))[0]
    auto = R.step(s, R.SwapCandies((2, 1), (2, 2)))[0]
    asked = R.step(R.step(R.step(R.step(R.new_game(["Ana", "Ben"], "nine-any"), R.SetBoard(START))[0],
                                 R.StartGame())[0], R.SwapCandies((2, 1), (2, 2)))[0], R.KeepCandies(("P",)))[0]
    assert auto.phase == asked.phase == R.TILT and auto.kept == asked.kept
    app = App()
    try:
        note = pygame.Rect(screen.RIGHT.left + 16, screen.RIGHT.top + 284, screen.RIGHT.width - 32, 60)

        def bright(state):
            app.show(lambda surf: screen.draw_game(surf, state, TableInfo()))
            return sum(app.surface.get_at((x, y))[:3] == (255, 204, 0)
                       for x in range(note.left, note.right, 2) for y in range(note.top, note.bottom, 2))
        assert bright(auto) > 20 and bright(asked) == 0
        app.save(tmp_path / "tilt-kept-only.png")
    finally:
        app.close()


def test_the_set_up_screen_offers_both_ways_and_ready_once_a_board_is_drawn():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    app = App()
    try:
        fresh = R.new_game(["Ana", "Ben"], "nine-any")
        app.show(lambda surf: screen.draw_game(surf, fresh, TableInfo(prompt=flow.prompt(fresh))))
        before = {b.command for b in app.buttons}
        assert {"deal", "ready", "palette R", "palette ."} <= before
        drawn = dealt()
        app.show(lambda surf: screen.draw_game(surf, drawn, TableInfo(prompt=flow.prompt(drawn))))
        after = [b.command for b in app.buttons]
        assert "deal" not in after and after.count("ready") == 1 and "palette R" in after
        assert sum(c.startswith("cell ") for c in after) == 36  # a drawn board can still be changed candy by candy
    finally:
        app.close()


# ---------------------------------------------------------------- the recorded copy-the-board game

def test_the_recorded_copy_the_board_game_is_generated_byte_for_byte_as_before(tmp_path):
    out = tmp_path / "sugar-blast-family.trace"
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_sugar_blast_trace.py"), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = ROOT / "tests" / "data"
    assert out.read_bytes() == (data / "sugar-blast-family.trace").read_bytes()
    assert out.with_name("sugar-blast-family.golden.json").read_bytes() == \
        (data / "sugar-blast-family.golden.json").read_bytes()


def test_text_mode_says_the_drawn_board_row_by_row_when_asked_for_a_hint():
    s = dealt(command="deal 7")
    words = screen.hint_words(s)
    assert words.startswith("Lay the candies out from the top left, row by row: row 1: ")
    named = {B.NAMES[k]: k for k in R.KINDS}
    rows = [part.split(": ")[1].split() for part in words.split("row by row: ")[1].removesuffix(". Then tap Ready.")
            .split("; ")]
    assert tuple("".join(named[n] for n in row) for row in rows) == s.board
    assert screen.hint_words(R.new_game(["Ana", "Ben"], "nine-any")) is None  # nothing drawn: nothing to say
