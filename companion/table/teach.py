"""A first game that teaches (issue 38, "a table that teaches": "a first-game mode per
game that walks a new table through its first turns with prompts ... stopping when they
have it"): one part the :class:`~companion.table.session.Session` holds, as it holds Undo.

While it is on, the screen's prompt is the game's lesson for the step the table is at
(:meth:`~companion.core.game.Flow.lesson`: the rulebook's words for what to do now, from
the table's view, so it never names a hidden card). It stops by itself once every player
has finished one turn (the first round): from then on the table plays on as normal.

>>> from companion.core.events import TurnEnded
>>> t = Teacher(on=True, players=2)
>>> t.heard([TurnEnded("", player=0, next_player=1)]); t.on
True
>>> t.heard([TurnEnded("", player=1, next_player=0)]); t.on
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..core.events import TurnEnded


@dataclass
class Teacher:
    """The first-game lessons: ``on`` while they show, ``players`` the table's count;
    ``finished`` the seats (0-based) that have finished a turn since they began."""

    on: bool = False
    players: int = 0
    finished: set = field(default_factory=set)

    def heard(self, events: Iterable[Any]) -> None:
        """An accepted input's outcome events: a turn ended counts its player; once every
        player has finished one turn, the lessons stop (they do not come back)."""
        if not self.on:
            return
        for event in events:
            if isinstance(event, TurnEnded) and 0 <= event.player < self.players:  # (set-up's end is seat -1)
                self.finished.add(event.player)
        if len(self.finished) >= self.players:
            self.on = False

    def lesson(self, flow: Any, view: Any, entry: Any) -> str | None:
        """The game's lesson for now (None: no lessons, or none at this step)."""
        if not self.on or view.over:
            return None
        return flow.lesson(view, entry) or None
