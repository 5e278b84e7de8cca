"""The game menu (issue 38): "A game cannot be left (only paused), History cannot be
reached from the start screen, Escape quits a desk window at once with no question."
Driven through the real App's buttons (mouse clicks posted to a headless window, as
tests/test_roster.py and tests/test_start_screen.py do)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.core.clock import FakeClock
from companion.core.errors import StoreError
from companion.core.figures import figures
from companion.core.store import EventStore
from companion.service.config import load
from companion.table.runner import Runner
from companion.table.session import Session, start_session
from companion.ui import fit, theme
from companion.ui.app import App
from companion.ui.history import HistoryScreen, outcome
from companion.ui.settings import Settings
from companion.ui.start import StartFlow
from companion.ui.widgets import record_text

sys.path.insert(0, str(Path(__file__).parent))
from sugarrr_helpers import STARTS, fruit  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SIZES = ((800, 480), (1024, 600), (720, 1280))


def table(store, app, **kw):
    clock = FakeClock(100.0)
    session = Session.start("sugarrr", ["Ana", "Ben"], store, clock)
    runner = Runner(session, clock, app=app, **kw)
    runner.new_session = lambda choice: start_session(choice, store, clock)
    runner.render(force=True)
    return runner


def tap(runner, command):
    """Tap the button that sends ``command`` on the frame as it stands (it must be there)."""
    runner.render(force=True)
    rects = [b.rect for b in runner.app.buttons if b.command == command]
    assert rects, f"no {command!r} button: {[b.command for b in runner.app.buttons]}"
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rects[-1].center, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=rects[-1].center, button=1))
    runner.poll_window()


def scan(runner, code):
    from companion.core.events import CardScanned

    runner.clock.advance(2.0)
    return runner.session.handle(CardScanned(code, "scanner", runner.clock.now()))


@pytest.fixture
def app():
    a = App()
    yield a
    a.close()


def test_every_game_has_the_menu_in_the_same_place_of_its_top_bar(app):
    """One button in the shared chrome, in the same place in every game, finger-sized."""
    from companion.games import GAMES

    places = set()
    for slug in GAMES:
        options = {"goal": "five-different"} if slug == "sugar-blast" else {}
        clock = FakeClock(0.0)
        runner = Runner(Session.start(slug, ["Ana", "Ben"], EventStore(":memory:"), clock, options=options), clock,
                        app=app)
        runner.render(force=True)
        menu = [b.rect for b in app.buttons if b.command == "menu table"]
        assert len(menu) == 1, slug
        assert menu[0].width >= 48 and menu[0].height >= 48
        places.add(tuple(menu[0]))
    assert len(places) == 1, places


def test_leaving_asks_once_then_the_game_is_in_history_as_not_finished_and_out_of_the_figures(tmp_path, app):
    store = EventStore(tmp_path / "t.db")
    runner = table(store, app)
    for code in STARTS:
        scan(runner, code)
    tap(runner, "menu table")
    tap(runner, "menu leave")
    with record_text() as drawn:
        runner.render(force=True)
    said = " ".join(d.text for d in drawn.visible())
    assert "It is kept in History as not finished and does not count in the wins." in said
    tap(runner, "leave")
    assert isinstance(runner.window.screen, StartFlow)  # back to the start screen
    record = store.games()[0]
    assert record.finished is not None and record.result == {"abandoned": True, "left": True}
    assert outcome(record) == "left, not finished"
    assert figures(store.games()) == {}  # out of the standings
    # A card scanned while the start screen is up never joins the game that was left.
    assert scan(runner, fruit("Pear", 9)).verdict == "rejected" and store.games()[0].inputs == 5
    # A new game from the start screen begins as after a game.
    for command in ("game sugarrr", "players 2", "next", "next"):
        if runner.window.screen is not None:
            tap(runner, command)
    assert runner.window.screen is None and runner.session.game_id != record.id and not runner.session.left


def test_keep_playing_closes_the_question_and_changes_nothing(tmp_path, app):
    store = EventStore(tmp_path / "t.db")
    runner = table(store, app)
    tap(runner, "menu table")
    tap(runner, "menu leave")
    tap(runner, "cancel")
    assert runner.window.menu is None and store.games()[0].finished is None


def test_leaving_is_refused_with_nothing_changed_when_the_store_cannot_be_written(tmp_path, app, monkeypatch):
    store = EventStore(tmp_path / "t.db")
    runner = table(store, app)
    scan(runner, STARTS[0])

    def full(*args, **kw):
        raise StoreError("could not save to the game store: database or disk is full")
    monkeypatch.setattr(store, "abandon", full)
    tap(runner, "menu table")
    tap(runner, "menu leave")
    tap(runner, "leave")
    assert runner.window.screen is None and not runner.session.left
    assert runner.session.last_ok is False and "Nothing changed" in runner.session.last_message
    assert store.games()[0].finished is None
    assert scan(runner, STARTS[1]).verdict == "accepted"  # the game goes on


def test_history_from_the_menu_returns_to_the_game(tmp_path, app):
    runner = table(EventStore(tmp_path / "t.db"), app)
    tap(runner, "menu table")
    tap(runner, "history")
    assert isinstance(runner.window.screen, HistoryScreen)
    tap(runner, "back")
    assert runner.window.screen is None and runner.window.menu is None


def test_pause_from_the_menu_and_undo_still_takes_back_the_last_move(tmp_path, app):
    """Menu inputs are not the game's: Undo still takes back the game's last move."""
    runner = table(EventStore(tmp_path / "t.db"), app)
    before = runner.session.state
    scan(runner, STARTS[0])
    label = runner.session.undo_label()
    tap(runner, "menu table")
    tap(runner, "menu settings")
    tap(runner, "setting volume down")
    tap(runner, "cancel")
    tap(runner, "menu table")
    tap(runner, "pause")
    assert runner.session.paused
    tap(runner, "resume")
    assert runner.session.undo_label() == label
    tap(runner, "menu undo")
    tap(runner, "undo")
    assert runner.session.state == before


def test_settings_are_live_and_written_to_the_config_file(tmp_path, app):
    config = tmp_path / "config.toml"
    config.write_text("# my table\n[sound]\nvolume = 0.7\n\n[game]\ngame = \"sugarrr\"\n")
    runner = table(EventStore(tmp_path / "t.db"), app, config_path=str(config))
    try:
        tap(runner, "menu table")
        tap(runner, "menu settings")
        tap(runner, "setting mute")
        assert runner.session.last_message == "Sound off." and runner.session.last_ok
        tap(runner, "setting volume down")
        tap(runner, "setting theme high-contrast")
        assert theme.current == "high-contrast" and theme.BG == (0, 0, 0)  # live: the next frame
        cfg, _ = load(config)
        assert cfg["sound"]["mute"] is True and cfg["sound"]["volume"] == 0.6
        assert cfg["display"]["theme"] == "high-contrast" and cfg["game"]["game"] == "sugarrr"
        assert config.read_text().startswith("# my table\n")
    finally:
        theme.use("default")


def test_a_config_that_cannot_be_written_keeps_the_setting_and_says_so(tmp_path, app):
    config = tmp_path / "ro" / "config.toml"
    config.parent.mkdir()
    config.write_text("")
    config.parent.chmod(0o500)
    config.chmod(0o400)
    try:
        runner = table(EventStore(tmp_path / "t.db"), app, config_path=str(config))
        tap(runner, "menu table")
        tap(runner, "menu settings")
        tap(runner, "setting mute")
        assert runner.window.settings().muted
        if os.geteuid() != 0:
            assert "the config file cannot be written" in runner.session.last_message
    finally:
        config.parent.chmod(0o700)


def test_brightness_is_offered_only_where_the_panel_has_a_backlight(tmp_path, app):
    runner = table(EventStore(tmp_path / "t.db"), app)
    light = tmp_path / "backlight" / "rpi_backlight"
    light.mkdir(parents=True)
    (light / "max_brightness").write_text("255\n")
    (light / "brightness").write_text("255\n")
    tap(runner, "menu table")
    tap(runner, "menu settings")
    runner.window._settings = Settings(None, None, None)
    runner.render(force=True)
    assert not [b for b in app.buttons if b.command.startswith("setting brightness")]
    runner.window._settings = Settings(None, None, light)
    tap(runner, "setting brightness down")
    assert (light / "brightness").read_text() == "204" and runner.session.last_message == "Brightness 80 %."


def test_escape_asks_first_on_a_desk_window(tmp_path, app):
    runner = table(EventStore(tmp_path / "t.db"), app)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=41))
    runner.poll_window()
    assert not runner.stopping and runner.window.menu == "quit"
    with record_text() as drawn:
        runner.render(force=True)
    assert "Close the companion? The game is kept." in " ".join(d.text for d in drawn.visible())
    tap(runner, "cancel")
    assert not runner.stopping and runner.window.menu is None
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=41))
    runner.poll_window()
    tap(runner, "quit")
    assert runner.stopping and runner.session.store.games()[0].finished is None  # the game is kept


def test_a_kiosk_still_ignores_escape(tmp_path):
    kiosk = App(kiosk=True)
    try:
        runner = table(EventStore(tmp_path / "t.db"), kiosk)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=41))
        runner.poll_window()
        assert not runner.stopping and runner.window.menu is None
    finally:
        kiosk.close()


MENUS = ("table", "leave", "settings", "quit")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_menu_screen_reads_whole_at_every_panel_size(tmp_path, size):
    out = Path(os.environ.get("MENU_PNGS", tmp_path)) / f"{size[0]}x{size[1]}"
    app = App(size=size)
    light = tmp_path / "light"
    light.mkdir()
    (light / "max_brightness").write_text("100")
    (light / "brightness").write_text("60")
    try:
        for name in ("default", "high-contrast"):
            theme.use(name)
            runner = table(EventStore(tmp_path / f"{name}.db"), app)
            runner.window._settings = Settings(None, None, light)
            for menu in MENUS:
                runner.window.menu = menu
                runner.session.last_message = "Sound off. (Kept until the table stops: the config file cannot be written.)"
                with record_text() as drawn:
                    runner.render(force=True)
                label = f"{menu}-{name}"
                assert [d.text for d in drawn if not d.readable] == [], label
                assert fit.overlaps(drawn, app.surface, app.buttons) == [], label
                assert all(b.rect.width >= 48 and b.rect.height >= 48 for b in app.buttons), label
                app.save(out / f"{label}.png", as_panel=True)
            runner.session.store.close()
        assert app.frame().get_size() == size
    finally:
        theme.use("default")
        app.close()


CHILD = textwrap.dedent('''
    import json, os, sys, time
    sys.path.insert(0, os.path.join(os.environ["ROOT"], "tests"))
    import pygame
    from companion.ui.sound import Sounds, VerdictSounds
    from test_game_menu import table, tap, scan
    from companion.core.store import EventStore
    from companion.ui.app import App
    from sugarrr_helpers import STARTS, fruit
    app = App()
    sounds = Sounds(volume=0.8)
    started = sounds.start()
    runner = table(EventStore(":memory:"), app, sounds=sounds)
    runner.session.listeners.append(VerdictSounds(sounds))
    sounds.muted = True  # set-up quietly
    for code in STARTS:
        scan(runner, code)
    sounds.muted = False
    if os.environ.get("MUTE_FROM_MENU") == "1":
        tap(runner, "menu table")
        tap(runner, "menu settings")
        tap(runner, "setting mute")
        tap(runner, "cancel")
        time.sleep(0.05)
        while sounds.busy():
            time.sleep(0.02)
        time.sleep(0.3)
        open(os.environ["MARK"], "w").write(str(os.path.getsize(os.environ["SDL_DISKAUDIOFILE"])))
    v = scan(runner, fruit("Blueberries", 10))  # fits no column: a refusal
    time.sleep(0.05)
    while sounds.busy():
        time.sleep(0.02)
    time.sleep(0.3)
    sounds.close()
    print(json.dumps({"started": started, "verdict": v.verdict, "muted": sounds.muted}))
''')


def _heard(tmp_path, **env):
    import array

    raw, mark = tmp_path / "heard.raw", tmp_path / "mark"
    run_env = {**os.environ, "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(raw), "ROOT": str(ROOT),
               "SDL_VIDEODRIVER": "dummy", "MARK": str(mark), "PYGAME_HIDE_SUPPORT_PROMPT": "1", **env}
    proc = subprocess.run([sys.executable, "-c", CHILD], env=run_env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    data = raw.read_bytes() if raw.exists() else b""
    start = int(mark.read_text()) if mark.exists() else 0
    samples = array.array("h")
    samples.frombytes(data[start: start + (len(data) - start) // 2 * 2])
    return out, [s for s in samples if abs(s) > 200]


def test_muted_from_the_menu_a_refusal_makes_no_sound(tmp_path):
    """Menu, Settings, Mute; then a refusal: the disk driver writes only silence after it
    (and the same refusal unmuted is heard)."""
    out, loud = _heard(tmp_path, MUTE_FROM_MENU="1")
    assert out == {"started": True, "verdict": "rejected", "muted": True} and loud == []
    (tmp_path / "control").mkdir()
    out, loud = _heard(tmp_path / "control")
    assert out["verdict"] == "rejected" and len(loud) > 1000
