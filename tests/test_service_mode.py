"""``companion run`` as the Pi's service: READY=1 only with a screen (and before the start
screen waits for a person), watchdog pings while it waits, and the kiosk's other rules."""

import os
import socket
import threading
import time

import pygame
import pytest

from companion.core.clock import SystemClock
from companion.core.store import EventStore
from companion.service.sdnotify import Notifier
from companion.table import build
from companion.table.build import ClosedOnStart, open_table
from companion.table.plan import TablePlan
from companion.table.runner import Runner
from companion.table.session import Session
from companion.ui.display import Display, DisplayUnavailable, open_display


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


def test_ready_comes_before_the_start_screen_and_it_pings_the_watchdog_while_waiting(tmp_path, listener, monkeypatch):
    path, receive = listener
    monkeypatch.setattr(build, "virtual_screen", lambda: False)  # the start screen shows under SDL's dummy driver
    plan = TablePlan(game="sugarrr", names=[], options={}, store=str(tmp_path / "t.db"), ask=True)
    heard: list[str] = []

    def systemd():
        heard.extend(receive(10, until=lambda got: sum(m == "WATCHDOG=1" for m in got) >= 3))
        pygame.event.post(pygame.event.Event(pygame.QUIT))  # then the window closes (not under --service)

    watcher = threading.Thread(target=systemd, daemon=True)
    watcher.start()
    with pytest.raises(ClosedOnStart):
        with open_table(plan, SystemClock(), notifier=Notifier(path, watchdog_usec=200_000)):
            pass
    watcher.join(5)
    assert heard and heard[0].startswith("READY=1\nSTATUS=start screen"), heard
    assert heard.count("WATCHDOG=1") >= 3  # nobody touched it: it pinged all the same


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
