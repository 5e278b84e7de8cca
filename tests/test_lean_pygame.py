"""The table imports pygame without the modules it never uses (issue 24: a cold start at a
Zero 2 W's speed), and everything it draws with still works."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from companion.core import lean_pygame

# Without the banner's variable (tests/conftest.py sets it): the start-up call sets it.
ENV = dict({k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}, SDL_VIDEODRIVER="dummy",
           SDL_AUDIODRIVER="dummy")


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=ENV,
                          timeout=120)


def test_the_start_up_call_skips_the_unused_modules_and_the_window_still_draws():
    done = _run("""
        import sys
        from companion.core import startup
        startup.speed_ups()
        import pygame
        from companion.core.lean_pygame import UNUSED
        assert all(sys.modules[name] is None for name in UNUSED), [n for n in UNUSED if sys.modules[n] is not None]
        assert type(pygame.mixer).__name__ == "MissingModule"
        from companion.ui.app import App
        from companion.ui import theme, widgets
        app = App((800, 480))
        blank = pygame.image.tobytes(app.surface, "RGB")
        widgets.draw_text(app.surface, "Mum plays Attack!", pygame.Rect(10, 10, 400, 60), theme.BIG)
        assert pygame.image.tobytes(app.surface, "RGB") != blank  # the words are on the screen
        app.close()
        print("drawn")
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "drawn"
    assert "pygame-ce" not in done.stdout  # the banner is not printed into the table's log


def test_the_default_font_by_name_still_loads_once_allowed():
    done = _run("""
        from companion.core import startup
        startup.speed_ups()
        import pygame
        pygame.font.init()
        from companion.core import lean_pygame
        try:
            pygame.font.Font(None, 20)
        except Exception as err:
            print("refused", type(err).__name__)
        lean_pygame.allow("pygame.pkgdata")
        print(pygame.font.Font(None, 20).size("Mum"))
    """)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("refused") and lines[1].startswith("(")


def test_after_pygame_was_imported_nothing_changes():
    import pygame  # noqa: F401  (this test process has it already)

    before = {name: sys.modules.get(name, "absent") for name in lean_pygame.UNUSED}
    lean_pygame.install()
    assert {name: sys.modules.get(name, "absent") for name in lean_pygame.UNUSED} == before
