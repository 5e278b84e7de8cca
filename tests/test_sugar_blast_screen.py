"""Sugar Blast by touch alone: the quick-mode Blast pad, the Hint button and painting a
colour across the set-up board by dragging, through the runner, the window and a Session."""

import dataclasses
import os

import pygame
import pytest

from companion.core.clock import FakeClock
from companion.core.events import TrayLevel, TrayTilted
from companion.core.store import EventStore
from companion.games.sugar_blast.parts import board as B
from companion.games.sugar_blast import rules as R, screen
from companion.table.runner import Runner
from companion.table.window import HINT_SECONDS
from companion.table.session import Session
from companion.ui.app import App, TableInfo

START = ("ORPRBP", "YGPPRO", "BPROYG", "ROYGBP", "YGYPRO", "BPROYG")
STUCK = ("RGBRGB", "YPOYPO", "RGBRGB", "YPOYPO", "RGBRGB", "YPOYPO")  # no swap makes a Blast


@pytest.fixture
def app():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    a = App()
    yield a
    a.close()


def runner_for(app, quick=False, players=("Ana", "Ben"), goal="five-different"):
    clock = FakeClock(0.0)
    session = Session.start("sugar-blast", list(players), EventStore(":memory:"), clock,
                            options={"goal": goal, "quick": quick})
    r = Runner(session, clock, app=app)
    r.render(force=True)
    return r


def tap(r, command):
    """Tap the button that sends ``command`` on the current frame (it must be there)."""
    rects = [b.rect for b in r.app.buttons if b.command == command]
    assert rects, f"no {command!r} button on screen: {[b.command for b in r.app.buttons]}"
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rects[-1].center))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=rects[-1].center))
    r.step()
    return r.session


def commands(r):
    return [b.command for b in r.app.buttons]


# ---------------------------------------------------------------- quick mode by touch

def test_quick_mode_is_played_with_buttons_only(app):
    r = runner_for(app, quick=True)
    s = r.session
    assert s.state.quick
    tap(r, "ready")
    assert s.state.phase == R.TURN
    assert {"menu quick 3", "menu quick 4", "menu quick 5-6", "menu quick box", "done"} <= set(commands(r))

    # a 3-Blast of red: kind, then colour; its one Red kept without a tap; tilt, refill Done, no more Blasts
    tap(r, "menu quick 3")
    assert {f"quick 3 {k}" for k in R.KINDS} <= set(commands(r))
    tap(r, "quick 3 R")
    assert s.state.phase == R.TILT and s.state.kept[0] == (1, 0, 0, 0, 0, 0) and s.state.auto_kept == ("R",)
    assert "Only one choice, so Ana keeps 1 Red" in s.last_message
    r.inputs.put(TrayTilted(1, 20.0, 1.0))
    r.inputs.put(TrayLevel(1.5))
    r.step()
    assert s.state.phase == R.REFILL
    tap(r, "done")
    assert s.state.phase == R.CASCADE
    # a 5-6 Blast of blue after the refill, its size set with the stepper
    tap(r, "menu quick 5-6")
    assert "quick 5-6 B 6" in commands(r)
    tap(r, "menu quick 5-6 7")
    tap(r, "menu quick 5-6 8")
    tap(r, "menu quick 5-6 7")
    assert "quick 5-6 B 7" in commands(r) and "quick 5-6 B 8" not in commands(r)
    tap(r, "quick 5-6 B 7")  # keep 2 Blue: the one choice, taken without a tap
    assert s.state.phase == R.TILT and s.state.kept[0] == (1, 0, 0, 0, 2, 0)
    r.inputs.put(TrayTilted(1, 20.0, 2.0))
    r.inputs.put(TrayLevel(2.5))
    r.step()
    tap(r, "done")
    tap(r, "done")
    assert s.state.phase == R.TURN and s.state.active == 1
    # Back leaves the colour step; a box Blast by Ben
    tap(r, "menu quick box")
    tap(r, "cancel")
    assert "menu quick box" in commands(r)
    tap(r, "menu quick box")
    assert "quick box G" in commands(r) and not any(c.startswith("menu quick box ") for c in commands(r))
    tap(r, "quick box G")  # a Box-Blast always removes its 3 x 3 box: no count to enter
    assert s.state.phase == R.KEEP and s.state.removing == 9
    stored = [i.command for i in s.store.inputs(s.game_id) if hasattr(i, "command")]
    assert stored[:3] == ["ready", "quick 3 R", "done"]
    assert not any(c.startswith("keep") for c in stored)  # every keep so far had one choice
    assert not any(c.startswith(("menu", "cancel")) for c in stored)
    R.check_conservation(s.state)


