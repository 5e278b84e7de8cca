"""What the dashboard received, kept in its own SQLite file; and the holes in it, in words.

The broker's acknowledgement is not delivery: a broker that loses power before its
autosave forgets messages it had acknowledged to the tables. So the dashboard keeps each
table's events, its newest status and every finished game's result in a store of its
own (:class:`Received`: the standard library's ``sqlite3``, write-ahead log), and looks
for holes in the event numbers (:class:`companion.venue.numbers.RunSet`). A hole is asked for again on the table's
``resend`` topic, and the table answers from the events its game store keeps
(:mod:`companion.venue.publish`). After a restart the dashboard starts from this file, so
a hole it knew of, or one that opened while it was away, is still seen.

>>> gap_words("table-3", [(12, 15)], result=False, asks=1)
'events 12–15 missing: asked Table 3 again'
>>> gap_words("t1", [(4, 4)], result=True, asks=0)
'event 4 and the result missing: asking t1'
>>> gap_words("table-3", [(3, 5), (9, 9)], result=False, asks=12, given_up=True)
'events 3–5 and 9 missing: Table 3 could not send them again'
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from pathlib import Path

_log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    tbl     TEXT NOT NULL,
    stream  TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    payload BLOB NOT NULL,           -- the message as it came (checked against its schema)
    PRIMARY KEY (tbl, stream, seq)
);
CREATE TABLE IF NOT EXISTS status (
    tbl     TEXT PRIMARY KEY,
    payload BLOB NOT NULL            -- the newest status (not the broker's last will)
);
CREATE TABLE IF NOT EXISTS results (
    tbl     TEXT NOT NULL,
    stream  TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    payload BLOB NOT NULL,
    got     REAL,                    -- when it came (seconds since the epoch, the dashboard's clock)
    PRIMARY KEY (tbl, stream, game_id)
);
"""
#: How long and how many finished games the store keeps by default (``companion venue
#: --keep-days``, ``--keep-games``): a year, and a table's newest 1,000 games.
KEEP_DAYS, KEEP_GAMES = 365.0, 1000
#: Events shown on the page's card after a restart (the newest).
RECENT = 8


def host_name(name: str) -> str:
    """A table's name as a host says it: ``table-3`` is "Table 3"; any other as it is.

    >>> host_name("table-3"), host_name("Table_12"), host_name("bar-corner")
    ('Table 3', 'Table 12', 'bar-corner')
    """
    head, _, number = name.replace("_", "-").rpartition("-")
    return f"Table {number}" if head.lower() == "table" and number.isdigit() else name


def gap_words(name: str, holes: list[tuple[int, int]], result: bool, asks: int, given_up: bool = False) -> str:
    """What the page says of a table's missing events (and result) ("" for none);
    ``given_up``: asked so often that the table evidently no longer has them."""
    parts = []
    if holes:
        count = sum(b - a + 1 for a, b in holes)
        shown = [f"{a}" if a == b else f"{a}–{b}" for a, b in holes]
        if len(shown) > 3:
            parts.append(f"{count} events")
        else:
            words = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
            parts.append(f"event{'' if count == 1 else 's'} {words}")
    if result:
        parts.append("the result")
    if not parts:
        return ""
    asked = f"{host_name(name)} could not send them again" if given_up else \
        f"asked {host_name(name)} again" if asks else f"asking {host_name(name)}"
    return f"{' and '.join(parts)} missing: {asked}"


#: Seconds between the store's commits: the messages taken meanwhile are written in one
#: transaction by a thread of its own (one commit per message cost the dashboard's network
#: thread, which reads every table, a write to the WAL each time). A dashboard killed
#: between two commits forgets at most this long of messages, which it then misses by
#: their numbers and asks the tables for again, as after a power cut.
COMMIT_EVERY = 0.2


