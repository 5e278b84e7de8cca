"""The table's clocks, derived from stored input times (so they survive a restart).

Nothing here keeps time in memory: every figure is computed from the game's start, the
times of the inputs still in force (the session rebuilds them from the store on resume)
and the pauses (stored like any input). Pure functions: no pygame, no I/O.

* the **game clock**: time since the game began, pauses left out;
* the **turn clock**: time since the turn began; with a per-turn ``limit`` it counts
  down, warns at ``warn`` seconds left, and at zero either only warns or passes the turn
  (``at_zero="pass"``, where the rules allow a pass);
* the **chess clock**: a time bank per player, spent while it is that player's turn;
* the **bidding countdown** (Sweet Deals): ``bid`` seconds for each bidder, counted from
  the last input in force; at zero the screen suggests Pass and never passes itself.

>>> turn_seconds(100.0, 160.0, [(120.0, 130.0)])
50.0
>>> Timers(limit=60).left(turn_seconds=55.0)
5.0
>>> Timers(limit=60).warning(55.0), Timers(limit=60).warning(40.0)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

#: What happens when a turn's time runs out.
AT_ZERO = ("warn", "pass")
WARN_SECONDS = 10.0

Pause = tuple[float, "float | None"]  # (from, to); to None: still paused


def paused_between(pauses: Iterable[Pause], start: float, end: float) -> float:
    """Seconds of ``[start, end]`` spent paused."""
    total = 0.0
    for a, b in pauses:
        b = end if b is None else b
        lo, hi = max(a, start), min(b, end)
        if hi > lo:
            total += hi - lo
    return total


def game_seconds(started: float, now: float, pauses: Iterable[Pause] = ()) -> float:
    """The game clock: seconds since ``started``, pauses left out."""
    return max(0.0, now - started - paused_between(pauses, started, now))


def turn_seconds(turn_started: float, now: float, pauses: Iterable[Pause] = ()) -> float:
    """Seconds of the current turn, pauses left out."""
    return max(0.0, now - turn_started - paused_between(pauses, turn_started, now))


def spent_by_seat(turns: Sequence[tuple[float, int]], now: float, pauses: Iterable[Pause] = ()) -> dict[int, float]:
    """Chess clock: seconds each seat (0-based) has used. ``turns`` is ``(t, seat)`` for
    every moment the active seat may have changed, in time order (the game's start and
    each input still in force, with the seat active after it)."""
    pauses = list(pauses)
    spent: dict[int, float] = {}
    for (t, seat), nxt in zip(turns, [*turns[1:], (now, None)]):
        end = nxt[0]
        if end > t:
            spent[seat] = spent.get(seat, 0.0) + (end - t) - paused_between(pauses, t, end)
    return spent


@dataclass(frozen=True)
class Timers:
    """The table's timer settings. ``limit``: seconds per turn (None: no limit);
    ``warn``: seconds left when the warning starts; ``at_zero``: ``"warn"`` or
    ``"pass"``; ``bank``: seconds per player for a chess clock (None: none); ``bid``:
    seconds for each bid in an auction (None: no bidding countdown)."""

    limit: float | None = None
    warn: float = WARN_SECONDS
    at_zero: str = "warn"
    bank: float | None = None
    bid: float | None = None

    def __post_init__(self) -> None:
        if self.at_zero not in AT_ZERO:
            raise ValueError(f"at zero the turn either warns or passes ({', '.join(AT_ZERO)}), not {self.at_zero!r}")
        for name in ("limit", "bank", "bid"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ValueError(f"the {name} is a number of seconds above 0, not {value}")

    def left(self, turn_seconds: float) -> float | None:
        """Seconds left in the turn (never below 0), or None without a limit."""
        if self.limit is None:
            return None
        return max(0.0, self.limit - turn_seconds)

    def warning(self, turn_seconds: float) -> bool:
        """Is the turn within ``warn`` seconds of its limit (or past it)?"""
        left = self.left(turn_seconds)
        return left is not None and left <= self.warn

    def expired(self, turn_seconds: float) -> bool:
        left = self.left(turn_seconds)
        return left is not None and left <= 0

    def bid_left(self, since_last_input: float) -> float | None:
        """Seconds the bidder has left (never below 0), or None without a countdown.

        >>> Timers(bid=15).bid_left(4.0), Timers(bid=15).bid_left(40.0), Timers().bid_left(4.0)
        (11.0, 0.0, None)
        """
        if self.bid is None:
            return None
        return max(0.0, self.bid - since_last_input)

    def banks(self, spent: dict[int, float], seats: int) -> dict[int, float] | None:
        """Chess clock: seconds left in each seat's bank (may go below 0: out of time)."""
        if self.bank is None:
            return None
        return {s: self.bank - spent.get(s, 0.0) for s in range(seats)}
