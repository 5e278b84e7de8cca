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


#: An upright screen's menu box (800x1422): as wide as the screen and taller, low on
#: the screen (under the thumbs, as a phone's sheet), its foot this far above the edge.
UPRIGHT_BOX, UPRIGHT_FOOT = (760, 460), 70


def menu_box(size: tuple[int, int]) -> Rect:
    """Where a menu's box goes on a screen of ``size``: 620x380 in the middle of a
    landscape one, :data:`UPRIGHT_BOX` low on an upright one."""
    w, h = size
    if h > w:
        box = Rect(0, 0, min(UPRIGHT_BOX[0], w - 40), min(UPRIGHT_BOX[1], h - 40))
        box.midbottom = (w // 2, h - UPRIGHT_FOOT)
        return box
    box = Rect(0, 0, min(620, w - 40), min(380, h - 40))
    box.center = (w // 2, h // 2)
    return box


def menu_panel(surface: pygame.Surface, title: str) -> Rect:
    """Shade the screen and draw a menu's box with its title; returns the box
    (:func:`menu_box`)."""
    w, h = surface.get_size()
    surface.blit(_shade((w, h), theme.SHADE), (0, 0))
    covered()
    box = menu_box((w, h))
    panel(surface, box, theme.PANEL, theme.HIGHLIGHT, width=4)
    draw_text(surface, title, Rect(box.left + 20, box.top + 14, box.width - 40, 56), theme.TITLE,
              theme.TEXT, bold=True, align="center")
    return box


