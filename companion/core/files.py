"""Reading a file someone named: only a regular file, and only so much of it.

A path given on the command line or in the config may be anything: a FIFO (``open``
waits for a writer for ever), ``/dev/zero`` (``read`` never ends and fills the memory),
a name longer than the file system allows, a symlink loop. Every such file argument goes
through :func:`read_bytes` / :func:`read_text` here, which

* look with :func:`os.stat` first and refuse anything that is not a regular file,
* open with ``O_NONBLOCK`` (a FIFO swapped in after the look cannot block the open) and
  check the open file again with :func:`os.fstat`,
* read at most ``limit`` bytes, and refuse a file bigger than that,

and raise :class:`FileProblem` (a ValueError) with one line a person can act on.
"""

from __future__ import annotations

import errno
import os
import stat

#: The most a file argument may hold unless the caller says otherwise: 16 MiB.
LIMIT = 16 * 1024 * 1024

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a disk device"), (stat.S_ISSOCK, "a socket"))


class FileProblem(ValueError):
    """A named file that cannot be used, with its one-line reason; ``missing`` is True
    when nothing is at the path (callers with a default may treat that as no file)."""

    def __init__(self, message: str, missing: bool = False):
        super().__init__(message)
        self.missing = missing


def why_not(exc: OSError) -> str:
    """The reason of an OSError in words (a name too long, a symlink loop ...)."""
    if exc.errno == errno.ENAMETOOLONG:
        return "the name is too long (at most 255 bytes for each part of a path)"
    if exc.errno == errno.ELOOP:
        return "it is a symbolic link that leads back to itself (a loop)"
    return exc.strerror or str(exc)


def path_problem(path: str | os.PathLike) -> str | None:
    """Why ``path`` cannot name a file on this system (a part over 255 bytes, the whole
    over 4095), or None. Checked without touching the file system."""
    raw = os.fsencode(path)
    if len(raw) >= 4096 or any(len(part) > 255 for part in raw.split(b"/")):
        return "the name is too long (at most 255 bytes for each part of a path)"
    return None


def kind(mode: int) -> str | None:
    """What a non-regular file is in words, or None for a regular file."""
    return None if stat.S_ISREG(mode) else next((w for test, w in _KINDS if test(mode)), "not a regular file")


def read_bytes(path: str | os.PathLike, what: str = "the file", limit: int = LIMIT) -> bytes:
    """The bytes of the regular file at ``path`` (``what`` names it in the message).
    Raises :class:`FileProblem`: missing, unreadable, not a regular file, over ``limit``."""
    shown = os.fspath(path)
    if (problem := path_problem(path)) is not None:
        raise FileProblem(f"cannot read {what} {shown[:80]}...: {problem}")
    try:
        st = os.stat(path)
    except OSError as exc:
        raise FileProblem(f"cannot read {what} {shown}: {why_not(exc)}",
                          missing=exc.errno == errno.ENOENT) from None
    if (other := kind(st.st_mode)) is not None:
        raise FileProblem(f"cannot read {what} {shown}: it is {other}, not a file")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise FileProblem(f"cannot read {what} {shown}: {why_not(exc)}") from None
    try:
        if (other := kind(os.fstat(fd).st_mode)) is not None:  # swapped since the look
            raise FileProblem(f"cannot read {what} {shown}: it is {other}, not a file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileProblem(f"cannot read {what} {shown}: {why_not(exc)}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise FileProblem(f"{what} {shown} is too big (more than {limit // 1024} KiB): is it the right file?")
    return b"".join(chunks)


def read_text(path: str | os.PathLike, what: str = "the file", limit: int = LIMIT) -> str:
    """:func:`read_bytes` as UTF-8 text; a file that is not text raises :class:`FileProblem`."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileProblem(f"{what} {os.fspath(path)} is not a text file (not UTF-8)") from None
