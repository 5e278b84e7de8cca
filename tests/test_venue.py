"""Venue mode end to end: two tables play recorded games into a real Mosquitto and the
café's dashboard shows both, with every event once and in order; and the parts alone
(the outbox in the store, the dashboard's repeat dropping, the command line)."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from companion.core.store import SCHEMA_VERSION, EventStore
from companion.venue.dashboard import Dashboard, flags
from companion.venue.outbox import Outbox
from companion.venue.settings import Broker, VenueSettings
from toy_helpers import toy_param
from venue_helpers import event_msg, play_table, result_msg, status_msg, wait_for, will_msg, wire

DATA = Path(__file__).parent / "data"


def golden(name: str) -> dict:
    return json.loads((DATA / f"{name}.golden.json").read_text())


def test_two_tables_play_and_the_dashboard_shows_both(mosquitto, tmp_path):
    dashboard = Dashboard(Broker.parse(mosquitto.url), "cafe", client_id="dash-two-tables").connect()
    wait_for(dashboard.connected.is_set, what="the dashboard's connection")
    results = {}

    def table(trace, name):
        runner, pub = play_table(DATA / f"{trace}.trace", mosquitto.url, name, str(tmp_path / f"{name}.db"))
        results[name] = (runner, pub)

    threads = [threading.Thread(target=table, args=(t, n)) for t, n in
               (("sugarrr-family", "table-1"), ("sweet-deals-family", "table-2"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for name, (runner, pub) in results.items():
        assert pub.failures == 0
        assert pub.outbox.waiting() == 0, "the outbox went out"
        last = pub.outbox.next_seq() - 1
        wait_for(lambda: name in dashboard.tables and dashboard.tables[name].last_seq == last,
                 what=f"{name}'s last event at the dashboard")
        assert dashboard.tables[name].seqs == list(range(1, last + 1))  # every event once, in order
    wait_for(lambda: len(dashboard.finished()) == 2, what="both results")
    dashboard.close()
    one, two = dashboard.table_json("table-1"), dashboard.table_json("table-2")
    assert one["game"] == "Sugarrr!" and two["game"] == "Sweet Deals"
    assert [p["name"] for p in one["players"]] == ["Mum", "Dad", "Maya", "Leo"]
    for view, gold in ((one, golden("sugarrr-family")), (two, golden("sweet-deals-family"))):
        assert view["over"] and view["winners"] == gold["winners"]
        assert {p["name"]: p["score"] for p in view["players"]} == {p["name"]: p["score"] for p in gold["players"]}
        assert not view["online"] and not view["dropped"]  # the table said goodbye when it closed
        assert view["flags"] == []
    finished = {g["table"]: g for g in dashboard.finished()}
    assert finished["table-1"]["winners"] == golden("sugarrr-family")["winners"]


@pytest.mark.parametrize("trace", ["sugarrr-family", toy_param("toy-family")])
def test_the_result_message_is_the_score_json_shape(mosquitto, tmp_path, trace):
    from venue_helpers import Recorder

    rec = Recorder(mosquitto.url, "sugar/shape/#")
    runner, pub = play_table(DATA / f"{trace}.trace", mosquitto.url, "t9", str(tmp_path / "t.db"), venue="shape")
    wait_for(lambda: rec.payloads("result"), what="the result")
    rec.close()
    result = rec.payloads("result")[-1]
    gold = golden(trace)
    assert {k: result[k] for k in gold} == gold
    events = rec.payloads("events")
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert {e["verdict"] for e in events} <= {"accepted", "rejected", "ignored"}
    assert all(e["text"] for e in events if e["verdict"] == "rejected")


def test_the_outbox_keeps_messages_until_the_broker_takes_them(tmp_path):
    """No broker at all: the table plays on, the messages wait in the store, in order,
    and a new start of the companion finds them there."""
    store_path = tmp_path / "t.db"
    url = "mqtt://127.0.0.1:1"  # nothing listens on port 1
    runner, pub = play_table(DATA / "sugarrr-family.trace", url, "t1", str(store_path), close=False)
    assert runner.session.over
    pub.close(timeout=0.1)
    waiting = pub.outbox.waiting()
    inputs = runner.session.store.query("SELECT COUNT(*) FROM inputs")[0][0]
    assert waiting >= inputs  # an event (and a status) per input, none sent
    runner.session.store.close()
    again = Outbox(EventStore(str(store_path)))
    rows = again.pending(limit=100000)
    assert len(rows) == waiting
    seqs = [json.loads(r.payload)["seq"] for r in rows if r.topic.endswith("/events")]
    assert seqs == list(range(1, len(seqs) + 1))
    assert again.next_seq() == len(seqs) + 1


def test_a_format_2_store_gains_the_outbox(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL, started REAL NOT NULL,
                            finished REAL, result TEXT, config TEXT NOT NULL DEFAULT '{}');
        CREATE TABLE inputs (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, t REAL NOT NULL, payload TEXT NOT NULL,
                             PRIMARY KEY (game_id, seq));
        INSERT INTO games (game, players, started) VALUES ('sugarrr', '["Ana", "Ben"]', 0);
        PRAGMA user_version = 2;
    """)
    db.close()
    store = EventStore(str(path))
    assert store.migrated_from == 2  # (format 3 added the outbox; format 4, the roster, keeps it)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert Path(f"{path}.format2.bak").exists()
    box = Outbox(store)
    box.put([("sugar/cafe/tables/t/events", {"seq": 1}, 1, False)], seq=1)
    assert [r.seq for r in box.pending()] == [1]
    assert [g.players for g in store.games()] == [("Ana", "Ben")]


