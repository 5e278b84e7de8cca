"""``companion run`` as the Pi's service: READY=1 only with a screen (and before the start
screen waits for a person), watchdog pings while it waits, and the kiosk's other rules."""

import os
import socket
import subprocess
import sys
import threading
import time

import pygame
import pytest

from companion.core.clock import SystemClock
from companion.core.events import CardScanned
from companion.core.store import EventStore
from companion.service.sdnotify import Notifier
from companion.table import build
from companion.table.build import ClosedOnStart, open_table
from companion.table.plan import TablePlan
from companion.table.runner import Runner
from companion.table.session import Session
from companion.ui.display import Display, DisplayUnavailable, open_display
from sugarrr_helpers import STARTS


@pytest.fixture
def listener(tmp_path):
    """A socket standing in for systemd's notify socket; yields (path, receive)."""
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)

    def receive(timeout: float, until=None) -> list[str]:
        """Datagrams arriving within ``timeout`` s (or until ``until(got)`` is true)."""
        got, deadline = [], time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            try:
                got.append(sock.recv(4096).decode())
            except socket.timeout:
                break
            if until is not None and until(got):
                break
        return got

    yield path, receive
    sock.close()


def _start_screen_until(tmp_path, listener, until) -> list[str]:
    """Run the start screen under a notify socket (the start screen shows under SDL's dummy
    driver) until systemd has heard ``until(messages)``, then close the window (not under
    --service); returns what systemd heard."""
    path, receive = listener
    plan = TablePlan(game="sugarrr", names=[], options={}, store=str(tmp_path / "t.db"), ask=True)
    heard: list[str] = []

    def systemd():
        heard.extend(receive(10, until=until))
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    watcher = threading.Thread(target=systemd, daemon=True)
    watcher.start()
    with pytest.raises(ClosedOnStart):
        with open_table(plan, SystemClock(), notifier=Notifier(path, watchdog_usec=200_000)):
            pass
    watcher.join(5)
    return heard


def test_ready_comes_before_the_start_screen_and_it_pings_the_watchdog_while_waiting(tmp_path, listener, monkeypatch):
    monkeypatch.setattr(build, "virtual_screen", lambda: False)
    heard = _start_screen_until(tmp_path, listener, lambda got: sum(m == "WATCHDOG=1" for m in got) >= 3)
    assert heard and heard[0].startswith("READY=1\nSTATUS=start screen"), heard
    assert heard.count("WATCHDOG=1") >= 3  # nobody touched it: it pinged all the same


def test_ready_goes_out_only_once_the_start_screens_first_frame_is_drawn(tmp_path, listener, monkeypatch):
    """The unit's READY=1 means a picture on the panel: the appliance VM's screendump taken
    at READY=1 was blank while the start screen's first frame was still being drawn."""
    monkeypatch.setattr(build, "virtual_screen", lambda: False)
    order: list[str] = []
    real_flip = pygame.display.flip
    monkeypatch.setattr(pygame.display, "flip", lambda: (order.append("frame"), real_flip())[1])
    real_send = Notifier.send
    monkeypatch.setattr(Notifier, "send", lambda self, *lines: (order.append(lines[0].split("=")[0]),
                                                               real_send(self, *lines))[1])
    _start_screen_until(tmp_path, listener, lambda got: any(m.startswith("READY=1") for m in got))
    assert "READY" in order and "frame" in order[:order.index("READY")], order


def test_no_ready_while_no_screen_could_be_opened_and_status_says_why(tmp_path, listener):
    path, receive = listener
    clock = SystemClock()
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), clock)
    broken = {"on": True}

    def opener():
        if broken["on"]:
            raise DisplayUnavailable("kmsdrm", "Could not initialize EGL")
        return open_display()

    display = Display(opener, clock, log=lambda line: None, backoff=(0.0,))
    runner = Runner(session, clock, display=display, notifier=Notifier(path, watchdog_usec=200_000))
    runner.step()
    runner.tick()
    got = receive(0.3)
    assert not any(m.startswith("READY=1") for m in got), got
    status = [m for m in got if m.startswith("STATUS=")]
    assert status and "no screen" in status[0] and "Could not initialize EGL" in status[0]
    assert any("EXTEND_TIMEOUT_USEC=" in m and "WATCHDOG=1" in m for m in got)  # alive, not killed at TimeoutStartSec

    broken["on"] = False  # the panel comes up: now it is ready
    runner.step()
    runner.tick()
    got = receive(0.3)
    assert got[0] == "READY=1\nSTATUS=sugarrr: ready", got
    display.close()