class Received:
    """The dashboard's store at ``path`` (a new file is made; ``":memory:"`` for tests).
    Every method is safe from any thread. Writes wait in memory and are committed together
    every :data:`COMMIT_EVERY` s by the store's own thread (and before every read, and at
    :meth:`close`); a write that fails is logged and counted in :attr:`failures`, never
    raised (the page goes on from memory). Raises ``sqlite3.Error`` (or OSError) at
    construction when the file cannot be opened."""

    def __init__(self, path: str | Path):
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self.failures = 0
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")      # a reader never waits for the writer
            self._db.execute("PRAGMA synchronous=NORMAL")    # a commit is not an fsync: a power cut
            self._db.executescript(SCHEMA)                    # loses the last ones, which are asked again
            columns = [row[1] for row in self._db.execute("PRAGMA table_info(results)")]
            if "got" not in columns:  # a store from before trimming: its games count from now
                self._db.execute("ALTER TABLE results ADD COLUMN got REAL")
                self._db.execute("UPDATE results SET got = ?", (time.time(),))
        self._waiting: list[tuple[str, tuple]] = []       # writes not yet committed, in order
        self._more = threading.Condition(threading.Lock())
        self._closing = False
        self._writer = threading.Thread(target=self._commit_loop, name="venue-store", daemon=True)
        self._writer.start()

    def _write(self, sql: str, args: tuple) -> None:
        with self._more:
            self._waiting.append((sql, args))
            if len(self._waiting) == 1:
                self._more.notify()

    def _commit_loop(self) -> None:
        while True:
            with self._more:
                while not self._waiting and not self._closing:
                    self._more.wait()
                if self._closing:
                    return
            time.sleep(COMMIT_EVERY)  # (what comes meanwhile joins this commit)
            self.commit()

    def commit(self) -> None:
        """Write every waiting message now, in one transaction."""
        with self._lock:
            with self._more:
                batch, self._waiting = self._waiting, []
            if not batch:
                return
            try:
                self._db.execute("BEGIN")
                for sql, args in batch:
                    self._db.execute(sql, args)
                self._db.execute("COMMIT")
            except sqlite3.Error as err:
                try:
                    self._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                self.failures += 1
                if self.failures in (1, 10, 100, 1000):
                    _log.error("venue: could not keep %d message(s) in %s: %s (%d failures so far)", len(batch),
                               self.path, err, self.failures)

    def event(self, table: str, stream: str, seq: int, payload: bytes) -> None:
        self._write("INSERT OR IGNORE INTO events (tbl, stream, seq, payload) VALUES (?, ?, ?, ?)",
                    (table, stream, seq, bytes(payload)))

    def status(self, table: str, payload: bytes) -> None:
        self._write("INSERT OR REPLACE INTO status (tbl, payload) VALUES (?, ?)", (table, bytes(payload)))

    def result(self, table: str, stream: str, game_id: int, payload: bytes) -> None:
        self._write("INSERT OR IGNORE INTO results (tbl, stream, game_id, payload, got) VALUES (?, ?, ?, ?, ?)",
                    (table, stream, game_id, bytes(payload), time.time()))

    def trim(self, keep_days: float = KEEP_DAYS, keep_games: int = KEEP_GAMES,
             now: float | None = None) -> list[tuple[str, str, int]]:
        """Let go of finished games that came over ``keep_days`` days ago or are past the
        newest ``keep_games`` of their table, and of the events nothing can ask for again:
        those of a table's earlier streams (its earlier stores: their games are over) and
        those before its status's ``since`` (the table no longer keeps them either). A
        table's newest status stays. Returns the ``(table, stream, game_id)`` of the games
        let go of. ``now``: seconds since the epoch. Raises nothing (a failure is logged)."""
        now = time.time() if now is None else now
        self.commit()
        try:
            with self._lock:
                self._db.execute("BEGIN")
                gone = self._db.execute(
                    "SELECT tbl, stream, game_id FROM results WHERE got < ? OR rowid IN (SELECT rowid FROM "
                    "(SELECT rowid, ROW_NUMBER() OVER (PARTITION BY tbl ORDER BY got DESC, rowid DESC) AS n "
                    "FROM results) WHERE n > ?)", (now - keep_days * 86400, keep_games)).fetchall()
                self._db.executemany("DELETE FROM results WHERE tbl = ? AND stream = ? AND game_id = ?", gone)
                self._db.execute(
                    "DELETE FROM events WHERE rowid IN (SELECT e.rowid FROM events e JOIN status s ON s.tbl = e.tbl "
                    "WHERE e.stream IS NOT json_extract(CAST(s.payload AS TEXT), '$.stream') "
                    "OR e.seq < COALESCE(json_extract(CAST(s.payload AS TEXT), '$.since'), 0))")
                self._db.execute("COMMIT")
        except sqlite3.Error as err:
            try:
                with self._lock:
                    self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            _log.error("venue: could not trim %s: %s", self.path, err)
            return []
        if gone:
            _log.info("venue: %d finished game(s) let go of from %s (older than %g days, or past %d a table)",
                      len(gone), self.path, keep_days, keep_games)
        return [(t, st, g) for t, st, g in gone]

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        self.commit()
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def statuses(self) -> list[tuple[str, bytes]]:
        """Every table's newest status, as it came."""
        return [(t, bytes(p)) for t, p in self._query("SELECT tbl, payload FROM status ORDER BY tbl")]

    def seqs(self, table: str, stream: str) -> list[int]:
        """The event numbers received from ``table`` in ``stream``, in order."""
        return [s for (s,) in self._query("SELECT seq FROM events WHERE tbl = ? AND stream = ? ORDER BY seq",
                                          (table, stream))]

    def recent(self, table: str, stream: str, n: int = RECENT) -> list[bytes]:
        """The newest ``n`` events of ``table`` in ``stream``, newest first."""
        return [bytes(p) for (p,) in self._query("SELECT payload FROM events WHERE tbl = ? AND stream = ? "
                                                 "ORDER BY seq DESC LIMIT ?", (table, stream, n))]

    def results(self) -> list[bytes]:
        """Every finished game's result, as it came."""
        return [bytes(p) for (p,) in self._query("SELECT payload FROM results ORDER BY rowid")]

    def close(self) -> None:
        """Commit what waits and close the file."""
        with self._more:
            self._closing = True
            self._more.notify()
        self._writer.join(timeout=5.0)
        self.commit()
        with self._lock:
            self._db.close()
