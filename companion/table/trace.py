"""Recorded table sessions ("traces"): what the devices sent, with times.

A trace is JSON Lines (format in docs/trace-format.md). The first line is a header::

    {"trace": 1, "game": "sugarrr", "players": ["Ana", "Ben", "Cy"]}

then one record per line, in time order, ``t`` in seconds from the start::

    {"t": 3.25, "device": "scanner", "data": "SRS71M\\r\\n"}   bytes from a serial reader
    {"t": 9.5, "touch": "done"}                              a touchscreen command
    {"t": 12.01, "device": "tray", "g": [-0.42, 0.0, 0.91]}  one tray accelerometer sample (g)
    {"t": 14.2, "device": "scanner", "key": [1, 31, 1]}      one key event from a keyboard-mode reader
    {"t": 20.0, "device": "scanner", "tag": "04A1B2C3D4E5F6", "code": "SRS71M"}  an NFC tag read
    {"t": 61.3, "restart": true}                              the daemon restarted and resumed the game

``data`` holds raw bytes as a string, one character per byte (Latin-1), so control
characters appear as JSON escapes. Blank lines and lines starting with ``#`` are ignored.
"""

from __future__ import annotations

import json
import math
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

TRACE_VERSION = 1


#: The device names a trace may hold (what ``run --record`` writes): a reader, a second
#: or third reader (``scanner2``...), lines typed under ``--simulate``, the tray sensor, an
#: NFC reader. A digit after a name numbers one of several.
DEVICES = ("scanner", "scanner2", "...", "keyboard", "tray", "nfc")
_DEVICE = re.compile(r"(scanner|tray|nfc)[0-9]{0,2}|keyboard")


def _known_device(name: object) -> bool:
    return isinstance(name, str) and _DEVICE.fullmatch(name) is not None


