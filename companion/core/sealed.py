"""Files the table keeps for itself and reads back whole or not at all.

A sealed file is a magic number (its format), the CRC-32 of the body (4 bytes,
little-endian), then the body. :func:`write` writes it to a temporary file made anew
beside it (never one left there, nor through a link put in its place) and renames that
over it, so a reader sees the old file or the new one, never a torn one. :func:`read`
gives the body back only when the file is a regular one (a FIFO is not waited on) of at
most ``limit`` bytes (a huge one is not read into a Zero's 512 MB) with this magic and a
CRC that holds (marshal or pickle would read many a flipped bit as something else,
without a complaint). Kept this way: the compiled dataclass methods
(:mod:`companion.core.codecache`) and a game's resume point
(:mod:`companion.table.resume_point`).
"""

from __future__ import annotations

import os
import stat
import zlib
from pathlib import Path

#: The largest sealed file :func:`read` reads by default (bytes).
LIMIT = 16 << 20


def write(path: Path, magic: bytes, body: bytes, tmp: Path | None = None, mode: int = 0o666) -> None:
    """Write ``body`` sealed with ``magic`` to ``path``, through ``tmp`` (default
    ``.NAME.PID.tmp`` beside it), created with ``mode`` (less the umask). Raises OSError (a full or read-only card, a folder that
    is not one), leaving no temporary file behind."""
    tmp = tmp or path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.unlink(missing_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_CLOEXEC", 0), mode)
        with os.fdopen(fd, "wb") as f:
            f.write(magic + zlib.crc32(body).to_bytes(4, "little") + body)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)  # (a full card: what was written of it goes)
        except OSError:
            pass
        raise


def read(path: Path, magic: bytes, limit: int = LIMIT) -> bytes | None:
    """The body of the sealed file ``path``; None when it is missing or unreadable, not a
    regular file, over ``limit`` bytes, of another format (``magic``) or damaged (its
    CRC does not hold). Never raises."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
                return None
            data = f.read(limit + 1)
    except OSError:
        return None
    head, body = data[:len(magic) + 4], data[len(magic) + 4:]
    if len(data) > limit or head != magic + zlib.crc32(body).to_bytes(4, "little"):
        return None
    return body
