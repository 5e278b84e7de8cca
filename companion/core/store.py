"""The event store: every accepted input, committed to SQLite before the screen changes.

One file holds every game played at this table. Inputs are appended in order, and an
unfinished game is rebuilt on start by replaying them through the rules (replay is
deterministic: inputs carry their own times). The file uses WAL and
``synchronous=FULL`` so that an input whose :meth:`EventStore.append` returned survives
a power cut.

>>> store = EventStore(":memory:")
>>> gid = store.new_game("sugarrr", ["Ana", "Ben"], started=0.0)
>>> store.append(gid, Touch("done", 1.0))
1
>>> store.inputs(gid)
[Touch(command='done', t=1.0)]
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import DamagedStore, StoreError
from .events import Input, Touch, input_from_dict, input_to_dict  # noqa: F401  (Touch: doctest)

#: Where ``companion run`` keeps a table's games unless told otherwise (``$XDG_DATA_HOME``).
DEFAULT_STORE = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local/share")) / "sugar-companion" / "table.db"
#: The store format this version writes (``PRAGMA user_version``). 0 is a file written
#: before formats were numbered: format 1 if its games have no ``config`` column, else 2.
#: Format 3 adds the venue outbox (messages for a café's broker, companion.venue.outbox).
#: Format 4 adds the roster (the names this table has played with, for the start screen),
#: filled from the stored games when an older store is upgraded.
SCHEMA_VERSION = 4
#: Tables a companion store may hold (the NFC enrolments, the venue outbox and the roster
#: live beside the games).
_OUR_TABLES = {"games", "inputs", "enrolments", "outbox", "roster"}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id        INTEGER PRIMARY KEY,
    game      TEXT NOT NULL,
    players   TEXT NOT NULL,          -- JSON list of names, in seat order
    started   REAL NOT NULL,          -- seconds since the epoch
    finished  REAL,                   -- NULL while the game is unfinished
    result    TEXT,                   -- JSON outcome once finished
    config    TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS inputs (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    seq       INTEGER NOT NULL,       -- 1, 2, 3 ... within a game
    t         REAL NOT NULL,
    payload   TEXT NOT NULL,          -- JSON of the input (companion.core.events)
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS outbox (
    id        INTEGER PRIMARY KEY,    -- the order messages go out in
    stream    TEXT NOT NULL,          -- this store's message stream (a UUID: one per store)
    seq       INTEGER NOT NULL,       -- the newest event's number when written (1, 2, 3 ...)
    topic     TEXT NOT NULL,
    payload   BLOB NOT NULL,
    qos       INTEGER NOT NULL,
    retain    INTEGER NOT NULL,
    sent      INTEGER NOT NULL DEFAULT 0  -- 1 once the broker acknowledged it
);
CREATE TABLE IF NOT EXISTS roster (
    name      TEXT PRIMARY KEY COLLATE NOCASE,  -- a player's name as last written
    seen      REAL NOT NULL,          -- their newest game's start (or when added), epoch seconds
    seat      INTEGER NOT NULL DEFAULT 0  -- their seat in that game, from 1 (0: added by hand)
);
"""

#: A game's players into the roster: a name seen again keeps its newest spelling and time.
_REMEMBER = ("INSERT INTO roster (name, seen, seat) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE "
             "SET name = excluded.name, seen = excluded.seen, seat = excluded.seat WHERE excluded.seen >= seen")


@dataclass(frozen=True)
class GameRecord:
    """One game in the store. Times in seconds since the epoch; ``result`` is None until
    the game is finished."""

    id: int
    game: str
    players: tuple[str, ...]
    started: float
    finished: float | None
    result: dict[str, Any] | None
    config: dict[str, Any]
    inputs: int


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _game_record(row: tuple) -> GameRecord:
    """A ``games`` row as a :class:`GameRecord`, every field checked: a row SQLite reads
    but whose values are not what the companion wrote (a damaged card) raises
    ValueError, which :meth:`EventStore._reading` reports as a damaged store."""
    gid, game, players, started, finished, result, config, inputs = row
    players = json.loads(players)
    result = json.loads(result) if result else None
    config = json.loads(config)
    if not (isinstance(gid, int) and isinstance(game, str) and _number(started)
            and (finished is None or _number(finished))):
        raise ValueError(f"game {gid!r} has a wrong id, game name or time")
    if not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        raise ValueError(f"game {gid}: its players are not a list of names")
    if not (result is None or isinstance(result, dict)) or not isinstance(config, dict):
        raise ValueError(f"game {gid}: its result or options are not what was saved")
    return GameRecord(gid, game, tuple(players), float(started), None if finished is None else float(finished),
                      result, config, inputs)


