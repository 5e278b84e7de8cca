"""The main loop around a :class:`~companion.table.Session`: the queue, the screen, the log.

pygame must own the main thread, so this loop polls the window, drains the input queue
into the session and redraws only when something changed or the turn timer's second
ticks. Device threads only ever put inputs on the queue.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .core import commands
from .core.clock import Clock
from .core.errors import StoreError
from .core.events import CardScanned, Touch
from .devices.scan.normalise import NO_FRAMING, clean_scan
from .logs import TextLog, counters, json_logger, text_logger  # noqa: F401  (the loop's listeners, re-exported)
from .table import Session
from .ui import timers
from .ui.timers import Timers

# Touch commands the screen handles itself (menus); everything else goes to the game.
# ``swap`` and ``deck`` with no number open a game's menu only where its flow declares one
# (``Command.menu``); elsewhere they go to the game, which refuses them with a reason.
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


class InputQueue(queue.Queue):
    """The session's one input queue: every device thread puts its inputs here.

    Each input gets a number in arrival order, and ``notify(n)`` (when set) is called
    after it is queued: with a window, that posts a marker among the window's events, so
    the main loop handles a scan and a touch in the order they happened (SDL keeps its
    events in one queue). ``ready`` is set on every put, to wake a waiting loop.
    """

    def __init__(self) -> None:
        super().__init__()
        self.ready = threading.Event()
        self.notify: Callable[[int], None] | None = None
        self.ids: deque[int] = deque()
        self.times: deque[float] = deque()  # time.monotonic() each waiting input was queued
        self._count = 0
        self._mine = threading.local()

    def _put(self, item) -> None:  # called with the queue's mutex held
        self._count += 1
        self._mine.seq = self._count
        self.ids.append(self._count)
        self.times.append(time.monotonic())
        self.queue.append(item)

    def _get(self):
        self.ids.popleft()
        self.times.popleft()
        return self.queue.popleft()

    def put(self, item, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        notify = self.notify
        if notify is not None:
            notify(self._mine.seq)  # the marker first: a loop woken by ready finds it
        self.ready.set()

    def first_id(self) -> int | None:
        """The number of the oldest waiting input, or None."""
        with self.mutex:
            return self.ids[0] if self.ids else None

    def first_age(self) -> float:
        """Seconds the oldest waiting input has waited (0 when none waits)."""
        with self.mutex:
            return time.monotonic() - self.times[0] if self.times else 0.0


#: With a window whose input nothing watches (no :class:`~companion.ui.wakeup.InputWatch`
#: device), how often the loop looks at the window's events: a touch is handled within
#: this plus the verdict's own time, inside one 60 Hz frame.
WINDOW_POLL = 1 / 100
#: With a window, a device input is handled when its marker comes up among the window's
#: events (so a touch made before it is handled first); one whose marker has not come up
#: after this many seconds (the window's queue dropped it) is handled anyway.
MARKER_GRACE = 0.05
#: The longest the loop sleeps when nothing is due (seconds): the turn clock's next second
#: usually comes first; systemd's watchdog is pinged at least this often.
IDLE_WAIT = 1.0


@dataclass
class Runner:
    """Owns the input queue and (unless headless) the window for one session."""

    session: Session
    clock: Clock
    inputs: "queue.Queue" = field(default_factory=InputQueue)
    app: Any = None                      # companion.ui.app.App, or None when headless
    display: Any = None                  # companion.ui.display.Display: opens (again) later
    text_out: Any = None                 # headless: where to say what a screen-only command needs
    timers: Timers = field(default_factory=Timers)
    simulate: bool = False               # typed lines act as scans ("/cmd" as touches)
    record: Any = None                   # companion.trace.TraceWriter for touches
    tray: Any = None                     # companion.tray.EmulatedTray under --simulate
    notifier: Any = None                 # companion.sdnotify.Notifier under systemd
    alarm: Any = None                    # called with the turn clock's warning flag (the buzzer)
    _ready: bool = False
    framing: Any = None                  # prefixes/suffixes a scanner typing into the window adds
    menu: str | None = None
    deck_draft: int | None = None
    dirty: bool = True
    stopping: bool = False
    _shown_second: int = -1
    _hint_at: float = 0.0
    _finish_tried: float = float("-inf")
    _draw_failed: bool = False
    _passed: float | None = None
    _drawn: Any = None                   # the last full frame's TableInfo, clocks left out
    new_session: Callable | None = None  # StartChoice -> Session: "New game" on the final screen
    screen: Any = None                   # a shared screen shown instead of the game's (start, history)
    watch: Any = None                    # companion.ui.wakeup.InputWatch: window input wakes the loop
    turns: int = 0                       # loop turns so far (wake-ups: benches and tests count them)

    def __post_init__(self) -> None:
        self.session.listeners.append(self._heard)
        if isinstance(self.inputs, InputQueue):
            self.inputs.notify = self._wake

    def _wake(self, seq: int) -> None:
        """A device queued input ``seq``: mark its place among the window's events."""
        if self.app is not None:
            from .ui.app import wake

            wake(seq)

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

    def _take_through(self, seq: int) -> int:
        """Handle every queued input numbered up to ``seq`` (its marker came up); returns
        how many were handled."""
        handled = 0
        if not isinstance(self.inputs, InputQueue):
            return handled
        while True:
            first = self.inputs.first_id()
            if first is None or first > seq:
                return handled
            try:
                item = self.inputs.get_nowait()
            except queue.Empty:
                return handled
            try:
                self.session.handle(item)
            finally:
                self.inputs.task_done()
            handled += 1

    def _emit(self, item, now: bool) -> None:
        """An input from the window (``now``: handled at once, in its place among the
        window's events) or from elsewhere (queued)."""
        if now:
            self.session.handle(item)
        else:
            self.inputs.put(item)

    def _heard(self, item, verdict) -> None:
        """Any input redraws; an input the game handled ends a shown hint."""
        self.dirty = True
        if self.menu == "hint" and verdict is not None:
            self.menu = None

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
            from .core.commands import is_known

            if is_known(self.session.desc, line):  # "undo" typed as if it were a card
                self._say(f"REJECTED {line}: that is a command, not a card code: type /{line.lower()}")
                return
        self.scan_text(line, reader, now)

    def scan_text(self, text: str, reader: str = "keyboard", now: bool = False) -> None:
        """A code typed (or sent by a keyboard-mode scanner) into the window or stdin."""
        if self.record is not None:
            self.record.bytes(reader, self.clock.now(), (text + "\r").encode("latin-1", "replace"))
        code = clean_scan(text, self.framing or NO_FRAMING)  # what every reader strips (docs/scanners.md)
        if code != "":
            self._emit(CardScanned(None if code is None else code.upper(), reader, self.clock.now()), now)

    def touch(self, command: str, now: bool = False) -> None:
        """A touch command: menus are handled here, game commands go to the session (at
        once when ``now``: a tap on the window, in order with the window's other events)."""
        words = command.split()
        verb = words[0] if words else ""
        self.dirty = True
        if self._shared_screen(command):
            return
        menu_hint = commands.menu_hint(self.session.desc, verb) if verb in ("swap", "deck") else None
        if verb in UI_COMMANDS and not (verb in ("swap", "deck") and (len(words) > 1 or menu_hint is None)):
            unseen = self.app is None or getattr(self.app, "invisible", False)
            if self.text_out is not None and unseen and menu_hint is not None:
                self.text_out.write(menu_hint + "\n")  # the game's own words for its menu
                self.text_out.flush()
                return
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
        self._emit(Touch(command, self.clock.now()), now)

    def _shared_screen(self, command: str) -> bool:
        """The start and history screens (after a game): True when ``command`` was theirs."""
        from .ui import history, start

        if self.screen is None:
            if not (self.session.over and command in ("newgame", "history")):
                return False
            try:
                self.screen = (start.StartFlow(self.session.store) if command == "newgame"
                               else history.HistoryScreen(self.session.store))
            except StoreError as err:  # the store was damaged since the game began: say so, stay here
                print(f"companion: {err}", file=sys.stderr, flush=True)
                self.session.last_message, self.session.last_ok = (
                    "The game store cannot be read, so the history and a new game cannot be shown "
                    "(the log says why).", False)
            return True
        out = self.screen.handle(command)
        if getattr(self.screen, "choice", None) is not None and self.new_session is not None:
            flow = self.screen
            try:
                session = self.new_session(flow.choice)
            except Exception as err:  # the store is full or unreadable: say so, stay on the start screen
                flow.choice = None
                flow.screen.message = str(err)
                return True
            self.begin(session)
        elif out == "newgame":
            self.screen = start.StartFlow(self.session.store)
        elif out == "close":
            self.screen = None
        return True

    def begin(self, session: Session) -> None:
        """Carry on with another session (a new game from the start screen): the
        listeners and device statuses move over; the screen shows the new game."""
        old, self.session = self.session, session
        session.devices.update(old.devices)
        for listener in old.listeners:
            if hasattr(listener, "session"):
                listener.session = session  # the text log follows the table's game
            session.listeners.append(listener)
        self.screen, self.menu, self.deck_draft, self._passed = None, None, None, None
        for listener in session.listeners:
            if hasattr(listener, "start"):
                listener.start()
        self.dirty = True

    def poll_window(self) -> None:
        from .ui import start as start_screen

        if self.app is None:
            return
        try:
            events = self.app.poll()
        except pygame_error() as err:
            self._screen_lost(err)
            return
        for kind, value in events:  # in the order they happened, device inputs included
            if kind == "input":
                self._take_through(value)
            elif kind == "quit":
                self.stopping = True
            elif kind == "touch":
                self.touch(value, now=True)
            elif kind == "arrow" and self.tray is not None:
                self.tray.tilt(ARROW_SEATS[value])  # the emulated tray tilts toward that seat
            elif kind == "typed" and isinstance(getattr(self.screen, "screen", None), start_screen.KeyboardScreen):
                self.touch(f"typed {value}", now=True)  # a name typed on a USB keyboard
            elif kind == "typed" and self.simulate:
                self.typed(value, now=True)
            elif kind == "typed":  # a keyboard-mode scanner typing into the window
                self.scan_text(value, now=True)

    # ------------------------------------------------------------ drawing

    def info(self):
        from .ui.app import TableInfo

        s = self.session
        if self.menu == "hint" and self.clock.now() - self._hint_at > HINT_SECONDS:
            self.menu = None
        clocks = self.clocks()
        prompt = s.prompt()
        if clocks["bid"] == 0:
            from .ui.messages import text

            prompt = text("bid_time_up")  # a suggestion only: the bidder still decides
        return TableInfo(verdict=s.last_message, verdict_ok=s.last_ok, prompt=prompt, bid_left=clocks["bid"],
                         devices=dict(s.devices), turn_seconds=clocks["turn"],
                         menu=self.menu, deck_draft=self.deck_draft, entry=s.entry, undo=s.undo_label(),
                         game_name=s.desc.name, game_seconds=clocks["game"], turn_left=clocks["left"],
                         warning=clocks["warning"], paused=s.paused, can_pause=not s.over)

    def clocks(self) -> dict:
        """The game clock, the turn clock, the time left (turn limit or the active
        player's chess-clock bank) and whether to warn; all from stored input times."""
        s, now, t = self.session, self.clock.now(), self.timers
        pauses = list(s.pauses)
        turn = timers.turn_seconds(s.turn_started, now, pauses)
        left = t.left(turn)
        banks = t.banks(timers.spent_by_seat(s.turns(), now, pauses), len(s.state.players))
        if banks is not None:
            bank = banks[s.state.active]
            left = bank if left is None else min(left, bank)
        bid = None
        bidding = getattr(s.view, "bidding", None)
        if t.bid is not None and not s.over and getattr(bidding, "to_act", None) is not None:
            bid = t.bid_left(timers.turn_seconds(s.turns()[-1][0], now, pauses))
        return {"game": timers.game_seconds(s.started, now, pauses), "turn": turn, "bid": bid,
                "left": None if left is None else max(0.0, left), "banks": banks,
                "warning": left is not None and left <= t.warn and not s.over}

    def check_turn_limit(self) -> None:
        """At zero, once a turn: say so (headless text); with ``at_zero="pass"``, pass the
        turn if the rules allow a pass now, never while an auction waits on a bid (a bid
        is the bidder's; it has its own countdown); otherwise the clock only shows orange."""
        s, t = self.session, self.timers
        if t.limit is None or s.over or s.paused or self._passed == s.turn_started:
            return
        if not t.expired(timers.turn_seconds(s.turn_started, self.clock.now(), s.pauses)):
            return
        self._passed = s.turn_started
        who = s.state.players[s.state.active] if getattr(s.state, "players", None) else "this player"
        bidding = getattr(getattr(s.view, "bidding", None), "to_act", None) is not None
        item = Touch("pass", self.clock.now())
        # A bid is the bidder's: the turn clock never passes it.
        if t.at_zero != "pass" or bidding or not self._allowed(item):
            item = None
        self._say(f"Time is up for {who}: passing the turn." if item is not None
                  else f"Time is up for {who}'s turn (the clock only warns).")
        if item is not None:
            self.inputs.put(item)

    def _allowed(self, item) -> bool:
        """Would the rules accept ``item`` now (nothing is changed)?"""
        from .table import decide

        s = self.session
        try:
            decide(s.desc, s.state, s.entry, item)
        except Exception:
            return False
        return True

    def _say(self, line: str) -> None:
        """A line for the table that is not a verdict (headless text mode only)."""
        if self.text_out is not None:
            self.text_out.write(line + "\n")
            self.text_out.flush()

    def draw(self, surface) -> list:
        """Draw the current screen of the session's game onto ``surface``."""
        from .ui import chrome

        chrome.begin_frame()
        if self.screen is not None:
            return self.screen.draw(surface)
        screen = self.session.desc.screen
        info = self.info()
        self._drawn = _unclocked(info)
        result = self.session.result()
        if result is not None:
            # Best first on every final screen (the result itself keeps seat order).
            ranked = replace(result, players=tuple(result.ranked()))
            buttons = screen.draw_final(surface, drawable_result(ranked), info)
            return buttons + chrome.after_game(surface) if self.new_session is not None else buttons
        buttons = chrome.overlay(surface, info, screen.draw_game(surface, drawable_view(self.session.view), info))
        chrome.end_frame(surface, info)
        return buttons

    def render(self, force: bool = False) -> None:
        """Redraw when something changed or the clock's second ticked. A screen that
        fails is closed and retried by :attr:`display`; a game screen that raises is
        replaced by a plain one, so drawing never stops the readers or the rules."""
        if self.display is not None and self.app is None:
            self.app = self.display.ensure()
            if self.app is None:
                return
            force = True  # just opened: show the current state
        if self.app is None:
            return
        still = self.session.paused or self.session.over or self.screen is not None  # no clocks tick
        second = -2 if still else int(self.clock.now() - self.session.turn_started)
        if force or self.dirty or second != self._shown_second:
            try:
                if force or self.dirty or not self._tick_clocks():
                    self.app.show(self._safe_draw)
            except pygame_error() as err:
                self._screen_lost(err)
                return
            self.dirty, self._shown_second = False, second

    def _tick_clocks(self) -> bool:
        """Only a second passed: redraw just the clocks when nothing else on the screen
        changed with it (no menu over them, the same verdict, prompt, warning and
        buttons). False when the whole frame must be drawn."""
        from .ui import chrome

        if not chrome.tickable() or self._draw_failed:
            return False
        info = self.info()
        if info.menu is not None or _unclocked(info) != self._drawn:
            return False
        return self.app.show_part(lambda surface: chrome.tick_clocks(surface, info) or [])

    def _screen_lost(self, err) -> None:
        """The window failed (polled or drawn): carry on headless while the display
        handler retries; without one (tests, replay) the error is the caller's."""
        if self.display is None:
            raise err
        self.display.lost(err)
        self.app = None

    def _safe_draw(self, surface) -> list:
        try:
            return self.draw(surface)
        except Exception as err:  # a bug in one game's screen must not stop the table
            if not self._draw_failed:
                import traceback

                print("companion: the game screen failed to draw; showing a plain screen instead:\n"
                      + "".join(traceback.format_exception(err)), file=sys.stderr, flush=True)
            self._draw_failed = True
            from .ui import theme
            from .ui.widgets import draw_wrapped

            surface.fill(theme.BG)
            info = self.info()
            w, h = surface.get_size()
            draw_wrapped(surface, info.verdict or info.game_name, pygame_rect(20, 20, w - 40, h // 2 - 30),
                         theme.BIG, max_lines=4)
            draw_wrapped(surface, info.prompt, pygame_rect(20, h // 2, w - 40, h // 2 - 20), theme.MEDIUM,
                         theme.TEXT_DIM, max_lines=4)
            return []

    # ------------------------------------------------------------ loop

    def step(self, block: float | None = None) -> int:
        """One loop turn: window events, every queued input, a redraw if needed, and
        another try at saving a finished game's result if the store was full.

        The turn first waits, at most ``block`` seconds and never past :meth:`due` (the
        next clock second on the screen), for a queued input, a wake from the window's
        input devices (:attr:`watch`) or :meth:`stop`. With a window nothing watches, it
        waits at most :data:`WINDOW_POLL` instead, so a touch is still handled within a
        frame. Then it takes the window's events and the device inputs together, in the
        order they happened: with a window, a device input is taken when its marker comes
        up among the window's events (an input queued after the window was read waits for
        the next turn, behind any touch made before it; one whose marker never comes is
        taken after :data:`MARKER_GRACE`)."""
        self.turns += 1
        if block and isinstance(self.inputs, InputQueue):
            wait = min(block, self.due())
            if self.app is not None and not self.watched():
                wait = min(wait, WINDOW_POLL)
            if self.app is not None and self.inputs.first_id() is not None:
                wait = min(wait, max(0.0, MARKER_GRACE - self.inputs.first_age()) + 0.001)
            if wait > 0:
                self.inputs.ready.wait(wait)
            self.inputs.ready.clear()
            block = None
        self.poll_window()
        self.check_turn_limit()
        if self.app is not None and isinstance(self.inputs, InputQueue):
            # Only inputs whose marker came up (poll_window took them): one queued after the
            # window's events were read waits for the next turn, behind any touch made
            # before it. A marker the window lost is made up for after MARKER_GRACE.
            handled = 0
            while self.inputs.first_age() > MARKER_GRACE:
                handled += self._take_through(self.inputs.first_id() or 0)
        else:
            handled = self.session.pump(self.inputs, block)
        self._retry_finish()
        self.render()
        return handled

    def due(self) -> float:
        """Seconds until the loop has something to do unasked (at most :data:`IDLE_WAIT`):
        the turn clock's next second (the screen's clocks tick then, a turn limit runs
        out then), a hint to take down, a result to save again."""
        s, now = self.session, self.clock.now()
        wait = IDLE_WAIT
        if not s.paused and not s.over:
            wait = min(wait, 1.0 - (now - s.turn_started) % 1.0 + 0.002)
        if self.menu == "hint":
            wait = min(wait, self._hint_at + HINT_SECONDS - now + 0.002)
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
        if self.notifier is not None:
            self.notifier.stopping()

    def tick(self) -> None:
        """After each loop turn: systemd's READY (once) and WATCHDOG, and the alarm
        (the buzzer) told whether the turn clock is warning."""
        if self.notifier is not None:
            if not self._ready:
                self._ready = self.notifier.ready(f"{self.session.game}: ready")
            self.notifier.watchdog(time.monotonic())
        if self.alarm is not None:
            self.alarm(self.clocks()["warning"])


def _unclocked(info):
    """``info`` with the clocks' values left out (what a clock-only redraw keeps)."""
    return replace(info, game_seconds=0.0, turn_seconds=0.0, turn_left=None if info.turn_left is None else 0.0,
                   bid_left=None if info.bid_left is None else 0.0)


def drawable_view(view):
    """The view with each player's name as the screen can draw it (a name in a script no
    installed font has becomes "Player N"; see :func:`companion.ui.fonts.display_name`)."""
    from dataclasses import replace

    from .ui.fonts import display_name

    names = tuple(display_name(n, i) for i, n in enumerate(view.players, 1))
    return view if names == tuple(view.players) else replace(view, players=names)


def drawable_result(result):
    """:func:`drawable_view` for a final result (its players, winners and score sheets)."""
    from dataclasses import fields, is_dataclass, replace

    from .ui.fonts import display_name

    shown = {p.name: display_name(p.name, i) for i, p in enumerate(result.players, 1)}
    if all(k == v for k, v in shown.items()):
        return result

    def sheet(obj):
        if is_dataclass(obj) and any(f.name == "name" for f in fields(obj)) and obj.name in shown:
            return replace(obj, name=shown[obj.name])
        return obj

    players = tuple(replace(p, name=shown[p.name], sheet=sheet(p.sheet)) for p in result.players)
    return replace(result, players=players, winners=tuple(shown.get(w, w) for w in result.winners),
                   detail=sheet(result.detail))


def pygame_error():
    import pygame

    return pygame.error


def pygame_rect(*args):
    import pygame

    return pygame.Rect(*args)
