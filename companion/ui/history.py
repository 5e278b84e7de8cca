"""This table's games on the touchscreen, after a final screen: newest first, who won
with the scores, unfinished and set-aside games marked. Read from the store only.

>>> from companion.core.store import EventStore
>>> store = EventStore(":memory:")
>>> gid = store.new_game("sugarrr", ["Ana", "Ben"], 0.0)
>>> store.finish(gid, 60.0, {"game": "sugarrr", "players": [{"name": "Ana", "score": 9},
...              {"name": "Ben", "score": 12}], "winners": ["Ben"]})
>>> from companion.games import GAMES
>>> HistoryScreen(store, GAMES).rows()[0][1]
'Sugarrr!: won by Ben: Ben 12, Ana 9'
"""

from __future__ import annotations

import datetime as dt
from typing import Mapping

import pygame

from ..core.game import Game, result_from_dict
from . import theme
from .app import Button
from .messages import text
from .widgets import button, draw_text, draw_wrapped, panel

Rect = pygame.Rect
ROWS = 4   # games on one page (each row 80 px: three lines, read from a metre)


def outcome(record, desc: Game | None = None) -> str:
    """One game's outcome in words for the screen, ranked by ``desc``'s tie-break (the
    record's game; None: a game this version does not know)."""
    if record.finished is None:
        return text("unfinished")
    if not record.result or record.result.get("abandoned"):
        return text("abandoned")
    try:
        result = desc.result_from_dict(record.result) if desc is not None else result_from_dict(record.result)
    except ValueError:
        return text("abandoned")
    scores = ", ".join(f"{p.name} {p.score}" for p in result.ranked())
    won = text("won_by", names=" & ".join(result.winners)) if result.winners else text("nobody_won")
    return f"{won}: {scores}"


class HistoryScreen:
    """A page of this table's games with Back (to the final screen), Newer/Older and New
    game. ``handle`` returns ``"close"``, ``"newgame"`` or None."""

    def __init__(self, store, games: Mapping[str, Game]):
        """``store``: the event store; ``games``: the registry (slug -> descriptor), for
        each game's name and tie-break."""
        self.games = store.games()
        self.known = dict(games)
        self.page = 0

    def rows(self) -> list[tuple[str, str]]:
        """(date, "Game: outcome") for every game, newest first."""
        out = []
        for g in self.games:
            desc = self.known.get(g.game)
            name = desc.name if desc is not None else g.game
            when = dt.datetime.fromtimestamp(g.started).strftime("%d %b %H:%M")
            out.append((when, f"{name}: {outcome(g, desc)}"))
        return out

    def draw(self, surface: pygame.Surface) -> list[Button]:
        w, h = surface.get_size()
        draw_text(surface, text("history_title"), Rect(20, 6, w - 40, 56), theme.TITLE, theme.HIGHLIGHT, bold=True)
        rows = self.rows()
        shown = rows[self.page * ROWS:(self.page + 1) * ROWS]
        if not shown:
            draw_text(surface, text("history_empty"), Rect(20, 80, w - 40, 60), theme.BIG, theme.TEXT_DIM)
        for i, (when, words) in enumerate(shown):
            box = Rect(12, 68 + i * 86, w - 24, 80)
            panel(surface, box, theme.PANEL)
            draw_text(surface, when, Rect(box.left + 12, box.top, 150, box.height), theme.SMALL, theme.TEXT_DIM)
            draw_wrapped(surface, words, Rect(box.left + 168, box.top + 2, box.width - 180, box.height - 4),
                         theme.MEDIUM, theme.TEXT, bold=True, max_lines=3)
        out = []
        bar = h - 62
        out.append(Button(button(surface, Rect(12, bar, 170, 56), text("back"), theme.PANEL_LIGHT, theme.TEXT,
                                 size=theme.MEDIUM), "back"))
        if self.page > 0:
            out.append(Button(button(surface, Rect(196, bar, 150, 56), "<", theme.PANEL_LIGHT, theme.TEXT), "newer"))
        if (self.page + 1) * ROWS < len(rows):
            out.append(Button(button(surface, Rect(360, bar, 150, 56), ">", theme.PANEL_LIGHT, theme.TEXT), "older"))
        out.append(Button(button(surface, Rect(w - 12 - 220, bar, 220, 56), text("new_game"), theme.OK,
                                 size=theme.MEDIUM), "newgame"))
        return out

    def handle(self, command: str) -> str | None:
        if command == "back":
            return "close"
        if command == "newgame":
            return "newgame"
        if command == "newer":
            self.page = max(0, self.page - 1)
        elif command == "older" and (self.page + 1) * ROWS < len(self.games):
            self.page += 1
        return None
