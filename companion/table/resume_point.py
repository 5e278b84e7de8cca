"""A game's state kept beside its store, so a restart need not replay every input before
its first frame (issue 24).

The store's inputs are the record of a game, and :meth:`Session.start
<companion.table.session.Session.start>` rebuilds an unfinished game by replaying them:
300 inputs of Sugar Blast are 77 M instructions, a sixth of a cold start's, and a longer
game's replay is longer. A **resume point** is what that replay would arrive at, kept by
the runner when the table has been idle a moment (:data:`IDLE_SECONDS`) with
:data:`KEEP_EVERY` inputs stored since the last one, and when it stops
(:func:`keep_session`): the session's :data:`FIELDS`, that is the state, the half-entered
input, every input still in force with the state before it (what Undo takes back), the
pauses, the turn's start, and the last input saved. On the next start (:func:`restore`)
only the inputs stored after it are replayed.

It is a shortcut and never the record: it is used only when everything it was made from
is still the same, else the whole game is replayed as before:

- the file is whole: its CRC-32 (after :data:`MAGIC`) matches, so a write a power cut
  tore is not read;
- the program is the same: the Python version and the size and modification time of
  every file of the ``companion`` package (:func:`fingerprint`; an upgrade or an edit
  changes them, and with them what a replay would give);
- the game is the same: its id, kind and start;
- the inputs it covers are the same: their count, and a CRC-32 chained over their stored
  text (a store put back from a copy, or another store at the same path, has others);
- the session's fields are the same: the names in :data:`FIELDS`, and the state and the
  session's parts (:data:`TYPED`) of the classes this program's session has.

The file is ``STORE.resume``, beside ``STORE.clock``; a store in memory keeps none. It is
a :mod:`companion.core.sealed` file (:data:`MAGIC`, the CRC-32, the body: written through
a temporary file renamed over the old one, so a reader sees the old point or the new
one; read only when it is a regular file of at most :data:`MAX_FILE` bytes), its body a
:mod:`pickle` of a dict, compressed with :mod:`zlib`. Keeping one that cannot be written
(a full or read-only card) is not an error: the next start replays the whole game, as
before; it is tried again when the next one is due. Pickle runs what a file names when
read, so the file is only read from the table's own state folder, where the store is
(anyone who can write there can rewrite the store itself).
"""

from __future__ import annotations

import logging
import os
import sys
import zlib
from pathlib import Path
from typing import Any, Iterable

from ..core import sealed
from ..core.errors import StoreError

#: The first bytes of a resume point file (and its format's number).
MAGIC = b"SUGAR-RESUME\x01"
#: Seconds with no input before the runner keeps a resume point.
IDLE_SECONDS = 5.0
#: Inputs stored since the last point before the runner keeps another (when the table
#: stops, whatever the number): a point some inputs behind costs a restart only those
#: inputs' replay, and a card is not rewritten after every move.
KEEP_EVERY = 10
#: The largest resume point file read, and the most its pickle may unpack to (bytes): a
#: point of a 750-input Sugar Heist game is 267 KB unpacked, 45 KB packed. A bigger file is not one the
#: table wrote, and is not read into a Zero's 512 MB.
MAX_FILE, MAX_UNPACKED = 16 << 20, 64 << 20
#: The session's fields a replay sets, kept in a resume point: the rules state, the
#: half-entered input, the inputs still in force (:class:`~companion.table.undo.UndoStack`),
#: the turn's start, the pauses (:class:`~companion.table.pause.Pauses`) and the newest
#: stored input (:class:`~companion.table.repeat_guard.RepeatGuard`).
FIELDS = ("state", "entry", "undo", "turn_started", "pauses", "repeats")
#: Those of :data:`FIELDS` whose value in a point must be of the very class of the
#: session's own: a point of another game, or kept by a program with other parts, is not used.
TYPED = ("state", "undo", "pauses", "repeats")

_log = logging.getLogger(__name__)
_fingerprint: list[str] = []


def path_for(store_path: str) -> Path | None:
    """The resume point file of the store at ``store_path`` (None for ``":memory:"``)."""
    if not store_path or store_path == ":memory:":
        return None
    return Path(store_path + ".resume")


def fingerprint() -> str:
    """This program, as a resume point is made by it: the Python version, and the
    relative path, size and modification time (ns) of every file of the ``companion``
    package (its code, and the card catalogues its rules read), as a hex CRC-32 chain.
    Worked out once per process: as a game is resumed, or at the table's first frame
    (:meth:`Runner.keep_resume_point <companion.table.runner.Runner.keep_resume_point>`),
    so that a point kept later by a table whose files were upgraded under it is marked
    as the program that made it."""
    if not _fingerprint:
        root = Path(__file__).resolve().parent.parent
        crc = zlib.crc32(repr(sys.version_info[:3]).encode())
        try:
            for path, size, mtime in sorted(_sources(str(root), len(str(root)) + 1)):
                crc = zlib.crc32(f"{path}\0{size}\0{mtime}\n".encode(), crc)
            _fingerprint.append(f"{crc:08x}")
        except OSError:  # a package folder it cannot list: its points are this process's only
            _fingerprint.append(f"unknown {os.getpid()} {os.urandom(8).hex()}")
    return _fingerprint[0]


