"""``companion doctor``'s venue checks (companion/venue/checks.py) against a real
Mosquitto with the shipped café config: broker reachable, TLS verified, login accepted,
own topics writable (a QoS 1 probe), the service's network drop-in, the outbox length;
each failure in words a café host reads."""

from __future__ import annotations

import json
import time

from companion.core.store import EventStore
from companion.venue import unit as venue_unit
from companion.service.config import parse
from companion.venue.checks import check_network, check_venue, link_file
from companion.venue.outbox import Outbox
from companion.venue.settings import Broker
from test_venue_acl import cafe_broker
from test_venue_tls import make_certificates
from venue_helpers import Mosquitto, free_port


def config(tmp_path, url: str, table: str = "table-1", user: str | None = "table-1", password: str | None = None,
           ca=None) -> dict:
    venue = {"broker": url, "table": table, "name": "corner-cafe"}
    if user:
        venue["user"] = user
    if password is not None:
        pw = tmp_path / f"{table}-{user}.pw"
        pw.write_text(password + "\n")
        venue["password_file"] = str(pw)
    if ca is not None:
        venue["ca_file"] = str(ca)
    return parse({"venue": venue}, "test.toml")


def by_name(checks) -> dict:
    return {c.name: c for c in checks}


def run(tmp_path, cfg, **kw) -> dict:
    return by_name(check_venue(cfg, str(tmp_path / "table.db"), tmp_path, unit_installed=False, **kw))


def test_no_venue_says_nothing(tmp_path):
    assert check_venue(parse({}, "x"), str(tmp_path / "table.db"), tmp_path) == []


def test_everything_right_at_the_cafe_broker(tmp_path):
    broker = cafe_broker(tmp_path)
    try:
        checks = run(tmp_path, config(tmp_path, broker.url, password="pw-table-1"))
    finally:
        broker.stop()
    assert checks["Venue broker"].status == "ok"
    assert checks["Venue login"].status == "ok", checks["Venue login"]
    assert checks["Venue writes"].status == "ok", checks["Venue writes"]
    assert "QoS 1" in checks["Venue writes"].detail
    assert checks["Venue outbox"].status == "ok"


def test_a_wrong_password_fails_the_login_in_words(tmp_path):
    broker = cafe_broker(tmp_path)
    try:
        checks = run(tmp_path, config(tmp_path, broker.url, password="wrong"))
    finally:
        broker.stop()
    login = checks["Venue login"]
    assert login.status == "fail" and "refused this table's login as table-1" in login.detail
    assert "password_file" in login.fix and "Venue writes" not in checks


def test_a_login_the_acl_does_not_let_write_the_tables_topics(tmp_path):
    """table-2's login at table-1: the broker takes the login, and refuses the probe."""
    broker = cafe_broker(tmp_path)
    try:
        checks = run(tmp_path, config(tmp_path, broker.url, user="table-2", password="pw-table-2"))
    finally:
        broker.stop()
    assert checks["Venue login"].status == "ok"
    writes = checks["Venue writes"]
    assert writes.status == "fail" and "does not let the user table-2 write sugar/corner-cafe/probe/table-1" in \
        writes.detail
    assert "must be its table name (table-1)" in writes.fix


def test_no_broker_is_said_and_the_rest_not_tried(tmp_path):
    checks = run(tmp_path, config(tmp_path, f"mqtt://127.0.0.1:{free_port()}", password="x"))
    assert checks["Venue broker"].status == "fail" and "nothing answers at 127.0.0.1:" in checks["Venue broker"].detail
    assert "sudo systemctl start mosquitto" in checks["Venue broker"].fix
    assert checks["Venue login"].status == "skip"


