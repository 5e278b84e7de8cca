"""A table that cannot reach, log in to, trust or write to the café's broker says so on its
panel's device line and keeps trying (companion/venue/sender.py, companion/venue/link.py),
against a real Mosquitto: no broker, a wrong password, a wrong CA, an ACL that refuses the
table's topics, the service's network closed (Errno 97), and an error nobody expected."""

from __future__ import annotations

import errno
import signal
import socket
import subprocess

import pytest

from companion.core.clock import FakeClock
from companion.core.events import DeviceStatus, Touch
from companion.core.store import EventStore
from companion.table.session import Session
from companion.venue import sender
from companion.venue.publish import VenuePublisher
from companion.venue.settings import VenueSettings
from test_venue_acl import cafe_broker
from test_venue_tls import make_certificates
from venue_helpers import Mosquitto, Recorder, free_port, wait_for


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch):
    """Tries again within a second, whatever the problem (30 s for a login in the field)."""
    monkeypatch.setattr(sender, "RECONNECT_CONFIG", 0.5)
    monkeypatch.setattr(sender, "RECONNECT", (0.1, 0.5))


class Table:
    """A table's session with a publisher whose panel line is recorded in ``shown``."""

    def __init__(self, tmp_path, url: str, table: str = "table-1", venue: str = "corner-cafe",
                 user: str | None = None, password: str | None = None, ca=None):
        pw = None
        if password is not None:
            pw = tmp_path / f"{table}.pw"
            pw.write_text(password + "\n")
        self.session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(0.0), resume=False)
        self.shown: list[DeviceStatus] = []
        settings = VenueSettings.parse(url, table, venue, username=user, password_file=str(pw) if pw else None,
                                       ca_file=str(ca) if ca else None)
        self.pub = VenuePublisher(settings, self.session, report=self.shown.append)
        self.session.listeners.append(self.pub)
        self.pub.start()
        self.pub.connect()

    def says(self, words: str, timeout: float = 20.0) -> DeviceStatus:
        """Wait until the panel's venue line says ``words`` ("connected": all is well)."""
        def now():
            if self.shown and (self.shown[-1].detail or self.shown[-1].status) == words:
                return self.shown[-1]
            return None
        return wait_for(now, timeout, what=f"the panel to say {words!r} (it said "
                                           f"{[s.detail or s.status for s in self.shown]})")

    def on_panel(self) -> str:
        """What the top bar's device line shows for the venue (Session.devices, drawn by
        companion.ui.chrome.devices)."""
        self.session.handle(self.shown[-1])
        return self.session.devices["venue"]

    def close(self):
        self.pub.close(timeout=0.5)


def test_no_broker_is_said_on_the_panel_and_the_table_connects_once_it_comes(tmp_path):
    port = free_port()
    table = Table(tmp_path, f"mqtt://127.0.0.1:{port}")
    try:
        table.session.handle(Touch("frobnicate", 1.0))
        table.says("Venue: no broker")
        assert table.on_panel() == "Venue: no broker"
        assert "nothing answers at 127.0.0.1:" in table.pub.problem.detail
        assert table.pub._thread.is_alive()
        broker = Mosquitto(tmp_path / "broker", port=port).start()
        try:
            recorder = Recorder(broker.url)
            table.says("connected")
            wait_for(lambda: recorder.payloads("events"), what="the event kept while the broker was away")
            assert recorder.payloads("events")[0]["seq"] == 1 and table.pub.problem is None
            recorder.close()
        finally:
            broker.stop()
    finally:
        table.close()


def test_a_wrong_password_is_said_on_the_panel_and_retried_until_it_is_right(tmp_path):
    broker = cafe_broker(tmp_path)
    table = Table(tmp_path, broker.url, user="table-1", password="not-the-password")
    try:
        table.says("Venue: bad login")
        assert table.on_panel() == "Venue: bad login"
        assert "refused this table's login as table-1" in table.pub.problem.detail
        assert "password_file" in table.pub.problem.fix
        # The host fixes the broker's password file (mosquitto reloads it on SIGHUP): the
        # table, still trying, gets in.
        subprocess.run(["mosquitto_passwd", "-b", str(tmp_path / "sugar-cafe.passwd"), "table-1", "not-the-password"],
                       check=True)
        broker.proc.send_signal(signal.SIGHUP)
        table.says("connected")
    finally:
        table.close()
        broker.stop()


