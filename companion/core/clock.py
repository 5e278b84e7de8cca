"""Injectable clocks, so that replay is deterministic and tests never sleep.

>>> c = FakeClock(10.0); c.advance(0.5); c.now()
10.5

The table's clock (:class:`TableClock`) runs on the monotonic clock: a Pi has no
real-time clock, and NTP steps the wall clock after boot (or a person sets it), which
must not move a turn limit, a chess clock, the game clock, a bid's countdown or the
tap-off window. Every input still carries a time in seconds since the epoch (the
history's dates); those times come from the table's clock:

* within a run: the wall time when the clock was anchored plus the seconds elapsed since
  on ``CLOCK_BOOTTIME`` (monotonic, and counting a suspend);
* across a restart in the same boot (a crash, the watchdog, ``systemctl restart``): the
  anchor is kept beside the store with the kernel's boot id, so the clocks go on from it
  and the seconds of the restart count, whatever the wall clock did meanwhile;
* after a reboot (a power cut): the time the table was off cannot be measured (no
  real-time clock), so an unfinished game's clocks go on from its last stored time, as if
  paused while the table was off; with no unfinished game the clock takes the wall time;
* when a new game begins nothing is timing, so the clock takes the wall time again if
  that is later (the history's dates follow NTP), never going back.

>>> wall, mono = FakeClock(1000.0), FakeClock(5.0)
>>> table = TableClock(wall.now, mono.now)
>>> wall.advance(7200.0); mono.advance(3.0); table.now()    # NTP stepped the wall clock +2 h
1003.0
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Callable, Protocol


class Clock(Protocol):
    """Anything with ``now() -> float`` in seconds."""

    def now(self) -> float: ...


class SystemClock:
    """Wall-clock seconds since the epoch (``time.time``), stored with every input."""

    def now(self) -> float:
        return time.time()


class FakeClock:
    """A clock that moves only when told: used by tests and by trace replay."""

    def __init__(self, start: float = 0.0):
        self._t = float(start)
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._t

    def set(self, t: float) -> None:
        """Jump to ``t`` seconds (never backwards)."""
        with self._lock:
            self._t = max(self._t, float(t))

    def advance(self, dt: float) -> None:
        """Move forward by ``dt`` seconds."""
        with self._lock:
            self._t += float(dt)


def boottime() -> float:
    """Seconds on ``CLOCK_BOOTTIME`` (monotonic, counts a suspend; never stepped by NTP
    or ``date``); ``time.monotonic`` where the system has no boot clock."""
    try:
        return time.clock_gettime(time.CLOCK_BOOTTIME)
    except (AttributeError, OSError):
        return time.monotonic()


def boot_id() -> str:
    """This boot's id from the Linux kernel (changes on every boot; "" elsewhere)."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


class TableClock:
    """The table's seconds since the epoch, measured on the monotonic clock: ``anchor``
    (wall seconds) plus the ``mono()`` seconds elapsed since ``anchor_mono``. ``wall``
    and ``mono`` are injectable (tests step the wall clock and not the other).

    ``path``: a small JSON file beside the store where the anchor is kept with the boot
    id, so a restart in the same boot goes on from it (:meth:`for_store`)."""

    def __init__(self, wall: Callable[[], float] = time.time, mono: Callable[[], float] = boottime,
                 anchor: float | None = None, anchor_mono: float | None = None,
                 path: str | os.PathLike | None = None, boot: str = ""):
        self._wall, self._mono = wall, mono
        self.anchor = wall() if anchor is None else float(anchor)
        self.anchor_mono = mono() if anchor_mono is None else float(anchor_mono)
        self.path, self.boot = (Path(path) if path else None), boot
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self.anchor + (self._mono() - self.anchor_mono)

    def resync(self) -> None:
        """A new game begins (nothing is timing): take the wall time if it is later than
        the table's, so the history's dates follow the wall clock; never go back."""
        now, wall, mono = self.now(), self._wall(), self._mono()
        if wall > now:
            with self._lock:
                self.anchor, self.anchor_mono = wall, mono
            self.save()

    def save(self) -> None:
        """Keep the anchor beside the store, in ``STORE.clock`` created mode 0600 (best
        effort: a read-only card only loses the same-boot continuity)."""
        if self.path is None:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            # Mode 0600 like the store beside it (issue 37: store files readable by their
            # owner only), whatever the umask; a tmp left by a cut gets it too.
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
            with os.fdopen(fd, "w") as out:
                os.fchmod(fd, 0o600)
                out.write(json.dumps({"boot_id": self.boot, "anchor": self.anchor, "boottime": self.anchor_mono}))
            os.replace(tmp, self.path)
        except OSError:
            pass

    @classmethod
    def for_store(cls, store: str, last_t: float | None = None, wall: Callable[[], float] = time.time,
                  mono: Callable[[], float] = boottime, boot: Callable[[], str] = boot_id) -> "TableClock":
        """The clock for the table whose store is the file ``store``: in the same boot
        as the anchor kept beside it (``STORE.clock``), that anchor; otherwise anchored
        at ``last_t`` (the unfinished game's last stored time: the clocks go on from it)
        or, with none, at the wall time. ``":memory:"``: anchored now, nothing kept."""
        if store == ":memory:":
            return cls(wall, mono)
        path, this_boot = Path(str(store) + ".clock"), boot()
        try:
            kept = json.loads(path.read_text())
            if this_boot and kept.get("boot_id") == this_boot:
                clock = cls(wall, mono, float(kept["anchor"]), float(kept["boottime"]), path, this_boot)
                if last_t is None or clock.now() >= last_t:  # (never behind the stored game)
                    return clock
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        clock = cls(wall, mono, last_t if last_t is not None else None, None, path, this_boot)
        clock.save()
        return clock
