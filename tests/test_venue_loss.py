"""The loss test: the broker is killed (``kill -9``) in the middle of a game, the table
plays on, the broker starts again, and then the companion is killed too; started again,
it carries on the game. Every event reaches the dashboard exactly once, in order."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from companion.core.store import EventStore
from companion.table.window import UI_COMMANDS
from companion.table.trace import read
from companion.venue.dashboard import Dashboard
from companion.venue.settings import Broker
from venue_helpers import Mosquitto, wait_for

DATA = Path(__file__).parent / "data"


def typed_lines(trace: Path) -> list[str]:
    """The trace's inputs as lines typed under --simulate (screen-only menu taps left out:
    they give no verdict)."""
    out = []
    pending = ""  # a scan's bytes may come in several records
    for r in read(trace).records:
        if r.kind == "touch":
            words = r.command.split()
            if words and words[0] in UI_COMMANDS and not (words[0] in ("swap", "deck") and len(words) > 1):
                continue
            out.append("/" + r.command)
        elif r.kind == "bytes":
            pending += r.data.decode("latin-1")
            *done, pending = pending.replace("\n", "\r").split("\r")
            out.extend(done)
    return [line.strip() for line in out if line.strip()]


class Companion:
    """``companion run --headless --simulate --log-format json`` in venue mode, fed line by line."""

    def __init__(self, tmp: Path, url: str, store: Path, first: bool):
        (tmp / "empty.toml").write_text("")
        argv = [sys.executable, "-m", "companion", "run", "--headless", "--simulate", "--log-format", "json",
                "--game", "sugarrr", "--store", str(store), "--config", str(tmp / "empty.toml"),
                "--venue", url, "--table", "table-1", "--venue-name", "loss", "--tap-off", "0"]
        if first:
            argv += ["--names", "Mum,Dad,Maya,Leo"]
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env)
        self.verdicts = 0
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            record = json.loads(line)
            if record.get("event") in ("scan", "touch"):
                with self.lock:
                    self.verdicts += 1

    def play(self, lines: list[str]) -> None:
        before = self.verdicts
        for line in lines:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        wait_for(lambda: self.verdicts == before + len(lines), timeout=60, what="the table's verdicts")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def finish(self) -> None:
        self.proc.stdin.close()  # end of input: the companion stops, sending what it can
        assert self.proc.wait(timeout=60) == 0, self.proc.stderr.read()


def test_every_event_reaches_the_dashboard_once_in_order_across_kills(tmp_path):
    broker = Mosquitto(tmp_path / "broker").start()
    store = tmp_path / "table.db"
    dashboard = Dashboard(Broker.parse(broker.url), "loss", client_id="dash-loss").connect()
    try:
        wait_for(dashboard.connected.is_set, what="the dashboard's connection")
        wait_for(lambda: (broker.folder / "mosquitto.db").exists(), what="the broker saving the dashboard's session")
        lines = typed_lines(DATA / "sugarrr-family.trace")
        first, second, third = lines[:60], lines[60:120], lines[120:]
        table = Companion(tmp_path, broker.url, store, first=True)
        table.play(first)
        wait_for(lambda: "table-1" in dashboard.tables and dashboard.tables["table-1"].last_seq == len(first),
                 what="the first part at the dashboard")
        broker.kill()                          # kill -9 in the middle of the game
        table.play(second)                     # the table plays on: its verdicts come as before
        assert dashboard.tables["table-1"].last_seq == len(first)
        broker.start()                         # the same port, the same persistence file
        table.kill()                           # and then kill -9 the companion too
        table = Companion(tmp_path, broker.url, store, first=False)  # it carries on the game
        table.play(third)
        table.finish()
        total = len(first) + len(second) + len(third)
        queued = EventStore(str(store), readonly=True).query("SELECT MAX(seq) FROM outbox")[0][0]
        assert queued == total                 # one event per verdict, numbered without a gap
        wait_for(lambda: dashboard.tables["table-1"].last_seq == total, timeout=60,
                 what="every event at the dashboard")
        view = dashboard.tables["table-1"]
        assert view.seqs == list(range(1, total + 1))  # exactly once, in order
        assert view.gaps == 0
        wait_for(lambda: dashboard.finished(), what="the result")
        assert dashboard.finished()[0]["winners"] == ["Mum"]
    finally:
        dashboard.close()
        broker.stop()


def test_a_table_that_vanishes_is_flagged_offline_by_its_last_will(mosquitto, tmp_path):
    from companion.venue.dashboard import flags

    dashboard = Dashboard(Broker.parse(mosquitto.url), "loss", client_id="dash-will").connect()
    try:
        table = Companion(tmp_path, mosquitto.url, tmp_path / "t.db", first=True)
        table.play(typed_lines(DATA / "sugarrr-family.trace")[:5])
        wait_for(lambda: "table-1" in dashboard.tables and dashboard.tables["table-1"].online, what="the table online")
        view = dashboard.tables["table-1"]
        assert flags(view, view.received) == []
        table.kill()  # kill -9: no goodbye; the broker sends the table's last will
        wait_for(lambda: flags(view, view.received) == ["table offline"], what="the offline flag")
    finally:
        dashboard.close()