def _plan(tmp_path, **kw):
    return TablePlan(**{"game": "sugarrr", "names": ["Ana", "Ben"], "options": {}, "store": str(tmp_path / "t.db"),
                        **kw})


def _key(key):
    return [pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)]


def test_escape_does_not_end_the_service_but_still_quits_a_desk_run(tmp_path):
    with open_table(_plan(tmp_path, service=True), SystemClock()) as table:
        runner = table.runner
        for event in _key(pygame.K_ESCAPE) + [pygame.event.Event(pygame.QUIT)]:
            pygame.event.post(event)
        runner.step()
        assert not runner.stopping  # a kiosk: nobody at the table could start it again
    with open_table(_plan(tmp_path), SystemClock()) as table:  # a desk window: Esc asks first (issue 38)
        pygame.event.post(_key(pygame.K_ESCAPE)[0])
        table.runner.step()
        assert not table.runner.stopping and table.runner.window.menu == "quit"
        table.runner.touch("quit")  # "Close it"
        assert table.runner.stopping


def _tap_lands(app, tap) -> bool:
    from companion.ui.app import Button

    app.show(lambda s: [Button(pygame.Rect(700, 400, 100, 80), "done")])  # bottom right of the drawing
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=tap, button=1, touch=False))
    return ("touch", "done") in app.poll()


def test_full_screen_opens_at_the_desktop_size_sdl_reports():
    app = open_display(fullscreen=True)
    try:
        desktop = tuple(pygame.display.get_desktop_sizes()[0])  # SDL's dummy driver: 1024x768
        assert app.window_size == desktop != (800, 480)
        assert app.frame().get_size() == desktop
        assert _tap_lands(app, (round(1024 / 2 + (750 - 400) * 1.28), round(96 + 440 * 1.28)))
    finally:
        app.close()


@pytest.mark.parametrize("panel, rotation, tap", [((1024, 600), 0, (950, 550)), ((720, 1280), 90, (59, 1165)),
                                                   ((800, 480), 0, (750, 440)), ((720, 1280), 270, (660, 114))])
def test_kmsdrm_opens_at_the_panels_own_mode_and_taps_land_on_the_button(panel, rotation, tap, monkeypatch):
    """Under kmsdrm SDL's desktop size is the mode the panel runs at; the 800x480 drawing
    is scaled (and turned) onto it, and a tap on the panel finds the button drawn there."""
    from companion.ui import display as display_mod

    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [panel])
    monkeypatch.setattr(display_mod, "asked_driver", lambda: "kmsdrm")
    app = open_display(rotation=rotation, allow_virtual=True)  # (drawn by the dummy driver here)
    try:
        assert app.window_size == panel and app.window.get_size() == panel
        assert app.frame().get_size() == panel
        assert _tap_lands(app, tap)
    finally:
        app.close()


def _unfinished(db, game, names, codes=()):
    """A store holding an unfinished game of ``game`` (as a power cut leaves it)."""
    store = EventStore(str(db))
    session = Session.start(game, names, store, SystemClock())
    for code in codes:
        session.handle(CardScanned(code, "scanner", time.time()))
    store.close()


def _service(tmp_path, db, config_lines, *extra, stdin=""):
    cfg = tmp_path / "companion.toml"
    cfg.write_text("\n".join(config_lines + [f'[store]\npath = "{db}"']) + "\n")
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    env.pop("NOTIFY_SOCKET", None)
    return subprocess.run([sys.executable, "-m", "companion.cli", "run", "--service", "--config", str(cfg),
                           "--headless", "--simulate", *extra], input=stdin, capture_output=True, text=True,
                          timeout=60, env=env)


def test_after_a_power_cut_the_service_carries_on_a_game_of_other_players_whatever_the_config_says(tmp_path):
    db = tmp_path / "table.db"
    _unfinished(db, "sugarrr", ["Mum", "Dad", "Maya"], STARTS[:2])
    proc = _service(tmp_path, db, ["[game]", "players = 2"], stdin=STARTS[2] + "\n")
    assert proc.returncode == 0, proc.stderr  # not exit 2 (and a crash loop)
    assert "Traceback" not in proc.stderr
    store = EventStore(str(db))
    games = store.games()
    assert len(games) == 1 and games[0].players == ("Mum", "Dad", "Maya") and games[0].finished is None
    assert [i.code for i in store.inputs(games[0].id)] == STARTS[:3]


