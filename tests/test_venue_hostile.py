"""Hostile messages through a real Mosquitto to the café's page in a real headless browser:
every wrong type the schemas refuse (tests/test_venue_schema.py:hostile), 10 MB, deeply
nested, not JSON, not UTF-8, sent on table 3's topics and on a good table's own, leave
every other table's card live; the page says how many each table sent, in words, and
shows none of them. The same after the dashboard restarts: the retained hostile status
and result, hostile events queued for it while it was away, and bad lines in its
``--history`` file."""

from __future__ import annotations

import json

import paho.mqtt.client as mqtt

from companion.venue.dashboard import Dashboard
from companion.venue.settings import Broker
from companion.venue.web import DashboardServer
from venue_helpers import browser, hostile, result_msg, status_msg, wait_for, wire  # noqa: F401 - a fixture

VENUE = "hostile-cafe"


class Sender:
    """A plain MQTT client (the test broker lets anyone in) that waits for each QoS 1
    publish to be acknowledged."""

    def __init__(self, port: int):
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def send(self, table: str, aspect: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(f"sugar/{VENUE}/tables/{table}/{aspect}", payload, qos=1, retain=retain).wait_for_publish(30)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def good_status(table: str, seq: int, prompt: str) -> bytes:
    return wire(status_msg(table, VENUE, seq=seq, prompt=prompt, stream=f"s-{table}"))


def cards(page) -> dict[str, str]:
    from selenium.webdriver.common.by import By

    return {c.get_attribute("data-table"): c.text for c in page.find_elements(By.CSS_SELECTOR, "section.table")}


def start(mosquitto, history) -> tuple[Dashboard, DashboardServer]:
    dashboard = Dashboard(Broker.parse(mosquitto.url), VENUE, history=history, client_id="dash-hostile").connect()
    server = DashboardServer(dashboard, ("127.0.0.1", 0))
    server.serve_in_thread()
    wait_for(dashboard.connected.is_set, what="the dashboard's connection")
    return dashboard, server


def test_hostile_messages_leave_every_other_table_live_also_after_a_restart(mosquitto, tmp_path, browser):
    """Some 60 hostile messages (two of them 10 MB) through the broker, two dashboard
    starts, the browser following each (about 2 s)."""
    from selenium.webdriver.common.by import By

    history = tmp_path / "history.jsonl"
    kept = (json.dumps(result_msg("table-2", VENUE, game_id=7)) + "\n"
            + json.dumps({**result_msg("table-3", VENUE), "players": ["HOSTILE"]}) + "\nHOSTILE {\n")
    history.write_text(kept)  # one good game, and two lines an older dashboard wrote
    sender = Sender(mosquitto.port)
    dashboard, server = start(mosquitto, history)
    try:
        for table in ("table-1", "table-2"):
            sender.send(table, "status", good_status(table, 1, f"{table}: before"), retain=True)
        browser.get(server.url())
        wait_for(lambda: all(f"{t}: before" in cards(browser).get(t, "") for t in ("table-1", "table-2")),
                 what="both good tables on the page")
        cases = hostile()
        for what, aspect, payload in cases:  # table 3: all at once, some retained (they outlive a restart)
            sender.send("table-3", aspect, payload, retain=aspect in ("status", "result"))
        own = [(aspect, payload.replace(b"table-3", b"table-1")) for what, aspect, payload in cases
               if what != "another table's name inside"]
        for aspect, payload in own:  # and on a good table's own topic (not retained: it keeps its status)
            sender.send("table-1", aspect, payload)
        for table in ("table-1", "table-2"):  # the good tables, after the storm
            sender.send(table, "status", good_status(table, 2, f"{table}: after"), retain=True)
        wait_for(lambda: all(f"{t}: after" in cards(browser).get(t, "") for t in ("table-1", "table-2")),
                 what="both good tables live after the hostile messages")
        wait_for(lambda: f"Table 3 sent {len(cases)} unreadable messages" in cards(browser).get("table-3", ""),
                 what="table 3's unreadable messages counted on its card")
        text = browser.find_element(By.TAG_NAME, "body").text
        assert f"Table 1 sent {len(own)} unreadable messages" in text
        assert "1 line of the history file was not a finished game" not in text
        assert "2 lines of the history file were not a finished game (left out)" in text
        assert "HOSTILE" not in text and history.read_text() == kept  # nothing hostile kept
        assert dashboard.tables["table-3"].status == {} and "Needs help" not in text
        # the dashboard restarts: retained hostile messages come again, and so do events queued while it was away
        server.stop()
        dashboard.close()
        for what, aspect, payload in cases[:5]:
            sender.send("table-3", "events", payload)
        dashboard, server = start(mosquitto, history)
        browser.get(server.url())
        retained = 2  # table 3's last status and last result, both hostile
        wait_for(lambda: all(f"{t}: after" in cards(browser).get(t, "") for t in ("table-1", "table-2")),
                 what="both good tables after the restart")
        wait_for(lambda: f"Table 3 sent {retained + 5} unreadable messages" in cards(browser).get("table-3", ""),
                 what="the retained and queued hostile messages counted again")
        sender.send("table-2", "status", good_status("table-2", 3, "table-2: live again"), retain=True)
        wait_for(lambda: "table-2: live again" in cards(browser).get("table-2", ""), what="table 2 live after a restart")
        text = browser.find_element(By.TAG_NAME, "body").text
        assert "HOSTILE" not in text and "2 lines of the history file" in text
        assert [g["table"] for g in dashboard.finished()] == ["table-2"]
    finally:
        server.stop()
        dashboard.close()
        for table in ("table-1", "table-2", "table-3"):  # leave the shared broker clean of this test's retained ones
            for aspect in ("status", "result"):
                sender.send(table, aspect, b"", retain=True)
        sender.close()
