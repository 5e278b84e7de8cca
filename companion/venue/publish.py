"""A table in venue mode: what its shared screen shows, published to the café's broker.

:class:`VenuePublisher` is one listener of the session's verdicts (``session.listeners``).
For each input it builds, on the session's thread, the messages the dashboard needs and
appends them to the :class:`~companion.venue.outbox.Outbox` in the game store: that is all
the table waits for. A background thread (and paho-mqtt's network thread) sends the
outbox in order whenever the broker is there, so a broker that is down, slow or
unreachable never slows or stops the table.

Only what the shared screen shows is published: the names, whose turn, the phase, the
public counters of the rules' ``public_view`` for the table, the prompt and the verdict
texts the table reads, device health, and the final result once the rules end the game.
Never a card code (the screen shows none), a hidden card, a hand or a bid.

Messages (JSON; every one has ``v``, ``venue``, ``table``, ``stream`` and ``seq``: the
number of the newest event so far in this store's stream):

``status`` (retained, QoS 1)
    ``online``, ``at`` (the table's clock, s), ``game``, ``game_name``, ``game_id``,
    ``players`` ``[{"name", "seat", "score"}]`` (the score so far where the game's screen
    shows one, ``rules.live_scores``; else None until the final result),
    ``turn_of`` (a name, None when over), ``turn``, ``phase``, ``over``, ``paused``,
    ``counters``, ``prompt``, ``last`` ``{"verdict", "text"}``, ``clocks`` ``{"turn",
    "game", "left", "limit"}`` (seconds), ``devices`` ``{name: {"status", "detail"}}``,
    ``disk_free_mb``, ``refused_in_a_row``. The broker's last will is ``{"online": false}``.
``events`` (QoS 1)
    ``seq``, ``t`` (the table's clock), ``wall`` (seconds since the epoch), ``game_id``,
    ``input`` (scan, touch, tilt, level, button), ``verdict`` (accepted, rejected,
    ignored), ``text`` (what the table read), ``stored`` (the input's number in the game,
    None when not stored), ``refused_in_a_row``.
``result`` (retained, QoS 1)
    the ``companion score --json`` shape (``game``, ``players``, ``winners``,
    ``tie_break``, ``reason``) with ``game_name``, ``game_id``, ``players_seated``,
    ``started`` and ``finished`` (the table's clock).
"""

from __future__ import annotations

import json
import logging
import shutil
import threading
import time
from pathlib import Path
from typing import Any, Callable

from ..core.errors import StoreError
from ..core.events import CardScanned, DeviceStatus, GameOver, Touch, input_kind
from . import schema
from .outbox import Outbox
from .settings import VenueSettings

_log = logging.getLogger(__name__)

#: Message format version.
VERSION = 1
#: Messages handed to paho-mqtt and not yet acknowledged, at most.
WINDOW = 200
#: Seconds between tries to reach a broker that is not there (paho-mqtt's back-off, from..to).
RECONNECT = (0.2, 5.0)
#: MQTT keep-alive (s): the broker sends the last will this long (x1.5) after a table vanishes.
KEEPALIVE = 15


def _input_key(item) -> tuple | None:
    """What makes two inputs "the same input" for the refused-three-times flag (kept on
    the table, never published: it may be a hidden card)."""
    if isinstance(item, CardScanned):
        return (input_kind(item), item.code)
    if isinstance(item, Touch):
        return (input_kind(item), item.parsed.key())
    return (type(item).__name__,)


