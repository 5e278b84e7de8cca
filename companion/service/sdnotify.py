"""Tell systemd how the service is doing: ``READY=1``, ``WATCHDOG=1``, ``STOPPING=1``.

The sd_notify protocol (``man 3 sd_notify``) is one datagram of ``KEY=VALUE`` lines sent
to the AF_UNIX socket named in ``$NOTIFY_SOCKET`` (a leading ``@`` means the abstract
namespace). systemd documents it as stable and small enough to reimplement, and the
libraries for it either need libsystemd and a C compiler in the venv (systemd-python,
cysystemd) or are unmaintained (sdnotify, last release 2017), so these few lines are
ours, tested against a real socket in ``tests/test_sdnotify.py``.

Outside systemd (no ``$NOTIFY_SOCKET``) every call does nothing, so ``companion run`` on
a desk behaves the same.

The watchdog: the unit's ``WatchdogSec=`` reaches us as ``$WATCHDOG_USEC``;
:meth:`Notifier.watchdog` is called from the main loop on every turn and sends at most one
ping per half of that period. A loop that hangs stops pinging, and systemd restarts us.

>>> n = Notifier(None)          # not under systemd
>>> n.enabled, n.ready(), n.watchdog(0.0)
(False, False, False)
"""

from __future__ import annotations

import os
import socket

__all__ = ["Notifier"]


class Notifier:
    """One service's channel to systemd.

    ``address``: the ``$NOTIFY_SOCKET`` value (None: not under systemd).
    ``watchdog_usec``: the ``$WATCHDOG_USEC`` value in microseconds (None or 0: no watchdog).
    """

    def __init__(self, address: str | None, watchdog_usec: int | None = None):
        self.address = address or None
        self.interval = (watchdog_usec or 0) / 1e6 / 2  # seconds between pings; 0 = none
        self._last_ping = float("-inf")
        self._sock: socket.socket | None = None
        self.is_ready = False    # READY=1 has gone out (it is sent once per process)
        self._status = ""        # the last STATUS= sent, so a repeated one is not sent again

    @classmethod
    def from_env(cls, environ: dict | None = None) -> "Notifier":
        """From ``$NOTIFY_SOCKET`` and ``$WATCHDOG_USEC`` (honouring ``$WATCHDOG_PID``:
        a watchdog meant for another process is not ours)."""
        env = os.environ if environ is None else environ
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if pid and pid != str(os.getpid()):
            usec = ""
        return cls(env.get("NOTIFY_SOCKET"), int(usec) if usec.isdigit() else None)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *lines: str) -> bool:
        """Send ``KEY=VALUE`` lines as one datagram. True when sent; False when not under
        systemd or the socket is gone (never raises: a status message is not worth a crash)."""
        if self.address is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(lines).encode("utf-8"), target)
        except OSError:
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """The screen is open (or the table runs without one by choice): ``Type=notify``
        units count as started now. ``READY=1`` goes out once; later calls send only the
        new ``status``. True when sent."""
        if self.is_ready:
            return self.status(status) if status else True
        sent = self.send("READY=1", *([f"STATUS={status}"] if status else []))
        self.is_ready = sent
        if sent and status:
            self._status = status
        return sent

    def status(self, text: str) -> bool:
        """A one-line status shown by ``systemctl status companion`` (a repeat of the
        last one is not sent again; True all the same)."""
        if text == self._status:
            return self.address is not None
        sent = self.send(f"STATUS={text}")
        if sent:
            self._status = text
        return sent

    def waiting(self, why: str, now: float, extend: float = 30.0) -> bool:
        """Not ready yet, and alive: ``STATUS=why``, and at most every half watchdog
        period (every ``extend``/2 s without a watchdog) ``EXTEND_TIMEOUT_USEC`` of
        ``extend`` seconds, so systemd's start timeout does not kill a companion that is
        waiting for its screen (systemd 236 and later), plus ``WATCHDOG=1``. ``now``:
        monotonic seconds. True when a ping went out."""
        self.status(why)
        period = self.interval or extend / 2
        if now - self._last_ping < period:
            return False
        self._last_ping = now
        extra = ["WATCHDOG=1"] if self.interval else []
        return self.send(f"EXTEND_TIMEOUT_USEC={int(extend * 1e6)}", *extra)

    def watchdog(self, now: float) -> bool:
        """Ping the watchdog if half its period has passed since the last ping.
        ``now``: monotonic seconds. Returns True when a ping was sent."""
        if not self.interval or now - self._last_ping < self.interval:
            return False
        self._last_ping = now
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        """We are shutting down cleanly (so a slow stop is not taken for a hang)."""
        return self.send("STOPPING=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
