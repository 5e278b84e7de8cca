"""mqtts://: a table and the dashboard reach a Mosquitto TLS listener, checking its
certificate against the café's CA file (made here with openssl)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from companion.core.clock import FakeClock
from companion.core.events import Touch
from companion.core.store import EventStore
from companion.table.session import Session
from companion.venue.dashboard import Dashboard
from companion.venue.publish import VenuePublisher
from companion.venue.settings import Broker, VenueSettings
from venue_helpers import Mosquitto, free_port, wait_for


def make_certificates(folder):
    """A CA and a broker certificate for 127.0.0.1 signed by it (PEM files)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl here to make the test certificates")

    def run(*args):
        subprocess.run([openssl, *args], check=True, capture_output=True)

    ca_key, ca, key, csr, cert = (folder / n for n in ("ca.key", "ca.pem", "broker.key", "broker.csr", "broker.pem"))
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(ca_key), "-out", str(ca), "-days", "2",
        "-subj", "/CN=Corner Cafe CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    ext = folder / "san.ext"
    ext.write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial", "-out", str(cert),
        "-days", "2", "-extfile", str(ext))
    return ca, cert, key


def test_a_table_publishes_over_tls_to_the_dashboard(tmp_path):
    ca, cert, key = make_certificates(tmp_path)
    port = free_port()
    broker = Mosquitto(tmp_path / "broker", port=port, base=f"listener {port} 127.0.0.1\nallow_anonymous true\n"
                                                           f"cafile {ca}\ncertfile {cert}\nkeyfile {key}").start()
    url = f"mqtts://127.0.0.1:{port}"
    dashboard = Dashboard(Broker.parse(url, ca_file=str(ca)), "tls", client_id="dash-tls").connect()
    try:
        wait_for(dashboard.connected.is_set, what="the dashboard over TLS")
        session = Session.start("sugarrr", ["Ana", "Ben"], EventStore(":memory:"), FakeClock(0.0), resume=False)
        pub = VenuePublisher(VenueSettings.parse(url, "t1", "tls", ca_file=str(ca)), session)
        session.listeners.append(pub)
        pub.start()
        pub.connect()
        session.handle(Touch("frobnicate", 1.0))
        wait_for(lambda: "t1" in dashboard.tables and dashboard.tables["t1"].last_seq == 1, what="the event over TLS")
        pub.close(timeout=10)
        assert dashboard.tables["t1"].recent[0]["verdict"] == "rejected"
    finally:
        dashboard.close()
        broker.stop()


def test_a_ca_file_needs_mqtts(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("x")
    with pytest.raises(ValueError, match="mqtts://"):
        VenueSettings.parse("mqtt://127.0.0.1", "t1", ca_file=str(ca))
    with pytest.raises(ValueError, match="does not exist"):
        VenueSettings.parse("mqtts://127.0.0.1", "t1", ca_file=str(tmp_path / "none.pem"))
