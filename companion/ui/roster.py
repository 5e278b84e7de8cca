"""The players this table remembers, on the start screen: a seat's name is tapped from
the roster (the names of past games, newest first) instead of typed again; New name
opens the keyboard; Remove a name takes one off the list after asking. The last table's
players are offered as one tap on the players' step (:func:`same_players`).

The roster is the store's (:meth:`companion.core.store.EventStore.roster`): a game's
players join it when the game starts, a name typed on the keyboard when it is set. A
seat's quick name ("Player 2") is never offered: it names nobody.

>>> from companion.core.store import EventStore
>>> store = EventStore(":memory:")
>>> _ = store.new_game("sugarrr", ["Mia", "Dad", "Mum", "Player 4"], 5.0)
>>> remembered(store)
['Mia', 'Dad', 'Mum']
"""

from __future__ import annotations

from typing import Any

import pygame

from . import theme
from .app import Button
from .messages import text
from .widgets import button, draw_text, draw_wrapped, panel

Rect = pygame.Rect
W, H = 800, 480
GAP = 8
BOTTOM = Rect(16, H - 76, W - 32, 64)   # the Back / ... / Next row, as the start screen's
COLS, ROWS = 3, 4                       # names on one page of the roster
NAME_H = 70                             # a name's button

LANDSCAPE = dict(W=W, H=H, BOTTOM=BOTTOM, ROWS=ROWS, NAME_H=NAME_H)
#: Upright (800x1422): more names a page, taller, and the Back / Next row at the foot.
UPRIGHT = dict(W=800, H=1422, BOTTOM=Rect(16, 1422 - 124, 768, 108), ROWS=12, NAME_H=92)


_START = ("W", "H", "BOTTOM", "CELL_MOST", "ROW_MOST", "KEY_H", "KEYS_TOP", "KEYS_FOOT", "GAME_COLS", "ONE_COLUMN",
          "BOX_H")
#: The start screen's steps upright (:mod:`companion.ui.start`): taller game buttons
#: (one column), seats and option buttons, Back / Next at the foot, and the keyboard's
#: big keys in the lower part of the screen, under the thumbs.
START_UPRIGHT = dict(W=800, H=1422, BOTTOM=UPRIGHT["BOTTOM"], CELL_MOST=290, ROW_MOST=130, KEY_H=104,
                     KEYS_TOP=1422 - 16 - 124 - 4 * 110 - 4, KEYS_FOOT=124, GAME_COLS=1, ONE_COLUMN=8, BOX_H=92)
_start_landscape: dict = {}


def fit_to(surface: pygame.Surface, start: dict | None = None) -> bool:
    """Lay the start screen's steps out for ``surface`` (upright when taller than wide):
    this module's names, and ``start`` too (:mod:`companion.ui.start`'s ``globals()``,
    whose own values are its landscape layout)."""
    from . import portrait

    up = portrait.use(globals(), surface, LANDSCAPE, UPRIGHT)
    if start is not None:
        if not _start_landscape:  # first call: start's names still hold its landscape values
            _start_landscape.update({k: start[k] for k in _START})
        portrait.use(start, surface, _start_landscape, START_UPRIGHT)
    return up


def seat_badge(surface: pygame.Surface, center: tuple[int, int], radius: int, seat: int) -> Rect:
    """The seat's colour as a disc with its number on it (seat from 1)."""
    colour = theme.SEAT_COLOURS[(seat - 1) % len(theme.SEAT_COLOURS)]
    pygame.draw.circle(surface, colour, center, radius)
    box = Rect(0, 0, 2 * radius, 2 * radius)
    box.center = center
    draw_text(surface, str(seat), box, max(theme.MIN_SIZE, int(radius * 1.3)), theme.TEXT_DARK, bold=True,
              align="center")
    return box


def title(surface: pygame.Surface, words: str, problem: str = "", left: int = 20) -> None:
    """A step's title, or in its place what is wrong (red, with the reason)."""
    if problem:
        box = Rect(8, 2, W - 16, 62)
        panel(surface, box, theme.dim(theme.BAD, 0.6))
        draw_wrapped(surface, problem, box.inflate(-20, -4), theme.MEDIUM, theme.TEXT, bold=True, max_lines=2)
        return
    draw_text(surface, words, Rect(left, 6, W - left - 20, 56), theme.TITLE, theme.HIGHLIGHT, bold=True)


def quick_names(most: int = 12) -> set[str]:
    """The seats' quick names ("Player 1" ...), which name nobody (casefolded)."""
    return {text("quick_name", seat=n).casefold() for n in range(1, most + 1)}


def remembered(store: Any) -> list[str]:
    """The roster's names, newest first, quick names left out (``store`` None: none)."""
    if store is None:
        return []
    quick = quick_names()
    return [n for n in store.roster() if n.casefold() not in quick]


def same_players(store: Any, game) -> tuple[str, ...] | None:
    """The newest game's players, offered as one tap when ``game`` takes that many and
    at least one of them has a name of their own; else None."""
    last = store.last_players() if store is not None else ()
    quick = quick_names()
    if not last or not game.min_players <= len(last) <= game.max_players:
        return None
    if all(n.casefold() in quick for n in last):
        return None
    return tuple(last)