def test_a_wrong_ca_is_said_on_the_panel(tmp_path):
    """The issue: "A table given the wrong CA never reports it"."""
    (tmp_path / "cafe").mkdir()
    (tmp_path / "other").mkdir()
    ca, cert, key = make_certificates(tmp_path / "cafe")
    wrong_ca, _, _ = make_certificates(tmp_path / "other")
    port = free_port()
    broker = Mosquitto(tmp_path / "broker", port=port, base=f"listener {port} 127.0.0.1\nallow_anonymous true\n"
                                                           f"certfile {cert}\nkeyfile {key}").start()
    table = Table(tmp_path, f"mqtts://127.0.0.1:{port}", ca=wrong_ca)
    try:
        table.says("Venue: wrong CA")
        assert table.on_panel() == "Venue: wrong CA"
        assert "not one the café's CA signed" in table.pub.problem.detail
        assert "ca_file" in table.pub.problem.fix
    finally:
        table.close()
        broker.stop()


def test_topics_the_acl_refuses_are_said_on_the_panel_and_kept(tmp_path):
    """A table whose broker user is another table's (table-2's login at table-1): MQTT
    3.1.1 acknowledged its messages as if taken, and they were lost without a word."""
    broker = cafe_broker(tmp_path)
    table = Table(tmp_path, broker.url, user="table-2", password="pw-table-2")
    try:
        table.session.handle(Touch("frobnicate", 1.0))
        table.says("Venue: no access")
        assert table.on_panel() == "Venue: no access"
        assert "does not let the user table-2 write sugar/corner-cafe/tables/table-1/" in table.pub.problem.detail
        assert table.pub.sent == 0 and table.pub.outbox.waiting() >= 3  # nothing marked sent, nothing dropped
    finally:
        table.close()
        broker.stop()


class _Closed:
    """The socket module as the service's unit left it without AF_INET (RestrictAddressFamilies)."""

    def __init__(self):
        self.closed = True

    def __getattr__(self, name):
        return getattr(socket, name)

    def socket(self, family=socket.AF_INET, *args, **kw):
        if self.closed and family in (socket.AF_INET, socket.AF_INET6):
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return socket.socket(family, *args, **kw)

    def create_connection(self, *args, **kw):
        if self.closed:
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return socket.create_connection(*args, **kw)


def test_a_closed_service_network_is_said_on_the_panel_and_the_thread_lives_on(tmp_path, monkeypatch):
    """The issue: "The publisher thread dies with OSError: [Errno 97] ... and neither the
    panel nor companion doctor says a word" (paho's loop_start makes its socket pair over
    TCP on 127.0.0.1, on the publisher's own thread)."""
    import paho.mqtt.client as paho

    closed = _Closed()
    monkeypatch.setattr(paho, "socket", closed)
    broker = Mosquitto(tmp_path / "broker").start()
    table = Table(tmp_path, broker.url)
    try:
        table.says("Venue: blocked")
        assert table.pub.problem.fix.startswith("sudo companion venue enable")
        assert table.pub._thread.is_alive()
        closed.closed = False  # `companion venue enable`
        table.says("connected")
    finally:
        table.close()
        broker.stop()


def test_an_error_nobody_expected_is_said_logged_once_and_retried(tmp_path, caplog):
    broker = Mosquitto(tmp_path / "broker").start()
    table = Table(tmp_path, broker.url)
    real = table.pub.outbox.pending
    calls = {"n": 0}

    def flaky(*args, **kw):
        calls["n"] += 1
        if calls["n"] <= 3:
            raise KeyError("a bug")
        return real(*args, **kw)

    try:
        table.says("connected")
        table.pub.outbox.pending = flaky
        table.session.handle(Touch("frobnicate", 1.0))
        table.says("Venue: error")
        table.says("connected")
        wait_for(lambda: table.pub.outbox.waiting() == 0, what="the outbox sent after the error")
        assert sum("met an error" in r.getMessage() for r in caplog.records) == 1  # logged once, not three times
    finally:
        table.close()
        broker.stop()


