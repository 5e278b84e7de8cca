"""The venue outbox: the messages a table owes the café's broker, kept in its game store.

The session's thread only appends here (one small commit per verdict, not waited on:
see :meth:`EventStore.transaction` with ``durable=False``). The publisher's thread puts
it on disk at once (:meth:`EventStore.sync`, broker or not), and the table's next stored
input would too: a power cut can lose only the messages of the last few milliseconds,
never a game input (those are committed and synced before the screen changes). The
publisher's thread also reads
the oldest unsent rows, hands them to the broker in order and marks them sent once the
broker acknowledged them. A broker that is down leaves the rows waiting; a power cut or a
restart leaves them in the file, to go out (again) when the companion starts: a message
may then reach the broker twice, and consumers drop repeats by their sequence number.

The outbox has a bound: at most :data:`LIMIT` messages wait (about 14 MB on the card;
days of a busy table whose broker is away). From :data:`WARN_AT` on, the table's panel
and ``companion doctor`` warn, and the older of the waiting ``status`` messages are left
out (each is the whole table at one moment, retained: the newest says all the older ones
did). At the bound, a verdict's messages are not queued: counted in :attr:`Outbox.left_out`,
logged and shown ("Venue: outbox full"); the event numbers go on counting, so the dashboard
sees the gap, and the game itself is stored as always (the inputs are in the game store).

Each store has its own message stream (a UUID): event numbers count 1, 2, 3 ... within a
stream, so a dashboard that sees a new stream for a table starts counting afresh.

A sent status is let go of once a newer one is sent (it only says "the table now"), but
sent events and results stay, the newest :data:`KEEP` of them: a broker that lost what it
had acknowledged (a power cut before its autosave) loses nothing for good, because the
dashboard sees the hole in the numbers and asks again (:meth:`Outbox.kept`, answered by
the publisher). :attr:`Outbox.since` is the oldest event number still kept.

>>> from companion.core.store import EventStore
>>> box = Outbox(EventStore(":memory:"))
>>> box.next_seq()
1
>>> box.put([("sugar/cafe/tables/t1/events", {"seq": 1, "verdict": "accepted"}, 1, False)], seq=1)
>>> [(r.topic, r.seq) for r in box.pending()]
[('sugar/cafe/tables/t1/events', 1)]
>>> box.mark_sent(box.pending()[-1].id); box.pending(), box.next_seq()
([], 2)
"""

from __future__ import annotations

import json
import uuid
import threading
from dataclasses import dataclass

from ..core.errors import StoreError
from ..core.store import EventStore

#: At most this many messages wait for the broker (a status is about 700 bytes on disk).
LIMIT = 20_000
#: From this many on, the panel and companion doctor warn, and older statuses are left out.
WARN_AT = 10_000
#: Room an input's messages need (an event, a status and a result).
ROOM = 3


class OutboxFull(StoreError):
    """The outbox holds :data:`LIMIT` messages: these were not queued (counted)."""


#: Sent events and results kept for a dashboard that asks for them again (a busy table
#: sends about 2,000 events in a day, each about 350 bytes: some days of them).
KEEP = 20_000
#: Every this many :meth:`Outbox.mark_sent`, rows past :data:`KEEP` are let go of.
TRIM_EVERY = 256

@dataclass(frozen=True)
class Row:
    """One waiting message: ``payload`` is the JSON bytes sent as they are."""

    id: int
    seq: int
    topic: str
    payload: bytes
    qos: int
    retain: bool