class TraceError(ValueError):
    """A trace file that cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class Record:
    """One trace record: ``kind`` is ``"bytes"`` (``device``, ``data``), ``"touch"``
    (``command``), ``"accel"`` (``device``, ``g``: x, y, z in g as the sensor read them),
    ``"key"`` (``device``, ``key``: evdev type, code, value), ``"tag"`` (``device``,
    ``uid``, ``code``: what the NFC reader delivered, None for nothing usable) or
    ``"restart"`` (the daemon restarted here and resumed the game from its store)."""

    t: float
    kind: str
    device: str = ""
    data: bytes = b""
    command: str = ""
    g: tuple[float, float, float] = (0.0, 0.0, 0.0)
    key: tuple[int, int, int] = (0, 0, 0)
    uid: str = ""
    code: str | None = None


@dataclass(frozen=True)
class Trace:
    game: str
    players: tuple[str, ...]
    records: tuple[Record, ...]
    options: dict = field(default_factory=dict)  # the game's set-up choices (Sugar Blast: goal, ...)


def read(path: str | Path) -> Trace:
    """Read and validate a trace. Raises :class:`TraceError` with the line at fault."""
    header = None
    records: list[Record] = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise TraceError(f"cannot read trace {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise TraceError(f"{path} is not a trace: it is not UTF-8 text") from exc
    last_t = 0.0
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"not a JSON record ({exc.msg.lower()} at character {exc.colno}): each line is "
                                 "one JSON object, e.g. {\"t\": 9.5, \"touch\": \"done\"}") from None
            if header is None:
                if not isinstance(obj, dict) or obj.get("trace") != TRACE_VERSION:
                    raise ValueError(f"the first line must be a header with \"trace\": {TRACE_VERSION}")
                header = obj
                continue
            if not isinstance(obj, dict):
                raise ValueError("a record must be a JSON object")
            if "t" not in obj:
                raise ValueError("a record needs \"t\": its time in seconds from the start, "
                                 "e.g. {\"t\": 9.5, \"touch\": \"done\"}")
            t = obj["t"]
            if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
                raise ValueError(f"\"t\" must be a number of seconds from the start, not {json.dumps(t)}")
            t = float(t)
            if "device" in obj and not _known_device(obj["device"]):
                raise ValueError(f"unknown device {json.dumps(obj['device'])}: a trace's devices are "
                                 f"{', '.join(DEVICES)} (see docs/trace-format.md)")
            if t < last_t:
                raise ValueError(f"time goes backwards ({t} after {last_t})")
            last_t = t
            if "touch" in obj:
                records.append(Record(t, "touch", command=str(obj["touch"])))
            elif "g" in obj:
                g = obj["g"]
                if not (isinstance(g, list) and len(g) == 3 and all(isinstance(v, (int, float)) for v in g)):
                    raise ValueError("\"g\" must be three numbers [x, y, z] in g")
                records.append(Record(t, "accel", device=str(obj.get("device", "tray")),
                                      g=tuple(float(v) for v in g)))
            elif "data" in obj:
                records.append(Record(t, "bytes", device=str(obj.get("device", "scanner")),
                                      data=str(obj["data"]).encode("latin-1")))
            elif "key" in obj:
                key = obj["key"]
                if not (isinstance(key, list) and len(key) == 3 and all(type(v) is int for v in key)):
                    raise ValueError("\"key\" must be three whole numbers [type, code, value] (evdev)")
                records.append(Record(t, "key", device=str(obj.get("device", "scanner")), key=tuple(key)))
            elif "tag" in obj:
                code = obj.get("code")
                if not isinstance(obj["tag"], str) or not (code is None or isinstance(code, str)):
                    raise ValueError("\"tag\" must be the tag's UID in hex and \"code\" a string or null")
                records.append(Record(t, "tag", device=str(obj.get("device", "nfc")), uid=obj["tag"], code=code))
            elif obj.get("restart") is True:
                records.append(Record(t, "restart"))
            else:
                raise ValueError("a record needs \"touch\", \"data\", \"g\", \"key\", \"tag\" or \"restart\"")
        except (ValueError, KeyError, TypeError, UnicodeEncodeError) as exc:
            raise TraceError(f"{path}, line {n}: {exc}") from exc
    if header is None:
        raise TraceError(f"{path} is empty: no trace header")
    players = header.get("players", [])
    if not isinstance(header, dict) or not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise TraceError(f"{path}, line 1: \"players\" must be a list of names")
    options = header.get("options", {})
    if not isinstance(options, dict):
        raise TraceError(f"{path}, line 1: \"options\" must be an object, e.g. {{\"goal\": \"five-different\"}}")
    if not isinstance(header.get("game"), str):
        raise TraceError(f"{path}, line 1: the header names no game, e.g. \"game\": \"sugarrr\"")
    return Trace(header["game"], tuple(players), tuple(records), options)


class TraceWriter:
    """Writes records to a trace file as they happen (``companion run --record``).
    Thread-safe: device threads call :meth:`bytes`, :meth:`key` and :meth:`tag` directly.

    Times are seconds from ``t0`` (the session clock's start), never decreasing. The header
    keeps ``t0``, the store's ``game_id`` and the ``store`` file: when ``path`` already holds
    the trace of the same game (same game, players, ``game_id`` and ``store``; the daemon
    restarted and resumed it),
    the trace is **appended to** instead of started afresh: a line cut short by the crash
    is dropped, a ``restart`` record is written, and times continue from the first
    ``t0``, so one file replays the whole game (:attr:`appended` is then True). Any other
    file at ``path`` is replaced.
    """

    def __init__(self, path: str | Path, game: str, players: list[str], t0: float, options: dict | None = None,
                 game_id: int | None = None, store: str | None = None):
        self._lock = threading.Lock()
        self._last = 0.0
        header = {"trace": TRACE_VERSION, "game": game, "players": list(players)}
        if options:
            header["options"] = dict(options)
        if game_id is not None:
            header["game_id"] = game_id
        if store is not None:
            header["store"] = store
        previous = _same_game(path, header) if game_id is not None else None
        self.appended = previous is not None
        if previous is not None:
            self._t0, self._last = previous
            self._file: IO[str] = open(path, "a", encoding="utf-8")
            self._line({"t": self._t(t0), "restart": True})
        else:
            self._t0 = t0
            self._file = open(path, "w", encoding="utf-8")
            self._line({**header, "t0": t0})

    def _t(self, t: float) -> float:
        self._last = max(self._last, round(t - self._t0, 4))  # a wall clock set back never breaks the order
        return self._last

    def _line(self, obj: dict) -> None:
        self._file.write(json.dumps(obj) + "\n")
        self._file.flush()

    def _record(self, t: float, fields: dict) -> None:
        with self._lock:
            self._line({"t": self._t(t), **fields})

    def bytes(self, device: str, t: float, data: bytes) -> None:
        self._record(t, {"device": device, "data": data.decode("latin-1")})

    def touch(self, t: float, command: str) -> None:
        self._record(t, {"touch": command})

    def accel(self, device: str, t: float, g: tuple[float, float, float]) -> None:
        self._record(t, {"device": device, "g": [round(v, 4) for v in g]})

    def key(self, device: str, t: float, kind: int, code: int, value: int) -> None:
        """One evdev event from a keyboard-mode reader (only key events are kept)."""
        if kind == 1:  # EV_KEY: SYN and MSC reports carry nothing the decoder uses
            self._record(t, {"device": device, "key": [kind, code, value]})

    def tag(self, device: str, t: float, uid: str, code: str | None) -> None:
        """One NFC tag read: its UID and the code the reader delivered for it."""
        self._record(t, {"device": device, "tag": uid, "code": code})

    def close(self) -> None:
        with self._lock:
            self._file.close()


def written_by_us(path: str | Path) -> bool:
    """Does the file at ``path`` hold a trace (its first line a header with ``"trace"``)
    or nothing at all? ``run --record`` writes over only such a file, never another."""
    try:
        with open(path, "rb") as f:
            head = f.read(65536)
    except OSError:
        return False
    lines = [line for line in head.split(b"\n") if line.strip() and not line.lstrip().startswith(b"#")]
    if not lines:
        return not head.strip()  # an empty file (made by touch or mktemp) is fine to write
    try:
        first = json.loads(lines[0].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    return isinstance(first, dict) and "trace" in first


def _same_game(path: str | Path, header: dict) -> tuple[float, float] | None:
    """``(t0, last t)`` of the trace at ``path`` when it records the game ``header``
    describes, after cutting off a last line the crash left unfinished; else None."""
    try:
        with open(path, "rb+") as f:
            data = f.read()
            end = data.rfind(b"\n") + 1
            if end < len(data):  # the crash cut the last line short: drop it
                f.truncate(end)
            data = data[:end]
    except OSError:
        return None
    lines = [line for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
    try:
        old = json.loads(lines[0])
        last = max((float(json.loads(line).get("t", 0.0)) for line in lines[1:]
                    if not line.lstrip().startswith("#")), default=0.0)
    except (IndexError, ValueError, TypeError, AttributeError):
        return None
    same = all(old.get(k) == header.get(k) for k in ("trace", "game", "players", "game_id", "store"))
    if not same or not isinstance(old.get("t0"), (int, float)):
        return None
    return float(old["t0"]), last
