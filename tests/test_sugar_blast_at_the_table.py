"""Sugar Blast at a real table (issue 9): what a family types and reads through
``companion run --headless --simulate`` and ``companion hint``."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core.clock import FakeClock
from companion.core.events import Touch, TrayLevel, TrayTilted
from companion.core.store import EventStore
from companion.games.sugar_blast import rules as R
from companion.table.session import Session

# The board: swapping row 5 column 4 with row 5 column 5 (``/swap 4 3 4 4``)
# makes two Blasts at once: Green across row 5 and Blue down column 5.
TWO = "POYBRP/GOBORP/GRRPBY/YBPOBR/YGGBGP/RPRYGG"
# Swapping (1,2)<->(2,2) puts a Yellow where a row of 4 crosses a column of 3: 6 candies.
L_OF_SIX = "RGBPRO/GRYBOR/YYBYOP/ROYGBG/PBYRPR/BPOGRB"
# The same with a row of 5: 7 candies.
L_OF_SEVEN = "RGBPRO/GRYBOR/YYBYYP/ROYGBG/PBYRPR/BPOGRB"
# No swap makes a Blast.
STUCK = "RROOYY/GGBBPP/RROOYY/GGBBPP/RROOYY/GGBBPP"


def count_named(text):
    """A Blast named by a number of candies ("7-Blast"), not by its kind."""
    for kind in ("5-6-Blast", "3-Blast", "4-Blast"):
        text = text.replace(kind, "")
    return re.search(r"[0-9]+-Blast", text)


def play(tmp_path, *lines, options=("--goal", "nine-any"), names="Ana,Ben"):
    """The text log of a headless Sugar Blast game fed ``lines`` (``/cmd`` a touch)."""
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--headless", "--simulate", "--game",
                           "sugar-blast", *options, "--names", names, "--store", str(tmp_path / "table.db")],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # the first line names the game; indented lines are the status after each input
    return [line for line in proc.stdout.splitlines()[1:] if not line.startswith("  ")]


def hint(tmp_path, board):
    f = tmp_path / "board.txt"
    f.write_text(board.replace("/", "\n") + "\n")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "hint", "sugar-blast", str(f)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_two_blasts_from_one_swap_are_each_tilted_and_refilled_on_their_own(tmp_path):
    out = play(tmp_path, f"/board {TWO}", "/start", "/swap 4 3 4 4", "/blast 2", "/keep G", "/tilt", "/refill RPB")
    assert out[2] == ("2 Blasts at once! Blast 1: 3 Blue down column 5; Blast 2: 3 Green along row 5. "
                      "Choose which one to solve first.")
    assert out[3].startswith("3-Blast! Remove the 3 Green candies")
    # Green is removed, then tilted and refilled alone: the Blue column waits
    assert out[4] == "Ana keeps 1 Green; 2 candies to the discards. Ana: tilt the board toward you, then let it go."
    assert out[5] == "The candies slid toward Ana (bottom of the board). Fill 3 spaces from the bag, bottom to top"
    # after that refill the Blue column still stands: it is solved now
    assert out[6].startswith("3-Blast! Remove the 3 Blue candies")
    assert not any(line.startswith("Not allowed") for line in out)


def test_blue_first_then_the_green_row_that_still_stands_after_the_refill(tmp_path):
    # Blue's removal and the slide leave row 5's Greens where they were; the refill
    # (R P R down column 5) makes one more Blast: both are offered again.
    out = play(tmp_path, f"/board {TWO}", "/start", "/swap 4 3 4 4", "/blast 1", "/keep B", "/tilt", "/refill RPR",
               "/blast 2")
    assert out[3].startswith("3-Blast! Remove the 3 Blue candies")
    assert out[5].startswith("The candies slid toward Ana")
    assert out[6] == ("2 Blasts at once! Blast 1: 3 Red down column 5; Blast 2: 3 Green along row 5. "
                      "Choose which one to solve first.")
    assert out[7].startswith("3-Blast! Remove the 3 Green candies")
    # (a Blast broken by the first one's removal is not solved: test_sugar_blast_rules,
    # test_two_blasts_at_once_the_player_chooses_which_to_solve_first)


@pytest.mark.parametrize("board", [L_OF_SIX, L_OF_SEVEN])
def test_a_t_or_l_of_six_or_seven_is_a_five_six_blast_named_by_its_kind(tmp_path, board):
    out = play(tmp_path, f"/board {board}", "/start", "/swap 1 2 2 2", "/keep Y Y")
    assert out[2] == "5-6-Blast! Remove every Yellow candy on the board and keep 2."
    assert out[3].startswith("Ana keeps 2 Yellow")
    text = hint(tmp_path, board)
    assert "swap row 2, column 3 Y with row 3, column 3 B: 5-6-Blast of Yellow" in text
    assert not any(count_named(line) for line in out + text.splitlines())


def test_solo_is_lost_when_the_bag_alone_cannot_refill(tmp_path):
    # Quick solo: 24 candies in the bag. Two Blasts of 12 empty it (the discards hold 20);
    # a 3-Blast then leaves 3 spaces the bag cannot fill: lost, discards or not.
    out = play(tmp_path, "/start", "/quick 5-6 R 12", "/keep R R", "/tilt", "/done",
               "/quick 5-6 B 12", "/keep B B", "/tilt", "/done", "/quick 3 G", "/keep G", "/tilt",
               options=("--solo", "--quick"), names="Ana")
    assert ("The candies slid toward Ana (bottom of the board). The bag cannot fill 3 spaces: the game is lost. "
            "Try again!") in out


def test_quick_mode_checks_each_kind_against_what_it_can_remove(tmp_path):
    out = play(tmp_path, "/start", "/quick 5-6 R 30", "/quick 4 R 5", "/quick box R 5", "/quick 4 R 6",
               options=("--goal", "nine-any", "--quick"))
    assert out[1] == "Not allowed (quick 5-6 R 30): A 5-6-Blast removes 5 to 12 candies: how many did it remove?"
    assert out[2] == "Not allowed (quick 4 R 5): A 4-Blast removes 6 candies: how many did it remove?"
    assert out[3] == "Not allowed (quick box R 5): A Box-Blast removes 9 candies: how many did it remove?"
    assert out[4].startswith("4-Blast! Remove every candy in that row or column")


def test_rows_and_columns_are_counted_from_1_in_what_people_read(tmp_path):
    out = play(tmp_path, "/board RRRGBP/GOBORP/GRRPBY/YBPOBR/YGGBGP/RPRYGG", "/start")
    assert out[-1] == ("Not allowed (start): 3 Red candies are in a line in row 1: mix the candies on the board and "
                       "enter it again.")
    text = hint(tmp_path, TWO)
    assert "(rows and columns counted from 1 at the top left)" in text
    assert "swap row 5, column 4 B with row 5, column 5 G" in text and "(type /swap 4 3 4 4)" in text


def test_without_a_tray_sensor_tilted_is_one_tap(tmp_path):
    out = play(tmp_path, f"/board {TWO}", "/start", "/swap 4 3 4 4", "/blast 1", "/keep B", "/tilt")
    assert out[-1].startswith("The candies slid toward Ana") and "Fill 3 spaces" in out[-1]


@pytest.fixture
def app():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.ui.app import App

    window = App()
    yield window
    window.close()


def at_tilt():
    s = Session.start("sugar-blast", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(), options={"goal": "nine-any"})
    for n, command in enumerate([f"board {TWO}", "start", "swap 4 3 4 4", "blast 1", "keep B"]):
        assert s.handle(Touch(command, n)).verdict == "accepted"
    assert s.state.phase == R.TILT
    return s


@pytest.mark.parametrize("devices", [{}, {"tray": "tray offline: no answer on i2c-1"}])
def test_without_a_working_sensor_the_tilted_button_counts_at_once(app, devices):
    from companion.games.sugar_blast import screen
    from companion.ui.app import TableInfo

    s = at_tilt()
    app.show(lambda surface: screen.draw_game(surface, s.view, TableInfo(entry=s.entry, devices=devices)))
    assert "tilt" in {b.command for b in app.buttons}
    assert s.handle(Touch("tilt", 9)).verdict == "accepted" and s.state.phase == R.REFILL


def test_with_a_working_sensor_the_tilted_button_asks_first(app, tmp_path):
    from companion.games.sugar_blast import screen
    from companion.ui.app import TableInfo

    s = at_tilt()
    working = {"tray": "connected"}
    app.show(lambda surface: screen.draw_game(surface, s.view, TableInfo(entry=s.entry, devices=working)))
    commands = {b.command for b in app.buttons}
    assert "menu tilt" in commands and "tilt" not in commands
    app.show(lambda surface: screen.draw_game(surface, s.view, TableInfo(entry=s.entry, devices=working, menu="tilt")))
    app.save(tmp_path / "tilt-confirm.png")
    assert {"tilt", "cancel"} <= {b.command for b in app.buttons}
    # the tray itself still works, and a tilt toward another seat is still a gentle no
    assert s.handle(TrayTilted(3, 20.0, 9)).verdict == "rejected"
    assert [s.handle(i).verdict for i in (TrayTilted(1, 20.0, 10), TrayLevel(11))] == ["accepted", "accepted"]
    assert s.state.phase == R.REFILL


def test_hint_reports_a_blast_already_on_the_board(tmp_path):
    text = hint(tmp_path, "RRRGBP/GOBORP/GRRPBY/YBPOBR/YGGBGP/RPRYGG")
    assert text.strip() == ("The board already holds 3-Blast of Red at row 1, column 1; row 1, column 2; "
                            "row 1, column 3: solve it first.")
    assert "No Blasts" not in text


def test_no_blasts_tapped_when_right_is_a_step_not_an_error(tmp_path):
    out = play(tmp_path, f"/board {STUCK}", "/start", "/no-blasts")
    assert out[-1] == ("Right: no swap makes a Blast. Take 1 candy from the bag, tap its colour, then the candy it "
                       "replaces.")
    s = Session.start("sugar-blast", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(), options={"goal": "nine-any"})
    for n, command in enumerate([f"board {STUCK}", "start", "no-blasts"]):
        verdict = s.handle(Touch(command, n))
    assert verdict.verdict == "accepted" and s.last_ok is not False and s.state.phase == R.TURN


def test_the_worked_turn_in_the_readme_is_what_the_companion_says(tmp_path):
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    block = readme.split("A worked turn", 1)[1].split("```", 2)[1]
    rows = [line for line in block.splitlines() if line.startswith("/")]
    commands = [row.split("  ", 1)[0].strip() for row in rows]
    said = [row.split("  ", 1)[1].strip() if "  " in row else None for row in rows]
    out = play(tmp_path, *commands)
    assert len(out) == len(commands)
    for command, expected, line in zip(commands, said, out):
        if expected:
            assert line == expected, command


# Swapping row 2 column 3 with row 3 column 3 (``/swap 1 2 2 2``) makes two Blasts at
# once: Green along row 2 and Blue down column 3; Blue first, the slide breaks the Green row.
SLIDE = "BOGPBG/GGBYGB/GYGYOO/POBRBY/BGBYPG/YBRRBG"


def test_a_blast_the_slide_broke_is_said_to_be_gone_before_the_refill(tmp_path):
    """"Important! If there are 2 or more Blasts at the same time, choose 1 to solve before
    the other." (rulebook, "Gameplay"): the one the first one's slide broke is gone, and
    the table is told so (issue 36: it was dropped without a word)."""
    out = play(tmp_path, f"/board {SLIDE}", "/start", "/swap 1 2 2 2", "/blast 2", "/keep B", "/tilt", "/refill PRY")
    assert out[2] == ("2 Blasts at once! Blast 1: 3 Green along row 2; Blast 2: 3 Blue down column 3. "
                      "Choose which one to solve first.")
    assert out[5] == ("The candies slid toward Ana (bottom of the board). Blast 1 (3 Green along row 2) was broken "
                      "by the slide: it is gone. Look for new Blasts after the refill. Fill 3 spaces from the bag, "
                      "bottom to top")
    assert out[6] == "Ben's turn."
    assert not any(line.startswith("Not allowed") for line in out)


def test_help_before_the_board_is_set_up_lists_every_way_to_set_it_up(tmp_path):
    """`/help` at set-up listed only /palette (issue 38): it lists what the table accepts
    then, from the view: a colour, the whole board typed, "Set up from the screen"; the
    cells once a colour is chosen; Start once the board is full."""
    out = play(tmp_path, "/help", "/palette R", "/help", f"/board {TWO}", "/help")
    first, with_colour, full = out[0], out[2], out[4]
    for typed in ("/palette X", "/board ROW/ROW/...", "Set up from the screen (/deal [N])"):
        assert typed in first, (typed, first)
    assert "/cell R C" not in first and "/cell R C" in with_colour
    assert "Ready (/ready)" in full and "Ready (/ready)" not in first
    # one way to start is offered, not three (Done and /start are read as Ready, for recorded games)
    assert "/start" not in full and "Done (/done)" not in full, full


def test_the_keep_prompt_names_what_a_text_player_types_and_takes_the_colour_s_name(tmp_path):
    """The keep step said "choose the candies to keep" and named no command (issue 38):
    it says what this Blast lets the player keep and the command for it, and the colour
    the prompt names is typed as it is said."""
    from companion.core.commands import annotate
    from companion.games.sugar_blast import flow

    s = R.new_game(["Ana", "Ben"], "nine-any")
    for action in (R.SetBoard(tuple(TWO.split("/"))), R.StartGame(), R.SwapCandies((4, 3), (4, 4)), R.ChooseBlast(1)):
        s, _ = R.step(s, action)
    assert s.phase == R.KEEP
    said = annotate(flow.prompt(s), flow.COMMANDS)
    assert said == "Ana: from this Blast, keep 1 Green: tap the candies you keep (/keep X [Y])."
    out = play(tmp_path, f"/board {TWO}", "/start", "/swap 4 3 4 4", "/blast 2", "/help", "/keep Green")
    assert "the candies you keep (/keep X [Y])" in out[4]
    assert out[5] == "Ana keeps 1 Green; 2 candies to the discards. Ana: tilt the board toward you, then let it go."
