"""The start screen: pick the game, the players, their names and the game's options on
the touchscreen, or carry on with an unfinished game in one tap.

Each step is a screen class with ``draw(surface) -> list[Button]`` and ``handle(command)``
(the touch command of a tapped button, or ``"typed <line>"`` from a keyboard); ``handle``
returns the next screen, a :class:`StartChoice` when the table is ready, or None to stay.
:class:`StartFlow` holds the current screen; :func:`companion.table.session.start_session`
turns a choice into the session exactly as ``companion run --game --names`` would.

Nothing is stored until the choice is made: leaving the start screen leaves no game behind.

>>> from companion.core.store import EventStore
>>> from companion.games import GAMES
>>> flow = StartFlow(EventStore(":memory:"), GAMES)
>>> for tap in ("game sugar-heist", "players 3", "next", "toggle alternate", "next"):
...     flow.handle(tap)
>>> flow.choice
StartChoice(game='sugar-heist', names=('Player 1', 'Player 2', 'Player 3'), options={'all_cards': False, 'alternate': True}, resume=False)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

import pygame

from ..core.game import Game, Option
from ..core.names import name_problem
from . import roster, theme
from .app import Button
from .choices import _per_row, choice_buttons, choice_label, option_label  # noqa: F401 - the tests' too
from .messages import text
from .roster import RosterScreen, quick_names, remembered, same_players, seat_badge, title
from .widgets import button, draw_text, draw_wrapped, panel

Rect = pygame.Rect
W, H = 800, 480
GAP = 8
#: The most letters the on-screen keyboard (or a USB keyboard on it) takes for a name:
#: what the name field and the players' list show whole at 800x480 (``--names`` may give 40).
KEYBOARD_NAME_MAX = 24
BOTTOM = Rect(16, H - 76, W - 32, 64)   # the Back / Next row
#: The tallest a game's button and a seat's row get; the keyboard's keys, where they
#: start and its bottom row's height; games side by side; most seats in one column; an
#: option's button. Upright: :data:`companion.ui.roster.START_UPRIGHT`.
CELL_MOST, ROW_MOST, KEY_H, KEYS_TOP, KEYS_FOOT, GAME_COLS, ONE_COLUMN, BOX_H = 150, 80, 56, 142, 70, 2, 3, 56


def _fit(surface: pygame.Surface) -> None:
    """The start screen's and the roster's layout for ``surface`` (:func:`roster.fit_to`)."""
    roster.fit_to(surface, globals())


@dataclass(frozen=True)
class StartChoice:
    """What the start screen settled: the game's slug, the names in seat order, its
    options (every option of the game, defaults filled in), or ``resume`` the newest
    unfinished game of ``game`` (then ``names`` are that game's and ``options`` empty)."""

    game: str
    names: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    resume: bool = False
    teach: bool = field(default=False, repr=False)   # "First game: show me how" (companion.table.teach)

#: Every game's first game that teaches: the table's, not the rules' (only the screen's words change).
TEACH = Option("teach", "bool", "First game: show me how", default=False)


_title = title   # the steps' title line (companion.ui.roster, beside the roster's step)


Screen = Union["GameScreen", "PlayersScreen", "KeyboardScreen", "OptionsScreen", "RosterScreen", "HistoryStep"]

__all__ = ["StartChoice", "StartFlow", "GameScreen", "PlayersScreen", "KeyboardScreen", "OptionsScreen",
           "RosterScreen", "HistoryStep", "seat_badge", "choose"]


# ---------------------------------------------------------------- the steps

class GameScreen:
    """Step 1: one big button per registered game; a green one to carry on the newest
    unfinished game."""

    def __init__(self, flow: "StartFlow"):
        self.flow = flow

    def draw(self, surface: pygame.Surface) -> list[Button]:
        _fit(surface)
        _title(surface, text("choose_game"))
        out: list[Button] = [Button(button(surface, Rect(W - 16 - 200, 8, 200, 54), text("history"),
                                           theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM), "history")]
        top = 70
        record = self.flow.unfinished
        if record is not None and record.game in self.flow.games:
            words = text("resume_game", game=self.flow.games[record.game].name, names=", ".join(record.players))
            out.append(Button(button(surface, Rect(16, top, W - 32, 76), words, theme.OK, size=theme.MEDIUM),
                              f"resume {record.game}"))
            top += 76 + 12
        games = list(self.flow.games.values())
        cols = GAME_COLS
        rows = (len(games) + cols - 1) // cols
        cell_h = min(CELL_MOST, (H - 16 - top - GAP * (rows - 1)) // max(rows, 1))
        cell_w = (W - 32 - GAP * (cols - 1)) // cols
        for i, game in enumerate(games):
            box = Rect(16 + (i % cols) * (cell_w + GAP), top + (i // cols) * (cell_h + GAP), cell_w, cell_h)
            panel(surface, box, theme.BUTTON)
            draw_text(surface, game.name, Rect(box.left + 14, box.top + 6, box.width - 28, box.height * 3 // 5),
                      theme.TITLE, theme.BUTTON_TEXT, bold=True, align="center")
            players = (f"{game.min_players}" if game.min_players == game.max_players
                       else f"{game.min_players}-{game.max_players}")
            draw_text(surface, f"{text('players_count')}: {players}",
                      Rect(box.left + 14, box.top + box.height * 3 // 5, box.width - 28, box.height * 2 // 5 - 8),
                      theme.MEDIUM, theme.BUTTON_TEXT, align="center")
            out.append(Button(box, f"game {game.slug}"))
        return out

    def handle(self, command: str) -> Screen | StartChoice | None:
        verb, _, arg = command.partition(" ")
        if verb == "resume" and self.flow.unfinished is not None and arg == self.flow.unfinished.game:
            return StartChoice(arg, tuple(self.flow.unfinished.players), {}, resume=True)
        if verb == "game" and arg in self.flow.games:
            self.flow.pick(arg)
            return PlayersScreen(self.flow)
        if verb == "history" and not arg:
            return HistoryStep(self.flow)
        return None


class HistoryStep:
    """This table's History from the start screen (:class:`companion.ui.history.HistoryScreen`:
    each finished game opens its score sheet, and the players' figures): Back returns
    to the choice of game."""

    def __init__(self, flow: "StartFlow"):
        from .history import HistoryScreen

        self.flow = flow
        self.history = HistoryScreen(flow.store, flow.games, sheet_of=flow.sheet_of, new_game=False)

    def draw(self, surface: pygame.Surface) -> list[Button]:
        _fit(surface)
        return self.history.draw(surface)

    def handle(self, command: str) -> Screen | StartChoice | None:
        return GameScreen(self.flow) if self.history.handle(command) in ("close", "newgame") else None


class PlayersScreen:
    """Step 2: how many play (the game's range) and their names, each beside its seat's
    colour and number; tapping a name opens the keyboard."""

    def __init__(self, flow: "StartFlow"):
        self.flow = flow
        self.message = ""

    def draw(self, surface: pygame.Surface) -> list[Button]:
        _fit(surface)
        f, game = self.flow, self.flow.game
        _title(surface, text("players_title", game=game.name), self.message)
        out: list[Button] = []
        draw_text(surface, text("players_count"), Rect(20, 70, 150, 64), theme.MEDIUM, theme.TEXT, bold=True)
        counts = range(game.min_players, game.max_players + 1)
        x = 180
        for n in counts:
            chosen = n == f.count
            box = Rect(x, 70, 68, 64)
            button(surface, box, str(n), theme.HIGHLIGHT if chosen else theme.PANEL_LIGHT,
                   theme.TEXT_DARK if chosen else theme.TEXT)
            out.append(Button(box, f"players {n}"))
            x += 68 + GAP
        top = 146
        same = same_players(f.store, game)
        if same is not None and tuple(f.chosen_names()) != same:
            box = Rect(16, top, W - 32, 56)
            out.append(Button(button(surface, box, text("same_players", names=", ".join(same)), theme.BUTTON,
                                     size=theme.MEDIUM), "same"))
            top += 56 + GAP
        area = Rect(16, top, W - 32, BOTTOM.top - top - GAP)
        cols = 1 if f.count <= ONE_COLUMN else 2
        rows = (f.count + cols - 1) // cols
        row_h = min(ROW_MOST, (area.height - GAP * (rows - 1)) // rows)
        if row_h < 56:  # many seats under the Same players row: a third column keeps each a tap's size
            cols = 3
            rows = (f.count + cols - 1) // cols
            row_h = min(ROW_MOST, (area.height - GAP * (rows - 1)) // rows)
        col_w = (area.width - GAP * (cols - 1)) // cols
        for i in range(f.count):
            cell = Rect(area.left + (i // rows) * (col_w + GAP), area.top + (i % rows) * (row_h + GAP), col_w, row_h)
            radius = min(26, row_h // 2 - 2)
            seat_badge(surface, (cell.left + radius + 2, cell.centery), radius, i + 1)
            name = Rect(cell.left + 2 * radius + 14, cell.top, cell.width - 2 * radius - 14, row_h)
            panel(surface, name, theme.PANEL_LIGHT)
            draw_text(surface, f.names[i], name.inflate(-24, 0), theme.BIG, theme.TEXT, bold=True)
            out.append(Button(name, f"name {i + 1}"))
        out += _bottom(surface, text("start") if not game.options else text("next"))
        out += [] if game.options else [_teach_toggle(surface, f)]  # no options screen: the first game here
        return out

    def handle(self, command: str) -> Screen | StartChoice | None:
        f = self.flow
        verb, _, arg = command.partition(" ")
        self.message = ""
        if verb == "players" and arg.isdigit() and f.game.min_players <= int(arg) <= f.game.max_players:
            f.count = int(arg)
        elif verb == "name" and arg.isdigit() and 1 <= int(arg) <= f.count:
            return RosterScreen(f, self, int(arg)) if f.roster else KeyboardScreen(f, self, int(arg))
        elif verb == "same" and not arg:
            same = same_players(f.store, f.game)
            if same is not None:
                f.count = len(same)
                f.names[:len(same)] = list(same)
        elif verb == "back":
            return GameScreen(f)
        elif verb == "next":
            names = f.chosen_names()
            dup = next((n for i, n in enumerate(names) if n.casefold() in [m.casefold() for m in names[:i]]), None)
            if dup is not None:
                self.message = text("name_taken", name=dup)
                return None
            if f.game.options:
                return OptionsScreen(f, self)
            return f.finish(self)
        elif verb == "toggle" and arg == TEACH.name:
            f.options[TEACH.name] = not f.options.get(TEACH.name)
        return None


class KeyboardScreen:
    """The on-screen keyboard for one seat's name: capitals at the start of each word,
    small letters after (a name is typed without a Shift key); a quick name button; a
    USB keyboard types any script (Enter sets the name)."""

    ROWS = ("1234567890", "QWERTYUIOP", "ASDFGHJKL-", "ZXCVBNM'.&")

    def __init__(self, flow: "StartFlow", back: PlayersScreen, seat: int, empty: bool = False):
        """``empty``: a new name (from the roster's New name), else the seat's name shown."""
        self.flow, self.back, self.seat = flow, back, seat
        self.name = "" if empty else flow.names[seat - 1]
        self.fresh = True     # the first key replaces the name shown (a quick name)
        self.message = ""

    def draw(self, surface: pygame.Surface) -> list[Button]:
        _fit(surface)
        out: list[Button] = []
        seat_badge(surface, (44, 36), 26, self.seat)
        draw_text(surface, text("name_title", seat=self.seat), Rect(82, 6, 420, 60), theme.TITLE, theme.HIGHLIGHT,
                  bold=True)
        quick = Rect(W - 16 - 250, 8, 250, 56)
        out.append(Button(button(surface, quick, text("use_quick", name=text("quick_name", seat=self.seat)),
                                 theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM), "quick"))
        field_box = Rect(16, 72, W - 32, 60)
        panel(surface, field_box, theme.PANEL, theme.HIGHLIGHT, width=3)
        if self.message:
            draw_text(surface, self.message, field_box.inflate(-24, 0), theme.MEDIUM, theme.BAD, bold=True)
        else:
            draw_text(surface, self.name + "|", field_box.inflate(-24, 0), theme.BIG, theme.TEXT, bold=True)
        key_w = (W - 32 - 9 * 4) // 10
        for r, row in enumerate(self.ROWS):
            for c, key in enumerate(row):
                box = Rect(16 + c * (key_w + 4), KEYS_TOP + r * (KEY_H + 6), key_w, KEY_H)
                out.append(Button(button(surface, box, key, theme.PANEL_LIGHT, theme.TEXT), f"key {key}"))
        y = KEYS_TOP + 4 * (KEY_H + 6) + 4
        widths = ((text("cancel"), "cancel", 130, theme.PANEL_LIGHT), (text("clear"), "clear", 120, theme.PANEL_LIGHT),
                  (text("space"), "key space", 216, theme.PANEL_LIGHT), (text("delete"), "delete", 140, theme.WARN),
                  (text("done"), "done", 150, theme.OK))
        x = 16
        for label, command, w, fill in widths:
            ink = theme.TEXT if fill == theme.PANEL_LIGHT else theme.TEXT_DARK
            out.append(Button(button(surface, Rect(x, y, w, KEYS_FOOT), label, fill, ink, size=theme.MEDIUM), command))
            x += w + 8
        return out

    def handle(self, command: str) -> Screen | StartChoice | None:
        verb, _, arg = command.partition(" ")
        self.message = ""
        fresh, self.fresh = self.fresh, False
        if verb == "key" and arg:
            if fresh:
                self.name = ""
            char = " " if arg == "space" else arg
            if len(self.name) >= KEYBOARD_NAME_MAX:
                self.message = text("name_full", most=KEYBOARD_NAME_MAX)  # the key is refused, and says so
            elif not (char == " " and (not self.name or self.name.endswith(" "))):
                word_start = not self.name or self.name.endswith(" ")
                self.name += char if word_start else char.lower()
        elif verb == "delete":
            self.name = self.name[:-1]
        elif verb == "clear":
            self.name = ""
        elif verb == "quick":  # the seat's number as its name, shown as the first name is: a key replaces it
            self.name, self.fresh = text("quick_name", seat=self.seat), True
        elif verb == "typed":
            if len(arg.strip()) > KEYBOARD_NAME_MAX:  # never cut short without a word
                self.message = text("name_long", most=KEYBOARD_NAME_MAX)
                return None
            self.name = arg.strip()
            return self.handle("done")
        elif verb == "cancel":
            return self.back
        elif verb == "done":
            name = " ".join(self.name.split())
            if not any(ch.isalnum() for ch in name):
                self.message = text("name_empty")
                return None
            if name_problem(name) is not None:  # a terminal code typed on a USB keyboard: the CLI's rule too
                self.message = text("name_bad")
                return None
            self.flow.names[self.seat - 1] = name
            self.flow.remember(name)
            return self.back
        return None


class OptionsScreen:
    """Step 3: the game's set-up options, generated from ``Game.options``: each with its
    one line that says what it changes, then a yes/no option's On/Off button, a choice's
    row of buttons in the cards' words (:attr:`~companion.core.game.Option.labels`; when
    its default is None, first ``Usual``: the game decides, or ``Random``: one drawn at
    Start, see :attr:`~companion.core.game.Option.blank`), or a number with - and +.
    An option that cannot apply to this many players is not offered
    (:meth:`~companion.core.game.Option.offered`)."""

    def __init__(self, flow: "StartFlow", back: PlayersScreen):
        self.flow, self.back = flow, back
        self.message = ""

    def shown(self) -> list[Option]:
        """The options offered to this table (its player count)."""
        return [o for o in self.flow.game.options if o.offered(self.flow.count)]

    def _layout(self) -> list[tuple[Option, Rect, list[tuple[Rect, Any]]]]:
        """Each option offered with its label's rect and its buttons (rect, value; for a
        number, the values its - and + buttons set)."""
        out = []
        y = 68
        for option in self.shown():
            if option.kind in ("bool", "int"):
                label = Rect(16, y, W - 32 - (200 if option.kind == "bool" else 300) - GAP, BOX_H + 8)
                if option.kind == "bool":
                    boxes = [(Rect(W - 16 - 200, y + 4, 200, BOX_H), None)]
                else:
                    value = self.flow.options[option.name]
                    value = option.least if value is None else int(value)
                    boxes = [(Rect(W - 16 - 300, y + 4, 90, BOX_H), max(option.least, value - 1)),
                             (Rect(W - 16 - 90, y + 4, 90, BOX_H), min(option.most, value + 1))]
                out.append((option, label, boxes))
                y += BOX_H + 18
                continue
            values = [v for v, _ in choice_buttons(option)]
            per_row = _per_row([words for _, words in choice_buttons(option)])
            rows = max(1, (len(values) + per_row - 1) // per_row)
            label = Rect(16, y, W - 32, 48)
            w = (W - 32 - GAP * (per_row - 1)) // per_row
            boxes = [(Rect(16 + (i % per_row) * (w + GAP), y + 50 + (i // per_row) * (BOX_H + 2), w, BOX_H - 4), v)
                     for i, v in enumerate(values)]
            out.append((option, label, boxes))
            y += 50 + rows * (BOX_H + 2) + 10
        return out

    def draw(self, surface: pygame.Surface) -> list[Button]:
        _fit(surface)
        f = self.flow
        _title(surface, text("options_title", game=f.game.name), self.message)
        out: list[Button] = []
        for option, label, boxes in self._layout():
            draw_wrapped(surface, option_label(option), label, theme.SMALL, theme.TEXT, max_lines=2)
            value = f.options[option.name]
            if option.kind == "int":
                shown = option.least if value is None else int(value)
                (minus, low), (plus, high) = boxes
                draw_text(surface, str(shown), Rect(minus.right, minus.top, plus.left - minus.right, minus.height),
                          theme.BIG, theme.HIGHLIGHT, bold=True, align="center")
                for box, v, sign in ((minus, low, "-"), (plus, high, "+")):
                    button(surface, box, sign, theme.BUTTON, size=theme.BIG, enabled=v != shown)
                    if v != shown:
                        out.append(Button(box, f"choose {option.name} {v}"))
                continue
            said = dict(choice_buttons(option))
            for box, v in boxes:
                if option.kind == "bool":
                    words, fill = (text("on"), theme.OK) if value else (text("off"), theme.PANEL_LIGHT)
                    button(surface, box, words, fill, theme.TEXT_DARK if value else theme.TEXT)
                    out.append(Button(box, f"toggle {option.name}"))
                else:
                    chosen = v == value
                    panel(surface, box, theme.HIGHLIGHT if chosen else theme.PANEL_LIGHT)
                    draw_wrapped(surface, said[v], box.inflate(-12, -4), theme.MEDIUM,
                                 theme.TEXT_DARK if chosen else theme.TEXT, bold=True, max_lines=2, align="center")
                    out.append(Button(box, f"choose {option.name} {'' if v is None else v}".rstrip()))
        out += _bottom(surface, text("start"))
        out.append(_teach_toggle(surface, f))  # between Back and Start (the rows above are the game's own)
        return out

    def handle(self, command: str) -> Screen | StartChoice | None:
        f = self.flow
        words = command.split(" ", 2)
        self.message = ""
        known = {o.name: o for o in self.shown() + [TEACH]}
        if words[0] == "toggle" and len(words) == 2 and words[1] in known and known[words[1]].kind == "bool":
            f.options[words[1]] = not f.options[words[1]]
        elif words[0] == "choose" and len(words) >= 2 and words[1] in known:
            option, value = known[words[1]], words[2] if len(words) == 3 else None
            if option.kind == "int":
                if value is not None and value.lstrip("-").isdigit() and option.least <= int(value) <= option.most:
                    f.options[words[1]] = int(value)
            elif value is None or value in option.choices:
                f.options[words[1]] = value
        elif words[0] == "back":
            return self.back
        elif words[0] == "next":
            return f.finish(self)
        return None


def _teach_toggle(surface: pygame.Surface, flow: "StartFlow") -> Button:
    """"First game: show me how" (:data:`TEACH`) between Back and Start or Next: on the
    options screen, or the players screen of a game with none."""
    on = bool(flow.options.get(TEACH.name))
    teach = Rect(BOTTOM.left + 200 + GAP, BOTTOM.top, BOTTOM.width - 460 - 2 * GAP, BOTTOM.height)
    panel(surface, teach, theme.HIGHLIGHT if on else theme.PANEL_LIGHT)  # (as a chosen choice is drawn)
    draw_wrapped(surface, text("teach_on") if on else text("teach_off"), teach.inflate(-16, -4), theme.MEDIUM,
                 theme.TEXT_DARK if on else theme.TEXT, bold=True, max_lines=2, align="center")
    return Button(teach, f"toggle {TEACH.name}")


def _bottom(surface: pygame.Surface, forward: str) -> list[Button]:
    back = Rect(BOTTOM.left, BOTTOM.top, 200, BOTTOM.height)
    nxt = Rect(BOTTOM.right - 260, BOTTOM.top, 260, BOTTOM.height)
    return [Button(button(surface, back, text("back"), theme.PANEL_LIGHT, theme.TEXT), "back"),
            Button(button(surface, nxt, forward, theme.OK), "next")]


# ---------------------------------------------------------------- the flow

class StartFlow:
    """The start screen's state: the current step and what has been chosen so far.
    ``choice`` is set when the table is ready to play."""

    def __init__(self, store: Any, games: Mapping[str, Game], rng: Any = None, sheet_of=None, now=None):
        """``sheet_of(record)``: a finished game's full result for its score sheet in
        History (:func:`companion.table.history.score_sheet`; None: the stored scores
        alone); ``now()``: the wall clock's seconds, for a name added to the roster."""
        import time

        self.games = dict(games)
        self.store, self.sheet_of, self.now = store, sheet_of, now or time.time
        self.rng = rng or random.Random()  # draws a "Random" choice (kept in the game's stored options)
        self.unfinished = store.unfinished() if store is not None else None
        self.roster: list[str] = remembered(store)
        self.game: Game = next(iter(self.games.values()))
        self.count = self.game.min_players
        self.names: list[str] = []
        self.options: dict[str, Any] = {}
        self.choice: StartChoice | None = None
        self.screen: Screen = GameScreen(self)

    def pick(self, slug: str) -> None:
        """Choose the game: the player count goes into its range, names are kept."""
        self.game = self.games[slug]
        self.count = min(max(self.count, self.game.min_players, 2 if self.game.max_players > 1 else 1),
                         self.game.max_players)
        while len(self.names) < self.game.max_players:
            self.names.append(text("quick_name", seat=len(self.names) + 1))
        self.options = {o.name: o.default for o in self.game.options}
        self.options[TEACH.name] = TEACH.default

    def chosen_names(self) -> list[str]:
        return list(self.names[:self.count])

    def keyboard(self, back: PlayersScreen, seat: int, empty: bool = False) -> KeyboardScreen:
        """The keyboard for ``seat``'s name (the roster's New name: ``empty``)."""
        return KeyboardScreen(self, back, seat, empty)

    def remember(self, name: str) -> None:
        """A name set on the keyboard goes on the roster at once (newest first): it is
        offered again, on this start screen and the next, whether or not this game starts."""
        if name.casefold() in quick_names():
            return
        self.roster = [name] + [n for n in self.roster if n.casefold() != name.casefold()]
        if self.store is not None and not getattr(self.store, "readonly", False):
            self.store.remember_player(name, self.now())

    def forget(self, name: str) -> None:
        """Take ``name`` off the roster (asked first on the roster's page); its games stay."""
        self.roster = [n for n in self.roster if n.casefold() != name.casefold()]
        if self.store is not None and not getattr(self.store, "readonly", False):
            self.store.forget_player(name)

    def finish(self, screen) -> StartChoice | None:
        """The choice, if the game's rules accept these players and options (checked
        without storing anything); otherwise the rules' reason on ``screen``."""
        names = self.chosen_names()
        # An option not offered to this many players is what the count makes it (solo) or its default.
        given = {o.name: o.for_players(len(names), self.options.get(o.name)) for o in self.game.options}
        try:
            options = self.game.options_from(given)
        except ValueError as err:
            screen.message = str(err)
            return None
        # A choice left at "Random" that the game needs (a Goal Card, unless solo) is drawn now.
        drawn = {o.name: self.rng.choice(o.choices) for o in self.game.options
                 if o.blank == "random" and o.choices and options.get(o.name) is None}
        for tried in ([options, {**options, **drawn}] if drawn else [options]):
            try:
                self.game.rules.new_game(names, **tried)
            except ValueError as err:
                screen.message = screen.message or str(err)  # the reason for the choices as they stand
                continue
            screen.message = ""
            return StartChoice(self.game.slug, tuple(names), tried, teach=bool(self.options.get(TEACH.name)))
        return None

    def draw(self, surface: pygame.Surface) -> list[Button]:
        return self.screen.draw(surface)

    def handle(self, command: str) -> None:
        """One tap (or ``typed <line>``): move to the next step or settle the choice."""
        if self.choice is not None:
            return
        out = self.screen.handle(command)
        if isinstance(out, StartChoice):
            self.choice = out
        elif out is not None:
            self.screen = out

    def step(self, app) -> StartChoice | None:
        """Draw, then take the window's taps (hit-tested on the frame just drawn).
        Returns the choice once made; a closed window (or Escape) sets :attr:`quit`."""
        if self.dirty:  # drawn only when something changed: an idle start screen costs nothing
            app.show(self.draw)
            self.dirty = False
        app.words = isinstance(self.screen, KeyboardScreen)  # a name's field focused: keys are words (keymap)
        for kind, value in app.poll():
            self.dirty = True
            if kind in ("quit", "escape"):  # (no game yet: nothing to keep, nothing to ask)
                self.quit = True
            elif kind == "touch":
                self.handle(value)
            elif kind == "typed" and self.typing():
                self.handle(f"typed {value}")
            if self.choice is not None:
                break
        return self.choice

    def typing(self) -> bool:
        """Is a name being chosen (the keyboard, or the roster: typed keys are a name then)?"""
        return isinstance(self.screen, (KeyboardScreen, RosterScreen))

    quit = False
    dirty = True


def choose(app, store, games: Mapping[str, Game], stopping=lambda: False, frame: float = 1 / 20, watch=None,
           tick=None, sheet_of=None) -> StartChoice | None:
    """Run the start screen on ``app`` until a choice (returned) or the window closes or
    ``stopping()`` (None). The window is looked at every ``frame`` seconds, or, with a
    ``watch`` (:class:`~companion.ui.wakeup.InputWatch`) that watches a device, when that
    device has input (and once a second, for ``stopping``). ``tick()`` is called every
    time round (at least once a second), each time after the screen is drawn: systemd's
    READY=1 once the first frame is on the panel, then its watchdog ping while a person
    chooses. ``sheet_of``: as :class:`StartFlow`'s, for History's score sheets."""
    import threading

    flow = StartFlow(store, games, sheet_of=sheet_of)
    woken = threading.Event()
    if watch is not None:
        watch.on_input = woken.set
    while not (flow.quit or stopping()):
        if flow.step(app) is not None:
            return flow.choice
        if tick is not None:
            tick()
        woken.wait(1.0 if watch is not None and watch.watching else frame)
        woken.clear()
    return None
