"""Text mode (``companion run --headless --simulate``) answers every command in order:
the screen's own commands, two Blasts named with where they are, a new game after the
final scores, and Ctrl-C after the game is over."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from test_text_mode import DATA, run, simulate_lines

BLAST = ["/board POYBRP/GOBORP/GRRPBY/YBPOBR/YGGBGP/RPRYGG", "/start", "/swap 4 3 4 4", "/hint", "/menu",
         "/cancel", "/draft", "/draft 12", "/blast 2"]


def test_screen_commands_are_answered_in_order_and_two_blasts_are_named(tmp_path):
    proc = run("--game", "sugar-blast", "--goal", "nine-any", "--names", "Ana,Ben", "--headless", "--simulate",
               "--store", str(tmp_path / "t.db"), stdin="\n".join(BLAST) + "\n")
    assert proc.returncode == 0, proc.stderr
    said = [line for line in proc.stdout.splitlines() if not line.startswith("  ")][1:]
    assert len(said) == len(BLAST), said
    assert said[2] == ("2 Blasts at once! Blast 1: 3 Blue down column 5; Blast 2: 3 Green along row 5. "
                       "Choose which one to solve first.")
    assert said[3].startswith("There is no hint for this step. Ana: choose which Blast")
    assert said[4].startswith("Menus open only on the screen")
    assert said[5].startswith("No menu is open, so there is nothing to cancel.")
    assert said[6].startswith("/draft only moves the number") and said[7].startswith("/draft only")
    assert said[8].startswith("3-Blast! Remove the 3 Green candies")
    assert "Ana: choose which Blast to solve first (Blast 1: 3 Blue down column 5;" in proc.stdout


def test_a_hint_in_words_on_a_turn(tmp_path):
    proc = run("--game", "sugar-blast", "--goal", "nine-any", "--names", "Ana,Ben", "--headless", "--simulate",
               "--store", str(tmp_path / "t.db"), stdin="\n".join(BLAST[:2] + ["/hint"]) + "\n")
    last = [line for line in proc.stdout.splitlines() if not line.startswith("  ")][-1]
    assert last.startswith("Hint: swap the candy in row ") and "(type /swap " in last


def family(tmp_path, extra: str) -> subprocess.CompletedProcess:
    trace = DATA / "sugarrr-family.trace"
    names = ",".join(json.loads(trace.read_text().splitlines()[0])["players"])
    return run("--names", names, "--headless", "--simulate", "--tap-off", "0", "--store", str(tmp_path / "t.db"),
               stdin=simulate_lines(trace) + extra)


def test_after_the_final_scores_text_mode_says_how_to_play_again_and_starts_a_new_game(tmp_path):
    proc = family(tmp_path, "/pause\n/help\n/newgame\nSRS215\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "  Game over. Type /newgame to play again with the same players. Or /undo takes the end back." in out
    assert "Not allowed (pause): The game is over: there is nothing to pause. Tap New game (/newgame)" in out
    assert "The game is over. Tap New game (/newgame) to play again" in out
    after = out.split("New game: Sugarrr! again with Mum, Dad, Maya, Leo.\n")[1].splitlines()
    assert after[0] == "Sugarrr!: Mum, Dad, Maya, Leo"
    assert "Now: Mum's turn (turn 1). Set-up: scan the card that starts column 1." in after[2]
    assert after[3] == "Strawberry 2 starts column 1."


def test_ctrl_c_after_the_game_is_over_says_so(tmp_path):
    trace = DATA / "sugarrr-family.trace"
    names = ",".join(json.loads(trace.read_text().splitlines()[0])["players"])
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1", SDL_VIDEODRIVER="dummy")
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--names", names, "--headless",
                             "--simulate", "--tap-off", "0", "--store", str(tmp_path / "t.db")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    proc.stdin.write(simulate_lines(trace))
    proc.stdin.flush()  # stdin stays open: the table waits, as at a real table
    for line in proc.stdout:
        if line.startswith("  Game over."):
            break
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    assert "Traceback" not in err
    assert "the Sugarrr! game is over and in the history (companion history --store" in err


def test_the_json_log_answers_screen_commands_too(tmp_path):
    proc = run("--game", "sugar-blast", "--goal", "nine-any", "--names", "Ana,Ben", "--headless", "--simulate",
               "--log-format", "json", "--store", str(tmp_path / "t.db"), stdin="/hint\n/menu\n/cancel\n/draft 3\n")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    touches = [x for x in lines if x.get("event") == "touch"]
    assert [x["command"] for x in touches] == ["hint", "menu", "cancel", "draft 3"]
    assert all(x["verdict"] == "screen-only" and x["message"].strip() for x in touches)