def test_the_dashboard_drops_repeats_and_counts_a_new_store_afresh():
    d = Dashboard(None, "cafe")
    topic = "sugar/cafe/tables/t1/events"
    for seq in (1, 2, 2, 1, 3):
        d.handle(topic, wire(event_msg(seq, stream="a")))
    assert d.tables["t1"].seqs == [1, 2, 3] and d.tables["t1"].repeats == 2
    d.handle(topic, wire(event_msg(1, stream="b")))
    assert d.tables["t1"].seqs == [1, 2, 3, 1]
    assert not d.handle("sugar/other/tables/t1/events", wire(event_msg(9, venue="other", stream="a")))
    assert not d.handle(topic, b"not json")


def test_needs_help_flags():
    d = Dashboard(None, "cafe")
    status = status_msg(stream="a", seq=4, at=10.0, clocks={"turn": 50.0, "game": 50.0, "left": None, "limit": 60.0},
                        devices={"scanner": {"status": "disconnected", "detail": "unplugged"},
                                 "tray": {"status": "connected", "detail": ""}})
    d.handle("sugar/cafe/tables/t1/status", json.dumps(status).encode())
    table = d.tables["t1"]
    assert flags(table, table.received) == ["reader unplugged (scanner)"]
    assert "turn over its limit" in flags(table, table.received + 11)
    for seq in (5, 6, 7):
        d.handle("sugar/cafe/tables/t1/events", wire(event_msg(seq, stream="a", verdict="rejected", text="No.",
                                                               refused_in_a_row=seq - 4)))
    assert "the same input refused 3 times" in flags(table, table.received)
    d.handle("sugar/cafe/tables/t1/status", wire(will_msg()))
    assert flags(table, table.received)[0] == "table offline"
    status["devices"] = {"tray": {"status": "disconnected", "detail": ""}}
    status["seq"], status["at"] = 8, 11.0
    d.handle("sugar/cafe/tables/t1/status", json.dumps(status).encode())
    assert flags(table, table.received) == ["tray sensor offline"]


def test_the_refused_count_is_for_the_same_input_in_a_row(tmp_path):
    from companion.core.clock import FakeClock
    from companion.core.events import Touch
    from companion.table.session import Session
    from companion.venue.publish import VenuePublisher

    store = EventStore(":memory:")
    session = Session.start("sugarrr", ["Ana", "Ben"], store, FakeClock(0.0), resume=False)
    pub = VenuePublisher(VenueSettings.parse("mqtt://127.0.0.1:1", "t1"), session)
    session.listeners.append(pub)
    for t, command in enumerate(["frobnicate", "frobnicate", "frobnicate", "wiggle"], 1):
        session.handle(Touch(command, float(t)))
    events = [json.loads(r.payload) for r in pub.outbox.pending(limit=1000) if r.topic.endswith("/events")]
    assert [e["refused_in_a_row"] for e in events] == [1, 2, 3, 1]
    assert all(e["verdict"] == "rejected" and e["text"] for e in events)
    assert "frobnicate" not in json.dumps([e["input"] for e in events])


