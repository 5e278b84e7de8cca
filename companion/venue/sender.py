"""The publisher's sending thread: connections made and made again, the outbox handed to
the broker in order, and every failure said in words (:mod:`companion.venue.link`).

The thread makes each connection itself (``connect``/``reconnect`` of one paho-mqtt
client, which keeps its unacknowledged messages and sends them again on the next
connection); paho's network thread carries the traffic while a connection is up and ends
with it (``reconnect_on_failure=False``). So the cause of every failure reaches the
thread: an exception of connecting (:func:`~companion.venue.link.diagnose`), a login the
broker refused (CONNACK), a message its ACL refused (an MQTT 5 PUBACK "Not authorized":
the row is kept and everything from the oldest unsent row goes again on a new client,
after a wait). Anything else the thread did not expect is logged, shown and retried: the
thread ends only at :meth:`VenuePublisher.close`.

Waits between tries double from ``RECONNECT[0]`` up to ``RECONNECT[1]`` s for a broker
that is not there, and up to :data:`RECONNECT_CONFIG` s for what only the host can fix
(a login, a certificate, the ACL, the service's network).
"""

from __future__ import annotations

import json
import logging
import threading
import time

from ..core.errors import StoreError
from . import link as words

_log = logging.getLogger("companion.venue.publish")

#: Seconds between tries to reach a broker that is not there (doubling, from..to).
RECONNECT = (0.2, 5.0)
#: At most this many seconds between tries after a problem only the host can fix.
RECONNECT_CONFIG = 30.0
#: Seconds a connection may take from its CONNECT to the broker's answer.
CONNECT_TIMEOUT = 5.0
#: MQTT 5's reason code for "Not authorized" (a PUBACK the ACL refused).
NOT_AUTHORIZED = 0x87
#: MQTT 5's "Session taken over": another connection with this client id (the login, under
#: use_username_as_clientid) took this one's place. (Mosquitto 2.0.11 does not send it: it
#: closes the old connection, so the pattern below tells.)
TAKEN_OVER = 0x8E
#: Dropped this many times within :data:`SHARED_WINDOW` s while the broker took each new
#: connection at once: another table is using this table's login (a broker that restarts
#: drops a table once, and then refuses it for a while).
SHARED_DROPS, SHARED_WINDOW = 3, 60.0
#: Seconds connected without being pushed off before "login in use" is let go of.
SHARED_CLEAR = 120.0


class Link:
    """One paho-mqtt client's connection and the outbox rows it carries."""

    def __init__(self, pub, client):
        self.pub, self.client = pub, client
        self.lock = threading.Lock()
        self.acked: dict[int, int] = {}   # paho message id -> its PUBACK reason code
        self.handed: list[int] = []       # row ids handed to paho, oldest first, not yet marked sent
        self.mids: dict[int, tuple[int, str]] = {}  # paho message id -> (outbox row id (0: not a row), topic)
        self.early: set[int] = set()      # row ids acknowledged before an older one was
        self.last = 0                     # the newest row id handed
        self.fresh = threading.Event()    # a new connection: say "online" again first
        self.refused = None               # the CONNACK's failure reason
        self.dropped = threading.Event()
        self.up = False                   # our view: a connection that the broker accepted
        self.taken_over = False           # the broker said another connection took this one's place
        self.opened_at: float | None = None
        self.denied: str | None = None    # a topic the ACL refused
        client.on_connect, client.on_disconnect, client.on_publish = self._on_connect, self._on_disconnect, \
            self._on_publish
        self._connected_once = False

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            self.refused = reason_code
        else:
            self.pub._listen_for_resend(client)  # the dashboard's requests to send again
            self.pub.connected.set()
            self.fresh.set()
        self.pub._wake.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        if getattr(reason_code, "value", None) == TAKEN_OVER:
            self.taken_over = True
        self.pub.connected.clear()
        self.dropped.set()
        self.pub._wake.set()

    def _on_publish(self, client, userdata, mid, reason_code, properties):
        with self.lock:
            self.acked[mid] = getattr(reason_code, "value", 0)
        self.pub._wake.set()

    def open(self) -> None:
        """Connect (a blocking TCP and TLS handshake, ``CONNECT_TIMEOUT`` at most) and
        start paho's network thread. Raises OSError (``ssl.SSLError`` among them)."""
        b = self.pub.settings.broker
        self.client.loop_stop()  # the last connection's network thread, if it has not ended
        self.dropped.clear()
        self.refused = None
        if not self._connected_once:
            self.client.connect(b.host, b.port, keepalive=self.pub.keepalive, clean_start=True)
            self._connected_once = True
        else:
            self.client.reconnect()
        self.opened_at = time.monotonic()
        self.client.loop_start()

    def close(self) -> None:
        try:
            self.client.disconnect()
        except Exception:  # noqa: BLE001 - closing what may be half open
            pass
        self.client.loop_stop()
        self.pub.connected.clear()

    def pump(self) -> None:
        """Hand the next outbox rows to paho (at most ``WINDOW`` unacknowledged) and mark
        the acknowledged ones sent, as an unbroken run from the oldest. Raises StoreError."""
        pub, client = self.pub, self.client
        if self.fresh.is_set() and pub._last_status is not None:
            self.fresh.clear()
            status = pub._last_status
            if pub.shared():  # (the dashboard shows it on the table's card)
                status = json.dumps({**json.loads(status), "login_shared": True}).encode()
            info = client.publish(pub._status_topic, status, qos=1, retain=True)
            with self.lock:
                self.mids[info.mid] = (0, pub._status_topic)  # not an outbox row
        pub.resend(client, lambda mid, topic: self.mids.__setitem__(mid, (0, topic)), self.lock)
        room = pub.window - len(self.handed)
        rows = pub.outbox.pending(limit=room, after=self.last) if room > 0 else []
        for row in rows:
            self.handed.append(row.id)
            self.last = row.id
            if not pub._valid(row):
                self.early.add(row.id)  # never sent: passed over as if the broker took it
                continue
            info = client.publish(row.topic, row.payload, qos=row.qos, retain=row.retain)
            with self.lock:
                self.mids[info.mid] = (row.id, row.topic)
        with self.lock:
            known = [m for m in self.acked if m in self.mids]  # an ack may come before its mid is noted
            for mid in known:
                (row, topic), code = self.mids.pop(mid), self.acked.pop(mid)
                if code == NOT_AUTHORIZED:
                    self.denied = self.denied or topic
                    continue  # kept: sent again once the host fixed the ACL
                if code >= 0x80 and row:
                    pub.refused += 1  # a message the broker will never take (too big, a bad topic): passed over
                    _log.error("venue: the broker refused outbox row %d (reason code 0x%02x); not sent again", row,
                               code)
                if row:
                    self.early.add(row)
        upto = None
        while self.handed and self.handed[0] in self.early:
            upto = self.handed.pop(0)
            self.early.discard(upto)
            pub.sent += 1
        if upto is not None:
            pub.outbox.mark_sent(upto)