def test_after_a_power_cut_the_service_carries_on_a_game_of_another_kind(tmp_path):
    db = tmp_path / "table.db"
    _unfinished(db, "sugar-heist", ["Zach", "Pam", "Alex"])
    proc = _service(tmp_path, db, ["[game]", 'game = "sugarrr"', 'names = ["Ana", "Ben"]'])
    assert proc.returncode == 0, proc.stderr
    assert "carrying on the unfinished Sugar Heist game with Zach, Pam, Alex" in proc.stderr
    games = EventStore(str(db)).games()
    assert [(g.game, g.finished) for g in games] == [("sugar-heist", None)]  # no new Sugarrr! game


def test_the_screen_says_the_game_was_carried_on(tmp_path):
    db = tmp_path / "table.db"
    _unfinished(db, "sugar-heist", ["Zach", "Pam", "Alex"])
    plan = _plan(tmp_path, service=True, store=str(db), names=["Player 1", "Player 2"])
    with open_table(plan, SystemClock()) as table:
        assert table.session.game == "sugar-heist"
        assert table.session.last_message.startswith("Welcome back: the Sugar Heist game with "
                                                     "Zach, Pam, Alex is as you left it.")
        table.runner.render()
        table.runner.app.save(tmp_path / "carried-on.png")


def test_a_config_mistake_is_shown_and_waited_out_then_the_fixed_file_starts_the_table(tmp_path, listener):
    """No exit (systemd would crash-loop it into its start limit): the mistake in the
    journal at error priority with the file and line, READY=1 with a STATUS naming it
    once the panel shows it, watchdog pings, and the table starts when the file is fixed."""
    path, receive = listener
    db, cfg = tmp_path / "table.db", tmp_path / "companion.toml"
    good = f'[game]\nnames = ["Ana", "Ben"]\n[display]\nfullscreen = true\n[store]\npath = "{db}"\n'
    cfg.write_text(good.replace("fullscreen", "fulscreen"))
    err = tmp_path / "stderr"
    with open(err, "w") as stderr:
        st = os.fstat(stderr.fileno())
        env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="400000", JOURNAL_STREAM=f"{st.st_dev}:{st.st_ino}",
                   XDG_CONFIG_HOME=str(tmp_path / "xdg"))
        proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--service", "--simulate",
                                 "--config", str(cfg)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=stderr, text=True, env=env)
        try:
            first = receive(30, until=lambda got: sum(m == "WATCHDOG=1" for m in got) >= 2)
            assert first[0].startswith("READY=1\nSTATUS=config mistake: In " + str(cfg) + ", line 4:"), first
            assert "Unknown key 'fulscreen' in [display]: allowed keys are fullscreen" in first[0]
            assert proc.poll() is None  # still there, pinging: not a crash loop
            journal = err.read_text()
            assert f"<3>companion: In {cfg}, line 4: Unknown key 'fulscreen' in [display]" in journal, journal

            cfg.write_text(good)  # fixed and saved
            later = receive(30, until=lambda got: any(m.startswith("STATUS=sugarrr: ready") for m in got))
            assert any(m.startswith("STATUS=sugarrr: ready") for m in later), later
            proc.stdin.write("\n".join(STARTS[:2]) + "\n")
            proc.stdin.close()
            assert proc.wait(30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
    store = EventStore(str(db))
    game = store.unfinished("sugarrr")
    assert game.players == ("Ana", "Ben") and [i.code for i in store.inputs(game.id)] == STARTS[:2]


def test_outside_the_service_a_config_mistake_is_still_exit_2(tmp_path):
    cfg = tmp_path / "companion.toml"
    cfg.write_text("[display]\nfulscreen = true\n")
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--headless", "--simulate", "--config",
                           str(cfg)], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, XDG_CONFIG_HOME=str(tmp_path)))
    assert proc.returncode == 2 and "unknown key 'fulscreen'" in proc.stderr


