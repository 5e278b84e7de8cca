"""The main loop around a :class:`~companion.table.Session`: the queue, the screen, the log.

pygame must own the main thread, so this loop polls the window, drains the input queue
into the session and redraws only when something changed or the turn timer's second
ticks. Device threads only ever put inputs on the queue.
"""

from __future__ import annotations

import json
import queue
import sys
from dataclasses import dataclass, field
from typing import IO, Any, Callable

from .core.clock import Clock
from .core.events import CardScanned, Touch
from .devices.scan.normalise import NO_FRAMING, clean_scan
from .table import Session, Verdict, log_record

# Touch commands the screen handles itself (menus); everything else goes to the game.
# ``hint`` shows a hint (Sugar Blast) for HINT_SECONDS or until the next input; ``menu
# WORDS`` opens a screen's own menu by name (Sugar Blast's quick-mode Blast pad keeps
# its half-entered Blast there, e.g. ``menu quick 5-6 7``). Neither is stored.
UI_COMMANDS = ("swap", "deck", "draft", "cancel", "hint", "menu")
HINT_SECONDS = 8.0
# A finished game whose result could not be saved (a full card) is saved again this often
# while the table runs, and in any case on the next start (Session.start replays it).
FINISH_RETRY_SECONDS = 5.0
# Under --simulate the arrow keys tilt the emulated tray toward seat 1 (up), 2 (right),
# 3 (down), 4 (left).
ARROW_SEATS = {"up": 1, "right": 2, "down": 3, "left": 4}


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
            said = " ".join(e.message for e in verdict.events)
            out.write((said or f"OK: {_what(item, verdict)}") + "\n")
        elif verdict.verdict == "rejected":
            out.write(f"REJECTED {_what(item, verdict)}: {verdict.reason}\n")
        out.flush()

    return listen


def _what(item, verdict: Verdict) -> str:
    """The input as the log names it: the card read (never a hidden one), or the command."""
    if verdict.secret:
        return "a hidden card"
    if isinstance(item, CardScanned):
        return verdict.code or item.code or "an unreadable scan"
    return getattr(item, "command", type(item).__name__)