@pytest.mark.parametrize("argv, message", [
    (["run", "--venue", "http://x", "--table", "t1", "--headless", "--simulate"], "mqtt://HOST"),
    (["run", "--venue", "mqtt://x", "--headless", "--simulate"], "--table NAME"),
    (["run", "--venue", "mqtt://x", "--table", "table 1", "--headless", "--simulate"], "letters, digits"),
    (["run", "--table", "t1", "--headless", "--simulate"], "add --venue"),
    (["run", "--venue", "mqtt://x", "--table", "t1", "--venue-password-file", "/nonexistent/pw", "--headless",
      "--simulate"], "cannot read the password file"),
    (["venue", "--broker", "mqtt://x", "--listen", "8080"], "HOST:PORT"),
    (["venue", "--broker", "tcp://x"], "mqtt://HOST"),
])
def test_venue_usage_errors_exit_2_and_touch_nothing(argv, message, tmp_path, capsys):
    from companion.cli import main

    store = tmp_path / "s.db"
    if argv[0] == "run":
        argv = argv + ["--store", str(store), "--players", "2", "--config", str(tmp_path / "none.toml")]
        (tmp_path / "none.toml").write_text("")
    assert main(argv) == 2
    assert message in capsys.readouterr().err
    assert not store.exists()


def test_the_publisher_follows_the_table_to_its_next_game():
    """After the final scores, "New game" on the start screen: the runner hands its
    listeners to the new session; the publisher's next status is the new game's."""
    from companion.core.clock import FakeClock
    from companion.table.runner import Runner
    from companion.table.session import Session
    from companion.venue.publish import VenuePublisher

    store, clock = EventStore(":memory:"), FakeClock(0.0)
    first = Session.start("sugarrr", ["Ana", "Ben"], store, clock, resume=False)
    runner = Runner(first, clock)
    pub = VenuePublisher(VenueSettings.parse("mqtt://127.0.0.1:1", "t1"), first)
    first.listeners.append(pub)
    pub.start()
    second = Session.start("sweet-deals", ["Cy", "Di", "Ed"], store, clock, resume=False)
    runner.begin(second)
    assert pub.session is second
    statuses = [json.loads(r.payload) for r in pub.outbox.pending(limit=100) if r.topic.endswith("/status")]
    assert [s["game_id"] for s in statuses] == [first.game_id, second.game_id]
    assert statuses[-1]["game_name"] == "Sweet Deals" and [p["name"] for p in statuses[-1]["players"]] == \
        ["Cy", "Di", "Ed"]


def test_the_config_and_the_topics_agree_on_a_name():
    """[venue] table/name in the config are checked as the topics check them."""
    from companion.service.config import _TOPIC_LEVEL
    from companion.venue.settings import NAME

    assert _TOPIC_LEVEL.pattern == NAME.pattern


def test_device_health_reaches_the_status():
    """A reader unplugged and the tray sensor lost, as their threads report them, are in
    the table's status, and the dashboard raises both flags."""
    from companion.core.clock import FakeClock
    from companion.core.events import DeviceStatus
    from companion.table.session import Session
    from companion.venue.publish import VenuePublisher

    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(0.0), resume=False)
    screen = ["connected"]
    pub = VenuePublisher(VenueSettings.parse("mqtt://127.0.0.1:1", "t1"), session, screen=lambda: screen[0])
    session.listeners.append(pub)
    session.handle(DeviceStatus("scanner", "disconnected", 1.0, "the scanner was unplugged"))
    session.handle(DeviceStatus("tray", "disconnected", 2.0, "no ADXL345 at 0x53"))
    rows = pub.outbox.pending(limit=100)
    status = json.loads(rows[-1].payload)
    assert status["devices"]["scanner"] == {"status": "disconnected", "detail": "the scanner was unplugged"}
    d = Dashboard(None, "cafe")
    d.handle(rows[-1].topic, rows[-1].payload)
    assert set(flags(d.tables["t1"], d.tables["t1"].received)) == {"reader unplugged (scanner)", "tray sensor offline"}
    screen[0] = "disconnected"  # the panel's cable came loose: the next status says so
    session.handle(DeviceStatus("scanner", "connected", 3.0, ""))
    d.handle(rows[-1].topic, pub.outbox.pending(limit=100)[-1].payload)
    assert set(flags(d.tables["t1"], d.tables["t1"].received)) == {"screen not working", "tray sensor offline"}


