"""Beyond one café: a café's broker bridges its tables to a league's broker with
Mosquitto's own bridge (the shipped hardware/mosquitto/sugar-league-bridge.conf), the
league's broker runs the shipped sugar-league.conf and ACL, and a game played at the café
reaches the league dashboard's page, every event once. Two real mosquitto processes on
free ports; no relay of ours."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from companion.venue.dashboard import Dashboard
from companion.venue.settings import Broker
from companion.venue.web import DashboardServer
from venue_helpers import Mosquitto, Recorder, free_port, play_table, wait_for

HERE = Path(__file__).resolve().parent.parent / "hardware" / "mosquitto"
DATA = Path(__file__).parent / "data"


def league_broker(tmp: Path) -> Mosquitto:
    """The shipped league config and ACL, with the test's port and files; users ``league``
    (the dashboard) and ``corner-cafe`` (that café's bridge)."""
    passwd = shutil.which("mosquitto_passwd")
    if passwd is None:
        pytest.skip("no mosquitto_passwd (Debian package mosquitto): the league's passwords cannot be made")
    users = tmp / "sugar-league.passwd"
    users.write_text("")
    for user in ("league", "corner-cafe", "river-cafe"):
        subprocess.run([passwd, "-b", str(users), user, f"pw-{user}"], check=True)
    acl = tmp / "sugar-league.acl"
    acl.write_text((HERE / "sugar-league.acl").read_text())
    port = free_port()
    conf = (HERE / "sugar-league.conf").read_text().replace("listener 1883", f"listener {port} 127.0.0.1")
    conf = conf.replace("/etc/mosquitto/sugar-league.passwd", str(users)).replace("/etc/mosquitto/sugar-league.acl",
                                                                                    str(acl))
    conf = re.sub(r"(?m)^(autosave_interval|persistence) .*$", "", conf)  # the helper sets its own
    return Mosquitto(tmp / "league", port=port, base=conf, extra="log_type notice").start()


def bridged_cafe(tmp: Path, league: Mosquitto) -> Mosquitto:
    """A café's broker (anonymous, as the other venue tests' are) with the shipped bridge
    config pointed at ``league``."""
    bridge = (HERE / "sugar-league-bridge.conf").read_text()
    bridge = bridge.replace("address league.example.org:1883", f"address 127.0.0.1:{league.port}")
    bridge = bridge.replace("remote_password CHANGE-ME", "remote_password pw-corner-cafe")
    bridge = bridge.replace("restart_timeout 2 30", "restart_timeout 1 2")  # reconnects at test speed
    assert "connection sugar-league" in bridge and "topic sugar/corner-cafe/tables/+/events out 1" in bridge
    return Mosquitto(tmp / "cafe", extra=bridge).start()


def test_a_game_at_a_cafe_reaches_the_league_page_through_mosquittos_bridge(tmp_path):
    league = league_broker(tmp_path)
    cafe = None
    dashboard = server = None
    try:
        url = Broker.parse(league.url, username="league", password_file=str(_pw(tmp_path, "league")))
        dashboard = Dashboard(url, "league", league=("corner-cafe", "river-cafe"), store=tmp_path / "league.db")
        dashboard.connect()
        wait_for(dashboard.connected.is_set, what="the league dashboard's connection")
        server = DashboardServer(dashboard, ("127.0.0.1", 0), title="The Sugar League")
        server.serve_in_thread()
        cafe = bridged_cafe(tmp_path, league)
        wait_for(lambda: _bridged(league), timeout=10, what="the café's bridge at the league's broker")
        heard = Recorder(cafe.url, "sugar/corner-cafe/tables/+/resend")
        runner, pub = play_table(DATA / "sugarrr-family.trace", cafe.url, "table-1", str(tmp_path / "t.db"),
                                 venue="corner-cafe")
        total = pub.outbox.next_seq() - 1
        name = "corner-cafe/table-1"
        wait_for(lambda: name in dashboard.tables and dashboard.tables[name].last_seq == total
                 and dashboard.finished(), timeout=20, what="the game at the league dashboard")
        assert dashboard.tables[name].seqs == list(range(1, total + 1))   # every event once, in order
        state = json.loads(urllib.request.urlopen(server.url() + "state.json", timeout=5).read())
        card, = state["tables"]
        assert card["table"] == name and card["over"] and card["winners"] == ["Mum"] and card["missing"] == []
        assert [(g["table"], g["winners"]) for g in state["finished"]] == [(name, ["Mum"])]
        page = urllib.request.urlopen(server.url(), timeout=5).read().decode()
        assert "The Sugar League" in page
        # another café's login cannot write this café's tables at the league
        river = Recorder(league.url, "nothing", username="river-cafe", password="pw-river-cafe")
        river.client.publish("sugar/corner-cafe/tables/table-1/status", b"forged", qos=1).wait_for_publish()
        river.client.publish("sugar/river-cafe/tables/table-9/status", b"its own", qos=1).wait_for_publish()
        wait_for(lambda: "river-cafe/table-9" in dashboard.tables, what="river-cafe's own (unreadable) message")
        assert dashboard.tables[name].unreadable == 0 and dashboard.tables["river-cafe/table-9"].unreadable == 1
        # the league dashboard's requests to send again go the other way, into the café
        dashboard.client.publish("sugar/corner-cafe/tables/table-1/resend", b"league asks", qos=1).wait_for_publish()
        wait_for(lambda: heard.messages, timeout=10, what="the league's request at the café")
        for r in (heard, river):
            r.close()
    finally:
        if server is not None:
            server.stop()
        if dashboard is not None:
            dashboard.close()
        if cafe is not None:
            cafe.stop()
        league.stop()


def _pw(tmp: Path, user: str) -> Path:
    path = tmp / f"{user}.pw"
    path.write_text(f"pw-{user}\n")
    return path


def _bridged(league: Mosquitto) -> bool:
    """The league's broker logged the café's bridge connecting (its client id is its login)."""
    return " as corner-cafe " in (league.folder / "mosquitto.log").read_text()
