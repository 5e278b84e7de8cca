"""Recorded table sessions ("traces"): what the devices sent, with times.

A trace is JSON Lines (format in docs/trace-format.md). The first line is a header::

    {"trace": 1, "game": "sugarrr", "players": ["Ana", "Ben", "Cy"]}

then one record per line, in time order, ``t`` in seconds from the start::

    {"t": 3.25, "device": "scanner", "data": "SRS71M\\r\\n"}   bytes from a serial reader
    {"t": 9.5, "touch": "done"}                              a touchscreen command
    {"t": 12.01, "device": "tray", "g": [-0.42, 0.0, 0.91]}  one tray accelerometer sample (g)

``data`` holds raw bytes as a string, one character per byte (Latin-1), so control
characters appear as JSON escapes. Blank lines and lines starting with ``#`` are ignored.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

TRACE_VERSION = 1


class TraceError(ValueError):
    """A trace file that cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class Record:
    """One trace record: ``kind`` is ``"bytes"`` (``device``, ``data``), ``"touch"``
    (``command``) or ``"accel"`` (``device``, ``g``: x, y, z in g as the sensor read them)."""

    t: float
    kind: str
    device: str = ""
    data: bytes = b""
    command: str = ""
    g: tuple[float, float, float] = (0.0, 0.0, 0.0)


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
            obj = json.loads(line)
            if header is None:
                if not isinstance(obj, dict) or obj.get("trace") != TRACE_VERSION:
                    raise ValueError(f"the first line must be a header with \"trace\": {TRACE_VERSION}")
                header = obj
                continue
            if not isinstance(obj, dict):
                raise ValueError("a record must be a JSON object")
            t = float(obj["t"])
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
            else:
                raise ValueError("a record needs \"touch\", \"data\" or \"g\"")
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
    return Trace(str(header.get("game", "sugarrr")), tuple(players), tuple(records), options)


class TraceWriter:
    """Appends records to a trace file as they happen (``companion run --record``).
    Thread-safe: device threads call :meth:`bytes` directly. Times are relative to ``t0``."""

    def __init__(self, path: str | Path, game: str, players: list[str], t0: float, options: dict | None = None):
        self._file: IO[str] = open(path, "w", encoding="utf-8")
        self._lock = threading.Lock()
        self._t0 = t0
        header = {"trace": TRACE_VERSION, "game": game, "players": list(players)}
        if options:
            header["options"] = dict(options)
        self._line(header)

    def _line(self, obj: dict) -> None:
        with self._lock:
            self._file.write(json.dumps(obj) + "\n")
            self._file.flush()

    def bytes(self, device: str, t: float, data: bytes) -> None:
        self._line({"t": round(t - self._t0, 4), "device": device, "data": data.decode("latin-1")})

    def touch(self, t: float, command: str) -> None:
        self._line({"t": round(t - self._t0, 4), "touch": command})

    def accel(self, device: str, t: float, g: tuple[float, float, float]) -> None:
        self._line({"t": round(t - self._t0, 4), "device": device, "g": [round(v, 4) for v in g]})

    def close(self) -> None:
        with self._lock:
            self._file.close()