def test_a_wrong_ca_fails_the_tls_check(tmp_path):
    (tmp_path / "cafe").mkdir()
    (tmp_path / "other").mkdir()
    ca, cert, key = make_certificates(tmp_path / "cafe")
    wrong, _, _ = make_certificates(tmp_path / "other")
    port = free_port()
    broker = Mosquitto(tmp_path / "broker", port=port, base=f"listener {port} 127.0.0.1\nallow_anonymous true\n"
                                                           f"certfile {cert}\nkeyfile {key}").start()
    url = f"mqtts://127.0.0.1:{port}"
    try:
        bad = run(tmp_path, config(tmp_path, url, user=None, ca=wrong))
        good = run(tmp_path, config(tmp_path, url, user=None, ca=ca))
    finally:
        broker.stop()
    assert bad["Venue TLS"].status == "fail" and "not one the café's CA signed" in bad["Venue TLS"].detail
    assert "ca_file" in bad["Venue TLS"].fix and bad["Venue login"].status == "skip"
    assert good["Venue TLS"].status == "ok" and good["Venue login"].status == "ok"


def test_the_running_table_is_asked_not_logged_in_twice(tmp_path):
    """While the service runs the doctor does not log in (the broker gives a login one
    connection at a time): it reads what the table's publisher wrote."""
    broker = Mosquitto(tmp_path / "broker").start()
    store = tmp_path / "table.db"
    tried = []
    try:
        link_file(store).write_text(json.dumps({"status": "disconnected", "at": time.time(), "kind": "login",
                                                "detail": "the broker refused this table's login as table-1",
                                                "fix": "check [venue] user"}))
        checks = by_name(check_venue(config(tmp_path, broker.url, user=None), str(store), tmp_path,
                                     service_running=True, unit_installed=False, probe=tried.append))
    finally:
        broker.stop()
    assert not tried
    assert checks["Venue link"].status == "fail" and "refused this table's login" in checks["Venue link"].detail
    link_file(store).write_text(json.dumps({"status": "connected", "at": time.time()}))
    broker = Mosquitto(tmp_path / "broker2").start()
    try:
        checks = by_name(check_venue(config(tmp_path, broker.url, user=None), str(store), tmp_path,
                                     service_running=True, unit_installed=False, probe=tried.append))
    finally:
        broker.stop()
    assert not tried and checks["Venue login"].status == "ok" and checks["Venue writes"].status == "ok"


def test_the_service_network_and_the_outbox_length(tmp_path):
    broker = Mosquitto(tmp_path / "broker").start()
    store = EventStore(str(tmp_path / "table.db"))
    box = Outbox(store)
    box.put([("sugar/corner-cafe/tables/table-1/events", {"seq": n}, 1, False) for n in range(12)], seq=12)
    store.close()
    cfg = config(tmp_path, broker.url, user=None)
    folder = tmp_path / venue_unit.DROPIN_DIR.lstrip("/")
    folder.mkdir(parents=True)
    (folder / "no-network.conf").write_text(venue_unit.NO_NETWORK)
    try:
        closed = by_name(check_venue(cfg, str(tmp_path / "table.db"), tmp_path, unit_installed=True))
        (folder / "no-network.conf").unlink()
        (folder / "venue-network.conf").write_text(venue_unit.dropin_text(broker.url, ["127.0.0.1"], "x"))
        right = by_name(check_venue(cfg, str(tmp_path / "table.db"), tmp_path, unit_installed=True))
    finally:
        broker.stop()
    assert closed["Venue network"].status == "fail" and "no-network.conf" in closed["Venue network"].detail
    assert closed["Venue network"].fix.startswith("sudo companion venue enable")
    assert right["Venue network"].status == "ok"
    assert right["Venue outbox"].detail.startswith("12 message(s) waiting for the broker")
    # A broker whose address is not the one `companion venue enable` pinned (a new DHCP lease).
    (folder / "venue-network.conf").write_text(venue_unit.dropin_text("mqtt://192.168.1.7", ["192.168.1.20"], "x"))
    moved = check_network(Broker("192.168.1.7", 1883), tmp_path, True)
    assert moved.status == "fail" and "192.168.1.7 now, which the service may not reach" in moved.detail
    assert "fixed address" in moved.fix