def _wait(problem: words.Problem, tries: int) -> float:
    top = RECONNECT_CONFIG if problem.config else RECONNECT[1]
    return min(top, RECONNECT[0] * 2 ** min(tries, 16))


def run(pub) -> None:
    """The sending thread's body (see the module docstring)."""
    link: Link | None = None
    tries = 0                 # failures in a row
    next_try = 0.0
    seen: set[tuple[str, str]] = set()  # the unexpected errors logged so far
    while not pub._stopping.is_set():
        busy = link is not None and (link.up or link.opened_at is not None)  # on_connect / on_publish wake it
        pub._wake.wait(1.0 if busy else max(0.0, min(1.0, next_try - time.monotonic())))
        pub._wake.clear()
        problem = None
        try:
            pub._sync()
            if link is None:
                link = Link(pub, pub._client())
            if link.up and link.dropped.is_set():
                link.up = False
                next_try = time.monotonic() + RECONNECT[0]  # a broker restart: try again at once, nearly
                now = time.monotonic()
                drops = pub._drops = [t for t in pub._drops if now - t < SHARED_WINDOW] + [now]
                if link.taken_over or len(drops) >= SHARED_DROPS:
                    link.taken_over = False
                    pub._shared_at = now
                    problem = words.shared_login(pub.settings.broker, pub.settings.table)
            if pub._shared_at is not None and link.up and time.monotonic() - pub._shared_at > SHARED_CLEAR:
                pub._shared_at = None  # connected long enough without being pushed off
                pub._fine()
            if problem is not None:
                pass  # (pushed off by another table with this login: waits before taking its place again)
            elif link.refused is not None:
                problem = words.refused_login(link.refused, pub.settings.broker)
                link.refused, link.opened_at = None, None
            elif not link.up and link.opened_at is None:
                if time.monotonic() < next_try:
                    continue
                try:
                    link.open()
                except OSError as err:
                    problem = words.diagnose(err, pub.settings.broker)
            elif not link.up:
                if pub.connected.is_set():
                    link.up, link.opened_at, tries = True, None, 0
                    pub._fine()
                elif link.dropped.is_set() or time.monotonic() - link.opened_at > CONNECT_TIMEOUT:
                    link.close()
                    link.opened_at = None
                    problem = words.Problem("unreachable", "Venue: no broker", "the broker at "
                                            f"{pub.settings.broker.host}:{pub.settings.broker.port} took the "
                                            "connection but did not answer the login", "is that port the broker's "
                                            "MQTT port? (mqtts:// needs its TLS port)")
            if link is not None and link.up:
                link.pump()
                if link.denied is not None:
                    problem = words.denied(link.denied, pub.settings.broker, pub.settings.table,
                                           pub.settings.venue)
                    link.close()
                    link = None  # everything from the oldest unsent row again, on a new client
        except StoreError as err:
            problem = words.Problem("store", "Venue: store error", f"the venue outbox in the game store cannot be "
                                    f"read or written ({err})", "companion doctor checks the game store")
        except Exception as err:  # noqa: BLE001 - the thread must never die silently
            said = (type(err).__name__, str(err))
            if said not in seen:  # logged once with its traceback; shown on the panel each time
                seen.add(said)
                _log.exception("venue: the publisher's thread met an error; it starts again")
            problem = words.crashed(err)
            if link is not None:
                link.close()
            link = None
        if problem is None:
            pub._refresh()  # the outbox's level
        else:
            if link is not None and link.up is False:
                link.opened_at = None
            pub._trouble(problem)
            next_try = time.monotonic() + (_wait(problem, tries) if problem.kind != "shared" else
                                           min(RECONNECT_CONFIG, 2.5 * 2 ** min(len(pub._drops), 4)))
            tries += 1
    if link is not None:
        link.close()
