"""Sugar Blast at the table: taps and tilts -> flow -> rules -> session -> screen, the
recorded family game through the emulated tray chip, `companion hint` and `companion demo`."""

import json
import os
from pathlib import Path

import pygame
import pytest

from companion.cli import main
from companion.core.clock import FakeClock
from companion.core.errors import IllegalAction
from companion.core.events import CardScanned, Touch, TrayLevel, TrayTilted
from companion.core.store import EventStore
from companion.games.sugar_blast.parts import board as B
from companion.games.sugar_blast import flow, rules as R, screen
from companion.table.replay import replay
from companion.table.logs import json_logger
from companion.table.session import Session
from companion.ui.app import App, TableInfo

DATA = Path(__file__).parent / "data"
TRACE = DATA / "sugar-blast-family.trace"
GOLDEN = json.loads((DATA / "sugar-blast-family.golden.json").read_text())

# Swapping (2,1)<->(2,2) makes PPP down column 2 (rows 0-2).
START = ("ORPRBP", "YGPPRO", "BPROYG", "ROYGBP", "YGYPRO", "BPROYG")


def session(tmp_path=None, players=("Ana", "Ben"), goal="five-different"):
    store = EventStore(":memory:" if tmp_path is None else tmp_path / "table.db")
    return Session.start("sugar-blast", list(players), store, FakeClock(0.0), options={"goal": goal})


def feed(s, *items):
    return [s.handle(item) for item in items]


def at_tilt(s):
    feed(s, Touch("board " + "/".join(START), 1), Touch("start", 2), Touch("cell 2 1", 3), Touch("cell 2 2", 4),
         Touch("keep P", 5))
    assert s.state.phase == R.TILT
    return s


# ---------------------------------------------------------------- flow

def test_palette_then_cell_taps_place_candies_at_set_up():
    s = R.new_game(["Ana", "Ben"], "five-different")
    with pytest.raises(IllegalAction, match="colour first"):
        flow.read(s, flow.new_entry(), Touch("cell 0 0", 0))
    entry, action, said = flow.read(s, flow.new_entry(), Touch("palette G", 0))
    assert action is None and entry.palette == "G" and said == "Green: now tap the cells."
    assert flow.read(s, entry, Touch("cell 4 5", 0))[1] == R.PlaceCandy(4, 5, "G")


def test_two_neighbouring_taps_are_a_swap_and_the_same_cell_again_lets_go():
    s = session()
    feed(s, Touch("board " + "/".join(START), 1), Touch("start", 2), Touch("cell 2 1", 3))
    assert s.entry.selected == (2, 1)
    feed(s, Touch("cell 2 1", 4))
    assert s.entry.selected is None
    feed(s, Touch("cell 2 1", 5))
    assert flow.read(s.state, s.entry, Touch("cell 2 2", 6))[1] == R.SwapCandies((2, 1), (2, 2))


def test_a_tilt_toward_the_wrong_seat_is_a_gentle_warning_and_changes_nothing():
    s = at_tilt(session())
    before = s.state
    v_tilt, v_level = feed(s, TrayTilted(3, 22.0, 6), TrayLevel(7))
    assert v_tilt.verdict == "rejected" and "toward Ben" in v_tilt.reason and "Ana" in v_tilt.reason
    assert v_level.verdict == "rejected"
    assert s.state == before and len(s.store.inputs(s.game_id)) == 5


def test_a_tilt_toward_the_player_then_level_is_tilted_and_prompts_the_refill():
    s = at_tilt(session())
    v_tilt, v_level = feed(s, TrayTilted(1, 22.0, 6), TrayLevel(7))
    assert v_tilt.verdict == v_level.verdict == "accepted"
    assert s.state.phase == R.REFILL
    assert "Fill 3 spaces from the bag, bottom to top" in s.last_message
    assert B.SEAT_EDGES[1] in s.last_message


def test_a_tilt_with_nothing_to_refill_changes_nothing():
    s = session()
    feed(s, Touch("board " + "/".join(START), 1), Touch("start", 2))
    before = s.state
    (v,) = feed(s, TrayTilted(1, 22.0, 3))
    assert v.verdict == "rejected" and "nothing to refill" in v.reason and s.state == before


def test_refill_taps_collect_until_the_last_space_then_the_refill_is_checked():
    s = at_tilt(session())
    feed(s, TrayTilted(1, 22.0, 6), TrayLevel(7), Touch("palette R", 8), Touch("cell 0 2", 9))
    assert s.state.phase == R.REFILL and s.entry.draft == (((0, 2), "R"),)
    feed(s, Touch("palette G", 10), Touch("cell 1 2", 11), Touch("palette Y", 12), Touch("cell 2 2", 13))
    assert s.state.phase == R.CHOOSE  # the refill made two Blasts at once: a cascade
    R.check_conservation(s.state)


def test_card_scans_are_refused_in_sugar_blast():
    s = session()
    (v,) = feed(s, CardScanned("SRS71M", "scanner", 1.0))
    assert v.verdict == "rejected" and "no cards" in v.reason


def test_a_half_entered_swap_survives_a_restart(tmp_path):
    s = session(tmp_path)
    feed(s, Touch("board " + "/".join(START), 1), Touch("start", 2), Touch("cell 2 1", 3))
    again = Session.start("sugar-blast", [], EventStore(tmp_path / "table.db"), FakeClock(10.0))
    assert again.state == s.state and again.entry == s.entry and again.entry.selected == (2, 1)
    assert again.state.goal == "five-different"


# ---------------------------------------------------------------- the recorded game