@pytest.mark.parametrize("size, rotation", [((800, 480), 0), ((1024, 600), 0), ((720, 1280), 90)])
def test_the_config_mistake_screen_fits_every_panel(tmp_path, size, rotation):
    from companion.service.config import ConfigError, load
    from companion.service.config_wait import texts
    from companion.ui.app import App
    from companion.ui.problem import draw_problem
    from companion.ui.widgets import record_text

    cfg = tmp_path / "companion.toml"
    cfg.write_text("[game]\nplayers = 2\n[display]\nrotation = 45\n")
    with pytest.raises(ConfigError) as caught:
        load(cfg)
    assert caught.value.line == 4
    title, where, what, fix = texts(caught.value, "/etc/companion/companion.toml")  # as on the Pi
    assert where == "In /etc/companion/companion.toml, line 4:" and what.startswith("[display] rotation = 45: allowed values are 0, 90")
    app = App(size=size, rotation=rotation)
    try:
        with record_text() as drawn:
            app.show(lambda s: draw_problem(s, title, where, what, fix))
        assert len(drawn) == 4 and all(d.readable for d in drawn), [(d.text, d.size) for d in drawn if not d.readable]
        app.save(tmp_path / f"config-mistake-{size[0]}x{size[1]}.png", as_panel=True)
    finally:
        app.close()


def test_log_lines_reach_the_journal_with_their_priorities(tmp_path):
    """Under systemd (stderr is $JOURNAL_STREAM) each line carries the sd-daemon prefix:
    no screen is an error <3>, a part left out a warning <4>, the saved game info <6>."""
    err = tmp_path / "stderr"
    with open(err, "w") as stderr:
        st = os.fstat(stderr.fileno())
        env = dict(os.environ, SDL_VIDEODRIVER="kmsdrm", JOURNAL_STREAM=f"{st.st_dev}:{st.st_ino}",
                   XDG_CONFIG_HOME=str(tmp_path / "xdg"))
        proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--names", "Ana,Ben", "--simulate",
                               "--buzzer", "17", "--store", str(tmp_path / "t.db")], input=STARTS[0] + "\n",
                              stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=60, env=env)
    lines = err.read_text().splitlines()
    assert proc.returncode == 0, lines
    assert any(l.startswith("<3>companion: no screen: SDL video driver 'kmsdrm'") for l in lines), lines
    assert any(l.startswith("<4>companion: no buzzer/LED feedback") for l in lines), lines
    back = f"companion run --game sugarrr --store {tmp_path / 't.db'} --simulate"
    assert f"<6>companion: stopped. The Sugarrr! game is saved. To carry on where you left off, type: {back}" in lines
    assert all(l.startswith("<") for l in lines), [l for l in lines if not l.startswith("<")]


def test_without_the_journal_lines_have_no_prefix(tmp_path, capsys):
    from companion.core.journal import ERR, say

    say("no screen", ERR)
    assert capsys.readouterr().err == "companion: no screen\n"


def test_the_service_waits_for_a_screen_before_the_start_screen_and_says_why(tmp_path, listener, monkeypatch):
    """No game to carry on and no players: only the start screen can begin one, so the
    service waits for its screen (no READY, a STATUS naming why, pings) instead of exiting."""
    from companion.ui import display as display_mod

    path, receive = listener
    monkeypatch.setattr(build, "virtual_screen", lambda: False)
    real, tries = display_mod.open_display, []

    def flaky(**kw):
        tries.append(1)
        if len(tries) <= 2:
            raise DisplayUnavailable("kmsdrm", "Could not initialize EGL")
        return real(**kw)
    monkeypatch.setattr(display_mod, "open_display", flaky)

    class Hurried:  # each look at the clock is 5 s later: the display's back-off is over at once
        t = 0.0

        def now(self):
            self.t += 5.0
            return self.t

    plan = TablePlan(game="sugarrr", names=[], options={}, store=str(tmp_path / "t.db"), ask=True, service=True)
    heard: list[str] = []
    done = threading.Event()

    def systemd():
        heard.extend(receive(20, until=lambda got: any(m.startswith("READY=1") for m in got)))
        done.set()  # then systemctl stop
    watcher = threading.Thread(target=systemd, daemon=True)
    watcher.start()
    with pytest.raises(ClosedOnStart):
        with open_table(plan, Hurried(), notifier=Notifier(path, watchdog_usec=200_000), notice=lambda line: None,
                        stopping=done.is_set):
            pass
    watcher.join(5)
    ready = next(i for i, m in enumerate(heard) if m.startswith("READY=1"))
    before = heard[:ready]
    assert before and before[0] == "STATUS=no screen for the start screen: no screen: SDL video driver 'kmsdrm': " \
                                    "Could not initialize EGL", heard
    assert any(m.startswith("EXTEND_TIMEOUT_USEC=") for m in before)
    assert heard[ready].startswith("READY=1\nSTATUS=start screen") and len(tries) == 3
