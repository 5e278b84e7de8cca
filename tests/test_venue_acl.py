"""The café's Mosquitto config (hardware/mosquitto/) in a real broker: no anonymous
clients; each table writes only its own topics; the dashboard's user reads them all."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from companion.venue.publish import VenuePublisher
from companion.venue.settings import VenueSettings
from venue_helpers import Mosquitto, Recorder, free_port, wait_for

HERE = Path(__file__).resolve().parent.parent / "hardware" / "mosquitto"


def cafe_broker(tmp: Path, drop: str | None = None) -> Mosquitto:
    """The shipped config and ACL (with the test's port and files), plus a user
    ``watcher`` that reads every topic of every venue (to see what does not reach the
    dashboard). ``drop``: a config line left out (to show what it stops)."""
    passwd = shutil.which("mosquitto_passwd")
    if passwd is None:
        pytest.skip("no mosquitto_passwd (Debian package mosquitto): the café config's passwords cannot be made")
    users = tmp / "sugar-cafe.passwd"
    users.write_text("")
    for user in ("venue", "table-1", "table-2", "watcher"):
        subprocess.run([passwd, "-b", str(users), user, f"pw-{user}"], check=True)
    acl = tmp / "sugar-cafe.acl"
    acl.write_text((HERE / "sugar-cafe.acl").read_text() + "\nuser watcher\ntopic read sugar/#\n")
    conf = (HERE / "sugar-cafe.conf").read_text()
    if drop is not None:
        assert re.search(rf"(?m)^{drop}$", conf), drop
        conf = re.sub(rf"(?m)^{drop}$", "", conf)
    port = free_port()
    conf = conf.replace("listener 1883", f"listener {port} 127.0.0.1")
    conf = conf.replace("/etc/mosquitto/sugar-cafe.passwd", str(users)).replace("/etc/mosquitto/sugar-cafe.acl", str(acl))
    conf = re.sub(r"(?m)^autosave_interval.*$", "", conf)  # the helper sets its own
    return Mosquitto(tmp / "broker", port=port, base=conf).start()


def test_each_table_writes_only_its_own_topics_and_the_venue_reads_all(tmp_path):
    broker = cafe_broker(tmp_path)
    try:
        venue = Recorder(broker.url, "sugar/#", username="venue", password="pw-venue")
        anonymous = subprocess_check_anonymous(broker)
        assert anonymous != 0  # refused

        from companion.core.clock import FakeClock
        from companion.core.events import Touch
        from companion.core.store import EventStore
        from companion.table.session import Session

        pw = tmp_path / "table-1.pw"
        pw.write_text("pw-table-1\n")
        session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(0.0), resume=False)
        pub = VenuePublisher(VenueSettings.parse(broker.url, "table-1", "corner-cafe", username="table-1",
                                                 password_file=str(pw)), session)
        session.listeners.append(pub)
        pub.start()
        # (table-1's login forges first, then the table connects: the broker gives a login
        # one connection at a time, its client id being the user name)
        forger = Recorder(broker.url, "nothing/at/all", username="table-1", password="pw-table-1")
        forger.client.publish("sugar/corner-cafe/tables/table-2/status", b'{"forged": true}', qos=1).wait_for_publish()
        forger.close()
        pub.connect()
        wait_for(pub.connected.is_set, what="table-1 at the broker")
        session.handle(Touch("done", 1.0))
        pub.close(timeout=10)
        wait_for(lambda: any(t.endswith("table-1/events") for t, _, _ in venue.messages), what="table-1's event")
        venue.close()
        topics = {t for t, _, _ in venue.messages}
        assert "sugar/corner-cafe/tables/table-1/status" in topics
        assert "sugar/corner-cafe/tables/table-1/events" in topics
        assert not any("table-2" in t for t in topics), "table-1 wrote table-2's topic"
        assert all(json.loads(p).get("table") == "table-1" for _, p, _ in venue.messages)
    finally:
        broker.stop()


def subprocess_check_anonymous(broker: Mosquitto) -> int:
    """Connect without a user name: the broker refuses (paho's reason code, not 0)."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    codes = []
    client.on_connect = lambda c, u, f, rc, p: codes.append(rc.value)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    wait_for(lambda: codes, what="the broker's answer")
    client.loop_stop()
    return codes[0]


def test_the_shipped_broker_drops_a_message_over_the_size_limit(tmp_path):
    """``message_size_limit`` in the shipped config: a message one byte over the
    dashboard's limit never reaches the dashboard's user, and the next one does."""
    from companion.venue.schema import MAX_BYTES

    broker = cafe_broker(tmp_path)
    try:
        venue = Recorder(broker.url, "sugar/#", username="venue", password="pw-venue")
        table = Recorder(broker.url, "nothing/at/all", username="table-1", password="pw-table-1")
        topic = "sugar/corner-cafe/tables/table-1/events"
        table.client.publish(topic, b"x" * (MAX_BYTES + 1), qos=1).wait_for_publish(10)
        table.client.publish(topic, b"x" * MAX_BYTES, qos=1).wait_for_publish(10)
        wait_for(lambda: venue.messages, what="the message within the limit")
        table.close()
        venue.close()
        assert [len(p) for _, p, _ in venue.messages] == [MAX_BYTES]
    finally:
        broker.stop()


def password_file(tmp: Path, user: str) -> str:
    path = tmp / f"{user}.pw"
    path.write_text(f"pw-{user}\n")
    return str(path)


@pytest.mark.parametrize("drop, knocked_off", [(None, False), ("use_username_as_clientid true", True)])
def test_a_table_using_the_dashboards_client_id_cannot_knock_the_dashboard_off(tmp_path, drop, knocked_off):
    """table-1's login connects five times with the dashboard's client id
    (``sugar-venue-corner-cafe``) while table-2 plays: with the shipped config the
    dashboard is never dropped and counts every one of table-2's events; without
    ``use_username_as_clientid`` (the second case, to show what the line stops) the
    broker drops the dashboard each time."""
    import paho.mqtt.client as mqtt

    from companion.core.clock import FakeClock
    from companion.core.events import Touch
    from companion.core.store import EventStore
    from companion.table.session import Session
    from companion.venue.dashboard import Dashboard
    from companion.venue.settings import Broker

    broker = cafe_broker(tmp_path, drop)
    dashboard = Dashboard(Broker.parse(broker.url, username="venue", password_file=password_file(tmp_path, "venue")),
                          "corner-cafe").connect()
    try:
        wait_for(dashboard.connected.is_set, what="the dashboard's connection")
        drops = []
        kept = dashboard.client.on_disconnect

        def on_disconnect(*args):
            drops.append(args)
            kept(*args)

        dashboard.client.on_disconnect = on_disconnect
        session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(0.0), resume=False)
        pub = VenuePublisher(VenueSettings.parse(broker.url, "table-2", "corner-cafe", username="table-2",
                                                 password_file=password_file(tmp_path, "table-2")), session)
        session.listeners.append(pub)
        pub.start()
        pub.connect()
        for attempt in range(5):
            impostor = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=dashboard.client_id,
                                   clean_session=False, protocol=mqtt.MQTTv311)
            impostor.username_pw_set("table-1", "pw-table-1")
            answered = []
            impostor.on_connect = lambda c, u, f, rc, p: answered.append(rc)
            impostor.connect("127.0.0.1", broker.port)
            impostor.loop_start()
            wait_for(lambda: answered, what="the broker's answer to the impostor")
            assert not answered[0].is_failure  # a table's own login: let in, under its own id
            session.handle(Touch("frobnicate", float(attempt + 1)))
            time.sleep(0.2)
            impostor.disconnect()
            impostor.loop_stop()
        pub.close(timeout=10)
        if knocked_off:
            assert drops, "the dashboard was not dropped: the test would not see the fault"
            return
        last = pub.outbox.next_seq() - 1
        wait_for(lambda: "table-2" in dashboard.tables and dashboard.tables["table-2"].last_seq == last,
                 what="every event of table-2 at the dashboard")
        assert drops == [] and dashboard.connected.is_set()
        assert dashboard.tables["table-2"].seqs == list(range(1, last + 1))
    finally:
        dashboard.close()
        broker.stop()


