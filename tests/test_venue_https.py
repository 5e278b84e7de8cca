"""HTTPS for the dashboard (``companion venue --cert/--key``): the hardened server
(companion/venue/server.py) does the TLS handshake in its reception loop without
blocking, within the request deadline. A self-signed certificate made with openssl."""

from __future__ import annotations

import base64
import shutil
import socket
import ssl
import subprocess
import time
import urllib.request

import pytest

from companion.venue.dashboard import Dashboard
from companion.venue.server import Limits, tls_context
from companion.venue.web import DashboardServer
from venue_helpers import status_msg, wait_for, wire


@pytest.fixture
def cert(tmp_path):
    """A self-signed certificate for 127.0.0.1 and its key (PEM)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl here to make the test certificate")
    key, crt = tmp_path / "page.key", tmp_path / "page.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(crt),
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return crt, key


def serve(cert, password=None, limits=None) -> DashboardServer:
    dashboard = Dashboard(None, "cafe")
    dashboard.handle("sugar/cafe/tables/table-1/status", wire(status_msg("table-1")))
    server = DashboardServer(dashboard, ("127.0.0.1", 0), password=password, limits=limits)
    server.use_tls(tls_context(str(cert[0]), str(cert[1])))
    server.serve_in_thread()
    return server


def trusting(cert) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(cert[0]))
    return context


def get(url: str, cert, headers=None, timeout=5.0):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=trusting(cert)) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def test_the_page_state_and_event_stream_over_https(cert):
    server = serve(cert)
    try:
        url = server.url()
        assert url.startswith("https://127.0.0.1:")
        status, body = get(url, cert)
        assert status == 200 and b"<html" in body.lower()
        status, body = get(url + "state.json", cert)
        assert status == 200 and b"table-1" in body
        # The event stream (a socket the feeder writes without blocking, through TLS).
        raw = socket.create_connection(server.server_address[:2], timeout=5)
        tls = trusting(cert).wrap_socket(raw, server_hostname="127.0.0.1")
        tls.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        got = b""
        deadline = time.monotonic() + 10
        while b"table-1" not in got and time.monotonic() < deadline:
            got += tls.recv(65536)
        assert b"200" in got.split(b"\r\n", 1)[0] and b"text/event-stream" in got and b"table-1" in got
        tls.close()
    finally:
        server.stop()


def test_the_password_over_https(cert):
    server = serve(cert, password="sugar")
    try:
        assert get(server.url(), cert)[0] == 401
        auth = {"Authorization": "Basic " + base64.b64encode(b"any:sugar").decode()}
        assert get(server.url(), cert, headers=auth)[0] == 200
    finally:
        server.stop()


def test_plain_http_to_the_https_port_is_dropped_and_holds_nothing(cert):
    server = serve(cert)
    try:
        s = socket.create_connection(server.server_address[:2], timeout=5)
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        s.settimeout(5)
        try:
            answer = s.recv(1024)
        except ConnectionResetError:
            answer = b""
        assert b"HTTP/1.1 200" not in answer and b"<html" not in answer.lower()  # a TLS alert or nothing
        s.close()
        wait_for(lambda: server.connections() == 0, 5, what="the plain connection let go")
        assert get(server.url(), cert)[0] == 200  # and the page answers others
    finally:
        server.stop()


def test_a_trickled_handshake_is_cut_off_at_the_request_deadline(cert):
    """The deadline covers the TLS handshake: a client sending its ClientHello a byte at a
    time is closed like one trickling its request head."""
    server = serve(cert, limits=Limits(request=1.0))
    try:
        s = socket.create_connection(server.server_address[:2], timeout=5)
        start = time.monotonic()
        closed = False
        hello = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 200
        for byte in hello:
            try:
                s.send(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.05)
            if time.monotonic() - start > 4:
                break
        if not closed:
            s.settimeout(2)
            try:
                closed = s.recv(1024) == b""
            except (ConnectionResetError, BrokenPipeError):
                closed = True
            except (TimeoutError, socket.timeout):
                closed = False
        assert closed and time.monotonic() - start < 4.5
        assert server.connections() == 0
    finally:
        server.stop()


def test_companion_venue_refuses_a_key_without_its_certificate(tmp_path, capsys, cert):
    from companion.cli import main

    assert main(["venue", "--broker", "mqtt://127.0.0.1:1", "--key", str(cert[1])]) == 2
    assert "give both" in capsys.readouterr().err
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate\n")
    assert main(["venue", "--broker", "mqtt://127.0.0.1:1", "--cert", str(bad)]) == 2
    assert "cannot use the certificate" in capsys.readouterr().err
