"""Compiled dataclass methods kept between runs: a quarter of a cold start (issue 24).

Python 3.11's :func:`dataclasses.dataclass` writes each class's ``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__`` and ``__delattr__`` (and the
ordering methods when asked) as source text and compiles it with :func:`exec`, one parse
per method. Resuming a game runs about 340 of them before its first frame: 250 M of its
700 M instructions (callgrind), more than all the imports' bytecode loading; with this
cache, 520 M. The texts are the same on every start, so their compiled code is too.

:func:`install` (called by :func:`companion.core.startup.speed_ups`, the start-up call of
the programs that run the table: importing ``companion`` patches nothing, issue 35) gives
the :mod:`dataclasses` module an ``exec`` that compiles each text once and keeps the
code objects, in :mod:`marshal` form as a ``.pyc`` file keeps a module's, in
``$XDG_CACHE_HOME/sugar-companion/`` (``~/.cache``; the service's home is its state
directory); :func:`save` writes what was compiled new. The same text compiled
the same way (no ``__future__`` flags inherited, file name ``<string>``, as ``exec``
compiles it) is the same code, so nothing else changes. A cache written by another
Python, or one that cannot be read or fails its checksum (a damaged file: marshal would
read many a flipped bit as other code, without a complaint), is ignored; one that cannot
be written (a read-only or full card, ``PYTHONDONTWRITEBYTECODE``) only costs the parse,
as before, and is not tried again until the next start.
"""

from __future__ import annotations

import atexit
import builtins
import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType

from . import sealed

#: The most texts kept; past it, only the ones this run used are written (old versions'
#: classes do not pile up over upgrades).
MAX_ENTRIES = 4000

_codes: dict[str, CodeType] = {}
_used: set[str] = set()
_state = {"new": 0, "path": None}


def cache_path() -> Path:
    """The cache file for this Python (its bytecode tag in the name, its magic inside)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "sugar-companion" / f"dataclass-code.{sys.implementation.cache_tag}.marshal"


def compiled(source: str) -> CodeType:
    """The code ``exec(source)`` compiles, from the cache or compiled now (and kept)."""
    code = _codes.get(source)
    if code is None:
        code = _codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
        _state["new"] += 1
    _used.add(source)
    return code


def load(path: Path) -> dict[str, CodeType]:
    """The texts and code kept in ``path`` (a :mod:`companion.core.sealed` file, this
    Python's bytecode magic): none when it is missing, another Python's or damaged (its
    CRC-32, after the magic, does not match). Never raises."""
    body = sealed.read(path, MAGIC_NUMBER)
    if body is None:
        return {}
    try:
        loaded = marshal.loads(body)
        if isinstance(loaded, dict):
            return {k: v for k, v in loaded.items() if isinstance(k, str) and isinstance(v, CodeType)}
    except Exception:  # noqa: BLE001 - none yet, unreadable; marshal raises what it likes
        return {}
    return {}


def _exec(source, globals=None, locals=None, /):  # noqa: A002 - the signature of builtins.exec
    if globals is None:  # exec's default: the caller's namespaces (dataclasses always passes its own)
        frame = sys._getframe(1)
        globals, locals = frame.f_globals, frame.f_locals if locals is None else locals
    if isinstance(source, str):
        source = compiled(source)
    return builtins.exec(source, globals, locals)


def install(path: Path | None = None) -> None:
    """Load the cache (if any, from ``path`` or :func:`cache_path`) and make
    :mod:`dataclasses` compile through it. Idempotent; never raises."""
    import dataclasses

    if getattr(dataclasses, "exec", None) is _exec:
        return
    try:
        _state["path"] = path = path or cache_path()
    except (OSError, RuntimeError):  # no home to find it in: compiled as before
        pass
    else:
        _codes.update(load(path))
    dataclasses.exec = _exec  # a module global: found before the builtin
    atexit.register(save)


def save() -> bool:
    """Write the cache when this run compiled something new (after the table's first
    frame, and at exit). True when written; False when there was nothing new or it could
    not be written (never raises: the cache only saves time). After a failed write it
    is not tried again this run: the table saves after every frame."""
    path = _state["path"]
    new = _state["new"]
    if not new or path is None or sys.dont_write_bytecode:
        return False
    keep = dict(_codes) if len(_codes) <= MAX_ENTRIES else {k: _codes[k] for k in list(_used)}  # copies: a thread may add
    try:
        body = marshal.dumps(keep)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        sealed.write(path, MAGIC_NUMBER, body)  # whole or not at all, whatever runs beside it
    except (OSError, ValueError):
        _state["path"] = None  # read-only, full or not a folder: not marshalled and written again every frame
        return False
    _state["new"] -= new  # what another thread compiled while this wrote is still new
    return True