def test_every_panel_word_fits_the_top_bars_badge():
    """The words are a red badge among the devices, at the smallest text size: each fits
    in companion.venue.link.PANEL_PX (the badge has 170 to 250 px in most bars)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from companion.ui import theme
    from companion.ui.widgets import width_of
    from companion.venue import link
    from companion.venue.settings import Broker

    pygame.font.init()
    b = Broker.parse("mqtts://broker.local")
    import ssl

    problems = [link.diagnose(e, b) for e in (ConnectionRefusedError(111, "x"), socket.gaierror(-2, "x"),
                                             OSError(errno.EAFNOSUPPORT, "x"), OSError(errno.EPERM, "x"),
                                             ssl.SSLCertVerificationError(1, "x"), ssl.SSLError(1, "x"),
                                             TimeoutError())]
    problems += [link.refused_login("Not authorized", b), link.refused_login("Server busy", b),
                 link.denied("t", b, "t1", "cafe"), link.crashed(KeyError("x"))]
    words = {p.panel for p in problems} | {"Venue: outbox full", "Venue: outbox 90%", "Venue: store error"}
    font = theme.font(theme.MIN_SIZE, True)
    wide = {w: width_of(font, w) for w in words if width_of(font, w) > link.PANEL_PX}
    assert not wide, wide


def test_the_table_tells_companion_doctor_how_its_link_is(tmp_path):
    """Next to an on-disk store: "connecting" at the start, then each change."""
    import json

    from companion.venue.checks import link_file

    port = free_port()
    store = tmp_path / "table.db"
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(str(store)), FakeClock(0.0), resume=False)
    pub = VenuePublisher(VenueSettings.parse(f"mqtt://127.0.0.1:{port}", "t1"), session)
    pub.start()
    pub.connect()
    try:
        wait_for(lambda: json.loads(link_file(store).read_text()).get("panel") == "Venue: no broker",
                 what="the doctor's file saying no broker")
        said = json.loads(link_file(store).read_text())
        assert said["status"] == "disconnected" and "sudo systemctl start mosquitto" in said["fix"]
        broker = Mosquitto(tmp_path / "broker", port=port).start()
        try:
            wait_for(lambda: json.loads(link_file(store).read_text())["status"] == "connected",
                     what="the doctor's file saying connected")
        finally:
            broker.stop()
    finally:
        pub.close(timeout=0.5)


def test_companion_run_puts_the_venue_on_its_device_line(tmp_path):
    """The whole table (``companion run``, headless, JSON log): the venue's link reaches the
    session's devices (the top bar) through the runner's input queue, like a reader's."""
    import json
    import os
    import sys
    import threading

    port = free_port()
    (tmp_path / "empty.toml").write_text("")
    argv = [sys.executable, "-m", "companion", "run", "--headless", "--simulate", "--log-format", "json",
            "--game", "sugarrr", "--names", "Ana,Ben", "--store", str(tmp_path / "table.db"),
            "--config", str(tmp_path / "empty.toml"), "--venue", f"mqtt://127.0.0.1:{port}", "--table", "t1"]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    seen: list[dict] = []

    def read():
        for line in proc.stdout:
            record = json.loads(line)
            if record.get("event") == "device" and record.get("device") == "venue":
                seen.append(record)

    threading.Thread(target=read, daemon=True).start()
    broker = None
    try:
        wait_for(lambda: any(r["detail"] == "Venue: no broker" for r in seen), 30, what="no broker on the device line")
        broker = Mosquitto(tmp_path / "broker", port=port).start()
        wait_for(lambda: seen[-1]["status"] == "connected", 30, what="connected on the device line")
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        if broker is not None:
            broker.stop()