class Outbox:
    """The ``outbox`` table of an :class:`EventStore` (store format 3).

    Raises :class:`~companion.core.errors.StoreError` from every method when the store
    cannot be read or written."""

    def __init__(self, store: EventStore, limit: int = LIMIT, warn_at: int = WARN_AT):
        self.store = store
        self.limit, self.warn_at = limit, warn_at
        rows = store.query("SELECT stream, seq FROM outbox ORDER BY id DESC LIMIT 1")
        self.stream = rows[0][0] if rows else str(uuid.uuid4())
        self._seq = rows[0][1] if rows else 0
        self._lock = threading.Lock()
        self._waiting = self.waiting()
        self._compacted_at = 0      # how many were waiting at the last leaving-out of old statuses
        self.left_out = 0           # messages not queued because the outbox was full
        self.superseded = 0         # older statuses left out (the newest says what they said)
        self._swept = 0          # sent statuses let go of up to this row id
        self._marks = 0
        self.since = self._oldest()

    def _oldest(self) -> int:
        """The oldest event number kept in this store's stream (the next one when none is)."""
        rows = self.store.query("SELECT MIN(seq) FROM outbox WHERE stream = ? AND topic LIKE '%/events'",
                                (self.stream,))
        return rows[0][0] if rows and rows[0][0] is not None else self._seq + 1

    def next_seq(self) -> int:
        """The number the next event gets."""
        return self._seq + 1

    def put(self, messages: list[tuple[str, dict, int, bool]], seq: int | None = None) -> None:
        """Append ``(topic, payload, qos, retain)`` messages in one commit (not waited on:
        on disk at the session's next stored input, or the publisher's :meth:`sync`).
        ``seq``: the event number these messages carry (the newest so far when None).
        Every payload gets the ``stream``."""
        seq = self._seq if seq is None else seq
        if self._waiting + len(messages) > self.limit and self._waiting != self._compacted_at:
            self._leave_out_old_statuses()  # first what loses nothing
        elif self._waiting >= self.warn_at and self._waiting - self._compacted_at >= max(1, self.warn_at // 20):
            self._leave_out_old_statuses()
        if self._waiting + len(messages) > self.limit:
            self._seq = max(self._seq, seq)  # the numbers go on: the dashboard sees the gap
            self.left_out += len(messages)
            raise OutboxFull(f"the venue outbox is full ({self._waiting:,} messages wait for the broker); "
                             f"{self.left_out:,} left out so far")
        rows = [(self.stream, seq, topic, json.dumps({**payload, "stream": self.stream}, ensure_ascii=False,
                                                     separators=(",", ":")).encode(), qos, int(retain))
                for topic, payload, qos, retain in messages]
        with self.store.transaction(durable=False) as db:
            db.executemany("INSERT INTO outbox (stream, seq, topic, payload, qos, retain) VALUES (?, ?, ?, ?, ?, ?)",
                           rows)
        self._seq = max(self._seq, seq)
        with self._lock:
            self._waiting += len(rows)

    def _leave_out_old_statuses(self) -> None:
        """Delete the waiting ``status`` messages but the newest (each is the whole table at
        one moment, retained on the broker: only the newest counts)."""
        with self.store.transaction(durable=False) as db:
            gone = db.execute("DELETE FROM outbox WHERE sent = 0 AND topic LIKE '%/status' AND id < "
                              "(SELECT MAX(id) FROM outbox WHERE sent = 0 AND topic LIKE '%/status')").rowcount
        with self._lock:
            self._waiting -= gone
            self._compacted_at = self._waiting
        self.superseded += gone

    def count(self) -> int:
        """How many messages wait (kept in memory: no query)."""
        return self._waiting

    def level(self) -> str | None:
        """``"full"`` (the next input's messages would not fit), ``"warn"`` (from
        :data:`WARN_AT`) or None."""
        n = self._waiting
        return "full" if n + ROOM > self.limit else "warn" if n >= self.warn_at else None

    def pending(self, limit: int = 100, after: int = 0) -> list[Row]:
        """The oldest unsent messages after row ``after``, oldest first (at most ``limit``)."""
        rows = self.store.query("SELECT id, seq, topic, payload, qos, retain FROM outbox WHERE sent = 0 AND id > ? "
                                "ORDER BY id LIMIT ?", (after, limit))
        return [Row(i, s, t, bytes(p), q, bool(r)) for i, s, t, p, q, r in rows]

    def waiting(self) -> int:
        """How many messages wait to be sent."""
        return self.store.query("SELECT COUNT(*) FROM outbox WHERE sent = 0")[0][0]

    def mark_sent(self, upto: int) -> None:
        """Every row up to id ``upto`` was acknowledged: mark it sent and let go of older
        sent statuses (the newest sent row stays: it carries the stream's number over a
        restart), keeping events and results (:data:`KEEP`) for a dashboard that asks
        again. One commit, not waited on: a row sent again after a power cut is a repeat
        the consumers drop."""
        self._marks += 1
        trim = self._marks % TRIM_EVERY == 0
        with self.store.transaction(durable=False) as db:
            done = db.execute("UPDATE outbox SET sent = 1 WHERE id <= ? AND sent = 0", (upto,)).rowcount
            db.execute("DELETE FROM outbox WHERE id > ? AND id < ? AND sent = 1 AND topic NOT LIKE '%/events' "
                       "AND topic NOT LIKE '%/result'", (self._swept, upto))
            if trim:
                db.execute("DELETE FROM outbox WHERE sent = 1 AND id < (SELECT id FROM outbox WHERE sent = 1 "
                           "ORDER BY id DESC LIMIT 1 OFFSET ?)", (KEEP - 1,))
        with self._lock:
            self._waiting -= done
        self._swept = max(self._swept, upto - 1)
        if trim:
            self.since = self._oldest()

    def kept(self, topic: str, first: int, last: int, limit: int = 2000) -> list[Row]:
        """The sent rows of ``topic`` (this stream's events) numbered ``first`` to ``last``,
        oldest first (at most ``limit``): what a dashboard that missed them asks for."""
        rows = self.store.query("SELECT id, seq, topic, payload, qos, retain FROM outbox WHERE stream = ? AND "
                                "topic = ? AND seq BETWEEN ? AND ? AND sent = 1 ORDER BY id LIMIT ?",
                                (self.stream, topic, first, last, limit))
        out, seen = [], set()
        for i, s, t, p, q, r in rows:
            if s not in seen:
                seen.add(s)
                out.append(Row(i, s, t, bytes(p), q, bool(r)))
        return out

    def kept_result(self, topic: str, game_id: int) -> Row | None:
        """The sent result of game ``game_id`` in this stream (None: not kept)."""
        rows = self.store.query("SELECT id, seq, topic, payload, qos, retain FROM outbox WHERE stream = ? AND "
                                "topic = ? AND sent = 1 ORDER BY id DESC", (self.stream, topic))
        for i, s, t, p, q, r in rows:
            try:
                if json.loads(p).get("game_id") == game_id:
                    return Row(i, s, t, bytes(p), q, bool(r))
            except ValueError:
                continue
        return None
