"""The café's side: every table's messages from the broker, kept as the dashboard shows them.

:class:`Dashboard` subscribes to ``sugar/<venue>/tables/+/+`` (QoS 1, a persistent
session, so events published while it is away wait at the broker for it) and keeps, per
table, the newest status, the events in order and the finished games. Events are
numbered per table (``seq`` within the table's ``stream``): a repeat (a number already
seen) is dropped, so every event counts once, in order. :meth:`Dashboard.handle` is the
whole of that logic and needs no broker (tests feed it messages).

Every message is read by :func:`companion.venue.schema.read` first: one that is too big,
not JSON or not what its topic's schema describes is dropped before it touches any state,
and counted for its table (the page says "Table 3 sent 2 unreadable messages"); it is
never shown and never stored, so it cannot stop another table's card, also after a
restart (a retained message comes again and is dropped again; a bad line in the history
file is left out and counted).

Delivery end to end, not just to the broker: every event, status and result taken is kept
in the dashboard's own SQLite file (``store``, :class:`~companion.venue.received.Received`)
and read back at start. A hole in a table's event numbers (between the oldest number the
table still keeps, its status's ``since``, and the newest it said it sent) or a finished
game without its result is asked for again on the table's ``resend`` topic
(:meth:`Dashboard.requests`, sent by a thread of its own every :data:`TICK` s) once it
has lasted :data:`GRACE` s, and again every :data:`RETRY` s until it is filled; the page
says so ("events 12–15 missing: asked Table 3 again").

"Needs help" flags (:func:`flags`): a reader unplugged, the tray sensor offline, the screen
not working, the same
input refused three times in a row, a turn over its limit, the table offline (gone
without a goodbye: the broker's last will; a table that was closed is shown as closed).

>>> d = Dashboard(None, "cafe")
>>> event = json.dumps({"v": 1, "venue": "cafe", "table": "t1", "stream": "s", "seq": 1, "t": 2.5, "wall": 1.7e9,
...                     "game_id": 1, "input": "touch", "verdict": "accepted", "text": "OK", "stored": 1,
...                     "refused_in_a_row": 0}).encode()
>>> d.handle("sugar/cafe/tables/t1/events", event), d.handle("sugar/cafe/tables/t1/events", event)
(True, False)
>>> d.handle("sugar/cafe/tables/t1/events", b'{"seq": 2}'), d.tables["t1"].seqs, d.tables["t1"].unreadable
(False, [1], 1)
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from pathlib import Path
from typing import Any

from ..core.store import GameRecord
from . import schema
from .numbers import RunSet
from .received import KEEP_DAYS, KEEP_GAMES, Received, gap_words, host_name  # noqa: F401 - host_name too
from .schema import Unreadable
from .settings import NAME, ROOT, Broker, check_name, split_topic, venue_filter
from .tableview import REFUSED_FLAG, TableView, flags, turn_now, unreadable_words  # noqa: F401 - the page's too

_log = logging.getLogger(__name__)

#: Events kept per table for the page's recent list.
RECENT = 8
#: Tables a dashboard follows at most: messages for more names are dropped and counted
#: for the venue (a café has tens; a client that makes up names must not fill memory).
MAX_TABLES = 500
#: Seconds a hole must last before the table is asked (a table that reconnects sends its
#: status first, ahead of the events still on their way), again between asks, and between
#: looks for holes.
GRACE, RETRY, TICK = 1.0, 5.0, 0.25
#: Asks of a table that is online, at most, for one set of holes: a table whose outbox was
#: full left those messages out and cannot send them (the page then says so).
GIVE_UP = 12
#: Runs of missing numbers named in one request, at most.
ASK_RUNS = 32
#: Seconds between two trims of the store (and of the finished games kept in memory).
TRIM_EVERY = 3600.0


class Dashboard:
    """The live state of a venue's tables, fed by the broker (``broker`` None: fed by
    :meth:`handle` alone). ``history``: a JSON Lines file where every finished game is
    kept (and read back at start), so the café's history outlives the dashboard.
    ``store``: the SQLite file of what it received (:mod:`~companion.venue.received`).
    ``league``: the venues of a league dashboard (``venue`` is then the league's name):
    the tables of every one of them, bridged to its broker, each called
    ``<venue>/<table>``.

    Raises ValueError for a bad venue name, OSError for an unreadable history file."""

    def __init__(self, broker: Broker | None, venue: str = "cafe", history: str | Path | None = None,
                 client_id: str | None = None, store: str | Path | None = None,
                 league: tuple[str, ...] | None = None, keep_days: float = KEEP_DAYS, keep_games: int = KEEP_GAMES):
        self.broker = broker
        self.venue = check_name(venue, "--venue-name")
        self.league = tuple(check_name(v, "--league") for v in league) if league else None
        self.venues = self.league or (self.venue,)
        self.tables: dict[str, TableView] = {}
        self.results: dict[tuple, dict] = {}
        self.history = Path(history) if history else None
        self.client_id = client_id or f"sugar-venue-{venue}"
        self.version = 0
        self.dirty: set[str] = set()   # tables whose card changed, not yet taken (take_changed)
        self.changed = threading.Condition()
        self.connected = threading.Event()
        self.client = None
        self.stray = 0           # unreadable messages for no table this dashboard can name
        self.history_unreadable = 0
        self.store: Received | None = None
        self.keep_days, self.keep_games = keep_days, keep_games
        self._trimmed = 0.0   # when the store was last trimmed (time.monotonic(); 0: not yet)
        self._asker: threading.Thread | None = None
        if self.history is not None and self.history.exists():
            self._read_history()
        if store is not None:
            self.store = Received(store)
            self._read_store()
        self.trim()

    def _read_store(self) -> None:
        """What an earlier run received: statuses, each table's event numbers in its stream
        (and its newest events for the card) and results (each checked again)."""
        store, self.store = self.store, None  # nothing read back is written again
        try:
            for payload in store.results():
                try:
                    msg = schema.read("result", payload)
                except Unreadable:
                    continue
                self.results.setdefault(self._result_key(msg), msg)
            for name, payload in store.statuses():
                try:
                    msg = schema.read("status", payload)
                except Unreadable:
                    continue
                where = (msg["venue"], msg["table"])
                table = self._table(name, where) if where[0] in self.venues and name == self._key(*where) else None
                if table is None:
                    continue
                self._status(table, msg)
                for seq in store.seqs(name, table.stream):
                    self._seen(table, seq)
                    table.seqs.append(seq)
                for event in reversed(store.recent(name, table.stream)):
                    self._recent(table, json.loads(event))
                table.refused_in_a_row = int(table.status.get("refused_in_a_row") or 0)
        finally:
            self.store = store

    def _read_history(self) -> None:
        """The finished games kept in the history file; a line that is not a result the
        schema describes (an older dashboard kept whatever came) is left out and counted."""
        with self.history.open("rb") as lines:
            for line in lines:
                if not line.strip():
                    continue
                try:
                    record = schema.read("result", line.rstrip(b"\r\n"))
                except Unreadable:
                    self.history_unreadable += 1
                    continue
                self.results[self._result_key(record)] = record
        if self.history_unreadable:
            _log.warning("venue: %d line(s) of %s are not finished games; left out", self.history_unreadable,
                         self.history)

    # ------------------------------------------------------------ messages

    def handle(self, topic: str, payload: bytes) -> bool:
        """Take one message from the broker. True when it changed what the page shows
        (False: a repeat, an older status, another venue's, or an unreadable message:
        dropped unread and counted for its table, :meth:`_unreadable`)."""
        where = split_topic(topic)
        if where is None or where[0] not in self.venues:
            return False
        venue, raw, aspect = where
        if aspect in schema.REQUESTS:
            return False  # the dashboard's own request to a table (it reads what it wrote)
        name = self._key(venue, raw)
        try:
            msg = schema.read(aspect, payload)
            if msg.get("venue") != venue or msg.get("table") != raw:
                raise Unreadable("another table's or venue's name inside")
        except Unreadable as err:
            self._unreadable(name, (venue, raw), aspect, err)
            return False
        with self.changed:
            table = self._table(name, (venue, raw))
            if table is None:
                return False
            if aspect == "events":
                took = self._event(table, msg)
            elif aspect == "status":
                took = self._status(table, msg)
            elif aspect == "result":
                took = self._result(name, msg)
            else:
                took = False
            if took:
                self._keep(name, aspect, msg, payload)
                self._touch(table)
            return took

    def _keep(self, name: str, aspect: str, msg: dict, payload: bytes) -> None:
        """Keep a message taken in the store (called holding the lock)."""
        if self.store is None:
            return
        if aspect == "events":
            self.store.event(name, msg["stream"], msg["seq"], payload)
        elif aspect == "status" and not msg.get("will"):
            self.store.status(name, payload)
        elif aspect == "result":
            self.store.result(name, msg["stream"], msg["game_id"], payload)

    def _key(self, venue: str, table: str) -> str:
        """What the page calls a table: its name (``<venue>/<name>`` on a league's)."""
        return f"{venue}/{table}" if self.league else table

    def _table(self, name: str, where: tuple[str, str]) -> TableView | None:
        """The table called ``name``, at ``where`` (venue, table) (new if need be; None past
        :data:`MAX_TABLES` or for a name no table can have: counted in :attr:`stray`).
        Called holding the lock."""
        table = self.tables.get(name)
        if table is None:
            if len(self.tables) >= MAX_TABLES or not NAME.fullmatch(where[1]):
                self.stray += 1
                self.version += 1
                self.changed.notify_all()
                return None
            table = self.tables[name] = TableView(name, where=where)
        return table

    def _unreadable(self, name: str, where: tuple[str, str], aspect: str, err: Unreadable) -> None:
        """Count a message dropped unread; the page says so. Logged at its 1st, 10th,
        100th ... (a flood must not fill the journal), with the reason, never the message."""
        with self.changed:
            table = self._table(name, where)
            if table is None:
                return
            table.unreadable += 1
            self._touch(table)
            n = table.unreadable
        if math.log10(n).is_integer():
            _log.warning("venue: %s: unreadable %s message dropped (%s); %d so far", ascii(name)[1:-1][:40], aspect,
                         err, n)

    def _new_stream(self, table: TableView, msg: dict) -> None:
        stream = msg.get("stream")
        if stream and stream != table.stream:  # a new store at this table: numbers start again
            table.stream, table.last_seq, table.have, table.base, table.newest = stream, 0, RunSet(), None, 0
            table.hole_seen = table.asked = 0.0
            table.asks = 0

    def _seen(self, table: TableView, seq: int) -> None:
        """Event ``seq`` of the table's stream is here."""
        if table.base is None:
            table.base = seq
        table.have.add(seq)
        table.last_seq = max(table.last_seq, seq)
        table.newest = max(table.newest, seq)

    def _since(self, table: TableView, since: int | None) -> None:
        """The table keeps its events from ``since`` on: no hole is looked for before it."""
        if since is None:
            return
        if table.base is not None and since > table.base:
            table.have.drop_below(since)
        table.base = since

    def _event(self, table: TableView, msg: dict) -> bool:
        seq = msg.get("seq")
        if not isinstance(seq, int):
            return False
        self._new_stream(table, msg)
        if seq in table.have:
            table.repeats += 1
            return False
        if seq > table.last_seq + 1 and table.last_seq:
            table.gaps += 1
        if seq > table.last_seq:
            table.refused_in_a_row = int(msg.get("refused_in_a_row") or 0)
        if table.base is not None and seq < table.base:
            table.base = seq
        self._seen(table, seq)
        table.seqs.append(seq)
        self._recent(table, msg)
        return True

    @staticmethod
    def _recent(table: TableView, msg: dict) -> None:
        item = {k: msg.get(k) for k in ("seq", "verdict", "text", "input", "wall")}
        table.recent = sorted(table.recent + [item], key=lambda e: e["seq"], reverse=True)[:RECENT]

    def _status(self, table: TableView, msg: dict) -> bool:
        if msg.get("will"):  # the broker's last will: only "offline"
            took = table.online or not table.dropped
            table.online, table.dropped = False, True
            return took
        seq = msg.get("seq")
        stream = msg.get("stream")
        old = table.status
        if old and stream == old.get("stream") and isinstance(seq, int) and \
                (seq, msg.get("at", 0)) < (old.get("seq", 0), old.get("at", 0)):
            return False  # an older status (sent again after a reconnect)
        self._new_stream(table, msg)
        self._since(table, msg.get("since"))
        if isinstance(seq, int):
            table.newest = max(table.newest, seq)
        table.status = msg
        table.online, table.dropped = bool(msg.get("online")), False
        table.received = time.time()
        if table.last_seq <= (seq or 0):
            table.refused_in_a_row = int(msg.get("refused_in_a_row") or 0)
        return True

    def _result_key(self, msg: dict) -> tuple:
        return (self._key(msg.get("venue"), msg.get("table")), msg.get("stream"), msg.get("game_id"))

    def _result(self, name: str, msg: dict) -> bool:
        if "players" not in msg or "game_id" not in msg:
            return False
        key = self._result_key(msg)
        if key in self.results:
            return False
        self.results[key] = msg
        if self.history is not None:
            try:
                with self.history.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(msg, ensure_ascii=False) + "\n")
            except OSError as err:
                _log.error("venue: could not keep the finished game in %s: %s", self.history, err)
        return True

    # ------------------------------------------------------------ asking again

    def _result_missing(self, table: TableView) -> bool:
        """The table says its game is over, and its result has not come."""
        s = table.status
        return bool(s.get("over")) and s.get("stream") == table.stream and \
            (table.name, table.stream, s.get("game_id")) not in self.results

    def requests(self, now: float | None = None) -> list[tuple[str, bytes]]:
        """The ``resend`` requests due now, as ``(topic, payload)``: one per table whose
        holes (or missing result) have lasted :data:`GRACE` s and that was not asked in
        the last :data:`RETRY` s. ``now``: ``time.monotonic()``."""
        now = time.monotonic() if now is None else now
        out = []
        with self.changed:
            for table in self.tables.values():
                holes, result = table.holes(), self._result_missing(table)
                if not holes and not result:
                    if table.hole_seen:
                        table.hole_seen, table.asked, table.asks = 0.0, 0.0, 0
                        self._touch(table)
                    continue
                if not table.hole_seen:
                    table.hole_seen = now
                    self._touch(table)
                if now - table.hole_seen < GRACE or (table.asked and now - table.asked < RETRY) or \
                        not table.online or table.asks >= GIVE_UP:
                    continue  # (a table that is offline cannot answer: it is asked once it is back)
                table.asked = now
                table.asks += 1
                self._touch(table)
                venue, raw = table.where
                ask = {"v": 1, "venue": venue, "table": raw, "stream": table.stream,
                       "events": [list(run) for run in holes[:ASK_RUNS]],
                       "result": table.status.get("game_id") if result else None}
                out.append((f"{ROOT}/{venue}/tables/{raw}/resend", json.dumps(ask).encode()))
        return out

    def trim(self, now: float | None = None) -> None:
        """Keep the finished games within bounds: in the store, those that came within
        :attr:`keep_days` days and the newest :attr:`keep_games` of each table (and only
        the events a table may still be asked for, :meth:`Received.trim`); in memory (the
        page's list and the history exports), the newest :attr:`keep_games` of each table
        by when they finished. Runs at start and every :data:`TRIM_EVERY` s on the asking
        thread."""
        gone = self.store.trim(self.keep_days, self.keep_games, now) if self.store is not None else []
        with self.changed:
            before = len(self.results)
            for table, stream, game_id in gone:
                self.results.pop((table, stream, game_id), None)
            per: dict[str, list] = {}
            for key, r in self.results.items():
                per.setdefault(key[0], []).append((r.get("finished") or 0, key))
            for games in per.values():
                if len(games) > self.keep_games:
                    for _, key in sorted(games, key=lambda g: g[0], reverse=True)[self.keep_games:]:
                        del self.results[key]
            if len(self.results) != before:
                self.version += 1
                self.changed.notify_all()
        self._trimmed = time.monotonic()

    def _touch(self, table: TableView) -> None:
        """The table's card changed (called holding the lock)."""
        self.version += 1
        table.version = self.version
        self.dirty.add(table.name)
        self.changed.notify_all()

    def take_changed(self) -> set[str]:
        """The tables whose card changed since the last call (the page's feeder: it sends
        only those, each once however often it changed meanwhile)."""
        with self.changed:
            dirty, self.dirty = self.dirty, set()
            return dirty

    def _ask(self) -> None:
        """The asking thread: every :data:`TICK` s, publish the requests due."""
        while self.client is not None:
            if self.connected.is_set():
                for topic, payload in self.requests():
                    client = self.client
                    if client is not None:
                        client.publish(topic, payload, qos=1)
            if time.monotonic() - self._trimmed > TRIM_EVERY:
                self.trim()
            time.sleep(TICK)

    # ------------------------------------------------------------ what the page shows

    def table_json(self, name: str, now: float | None = None) -> dict[str, Any]:
        """One table as the page draws it (JSON-ready)."""
        now = time.time() if now is None else now
        with self.changed:
            t = self.tables[name]
            s = t.status
            holes, missing_result = t.holes(), self._result_missing(t)
            return {"table": name, "online": t.online, "dropped": t.dropped,
                    "game": s.get("game_name") or s.get("game"), "players": s.get("players") or [], "turn_of": s.get("turn_of"), "turn": s.get("turn"),
                    "phase": s.get("phase"), "over": bool(s.get("over")), "paused": bool(s.get("paused")),
                    "prompt": s.get("prompt") or "", "last": s.get("last") or {}, "clocks": s.get("clocks") or {},
                    "counters": s.get("counters") or {}, "turn_now": turn_now(t, now), "flags": flags(t, now),
                    "recent": list(t.recent), "last_seq": t.last_seq, "events": len(t.seqs), "gaps": t.gaps,
                    "devices": s.get("devices") or {},
                    "disk_free_mb": s.get("disk_free_mb"), "received": t.received, "now": now,
                    "version": t.version, "winners": self._winners(name, s), "reported": bool(s),
                    "unreadable": t.unreadable, "unreadable_text": unreadable_words(name, t.unreadable),
                    "missing": [list(h) for h in holes], "missing_result": missing_result,
                    "missing_text": gap_words(name, holes, missing_result, t.asks, t.asks >= GIVE_UP)
                    if t.asks else ""}

    def notices(self) -> list[str]:
        """What the page says of the dashboard itself, in words for the host (empty: nothing)."""
        with self.changed:
            out = []
            if self.stray:
                out.append(f"{self.stray} unreadable message{'' if self.stray == 1 else 's'} came for no table "
                           "this page can show (left out)")
            if self.history_unreadable:
                n = self.history_unreadable
                out.append(f"{n} line{'' if n == 1 else 's'} of the history file {'was' if n == 1 else 'were'} "
                           "not a finished game (left out)")
            return out

    def _winners(self, name: str, status: dict) -> list[str]:
        if not status.get("over"):
            return []
        r = self.results.get((name, status.get("stream"), status.get("game_id")))
        return list(r.get("winners") or []) if r else []

    def finished(self) -> list[dict[str, Any]]:
        """Every finished game seen, newest first: table, game, players with scores, winners."""
        with self.changed:
            games = sorted(self.results.values(), key=lambda r: (r.get("finished") or 0, r.get("table") or ""),
                           reverse=True)
        return [{"table": self._key(r.get("venue"), r.get("table")), "game": r.get("game_name") or r.get("game"), "game_id": r.get("game_id"),
                 "players": [{"name": p.get("name"), "score": p.get("score")} for p in r.get("players", [])],
                 "winners": r.get("winners") or [], "finished": r.get("finished")} for r in games]

    def records(self) -> list[tuple[str, GameRecord]]:
        """The finished games as ``(table, GameRecord)`` in the order they finished, for
        the history exports (``companion history``'s CSV and BG Stats writers)."""
        with self.changed:
            games = sorted(self.results.values(), key=lambda r: (r.get("finished") or 0, r.get("table") or ""))
        out = []
        for r in games:
            result = {k: r.get(k) for k in ("game", "players", "winners", "tie_break", "reason")}
            players = tuple(r.get("players_seated") or [p.get("name") for p in r.get("players", [])])
            out.append((self._key(r.get("venue"), r.get("table") or ""), GameRecord(int(r.get("game_id") or 0), str(r.get("game")), players,
                                                         float(r.get("started") or 0), float(r.get("finished") or 0),
                                                         result, {}, 0)))
        return out

    # ------------------------------------------------------------ the broker

    def connect(self) -> "Dashboard":
        """Subscribe (paho-mqtt's network thread; returns at once, broker or not: it
        keeps trying)."""
        import paho.mqtt.client as mqtt

        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id, clean_session=False,
                             protocol=mqtt.MQTTv311)
        self.broker.configure(client)
        client.reconnect_delay_set(0.2, 5.0)

        def on_connect(c, userdata, flags_, reason_code, properties):
            if reason_code.is_failure:
                _log.warning("venue: the broker %s refused the dashboard: %s", self.broker.url(), reason_code)
                return
            c.subscribe([(venue_filter(v), 1) for v in self.venues])
            self.connected.set()
            with self.changed:  # the page says "live"
                self.version += 1
                self.changed.notify_all()

        def on_disconnect(c, userdata, flags_, reason_code, properties):
            self.connected.clear()
            with self.changed:
                self.version += 1
                self.changed.notify_all()

        def on_message(c, userdata, message):
            try:
                self.handle(message.topic, message.payload)
            except Exception:  # one bad message must not stop the dashboard
                _log.exception("venue: a message on %s could not be read", message.topic)

        client.on_connect, client.on_disconnect, client.on_message = on_connect, on_disconnect, on_message
        client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        client.loop_start()
        self.client = client
        self._asker = threading.Thread(target=self._ask, name="venue-asker", daemon=True)
        self._asker.start()
        return self

    def close(self) -> None:
        """Stop listening (the broker keeps the session: events wait for the next start)."""
        if self.client is not None:
            client, self.client = self.client, None
            client.disconnect()
            client.loop_stop()
        if self._asker is not None:
            self._asker.join(timeout=2 * TICK + 1)
            self._asker = None
        if self.store is not None:
            self.store.close()
            self.store = None