def test_the_quick_pad_stepper_stays_in_range(app):
    r = runner_for(app, quick=True)
    tap(r, "ready")
    tap(r, "menu quick 5-6")
    tap(r, "menu quick 5-6 5")
    assert "menu quick 5-6 4" not in commands(r)  # the minus is disabled at 5
    for n in range(6, 13):
        tap(r, f"menu quick 5-6 {n}")
    # a kind has 12 candies: the plus stops there (issue 9: "quick 5-6 R 30" was taken)
    assert "menu quick 5-6 13" not in commands(r) and "quick 5-6 R 12" in commands(r)


# ---------------------------------------------------------------- hint

def test_hint_lights_up_one_legal_swap_and_stores_nothing(app, tmp_path):
    r = runner_for(app)
    s = r.session
    r.touch("board " + "/".join(START))
    r.step()
    tap(r, "ready")
    before, stored = s.state, len(s.store.inputs(s.game_id))
    tap(r, "hint")
    assert r.window.menu == "hint" and s.state == before and len(s.store.inputs(s.game_id)) == stored
    first = B.legal_swaps(s.state.board)[0]
    assert screen.hint_cells(s.state) == (first.frm, first.to)
    app.save(tmp_path / "hint.png")
    for cell in (first.frm, first.to):  # the cyan frame is drawn round both cells
        rect = screen.cell_rect(*cell)
        assert app.surface.get_at((rect.left + 1, rect.centery))[:3] == screen.HINT
    plain = screen.cell_rect(5, 5)
    assert app.surface.get_at((plain.left + 1, plain.centery))[:3] != screen.HINT
    # the hint ends with the next input
    tap(r, f"cell {first.frm[0]} {first.frm[1]}")
    assert r.window.menu is None and s.entry.selected == first.frm


def test_the_hint_goes_away_after_a_few_seconds(app):
    r = runner_for(app)
    r.touch("board " + "/".join(START))
    r.step()
    tap(r, "ready")
    tap(r, "hint")
    assert r.info().menu == "hint"
    r.clock.advance(HINT_SECONDS + 1)
    assert r.info().menu is None


def test_hint_with_no_blasts_says_so(app):
    r = runner_for(app)
    s = r.session
    r.touch("board " + "/".join(STUCK))
    r.step()
    tap(r, "ready")
    assert screen.hint_cells(s.state) is None
    state = s.state
    empty_bag = dataclasses.replace(state, bag=(0,) * 6, bag_n=0)
    assert screen.hint_text(empty_bag) == "No Blasts possible: tap No Blasts?"
    assert "No Blasts possible" in screen.hint_text(state)
    app.show(lambda surf: screen.draw_game(surf, empty_bag, TableInfo(menu="hint")))
    assert {"hint", "no-blasts"} <= {b.command for b in app.buttons}


# ---------------------------------------------------------------- drag to fill

def test_dragging_across_cells_fills_each_once(app, tmp_path):
    r = runner_for(app)
    s = r.session
    tap(r, "palette G")
    path = [screen.cell_rect(0, c).center for c in range(4)]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=path[0]))
    for a, b in zip(path, path[1:]):  # several motion events inside each cell, and back again
        for f in (0.3, 0.6, 1.0):
            pos = (int(a[0] + f * (b[0] - a[0])), a[1])
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=path[1], rel=(-1, 0), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=path[1]))
    # moving without the button held fills nothing
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=screen.cell_rect(1, 0).center, rel=(0, 1),
                                         buttons=(0, 0, 0)))
    r.step()
    assert s.state.board[0] == "GGGG.." and s.state.board[1] == "......"
    cells = [i.command for i in s.store.inputs(s.game_id) if i.command.startswith("cell")]
    assert cells == ["cell 0 0", "cell 0 1", "cell 0 2", "cell 0 3"]
    # a second drag down column 5 with another colour; then the screen mid-entry
    tap(r, "palette P")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=screen.cell_rect(0, 5).center))
    for row in range(1, 3):
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=screen.cell_rect(row, 5).center, rel=(0, 1),
                                             buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=screen.cell_rect(2, 5).center))
    r.step()
    assert [row[5] for row in s.state.board[:4]] == ["P", "P", "P", "."]
    r.render(force=True)
    app.save(tmp_path / "setup.png")


