"""The dashboard's web server holds (companion/venue/server.py): 2,000 half-open and
slow-trickling connections from one client leave the page answering another within a
second; a request must arrive whole within its deadline however it trickles; idle
connections close; connections are capped per client and in all; the worker threads
are bounded; a page that stops reading its event stream is dropped, not waited for;
wrong passwords are slowed; and ``companion venue`` will not listen beyond this computer
without a password unless told ``--no-password``.

The "clients" are addresses of the loopback network (127.0.0.2, 127.0.0.3 ...: Linux
routes all of 127.0.0.0/8 to this computer), so the server tells them apart."""

from __future__ import annotations

import base64
import json
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

from companion.venue.dashboard import Dashboard
from companion.venue.server import Limits
from companion.venue.web import DashboardServer, same_password
from venue_helpers import status_msg, wait_for, wire


def serve(limits: Limits | None = None, password: str | None = None, tables: int = 2) -> DashboardServer:
    dashboard = Dashboard(None, "cafe")
    for n in range(1, tables + 1):
        dashboard.handle(f"sugar/cafe/tables/table-{n}/status", wire(status_msg(f"table-{n}")))
    server = DashboardServer(dashboard, ("127.0.0.1", 0), password=password, limits=limits)
    server.serve_in_thread()
    return server


def timed_get(url: str, timeout: float = 5.0, headers: dict | None = None) -> tuple[float, int, bytes]:
    """``(seconds, status, body)`` of one GET from 127.0.0.1."""
    start = time.monotonic()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=timeout) as r:
            return time.monotonic() - start, r.status, r.read()
    except urllib.error.HTTPError as err:
        return time.monotonic() - start, err.code, err.read()


def client_socket(source: str) -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    return s


def connect_many(port: int, source: str, n: int) -> list[socket.socket]:
    """``n`` connections from ``source``, opened without waiting for each (a flood)."""
    socks = []
    for _ in range(n):
        s = client_socket(source)
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        socks.append(s)
    return socks


def closed_by_server(s: socket.socket, timeout: float) -> bool:
    """The server ended this connection within ``timeout`` seconds (EOF or reset)."""
    s.setblocking(True)
    s.settimeout(timeout)
    try:
        return s.recv(1024) == b""
    except ConnectionResetError:
        return True
    except (TimeoutError, socket.timeout):
        return False


def test_2000_slow_connections_from_one_client_leave_the_page_answering_another_within_a_second():
    """One client (127.0.0.2) opens 2,000 connections at once: half of them send
    nothing, half trickle a request head a byte at a time. Another client's page, state
    and event stream answer within a second all along; the server keeps at most its
    per-client cap of the flood, and no more threads than its workers."""
    server = serve()
    port = server.server_address[1]
    flood: list[socket.socket] = []
    try:
        before = threading.active_count()
        flood = connect_many(port, "127.0.0.2", 2000)
        worst = 0.0
        for round_ in range(6):
            for s in flood[1::2]:  # the tricklers: one more byte each
                try:
                    s.send(b"GET / HTTP/1.1\r\nX-Slow: "[round_:round_ + 1] or b"x")
                except OSError:
                    pass  # reset by the server: over the cap
            for path in ("", "state.json"):
                took, status, body = timed_get(server.url() + path, timeout=5)
                assert status == 200, path
                worst = max(worst, took)
            time.sleep(0.1)
        assert worst < 1.0, f"the page took {worst:.2f} s during the flood"
        events = socket.create_connection(("127.0.0.1", port), timeout=2)
        start = time.monotonic()
        events.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        got = b""
        while b"event: table" not in got:
            got += events.recv(65536)
        assert time.monotonic() - start < 1.0
        events.close()
        assert server.connections("127.0.0.2") <= server.limits.per_client
        assert threading.active_count() - before <= server.limits.workers
        assert json.loads(timed_get(server.url() + "state.json")[2])["tables"][0]["table"] == "table-1"
    finally:
        for s in flood:
            s.close()
        server.stop()


