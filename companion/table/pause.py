"""Pause and Resume, the same for every game (:class:`Pauses`, one part of the
:class:`~companion.table.session.Session`): the spans of session-clock time the table was
paused, which every clock leaves out (:mod:`companion.ui.timers`).

The GPIO pause button toggles; a Pause touch while paused, or a Resume touch while
playing, is refused (:meth:`Pauses.refusal`). Pause and Resume are stored like any input,
so the clocks are the same after a restart; a play or an Undo ends a pause too, and its
verdict then starts with :data:`PLAYING_AGAIN`.

>>> pauses = Pauses()
>>> pauses.toggle(10.0), pauses.paused
(True, True)
>>> pauses.end(25.0), pauses.paused, pauses.spans
(True, False, [(10.0, 25.0)])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..core.events import Input, Touch
from ..ui.timers import Pause

#: Said before the verdict of a play (or Undo, or Resume) that ends a pause: the clocks run again.
PLAYING_AGAIN = "Playing again. "
#: Said when the game pauses.
PAUSED = "Paused: the clocks wait. Tap Play on, or just play."
#: Said of a Pause touch while the game is paused. Only a typed ``/pause`` comes then (the
#: screen's pause box shows only its Resume button, and the pause button toggles), so it
#: says what to type, not a button to tap that is not there (issue 36).
ALREADY_PAUSED = "The game is already paused: type /resume, or play on."


@dataclass
class Pauses:
    """The game's pauses: ``spans``, a list of ``(from, to)`` in session-clock seconds,
    oldest first, ``to`` None for the pause under way. Iterating gives the spans, as
    :mod:`companion.ui.timers` takes them. Kept whole in a resume point."""

    spans: list[Pause] = field(default_factory=list)

    def __iter__(self) -> Iterator[Pause]:
        return iter(self.spans)

    def __len__(self) -> int:
        return len(self.spans)

    @property
    def paused(self) -> bool:
        """Is a pause under way?"""
        return bool(self.spans) and self.spans[-1][1] is None

    def refusal(self, item: Input, prompt: Callable[[], str]) -> str | None:
        """Why a live Pause or Resume ``item`` is refused now, or None when it toggles:
        a touch whose first word is ``resume`` while playing (``"The game is not
        paused."`` and ``prompt()``, asked only then), one whose first word is ``pause``
        while paused (:data:`ALREADY_PAUSED`). The pause button always toggles, and so
        does a stored input being replayed (the session does not ask then)."""
        verb = [item.parsed.verb] if isinstance(item, Touch) else []
        if verb == ["resume"] and not self.paused:
            return f"The game is not paused. {prompt()}"
        if verb == ["pause"] and self.paused:
            return ALREADY_PAUSED
        return None

    def toggle(self, t: float) -> bool:
        """Pause at ``t`` (session-clock seconds), or end the pause under way there.
        Returns whether the game is paused after."""
        if self.end(t):
            return False
        self.spans.append((t, None))
        return True

    def end(self, t: float) -> bool:
        """End the pause under way at ``t`` (session-clock seconds); True when there was
        one, False (and nothing changed) when the game was not paused."""
        if not self.paused:
            return False
        self.spans[-1] = (self.spans[-1][0], t)
        return True
