"""Every start-up failure under ``--service`` waits on the panel (issue 37): a damaged
store, a config value of the wrong type, a stored game this version cannot carry on, a
fault in the code. Exiting would make systemd restart the unit every 3 s for ever with
a dark panel; a config mistake already waited (tests/test_service_mode.py)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time

import pytest

from companion.core.store import EventStore
from sugarrr_helpers import STARTS

ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")


from test_service_mode import listener  # noqa: E402,F401  (the same stand-in for systemd's notify socket)


def _service(tmp_path, notify: str, config: str) -> tuple[subprocess.Popen, object]:
    cfg = tmp_path / "companion.toml"
    cfg.write_text(config)
    err = tmp_path / "stderr"
    stderr = open(err, "w")
    st = os.fstat(stderr.fileno())
    env = dict(ENV, NOTIFY_SOCKET=notify, WATCHDOG_USEC="400000", JOURNAL_STREAM=f"{st.st_dev}:{st.st_ino}",
               XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--service", "--simulate", "--config",
                             str(cfg)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True,
                            env=env)
    stderr.close()
    return proc, err


def _waits(proc, receive, status: str) -> list[str]:
    """What systemd hears while the service waits: READY=1 with ``status`` once the panel
    shows it, then watchdog pings; the process is still there."""
    first = receive(30, until=lambda got: sum(m == "WATCHDOG=1" for m in got) >= 2)
    assert first and first[0].startswith("READY=1\nSTATUS=" + status), first
    assert first.count("WATCHDOG=1") >= 2, first
    assert proc.poll() is None  # not exited: no crash loop
    return first


def _ends(proc) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)


def test_a_damaged_store_waits_on_the_panel_and_the_table_starts_when_the_file_is_moved_aside(tmp_path, listener):
    """Was exit 1 and a restart every 3 s for ever: now the damage is shown (one line in
    the journal, no traceback), and moving the file aside starts the table."""
    path, receive = listener
    db = tmp_path / "table.db"
    db.write_bytes(b"SQLite format 3\x00" + os.urandom(8000))
    proc, err = _service(tmp_path, path, f'[game]\nnames = ["Ana", "Ben"]\n[store]\npath = "{db}"\n')
    try:
        _waits(proc, receive, "cannot start: ")
        journal = err.read_text()
        assert "Traceback" not in journal and f"<3>companion: cannot start: " in journal and str(db) in journal, journal
        db.rename(tmp_path / "table.db.damaged")  # what the panel says to do
        later = receive(30, until=lambda got: any(m.startswith("STATUS=sugarrr: ready") for m in got))
        assert any(m.startswith("STATUS=sugarrr: ready") for m in later), later
        proc.stdin.write(STARTS[0] + "\n")
        proc.stdin.close()
        assert proc.wait(30) == 0
    finally:
        _ends(proc)
    assert EventStore(str(db)).unfinished("sugarrr").players == ("Ana", "Ben")


@pytest.mark.parametrize("value", ['["sugarrr"]', "{ name = 1 }"])
def test_a_game_that_is_a_list_or_a_table_in_the_config_is_a_config_mistake_not_a_crash(tmp_path, listener, value):
    """``[game] game = [...]`` was a TypeError (unhashable list) in the config's check:
    a crash loop under the service, a traceback at a desk."""
    path, receive = listener
    proc, err = _service(tmp_path, path, f"[game]\ngame = {value}\n")
    try:
        _waits(proc, receive, "config mistake: In ")
        assert "Traceback" not in err.read_text()
    finally:
        _ends(proc)
    cfg = tmp_path / "companion.toml"
    desk = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--headless", "--simulate", "--config",
                           str(cfg)], capture_output=True, text=True, timeout=60, env=ENV, stdin=subprocess.DEVNULL)
    assert desk.returncode == 2 and "Traceback" not in desk.stderr and "[game] game = " in desk.stderr, desk.stderr


def _stored_with_unknown_key(db) -> None:
    store = EventStore(str(db))
    store.new_game("sugar-blast", ["Ana", "Ben"], time.time(), config={"goal": "two-twos-and-a-three"})
    store.close()
    with sqlite3.connect(db) as raw:  # as a newer companion would store a setting this one lacks
        raw.execute("UPDATE games SET config = ?", (json.dumps({"goal": "two-twos-and-a-three", "sparkle": True}),))
    raw.close()


def test_a_stored_game_with_a_setting_this_version_does_not_know_is_one_line_not_a_type_error(tmp_path):
    db = tmp_path / "table.db"
    _stored_with_unknown_key(db)
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--game", "sugar-blast", "--headless",
                           "--simulate", "--store", str(db)], capture_output=True, text=True, timeout=60, env=ENV,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "'sparkle'" in proc.stderr and "--new-game" in proc.stderr, proc.stderr


def test_under_the_service_such_a_stored_game_waits_on_the_panel(tmp_path, listener):
    path, receive = listener
    db = tmp_path / "table.db"
    _stored_with_unknown_key(db)
    proc, err = _service(tmp_path, path, f'[store]\npath = "{db}"\n')
    try:
        got = _waits(proc, receive, "cannot start: ")
        assert "'sparkle'" in got[0]
        assert "Traceback" not in err.read_text()
    finally:
        _ends(proc)


def test_a_fault_in_the_code_at_start_waits_on_the_panel_and_is_tried_again(tmp_path, monkeypatch):
    """Not a traceback and an exit: the fault's one line is shown, and the table is
    tried again a while later (a device that came late, a card that was busy)."""
    from companion.cli import build_parser
    from companion.cli import run as run_cli
    from companion.service import config_wait

    cfg = tmp_path / "companion.toml"
    cfg.write_text(f'[game]\nnames = ["Ana", "Ben"]\n[store]\npath = "{tmp_path / "t.db"}"\n')
    calls, shown = [], []
    monkeypatch.setattr(config_wait, "RETRY", 0.3)

    def play(*_):
        calls.append(1)
        if len(calls) == 1:
            raise KeyError("seat")
        return 0
    monkeypatch.setattr(run_cli, "_play", play)
    real = config_wait.wait_for_fix
    monkeypatch.setattr(config_wait, "wait_for_fix", lambda err, *a, **kw: shown.append(str(err)) or real(err, *a, **kw))
    args = build_parser("run").parse_args(["run", "--service", "--headless", "--simulate", "--config", str(cfg)])
    assert run_cli.cmd_run(args) == 0
    assert len(calls) == 2 and shown == ["KeyError: 'seat'"]