def _corrupt(exc: sqlite3.Error) -> bool:
    """Is this SQLite's "the file is damaged" (SQLITE_CORRUPT), not a full disk or a lock?"""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF == sqlite3.SQLITE_CORRUPT
    return "malformed" in str(exc)


class EventStore:
    """An SQLite event store at ``path`` (``":memory:"`` for tests).

    Raises :class:`StoreError` with a message naming the file when it cannot be opened
    or is not a companion store.
    """

    def __init__(self, path: str | Path, readonly: bool = False, exclusive: bool = False):
        self.path = str(path)
        self.readonly = readonly
        self._lock = threading.Lock()
        self._holder = None  # the open file whose flock says "a table is running on this store"
        self.migrated_from: int | None = None   # the old format an open upgraded, if any
        self.backup: Path | None = None          # the copy kept aside before that upgrade
        try:
            if readonly:
                self._db = self._open_readonly()
            else:
                if self.path != ":memory:":
                    Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                    _create_private(self.path)
                self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            version = self._version()
            self._check()
            if exclusive and self.path != ":memory:":
                self._hold()
            if not readonly:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._upgrade(version)
        except StoreError:
            self._close_quietly()
            raise
        except sqlite3.OperationalError as exc:  # e.g. a read-only file system, a missing folder
            self._close_quietly()
            raise StoreError(f"cannot open the game store {self.path}: {exc}. Check the folder exists and is "
                             "writable (not a read-only card), or pass --store with another file.") from exc
        except sqlite3.DatabaseError as exc:
            self._close_quietly()
            if _corrupt(exc):
                raise self._damaged(exc) from exc
            raise StoreError(f"{self.path} is not a companion game store ({exc}): "
                             "pass --store with another file") from exc
        except (sqlite3.Error, OSError) as exc:
            self._close_quietly()
            raise StoreError(f"cannot open the game store {self.path}: {exc}. "
                             "Check the path exists and is writable, or pass --store with another file.") from exc

    def _close_quietly(self) -> None:
        """Let go of a half-opened file (an open that failed)."""
        db = getattr(self, "_db", None)
        if db is not None:
            try:
                db.close()
            except sqlite3.Error:
                pass

    def _damaged(self, detail: object) -> DamagedStore:
        """The one-line error for a damaged file: what is wrong, and how to go on."""
        detail = " ".join(str(detail).split())
        backups = sorted(Path(self.path).parent.glob(Path(self.path).name + ".*.bak")) \
            if self.path != ":memory:" else []
        backup = f" (a copy of an older format is in {backups[-1]})" if backups else ""
        problem = f"the game store {self.path} is damaged ({detail})"
        err = DamagedStore(f"{problem}, so its games cannot be read: use a backup copy with --store BACKUP{backup}, "
                           f"or move the file aside to start afresh: mv {self.path} {self.path}.damaged")
        err.problem = problem
        return err

    def _check(self) -> None:
        """Raise :class:`DamagedStore` unless SQLite's ``quick_check`` finds the file
        sound (every page readable, every row where its index says). Linear in the file's
        size: a few milliseconds for a table's years of games."""
        if self.path == ":memory:":
            return
        rows = self._db.execute("PRAGMA quick_check(1)").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            found = " ".join(line.strip() for line in str(rows[0][0] if rows else "no answer").splitlines()
                             if line.strip() and not line.startswith("***"))
            raise self._damaged(f"SQLite's check found: {found}")

    @contextmanager
    def _reading(self):
        """Read under the store's lock: an SQLite error (a file damaged since it was
        opened) or a row that does not decode becomes a :class:`StoreError`."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                if _corrupt(exc):
                    raise self._damaged(exc) from exc
                raise StoreError(f"could not read the game store {self.path}: {exc}") from exc
            except (ValueError, KeyError, TypeError) as exc:  # a stored row that is not JSON of an input
                raise self._damaged(f"a stored row does not read back: {exc}") from exc

    def _hold(self) -> None:
        """Take the store for one running table (an advisory ``flock`` on the file, let go
        when the process ends, however it ends). Raises StoreError when another holds it:
        two tables writing one game would leave it impossible to replay."""
        import fcntl

        holder = open(self.path, "rb")
        try:
            fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder.close()
            self._db.close()
            raise StoreError(f"the game store {self.path} is in use by another companion that is running: "
                             "stop that one first, or pass --store with another file") from None
        self._holder = holder

    def _open_readonly(self) -> sqlite3.Connection:
        """Read without writing anything, even on a read-only file system. Where SQLite
        cannot make the WAL's shared-memory file there, a WAL left by a power cut (where
        the newest games still are: never checkpointed) is read from a private copy of
        the file and its WAL in a temporary folder (removed on :meth:`close`); without a
        WAL the file is read as immutable."""
        if not Path(self.path).exists():
            raise StoreError(f"{self.path} does not exist")
        uri = Path(self.path).resolve().as_uri()
        db = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False, isolation_level=None)
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError:
            db.close()
        wal = Path(f"{self.path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            return self._open_copy(wal)
        return sqlite3.connect(f"{uri}?immutable=1", uri=True, check_same_thread=False, isolation_level=None)

    def _open_copy(self, wal: Path) -> sqlite3.Connection:
        """The store and its WAL copied to a temporary folder and opened there (SQLite
        replays the WAL into the copy); the original files are only read."""
        import shutil
        import tempfile

        self._copy_dir = tempfile.mkdtemp(prefix="companion-store-")
        copy = Path(self._copy_dir) / "table.db"
        try:
            shutil.copyfile(self.path, copy)
            shutil.copyfile(wal, f"{copy}-wal")
        except OSError as err:
            shutil.rmtree(self._copy_dir, ignore_errors=True)
            raise StoreError(f"could not read {self.path} and its WAL: {err}") from None
        return sqlite3.connect(str(copy), check_same_thread=False, isolation_level=None)

    def _version(self) -> int:
        """The file's store format; raises StoreError for a newer or foreign file."""
        (user_version,) = self._db.execute("PRAGMA user_version").fetchone()
        tables = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if user_version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer companion (store format {user_version}; this one "
                             f"reads up to {SCHEMA_VERSION}): update the companion, or pass --store with another file")
        if tables - _OUR_TABLES or (tables and not {"games", "inputs"} <= tables):
            names = ", ".join(sorted(tables)) or "none"
            raise StoreError(f"{self.path} is not a companion game store (its tables: {names}): "
                             "pass --store with another file")
        if not tables:
            return 0 if user_version == 0 else user_version
        if user_version == 0:
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            return 2 if "config" in columns else 1
        return user_version

    def _upgrade(self, version: int) -> None:
        """Bring the file to :data:`SCHEMA_VERSION` in one transaction, after copying an
        older store aside (``FILE.formatN.bak``)."""
        has_games = bool(self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone())
        if has_games and version < SCHEMA_VERSION and self.path != ":memory:":
            self.backup = Path(f"{self.path}.format{version}.bak")
            _create_private(self.backup)
            with sqlite3.connect(self.backup) as copy:
                self._db.backup(copy)
            copy.close()
        self._db.execute("BEGIN IMMEDIATE")
        try:
            if has_games and version == 1:
                self._db.execute("ALTER TABLE games ADD COLUMN config TEXT NOT NULL DEFAULT '{}'")
            for statement in _SCHEMA.split(";"):  # not executescript: it would commit first
                if statement.strip():
                    self._db.execute(statement)
            if has_games and version < 4:
                self._fill_roster()
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        if has_games and version < SCHEMA_VERSION:
            self.migrated_from = version

    def _fill_roster(self) -> None:
        """The roster of a store from before format 4: every name its games were played
        with, each seen when its newest game started (a row whose players do not read
        is left out, as the history reports it)."""
        for players, started in self._db.execute("SELECT players, started FROM games ORDER BY id").fetchall():
            try:
                names = json.loads(players)
            except ValueError:
                continue
            if isinstance(names, list) and _number(started):
                for seat, name in enumerate(names, 1):
                    if isinstance(name, str) and name.strip():
                        self._db.execute(_REMEMBER, (name, float(started), seat))

    @contextmanager
    def transaction(self, durable: bool = True):
        """One write transaction on the store's connection, committed on exit; any SQLite
        error rolls it back and becomes a :class:`StoreError`. Other tables that live in
        the same file (NFC enrolments) write through this, as durably as game inputs.

        ``durable=False`` commits without waiting for the disk (``synchronous=NORMAL`` for
        this one commit: no fsync). Such a commit is on disk once the next durable commit
        returns (the same write-ahead log is synced then), or after :meth:`sync`; the
        venue outbox writes this way so a table never waits on its messages."""
        if self.readonly:
            raise StoreError(f"the game store {self.path} was opened read-only")
        with self._lock:
            try:
                if not durable:
                    self._db.execute("PRAGMA synchronous=NORMAL")
                try:
                    self._db.execute("BEGIN IMMEDIATE")
                    yield self._db
                    self._db.execute("COMMIT")
                finally:
                    if not durable:
                        self._db.execute("PRAGMA synchronous=FULL")
            except sqlite3.Error as exc:
                try:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the connection itself is gone; nothing was committed
                if _corrupt(exc):
                    raise self._damaged(exc) from exc
                raise StoreError(f"could not save to the game store {self.path}: {exc}") from exc

    def sync(self) -> None:
        """Put every commit so far on disk (fsync the write-ahead log), from any thread,
        without the store's lock: what :meth:`transaction` with ``durable=False`` left to
        the operating system's cache is safe from a power cut when this returns. Raises
        OSError when the disk fails; does nothing for ``":memory:"``."""
        if self.path == ":memory:":
            return
        import os

        for path in (self.path + "-wal", self.path):
            try:
                fd = os.open(path, os.O_RDONLY)
            except FileNotFoundError:
                continue
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def _write(self, sql: str, args: tuple) -> sqlite3.Cursor:
        with self.transaction() as db:
            return db.execute(sql, args)

    def new_game(self, game: str, players: list[str] | tuple[str, ...], started: float,
                 config: dict[str, Any] | None = None) -> int:
        """Start a game record and return its id; its players join the roster (or are
        seen again there), in the same transaction."""
        with self.transaction() as db:
            cur = db.execute("INSERT INTO games (game, players, started, config) VALUES (?, ?, ?, ?)",
                             (game, json.dumps(list(players)), started, json.dumps(config or {})))
            for seat, name in enumerate(players, 1):
                db.execute(_REMEMBER, (name, started, seat))
        return int(cur.lastrowid)

    # ------------------------------------------------------------ the roster

    def roster(self) -> list[str]:
        """The names this table has played with, newest first (the newest game's players
        first, in seat order; then the names of older games). A read-only store from
        before format 4 has no roster table: its names come from its games."""
        with self._reading() as db:
            if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'roster'").fetchone():
                return [n for (n,) in db.execute("SELECT name FROM roster ORDER BY seen DESC, seat").fetchall()]
            rows = db.execute("SELECT players FROM games ORDER BY id DESC").fetchall()
        out: list[str] = []
        for (players,) in rows:
            names = json.loads(players)
            out += [n for n in names if isinstance(n, str) and n.casefold() not in {m.casefold() for m in out}]
        return out

    def remember_player(self, name: str, seen: float) -> None:
        """Put ``name`` on the roster (a name added on the start screen before it plays),
        as seen at ``seen`` (epoch seconds)."""
        self._write(_REMEMBER, (name, seen, 0))

    def forget_player(self, name: str) -> bool:
        """Take ``name`` off the roster (any case); its games stay in the history, and
        playing again with it puts it back. True when it was there."""
        return self._write("DELETE FROM roster WHERE name = ?", (name,)).rowcount > 0

    def last_players(self) -> tuple[str, ...]:
        """The players of the newest game at this table, in seat order (``()`` before any)."""
        with self._reading() as db:
            row = db.execute("SELECT players FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return tuple(json.loads(row[0])) if row else ()

    def append(self, game_id: int, item: Input) -> int:
        """Append one accepted input and commit it; returns its sequence number (from 1).

        When this returns, the input is on disk (WAL, synchronous=FULL).
        """
        payload = json.dumps(input_to_dict(item), separators=(",", ":"))
        with self.transaction() as db:
            (last,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM inputs WHERE game_id = ?", (game_id,)).fetchone()
            db.execute("INSERT INTO inputs (game_id, seq, t, payload) VALUES (?, ?, ?, ?)",
                       (game_id, last + 1, float(item.t), payload))
        return last + 1

    def query(self, sql: str, args: tuple = ()) -> list[tuple]:
        """Rows of a read-only query on the store's connection (under its lock)."""
        with self._reading() as db:
            return db.execute(sql, args).fetchall()

    def inputs(self, game_id: int) -> list[Input]:
        """Every stored input of a game, in the order accepted."""
        return self.parse(self.payloads(game_id))

    def payloads(self, game_id: int) -> list[str]:
        """Every stored input of a game as its stored JSON text, in the order accepted
        (the n-th is the input numbered n; :meth:`parse` reads them)."""
        with self._reading() as db:
            return [p for (p,) in db.execute("SELECT payload FROM inputs WHERE game_id = ? ORDER BY seq",
                                             (game_id,)).fetchall()]

    def parse(self, payloads: list[str]) -> list[Input]:
        """The inputs stored as ``payloads`` (texts of :meth:`payloads`). Raises
        :class:`DamagedStore` for a text that is not JSON of an input."""
        with self._reading():
            return [input_from_dict(json.loads(p)) for p in payloads]

    def last_input_time(self, game_id: int) -> float | None:
        """The time (seconds, the table clock's) of a game's newest stored input, None
        before any: what :func:`~companion.table.build.table_clock` needs, without
        reading every input of a long game."""
        with self._reading() as db:
            row = db.execute("SELECT t FROM inputs WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                             (game_id,)).fetchone()
        return None if row is None else float(row[0])

    def finish(self, game_id: int, finished: float, result: dict[str, Any]) -> None:
        """Mark a game finished with its outcome (a JSON-ready dict)."""
        self._write("UPDATE games SET finished = ?, result = ? WHERE id = ?",
                    (finished, json.dumps(result), game_id))

    def unfinish(self, game_id: int) -> None:
        """Make a finished game unfinished again, its result gone (the input that ended it
        was taken back with Undo; the corrected end writes the result again)."""
        self._write("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (game_id,))

    def abandon(self, game_id: int, finished: float, left: bool = False) -> None:
        """Close an unfinished game without a result: ``{"abandoned": true}`` (a new game
        was asked for instead: set aside), with ``"left": true`` when the players left it
        from the game menu. Either way it counts in no figures or standings."""
        result = {"abandoned": True, "left": True} if left else {"abandoned": True}
        self._write("UPDATE games SET finished = ?, result = ? WHERE id = ? AND finished IS NULL",
                    (finished, json.dumps(result), game_id))

    def games(self) -> list[GameRecord]:
        """Every game, newest first."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT g.id, g.game, g.players, g.started, g.finished, g.result, g.config, "
                "(SELECT COUNT(*) FROM inputs i WHERE i.game_id = g.id) "
                "FROM games g ORDER BY g.id DESC").fetchall()
            return [_game_record(r) for r in rows]

    def unfinished(self, game: str | None = None) -> GameRecord | None:
        """The newest unfinished game (of ``game`` when given), or None."""
        for record in self.games():
            if record.finished is None and (game is None or record.game == game):
                return record
        return None

    def close(self) -> None:
        """Close the database (idempotent) and let go of the store."""
        with self._lock:
            self._db.close()
            if getattr(self, "_copy_dir", None):
                import shutil

                shutil.rmtree(self._copy_dir, ignore_errors=True)
                self._copy_dir = None
            if self._holder is not None:
                self._holder.close()
                self._holder = None


def _create_private(path: str | Path) -> None:
    """Create an empty store file readable by its owner only (mode 0600) unless one is
    there: it holds every card played, secret hands too, and SQLite gives its -wal and
    -shm files the mode of the database file. An existing file keeps its mode."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600))
    except FileExistsError:
        pass
