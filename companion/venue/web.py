"""The café's dashboard page: one live web page, served by :mod:`companion.venue.server`.

``GET /`` is the page (readable on a phone and on a TV across the room); it follows
``GET /events``, server-sent events: ``table`` (one table's JSON, see
:meth:`Dashboard.table_json`) whenever that table changes, ``finished`` (the finished
games), ``broker`` (is the dashboard connected) and ``venue`` (notices about the dashboard
itself). ``GET /state.json`` is everything at once; ``GET /history.csv`` and
``GET /history.bgsplay`` the café's finished games as CSV and as a Board Game Stats file
(written by the exporters the caller passes: the same code as ``companion history``).
With a password every request needs HTTP basic auth (any user name); wrong passwords
from one address are slowed (:class:`Logins`).

The event streams are written by one *feeder* thread, never by a worker, in *frames* at
most :data:`FRAME` s apart: what changed within a frame goes out together, each changed
table once (its newest card, turned into JSON once), as one update written to every open
page, without blocking. So the work of a frame is the tables that changed plus one write
per page, however many messages came: 50 busy tables and 100 pages cost at most 10
writes a second per page, where one round of every page per message fell behind (at 10x
table speed, seconds behind; on a Pi it would never catch up). A page whose writes wait
(over :data:`BEHIND` bytes: a slow phone, a TV on bad Wi-Fi) is sent nothing more until
they have gone, and then only the newest card of each table that changed meanwhile; one
that stops reading is dropped once :data:`STREAM_BUFFER` bytes wait for it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import logging
import math
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .dashboard import Dashboard
from .server import Connection, GuardedHandler, GuardedServer, Limits

_log = logging.getLogger(__name__)

#: Seconds between keep-alive comments on an idle event stream (also how soon a closed
#: page is noticed).
PING = 15.0
#: Bytes that may wait for a page that does not read its event stream (a TV whose
#: network went away): past that it is dropped (it reconnects, and is sent everything).
STREAM_BUFFER = 4 * 1024 * 1024
#: Seconds between two updates of the pages, at least: the changes of one frame go out
#: together (a verdict reaches the page this much later at most).
FRAME = 0.1
#: Bytes waiting for a page past which it is behind: it is sent nothing more until they
#: have gone, then the newest card of every table that changed meanwhile.
BEHIND = 256 * 1024
#: Seconds a page that is behind may take nothing at all before it is dropped (it reconnects
#: and is sent everything).
STALLED = 30.0
#: Event streams open at once, at most (each is a connection too).
MAX_STREAMS = 256
#: The page (HTML, CSS and the script that follows /events), shipped beside this module.
PAGE = (Path(__file__).parent / "page.html").read_text(encoding="utf-8")


class Logins:
    """Wrong passwords slowed per client address: after :attr:`free` wrong ones in a row,
    each next try must wait 1, 2, 4 ... seconds (at most :attr:`longest`) after the last
    wrong one; a right password clears the count. A try too soon is not checked at all
    (answered 429), so guessing goes no faster than the waits.

    >>> logins = Logins(free=2)
    >>> logins.failed("10.0.0.9", now=0.0); logins.wait("10.0.0.9", now=0.0)
    0.0
    >>> logins.failed("10.0.0.9", now=0.0); logins.wait("10.0.0.9", now=0.5)
    0.5
    >>> logins.failed("10.0.0.9", now=1.0); logins.wait("10.0.0.9", now=1.0), logins.wait("10.0.0.8", now=1.0)
    (2.0, 0.0)
    """

    def __init__(self, free: int = 3, longest: float = 60.0, remembered: int = 4096):
        self.free, self.longest, self.remembered = free, longest, remembered
        self._tries: dict[str, tuple[int, float]] = {}   # address -> (wrong in a row, when the last was)
        self._lock = threading.Lock()

    def wait(self, client: str, now: float | None = None) -> float:
        """Seconds ``client`` must wait before its next password is checked (0: now)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            wrong, last = self._tries.get(client, (0, 0.0))
        if wrong < self.free:
            return 0.0
        return max(0.0, last + min(self.longest, 2.0 ** (wrong - self.free)) - now)

    def failed(self, client: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        with self._lock:
            wrong, _ = self._tries.pop(client, (0, 0.0))
            self._tries[client] = (wrong + 1, now)
            while len(self._tries) > self.remembered:  # the oldest forgotten first
                self._tries.pop(next(iter(self._tries)))

    def passed(self, client: str) -> None:
        with self._lock:
            self._tries.pop(client, None)


def same_password(given: str, password: str) -> bool:
    """``given`` is ``password``, compared in constant time (of their SHA-256 digests, so
    not even the length shows in the time it takes)."""
    return hmac.compare_digest(hashlib.sha256(given.encode("utf-8", "surrogatepass")).digest(),
                               hashlib.sha256(password.encode("utf-8", "surrogatepass")).digest())


@dataclass(eq=False)
class _Stream:
    """One open page's event stream: what it was sent last and what waits to go."""

    conn: Connection
    out: bytearray = field(default_factory=bytearray)
    fresh: bool = True                  # sent nothing yet: it is sent every table first
    owed: set[str] | None = None        # behind: the tables changed since (None: up to date)
    results: int = -1
    broker: bool | None = None
    notices: list | None = None
    last_write: float = field(default_factory=time.monotonic)


class DashboardServer(GuardedServer):
    """The page's HTTP server for ``dashboard`` on ``(host, port)`` (port 0: any free one).

    ``exports``: ``{"csv": fn(records, out), "bgstats": fn(records) -> dict}`` where
    ``records`` are ``(table, GameRecord)`` pairs. ``password``: required with any user
    name (HTTP basic auth), None for none. ``limits``: the server's
    (:class:`~companion.venue.server.Limits`). Raises OSError when the address is taken."""

    def __init__(self, dashboard: Dashboard, address: tuple[str, int], exports: dict[str, Callable] | None = None,
                 password: str | None = None, title: str | None = None, limits: Limits | None = None):
        super().__init__(address, _Handler, limits)
        self.dashboard = dashboard
        self.exports = exports or {}
        self.password = password
        self.logins = Logins()
        self.title = title or dashboard.venue
        self.stopping = threading.Event()
        self._new: queue.SimpleQueue = queue.SimpleQueue()
        self._streams: list[_Stream] = []
        self._feeder = threading.Thread(target=self._feed, name="venue-feeder", daemon=True)
        self._feeder.start()

    def url(self) -> str:
        """The page's address, ``http://HOST:PORT/``."""
        host, port = self.server_address[:2]
        return f"{self.scheme}://{host}:{port}/"

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
        self._feeder.join(timeout=2.0)
        self.server_close()

    def streams(self) -> int:
        """Event streams open now."""
        return len(self._streams) + self._new.qsize()

    # ------------------------------------------------------------ the feeder

    def adopt_stream(self, conn: Connection) -> None:
        """A page's ``/events`` (headers sent): the feeder writes to it from now on."""
        self._new.put(_Stream(conn))
        with self.dashboard.changed:
            self.dashboard.changed.notify_all()

    def _feed(self) -> None:
        d = self.dashboard
        version, last = -1, 0.0
        while not self.stopping.is_set():
            with d.changed:
                if d.version == version and not self._new.qsize():
                    d.changed.wait(timeout=0.05 if any(s.out for s in self._streams) else 1.0)
            wait = last + FRAME - time.monotonic()
            if wait > 0:
                self.stopping.wait(wait)  # (what comes meanwhile joins this frame)
            last = time.monotonic()
            with d.changed:
                version = d.version
            while self._new.qsize():
                self._streams.append(self._new.get())
            self._frame()
            self._streams = [s for s in self._streams if not s.conn.closed]
        for stream in self._streams + [self._new.get() for _ in range(self._new.qsize())]:
            self.release(stream.conn)

    def _frame(self) -> None:
        """One frame: the tables changed since the last, as one update for every page up to
        date; every table for a new page; the owed ones for a page no longer behind."""
        d = self.dashboard
        changed = d.take_changed()
        cards: dict[str, bytes] = {}  # each table's card, made once in this frame (it says "now")

        def card(name: str) -> bytes:
            if name not in cards:
                cards[name] = _table_event(d, name).encode() if name in d.tables else b""
            return cards[name]

        update = b"".join(card(n) for n in sorted(changed))
        with d.changed:
            results, broker, names = len(d.results), d.connected.is_set(), sorted(d.tables)
        notices = d.notices()
        finished = None
        for s in self._streams:
            parts = []
            if s.fresh:
                s.fresh = False
                parts += [card(n) for n in names]
            elif s.owed is not None:
                s.owed |= changed
                if not s.out:  # caught up: the newest card of what changed meanwhile
                    parts += [card(n) for n in sorted(s.owed)]
                    s.owed = None
                elif time.monotonic() - s.last_write > STALLED:
                    self.release(s.conn)  # a page that takes nothing: it reconnects and is sent everything
                    continue
            elif len(s.out) > BEHIND:
                s.owed = set(changed)
            else:
                parts.append(update)
            if results != s.results:
                s.results = results
                if finished is None:
                    finished = f"event: finished\ndata: {json.dumps(d.finished())}\n\n".encode()
                parts.append(finished)
            if broker != s.broker:
                s.broker = broker
                parts.append(f"event: broker\ndata: {json.dumps(broker)}\n\n".encode())
            if notices != s.notices:
                s.notices = notices
                parts.append(f"event: venue\ndata: {json.dumps({'notices': notices})}\n\n".encode())
            if not any(parts) and not s.out and time.monotonic() - s.last_write > PING:
                parts.append(b": still here\n\n")
            if any(parts):
                s.out += b"".join(parts)
            if s.out:
                self._flush(s)

    def _flush(self, s: _Stream) -> None:
        while s.out:
            try:
                sent = s.conn.sock.send(s.out)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:  # the page went away
                self.release(s.conn)
                return
            del s.out[:sent]
            s.last_write = time.monotonic()
        if len(s.out) > STREAM_BUFFER:  # a page that does not read: it reconnects and is sent everything
            self.release(s.conn)


def _table_event(d: Dashboard, name: str) -> str:
    """One table's ``table`` event ("" and logged if it cannot be drawn: every message was
    checked on the way in, so that is a bug here, and it must not stop the other tables)."""
    try:
        return f"event: table\ndata: {json.dumps(d.table_json(name))}\n\n"
    except Exception:
        _log.exception("venue: %s could not be drawn", name)
        return ""


class _Handler(GuardedHandler):
    server: DashboardServer

    def _allowed(self) -> bool:
        password = self.server.password
        if not password:
            return True
        logins, client = self.server.logins, self.client_address[0]
        header = self.headers.get("Authorization", "")
        if header.startswith("Basic "):
            wait = logins.wait(client)
            if wait > 0:
                n = math.ceil(wait)
                body = f"Too many wrong passwords: try again in {n} second{'' if n == 1 else 's'}.\n".encode()
                self._send(body, "text/plain; charset=utf-8", status=429, extra={"Retry-After": str(n)})
                return False
            try:
                given = base64.b64decode(header[6:], validate=True).decode("utf-8").partition(":")[2]
            except (ValueError, UnicodeDecodeError):
                given = None
            if given is not None and same_password(given, password):
                logins.passed(client)
                return True
            logins.failed(client)
        self._send(b"", "text/plain", status=401,
                   extra={"WWW-Authenticate": 'Basic realm="Sugar venue dashboard", charset="UTF-8"'})
        return False

    def _send(self, body: bytes, kind: str, name: str | None = None, status: int = 200,
              extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
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
        if self.server.streams() >= MAX_STREAMS:
            self._send(b"too many pages open\n", "text/plain", status=503, extra={"Retry-After": "10"})
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.stream = True  # the feeder writes to it from now on


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