class Lines:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s

    def flush(self):
        pass


@pytest.fixture(scope="module")
def replayed():
    log = Lines()
    runner = replay(TRACE, listeners=[json_logger(log)])
    yield runner, [json.loads(line) for line in log.text.splitlines()]
    runner.app.close()


def test_the_family_game_replays_through_the_emulated_tray_to_the_golden_result(replayed):
    runner, _ = replayed
    result = runner.session.result()
    assert result.to_dict() == GOLDEN
    assert result.winners == tuple(GOLDEN["winners"]) and result.detail.turns == 8 and result.detail.goal == "five-different"


def test_the_tray_samples_become_tilts_toward_several_seats_and_wrong_ones_are_refused(replayed):
    runner, log = replayed
    tilts = [o for o in log if o["event"] == "TrayTilted"]
    accepted = {o["seat"] for o in tilts if o["verdict"] == "accepted"}
    assert len(accepted) >= 2
    assert any(o["verdict"] == "rejected" and "tipped toward" in o["reason"] for o in tilts)
    levels = [o for o in log if o["event"] == "TrayLevel" and o["verdict"] == "accepted"]
    assert len(levels) == len([o for o in tilts if o["verdict"] == "accepted"])
    assert runner.session.devices.get("tray") == "connected"


# ---------------------------------------------------------------- hint

def test_hint_json_lists_every_swap_with_its_blasts(tmp_path, capsys):
    f = tmp_path / "board.txt"
    f.write_text("\n".join(START) + "\n")
    assert main(["hint", "sugar-blast", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == B.hint_json(START)


def test_hint_text_reads_from_stdin(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(START)))
    assert main(["hint", "sugar-blast", "-"]) == 0
    out = capsys.readouterr().out
    assert ("swap row 3, column 2 P with row 3, column 3 R: 3-Blast of Purple (3 candies)  (type /swap 2 1 2 2)"
            in out)


@pytest.mark.parametrize("text, words", [
    ("ORPRBP\nYGPPR\n", "Row 2 has 5 cells"),
    ("ORPRBX\n" * 6, "'X' is not a candy"),
    ("ORP\nYGP\n", "should be 6 rows by 6 columns"),
])
def test_a_malformed_board_is_a_clear_error_with_status_2(tmp_path, capsys, text, words):
    f = tmp_path / "board.txt"
    f.write_text(text)
    assert main(["hint", "sugar-blast", str(f)]) == 2
    assert words in capsys.readouterr().err


# ---------------------------------------------------------------- screens and demo

@pytest.fixture
def app():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    a = App()
    yield a
    a.close()


def test_the_set_up_screen_has_every_cell_the_palette_start_and_set_up_from_the_screen(app, tmp_path):
    s = R.new_game(["Ana", "Ben", "Cy"], "five-different")
    app.show(lambda surf: screen.draw_game(surf, s, TableInfo(prompt=flow.prompt(s))))
    app.save(tmp_path / "setup.png")
    commands = [b.command for b in app.buttons]
    assert sum(c.startswith("cell ") for c in commands) == 36
    assert {f"palette {k}" for k in R.KINDS} | {"ready", "deal"} <= set(commands)  # Start sends ready
    assert app.hit(screen.cell_rect(5, 5).center) == "cell 5 5"


def test_the_refill_screen_shows_the_big_prompt_and_the_palette(app, tmp_path):
    s = at_tilt(session())
    feed(s, TrayTilted(1, 22.0, 6), TrayLevel(7))
    app.show(lambda surf: screen.draw_game(surf, s.state, TableInfo(verdict=s.last_message, verdict_ok=True)))
    app.save(tmp_path / "refill.png")
    commands = {b.command for b in app.buttons}
    assert {f"palette {k}" for k in R.KINDS} <= commands and "cell 0 2" in commands
    # the seat's edge (bottom) is marked: a bar in the highlight colour along the whole
    # board just below it (the column numbers and chevrons are printed lower in the bar)...
    def bright(x, y):
        return app.surface.get_at((x, y))[:3] == (255, 204, 0)

    below = screen.BOARD.bottom + 5
    assert all(bright(x, below) for x in range(screen.BOARD.left, screen.BOARD.right))
    # ...with dark chevrons pointing down at the lines between the cells...
    assert not bright(screen.BOARD.centerx, screen.BOARD.bottom + 16)
    # ...and no other edge is marked
    assert not any(bright(x, screen.BOARD.top - 5) for x in range(screen.BOARD.left, screen.BOARD.right))
    assert not any(bright(screen.BOARD.left - 10, y) for y in range(screen.BOARD.top, screen.BOARD.bottom))


def test_the_final_screen_names_the_winner(app, tmp_path, replayed):
    runner, _ = replayed
    app.show(lambda surf: screen.draw_final(surf, runner.session.result(), TableInfo()))
    png = app.save(tmp_path / "final.png")
    assert pygame.image.load(str(png)).get_size() == (800, 480)
    assert app.buttons == []


def test_demo_without_a_game_replays_both_and_writes_both_pictures(tmp_path, capsys):
    assert main(["demo", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Win-O-Saur" in out and "meets the Goal Card" in out
    assert (tmp_path / "sugarrr-final.png").stat().st_size > 1000
    assert (tmp_path / "sugar-blast-final.png").stat().st_size > 1000


def test_demo_of_one_game_writes_only_its_picture(tmp_path, capsys):
    assert main(["demo", "--game", "sugar-blast", "--out", str(tmp_path)]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["sugar-blast-final.png"]