@dataclass
class Runner:
    """Owns the input queue and (unless headless) the window for one session."""

    session: Session
    clock: Clock
    inputs: "queue.Queue" = field(default_factory=queue.Queue)
    app: Any = None                      # companion.ui.app.App, or None when headless
    simulate: bool = False               # typed lines act as scans ("/cmd" as touches)
    record: Any = None                   # companion.trace.TraceWriter for touches
    tray: Any = None                     # companion.tray.EmulatedTray under --simulate
    framing: Any = None                  # prefixes/suffixes a scanner typing into the window adds
    menu: str | None = None
    deck_draft: int | None = None
    dirty: bool = True
    stopping: bool = False
    _shown_second: int = -1
    _hint_at: float = 0.0
    _finish_tried: float = float("-inf")

    def __post_init__(self) -> None:
        self.session.listeners.append(self._heard)

    def _heard(self, item, verdict) -> None:
        """Any input redraws; an input the game handled ends a shown hint."""
        self.dirty = True
        if self.menu == "hint" and verdict is not None:
            self.menu = None

    # ------------------------------------------------------------ input

    def typed(self, line: str, reader: str = "keyboard") -> None:
        """A line typed under ``--simulate``: ``/command`` is a touch, anything else a scan."""
        line = line.strip()
        if not line:
            return
        if line.startswith("/"):
            self.touch(line[1:])
        else:
            self.scan_text(line, reader)

    def scan_text(self, text: str, reader: str = "keyboard") -> None:
        """A code typed (or sent by a keyboard-mode scanner) into the window or stdin."""
        if self.record is not None:
            self.record.bytes(reader, self.clock.now(), (text + "\r").encode("latin-1", "replace"))
        code = clean_scan(text, self.framing or NO_FRAMING)  # what every reader strips (docs/scanners.md)
        if code != "":
            self.inputs.put(CardScanned(None if code is None else code.upper(), reader, self.clock.now()))

    def touch(self, command: str) -> None:
        """A touch command: menus are handled here, game commands go on the queue."""
        words = command.split()
        verb = words[0] if words else ""
        self.dirty = True
        if verb in UI_COMMANDS and not (verb in ("swap", "deck") and len(words) > 1):
            if verb == "cancel":
                self.menu, self.deck_draft = None, None
            elif verb == "menu":
                self.menu, self.deck_draft = " ".join(words[1:]) or None, None
            elif verb == "hint":
                self.menu, self.deck_draft, self._hint_at = "hint", None, self.clock.now()
            elif verb == "draft":
                if len(words) == 2 and words[1].isascii() and words[1].isdigit():
                    self.deck_draft = min(int(words[1]), 999)
            else:
                self.menu = verb
                self.deck_draft = getattr(self.session.view, "deck", None) if verb == "deck" else None
            return
        self.menu, self.deck_draft = None, None
        if self.record is not None:
            self.record.touch(self.clock.now(), command)
        self.inputs.put(Touch(command, self.clock.now()))

    def poll_window(self) -> None:
        if self.app is None:
            return
        for kind, value in self.app.poll():
            if kind == "quit":
                self.stopping = True
            elif kind == "touch":
                self.touch(value)
            elif kind == "arrow" and self.tray is not None:
                self.tray.tilt(ARROW_SEATS[value])  # the emulated tray tilts toward that seat
            elif kind == "typed" and self.simulate:
                self.typed(value)
            elif kind == "typed":  # a keyboard-mode scanner typing into the window
                self.scan_text(value)

    # ------------------------------------------------------------ drawing

    def info(self):
        from .ui.app import TableInfo

        s = self.session
        if self.menu == "hint" and self.clock.now() - self._hint_at > HINT_SECONDS:
            self.menu = None
        return TableInfo(verdict=s.last_message, verdict_ok=s.last_ok, prompt=s.prompt(),
                         devices=dict(s.devices), turn_seconds=max(0.0, self.clock.now() - s.turn_started),
                         menu=self.menu, deck_draft=self.deck_draft, entry=s.entry, undo=s.undo_label(),
                         game_name=s.desc.name)

    def draw(self, surface) -> list:
        """Draw the current screen of the session's game onto ``surface``."""
        from .ui import chrome

        screen = self.session.desc.screen
        info = self.info()
        result = self.session.result()
        if result is not None:
            return screen.draw_final(surface, result, info)
        buttons = screen.draw_game(surface, self.session.view, info)
        return chrome.overlay(surface, info, buttons)

    def render(self, force: bool = False) -> None:
        if self.app is None:
            return
        second = int(self.clock.now() - self.session.turn_started)
        if force or self.dirty or second != self._shown_second:
            self.app.show(self.draw)
            self.dirty, self._shown_second = False, second

    # ------------------------------------------------------------ loop

    def step(self, block: float | None = None) -> int:
        """One loop turn: window events, every queued input, a redraw if needed, and
        another try at saving a finished game's result if the store was full."""
        self.poll_window()
        handled = self.session.pump(self.inputs, block)
        self._retry_finish()
        self.render()
        return handled

    def _retry_finish(self) -> None:
        if getattr(self.session, "unsaved_result", None) is None:
            return
        now = self.clock.now()
        if now - self._finish_tried >= FINISH_RETRY_SECONDS:
            self._finish_tried = now
            self.session.retry_finish()

    def loop(self, frame: float = 1 / 30) -> None:
        """Run until :attr:`stopping` (window closed, SIGTERM, or end of input)."""
        while not self.stopping:
            self.step(block=frame)


def print_scores(result, out: IO[str] | None = None) -> None:
    """The final scores as a plain table: one row per player, winners marked."""
    out = out or sys.stdout  # looked up now, so a redirected stdout is honoured
    if hasattr(result, "text"):  # a game whose result prints itself (Sugar Blast)
        out.write(result.text() + "\n")
        return
    sheets = result.sheets
    fruits = [f.fruit for f in sheets[0].fruits]
    width = max(len(s.name) for s in sheets) + 2
    head = "Player".ljust(width) + "".join(f"{f[:11]:>12}" for f in fruits) + f"{'Salad':>7}{'Saurs':>7}{'Total':>7}"
    out.write(head + "\n" + "-" * len(head) + "\n")
    for s in sheets:
        mark = " *" if s.name in result.winners else ""
        cells = "".join(f"{f'{f.cards}x{f.per_card}={f.points}':>12}" for f in s.fruits)
        out.write(s.name.ljust(width) + cells + f"{s.salads:>7}{s.saur_cards:>7}{s.total:>7}{mark}\n")
    verb = "is the Win-O-Saur" if len(result.winners) == 1 else "are Win-O-Saurs"
    line = f"{' and '.join(result.winners)} {verb}!"
    if result.tie_break:
        line += f" (tie decided by: {result.tie_break})"
    out.write(line + "\n")
