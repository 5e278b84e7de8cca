"""Names in any script: per-glyph fallback fonts, and the seat where no font has a glyph."""

from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest

from companion.core.clock import FakeClock
from companion.core.store import EventStore
from companion.table.runner import Runner
from companion.table.session import Session
from companion.ui import fonts, theme
from companion.ui.app import App
from companion.ui.widgets import record_text, width_of

NAMES = ["👧🏽Mia", "李雷"]


@pytest.fixture
def app():
    a = App()
    yield a
    a.close()


def test_a_glyph_the_bundled_font_lacks_comes_from_a_system_font(app, monkeypatch):
    dejavu = pygame.font.match_font("dejavusans")
    if not dejavu:
        pytest.skip("no DejaVu Sans on this system")
    big = theme.font(theme.BIG)
    monkeypatch.setattr(fonts, "fallback_paths", lambda: ())
    assert fonts.missing("a→b") == "→" and width_of(big, "a→b") == width_of(big, "ab")
    monkeypatch.setattr(fonts, "fallback_paths", lambda: (dejavu,))
    assert fonts.missing("a→b") == "" and width_of(big, "a→b") > width_of(big, "ab") + 10


def test_names_no_font_can_draw_show_the_seat_instead_of_boxes(app, monkeypatch):
    monkeypatch.setattr(fonts, "fallback_paths", lambda: ())
    badge = fonts.seat_mark(2) + " Player 2"  # seat 2's colour disc with a 2 on it, then its name
    assert [fonts.display_name(n, i) for i, n in enumerate(NAMES, 1)] == ["Mia", badge]
    clock = FakeClock(100)
    runner = Runner(Session.start("sugarrr", NAMES, EventStore(":memory:"), clock), clock, app=app)
    with record_text() as drawn:
        runner.render(force=True)
    texts = {d.text for d in drawn}
    assert {"Mia", badge} <= texts
    assert not any("李" in t or "👧" in t for t in texts)
    assert runner.session.state.players == tuple(NAMES)  # only the screen changes, not the game


def test_the_seat_badge_is_drawn_as_a_disc_in_the_seat_colour(app):
    big = theme.font(theme.BIG)
    image = fonts.render(fonts.seat_mark(3) + " Player 3", big, theme.BIG, False, theme.TEXT)
    d = big.get_height()
    assert width_of(big, fonts.seat_mark(3)) == d
    assert tuple(image.get_at((3, d // 2)))[:3] == theme.SEAT_COLOURS[2]  # the disc, left of the number


def test_names_draw_in_their_own_script_when_a_font_has_it(app):
    if fonts.missing("李雷"):
        pytest.skip("no CJK font here (install fonts-noto-cjk)")
    assert fonts.display_name("李雷", 2) == "李雷"
    assert width_of(theme.font(theme.BIG), "李雷") > 20


def test_run_warns_about_letters_no_font_draws():
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--names", ",".join(NAMES), "--simulate",
                           "--store", ":memory:"], input="", capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    pygame.font.init()
    if fonts.missing("李雷"):
        assert "'李雷'" in proc.stderr and "'Player 2'" in proc.stderr and "fonts-noto-cjk" in proc.stderr
    else:
        assert "李雷" not in proc.stderr
