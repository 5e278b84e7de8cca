"""The high-contrast theme and the catalogue of the shared screen's strings."""

import io
import os
import re
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from companion.games import GAMES
from companion.ui import messages, theme
from companion.ui.app import App, TableInfo
from companion.ui.widgets import button
from toy_helpers import toy_param


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


@pytest.mark.parametrize("game, options", [("sweet-deals", {"mode": "open", "hybrid": None}),
                                           toy_param("toy", {"rounds": "3"})])
def test_a_game_screen_draws_in_high_contrast(app, tmp_path, game, options):
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.runner import Runner
    from companion.table.session import Session

    theme.use("high-contrast")
    clock = FakeClock(10.0)
    runner = Runner(Session.start(game, ["Ana", "Ben"], EventStore(":memory:"), clock, options=options), clock,
                    app=app)
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


@pytest.mark.parametrize("name", ["default", "high-contrast"])
def test_every_shared_string_reads_at_20_px_or_more_in_its_place(app, name):
    from companion.core.store import EventStore
    from companion.ui import chrome
    from companion.ui.history import HistoryScreen
    from companion.ui.widgets import record_text

    theme.use(name)
    info = TableInfo(game_name="Sugar Heist", undo="Mum stashes two Chocolate Rockets in vault 3", can_pause=True,
                     game_seconds=3725, turn_left=8, warning=True, devices={"scanner": "connected"},
                     bid_left=0)
    store = EventStore(":memory:")
    gid = store.new_game("sweet-deals", ["Grandma Josephine", "Uncle Bartholomew", "Maya", "Leo"], 0.0)
    store.finish(gid, 60.0, {"game": "sweet-deals", "winners": ["Grandma Josephine", "Uncle Bartholomew"],
                             "players": [{"name": "Grandma Josephine", "score": 35},
                                         {"name": "Uncle Bartholomew", "score": 35},
                                         {"name": "Maya", "score": 31}, {"name": "Leo", "score": 12}]})
    screens = [
        lambda s: chrome.top_bar(s, pygame.Rect(0, 0, 800, 48), info, turn=28),
        lambda s: chrome.overlay(s, TableInfo(paused=True, game_seconds=3725), []),
        lambda s: chrome.overlay(s, TableInfo(menu="undo", undo=info.undo), []),
        lambda s: chrome.overlay(s, TableInfo(menu="undo"), []),
        lambda s: chrome.after_game(s),
        lambda s: chrome.turn_clock(s, pygame.Rect(576, 350, 216, 44), info) or [],
        HistoryScreen(store, GAMES).draw,
    ]
    for draw in screens:
        with record_text() as drawn:
            app.show(draw)
        assert drawn and [d for d in drawn if not d.readable] == []
        assert all(b.rect.height >= 48 and b.rect.width >= 48 for b in app.buttons)


def test_the_config_chooses_the_theme_and_the_command_line_wins(tmp_path, monkeypatch):
    from companion import cli
    from companion.table.runner import Runner

    chosen = []
    monkeypatch.setattr(theme, "use", lambda name: chosen.append(name))
    monkeypatch.setattr(Runner, "loop", lambda self, frame=0: None)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # --simulate reads stdin in a thread
    config = tmp_path / "c.toml"
    config.write_text('[display]\ntheme = "high-contrast"\n')
    base = ["run", "--simulate", "--names", "A,B", "--store", str(tmp_path / "t.db"), "--config", str(config)]
    assert cli.main(base) == 0
    assert cli.main(base + ["--theme", "default"]) == 0
    assert chosen == ["high-contrast", "default"]
    config.write_text('[display]\ntheme = "neon"\n')
    assert cli.main(base) == 2
