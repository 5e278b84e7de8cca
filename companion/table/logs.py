"""What the table is told in words: the JSON log (one object per line for every input and
outcome) and the text log of headless play (a line per input, then whose turn it is, the
pile counts when they change, and the score table at the end). Both are session
listeners; neither ever names a hidden card (:attr:`~companion.table.session.Verdict.secret`).
"""

from __future__ import annotations

import json
from typing import IO, Callable

from ..core.commands import annotate, game_commands
from ..core.events import CardScanned
from ..core.i18n import count
from .session import Session
from .verdicts import last_saved_words, Verdict, log_record


def json_logger(out: IO[str]) -> Callable:
    """A session listener printing one JSON object per line for every input and outcome."""

    def listen(item, verdict: Verdict | None) -> None:
        for line in log_record(item, verdict):
            out.write(json.dumps(line) + "\n")
        out.flush()

    return listen


def text_logger(out: IO[str]) -> Callable:
    """A session listener printing one readable line per input."""

    def listen(item, verdict: Verdict | None) -> None:
        if verdict is None:
            out.write(f"[{item.device}] {item.status} {item.detail}\n")
        elif verdict.verdict == "accepted":
            # What the table was told (the outcome events' words, or what an entry step did,
            # after "Playing again." when it ended a pause).
            said = verdict.message or " ".join(e.message for e in verdict.events if e.message)
            out.write((said or f"OK: {_what(item, verdict)}") + "\n")
        elif verdict.verdict == "rejected":
            out.write(refused_line(_what(item, verdict), verdict.reason) + "\n")
        elif verdict.verdict == "ignored":
            out.write(f"ignored {_what(item, verdict)}: {verdict.reason}\n")
        out.flush()

    return listen


#: What starts a refused verdict's line in text mode: words a child reads (the screen shows
#: the same refusal with a stop sign; the JSON log keeps ``"verdict": "rejected"``).
REFUSED = "Not allowed"


def refused_line(what: str, reason: str) -> str:
    """A refusal as text mode prints it: ``Not allowed: REASON`` for a card (the reason
    names the card in words), ``Not allowed (vault 5): REASON`` for a typed command or a
    hidden card, ``Scan again: REASON`` for a scan that could not be read (no rule
    refused it: the reason says what to do).

    >>> refused_line("an unreadable scan", "That scan was garbled: scan the card again.")
    'Scan again: That scan was garbled: scan the card again.'
    """
    if what == UNREADABLE:
        return f"Scan again: {reason}"
    said = "" if what == "card" else f" ({what})"
    return f"{REFUSED}{said}: {reason}"


#: How the log names a scan it could not read (never its code).
UNREADABLE = "an unreadable scan"


def _what(item, verdict: Verdict) -> str:
    """The input as the log names it: the card read (never a hidden one), or the command."""
    if verdict.secret:
        return "a hidden card"
    if isinstance(item, CardScanned):  # never the code: the reason names the card in words
        return "card" if (verdict.code or item.code) else UNREADABLE
    return getattr(item, "command", type(item).__name__)


def counters(game, view) -> dict[str, int]:
    """The piles the table counts (``{"Fruit Deck": 40}``), from the game's optional
    ``rules.counters(view)`` (:meth:`companion.core.game.Rules.counters`; {} for a game
    that counts none)."""
    return dict(game.rules.counters(view))


class TextLog:
    """Headless text mode: one readable line per input, then whose turn it is and what
    the table awaits, the deck or bag count when it changed, and at the end the same
    score table as ``companion score`` (:meth:`~companion.core.game.Result.text`)."""

    def __init__(self, out: IO[str], session: Session):
        self.out, self.session = out, session
        self._counts: dict[str, int] = {}
        self._ended = False
        self._line = text_logger(out)

    def __call__(self, item, verdict: Verdict | None) -> None:
        self._line(item, verdict)
        if verdict is not None and verdict.verdict != "ignored":
            self.status()

    def start(self) -> None:
        """The opening lines: the game, the players, and (resumed or new) where things stand."""
        s = self.session
        resumed = f" (resumed, {count(s.resumed_inputs, 'input')})" if s.resumed_inputs else ""
        self.out.write(f"{s.desc.name}: {', '.join(s.state.players)}{resumed}\n")
        if s.last_saved is not None:  # its verdict may never have been seen (a power cut)
            # In the table's words, never a card code (the screen says the same).
            self.out.write(f"  {last_saved_words(s.last_saved)} Doing the same again now asks first.\n")
        self.status(force=True)

    def status(self, force: bool = False) -> None:
        s = self.session
        if not s.over:
            self._ended = False  # an Undo took the end back: the corrected end prints its table again
        if s.over:
            result = s.result()
            if result is not None and not self._ended:
                self.out.write(result.text() + "\n")
                undo = " Or /undo takes the end back." if s.undo_label() is not None else ""
                self.out.write(f"  Game over. Type /newgame to play again with the same players.{undo}\n")
            self._ended = True
            self.out.flush()
            return
        counts = counters(s.desc, s.view)
        changed = [f"{label}: {n} left" for label, n in counts.items() if force or self._counts.get(label) != n]
        self._counts = counts
        if changed:
            self.out.write("  " + ", ".join(changed) + "\n")
        state = s.state
        who = state.players[state.active]
        prompt = annotate(s.prompt(), game_commands(s.desc))  # "tap Can't stash (/cant)"
        named = [p for p in state.players if f"{p}:" in prompt]  # "Dad: scan your 7 cards"
        if len(named) == 1 and named[0] != who:  # another player acts now (a deal scanned in set-up, a defender): no "Mum's turn"
            self.out.write(f"  Now: {prompt}\n")
        else:
            self.out.write(f"  Now: {who}'s turn (turn {state.turn}). {prompt}\n")
        self.out.flush()
