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


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)


@pytest.fixture
def browser():
    """A headless chromium driven by selenium (skipped, with the reason, where either is
    missing)."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra: pip install -e '.[test]'")
    if not CHROMIUM or not DRIVER:
        pytest.skip("no chromium and chromedriver here (Debian: apt-get install -y chromium chromium-driver; "
                    ".ci/run installs them)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                "--disable-gpu"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    yield driver
    driver.quit()


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


# ------------------------------------------------------------ messages as a table sends them

def status_msg(table: str = "t1", venue: str = "cafe", **fields) -> dict:
    """A ``status`` message of format 1 with every field the schema asks for (``fields``
    replace the defaults: an idle two-player Sugarrr! game)."""
    msg = {"v": 1, "venue": venue, "table": table, "stream": "s", "seq": 0, "online": True, "at": 1.0,
           "game": "sugarrr", "game_name": "Sugarrr!", "game_id": 1,
           "players": [{"name": "Ana", "seat": 1, "score": None}, {"name": "Ben", "seat": 2, "score": None}],
           "turn_of": "Ana", "turn": 1, "phase": "playing", "over": False, "paused": False, "counters": {},
           "prompt": "", "last": {"verdict": None, "text": ""},
           "clocks": {"turn": 0.0, "game": 0.0, "left": None, "limit": None}, "devices": {},
           "disk_free_mb": None, "refused_in_a_row": 0}
    msg.update(fields)
    return msg


def event_msg(seq: int, table: str = "t1", venue: str = "cafe", **fields) -> dict:
    """An ``events`` message of format 1 (``fields`` replace the defaults)."""
    msg = {"v": 1, "venue": venue, "table": table, "stream": "s", "seq": seq, "t": float(seq), "wall": 1.7e9,
           "game_id": 1, "input": "touch", "verdict": "accepted", "text": "OK", "stored": seq,
           "refused_in_a_row": 0}
    msg.update(fields)
    return msg


def result_msg(table: str = "t1", venue: str = "cafe", **fields) -> dict:
    """A ``result`` message of format 1 (``fields`` replace the defaults: Ana beats Ben)."""
    msg = {"v": 1, "venue": venue, "table": table, "stream": "s", "seq": 9, "game": "sugarrr",
           "game_name": "Sugarrr!", "game_id": 1,
           "players": [{"name": "Ana", "score": 5, "breakdown": {}}, {"name": "Ben", "score": 3, "breakdown": {}}],
           "winners": ["Ana"], "tie_break": None, "reason": None, "players_seated": ["Ana", "Ben"],
           "started": 1.0, "finished": 10.0}
    msg.update(fields)
    return msg


def will_msg(table: str = "t1", venue: str = "cafe") -> dict:
    """The broker's last will for a table (as :class:`VenuePublisher` sets it)."""
    return {"v": 1, "venue": venue, "table": table, "online": False, "will": True}


def wire(msg: dict) -> bytes:
    return json.dumps(msg).encode()


#: The dashboard's size limit (companion.venue.schema.MAX_BYTES: a test checks they agree).
MAX_BYTES = 64 * 1024
#: 60 kB: under the size limit, past Python's recursion limit.
NESTED = "[" * 30_000 + "]" * 30_000


def hostile() -> list[tuple[str, str, bytes]]:
    """``(what, aspect, payload)``: one thing wrong in each, every kind the issue names and
    more. "HOSTILE" is in every payload that can carry text, to prove none is shown."""
    s, e, r = status_msg("table-3", prompt="HOSTILE"), event_msg(5, "table-3", text="HOSTILE"), result_msg("table-3")

    def with_(msg, **fields):
        return wire({**msg, **fields})

    return [
        ("a devices value that is not an object", "status", with_(s, devices={"scanner": "HOSTILE"})),
        ("devices that are not an object", "status", with_(s, devices=["HOSTILE"])),
        ("clocks that are not an object", "status", with_(s, clocks="HOSTILE")),
        ("clocks.turn a string", "status", with_(s, clocks={**s["clocks"], "turn": "HOSTILE"})),
        ("players that are not objects", "status", with_(s, players=["HOSTILE", 3])),
        ("a result whose players are not objects", "result", with_(r, players=["HOSTILE"])),
        ("a result whose players lack a name", "result", with_(r, players=[{"score": 1, "breakdown": {}}])),
        ("a score that is a string", "result", with_(r, players=[{"name": "Ana", "score": "HOSTILE",
                                                                  "breakdown": {}}])),
        ("counters nested", "status", with_(s, counters={"HOSTILE": [[[[1]]]]})),
        ("a field the format does not have", "status", with_(s, HOSTILE=1)),
        ("a field missing", "events", wire({k: v for k, v in e.items() if k != "verdict"})),
        ("seq a string", "events", with_(e, seq="5")),
        ("seq negative", "events", with_(e, seq=-1)),
        ("another table's name inside", "status", with_(s, table="table-1")),
        ("another format version", "events", with_(e, v=2)),
        ("10 MB", "status", with_(s, prompt="HOSTILE " * 1_310_720)),
        ("just over the size limit", "events", with_(e, text="H" * MAX_BYTES)),
        ("deeply nested (not JSON Python can read)", "status", NESTED.encode()),
        ("deeply nested inside a message", "status", with_(s, counters=json.loads("[" * 500 + "]" * 500))),
        ("not JSON", "events", b"HOSTILE {"),
        ("empty", "status", b""),
        ("JSON that is not an object", "events", b'["HOSTILE"]'),
        ("not UTF-8", "status", wire(s).replace(b"HOSTILE", b"HOSTILE\xff\xfe")),
        ("UTF-16", "status", json.dumps(s).encode("utf-16")),
        ("a lone surrogate", "events", wire(e).replace(b"HOSTILE", b"HOSTILE\\ud800")),
        ("NaN", "status", wire(s).replace(b'"at": 1.0', b'"at": NaN')),
        ("a number too big for a float", "status", wire(s).replace(b'"at": 1.0', b'"at": 1e400')),
        ("a topic the dashboard does not know", "chat", wire(s)),
    ]
