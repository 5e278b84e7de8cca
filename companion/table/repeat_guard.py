"""The repeated-input guard after a resume (:class:`RepeatGuard`, one part of the
:class:`~companion.table.session.Session`).

A power cut right after an input was saved can leave its verdict unseen: the table comes
back with the input counted, and a player, who saw nothing happen, does it again. So after
a resume the same input as the last one saved before the stop (the same
:func:`~companion.table.verdicts.repeat_key`: a card on any reader, a touch's words, either
Undo), within :data:`REPEAT_WINDOW` seconds of the resume and before any other input
counted, is refused once with a question (:meth:`RepeatGuard.caution`); done once more, it
counts. The guard also keeps the newest stored input as the table told it
(:meth:`RepeatGuard.stored`), live and in replay, so that a restart can say what it was
(:attr:`RepeatGuard.last_saved`, the JSON log's start line and the screen's first words).

>>> from companion.core.events import Touch
>>> guard = RepeatGuard()
>>> guard.stored(Touch("swap 2", 3.0), False, "Ana swaps 2 cards.")
>>> guard.resumed(7, 100.0)
>>> guard.last_saved
{'seq': 7, 'event': 'touch', 'command': 'swap 2', 'said': 'Ana swaps 2 cards.'}
>>> guard.caution(Touch("swap 2", 101.0))[:60]
'Careful: this is the same as the last thing saved before the'
>>> guard.caution(Touch("swap 2", 102.0)) is None  # asked once: done again, it counts
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..core.events import Input
from .verdicts import is_undo, last_saved_record, repeat_key

#: After a resume, the same input as the last one saved before the stop, within this many
#: seconds of the resume and before any other input counts, is asked about before it
#: counts: its verdict may never have been seen (a power cut right after the save).
REPEAT_WINDOW = 120.0


class Stored(NamedTuple):
    """The newest stored input as a restart tells it: the ``item``, whether it was
    ``hidden`` (its card code is never shown), and what the table was told (``said``)."""

    item: Input
    hidden: bool
    said: str


@dataclass
class RepeatGuard:
    """The last input saved, and after a resume the question before it counts again.

    ``window``: seconds after the resume (session clock) the question is asked in;
    ``newest``: the newest stored input (:class:`Stored`, None before any); after
    :meth:`resumed`, ``last_saved`` (its :func:`~companion.table.verdicts.last_saved_record`),
    ``key`` (its repeat key, None once something else counted), ``since`` (the resume's
    session-clock seconds) and ``asked`` (the question was asked: the next one counts).
    Kept in a resume point for ``newest``; :meth:`resumed` sets the rest afresh.
    """

    window: float = REPEAT_WINDOW
    newest: Stored | None = None
    last_saved: dict | None = None
    key: tuple | None = None
    since: float | None = None
    asked: bool = False

    def stored(self, item: Input, hidden: bool, said: str) -> None:
        """``item`` was just stored (or replayed): the newest stored input, which the
        table was told of as ``said``; ``hidden``: its card code is never shown."""
        self.newest = Stored(item, hidden, said)

    def resumed(self, seq: int, t: float) -> None:
        """The game was rebuilt from its ``seq`` stored inputs at ``t`` (session-clock
        seconds): from now on, until :data:`REPEAT_WINDOW` seconds later or until
        something else counts, the newest of them again is asked about once. With none
        stored, nothing is (and ``last_saved`` is None)."""
        if seq and self.newest is not None:
            item, hidden, said = self.newest
            self.last_saved, self.key = last_saved_record(seq, item, hidden, said), repeat_key(item)
        else:
            self.last_saved, self.key = None, None
        self.since, self.asked = t, False

    def caution(self, item: Input) -> str | None:
        """The question the table is asked instead of counting ``item``, or None when it
        counts: ``item`` is the last input saved before the resume, again, under
        ``window`` seconds after it (a repeat at exactly ``window`` seconds is asked
        about), and nothing else counted since. Asked once: after it, None."""
        if self.key is None or self.since is None or self.last_saved is None:
            return None
        if item.t - self.since > self.window or repeat_key(item) != self.key:
            return None
        if self.asked:
            return None  # asked once, and done again: it counts
        self.asked = True
        said = self.last_saved["said"]
        if is_undo(item):
            return ("Careful: the last thing saved before the restart was an Undo too "
                    f"({said}). If you really mean to take back one more, tap Undo once more.")
        return (f"Careful: this is the same as the last thing saved before the restart "
                f"({(said or 'the last input').rstrip('.')}). It did count then. "
                "If you really mean to do it again, do it once more.")

    def counted(self) -> None:
        """An input was stored after the resume (the repeat itself once asked about, or
        any other): no more asking."""
        self.key = None
