"""The main loop around a :class:`~companion.table.session.Session`: the queue, the screen, the log.

The loop is here; the window's events, menus and drawing are in
:mod:`companion.table.window`, the clocks in :mod:`companion.table.clocks`, the queue in
:mod:`companion.table.inputs`.

pygame must own the main thread, so this loop polls the window, drains the input queue
into the session and redraws only when something changed or the turn timer's second
ticks. Device threads only ever put inputs on the queue.
"""

from __future__ import annotations

import queue
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core import codecache
from ..core.clock import Clock
from ..core.events import CardScanned
from ..devices.scan.normalise import NO_FRAMING, clean_scan
from ..ui.timers import Timers
from .clocks import TableClocks
from .inputs import IDLE_WAIT, WINDOW_POLL, InputQueue
from .resume_point import IDLE_SECONDS, KEEP_EVERY, fingerprint
from .session import Session
from .window import HINT_SECONDS, TableWindow

# A finished game whose result could not be saved (a full card) is saved again this often
# while the table runs, and in any case on the next start (Session.start replays it).
FINISH_RETRY_SECONDS = 5.0


@dataclass
class Runner:
    """Owns the input queue and (unless headless) the window for one session; the loop is
    here. It is composed of the parts it holds: ``window``, a
    :class:`~companion.table.window.TableWindow` (touches, menus, drawing), and
    ``timekeeper``, a :class:`~companion.table.clocks.TableClocks` (the clocks and the turn
    limit); :meth:`touch`, :meth:`render`, :meth:`clocks` ... hand the work to them."""

    session: Session
    clock: Clock
    inputs: "queue.Queue" = field(default_factory=InputQueue)
    app: Any = None                      # companion.ui.app.App, or None when headless
    display: Any = None                  # companion.ui.display.Display: opens (again) later
    text_out: Any = None                 # headless: where to say what a screen-only command needs
    json_out: Any = None                 # headless with --log-format json: the same, as a JSON line
    timers: Timers = field(default_factory=Timers)
    simulate: bool = False               # typed lines act as scans ("/cmd" as touches)
    record: Any = None                   # companion.table.trace.TraceWriter for touches
    tray: Any = None                     # companion.devices.tray.EmulatedTray under --simulate
    notifier: Any = None                 # companion.service.sdnotify.Notifier under systemd
    alarm: Any = None                    # called with the turn clock's warning flag (the buzzer)
    sounds: Any = None                   # companion.ui.sound.Sounds: the table's sounds (None: none)
    config_path: Any = None              # where the menu's settings are written (None: kept until the table stops)
    _ready: bool = False
    framing: Any = None                  # prefixes/suffixes a scanner typing into the window adds
    keyboard: Any = None                 # ScanEnd (devices.scan.keys) of a scanner typing into the window
    dirty: bool = True
    stopping: bool = False
    _finish_tried: float = float("-inf")
    new_session: Callable | None = None  # StartChoice -> Session: "New game" on the final screen
    watch: Any = None                    # companion.ui.wakeup.InputWatch: window input wakes the loop
    turns: int = 0                       # loop turns so far (wake-ups: benches and tests count them)
    trace_damage: str | None = None      # a replay: where a torn trace tail stopped it (None: read whole)
    _point_kept: tuple | None = None     # (session, inputs saved) of the last resume point kept (or tried)
    _point_seen: tuple = (None, 0.0)     # ((session, inputs saved), table time) when that count was first seen

    window: TableWindow = field(init=False, repr=False)
    timekeeper: TableClocks = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.window = TableWindow(self)
        self.timekeeper = TableClocks(self)
        self.session.listeners.append(self._heard)
        if isinstance(self.inputs, InputQueue):
            self.inputs.notify = self._wake

    def _wake(self, seq: int) -> bool:
        """A device queued input ``seq``: mark its place among the window's events.
        True when the marker was posted (there is a window and its queue took it)."""
        if self.app is not None:
            from ..ui.app import wake

            return wake(seq)
        return False

    def wake(self) -> None:
        """Wake the loop now (safe from any thread or a signal handler): the window has
        input (:class:`~companion.ui.wakeup.InputWatch`), or it should stop."""
        ready = getattr(self.inputs, "ready", None)
        if ready is not None:
            ready.set()

    def stop(self) -> None:
        """End the loop at the end of its current turn (SIGTERM, end of typed input)."""
        self.stopping = True
        self.wake()

    def watched(self) -> bool:
        """True when something wakes the loop on window input, so it need not poll."""
        return self.watch is not None and self.watch.watching

    def _take_through(self, seq: int, skip: "set[int] | frozenset[int]" = frozenset()) -> int:
        """Handle every queued input numbered up to ``seq`` (its marker came up); returns
        how many were handled. ``skip``: inputs among them whose own markers come later
        (put after this one by when they were made, or held): left waiting."""
        handled = 0
        if not isinstance(self.inputs, InputQueue):
            return handled
        for number, _ in self.inputs.waiting():
            if number > seq:
                break
            if number in skip or (item := self.inputs.take(number)) is None:
                continue
            try:
                self.session.handle(item)
            finally:
                self.inputs.task_done()
            handled += 1
        return handled

    def _take_unmarked(self) -> int:
        """Handle the inputs at the head of the queue that have no marker among the
        window's events (in number order); returns how many."""
        handled = 0
        held = self._held_inputs()  # (held for a tap made before them: passed over, not waited for)
        while (number := self.inputs.first_unmarked(held)) is not None:
            handled += self._take_through(number, held)
        return handled

    def _held_inputs(self) -> set[int]:
        """The numbers of the device inputs held for a tap made before them."""
        return {value for unit in self.window._held for kind, value in unit[1] if kind == "input"}

    def _emit(self, item, now: bool) -> None:
        """An input from the window (``now``: handled at once, in its place among the
        window's events) or from elsewhere (queued)."""
        if now:
            self.session.handle(item)
        else:
            self.inputs.put(item)

    def _heard(self, item, verdict) -> None:
        """Any input redraws; an input the game handled ends a shown hint and turns a long
        menu back to its first page (the menu it was on may be gone)."""
        self.dirty = True
        if verdict is not None:
            self.window.page = 0
        if self.window.menu == "hint" and verdict is not None:
            self.window.menu = None

    # ------------------------------------------------------------ input

    def typed(self, line: str, reader: str = "keyboard", now: bool = False) -> None:
        """A line typed under ``--simulate``: ``/command`` is a touch, anything else a scan.
        A blank line is no input (nothing was scanned or tapped), so it gets no verdict; a
        command's word typed without its slash (``undo``), headless, is refused with the
        fix instead of being read as a garbled card (no card code is a command word)."""
        line = line.strip()
        if not line:
            return
        if line.startswith("/"):
            self.touch(line[1:], now)
            return
        if self.text_out is not None:
            from ..core.commands import is_known
            from ..core.events import TouchCommand

            if is_known(self.session.desc, TouchCommand.parse(line)):  # "undo" typed as if it were a card
                from .logs import refused_line

                self._say(refused_line(line, f"that is a command, not a card code: type /{line.lower()}"))
                return
        self.scan_text(line, reader, now)

    def scan_text(self, text: str | None, reader: str = "keyboard", now: bool = False) -> None:
        """A code typed (or sent by a keyboard-mode scanner) into the window or stdin;
        None for a scan the window's key decoder rejected (a key that is not text)."""
        if self.record is not None:  # (a rejected scan is kept as one that replays rejected: SUB inside)
            raw = "?\x1a?" if text is None else text
            self.record.bytes(reader, self.clock.now(), (raw + "\r").encode("latin-1", "replace"))
        code = None if text is None else clean_scan(text, self.framing or NO_FRAMING)  # docs/scanners.md
        if code != "":
            self._emit(CardScanned(None if code is None else code.upper(), reader, self.clock.now()), now)

    def begin(self, session: Session) -> None:
        """Carry on with another session (a new game from the start screen): the
        listeners and device statuses move over; the screen shows the new game."""
        old, self.session = self.session, session
        session.devices.update(old.devices)
        for listener in old.listeners:
            if hasattr(listener, "session"):
                listener.session = session  # the text log follows the table's game
            session.listeners.append(listener)
        w = self.window
        w.screen, w.menu, w.deck_draft, w.page = None, None, None, 0
        self.timekeeper._passed = None
        for listener in session.listeners:
            if hasattr(listener, "start"):
                listener.start()
        self.dirty = True

    def _say(self, line: str) -> None:
        """A line for the table that is not a verdict (headless text mode only)."""
        if self.text_out is not None:
            self.text_out.write(line + "\n")
            self.text_out.flush()

    # ------------------------------------------------------------ loop

    def step(self, block: float | None = None) -> int:
        """One loop turn: window events, every queued input, a redraw if needed, and
        another try at saving a finished game's result if the store was full.

        The turn first waits, at most ``block`` seconds and never past :meth:`due` (the
        next clock second on the screen), for a queued input, a wake from the window's
        input devices (:attr:`watch`) or :meth:`stop`. With a window nothing watches, it
        waits at most :data:`WINDOW_POLL` instead, so a touch is still handled within a
        frame. Then it takes the window's events and the device inputs together, in the
        order they arrived: with a window, a device input is taken when its marker comes up
        among the window's events (its number and its marker are one step, see
        :class:`~companion.table.inputs.InputQueue`), so an input queued after the window
        was read waits for the next turn, behind any touch made before it, however long
        this turn is stalled. Nothing here depends on time: an input whose marker could
        not be posted is taken in its turn at once, and one whose posted marker the
        window lost (every marker up to :meth:`~InputQueue.last_id` read before the poll
        is in what the poll drained) is taken right after the poll."""
        self.turns += 1
        if block and isinstance(self.inputs, InputQueue):
            wait = min(block, self.due())
            if self.app is not None and not self.watched():
                wait = min(wait, WINDOW_POLL)
            if self.app is not None and self.inputs.first_unmarked(self._held_inputs()) is not None:
                wait = 0.0
            if self.window._held:  # for a press SDL gives at its next pump, or a scan being queued (it sets ready)
                wait = min(wait, 0.0 if self.window._held_for_press else WINDOW_POLL)
            if wait > 0:
                self.inputs.ready.wait(wait)
            self.inputs.ready.clear()
            block = None
        windowed = self.app is not None and isinstance(self.inputs, InputQueue)
        before = self.inputs.last_id() if windowed else 0
        handled = self._take_unmarked() if windowed else 0
        self.poll_window()
        self.check_turn_limit()
        if windowed and self.app is not None:
            # Every marker numbered up to ``before`` was in the window's queue when it was
            # drained: an input up to it still waiting lost its marker. Then any input at
            # the head whose marker could not be posted.
            # (held for a tap made before them: not lost, left waiting; the inputs
            # around them are taken, a tap may be held for one of them)
            handled += self._take_through(before, self._held_inputs()) + self._take_unmarked()
        else:
            handled += self.session.pump(self.inputs, block)
        self._retry_finish()
        self.render()
        return handled

    def due(self) -> float:
        """Seconds until the loop has something to do unasked (at most :data:`IDLE_WAIT`):
        the turn clock's next second (the screen's clocks tick then, a turn limit runs
        out then), a hint to take down, a result to save again."""
        s, now = self.session, self.clock.now()
        wait = IDLE_WAIT
        keys = self.window.keys.due(time.monotonic()) if self.app is not None else None
        if keys is not None:  # a scan typed into the window that only its silence gap ends
            wait = min(wait, keys + 0.002)
        if not s.paused and not s.over:
            wait = min(wait, 1.0 - (now - s.turn_started) % 1.0 + 0.002)
        if self.window.menu == "hint":
            wait = min(wait, self.window._hint_at + HINT_SECONDS - now + 0.002)
        if getattr(s, "unsaved_result", None) is not None:
            wait = min(wait, self._finish_tried + FINISH_RETRY_SECONDS - now)
        if self.display is not None and self.app is None:
            wait = min(wait, max(0.0, getattr(self.display, "next_try", now) - now))
        return max(0.0, wait)

    def _retry_finish(self) -> None:
        if getattr(self.session, "unsaved_result", None) is None:
            return
        now = self.clock.now()
        if now - self._finish_tried >= FINISH_RETRY_SECONDS:
            self._finish_tried = now
            self.session.retry_finish()

    def loop(self, frame: float = IDLE_WAIT) -> None:
        """Run until :attr:`stopping` (window closed, SIGTERM, or end of input). Each turn
        waits up to ``frame`` seconds (see :meth:`step`: an input, a touch or :meth:`stop`
        wakes it at once; the screen's next clock second ends the wait).

        Under systemd, ``READY=1`` goes out after the first turn (the first frame is on
        the screen; the devices were started before the loop) and ``WATCHDOG=1`` from
        every turn after, so a hung loop stops the pings and systemd restarts it."""
        while not self.stopping:
            self.step(block=frame)
            self.tick()
        self.keep_resume_point(idle=False)  # stopping: the next start replays nothing
        if self.notifier is not None:
            self.notifier.stopping()

    def keep_resume_point(self, idle: bool = True) -> bool:
        """Keep the game's resume point (:meth:`Session.keep_resume_point
        <companion.table.session.Session.keep_resume_point>`) once its inputs have not
        changed for :data:`~companion.table.resume_point.IDLE_SECONDS` of the table's
        clock and :data:`~companion.table.resume_point.KEEP_EVERY` were stored since the
        point it has (``idle``), or now (the table is stopping); once per count of inputs
        saved. True when one was written."""
        fingerprint()  # this program's, taken at its first frame (a resume took it already)
        s = self.session
        mark = (s, s.saved_inputs)
        kept = self._point_kept[1] if self._point_kept is not None and self._point_kept[0] is s \
            else s.resumed_from_point  # (the point it was resumed from, 0 for none)
        if kept == s.saved_inputs:
            return False
        now = self.clock.now()
        seen, since = self._point_seen
        if seen is None or seen[0] is not s or seen[1] != s.saved_inputs:
            self._point_seen = (mark, now)  # a change: wait for the table to be idle
            since = now
        if idle and (now - since < IDLE_SECONDS or s.saved_inputs - kept < KEEP_EVERY):
            return False
        self._point_kept = mark
        return s.keep_resume_point()

    def tick(self) -> None:
        """After each loop turn: systemd's READY (once) and WATCHDOG, the alarm (the
        buzzer) told whether the turn clock is warning, the dataclass code compiled
        since the last turn kept for the next start (:mod:`companion.core.codecache`),
        and the game's resume point kept once the table is idle (:meth:`keep_resume_point`).

        ``READY=1`` goes out only while a screen is open (or the table runs without one
        by choice, ``--headless``): a table that wanted a screen and has none says why
        in ``STATUS=`` and keeps the watchdog and the start timeout fed
        (:meth:`~companion.service.sdnotify.Notifier.waiting`) while it scores scans and
        tries the screen again."""
        codecache.save()  # a frame is up: anything compiled new (the first start, a new game) is kept
        self.keep_resume_point()
        if self.notifier is not None:
            now = time.monotonic()
            if self.display is not None and self.app is None:
                why = f"no screen: {self.display.problem or 'opening it'}; scans still count"
                if self.notifier.is_ready:
                    self.notifier.status(why)
                    self.notifier.watchdog(now)
                else:
                    self.notifier.waiting(why, now)
            else:
                self._ready = self.notifier.ready(f"{self.session.game}: ready")
                self.notifier.watchdog(now)
        if self.alarm is not None:
            self.alarm(self.clocks()["warning"])

    # ------------------------------------------------------------ its parts' work

    def touch(self, command: str, now: bool = False) -> None:
        """A touch command (:meth:`TableWindow.touch`)."""
        self.window.touch(command, now)

    def poll_window(self) -> None:
        """Take the window's events in the order they happened (:meth:`TableWindow.poll_window`)."""
        self.window.poll_window()

    def info(self):
        """What the screen shows now, a :class:`companion.ui.app.TableInfo` (:meth:`TableWindow.info`)."""
        return self.window.info()

    def draw(self, surface) -> list:
        """Draw a whole frame on ``surface``; returns its buttons (:meth:`TableWindow.draw`)."""
        return self.window.draw(surface)

    def render(self, force: bool = False) -> None:
        """Redraw when something changed or a shown clock ticked (:meth:`TableWindow.render`)."""
        self.window.render(force)

    def clocks(self) -> dict:
        """The game, turn, bid and time-left clocks (:meth:`TableClocks.clocks`)."""
        return self.timekeeper.clocks()

    def check_turn_limit(self) -> None:
        """Act on a turn's time running out (:meth:`TableClocks.check_turn_limit`)."""
        self.timekeeper.check_turn_limit()
