"""This table's games on the touchscreen, from the start screen or after a final screen:
newest first, who won with the scores, unfinished and set-aside games marked. A
finished game's row opens its score sheet (the game's own final screen); Wins and
scores shows each player's figures per game (:mod:`companion.core.figures`: finished
games only). Read from the store only.

>>> from companion.core.store import EventStore
>>> store = EventStore(":memory:")
>>> gid = store.new_game("sugarrr", ["Ana", "Ben"], 0.0)
>>> store.finish(gid, 60.0, {"game": "sugarrr", "players": [{"name": "Ana", "score": 9},
...              {"name": "Ben", "score": 12}], "winners": ["Ben"]})
>>> from companion.games import GAMES
>>> screen = HistoryScreen(store, GAMES)
>>> screen.rows()[0][1]
'Sugarrr!: won by Ben: Ben 12, Ana 9'
>>> screen.handle(f"open {gid}"), screen.sheet[0].id
(None, 1)
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Mapping

import pygame

from ..core.figures import figures
from ..core.game import Game, Result, result_from_dict
from . import theme
from .app import Button, TableInfo
from .messages import text
from .widgets import button, draw_text, draw_wrapped, panel

Rect = pygame.Rect
ROWS = 4        # games on one page (each row 80 px: three lines, read from a metre)
FIG_ROWS = 5    # players on one page of the figures


def outcome(record, desc: Game | None = None) -> str:
    """One game's outcome in words for the screen, ranked by ``desc``'s tie-break (the
    record's game; None: a game this version does not know)."""
    if record.finished is None:
        return text("unfinished")
    result = stored(record, desc)
    if result is None:
        return text("left") if (record.result or {}).get("left") else text("abandoned")
    scores = ", ".join(f"{p.name} {p.score}" for p in result.ranked())
    won = text("won_by", names=" & ".join(result.winners)) if result.winners else text("nobody_won")
    return f"{won}: {scores}"


def stored(record, desc: Game | None = None) -> Result | None:
    """A finished game's stored result (scores, no sheets), or None: unfinished, set
    aside, left, or not readable."""
    if record.finished is None or not record.result or record.result.get("abandoned"):
        return None
    try:
        return desc.result_from_dict(record.result) if desc is not None else result_from_dict(record.result)
    except ValueError:
        return None


class HistoryScreen:
    """A page of this table's games with Back, Newer/Older, Wins and scores and (after a
    game) New game. A finished game's row opens its score sheet; Back there (and on the
    figures) returns to the list. ``handle`` returns ``"close"``, ``"newgame"`` or None."""

    def __init__(self, store, games: Mapping[str, Game], sheet_of: Callable[[Any], Result | None] | None = None,
                 new_game: bool = True):
        """``store``: the event store; ``games``: the registry (slug -> descriptor), for
        each game's name, tie-break and final screen; ``sheet_of(record)``: a finished
        game's full result, sheets and all (:func:`companion.table.history.score_sheet`;
        None, or it gives None: the stored scores are drawn plainly); ``new_game``:
        offer New game (after a game; the start screen needs none)."""
        self.games = store.games()
        self.known = dict(games)
        self.sheet_of, self.new_game = sheet_of, new_game
        self.page = 0
        self.sheet: tuple[Any, Result | None] | None = None   # (record, full result) of the open score sheet
        self.showing: str | None = None                       # the game whose figures are shown
        self.fig_page = 0
        self.figures = figures(self.games)

    def rows(self) -> list[tuple[str, str]]:
        """(date, "Game: outcome") for every game, newest first."""
        return [(self._when(g), f"{self._name(g.game)}: {outcome(g, self.known.get(g.game))}") for g in self.games]

    def _name(self, slug: str) -> str:
        desc = self.known.get(slug)
        return desc.name if desc is not None else slug

    @staticmethod
    def _when(record) -> str:
        return dt.datetime.fromtimestamp(record.started).strftime("%d %b %H:%M")

    def openable(self, record) -> bool:
        """Does the row open a score sheet (a finished game with a result that reads)?"""
        return stored(record, self.known.get(record.game)) is not None

    # ------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface) -> list[Button]:
        if self.sheet is not None:
            return self._draw_sheet(surface)
        if self.showing is not None:
            return self._draw_figures(surface)
        return self._draw_list(surface)

    def _draw_list(self, surface: pygame.Surface) -> list[Button]:
        w, h = surface.get_size()
        draw_text(surface, text("history_title"), Rect(20, 6, w - 40, 56), theme.TITLE, theme.HIGHLIGHT, bold=True)
        shown = self.games[self.page * ROWS:(self.page + 1) * ROWS]
        if not shown:
            draw_text(surface, text("history_empty"), Rect(20, 80, w - 40, 60), theme.BIG, theme.TEXT_DIM)
        out = []
        for i, g in enumerate(shown):
            box = Rect(12, 68 + i * 86, w - 24, 80)
            opens = self.openable(g)
            # A row that opens looks like a button (its colour, a border, an arrow); the others are plain.
            panel(surface, box, theme.PANEL_LIGHT if opens else theme.PANEL, theme.HIGHLIGHT if opens else None,
                  width=2)
            ink = theme.TEXT if opens else theme.TEXT_DIM
            draw_text(surface, self._when(g), Rect(box.left + 12, box.top, 150, box.height), theme.SMALL, theme.TEXT_DIM)
            words = f"{self._name(g.game)}: {outcome(g, self.known.get(g.game))}"
            right = 52 if opens else 12
            draw_wrapped(surface, words, Rect(box.left + 168, box.top + 2, box.width - 168 - right, box.height - 4),
                         theme.MEDIUM, ink, bold=True, max_lines=3)
            if opens:
                _arrow(surface, Rect(box.right - 44, box.centery - 16, 32, 32))
                out.append(Button(box, f"open {g.id}"))
        bar = h - 62
        out.append(Button(button(surface, Rect(12, bar, 150, 56), text("back"), theme.PANEL_LIGHT, theme.TEXT,
                                 size=theme.MEDIUM), "back"))
        if self.page > 0:
            out.append(Button(button(surface, Rect(170, bar, 84, 56), "<", theme.PANEL_LIGHT, theme.TEXT), "newer"))
        if (self.page + 1) * ROWS < len(self.games):
            out.append(Button(button(surface, Rect(262, bar, 84, 56), ">", theme.PANEL_LIGHT, theme.TEXT), "older"))
        right = w - 12
        if self.new_game:
            out.append(Button(button(surface, Rect(right - 190, bar, 190, 56), text("new_game"), theme.OK,
                                     size=theme.MEDIUM), "newgame"))
            right -= 190 + 10
        if self.figures:
            out.append(Button(button(surface, Rect(right - 210, bar, 210, 56), text("figures"), theme.BUTTON,
                                     size=theme.MEDIUM), "figures"))
        return out

    def _draw_sheet(self, surface: pygame.Surface) -> list[Button]:
        """The open game's score sheet: its game's own final screen (History's Back in
        the corner a final screen keeps for it), or the stored scores plainly."""
        w, h = surface.get_size()
        record, result = self.sheet
        desc = self.known.get(record.game)
        when = text("sheet_when", game=self._name(record.game), when=self._when(record))
        if result is not None and desc is not None:
            desc.screen.draw_final(surface, result, TableInfo(prompt=when, game_name=desc.name, after_game=True))
        else:
            _plain_sheet(surface, stored(record, desc), when)
        back = Rect(8, h - 50, 150, 48)
        return [Button(button(surface, back, text("back"), theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM), "back")]

    def _draw_figures(self, surface: pygame.Surface) -> list[Button]:
        w, h = surface.get_size()
        slug = self.showing
        draw_text(surface, text("figures_title", game=self._name(slug)), Rect(20, 6, w - 40, 56), theme.TITLE,
                  theme.HIGHLIGHT, bold=True)
        out = []
        kinds = [g for g in self.known if g in self.figures] + [g for g in self.figures if g not in self.known]
        tab_w = (w - 24 - 8 * (len(kinds) - 1)) // max(1, len(kinds))
        for i, g in enumerate(kinds):
            box = Rect(12 + i * (tab_w + 8), 66, tab_w, 52)
            chosen = g == slug
            out.append(Button(button(surface, box, self._name(g), theme.HIGHLIGHT if chosen else theme.PANEL_LIGHT,
                                     theme.TEXT_DARK if chosen else theme.TEXT, size=theme.MEDIUM), f"figures {g}"))
        rows = self.figures.get(slug, [])
        _figure_table(surface, Rect(12, 126, w - 24, h - 62 - 8 - 126), rows[self.fig_page * FIG_ROWS:][:FIG_ROWS])
        bar = h - 62
        out.append(Button(button(surface, Rect(12, bar, 150, 56), text("back"), theme.PANEL_LIGHT, theme.TEXT,
                                 size=theme.MEDIUM), "back"))
        draw_text(surface, text("figures_note"), Rect(172, bar, w - 172 - 190, 56), theme.SMALL, theme.TEXT_DIM)
        if len(rows) > FIG_ROWS:
            pages = -(-len(rows) // FIG_ROWS)
            out.append(Button(button(surface, Rect(w - 12 - 170, bar, 170, 56), text("more_short"),
                                     theme.PANEL_LIGHT, theme.TEXT, size=theme.MEDIUM), "more"))
            draw_text(surface, f"{self.fig_page + 1}/{pages}", Rect(w - 12 - 170 - 80, bar, 70, 56), theme.MEDIUM,
                      theme.TEXT_DIM, align="right")
        return out

    # ------------------------------------------------------------ taps

    def handle(self, command: str) -> str | None:
        verb, _, arg = command.partition(" ")
        if self.sheet is not None or self.showing is not None:
            return self._handle_inside(verb, arg)
        if command == "back":
            return "close"
        if command == "newgame" and self.new_game:
            return "newgame"
        if command == "newer":
            self.page = max(0, self.page - 1)
        elif command == "older" and (self.page + 1) * ROWS < len(self.games):
            self.page += 1
        elif verb == "open" and arg.isdigit():
            record = next((g for g in self.games if g.id == int(arg)), None)
            if record is not None and self.openable(record):
                self.sheet = (record, self.sheet_of(record) if self.sheet_of is not None else None)
        elif command == "figures" and self.figures:
            order = [g for g in self.known if g in self.figures] + sorted(self.figures)
            self.showing, self.fig_page = order[0], 0
        return None

    def _handle_inside(self, verb: str, arg: str) -> None:
        """A tap on an open score sheet or on the figures."""
        if verb == "back":
            self.sheet, self.showing = None, None
        elif self.showing is not None and verb == "figures" and arg in self.figures:
            self.showing, self.fig_page = arg, 0
        elif self.showing is not None and verb == "more":
            pages = -(-len(self.figures[self.showing]) // FIG_ROWS)
            self.fig_page = (self.fig_page + 1) % pages
        return None


def _arrow(surface: pygame.Surface, rect: Rect) -> None:
    """The arrow at the end of a row that opens (a chevron pointing right)."""
    x, y, w, h = rect
    pygame.draw.lines(surface, theme.HIGHLIGHT, False, [(x + w * 0.3, y), (x + w * 0.75, y + h / 2), (x + w * 0.3, y + h)],
                      5)


def fig_columns() -> tuple[str, ...]:
    """The figures' column headings, in the order :func:`_figure_table` draws them."""
    return (text("fig_played"), text("fig_won"), text("fig_best"), text("fig_average"), text("fig_streak"),
            text("fig_longest"))


def _figure_table(surface: pygame.Surface, area: Rect, rows) -> None:
    """A table of players' figures: the name, then one column per figure."""
    name_w = 180
    columns = fig_columns()
    col_w = (area.width - name_w) // len(columns)
    head = Rect(area.left, area.top, area.width, 72)
    draw_text(surface, text("fig_player"), Rect(head.left + 8, head.top, name_w - 16, head.height), theme.SMALL,
              theme.TEXT_DIM, bold=True)
    for k, heading in enumerate(columns):
        draw_wrapped(surface, heading, Rect(head.left + name_w + k * col_w + 2, head.top, col_w - 4, head.height),
                     theme.SMALL, theme.TEXT_DIM, bold=True, max_lines=3, align="center")
    row_h = min(52, (area.bottom - head.bottom - 4) // FIG_ROWS)
    for i, f in enumerate(rows):
        row = Rect(area.left, head.bottom + 4 + i * row_h, area.width, row_h - 4)
        panel(surface, row, theme.PANEL)
        draw_text(surface, f.name, Rect(row.left + 8, row.top, name_w - 16, row.height), theme.MEDIUM, theme.TEXT,
                  bold=True)
        values = (f.played, f.won, f.best, f"{f.average:g}", f.current_streak, f.longest_streak)
        for k, value in enumerate(values):
            draw_text(surface, str(value), Rect(row.left + name_w + k * col_w, row.top, col_w, row.height),
                      theme.BIG, theme.HIGHLIGHT if k == 1 else theme.TEXT, bold=True, align="center")


def _plain_sheet(surface: pygame.Surface, result: Result | None, when: str) -> None:
    """A finished game's stored scores, when its own score sheet cannot be rebuilt."""
    w, h = surface.get_size()
    if result is None:
        return
    draw_text(surface, result.winner_line(), Rect(10, 6, w - 20, 58), theme.TITLE, theme.HIGHLIGHT, bold=True,
              align="center")
    for i, p in enumerate(result.ranked()[:6]):
        row = Rect(40, 72 + i * 54, w - 80, 48)
        won = p.name in result.winners
        panel(surface, row, theme.PANEL, theme.HIGHLIGHT if won else None, width=3)
        draw_text(surface, p.name, Rect(row.left + 16, row.top, row.width - 160, row.height), theme.BIG,
                  theme.HIGHLIGHT if won else theme.TEXT, bold=True)
        draw_text(surface, str(p.score), Rect(row.right - 140, row.top, 124, row.height), theme.BIG, theme.TEXT,
                  bold=True, align="right")
    draw_wrapped(surface, text("sheet_scores"), Rect(170, h - 100, w - 190, 46), theme.SMALL, theme.TEXT_DIM)
    draw_text(surface, when, Rect(170, h - 50, w - 190, 48), theme.MEDIUM, theme.TEXT)
