"""When a serial scanner's bytes came, told by a small process of their own.

The table's reader threads share one interpreter lock with the loop that draws the
screen. On a Zero 2 W a frame takes about 20 ms, and a reader thread that the serial
port woke can wait that long, or longer, for the lock before it can even look at the
clock: a scan made before a tap could then be stamped after it. A :class:`Stamper` is
a process (``python -I -S``: the standard library only, a few megabytes) that does
nothing but wait on the port, note ``time.monotonic()`` the moment its ``select()``
returns and read what came; it hands each read on with its time, one datagram each,
through a socket pair. It runs on another core of the Pi and never waits for the
table's lock. The reader thread reads the datagrams (:meth:`Stamper.read`); the loop
can look at the oldest one not yet read without taking it (:meth:`Stamper.oldest`).

>>> import os, time
>>> r, w = os.pipe()
>>> stamper = Stamper(r)
>>> before = time.monotonic(); os.write(w, b"SRX123\\r")
7
>>> t, data = stamper.read()
>>> data, before <= t <= time.monotonic()
(b'SRX123\\r', True)
>>> os.close(w)                 # the device went away: the next read says so
>>> stamper.read()
Traceback (most recent call last):
...
OSError: [Errno 5] the device stopped answering (end of file)
>>> stamper.close(); os.close(r)
"""

from __future__ import annotations

import errno
import socket
import struct
import subprocess
import sys

#: A datagram's head: ``time.monotonic()`` of the read (s, float64), then 0, or the errno
#: that ended the read (-1: end of file); the bytes read follow.
HEAD = struct.Struct("=di")

#: The stamping process: argv[1] the device's fd, argv[2] the socket's; stdin closes when
#: the table stops it (or dies), and it ends then, after telling a read's error, or when
#: the table's end of the socket is gone (quietly: nothing is left to tell).
CHILD = r"""
import os, select, struct, sys, time
fd, out = int(sys.argv[1]), int(sys.argv[2])
head = struct.Struct("=di")
while True:
    ready = select.select([fd, 0], [], [])[0]
    t = time.monotonic()
    if 0 in ready and not os.read(0, 64):
        break
    if fd in ready:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            continue
        except OSError as err:
            data, end = b"", err.errno or 5
        else:
            end = 0 if data else -1
        try:
            os.write(out, head.pack(t, end) + data)
        except OSError:
            break
        if end:
            break
"""


class Stamper:
    """Reads device file descriptor ``fd`` in a process of its own, stamping each read
    with ``time.monotonic()`` (the same clock in every process). The caller keeps
    ``fd`` open (and closes it after :meth:`close`). Raises OSError when the process
    cannot be started."""

    #: Run in the new process before it starts (``subprocess.Popen``'s ``preexec_fn``):
    #: the benches put it on "another core" there, out of the CPU quota that stands for
    #: the table's one core of a Zero 2 W. None: nothing.
    preexec_fn = None

    def __init__(self, fd: int):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", CHILD, str(fd), str(theirs.fileno())],
                                          stdin=subprocess.PIPE, pass_fds=(fd, theirs.fileno()),
                                          preexec_fn=Stamper.preexec_fn)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self._sock = ours

    @property
    def pid(self) -> int:
        """The stamping process's id."""
        return self._proc.pid

    def fileno(self) -> int:
        """Readable (``select()``) when a read is waiting to be taken."""
        return self._sock.fileno()

    def read(self) -> tuple[float, bytes]:
        """The next read: ``(time.monotonic() when it came, its bytes)``; blocks until
        there is one. Raises OSError with the read's errno (EIO at end of file: the
        device went away) once the process has stopped reading."""
        message = self._sock.recv(HEAD.size + 4096)
        if len(message) < HEAD.size:
            raise OSError(errno.EIO, "the scanner's stamping process ended")
        t, err = HEAD.unpack_from(message)
        if err == -1:
            raise OSError(errno.EIO, "the device stopped answering (end of file)")
        if err:
            raise OSError(err, f"reading the device failed: {errno.errorcode.get(err, err)}")
        return t, message[HEAD.size:]

    def oldest(self) -> float | None:
        """When the oldest read not yet taken came (``time.monotonic()`` s), without
        taking it; None when none is waiting."""
        try:
            head = self._sock.recv(HEAD.size, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except OSError:  # none waiting (EAGAIN), or the socket closed with the port
            return None
        return HEAD.unpack_from(head)[0] if len(head) >= HEAD.size else None

    def close(self) -> None:
        """Stop the process (its stdin closes; killed if it has not ended in 1 s)."""
        try:
            self._proc.stdin.close()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._sock.close()

