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
    ``disk_free_mb``, ``refused_in_a_row``, ``since`` (the oldest event number the table
    still keeps, to send again). The broker's last will is ``{"online": false}``.
``events`` (QoS 1)
    ``seq``, ``t`` (the table's clock), ``wall`` (seconds since the epoch), ``game_id``,
    ``input`` (scan, touch, tilt, level, button), ``verdict`` (accepted, rejected,
    ignored), ``text`` (what the table read), ``stored`` (the input's number in the game,
    None when not stored), ``refused_in_a_row``.
``result`` (retained, QoS 1)
    the ``companion score --json`` shape (``game``, ``players``, ``winners``,
    ``tie_break``, ``reason``) with ``game_name``, ``game_id``, ``players_seated``,
    ``started`` and ``finished`` (the table's clock).

The table subscribes to ``resend`` (QoS 1; only the dashboard's login may write it): the
dashboard asks for event numbers it is missing (and a game's result) and the table sends
them again, as they were, from the rows its outbox keeps (:meth:`VenuePublisher.resend`).
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
from . import sender
from .link import Problem
from .outbox import Outbox, OutboxFull
from .sender import RECONNECT  # noqa: F401  (where it always was)
from .settings import VenueSettings

_log = logging.getLogger(__name__)

#: Message format version.
VERSION = 1
#: Messages handed to paho-mqtt and not yet acknowledged, at most.
WINDOW = 200
#: A broker that cannot be reached is shown on the panel once it has been away this long
#: (seconds; at once when the table never reached it).
GRACE = 3.0
#: The venue's name among the table's devices (its top bar), never published.
DEVICE = "venue"
#: MQTT keep-alive (s): the broker sends the last will this long (x1.5) after a table vanishes.
KEEPALIVE = 15
#: Requests to send again waiting at most (more are dropped: the dashboard asks again).
RESEND_QUEUE = 16
#: Events sent again for one request, at most (the dashboard asks for the rest next time).
RESEND_MAX = 2000


def _said_at(total: int, added: int) -> bool:
    """``total`` just passed 1, 10, 100, 1000 ... (by ``added``)."""
    mark = 1
    while mark <= total:
        if total - added < mark:
            return True
        mark *= 10
    return False


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
    paho-mqtt client (tests); ``report`` takes a :class:`DeviceStatus` for the venue's link
    (``"venue"``: ``"connected"``, or ``"disconnected"`` with the problem in words, see
    :mod:`companion.venue.link`), for the panel: the runner's input queue.

    :meth:`connect` starts sending; :meth:`close` says the table is going offline and stops.
    Raises :class:`~companion.core.errors.StoreError` when the store has no room for
    the outbox (at construction only; later failures are logged, never raised into the
    table's loop).
    """

    def __init__(self, settings: VenueSettings, session, clocks: Callable[[], dict] | None = None,
                 turn_limit: float | None = None, disk: str | Path | None = None,
                 client_factory: Callable | None = None, screen: Callable[[], str | None] | None = None,
                 report: Callable[[DeviceStatus], None] | None = None):
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
        self.report = report
        self.problem: Problem | None = None  # why the messages do not reach the broker now (None: they do)
        self.refused = 0         # messages the broker refused for good (a bad topic, too big: logged)
        self.keepalive, self.window = KEEPALIVE, WINDOW
        self._shown: tuple[str, str] | None = None
        self._failing_since: float | None = None
        self._ever_connected = False
        self._level: str | None = None      # the outbox's level last said
        self._asked: list[dict] = []   # the dashboard's requests to send again, oldest first
        self.resent = 0          # events sent again on the dashboard's request (this process)
        self._drops: list[float] = []       # when the broker dropped a connection it had taken (monotonic)
        self._shared_at: float | None = None  # when another table with this login last pushed this one off

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
                if item.device == DEVICE:
                    return  # the venue's own link: the dashboard knows whether the table is there
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
                  "refused_in_a_row": self._refused[1], "since": self.outbox.since,
                  **({"login_shared": True} if self.shared() else {})}
        return (self._status_topic, status, 1, True)

    def shared(self) -> bool:
        """Another table is using this table's broker login now (it keeps pushing this one
        off): the status says so, for the dashboard's card."""
        return self._shared_at is not None

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
        except OutboxFull as err:
            n = self.outbox.left_out
            if _said_at(n, len(messages)):  # the 1st, 10th, 100th ... left out: a full outbox fills no journal
                _log.error("venue: %s (the games are stored as always; the dashboard sees a gap)", err)
            self._wake.set()  # the panel says so
            return
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
            self._tell_doctor("connecting")  # (a word from an earlier run would be stale)
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
        # MQTT 5: a message the broker's ACL refuses is acknowledged "Not authorized" (over
        # 3.1.1 it is acknowledged as if taken, and lost without a word).
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"sugar-{s.venue}-{s.table}",
                             protocol=mqtt.MQTTv5, reconnect_on_failure=False)
        s.broker.configure(client)
        client.will_set(self._status_topic, self.will(), qos=1, retain=True)
        client.connect_timeout = sender.CONNECT_TIMEOUT
        client.max_inflight_messages_set(self.window)
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

    # ------------------------------------------------------------ sending again

    def _listen_for_resend(self, client) -> None:
        """Subscribe to this table's ``resend`` topic (on each connection: the session is
        clean); a request is checked against its schema and queued for the sending thread."""
        topic = self.settings.topic("resend")

        def on_message(c, userdata, message):
            if message.topic != topic:
                return
            try:
                ask = schema.read("resend", message.payload)
            except schema.Unreadable as err:
                _log.warning("venue: a request to send again was unreadable (%s); ignored", err)
                return
            s = self.settings
            if (ask["venue"], ask["table"], ask["stream"]) != (s.venue, s.table, self.outbox.stream):
                return  # another store's numbers (this table's store was replaced): nothing to send
            if len(self._asked) < RESEND_QUEUE:
                self._asked.append(ask)
                self._wake.set()

        client.on_message = on_message
        client.subscribe(topic, qos=1)

    def resend(self, client, note: Callable[[int, str], None], lock) -> None:
        """Answer the dashboard's requests (on the sending thread): each event it names and
        the outbox keeps, as it was sent (at most :data:`RESEND_MAX` a request), and the
        result it names. ``note(mid, topic)`` is called, holding ``lock``, for each message
        handed to paho (not outbox rows: nothing is marked sent for them)."""
        while self._asked:
            ask = self._asked.pop(0)
            rows, left = [], RESEND_MAX
            try:
                for first, last in ask["events"]:
                    if left > 0 and first <= last:
                        got = self.outbox.kept(self.settings.topic("events"), first, last, limit=left)
                        rows += got
                        left -= len(got)
                if ask["result"] is not None:
                    row = self.outbox.kept_result(self.settings.topic("result"), ask["result"])
                    rows += [row] if row is not None else []
            except StoreError as err:  # the dashboard asks again; the table goes on sending
                _log.warning("venue: could not read what the dashboard asked for again: %s", err)
                continue
            for row in rows:  # never retained: an old game's result must not replace the newest
                info = client.publish(row.topic, row.payload, qos=row.qos, retain=False)
                with lock:
                    note(info.mid, row.topic)
            self.resent += len(rows)
            _log.info("venue: the dashboard asked again; %d message(s) sent again", len(rows))

    def _run(self) -> None:
        sender.run(self)

    def _sync(self) -> None:
        """Put the outbox rows written since the last time on disk (broker or not, off the
        table's thread)."""
        if self._unsynced.is_set():
            self._unsynced.clear()
            try:
                self.session.store.sync()
            except OSError as err:
                _log.warning("venue: could not sync the outbox: %s", err)

    # ------------------------------------------------------------ what the table shows

    def _tell_doctor(self, status: str) -> None:
        """Write how the link is next to the store (``companion doctor`` reads it while the
        service runs, instead of logging in a second time)."""
        path = self.session.store.path
        if path == ":memory:":
            return
        p = self.problem
        said = {"status": status, "at": time.time(), "broker": self.settings.broker.url(),
                **({"kind": p.kind, "panel": p.panel, "detail": p.detail, "fix": p.fix} if p else {})}
        target = Path(path).with_name(Path(path).name + "-venue.json")
        try:
            tmp = target.with_name(target.name + ".tmp")
            tmp.write_text(json.dumps(said), encoding="utf-8")
            tmp.replace(target)
        except OSError as err:
            _log.debug("venue: could not write %s: %s", target, err)

    def _trouble(self, problem: Problem) -> None:
        """The messages do not reach the broker, for ``problem``: said once in the log and
        on the panel's device line (a broker that cannot be reached only after
        :data:`GRACE` s, once the table was connected: a broker restart is not news)."""
        now = time.monotonic()
        if self._failing_since is None:
            self._failing_since = now
        if problem.kind == "unreachable" and self.problem is None and self._ever_connected \
                and now - self._failing_since < GRACE:
            return
        if problem != self.problem:
            _log.warning("venue: %s (%s); retrying. Fix: %s", problem.detail, self.settings.broker.url(), problem.fix)
            self.problem = problem
        self._refresh()

    def _fine(self) -> None:
        """A connection the broker accepted (a login another table uses stays said until
        the connection held for ``sender.SHARED_CLEAR`` s)."""
        if self._shared_at is not None:
            self._ever_connected = True
            return
        if self.problem is not None:
            _log.info("venue: connected to %s again", self.settings.broker.url())
        elif not self._ever_connected:
            _log.info("venue: connected to %s", self.settings.broker.url())
        self.problem, self._failing_since, self._ever_connected = None, None, True
        self._refresh()

    def _refresh(self) -> None:
        """The panel's venue line: a filling outbox first (it is what will be lost), then a
        problem, else connected."""
        level, n = self.outbox.level(), self.outbox.count()
        if level != self._level:
            self._level = level
            if level is not None:
                _log.warning("venue: %s messages wait for the broker (at most %s: %s)", f"{n:,}",
                             f"{self.outbox.limit:,}", "full, new ones are left out" if level == "full" else
                             "the table is warned")
        if level == "full":
            self._show("disconnected", "Venue: outbox full")
        elif level == "warn":
            self._show("disconnected", f"Venue: outbox {n * 100 // self.outbox.limit // 10 * 10}%")
        elif self.problem is not None:
            self._show("disconnected", self.problem.panel)
        elif self._ever_connected:
            self._show("connected", "")

    def _show(self, status: str, detail: str) -> None:
        """The venue's line among the table's devices (its top bar), when it changed."""
        if (status, detail) == self._shown:
            return
        self._shown = (status, detail)
        self._tell_doctor(status)
        if self.report is not None:
            try:
                self.report(DeviceStatus(DEVICE, status, self.session.clock.now(), detail))
            except Exception:  # noqa: BLE001 - the panel's line must not stop the sending
                _log.exception("venue: could not show the venue's state on the panel")