class RosterScreen:
    """One seat's name from the roster: a page of names (a name already in another seat
    is shown greyed, with its seat, and cannot be tapped), More for the next page, New
    name (the keyboard; a name typed on a USB keyboard here is one too), and Remove a
    name: then a tapped name is removed after a Yes."""


    def __init__(self, flow, back, seat: int):
        self.flow, self.back, self.seat = flow, back, seat
        self.page = 0
        self.removing = False
        self.asking: str | None = None   # the name a Remove waits on a Yes for
        self.message = ""

    def _cells(self) -> list[tuple[Rect, int, str]]:
        """This page's names: (rect, index in the roster, name)."""
        names = self.flow.roster
        per = COLS * ROWS
        pages = max(1, -(-len(names) // per))
        self.page %= pages
        shown = names[self.page * per:(self.page + 1) * per]
        w = (W - 32 - GAP * (COLS - 1)) // COLS
        first = self.page * per
        return [(Rect(16 + (i % COLS) * (w + GAP), 76 + (i // COLS) * (NAME_H + GAP), w, NAME_H), first + i, n)
                for i, n in enumerate(shown)]

    def draw(self, surface: pygame.Surface) -> list[Button]:
        fit_to(surface)
        seat_badge(surface, (44, 36), 26, self.seat)
        words = text("remove_which") if self.removing else text("pick_title", seat=self.seat)
        title(surface, words, self.message, left=82)
        out: list[Button] = []
        seated = {n.casefold(): i for i, n in enumerate(self.flow.chosen_names(), 1)}
        for box, index, name in self._cells():
            other = seated.get(name.casefold())
            if self.removing:
                out.append(Button(button(surface, box, name, theme.PANEL_LIGHT, theme.BAD, size=theme.BIG),
                                  f"forget {index + 1}"))
            elif other is not None and other != self.seat:
                panel(surface, box, theme.PANEL)
                draw_text(surface, name, Rect(box.left + 12, box.top + 2, box.width - 24, 40), theme.BIG,
                          theme.GONE, bold=True)
                draw_text(surface, text("in_seat", seat=other), Rect(box.left + 12, box.top + 40, box.width - 24, 28),
                          theme.SMALL, theme.TEXT_DIM)
            else:
                out.append(Button(button(surface, box, name, theme.BUTTON, size=theme.BIG), f"pick {index + 1}"))
        if len(self.flow.roster) > COLS * ROWS:
            more = Rect(W - 16 - 160, 16, 160, 48)
            out.append(Button(button(surface, more, text("more_short"), theme.PANEL_LIGHT, theme.TEXT,
                                     size=theme.MEDIUM), "page"))
        back = Rect(BOTTOM.left, BOTTOM.top, 200, BOTTOM.height)
        out.append(Button(button(surface, back, text("back"), theme.PANEL_LIGHT, theme.TEXT), "back"))
        if self.flow.roster:
            mid = Rect(back.right + GAP, BOTTOM.top, BOTTOM.width - 200 - 280 - 2 * GAP, BOTTOM.height)
            words, fill = (text("remove_done"), theme.PANEL_LIGHT) if self.removing else (text("remove_a_name"),
                                                                                           theme.PANEL_LIGHT)
            out.append(Button(button(surface, mid, words, fill, theme.TEXT, size=theme.MEDIUM), "removing"))
        new = Rect(BOTTOM.right - 280, BOTTOM.top, 280, BOTTOM.height)
        out.append(Button(button(surface, new, text("new_name"), theme.OK), "new"))
        if self.asking is not None:
            return self._ask(surface)
        return out

    def _ask(self, surface: pygame.Surface) -> list[Button]:
        """The Remove question over the page: only its two answers can be tapped."""
        from .chrome import menu_panel

        box = menu_panel(surface, text("remove_title", name=self.asking))
        draw_wrapped(surface, text("remove_body"), Rect(box.left + 30, box.top + 84, box.width - 60, 130),
                     theme.BIG, theme.TEXT, max_lines=3)
        half = (box.width - 90) // 2
        keep = Rect(box.left + 30, box.bottom - 110, half, 86)
        gone = Rect(box.right - 30 - half, box.bottom - 110, half, 86)
        return [Button(button(surface, keep, text("keep_name"), theme.PANEL_LIGHT, theme.TEXT), "keep"),
                Button(button(surface, gone, text("remove"), theme.WARN, theme.TEXT_DARK), "remove")]

    def handle(self, command: str):
        verb, _, arg = command.partition(" ")
        self.message = ""
        if self.asking is not None:
            if verb == "remove":
                self.flow.forget(self.asking)
                self.removing = bool(self.flow.roster)
            if verb in ("remove", "keep"):
                self.asking = None
            return None
        roster = self.flow.roster
        name = roster[int(arg) - 1] if arg.isdigit() and 1 <= int(arg) <= len(roster) else None
        if verb == "pick" and name is not None:
            taken = [n.casefold() for i, n in enumerate(self.flow.chosen_names(), 1) if i != self.seat]
            if name.casefold() not in taken:
                self.flow.names[self.seat - 1] = name
                return self.back
        elif verb == "forget" and self.removing and name is not None:
            self.asking = name
        elif verb == "removing":
            self.removing = not self.removing
        elif verb == "page":
            self.page += 1
        elif verb == "new":
            return self.flow.keyboard(self.back, self.seat, empty=True)
        elif verb == "typed":  # a name typed on a USB keyboard is a new name: the keyboard's rules for it
            keys = self.flow.keyboard(self.back, self.seat, empty=True)
            return keys.handle(command) or keys
        elif verb == "back":
            return self.back
        return None