def test_finger_drags_fill_too_and_never_touch_non_cell_buttons(app):
    r = runner_for(app)
    s = r.session
    tap(r, "palette Y")
    w, h = app.size
    a, b = screen.cell_rect(2, 0).center, screen.cell_rect(2, 1).center
    start = [x for x in app.buttons if x.command == "ready"][0].rect.center
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=a[0] / w, y=a[1] / h, touch_id=1, finger_id=0))
    pygame.event.post(pygame.event.Event(pygame.FINGERMOTION, x=b[0] / w, y=b[1] / h, dx=0, dy=0, touch_id=1,
                                         finger_id=0))
    pygame.event.post(pygame.event.Event(pygame.FINGERMOTION, x=start[0] / w, y=start[1] / h, dx=0, dy=0,
                                         touch_id=1, finger_id=0))
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=start[0] / w, y=start[1] / h, touch_id=1, finger_id=0))
    r.step()
    assert s.state.board[2] == "YY...." and s.state.phase == R.SETUP


def test_every_choice_of_candies_to_put_back_is_reachable_by_touch(app):
    # Ana holds two each of four colours: 10 ways to put two back, more than the 8
    # buttons the panel holds. They come 7 at a time with More, which turns the page and
    # from the last back to the first; the choice on page 2 is then taken by a tap.
    r = runner_for(app, quick=True)
    s = r.session
    s.state = dataclasses.replace(s.state, phase=R.RETURN, to_return=(0,),
                                  kept=((2, 2, 2, 2, 0, 0),) + tuple(s.state.kept[1:]))
    r.render(force=True)
    wanted = {f"return 1 {a} {b}" for i, a in enumerate("ROYG") for b in "ROYG"[i:]}
    first = [c for c in commands(r) if c.startswith("return")]
    assert len(first) == 7 and "page" in commands(r)
    tap(r, "page")
    second = [c for c in commands(r) if c.startswith("return")]
    assert set(first) | set(second) == wanted and not set(first) & set(second)
    tap(r, "page")
    assert [c for c in commands(r) if c.startswith("return")] == first  # round to the first page
    tap(r, "page")
    tap(r, "return 1 G G")
    assert s.state.kept[0] == (2, 2, 2, 0, 0, 0)


# ---------------------------------------------------------------- a Blast the first one broke (issue 36)

SLIDE = B.parse_board("BOGPBG\nGGBYGB\nGYGYOO\nPOBRBY\nBGBYPG\nYBRRBG")
# (tests/test_sugar_blast_rules.py: after the PPP Blast and a Y Y R refill of column 3,
# a Red row and a Yellow column; the Yellow 4-Blast removes the Red row's candy)
ORDER = B.parse_board("ORPRBP\nYGPPRO\nBPROYG\nROYGBP\nYGYPRO\nBPROYG")


def _played(board, *actions):
    s = R.new_game(["Ana", "Ben"], "nine-any")
    for action in (R.SetBoard(board), R.StartGame()) + actions:
        s, _ = R.step(s, action)
    return s


@pytest.mark.parametrize("case", ["slide", "removal"])
def test_a_blast_the_first_one_broke_is_said_on_the_big_prompt(app, tmp_path, case):
    """"Important! If there are 2 or more Blasts at the same time, choose 1 to solve before
    the other." (rulebook, "Gameplay"): the screen says which Blast is gone, whole and
    readable, while the table tilts and refills."""
    from companion.ui.widgets import record_text

    if case == "slide":
        s = _played(SLIDE, R.SwapCandies((1, 2), (2, 2)), R.ChooseBlast(1), R.KeepCandies(("B",)), R.Tilted(1))
        want, phase = "Blast 1 was broken by the slide: it is gone.", R.REFILL
    else:
        s = _played(ORDER, R.SwapCandies((2, 1), (2, 2)), R.KeepCandies(("P",)), R.Tilted(1))
        order = B.refill_order(s.board, 1)
        s, _ = R.step(s, R.Refill.of(dict(zip(order, "YYR"))))
        s, _ = R.step(s, R.ChooseBlast(1))
        s, _ = R.step(s, R.KeepCandies(("Y", "R")))
        want, phase = "Blast 1 lost candies to Blast 2: it is gone.", R.TILT
    assert s.phase == phase
    with record_text() as drawn:
        app.show(lambda surface: screen.draw_game(surface, s, TableInfo()))
    pygame.image.save(app.surface, str(tmp_path / f"broken-{case}.png"))
    note = [d for d in drawn if d.text == want]
    assert note and note[0].readable and not note[0].clipped, [d.text for d in drawn]