def test_the_cafe_history_as_a_bg_stats_file():
    """Finished games of two tables (each numbering its games from 1): one play each,
    told apart, at the café."""
    import io

    from companion.cli.venue import _exports

    d = Dashboard(None, "corner-cafe")
    for table, winner in (("table-1", "Ana"), ("table-2", "Cy")):
        players = [{"name": winner, "score": 9, "breakdown": {}}, {"name": "Ben", "score": 3, "breakdown": {}}]
        d.handle(f"sugar/corner-cafe/tables/{table}/result", wire(result_msg(
            table, "corner-cafe", players=players, winners=[winner], game_id=1, stream=table,
            players_seated=[winner, "Ben"], started=1_700_000_000.0, finished=1_700_001_800.0)))
    exports = _exports("corner-cafe")
    bg = exports["bgstats"](d.records())
    assert len(bg["plays"]) == 2 and len({p["uuid"] for p in bg["plays"]}) == 2
    assert bg["locations"][0]["name"] == "corner-cafe"
    assert {p["comments"] for p in bg["plays"]} == {"Sugar Table Companion game #1 at table-1",
                                                     "Sugar Table Companion game #1 at table-2"}
    assert {s["rank"] for p in bg["plays"] for s in p["playerScores"] if s["winner"]} == {1}
    import jsonschema

    schema = json.loads((DATA / "bgstats-play-file.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(bg)  # the app's play-file fields
    out = io.StringIO()
    exports["csv"](d.records(), out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("table,game_id,") and len(lines) == 5


def test_sugarrr_scores_so_far_are_the_screens():
    """Sugarrr!'s screen shows each player's pile scored as it stands; the status too."""
    from companion.games.sugarrr import rules
    from companion.table.replay import replay
    from companion.venue.publish import VenuePublisher

    seen = []

    def on_start(session):
        pub = VenuePublisher(VenueSettings.parse("mqtt://127.0.0.1:1", "t1"), session)
        session.listeners.append(pub)
        seen.append(pub)

    runner = replay(DATA / "sugarrr-family.trace", window=False, on_start=on_start)
    statuses = [json.loads(r.payload) for r in seen[0].outbox.pending(limit=10000) if r.topic.endswith("/status")]
    middle = statuses[len(statuses) // 2]
    assert not middle["over"] and any(p["score"] for p in middle["players"])
    final = {p["name"]: p["score"] for p in statuses[-1]["players"]}
    assert final == {p["name"]: p["score"] for p in golden("sugarrr-family")["players"]}
    view = runner.session.view
    assert [rules.score_pile(n, p).total for n, p in zip(view.players, view.piles)] == list(final.values())


@pytest.mark.toy_game
def test_a_games_scores_and_counters_so_far_are_in_the_status():
    """The status carries the game's ``Rules.live_scores`` and ``Rules.counters`` from the
    table's view: the toy game's points taken and the cards still in hands (its demo:
    Mum takes 13 at the first Reveal, 20 cards are left in hands; golden at the end)."""
    from companion.table.replay import replay
    from companion.venue.publish import VenuePublisher

    seen = []

    def on_start(session):
        pub = VenuePublisher(VenueSettings.parse("mqtt://127.0.0.1:1", "t1"), session)
        session.listeners.append(pub)
        seen.append(pub)

    replay(DATA / "toy-family.trace", window=False, on_start=on_start)
    statuses = [json.loads(r.payload) for r in seen[0].outbox.pending(limit=10000) if r.topic.endswith("/status")]
    in_hands = [s["counters"]["Cards in hands"] for s in statuses]
    assert max(in_hands) == 24 and in_hands[-1] == 0
    first = next(s for s in statuses if any(p["score"] for p in s["players"]))
    assert {p["name"]: p["score"] for p in first["players"]} == {"Mum": 13, "Dad": 0, "Maya": 0, "Leo": 0}
    assert first["counters"] == {"Cards in hands": 20}
    assert {p["name"]: p["score"] for p in statuses[-1]["players"]} == \
        {p["name"]: p["score"] for p in golden("toy-family")["players"]}


def test_companion_venue_serves_the_page_until_sigterm(mosquitto, tmp_path):
    """``companion venue``: says where the page is, asks for its password, serves it,
    and stops cleanly on SIGTERM."""
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    from venue_helpers import free_port

    port = free_port()
    (tmp_path / "page.pw").write_text("sugar\n")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "venue", "--broker", mosquitto.url, "--listen",
                             f"127.0.0.1:{port}", "--venue-name", "cli-cafe", "--password-file",
                             str(tmp_path / "page.pw")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "XDG_DATA_HOME": str(tmp_path)})
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and "password required" in line
        import base64

        request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={
            "Authorization": "Basic " + base64.b64encode(b"host:sugar").decode()})
        page = urllib.request.urlopen(request).read().decode()
        assert "<title>cli-cafe: Sugar tables</title>" in page and "EventSource" in page
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0


def test_the_history_file_outlives_the_dashboard(tmp_path):
    history = tmp_path / "cafe.jsonl"
    first = Dashboard(None, "cafe", history=history)
    result = result_msg(game_id=3)
    assert first.handle("sugar/cafe/tables/t1/result", json.dumps(result).encode())
    assert not first.handle("sugar/cafe/tables/t1/result", json.dumps(result).encode())  # retained again: once
    again = Dashboard(None, "cafe", history=history)
    assert [(g["table"], g["winners"]) for g in again.finished()] == [("t1", ["Ana"])]
    assert len(history.read_text().splitlines()) == 1