def test_a_request_must_arrive_whole_within_its_deadline_however_it_trickles():
    """A keep-alive or idle timer is reset by every byte; a deadline is not: a client
    sending a byte every 0.1 s is cut off at 0.6 s all the same. An idle connection and
    a kept-alive one are closed after their idle time; a head too big is refused."""
    server = serve(Limits(request=0.6, idle=0.6, head_bytes=2048))
    port = server.server_address[1]
    try:
        trickler = client_socket("127.0.0.2")
        trickler.connect(("127.0.0.1", port))
        start, cut = time.monotonic(), None
        for byte in b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 40:
            try:
                trickler.send(bytes([byte]))
            except OSError:
                cut = time.monotonic() - start
                break
            time.sleep(0.1)
            trickler.setblocking(False)
            try:
                if trickler.recv(1) == b"":
                    cut = time.monotonic() - start
                    break
            except BlockingIOError:
                pass
            trickler.setblocking(True)
        assert cut is not None and 0.5 < cut < 1.5, cut
        silent = client_socket("127.0.0.3")
        silent.connect(("127.0.0.1", port))
        assert closed_by_server(silent, 2.0)
        kept = socket.create_connection(("127.0.0.1", port))
        kept.sendall(b"GET /state.json HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += kept.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200")
        assert closed_by_server(kept, 2.0)  # kept alive, then idle: closed
        big = socket.create_connection(("127.0.0.1", port))
        big.sendall(b"GET / HTTP/1.1\r\n" + b"X-Big: " + b"a" * 4096 + b"\r\n")
        assert big.recv(100).startswith(b"HTTP/1.1 431")
    finally:
        server.stop()


def test_connections_are_capped_per_client_and_in_all():
    server = serve(Limits(per_client=3, total=5))
    port = server.server_address[1]
    try:
        mine = [client_socket("127.0.0.2") for _ in range(4)]
        for s in mine:
            s.connect(("127.0.0.1", port))
        assert closed_by_server(mine[3], 2.0) and not closed_by_server(mine[0], 0.3)
        wait_for(lambda: server.connections() == 3, timeout=5, what="3 connections kept")
        others = [client_socket("127.0.0.3") for _ in range(3)]
        for s in others:
            s.connect(("127.0.0.1", port))
        assert closed_by_server(others[2], 2.0)  # 5 in all
        assert server.connections() == 5
        for s in mine + others:
            s.close()
        wait_for(lambda: server.connections() == 0, timeout=5, what="the closed connections let go")
        assert timed_get(server.url())[1] == 200
    finally:
        server.stop()


def test_a_page_that_stops_reading_its_events_is_dropped_and_the_others_carry_on(monkeypatch):
    """A TV whose network went away: once what waits for it passes web.BEHIND it is sent
    nothing more (what waits stays bounded), and once it has taken nothing for
    web.STALLED s it is let go; another page's stream keeps getting every change."""
    from companion.venue import web

    monkeypatch.setattr(web, "STREAM_BUFFER", 64 * 1024)
    monkeypatch.setattr(web, "BEHIND", 16 * 1024)
    monkeypatch.setattr(web, "STALLED", 2.0)
    server = serve()
    port = server.server_address[1]
    try:
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.connect(("127.0.0.1", port))
        stuck.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        live = socket.create_connection(("127.0.0.1", port), timeout=5)
        live.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        wait_for(lambda: server.streams() == 2, timeout=5, what="two streams")
        d = server.dashboard
        got = bytearray()

        def read_live():  # a page that reads all the time, on its own thread
            while True:
                try:
                    data = live.recv(1 << 20)
                except OSError:
                    return
                if not data:
                    return
                got.extend(data)

        reader = threading.Thread(target=read_live, daemon=True)
        reader.start()
        deadline = time.monotonic() + 30
        seq = 0
        while server.streams() == 2 and time.monotonic() < deadline:
            seq += 1
            name = f"table-{seq % 40 + 1}"  # (one frame sends each table once: 40 of them fill it faster)
            d.handle(f"sugar/cafe/tables/{name}/status", wire(status_msg(name, seq=seq, prompt="p" * 3000)))
            held = [s for s in server._streams if s.out]
            assert all(len(s.out) <= web.BEHIND + 40 * 4000 for s in held), "what waits for a page is not bounded"
            time.sleep(0.001)
        assert server.streams() == 1, "the page that stopped reading is still held"
        d.handle("sugar/cafe/tables/table-99/status", wire(status_msg("table-99", seq=7, prompt="still live")))
        wait_for(lambda: b"still live" in got, timeout=10, what="the page that reads getting the next change")
        stuck.close()
        live.close()
    finally:
        server.stop()


