"""NFC enrolment: which blank tag (by its UID) stands for which physical card.

A sticker either holds its card code as an NDEF text record, or it is *enrolled*: its
UID is paired with a card code here (``companion enroll GAME``). The pairs live in the
event store's own SQLite file, in an ``enrolments`` table beside the games, so one file
holds everything about this table's cards.

UIDs are kept as upper-case hex without separators (``"04A224B2C35E80"``); a reader
may hand them over as ``"04:a2:24:..."``. ISO/IEC 14443-3 UIDs are 4, 7 or 10 bytes.

>>> import companion.games  # the registry: which prefix is which game's
>>> from companion.core.store import EventStore
>>> tags = Enrolments(EventStore(":memory:"))
>>> tags.enrol("04:a2:24:b2:c3:5e:80", "SRS71M", "sugarrr", t=1.0)
>>> tags.code_for("04A224B2C35E80")
'SRS71M'
"""

from __future__ import annotations

from dataclasses import dataclass

from .codes import GAME_NAMES, PREFIXES, check_code, normalise
from .errors import BadScan
from .store import EventStore

_SCHEMA = """
CREATE TABLE IF NOT EXISTS enrolments (
    uid       TEXT PRIMARY KEY,       -- tag UID, upper-case hex, no separators
    code      TEXT NOT NULL,          -- card code (companion.core.codes)
    game      TEXT NOT NULL,          -- game slug, e.g. "sugarrr"
    enrolled  REAL NOT NULL           -- seconds since the epoch
)
"""
_INDEX = "CREATE INDEX IF NOT EXISTS enrolments_by_code ON enrolments (code)"
_UID_BYTES = (4, 7, 10)


@dataclass(frozen=True)
class Enrolment:
    """One tag paired with one card; ``enrolled`` in seconds since the epoch."""

    uid: str
    code: str
    game: str
    enrolled: float


def normalise_uid(uid_hex: str) -> str:
    """A tag UID as upper-case hex without separators.

    Raises ValueError when it is not hex or not 4, 7 or 10 bytes long.

    >>> normalise_uid("04:a2:24:b2 c3-5e-80")
    '04A224B2C35E80'
    """
    uid = "".join(ch for ch in uid_hex if ch not in ": -").upper()
    if not uid or any(ch not in "0123456789ABCDEF" for ch in uid) or len(uid) // 2 not in _UID_BYTES \
            or len(uid) % 2:
        raise ValueError(f"{uid_hex!r} is not a tag UID (4, 7 or 10 bytes in hex)")
    return uid


class Enrolments:
    """The tag-to-card pairs kept in ``store``'s database.

    Shares the store's connection through :meth:`EventStore.transaction` and
    :meth:`EventStore.query`, so writes are as durable as game inputs.
    """

    def __init__(self, store: EventStore):
        self._store = store
        with store.transaction() as db:
            db.execute(_SCHEMA)
            db.execute(_INDEX)

    def enrol(self, uid_hex: str, code: str, game: str, t: float) -> str | None:
        """Pair the tag ``uid_hex`` with the card ``code`` of ``game`` at time ``t``.

        Enrolling a tag again replaces its card; a card may have several tags. Returns
        the code the tag stood for before, or None for a new tag.

        Raises :class:`BadScan` for a garbled code or one from another game, and
        ValueError for a bad UID or an unknown game.
        """
        if game not in PREFIXES:
            raise ValueError(f"unknown game {game!r}: choose one of {', '.join(PREFIXES)}")
        uid = normalise_uid(uid_hex)
        code = normalise(code)
        prefix, _ = check_code(code)
        if prefix != PREFIXES[game]:
            raise BadScan(code, f"That card ({code}) is not a {GAME_NAMES[game]} card: scan a card of this game.")
        with self._store.transaction() as db:
            row = db.execute("SELECT code FROM enrolments WHERE uid = ?", (uid,)).fetchone()
            db.execute("INSERT INTO enrolments (uid, code, game, enrolled) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT (uid) DO UPDATE SET code = excluded.code, game = excluded.game, "
                       "enrolled = excluded.enrolled", (uid, code, game, float(t)))
        return row[0] if row else None

    def code_for(self, uid_hex: str) -> str | None:
        """The card code the tag stands for, or None when it is not enrolled (or the
        UID is malformed: a misread tag is simply not a card)."""
        try:
            uid = normalise_uid(uid_hex)
        except ValueError:
            return None
        row = self._read("SELECT code FROM enrolments WHERE uid = ?", (uid,))
        return row[0][0] if row else None

    def uids_for(self, code: str) -> list[str]:
        """Every tag enrolled for the card ``code``, oldest first."""
        rows = self._read("SELECT uid FROM enrolments WHERE code = ? ORDER BY enrolled, uid", (normalise(code),))
        return [uid for (uid,) in rows]

    def all(self, game: str | None = None) -> list[Enrolment]:
        """Every enrolment (of ``game`` when given), ordered by code then UID."""
        if game is None:
            rows = self._read("SELECT uid, code, game, enrolled FROM enrolments ORDER BY code, uid", ())
        else:
            rows = self._read("SELECT uid, code, game, enrolled FROM enrolments WHERE game = ? "
                              "ORDER BY code, uid", (game,))
        return [Enrolment(*row) for row in rows]

    def _read(self, sql: str, args: tuple) -> list[tuple]:
        return self._store.query(sql, args)