class VenuePublisher:
    """Publish one table to the café's broker (see the module docstring for the messages).

    ``session`` is the :class:`~companion.table.Session` (the runner moves it to the next
    game and calls :meth:`start`); ``clocks`` a callable returning the runner's clocks
    (``{"turn", "game", "left"}`` in seconds; None: worked out from the session);
    ``turn_limit`` the seconds a turn may take (None: no limit); ``disk`` the folder whose
    free space is reported; ``screen`` a callable saying how the display is ("connected",
    "disconnected" while it is being retried, None headless). ``client_factory`` makes the
    paho-mqtt client (tests).

    :meth:`connect` starts sending; :meth:`close` says the table is going offline and stops.
    Raises :class:`~companion.core.errors.StoreError` when the store has no room for
    the outbox (at construction only; later failures are logged, never raised into the
    table's loop).
    """

    def __init__(self, settings: VenueSettings, session, clocks: Callable[[], dict] | None = None,
                 turn_limit: float | None = None, disk: str | Path | None = None,
                 client_factory: Callable | None = None, screen: Callable[[], str | None] | None = None):
        self.settings = settings
        self.session = session
        self.outbox = Outbox(session.store)
        self.clocks = clocks
        self.turn_limit = turn_limit
        self.disk = Path(disk) if disk else (Path(session.store.path).parent
                                             if session.store.path != ":memory:" else None)
        self._client_factory = client_factory
        self.screen = screen
        self.devices: dict[str, dict[str, str]] = {}
        self._refused: tuple[tuple | None, int] = (None, 0)
        self._last = {"verdict": None, "text": ""}
        self._published_result: int | None = None
        self._wake = threading.Event()
        self._unsynced = threading.Event()   # outbox rows written since the last sync
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.connected = threading.Event()
        self.client = None
        self.failures = 0        # outbox writes that failed (logged)
        self.sent = 0            # messages the broker acknowledged (this process)
        self.invalid = 0         # outbox messages its schema refused, not sent (logged)
        self._status_topic = settings.topic("status")
        self._last_status: bytes | None = None

    # ------------------------------------------------------------ the session's side

    def start(self) -> None:
        """A game began (or the table started): publish its status (and its result when
        a resumed game is already over)."""
        self._refused = (None, 0)
        self._last = {"verdict": None, "text": self.session.last_message}
        messages = [self._status()]
        if self.session.over and self._published_result != self.session.game_id:
            result = self._result(self.outbox.next_seq() - 1)  # a game whose end was saved, not yet sent
            if result is not None:
                messages.append(result)
        self._queue(messages)

    def __call__(self, item, verdict) -> None:
        """The session's listener: one input's verdict (or a device's status) becomes an
        ``events`` message, a new ``status`` and, when the game ended, a ``result``."""
        try:
            if isinstance(item, DeviceStatus):
                self.devices[item.device] = {"status": item.status, "detail": item.detail}
                self._queue([self._status()])
                return
            text = (verdict.message if verdict.verdict == "accepted" else verdict.reason) or ""
            key = _input_key(item)
            if verdict.verdict == "rejected":
                same, n = self._refused
                self._refused = (key, n + 1 if same == key else 1)
            elif verdict.verdict == "accepted":
                self._refused = (None, 0)
            self._last = {"verdict": verdict.verdict, "text": text}
            seq = self.outbox.next_seq()
            event = {**self._head(seq), "t": float(item.t), "wall": time.time(), "game_id": self.session.game_id,
                     "input": input_kind(item), "verdict": verdict.verdict,
                     "text": text, "stored": verdict.seq, "refused_in_a_row": self._refused[1]}
            messages = [(self.settings.topic("events"), event, 1, False), self._status(seq)]
            if any(isinstance(e, GameOver) for e in verdict.events) or \
                    (self.session.over and self._published_result != self.session.game_id):
                result = self._result(seq)
                if result is not None:
                    messages.append(result)
            self._queue(messages, seq)
        except Exception:  # the venue must never take a table down
            self.failures += 1
            _log.exception("venue: could not queue the messages for %s", item)

    def _head(self, seq: int) -> dict[str, Any]:
        return {"v": VERSION, "venue": self.settings.venue, "table": self.settings.table, "seq": seq}

    def _status(self, seq: int | None = None) -> tuple[str, dict, int, bool]:
        s = self.session
        view = s.view
        seq = self.outbox.next_seq() - 1 if seq is None else seq
        result = s.result()
        scores = {p.name: p.score for p in result.players} if result is not None else self._live(view)
        try:
            shown = {str(k): v for k, v in s.rules.counters(view).items()}
        except Exception:  # a game's counters failing must not stop the status
            shown = {}
        status = {**self._head(seq), "online": True, "at": s.clock.now(), "game": s.game, "game_name": s.desc.name,
                  "game_id": s.game_id, "players": [{"name": n, "seat": i, "score": scores.get(n)}
                                                    for i, n in enumerate(view.players, 1)],
                  "turn_of": None if s.over else view.players[view.active], "turn": view.turn,
                  "phase": str(view.phase), "over": s.over, "paused": s.paused, "counters": shown,
                  "prompt": "" if s.over else s.prompt(), "last": dict(self._last),
                  "clocks": self._clocks(), "devices": self._devices(), "disk_free_mb": self._disk_free(),
                  "refused_in_a_row": self._refused[1]}
        return (self._status_topic, status, 1, True)

    def _devices(self) -> dict[str, dict[str, str]]:
        devices = dict(self.devices)
        state = self.screen() if self.screen is not None else None
        if state is not None:
            devices["display"] = {"status": state, "detail": ""}
        return devices

    def _live(self, view) -> dict[str, int]:
        """The scores so far, where the game's screen shows them (``rules.live_scores``)."""
        try:
            live = self.session.rules.live_scores(view)
            return dict(zip(view.players, live)) if live is not None else {}
        except Exception:  # a game's scoring failing must not stop the status
            return {}

    def _clocks(self) -> dict[str, float | None]:
        if self.clocks is not None:
            c = self.clocks()
            return {"turn": c.get("turn"), "game": c.get("game"), "left": c.get("left"), "limit": self.turn_limit}
        from ..ui import timers

        s, now = self.session, self.session.clock.now()
        return {"turn": timers.turn_seconds(s.turn_started, now, s.pauses),
                "game": timers.game_seconds(s.started, now, s.pauses), "left": None, "limit": self.turn_limit}

    def _disk_free(self) -> int | None:
        if self.disk is None:
            return None
        try:
            return shutil.disk_usage(self.disk).free // 1_000_000
        except OSError:
            return None

    def _result(self, seq: int) -> tuple[str, dict, int, bool] | None:
        s = self.session
        result = s.result()
        if result is None:
            return None
        self._published_result = s.game_id
        out = {**result.to_dict(), **self._head(seq), "game_name": s.desc.name, "game_id": s.game_id,
               "players_seated": list(s.state.players), "started": s.started, "finished": s.clock.now()}
        return (self.settings.topic("result"), out, 1, True)

    def _queue(self, messages: list, seq: int | None = None) -> None:
        for topic, payload, _, _ in messages:
            if topic == self._status_topic:
                self._last_status = json.dumps({**payload, "stream": self.outbox.stream}).encode()
        try:
            self.outbox.put(messages, seq)
        except StoreError as err:
            self.failures += 1
            _log.error("venue: the outbox could not be written (%s); the dashboard misses this input", err)
            return
        self._unsynced.set()
        self._wake.set()

    # ------------------------------------------------------------ the sending thread

    def connect(self) -> "VenuePublisher":
        """Start sending (a background thread; returns at once, broker or not)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="venue-publisher", daemon=True)
            self._thread.start()
        return self

    def close(self, timeout: float = 1.0) -> None:
        """Say the table is going offline, wait up to ``timeout`` seconds for the outbox
        to go out, and stop. What is left waits in the store for the next start."""
        if self._thread is None:
            return
        status = self._status()
        status[1]["online"] = False
        self._queue([status])
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.connected.is_set() and self._unacked():
            time.sleep(0.02)
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout=2.0)
        self._thread = None

    def _unacked(self) -> bool:
        try:
            return self.outbox.waiting() > 0
        except StoreError:
            return False

    def will(self) -> bytes:
        """The last will the broker publishes (retained) on the status topic when the table
        vanishes without a goodbye."""
        s = self.settings
        return json.dumps({"v": VERSION, "venue": s.venue, "table": s.table, "online": False, "will": True}).encode()

    def _client(self):
        import paho.mqtt.client as mqtt

        if self._client_factory is not None:
            return self._client_factory()
        s = self.settings
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"sugar-{s.venue}-{s.table}",
                             clean_session=True, protocol=mqtt.MQTTv311)
        s.broker.configure(client)
        client.will_set(self._status_topic, self.will(), qos=1, retain=True)
        client.reconnect_delay_set(*RECONNECT)
        client.max_inflight_messages_set(WINDOW)
        return client

    def _valid(self, row) -> bool:
        """The outbox row is what its topic's schema describes (checked here, on the sending
        thread, not the table's). One that is not is a bug of this program: logged, counted
        in :attr:`invalid` and not sent (the dashboard would drop it unread)."""
        try:
            schema.read(row.topic.rpartition("/")[2], row.payload)
            return True
        except schema.Unreadable as err:
            self.invalid += 1
            _log.error("venue: message %d on %s is %s (%s); not sent", row.seq, row.topic, err,
                       schema.why(row.topic.rpartition("/")[2], json.loads(row.payload)))
            return False

    def _run(self) -> None:
        acked: set[int] = set()
        lock = threading.Lock()
        handed: list[int] = []          # row ids handed to paho, oldest first, not yet marked sent
        fresh = threading.Event()       # a new connection: say "online" again first

        def on_connect(client, userdata, flags, reason_code, properties):
            if not reason_code.is_failure:
                self.connected.set()
                fresh.set()
                self._wake.set()
            else:
                _log.warning("venue: the broker %s refused the table: %s", self.settings.broker.url(), reason_code)

        def on_disconnect(client, userdata, flags, reason_code, properties):
            self.connected.clear()

        def on_publish(client, userdata, mid, reason_code, properties):
            with lock:
                acked.add(mid)
            self._wake.set()

        client = self.client = self._client()
        client.on_connect, client.on_disconnect, client.on_publish = on_connect, on_disconnect, on_publish
        b = self.settings.broker
        client.connect_async(b.host, b.port, keepalive=KEEPALIVE)
        client.loop_start()
        mids: dict[int, int] = {}       # paho message id -> outbox row id
        early: set[int] = set()         # row ids acknowledged before an older one was
        last = 0
        try:
            while not self._stopping.is_set():
                self._wake.wait(1.0)
                self._wake.clear()
                if self._unsynced.is_set():  # broker or not: the outbox on disk, off the table's thread
                    self._unsynced.clear()
                    try:
                        self.session.store.sync()
                    except OSError as err:
                        _log.warning("venue: could not sync the outbox: %s", err)
                if not self.connected.is_set():
                    continue
                if fresh.is_set() and self._last_status is not None:
                    fresh.clear()
                    info = client.publish(self._status_topic, self._last_status, qos=1, retain=True)
                    with lock:
                        mids[info.mid] = 0  # not an outbox row
                room = WINDOW - len(handed)
                rows = self.outbox.pending(limit=room, after=last) if room > 0 else []
                for row in rows:
                    handed.append(row.id)
                    last = row.id
                    if not self._valid(row):
                        early.add(row.id)  # never sent: passed over as if the broker took it
                        continue
                    info = client.publish(row.topic, row.payload, qos=row.qos, retain=row.retain)
                    with lock:
                        mids[info.mid] = row.id
                with lock:
                    known = [m for m in acked if m in mids]  # an ack may come before its mid is noted
                    early.update(row for row in (mids.pop(m) for m in known) if row)
                    acked.difference_update(known)
                upto = None
                while handed and handed[0] in early:  # marked sent only as an unbroken run from the oldest
                    upto = handed.pop(0)
                    early.discard(upto)
                    self.sent += 1
                if upto is not None:
                    self.outbox.mark_sent(upto)
        except StoreError as err:
            _log.error("venue: the outbox could not be read (%s); venue publishing stopped", err)
        finally:
            client.disconnect()
            client.loop_stop()
