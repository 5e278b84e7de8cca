"""A plain screen for a problem a grown-up must fix before the table can start (a
mistake in the config file): what is wrong, where, and what to do, in big plain words.

Drawn in the 800x480 layout like every screen (the App scales it to the panel); every
text wraps rather than being cut (:func:`companion.ui.widgets.draw_wrapped`).

>>> import pygame; _ = pygame.font.init()
>>> s = pygame.Surface((800, 480))
>>> draw_problem(s, "The settings file has a mistake", "In /etc/companion/companion.toml, line 3:",
...              "unknown key 'rotaton' in [display]", "Fix the file and save it.")
[]
"""

from __future__ import annotations

import pygame

from . import theme
from .widgets import draw_wrapped, panel

Rect = pygame.Rect
W, H = 800, 480


def draw_problem(surface: pygame.Surface, title: str, where: str, what: str, fix: str) -> list:
    """Draw the problem screen: ``title`` on a red band, ``where`` (the file and line),
    ``what`` is wrong (the allowed values) and the ``fix``. Returns no buttons (nothing
    to tap: the table starts by itself once the problem is fixed)."""
    surface.fill(theme.BG)
    band = Rect(0, 0, W, 72)
    panel(surface, band, theme.dim(theme.BAD, 0.6))
    draw_wrapped(surface, title, band.inflate(-32, -8), theme.TITLE, theme.TEXT, bold=True, max_lines=2)
    draw_wrapped(surface, where, Rect(24, 84, W - 48, 60), theme.MEDIUM, theme.HIGHLIGHT, bold=True, max_lines=2)
    box = Rect(16, 150, W - 32, 170)
    panel(surface, box)
    draw_wrapped(surface, what, box.inflate(-28, -16), theme.BIG, theme.TEXT, max_lines=5)
    draw_wrapped(surface, fix, Rect(24, 330, W - 48, 140), theme.MEDIUM, theme.TEXT_DIM, max_lines=5)
    return []