def basic(password: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"host:{password}".encode()).decode()}


def test_wrong_passwords_are_slowed_and_a_right_one_clears_them():
    """After 3 wrong passwords from one address, the next is not even checked until its
    wait is over (429, Retry-After), right or wrong; another address is not slowed; once
    the wait is over the right one opens the page and the count starts again."""
    server = serve(password="sugar")
    try:
        url = server.url() + "state.json"
        assert timed_get(url)[1] == 401  # no password given: asked for, not counted
        for _ in range(3):
            assert timed_get(url, headers=basic("guess"))[1] == 401
        took, status, body = timed_get(url, headers=basic("sugar"))
        assert status == 429 and b"try again in 1 second." in body
        server.logins.passed("elsewhere")
        assert server.logins.wait("127.0.0.2") == 0.0
        time.sleep(1.05)
        assert timed_get(url, headers=basic("sugar"))[1] == 200
        assert server.logins.wait("127.0.0.1") == 0.0
    finally:
        server.stop()


def test_passwords_are_compared_in_constant_time():
    """By their SHA-256 digests with hmac.compare_digest: no early exit on the first
    different character, nor on a different length."""
    import inspect

    from companion.venue import web

    assert same_password("sugar", "sugar") and not same_password("sugar", "sugars")
    assert not same_password("", "sugar") and same_password("ü\ud800", "ü\ud800")
    assert "hmac.compare_digest(hashlib.sha256" in inspect.getsource(web.same_password)


@pytest.mark.parametrize("argv, ok", [
    (["--listen", "0.0.0.0:{port}"], False),
    (["--listen", "[::]:{port}"], False),
    (["--listen", "cafe-pi.local:{port}"], False),
    (["--listen", "0.0.0.0:{port}", "--no-password"], True),
    (["--listen", "127.0.0.1:{port}"], True),
    (["--listen", "localhost:{port}"], True),
    (["--listen", "0.0.0.0:{port}", "--no-password", "--password-file", "{pw}"], False),
])
def test_the_dashboard_listens_beyond_this_computer_only_with_a_password_or_on_purpose(argv, ok, tmp_path):
    import os
    import signal
    import subprocess
    import sys

    from venue_helpers import free_port

    (tmp_path / "pw").write_text("sugar\n")
    argv = [a.format(port=free_port(), pw=tmp_path / "pw") for a in argv]
    proc = subprocess.Popen([sys.executable, "-m", "companion", "venue", "--broker", "mqtt://127.0.0.1:1", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "XDG_DATA_HOME": str(tmp_path)})
    try:
        if ok:
            line = proc.stdout.readline()
            assert "dashboard is on" in line
            assert ("no password: anyone on the network" in line) == ("--no-password" in argv)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=20) == 0
        else:
            assert proc.wait(timeout=20) == 2
            err = proc.stderr.read().strip().splitlines()
            assert len(err) == 1 and err[0].startswith("companion: "), err
            assert "--password-file" in err[0]
    finally:
        if proc.poll() is None:
            proc.kill()
