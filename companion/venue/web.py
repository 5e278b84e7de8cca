"""The café's dashboard page: one live web page over the standard library's HTTP server.

``GET /`` is the page (readable on a phone and on a TV across the room); it follows
``GET /events``, server-sent events: ``table`` (one table's JSON, see
:meth:`Dashboard.table_json`) whenever that table changes, ``finished`` (the finished
games) and ``broker`` (is the dashboard connected). ``GET /state.json`` is everything at
once; ``GET /history.csv`` and ``GET /history.bgsplay`` the café's finished games as CSV
and as a Board Game Stats file (written by the exporters the caller passes: the same
code as ``companion history``). With a password every request needs HTTP basic auth
(any user name).
"""

from __future__ import annotations

import base64
import hmac
import io
import json
import logging
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

from .dashboard import Dashboard

_log = logging.getLogger(__name__)

#: Seconds between keep-alive comments on an idle event stream (also how soon a closed
#: page is noticed).
PING = 15.0
#: The page (HTML, CSS and the script that follows /events), shipped beside this module.
PAGE = (Path(__file__).parent / "page.html").read_text(encoding="utf-8")


class DashboardServer(ThreadingHTTPServer):
    """The page's HTTP server for ``dashboard`` on ``(host, port)`` (port 0: any free one).

    ``exports``: ``{"csv": fn(records, out), "bgstats": fn(records) -> dict}`` where
    ``records`` are ``(table, GameRecord)`` pairs. ``password``: required with any user
    name (HTTP basic auth), None for none. Raises OSError when the address is taken."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, dashboard: Dashboard, address: tuple[str, int], exports: dict[str, Callable] | None = None,
                 password: str | None = None, title: str | None = None):
        super().__init__(address, _Handler)
        self.dashboard = dashboard
        self.exports = exports or {}
        self.password = password
        self.title = title or dashboard.venue
        self.stopping = threading.Event()

    def url(self) -> str:
        """The page's address, ``http://HOST:PORT/``."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def serve_in_thread(self) -> threading.Thread:
        """Serve on a daemon thread (tests, benches); :meth:`stop` ends it."""
        thread = threading.Thread(target=self.serve_forever, name="venue-web", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        """Close the event streams and the server."""
        self.stopping.set()
        with self.dashboard.changed:
            self.dashboard.changed.notify_all()
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: DashboardServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # a page that polls would fill the journal

    def _allowed(self) -> bool:
        password = self.server.password
        if not password:
            return True
        header = self.headers.get("Authorization", "")
        if header.startswith("Basic "):
            try:
                given = base64.b64decode(header[6:]).decode("utf-8").partition(":")[2]
            except (ValueError, UnicodeDecodeError):
                given = ""
            if hmac.compare_digest(given.encode(), password.encode()):
                return True
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="Sugar venue dashboard", charset="UTF-8"')
        self.send_header("Content-Length", "0")
        self.end_headers()
        return False

    def _send(self, body: bytes, kind: str, name: str | None = None, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if name:
            self.send_header("Content-Disposition", f'attachment; filename="{name}"')
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
        """What GET would answer, headers only (a link checker, ``curl -I``); the live
        event stream answers with its headers and ends."""
        if not self._allowed():
            return
        if self.path.split("?")[0] == "/events":
            self._send(b"", "text/event-stream")
            return
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if not self._allowed():
            return
        path = self.path.split("?")[0]
        d = self.server.dashboard
        if path == "/":
            self._send(PAGE.replace("{{TITLE}}", _html(self.server.title)).encode(), "text/html; charset=utf-8")
        elif path == "/events":
            self._stream()
        elif path == "/state.json":
            body = {"tables": [d.table_json(n) for n in sorted(d.tables)], "finished": d.finished(),
                    "broker": d.connected.is_set(), "notices": d.notices()}
            self._send(json.dumps(body).encode(), "application/json")
        elif path == "/history.csv" and "csv" in self.server.exports:
            out = io.StringIO()
            self.server.exports["csv"](d.records(), out)
            self._send(out.getvalue().encode(), "text/csv; charset=utf-8", f"{d.venue}-history.csv")
        elif path == "/history.bgsplay" and "bgstats" in self.server.exports:
            body = json.dumps(self.server.exports["bgstats"](d.records()), ensure_ascii=False, indent=1)
            self._send(body.encode(), "application/json", f"{d.venue}.bgsplay")
        else:
            self._send(b"not found\n", "text/plain", status=404)

    def _stream(self) -> None:
        d = self.server.dashboard
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        seen: dict[str, int] = {}
        results, broker, notices = -1, None, None
        last_write = time.monotonic()
        try:
            while not self.server.stopping.is_set():
                with d.changed:
                    changed = [n for n, t in d.tables.items() if t.version > seen.get(n, -1)]
                    if not changed and len(d.results) == results and d.connected.is_set() == broker:
                        d.changed.wait(timeout=1.0)
                        changed = [n for n, t in d.tables.items() if t.version > seen.get(n, -1)]
                    versions = {n: d.tables[n].version for n in changed}
                chunks = []
                for name in sorted(changed):
                    seen[name] = versions[name]
                    chunks.extend(_table_event(d, name))
                if d.notices() != notices:
                    notices = d.notices()
                    chunks.append(f"event: venue\ndata: {json.dumps({'notices': notices})}\n\n")
                if len(d.results) != results:
                    results = len(d.results)
                    chunks.append(f"event: finished\ndata: {json.dumps(d.finished())}\n\n")
                if d.connected.is_set() != broker:
                    broker = d.connected.is_set()
                    chunks.append(f"event: broker\ndata: {json.dumps(broker)}\n\n")
                if not chunks and time.monotonic() - last_write > PING:
                    chunks.append(": still here\n\n")
                if chunks:
                    self.wfile.write("".join(chunks).encode())
                    self.wfile.flush()
                    last_write = time.monotonic()
        except (BrokenPipeError, ConnectionResetError):
            return


def _table_event(d: Dashboard, name: str) -> list[str]:
    """One table's ``table`` event (none, logged, if it cannot be drawn: every message was
    checked on the way in, so that is a bug here, and it must not stop the other tables)."""
    try:
        return [f"event: table\ndata: {json.dumps(d.table_json(name))}\n\n"]
    except Exception:
        _log.exception("venue: %s could not be drawn", name)
        return []


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
