"""The runner's window side: touch commands and the screen's own menus, the window's
events in the order they happened, and drawing (a whole frame, or only the clocks).

:class:`TableWindow` is one part a :class:`~companion.table.runner.Runner` holds.
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..core import commands
from ..core.journal import ERR, say
from ..core.errors import StoreError
from ..core.events import Touch, TouchCommand
from ..devices.scan.keys import DEFAULT_END, KeyStream
from ..games import GAMES
from .logs import REFUSED

# Touch commands the screen handles itself (menus); everything else goes to the game.
# ``swap`` and ``deck`` with no number open a game's menu only where its flow declares one
# (``Command.menu``); elsewhere they go to the game, which refuses them with a reason.
# ``hint`` shows a hint (Sugar Blast) for HINT_SECONDS or until the next input; ``menu
# WORDS`` opens a screen's own menu by name (Sugar Blast's quick-mode Blast pad keeps
# its half-entered Blast there, e.g. ``menu quick 5-6 7``). Neither is stored.
UI_COMMANDS = ("swap", "deck", "draft", "cancel", "hint", "menu", "page")
# The game menu's own commands (companion.ui.menu): never stored, never the game's.
MENU_COMMANDS = ("leave", "quit", "setting")
HINT_SECONDS = 8.0
# At the first pump of a window, a press the watch kept from longer ago than this was made
# on no screen (before it opened, or while it was lost): it is not paired with SDL's.
STALE_PRESS_S = 1.0
# Under --simulate the arrow keys tilt the emulated tray toward seat 1 (up), 2 (right),
# 3 (down), 4 (left).
ARROW_SEATS = {"up": 1, "right": 2, "down": 3, "left": 4}


class TableWindow:
    """The runner's window side: touches, the screen's own menus, the window's events in
    the order they happened, and drawing. One part a
    :class:`~companion.table.runner.Runner` holds (``runner.window``); it keeps what only
    the window needs (the menu open, its page and number, a shared screen shown instead of
    the game's, events held for an input made before them) and reaches the session, the
    clock and the queue through its runner."""

    def __init__(self, runner) -> None:
        self.runner = runner
        self.menu: str | None = None
        self.deck_draft: int | None = None
        self.page = 0                        # the page a long menu shows (its "More" button turns it)
        self.screen = None                   # a shared screen shown instead of the game's (start, history)
        self._hint_at = 0.0
        self._held: list = []                # [time, events, kind]: held for an input made before them
        self._held_for_press = False         # ...for a press SDL gives at its next pump (else for a scan being queued)
        self._pumped: float | None = None    # time.monotonic() the last pump of the window's events started
        self._draw_failed = False
        self._drawn = None                   # the last full frame's TableInfo, clocks left out
        self._shown_second = -1
        self.keys = KeyStream(runner.keyboard or DEFAULT_END)  # a scanner typing into the window

    def touch(self, command: str, now: bool = False) -> None:
        """A touch command: menus are handled here, game commands go to the session (at
        once when ``now``: a tap on the window, in order with the window's other events)."""
        said = TouchCommand.parse(command)
        verb, words = said.verb, [said.verb, *said.args]
        self.runner.dirty = True
        if self._shared_screen(command):
            return
        if verb in MENU_COMMANDS and self.screen is None:
            self._menu_command(verb, said.args)
            return
        menu_hint = commands.menu_hint(self.runner.session.desc, verb) if verb in ("swap", "deck") else None
        if verb in UI_COMMANDS and not (verb in ("swap", "deck") and (len(words) > 1 or menu_hint is None)):
            unseen = self.runner.app is None or getattr(self.runner.app, "invisible", False)
            if self.runner.text_out is not None and unseen:  # text mode: every screen command is answered
                self.runner.text_out.write((menu_hint or self._screen_only(verb, words)) + "\n")
                self.runner.text_out.flush()
                return
            if self.runner.json_out is not None and unseen:  # the JSON log answers it too
                import json

                self.runner.json_out.write(json.dumps({"event": "touch", "command": command,
                                                       "t": self.runner.clock.now(), "verdict": "screen-only",
                                                       "message": menu_hint or self._screen_only(verb, words)}) + "\n")
                self.runner.json_out.flush()
                return
            if verb == "page":  # a long menu's next page (the screen wraps it round to the first)
                self.page += 1
            elif verb == "cancel":
                self.menu, self.deck_draft, self.page = None, None, 0
            elif verb == "menu":
                self.menu, self.deck_draft = " ".join(words[1:]) or None, None
            elif verb == "hint":
                self.menu, self.deck_draft, self._hint_at = "hint", None, self.runner.clock.now()
            elif verb == "draft":
                if len(words) == 2 and words[1].isascii() and words[1].isdigit():
                    self.deck_draft = min(int(words[1]), 999)
            else:
                self.menu = verb
                self.deck_draft = self.runner.session.flow.menu_number(self.runner.session.view, verb)
            return
        self.menu, self.deck_draft, self.page = None, None, 0
        if self.runner.record is not None:
            self.runner.record.touch(self.runner.clock.now(), command)
        self.runner._emit(Touch(command, self.runner.clock.now()), now)

    def _menu_command(self, verb: str, args) -> None:
        """The game menu's commands (companion.ui.menu): ``leave`` (asked first on the
        screen: stored as abandoned, then the start screen), ``quit`` (after Escape's
        question) and ``setting WORDS`` (:class:`companion.ui.settings.Settings`); each
        one gets one verdict. None is stored, so Undo still takes back the game's last move."""
        s = self.runner.session
        if verb == "quit":
            self.runner.stopping = True
            return
        if verb == "leave":
            self.menu, self.deck_draft, self.page = None, None, 0
            if s.leave():
                self._start_screen()
        else:
            said, ok = self.settings().change(list(args))
            s.last_message, s.last_ok = said, ok
            self.menu = "settings"
        self.runner._say(("" if s.last_ok else f"{REFUSED}: ") + s.last_message)  # text mode hears it too

    def settings(self):
        """The table's settings (made when the menu first asks)."""
        if getattr(self, "_settings", None) is None:
            from ..ui.settings import Settings, backlight

            from pathlib import Path

            where = self.runner.config_path
            self._settings = Settings(self.runner.sounds, None if where is None else Path(where), backlight())
        return self._settings

    def _start_screen(self) -> None:
        """The start screen after a game was left (a new game from it begins as after a game)."""
        from ..ui import start
        from .history import sheets

        store = self.runner.session.store
        try:
            self.screen = start.StartFlow(store, GAMES, sheet_of=sheets(store, drawable_result))
        except StoreError as err:
            say(str(err), ERR)

    def _text_after_game(self, command: str) -> bool:
        """Text mode after the final scores: ``newgame`` starts the same game again with
        the same players and options; ``history`` says where the history is."""
        from ..ui.start import StartChoice

        s = self.runner.session
        if command == "history" or self.runner.new_session is None:
            self.runner._say(f"The game is saved in the history: companion history --store {s.store.path}")
            return True
        options = next((g.config for g in s.store.games() if g.id == s.game_id), {})
        try:
            session = self.runner.new_session(StartChoice(s.game, tuple(s.state.players), dict(options)))
        except Exception as err:  # the store is full or unreadable: say so, stay on the final scores
            self.runner._say(f"{REFUSED} (newgame): a new game could not be started: {err}")
            return True
        self.runner._say(f"New game: {s.desc.name} again with {', '.join(s.state.players)}.")
        self.runner.begin(session)
        return True

    def _screen_only(self, verb: str, words: list[str]) -> str:
        """Text mode's answer to a command only a screen acts on (``hint``, ``menu``,
        ``cancel``, ``draft``): the hint in words where the game has one, else what to
        type instead, and what to do now."""
        s = self.runner.session
        prompt = commands.annotate(s.prompt(), commands.game_commands(s.desc))
        if verb == "hint":
            screen = s.desc.screen
            if not screen.gives_hints:
                return f"{s.desc.name} has no hints. {prompt}"
            return (None if s.over else screen.hint_words(s.view)) or f"There is no hint for this step. {prompt}"
        if verb == "cancel":
            return f"No menu is open, so there is nothing to cancel. {prompt}"
        if verb == "menu" and words[1:] == ["why"]:  # the Why? of the last refusal, in words
            why = s.why_now()
            return f"{why.words()} {prompt}" if why is not None else f"The last thing said was not a refusal. {prompt}"
        if verb == "draft":
            return f"/draft only moves the number in a menu on the screen; type the command with its number. {prompt}"
        return f"Menus open only on the screen; type the command with its number. {prompt}"

    def _shared_screen(self, command: str) -> bool:
        """The start and history screens (after a game): True when ``command`` was theirs."""
        from ..ui import history, start
        from .history import sheets

        store = self.runner.session.store
        if self.screen is None:
            from_menu = command == "history" and self.menu == "table"  # History from the game menu
            if not (self.runner.session.over and command in ("newgame", "history")) and not from_menu:
                return False
            self.menu = None
            app = self.runner.app
            if self.runner.text_out is not None and (app is None or getattr(app, "invisible", False)):
                return self._text_after_game(command)
            try:
                self.screen = (start.StartFlow(store, GAMES, sheet_of=sheets(store, drawable_result)) if command == "newgame"
                               else history.HistoryScreen(store, GAMES, sheet_of=sheets(store, drawable_result)))
            except StoreError as err:  # the store was damaged since the game began: say so, stay here
                say(str(err), ERR)
                self.runner.session.last_message, self.runner.session.last_ok = (
                    "The game store cannot be read, so the history and a new game cannot be shown "
                    "(the log says why).", False)
            return True
        out = self.screen.handle(command)
        chosen = isinstance(self.screen, start.StartFlow) and self.screen.choice is not None
        if chosen and self.runner.new_session is not None:
            flow = self.screen
            try:
                session = self.runner.new_session(flow.choice)
            except Exception as err:  # the store is full or unreadable: say so, stay on the start screen
                flow.choice = None
                flow.screen.message = str(err)
                return True
            self.runner.begin(session)
        elif out == "newgame":
            self.screen = start.StartFlow(store, GAMES, sheet_of=sheets(store, drawable_result))
        elif out == "close":
            self.screen = None
        return True

    def poll_window(self) -> None:
        if self.runner.app is None:
            return
        self.runner.app.later_hits = True  # matched in _pointer, in their place among the inputs
        # A text field focused (the start screen's name keyboard), or --simulate's typed
        # lines: the keys are words, through the keymap. Else a scanner's, by position.
        self.runner.app.words = self._keyboard_screen() or self.runner.simulate
        pumped = time.monotonic()
        try:
            events = self.runner.app.poll()
        except pygame_error() as err:
            self._screen_lost(err)
            return
        events = self._in_time_order(events, pumped)
        # Inputs whose markers come later (sorted after, or held): not taken with an
        # input numbered after them whose marker comes first.
        later = {value for kind, value in events if kind == "input"} | self.runner._held_inputs()
        for kind, value in events:  # in the order they happened, device inputs included
            if kind == "input":
                later.discard(value)
                self.runner._take_through(value, later)
            elif kind == "quit":
                self.runner.stopping = True
            elif kind == "escape":  # a desk window asks first (a kiosk's App never sends it)
                self._escape()
            elif kind == "touch":
                self.runner.touch(value, now=True)
            elif kind in ("press", "drag", "release"):
                self._pointer(kind, value)
            elif kind == "arrow" and self.runner.tray is not None:
                self.runner.tray.tilt(ARROW_SEATS[value])  # the emulated tray tilts toward that seat
            elif kind == "typed" and self._keyboard_screen():
                self.runner.touch(f"typed {value}", now=True)  # a name typed on a USB keyboard
            elif kind == "typed" and self.runner.simulate:
                self.runner.typed(value, now=True)
            elif kind == "typed":  # (a text field that is neither: not drawn today)
                self.runner.scan_text(value, now=True)
            elif kind == "key":  # a keyboard-mode scanner typing into the window, by key position
                for text in self.keys.key(*value, pumped):
                    self.runner.scan_text(text, now=True)
        for text in self.keys.quiet(time.monotonic()):  # a scan with no terminator went quiet
            self.runner.scan_text(text, now=True)

    def _escape(self) -> None:
        """Escape: "Close the companion? The game is kept." (Escape again keeps it open.)
        With no game to keep (a left game's start screen) the window closes at once."""
        self.runner.dirty = True
        if self.runner.session.left and self.screen is not None:
            self.runner.stopping = True
        elif self.menu == "quit":
            self.menu = None
        else:
            self.screen = None if not self.runner.session.left else self.screen
            self.menu, self.deck_draft, self.page = "quit", None, 0

    def _in_time_order(self, events: list, pumped: float) -> list:
        """The window's events of one pump (started at ``pumped``, ``time.monotonic()``
        s), with the device inputs' markers among them, put in the order they were made.

        SDL reads a tap only when the loop pumps its events, and a device's marker goes
        into SDL's queue when its reader thread gets to it: on a slow Pi, a tap made before
        a scan can reach the queue after the scan's marker, or a scan before a tap after
        it. So each press SDL gives is paired, in order, with the time the kernel stamped
        on it (:meth:`InputWatch.presses <companion.ui.wakeup.InputWatch.presses>`), each
        marker with the time its input arrived (:meth:`InputQueue.waiting
        <companion.table.inputs.InputQueue.waiting>`), and the events are sorted by those
        times (a drag, a release, typing go with the press or marker before them; a press
        with no time stays after what comes before it). A device input with a press made
        before it that SDL has not given yet is held for the next turn, so it is handled
        after that press; so is a press with a scan that came before it still on its way
        to the queue (:meth:`InputQueue.arriving_before
        <companion.table.inputs.InputQueue.arriving_before>`), and whatever comes after
        what is held. Without a watch (a desktop window, a test) the order is SDL's."""
        held, self._held = self._held, []
        watch, inputs = self.runner.watch, self.runner.inputs
        if watch is None or not hasattr(inputs, "waiting"):
            return [event for unit in held for event in unit[1]] + events
        times = watch.presses()
        if self._pumped is None and times:  # the first pump (since a screen opened): none before it counts
            watch.took(0, before=pumped - STALE_PRESS_S)
            times = watch.presses(read=False)
        arrived = dict(inputs.waiting())  # number -> when it arrived
        units: list[list] = []  # [time, events, kind]: "input" (a device's), "press", "other"
        presses = 0
        for event in events:
            if event[0] == "input":
                units.append([arrived.get(event[1]), [event], "input"])
            elif event[0] == "press":
                units.append([times[presses] if presses < len(times) else None, [event], "press"])
                presses += 1
            elif units:
                units[-1][1].append(event)
            else:
                units.append([None, [event], "other"])
        paired = min(presses, len(times))
        waiting = times[paired:]  # presses made that SDL has not given yet
        watch.took(paired, before=self._pumped)
        self._pumped = pumped
        # A drag or release at the head of this pump goes with what was held before it
        # (the press it continues may be held): never before it.
        last = max((unit[0] for unit in held), default=float("-inf"))
        for unit in units:
            if unit[0] is None:
                unit[0] = last
            last = unit[0]
        units = held + units  # (held from the turn before: they keep their times)
        units.sort(key=lambda unit: unit[0])
        out: list = []
        self._held_for_press = False
        here = {unit[1][0][1] for unit in units if unit[2] == "input"}
        for unit in units:
            when, unit_events, kind = unit
            if not self._held:
                if kind == "input" and waiting and waiting[0] < when:
                    self._held_for_press = True  # SDL gives that press at its next pump
                elif not (kind == "press" and self._scan_before(when, here)):
                    out.extend(unit_events)
                    continue
            self._held.append(unit)
        return out

    def _scan_before(self, when: float, here: set) -> bool:
        """Did a device input arrive before ``when`` that is not among this pump's
        (numbers ``here``): one a reader is still queueing, or one queued after the pump?"""
        if self.runner.inputs.arriving_before(when):  # (waits for a read being queued: then it is queued)
            return True
        return any(t < when for number, t in self.runner.inputs.waiting() if number not in here)

    def _keyboard_screen(self) -> bool:
        """Is the start screen's name keyboard (or its roster of names) showing (typed keys
        are a name then)?"""
        if self.screen is None:
            return False
        from ..ui import start as start_screen  # only with a start screen up: kept off a resumed game's start

        return isinstance(self.screen, start_screen.StartFlow) and self.screen.typing()

    def _pointer(self, kind: str, pos) -> None:
        """A press, drag or release on the window, matched to the buttons only now: every
        input before it was handled, and the frame is redrawn first if one of them changed
        it, so a tap lands on the screen as it stands after them however slowly the frames
        came (a Zero 2 W falls behind at a fast table; issue 23)."""
        if self.runner.dirty and kind != "release":
            self.runner.render()
        if self.runner.app is None:
            return
        for command in self.runner.app.pointer(kind, pos):
            self.runner.touch(command, now=True)

    def info(self):
        from ..ui.app import TableInfo

        s = self.runner.session
        if self.menu == "hint" and self.runner.clock.now() - self._hint_at > HINT_SECONDS:
            self.menu = None
        from ..ui.messages import text

        clocks = self.runner.clocks()
        prompt = s.lesson() or s.prompt()  # a first game: the step in the rulebook's words
        undo = s.undo_label()
        if s.over and undo is not None and self.runner.new_session is not None:
            prompt = text("over_undo")  # not "the scores are final": Undo can still take the end back
        if clocks["bid"] == 0:
            prompt = text("bid_time_up")  # a suggestion only: the bidder still decides
        return TableInfo(verdict=s.last_message, verdict_ok=s.last_ok, prompt=prompt, bid_left=clocks["bid"],
                         devices=dict(s.devices), turn_seconds=clocks["turn"],
                         menu=self.menu, deck_draft=self.deck_draft, page=self.page, entry=s.entry, undo=undo,
                         undo_question=s.undo_question() if self.menu == "undo" else None,
                         settings=self.settings().shown() if self.menu == "settings" else None,
                         game_name=s.desc.name, game_seconds=clocks["game"], turn_left=clocks["left"],
                         warning=clocks["warning"], paused=s.paused, can_pause=not s.over,
                         why=s.why_now())

    def draw(self, surface) -> list:
        """Draw the current screen of the session's game onto ``surface``."""
        from ..ui import chrome

        chrome.begin_frame()
        if self.screen is not None:
            return self.screen.draw(surface)
        screen = self.runner.session.desc.screen
        info = self.runner.info()
        self._drawn = _unclocked(info)
        result = self.runner.session.result()
        if result is not None:
            # Best first on every final screen (the result itself keeps seat order).
            ranked = replace(result, players=tuple(result.ranked()))
            after = self.runner.new_session is not None
            info = replace(info, after_game=after)
            buttons = screen.draw_final(surface, drawable_result(ranked), info)
            if after:  # History, Undo (the end can be taken back until a new game starts), New game
                buttons = buttons + chrome.after_game(surface, undo=info.undo is not None)
            return chrome.overlay(surface, info, buttons)
        view = drawable_view(self.runner.session.view)
        buttons = chrome.overlay(surface, info, screen.draw_game(surface, view, info))
        chrome.end_frame(surface, info)
        return buttons

    def render(self, force: bool = False) -> None:
        """Redraw when something changed or the clock's second ticked. A screen that
        fails is closed and retried by :attr:`display`; a game screen that raises is
        replaced by a plain one, so drawing never stops the readers or the rules."""
        if self.runner.display is not None and self.runner.app is None:
            self.runner.app = self.runner.display.ensure()
            if self.runner.app is None:
                return
            force = True  # just opened: show the current state
        if self.runner.app is None:
            return
        still = self.runner.session.paused or self.runner.session.over or self.screen is not None  # no clocks tick
        second = -2 if still else int(self.runner.clock.now() - self.runner.session.turn_started)
        if force or self.runner.dirty or second != self._shown_second:
            try:
                if force or self.runner.dirty or not self._tick_clocks():
                    self.runner.app.show(self._safe_draw)
            except pygame_error() as err:
                self._screen_lost(err)
                return
            self.runner.dirty, self._shown_second = False, second

    def _tick_clocks(self) -> bool:
        """Only a second passed: redraw just the clocks when nothing else on the screen
        changed with it (no menu over them, the same verdict, prompt, warning and
        buttons). False when the whole frame must be drawn."""
        from ..ui import chrome

        if not chrome.tickable() or self._draw_failed:
            return False
        info = self.runner.info()
        if info.menu is not None or _unclocked(info) != self._drawn:
            return False
        return self.runner.app.show_part(lambda surface: chrome.tick_clocks(surface, info) or [])

    def _screen_lost(self, err) -> None:
        """The window failed (polled or drawn): carry on headless while the display
        handler retries; without one (tests, replay) the error is the caller's."""
        if self.runner.display is None:
            raise err
        self.runner.display.lost(err)
        self.runner.app = None
        self._held = []  # (held taps went with the window; held scans are taken headless, in the queue's order)
        self._pumped = None  # the presses made meanwhile were on no screen: forgotten at the next pump
        self.keys.decoder.reset()  # a scan cut off with the window is never joined to later keys

    def _safe_draw(self, surface) -> list:
        try:
            return self.runner.draw(surface)
        except Exception as err:  # a bug in one game's screen must not stop the table
            if not self._draw_failed:
                import traceback

                say("the game screen failed to draw; showing a plain screen instead:\n"
                    + "".join(traceback.format_exception(err)).rstrip(), ERR)
            self._draw_failed = True
            from ..ui import theme
            from ..ui.widgets import draw_wrapped

            surface.fill(theme.BG)
            info = self.runner.info()
            w, h = surface.get_size()
            draw_wrapped(surface, info.verdict or info.game_name, pygame_rect(20, 20, w - 40, h // 2 - 30),
                         theme.BIG, max_lines=4)
            draw_wrapped(surface, info.prompt, pygame_rect(20, h // 2, w - 40, h // 2 - 20), theme.MEDIUM,
                         theme.TEXT_DIM, max_lines=4)
            return []


def _unclocked(info):
    """``info`` with the clocks' values left out (what a clock-only redraw keeps)."""
    return replace(info, game_seconds=0.0, turn_seconds=0.0, turn_left=None if info.turn_left is None else 0.0,
                   bid_left=None if info.bid_left is None else 0.0)


def drawable_view(view):
    """The view with each player's name as the screen can draw it (a name in a script no
    installed font has becomes "Player N"; see :func:`companion.ui.fonts.display_name`)."""
    from ..ui.fonts import display_name

    names = tuple(display_name(n, i) for i, n in enumerate(view.players, 1))
    return view if names == tuple(view.players) else replace(view, players=names)


def drawable_result(result):
    """:func:`drawable_view` for a final result (its players, winners and score sheets)."""
    from dataclasses import fields, is_dataclass

    from ..ui.fonts import display_name

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
