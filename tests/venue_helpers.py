"""A private Mosquitto for the venue tests and benches, and simulated café tables.

:class:`Mosquitto` runs the real broker (the Debian package's ``mosquitto``) on a free
port of 127.0.0.1 with its own config, persistence folder and log; it can be killed
(``kill -9``) and started again on the same port with the same persistence file.
:func:`play_table` plays a recorded trace through the whole stack (``companion.table.replay``:
real scanners on pseudo-terminals) with a :class:`VenuePublisher` listening.
"""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
NO_BROKER = ("no mosquitto on this machine (the Debian package `mosquitto`: apt-get install -y mosquitto; "
             ".ci/run installs it): the venue tests need a real broker")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, timeout: float = 30.0, every: float = 0.02, what: str = "the condition"):
    """Wait until ``condition()`` is true (a result, not a time, is what tests check);
    raises AssertionError naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)


class Mosquitto:
    """A private broker in ``folder`` (config ``mosquitto.conf``, persistence, log)."""

    def __init__(self, folder: Path, port: int | None = None, extra: str = "", base: str | None = None):
        if MOSQUITTO is None:
            pytest.skip(NO_BROKER)
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.conf = self.folder / "mosquitto.conf"
        import getpass

        # Started as root, mosquitto would become the user "mosquitto", who cannot write here.
        listen = f"listener {self.port} 127.0.0.1\nallow_anonymous true" if base is None else base
        self.conf.write_text(f"""{listen}
user {getpass.getuser()}
persistence true
persistence_location {self.folder}/
autosave_interval 1
max_queued_messages 100000
log_dest file {self.folder}/mosquitto.log
log_type error
log_type warning
{extra}
""")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> "Mosquitto":
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto did not start: {self.proc.stderr.read().decode(errors='replace')}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def kill(self) -> None:
        """``kill -9``: no goodbye, no last save."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()


class Recorder:
    """Everything the broker delivers on ``#`` (every topic), in arrival order:
    ``messages`` as ``(topic, payload bytes, retained)``."""

    def __init__(self, url: str, topic: str = "#", username: str | None = None, password: str | None = None):
        import paho.mqtt.client as mqtt

        from companion.venue.settings import Broker

        broker = Broker.parse(url)
        self.messages: list[tuple[str, bytes, bool]] = []
        self.ready = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        if username:
            self.client.username_pw_set(username, password)

        def on_connect(c, u, f, rc, p):
            c.subscribe(topic, qos=1)

        def on_subscribe(c, u, mid, rcs, p):
            self.ready.set()

        self.client.on_connect, self.client.on_subscribe = on_connect, on_subscribe
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, bytes(m.payload), bool(m.retain)))
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        wait_for(self.ready.is_set, what="the recorder's subscription")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def payloads(self, aspect: str) -> list[dict]:
        return [json.loads(p) for t, p, _ in self.messages if t.endswith("/" + aspect)]


def play_table(trace: str | Path, url: str, table: str, store: str, venue: str = "cafe", listeners=(),
               close: bool = True, started=None):
    """Play ``trace`` at a simulated table publishing to ``url`` as ``table``. Returns
    ``(runner, publisher)`` (the publisher closed when ``close``: its outbox sent)."""
    from companion.table.replay import replay
    from companion.venue.publish import VenuePublisher
    from companion.venue.settings import VenueSettings

    held = {}

    def on_start(session):
        pub = VenuePublisher(VenueSettings.parse(url, table, venue), session)
        session.listeners.append(pub)
        pub.start()
        pub.connect()
        held["pub"] = pub
        if started is not None:
            started(pub)

    runner = replay(trace, store=store, window=False, listeners=listeners, on_start=on_start)
    pub = held["pub"]
    if close:
        pub.close(timeout=30)
    return runner, pub
