"""A menu's box over the shaded screen (every game's menus, the Undo dialog, the game
menu of :mod:`companion.ui.menu`); :mod:`companion.ui.chrome` hands it on to the games."""

from __future__ import annotations

from functools import lru_cache

import pygame

from . import theme
from .widgets import covered, draw_text, panel

Rect = pygame.Rect


@lru_cache(maxsize=2)
def _shade(size: tuple[int, int], colour) -> pygame.Surface:
    """A see-through ``colour`` as big as the screen, made once (a menu frame made and
    filled 1.5 MB of it each time)."""
    shade = pygame.Surface(size, pygame.SRCALPHA)
    shade.fill(colour)
    return shade


def menu_panel(surface: pygame.Surface, title: str) -> Rect:
    """Shade the screen and draw a menu's box with its title; returns the box."""
    w, h = surface.get_size()
    surface.blit(_shade((w, h), theme.SHADE), (0, 0))
    covered()
    box = Rect(0, 0, min(620, w - 40), min(380, h - 40))
    box.center = (w // 2, h // 2)
    panel(surface, box, theme.PANEL, theme.HIGHLIGHT, width=4)
    draw_text(surface, title, Rect(box.left + 20, box.top + 14, box.width - 40, 56), theme.TITLE,
              theme.TEXT, bold=True, align="center")
    return box


