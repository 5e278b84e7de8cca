"""The café's Mosquitto config (hardware/mosquitto/) in a real broker: no anonymous
clients; each table writes only its own topics; the dashboard's user reads them all."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.venue.publish import VenuePublisher
from companion.venue.settings import VenueSettings
from venue_helpers import Mosquitto, Recorder, free_port, wait_for

HERE = Path(__file__).resolve().parent.parent / "hardware" / "mosquitto"


def cafe_broker(tmp: Path) -> Mosquitto:
    passwd = shutil.which("mosquitto_passwd")
    if passwd is None:
        pytest.skip("no mosquitto_passwd (Debian package mosquitto): the café config's passwords cannot be made")
    users = tmp / "sugar-cafe.passwd"
    users.write_text("")
    for user in ("venue", "table-1", "table-2"):
        subprocess.run([passwd, "-b", str(users), user, f"pw-{user}"], check=True)
    acl = tmp / "sugar-cafe.acl"
    shutil.copy(HERE / "sugar-cafe.acl", acl)
    conf = (HERE / "sugar-cafe.conf").read_text()
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
        pub.connect()
        forger = Recorder(broker.url, "nothing/at/all", username="table-1", password="pw-table-1")
        forger.client.publish("sugar/corner-cafe/tables/table-2/status", b'{"forged": true}', qos=1).wait_for_publish()
        session.handle(Touch("done", 1.0))
        pub.close(timeout=10)
        wait_for(lambda: any(t.endswith("table-1/events") for t, _, _ in venue.messages), what="table-1's event")
        forger.close()
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
