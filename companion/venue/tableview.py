"""One table as the café's dashboard sees it (:class:`TableView`), and what the page says
of it: its "needs help" flags, its turn clock now, its unreadable messages. Split from
:mod:`companion.venue.dashboard`, which keeps a :class:`TableView` per table."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .numbers import Counted, RunSet
from .received import host_name

#: Refusals of the same input in a row that raise the "needs help" flag.
REFUSED_FLAG = 3


@dataclass
class TableView:
    """What the dashboard knows of one table. ``seqs``: every event number counted, in
    the order counted (the loss test reads it); ``have``: the numbers received in this
    stream (both as runs of numbers, :mod:`companion.venue.numbers`: a stream lasts as
    long as the table's store, months of games); ``received``: the dashboard's clock when
    the status came (seconds since the epoch)."""

    name: str
    stream: str | None = None
    last_seq: int = 0
    seqs: Counted = field(default_factory=Counted)
    status: dict[str, Any] = field(default_factory=dict)
    online: bool = False
    dropped: bool = False    # offline by the broker's last will (not a table that closed)
    received: float = 0.0
    recent: list[dict] = field(default_factory=list)
    refused_in_a_row: int = 0
    repeats: int = 0
    gaps: int = 0
    version: int = 0
    unreadable: int = 0      # messages dropped unread (too big, not JSON, not the schema's)
    have: RunSet = field(default_factory=RunSet)   # event numbers received in this stream
    base: int | None = None  # the first number looked for (the table's "since", or the first seen)
    newest: int = 0          # the newest number the table said it sent (events, status, result)
    hole_seen: float = 0.0   # when the holes were first seen (time.monotonic(); 0: none)
    asked: float = 0.0       # when the table was last asked to send again
    asks: int = 0            # times asked since the holes opened
    where: tuple[str, str] = ("", "")   # (venue, table) as its topics name it

    def holes(self) -> list[tuple[int, int]]:
        """The runs of event numbers missing in this stream (empty: none)."""
        if self.base is None or len(self.have) == self.newest - self.base + 1:
            return []
        return self.have.missing(self.base, self.newest)


def unreadable_words(name: str, n: int) -> str:
    """What the page says of a table's unreadable messages ("" for none).

    >>> unreadable_words("table-3", 2)
    'Table 3 sent 2 unreadable messages'
    """
    if not n:
        return ""
    return f"{host_name(name)} sent {n} unreadable message{'' if n == 1 else 's'}"


def flags(table: TableView, now: float) -> list[str]:
    """The table's "needs help" flags, in words for the host (empty: all well)."""
    out = []
    s = table.status
    if table.dropped:
        out.append("table offline")
    if s.get("login_shared"):
        out.append("another table is using this table's login")
    for name, dev in sorted((s.get("devices") or {}).items()):
        if dev.get("status") != "connected":
            if name == "display":
                out.append("screen not working")
            else:
                out.append("tray sensor offline" if name.startswith("tray") else f"reader unplugged ({name})")
    if table.refused_in_a_row >= REFUSED_FLAG:
        out.append(f"the same input refused {table.refused_in_a_row} times")
    turn, limit = turn_now(table, now), (s.get("clocks") or {}).get("limit")
    if limit and turn is not None and turn > limit:
        out.append("turn over its limit")
    return out


def turn_now(table: TableView, now: float) -> float | None:
    """The turn clock now (s): the table's last reading plus the time since it came,
    unless the game is paused or over."""
    s = table.status
    turn = (s.get("clocks") or {}).get("turn")
    if turn is None:
        return None
    if s.get("paused") or s.get("over") or not table.online:
        return turn
    return turn + max(0.0, now - table.received)
