"""Undo, the same for every game: the inputs still in force, newest last, each with what
it takes to take it back (:class:`UndoStack`, one part of the
:class:`~companion.table.session.Session`).

An Undo takes back the newest input still in force, one more each time, and is stored
like any input, so a replay takes back the same ones. An input that made hidden
information public (a :class:`~companion.core.events.Revealed` among its events) is never
taken back: what everyone saw stays seen. The input that ended the game always may be
(its end showed everything anyway, and a wrong winner must not stand), until the table
starts a new game. The same list is the chess clock's history (:meth:`UndoStack.turns`),
so a restart rebuilds both from the store.

>>> from companion.core.events import Touch
>>> stack = UndoStack()
>>> stack.push(Done(1, Touch("swap 2", 12.5), "the state before", None, 0.0, "Ana swaps 2 cards. Ben's turn.",
...                 revealed=False))
>>> stack.label()
"Ana swaps 2 cards. Ben's turn."
>>> stack.take_back().undone_words()
'Ana swaps 2 cards'
>>> stack.refusal()
'There is nothing to take back.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

#: Said when an Undo finds no input in force.
NOTHING_TO_TAKE_BACK = "There is nothing to take back."
#: What :meth:`UndoStack.label` says when the newest input in force ended the game.
THE_END = "The end of the game: play goes back to before it, and its result leaves the history."


@dataclass(frozen=True)
class Done:
    """One accepted input still in force, and what it takes to take it back.

    ``seq`` is its number in the store (None for none); ``item`` the input; ``state``,
    ``entry`` and ``turn_started`` (session-clock seconds) are the game's as they were
    *before* it; ``said`` is what the table was told when it counted. ``revealed``: it made
    hidden information public (never taken back, unless it ended the game); ``ended``:
    it ended the game (taken back until the table starts a new one); ``events`` its
    outcome events; ``hidden``: it was a hidden card (a face-down play, a card of a
    secret hand), which the Undo dialog never names (:meth:`face_down_question`).
    """

    seq: int | None
    item: Any
    state: Any
    entry: Any
    turn_started: float
    said: str
    revealed: bool
    ended: bool = False
    events: tuple = ()      # its outcome events (what the Undo dialog names: Session.undo_question)
    hidden: bool = False    # it was a hidden card (the Undo dialog never names it)

    def question(self, setup_phases: tuple[str, ...] = ("setup",)) -> str:
        """The Undo dialog's question: what taking it back takes back, named by whose
        move it was (none in a set-up phase: ``setup_phases``), never the prompt that
        followed it (issue 38).

        >>> from companion.core.events import Touch
        >>> from types import SimpleNamespace as S
        >>> before = S(players=("Mia", "Ben"), active=0, phase="play")
        >>> Done(3, Touch("column 3", 1.0), before, None, 0.0, "Strawberry 2 on column 3 (2 cards). Ben's turn.",
        ...      False).question()
        "Undo Mia's move: Strawberry 2 on column 3 (2 cards)?"
        >>> Done(4, Touch("swap 2", 1.0), before, None, 0.0, "Mia swaps 2 cards. Ben's turn.", False).question()
        'Undo this move: Mia swaps 2 cards?'
        >>> Done(5, Touch("pass", 1.0), before, None, 0.0, "Ben passes.", False).question()  # in Mia's turn
        'Undo this move: Ben passes?'
        """
        if self.ended:  # says what taking it back does (the dialog's title asks)
            return THE_END
        what = self.said.split(". ")[0].rstrip(".!") if self.said else ""
        who = _mover(self.state, setup_phases)
        if who is None:
            return f"Undo this step: {what}?" if what else "Undo the last step?"
        if not what:
            return f"Undo {who}'s last move?"
        # The words name who moved (a bid, a pass in another's turn): they say whose it was.
        if any(what.startswith(name + " ") or what.startswith(name + "'") for name in _players(self.state)):
            return f"Undo this move: {what}?"
        return f"Undo {who}'s move: {what}?"

    def mover(self, setup_phases: tuple[str, ...] = ("setup",)) -> str | None:
        """Whose move it was (the player active before it; None in a set-up phase)."""
        return _mover(self.state, setup_phases)

    def face_down_question(self, setup_phases: tuple[str, ...] = ("setup",)) -> str:
        """The Undo dialog's question for a hidden card: whose it was, never which.

        >>> from types import SimpleNamespace as S
        >>> before = S(players=("Mia", "Ben"), active=0, phase="play")
        >>> Done(3, None, before, None, 0.0, "", False, hidden=True).face_down_question()
        "Undo Mia's face-down card?"
        """
        who = _mover(self.state, setup_phases)
        return f"Undo {who}'s face-down card?" if who is not None else "Undo the face-down card?"

    def undone_words(self) -> str:
        """What taking it back undid, for ``"Undone: ... ."``: what the table was told, up
        to its first full stop and without a last ``.`` or ``!`` (``"the last input"``
        when nothing was); for the game's end, ``"the end of the game"`` (when that began
        ``Game over``) or those words, then ``". The game is not over yet"``."""
        what = self.said.split(". ")[0].rstrip(".!") if self.said else "the last input"
        if self.ended:
            if what.lower().startswith("game over"):
                what = "the end of the game"
            what += ". The game is not over yet"
        return what


def _mover(state: Any, setup_phases: tuple[str, ...]) -> str | None:
    """Whose move a state was before an input (the active player), None in set-up."""
    try:
        if state.phase in setup_phases:
            return None
        return str(state.players[state.active])
    except (AttributeError, IndexError, TypeError):  # a state with no seats (the doctest's)
        return None


def _players(state: Any) -> tuple[str, ...]:
    try:
        return tuple(str(p) for p in state.players)
    except (AttributeError, TypeError):
        return ()


@dataclass
class UndoStack:
    """The inputs still in force, oldest first (``done``: a list of :class:`Done`).

    The session pushes every accepted input of the game (live and in replay, not Pause,
    Resume or help) and pops one for each Undo; Undo's own input is never pushed. It is
    kept whole in a resume point, so it must pickle (states and inputs are dataclasses).
    """

    done: list[Done] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.done)

    def __iter__(self) -> Iterator[Done]:
        return iter(self.done)

    @property
    def last(self) -> Done | None:
        """The newest input still in force (None when there is none)."""
        return self.done[-1] if self.done else None

    def push(self, done: Done) -> None:
        """Put ``done``, an input just accepted, in force on top."""
        self.done.append(done)

    def can_take_back(self) -> bool:
        """May an Undo take back the newest input still in force? Not when there is
        none, nor when it showed hidden cards to everyone, unless it ended the game."""
        last = self.last
        return last is not None and (last.ended or not last.revealed)

    def refusal(self) -> str | None:
        """What the table is told of an Undo now when nothing may be taken back (None
        when something may): there is nothing in force, or the newest showed hidden cards."""
        last = self.last
        if last is None:
            return NOTHING_TO_TAKE_BACK
        if not self.can_take_back():
            return f"That cannot be taken back: \"{last.said}\" showed hidden cards to everyone."
        return None

    def label(self) -> str | None:
        """What an Undo would take back now, in words (None when nothing can be): what
        the table was told of it (``"the last input"`` when nothing), or :data:`THE_END`."""
        if not self.can_take_back():
            return None
        assert self.last is not None
        if self.last.ended:  # the end itself: say what taking it back does
            return THE_END
        return self.last.said or "the last input"

    def question(self, setup_phases: tuple[str, ...] = ("setup",)) -> str | None:
        """The Undo dialog's question (:meth:`Done.question`), None when nothing can be
        taken back."""
        if not self.can_take_back():
            return None
        assert self.last is not None
        return self.last.question(setup_phases)

    def take_back(self) -> Done:
        """Take the newest input still in force off the stack and return it: the caller
        puts its ``state``, ``entry`` and ``turn_started`` back. Raises ValueError (with
        :meth:`refusal`'s words) when nothing may be taken back."""
        if not self.can_take_back():
            raise ValueError(self.refusal())
        return self.done.pop()

    def last_input_t(self, started: float) -> float:
        """Session-clock seconds of the newest input still in force (``started``, the
        game's start, before any)."""
        return self.done[-1].item.t if self.done else started

    def turns(self, started: float, active: int) -> list[tuple[float, int]]:
        """The chess clock's history as :func:`companion.ui.timers.spent_by_seat` takes
        it: ``(t, seat)`` for the game's start (``started``) and each input still in
        force, with the seat (0-based) active after it; ``active`` is the seat active now."""
        after = [d.state.active for d in self.done[1:]] + [active]
        first = self.done[0].state.active if self.done else active
        return [(started, first)] + [(d.item.t, seat) for d, seat in zip(self.done, after)]
