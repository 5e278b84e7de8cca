"""The high-contrast theme and the catalogue of the shared screen's strings."""

import os
import re
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from companion.ui import messages, theme
from companion.ui.app import App, TableInfo
from companion.ui.widgets import button


@pytest.fixture
def app():
    a = App()
    yield a
    a.close()
    theme.use("default")


def test_high_contrast_changes_every_widget_default_at_draw_time(app):
    rect = pygame.Rect(100, 100, 200, 80)
    app.show(lambda s: [button(s, rect, "Go")] and [])
    normal = tuple(app.surface.get_at((110, 140)))[:3]
    theme.use("high-contrast")
    app.show(lambda s: [button(s, rect, "Go")] and [])
    assert normal == theme.THEMES["default"]["BUTTON"]
    assert tuple(app.surface.get_at((110, 140)))[:3] == theme.BUTTON == (110, 190, 255)
    assert tuple(app.surface.get_at((101, 140)))[:3] == theme.OUTLINE  # every box outlined
    assert tuple(app.surface.get_at((5, 5)))[:3] == (0, 0, 0)
    with pytest.raises(ValueError, match="high-contrast"):
        theme.use("neon")


def test_a_game_screen_draws_in_high_contrast(app, tmp_path):
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.runner import Runner
    from companion.table import Session

    theme.use("high-contrast")
    clock = FakeClock(10.0)
    runner = Runner(Session.start("sweet-deals", ["Ana", "Ben"], EventStore(":memory:"), clock,
                                  options={"mode": "open", "hybrid": None}), clock, app=app)
    runner.render(force=True)
    colours = {tuple(app.surface.get_at((x, y)))[:3] for x in range(0, 800, 7) for y in range(0, 480, 7)}
    assert (0, 0, 0) in colours and theme.THEMES["default"]["BG"] not in colours


def test_every_catalogue_field_is_named_and_every_key_used_exists():
    for key, value in messages.CATALOGUE.items():
        assert "%s" not in value and "{}" not in value, key
    used = set()
    for path in Path(messages.__file__).parent.parent.rglob("*.py"):
        used |= set(re.findall(r'\btext\("([a-z_]+)"', path.read_text()))
    assert used == set(messages.CATALOGUE)  # every key drawn somewhere, none missing
    assert messages.text("turn", turn=3) == "Turn 3"
