"""sd_notify over a real AF_UNIX datagram socket, as systemd listens for it, and the
main loop's watchdog pings: they stop when the loop hangs and come back when it runs."""

import os
import socket
import threading
import time

import pytest

from companion.core.clock import SystemClock
from companion.core.events import Touch
from companion.core.store import EventStore
from companion.table.runner import Runner
from companion.service.sdnotify import Notifier
from companion.table.session import Session


@pytest.fixture
def listener(tmp_path):
    """A socket standing in for systemd's notify socket; yields (path, receive)."""
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)

    def receive(timeout: float) -> list[tuple[float, str]]:
        """Every datagram that arrives within ``timeout`` seconds, with its arrival time."""
        got, deadline = [], time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            try:
                got.append((time.monotonic(), sock.recv(4096).decode()))
            except socket.timeout:
                break
        return got

    yield path, receive
    sock.close()


def test_ready_status_and_stopping_arrive_as_datagrams(listener):
    path, receive = listener
    n = Notifier(path)
    assert n.ready("sugarrr: ready") and n.status("2 readers") and n.stopping()
    assert [m for _, m in receive(0.3)] == ["READY=1\nSTATUS=sugarrr: ready", "STATUS=2 readers", "STOPPING=1"]


def test_abstract_socket_address_is_honoured():
    name = f"sugar-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    try:
        assert Notifier("@" + name).send("READY=1")
        sock.settimeout(1)
        assert sock.recv(100) == b"READY=1"
    finally:
        sock.close()


def test_from_env_reads_the_watchdog_period_and_ignores_one_for_another_pid():
    n = Notifier.from_env({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "10000000"})
    assert n.enabled and n.interval == 5.0
    other = Notifier.from_env({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"})
    assert other.interval == 0
    assert not Notifier.from_env({}).enabled


def test_watchdog_pings_at_most_once_per_half_period(listener):
    path, receive = listener
    n = Notifier(path, watchdog_usec=2_000_000)  # WatchdogSec=2: a ping a second at most
    sent = [n.watchdog(t) for t in (100.0, 100.5, 100.99, 101.0, 101.2, 102.1)]
    assert sent == [True, False, False, True, False, True]
    assert [m for _, m in receive(0.3)] == ["WATCHDOG=1"] * 3


def test_a_missing_socket_is_not_a_crash(tmp_path):
    assert Notifier(str(tmp_path / "gone")).ready() is False


def test_main_loop_pings_stop_when_it_hangs_and_resume_after(listener, monkeypatch):
    """READY once, WATCHDOG from the loop; an input that never finishes (a hung loop)
    stops the pings, so systemd's WatchdogSec would restart the service."""
    path, receive = listener
    clock = SystemClock()
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), clock)
    runner = Runner(session, clock, notifier=Notifier(path, watchdog_usec=200_000))  # a ping per 0.1 s
    release = threading.Event()
    hung = threading.Event()

    def hang(item, verdict):
        if isinstance(item, Touch) and item.command == "hang":
            hung.set()
            release.wait(10)
    session.listeners.append(hang)
    loop = threading.Thread(target=runner.loop, kwargs={"frame": 0.01}, daemon=True)
    loop.start()
    try:
        before = [m for _, m in receive(0.6)]
        assert before[0].startswith("READY=1") and before.count("READY=1\nSTATUS=sugarrr: ready") == 1
        assert 3 <= before.count("WATCHDOG=1") <= 7  # about one per 0.1 s

        runner.inputs.put(Touch("hang", clock.now()))
        assert hung.wait(2)
        receive(0.15)  # a ping already on its way when the loop hung
        assert receive(0.8) == []  # hung: not one ping in eight periods

        release.set()
        after = [m for _, m in receive(0.5)]
        assert "WATCHDOG=1" in after and not any(m.startswith("READY") for m in after)
    finally:
        release.set()
        runner.stopping = True
        loop.join(2)
    assert not loop.is_alive()
    assert [m for _, m in receive(0.3)][-1] == "STOPPING=1"