def _sources(folder: str, cut: int) -> Iterable[tuple[str, int, int]]:
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    yield from _sources(entry.path, cut)
            else:
                st = entry.stat()
                yield entry.path[cut:], st.st_size, st.st_mtime_ns


def digest(payloads: Iterable[str]) -> int:
    """CRC-32 chained over stored input texts (the store's ``payload`` column), in order."""
    crc = 0
    for payload in payloads:
        crc = zlib.crc32(payload.encode(), crc)
    return crc


def keep(path: Path | None, game: tuple, payloads: list[str], fields: dict[str, Any]) -> bool:
    """Write the resume point of ``game`` (``(game_id, kind, started)``, as the store has
    them) after its stored inputs ``payloads``, with the session's ``fields``
    (:data:`FIELDS`) as they are after the last of them. True when written; False (and
    nothing raised) when it could not be: a full or read-only card, a state that does
    not pickle."""
    if path is None:
        return False
    import pickle  # (here: a start screen, and a game with no point, need no pickle)

    try:
        body = zlib.compress(pickle.dumps({"fingerprint": fingerprint(), "game": game, "inputs": len(payloads),
                                           "digest": digest(payloads), "fields": fields},
                                          protocol=pickle.HIGHEST_PROTOCOL), 1)
        sealed.write(path, MAGIC, body, tmp=path.with_name(path.name + ".tmp"), mode=0o600)  # like the store: 0600
        return True
    except Exception as exc:  # noqa: BLE001 - a full or read-only card, a state that does not pickle: a shortcut only
        _log.info("the resume point %s was not kept (%s); the next start replays the whole game", path, exc)
        return False


def read(path: Path | None, game: tuple, payloads: list[str]) -> tuple[int, dict[str, Any]] | None:
    """The resume point kept for ``game`` (as :func:`keep` takes it) whose stored inputs
    are ``payloads``:
    ``(n, fields)``, the session's fields after its first ``n`` inputs; None when there
    is none or it does not hold (see the module's list), and then the whole game is
    replayed. Never raises."""
    if path is None:
        return None
    body = sealed.read(path, MAGIC, MAX_FILE)
    if body is None:
        if os.path.lexists(path):
            _log.info("the resume point %s is damaged or not one the table wrote: every input is replayed", path)
        return None
    import pickle

    try:
        unpack = zlib.decompressobj()
        raw = unpack.decompress(body, MAX_UNPACKED)
        if unpack.unconsumed_tail or not unpack.eof:
            return None
        kept = pickle.loads(raw)
        n = kept["inputs"]
        if (kept["fingerprint"] != fingerprint() or kept["game"] != game
                or not 0 < n <= len(payloads) or kept["digest"] != digest(payloads[:n])):
            _log.info("the resume point %s is another program's, game's or inputs': every input is replayed", path)
            return None
        fields = kept["fields"]
        if set(fields) != set(FIELDS):
            return None
        return n, fields
    except Exception:  # noqa: BLE001 - unpickling another version's classes raises what it likes
        return None



def restore(session: Any, payloads: list[str]) -> int:
    """Set ``session``'s :data:`FIELDS` (a :class:`~companion.table.session.Session`
    being resumed) from the resume point kept beside its store for its game, when one
    holds for ``payloads`` (the game's stored inputs, see :func:`read`) and its
    :data:`TYPED` fields are of the session's own classes. Returns how many of the
    inputs it covers, which need no replay: 0 when no point was used (nothing was set).
    Never raises."""
    point = read(path_for(session.store.path), _game_of(session), payloads)
    if point is None:
        return 0
    n, fields = point
    if any(type(fields[name]) is not type(getattr(session, name)) for name in TYPED):
        return 0
    for name, value in fields.items():
        setattr(session, name, value)
    return n


def keep_session(session: Any) -> bool:
    """Keep the resume point of ``session``'s game (a
    :class:`~companion.table.session.Session`) as it is now, after every input it stored.
    True when written; False when there is nothing to keep (a store in memory or
    read-only, a game over, no inputs, a store with inputs the session did not take) or
    it could not be written. Never raises: the inputs are in the store either way."""
    path = path_for(session.store.path)
    if path is None or getattr(session.store, "readonly", False) or session.over or not session.saved_inputs:
        return False
    try:
        payloads = session.store.payloads(session.game_id)
    except StoreError:
        return False
    if len(payloads) != session.saved_inputs:  # (the store has inputs this session did not take)
        return False
    return keep(path, _game_of(session), payloads, {name: getattr(session, name) for name in FIELDS})


def _game_of(session: Any) -> tuple:
    """``(game_id, kind, started)``: the game a point is for, as the store has it."""
    return (session.game_id, session.game, float(session.started))
