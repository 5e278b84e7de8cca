"""A screen that never takes the table down: opened before the game, retried with a
growing delay while the table runs headless, and never SDL's invisible driver unasked."""

from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest

from companion.core.clock import FakeClock
from companion.core.events import CardScanned
from companion.core.store import EventStore
from companion.table.runner import Runner
from companion.table.session import Session
from companion.ui import display as display_mod
from companion.ui.app import App
from companion.ui.display import Display, DisplayUnavailable, open_display
from sugarrr_helpers import STARTS


class FlakyScreen:
    """Fails ``failures`` times like a kmsdrm panel without permissions, then opens."""

    def __init__(self, failures: int):
        self.left, self.tries = failures, 0

    def __call__(self):
        self.tries += 1
        if self.left:
            self.left -= 1
            raise DisplayUnavailable("kmsdrm", "Could not initialize KMSDRM")
        return App()


def test_the_screen_fails_twice_then_opens_and_shows_scans_made_meanwhile(tmp_path):
    clock = FakeClock(1_700_000_000)
    logged: list[str] = []
    screen = FlakyScreen(failures=2)
    shown = Display(screen, clock, log=logged.append)
    assert shown.ensure() is None  # tried before the game is created, as `companion run` does
    store = EventStore(tmp_path / "table.db")
    session = Session.start("sugarrr", ["Ana", "Ben"], store, clock)
    runner = Runner(session, clock, display=shown)
    try:
        runner.inputs.put(CardScanned(STARTS[0], "scanner", clock.now()))
        runner.step()
        assert runner.app is None and screen.tries == 1  # still waiting out the 1 s back-off
        clock.advance(1.5)
        runner.inputs.put(CardScanned(STARTS[1], "scanner", clock.now()))
        runner.step()
        assert runner.app is None and screen.tries == 2  # second failure: now 2 s
        clock.advance(1.0)
        runner.step()
        assert screen.tries == 2
        clock.advance(1.5)
        runner.inputs.put(CardScanned(STARTS[2], "scanner", clock.now()))
        runner.step()
        assert screen.tries == 3 and runner.app is not None
        # The state is drawn at once: both columns' cards are on the screen's buttons.
        assert {"column 1", "column 2", "column 3"} <= {b.command for b in runner.app.buttons}
        assert [c[:1] for c in session.state.columns[:3]] == [(STARTS[0],), (STARTS[1],), (STARTS[2],)]
    finally:
        shown.close()
    assert "kmsdrm" in logged[0] and display_mod.fix_for("kmsdrm") in logged[0]  # the groups, or the missing libraries
    assert "open" in logged[-1]
    games = EventStore(tmp_path / "table.db").games()
    assert len(games) == 1 and games[0].inputs == 3


def test_the_retry_delay_grows_and_then_stays():
    clock = FakeClock(0)
    never = Display(lambda: (_ for _ in ()).throw(pygame.error("no DRM device")), clock, log=lambda line: None)
    waits = []
    for _ in range(8):
        never.ensure()
        waits.append(never.next_try - clock.now())
        clock.set(never.next_try)
    assert waits == [1, 2, 5, 10, 30, 60, 60, 60]


def test_a_screen_lost_while_drawing_is_reopened_and_the_game_goes_on(tmp_path):
    clock = FakeClock(100)
    shown = Display(App, clock, log=lambda line: None)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), clock)
    runner = Runner(session, clock, app=shown.ensure(), display=shown)
    try:
        def broken(draw):
            raise pygame.error("display lost")
        runner.app.show = broken
        runner.inputs.put(CardScanned(STARTS[0], "scanner", clock.now()))
        runner.step()
        assert runner.app is None and session.state.columns[0] == (STARTS[0],)
        clock.advance(1.0)
        runner.step()
        assert runner.app is not None and "column 1" in {b.command for b in runner.app.buttons}
    finally:
        shown.close()


def test_a_game_screen_that_raises_shows_a_plain_screen_not_a_traceback(capsys):
    clock = FakeClock(100)
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), clock)
    app = App()
    runner = Runner(session, clock, app=app)
    try:
        runner.draw = lambda surface: 1 / 0
        runner.inputs.put(CardScanned(STARTS[0], "scanner", clock.now()))
        runner.step()
        assert session.state.columns[0] == (STARTS[0],)
        assert "failed to draw" in capsys.readouterr().err
    finally:
        app.close()


def test_sdl_invisible_driver_is_refused_unless_asked(monkeypatch):
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"
    open_display().close()  # asked for by name: fine (the tests)
    monkeypatch.setattr(display_mod, "asked_driver", lambda: "")  # as if SDL chose it alone
    with pytest.raises(DisplayUnavailable, match="invisible 'dummy'"):
        open_display()
    open_display(allow_virtual=True).close()  # --simulate


def test_run_without_a_usable_screen_keeps_scoring_headless(tmp_path):
    db = tmp_path / "table.db"
    env = dict(os.environ, SDL_VIDEODRIVER="kmsdrm", PYGAME_HIDE_SUPPORT_PROMPT="1")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--names", "Ana,Ben", "--simulate",
                           "--store", str(db)], input="\n".join(STARTS[:2]) + "\n", capture_output=True,
                          text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "'kmsdrm'" in proc.stderr and display_mod.fix_for("kmsdrm") in proc.stderr
    games = EventStore(db).games()
    assert len(games) == 1 and games[0].inputs == 2 and games[0].finished is None


def test_the_fix_names_the_missing_graphics_libraries_first_and_the_real_user_otherwise():
    import getpass

    lost = display_mod.fix_for("kmsdrm", load=lambda name: name != "libgbm.so.1")
    assert lost == ("To fix it: sudo apt install libgbm1 (SDL's kmsdrm driver draws through libgbm.so.1, "
                    "which are not installed).")
    groups = display_mod.fix_for("kmsdrm", load=lambda name: True)
    assert f"sudo usermod -aG video,render {getpass.getuser()}," in groups and "$USER" not in groups


def test_on_kmsdrm_the_window_surface_is_shown_through_opengl_es2():
    """Under kmsdrm SDL makes only OpenGL ES contexts, but picks its desktop GL renderer
    for the window surface first: the panel then shows only the clear colour (the
    appliance VM's black screen). The companion names the ES 2 renderer there."""
    from companion.ui.app import FRAMEBUFFER_HINT, kms_renderer

    env: dict[str, str] = {}
    assert kms_renderer(env, driver="KMSDRM") == "opengles2"
    assert env == {FRAMEBUFFER_HINT: "opengles2"}
    mine = {FRAMEBUFFER_HINT: "software"}          # a value the user set wins
    assert kms_renderer(mine, driver="kmsdrm") is None and mine[FRAMEBUFFER_HINT] == "software"
    for other in ("x11", "wayland", "dummy", "offscreen", ""):
        untouched: dict[str, str] = {}
        assert kms_renderer(untouched, driver=other) is None and untouched == {}


def test_opening_the_app_sets_the_hint_only_for_kmsdrm(monkeypatch):
    from companion.ui.app import FRAMEBUFFER_HINT, App

    monkeypatch.delenv(FRAMEBUFFER_HINT, raising=False)
    app = App()
    try:
        assert pygame.display.get_driver() == "dummy"
        assert FRAMEBUFFER_HINT not in os.environ
    finally:
        app.close()