def test_a_table_writes_only_in_its_own_venue(tmp_path):
    """The ACL is per venue: table-1 of corner-cafe cannot write table-1 of another
    venue on the same broker, and the dashboard's user reads only its own venue."""
    broker = cafe_broker(tmp_path)
    try:
        watcher = Recorder(broker.url, "sugar/#", username="watcher", password="pw-watcher")
        venue = Recorder(broker.url, "sugar/#", username="venue", password="pw-venue")
        table = Recorder(broker.url, "nothing/at/all", username="table-1", password="pw-table-1")
        table.client.publish("sugar/river-cafe/tables/table-1/status", b"forged", qos=1).wait_for_publish(10)
        table.client.publish("sugar/corner-cafe/tables/table-1/status", b"mine", qos=1).wait_for_publish(10)
        wait_for(lambda: watcher.messages and venue.messages, what="table-1's own message")
        time.sleep(0.2)
        for r in (watcher, venue, table):
            r.close()
        assert [(t, p) for t, p, _ in watcher.messages] == [("sugar/corner-cafe/tables/table-1/status", b"mine")]
        assert [p for _, p, _ in venue.messages] == [b"mine"]
    finally:
        broker.stop()


def test_two_tables_with_one_login_are_told_so_on_their_panels_doctor_and_the_dashboard(tmp_path):
    """A café copies one table's SD card to a second Pi: both log in as table-1. With
    use_username_as_clientid the broker keeps one connection per login, so each pushes the
    other off, again and again. Each table's panel says "Venue: login in use", companion
    doctor says "another table is using this table's login" with what to do, and the
    dashboard's card for table-1 has the same words among its needs-help flags."""
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.session import Session
    from companion.venue import checks
    from companion.venue.dashboard import Dashboard
    from companion.venue.settings import Broker

    broker = cafe_broker(tmp_path)
    pw = tmp_path / "table-1.pw"
    pw.write_text("pw-table-1\n")
    vpw = tmp_path / "venue.pw"
    vpw.write_text("pw-venue\n")
    dash = Dashboard(Broker.parse(broker.url, username="venue", password_file=str(vpw)), "corner-cafe",
                     client_id="venue").connect()
    pubs, panels = [], []
    try:
        for k in range(2):  # the same config on both Pis
            store = EventStore(str(tmp_path / f"pi-{k}" / "games.db"))
            session = Session.start("sugarrr", ["Ana", "Ben"], store, FakeClock(0.0), resume=False)
            said = []
            pub = VenuePublisher(VenueSettings.parse(broker.url, "table-1", "corner-cafe", username="table-1",
                                                     password_file=str(pw)), session, report=said.append)
            session.listeners.append(pub)
            pub.start()
            pub.connect()
            pubs.append(pub)
            panels.append(said)
        # the publisher's thread sets its problem, then tells the panel: wait for both
        wait_for(lambda: all(p.problem is not None and p.problem.kind == "shared" and said
                             and said[-1].detail == "Venue: login in use" for p, said in zip(pubs, panels)),
                 timeout=30, what="both tables seeing that their login is in use, and their panels saying so")
        for pub, said in zip(pubs, panels):
            assert said[-1].detail == "Venue: login in use"
            assert "another table is using this table's login" in pub.problem.detail
            got = checks.running_table(pub.session.store.path)
            assert got[0].status == "fail" and "another table is using this table's login" in got[0].detail, got
            assert "[venue] table and user" in got[0].fix
        wait_for(lambda: "table-1" in dash.tables and "another table is using this table's login"
                 in dash.table_json("table-1")["flags"], timeout=30, what="the dashboard's card saying so")
    finally:
        for pub in pubs:
            pub.close(timeout=1)
        dash.close()
        broker.stop()


def test_a_table_alone_on_its_login_through_a_broker_restart_is_not_told_its_login_is_shared(tmp_path):
    """The words above only for a login in use twice: a table whose broker restarts (it is
    dropped once, refused a while, then taken again) hears nothing of the kind."""
    from companion.core.clock import FakeClock
    from companion.core.store import EventStore
    from companion.table.session import Session

    broker = cafe_broker(tmp_path)
    pw = tmp_path / "table-1.pw"
    pw.write_text("pw-table-1\n")
    session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(str(tmp_path / "games.db")), FakeClock(0.0),
                            resume=False)
    pub = VenuePublisher(VenueSettings.parse(broker.url, "table-1", "corner-cafe", username="table-1",
                                             password_file=str(pw)), session)
    pub.start()
    pub.connect()
    try:
        wait_for(pub.connected.is_set, what="table-1 at the broker")
        for _ in range(2):
            broker.stop()
            time.sleep(1.0)
            broker.start()
            wait_for(pub.connected.is_set, timeout=30, what="table-1 back at the broker")
        assert not pub.shared() and (pub.problem is None or pub.problem.kind != "shared")
    finally:
        pub.close(timeout=1)
        broker.stop()
