"""Words turned to face a player at another side of the table (Sugar Blast's tilt cue:
the seat at the top reads it upside down from the rest, a seat at the left or right
along the board's side).

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy") and None
>>> import pygame; pygame.font.init()
>>> s = pygame.Surface((400, 400))
>>> box = draw_turned(s, "Tilt toward you", pygame.Rect(0, 0, 40, 300), 26, "left")
>>> box.height > box.width
True
"""

from __future__ import annotations

import pygame

from . import theme
from .widgets import _fitted, _note, render

Rect = pygame.Rect

#: Degrees (counter-clockwise, as pygame turns) that words for a seat at each edge of
#: the screen are turned so that they read upright from that seat: the seat at the left
#: looks toward the right, so its "up" is the screen's right.
FACING = {"bottom": 0, "top": 180, "left": -90, "right": 90}


def along(edge: str, rect: Rect) -> tuple[int, int]:
    """``rect``'s (length, thickness) as the seat at ``edge`` sees it: its width and
    height for the top and bottom seats, turned for the side seats."""
    return (rect.width, rect.height) if edge in ("top", "bottom") else (rect.height, rect.width)


def draw_turned(surface: pygame.Surface, text: str, rect: Rect, size: int, edge: str, colour=None,
                bold: bool = True, min_size: int = theme.MIN_SIZE) -> Rect:
    """One line of ``text`` centred in ``rect``, turned to read upright from the seat at
    ``edge`` (:data:`FACING`) and shrunk to fit the rect's length (never under
    ``min_size``: cut then, and recorded as cut, as :func:`~companion.ui.widgets.draw_text`
    does). Returns the rect of the drawn words."""
    colour = theme.TEXT if colour is None else colour
    length, _ = along(edge, rect)
    font, shown = _fitted(text, length, size, bold, min_size)
    image = pygame.transform.rotate(render(font, shown, colour), FACING[edge])
    box = image.get_rect(center=rect.center)
    surface.blit(image, box)
    _note(text, font, shown != text, rect, surface, [(image, box)])
    return box
