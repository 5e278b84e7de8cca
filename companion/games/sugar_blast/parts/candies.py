"""Drawing one Sugar Blast candy: its colour AND a shape with its letter (R circle, O
square, Y triangle, G diamond, B hexagon, P star), so colour-blind players can read it.
Used by the game screen, the quick-mode pad and the final screen."""

from __future__ import annotations

import math

import pygame

from companion.ui import theme
from companion.ui.theme import FruitLook

from .. import GAME

#: One look per candy letter: colour, letter and a shape that differs in outline (from
#: the game's descriptor).
CANDY_LOOKS: dict[str, FruitLook] = {letter: theme.look_from(spec) for letter, spec in GAME.look.items()}



def _corners(center: tuple[float, float], radius: float, sides: int, turn: float = -90.0,
             inner: float | None = None) -> list[tuple[float, float]]:
    cx, cy = center
    n = sides * 2 if inner else sides
    return [(cx + (inner if inner and i % 2 else radius) * math.cos(math.radians(turn + 360.0 * i / n)),
             cy + (inner if inner and i % 2 else radius) * math.sin(math.radians(turn + 360.0 * i / n)))
            for i in range(n)]


def candy(surface: pygame.Surface, center: tuple[int, int], radius: int, letter: str) -> None:
    """One candy: its shape in its colour, outlined dark, and its letter, the SAME size
    and weight on every shape (each shape is sized so its middle holds the letter: the
    star is a fat one, the triangle's letter sits low, in its widest part). ``center``
    and ``radius`` in pixels; ``letter`` one of :data:`CANDY_LOOKS` (KeyError otherwise)."""
    if radius <= 0:  # a square too small for a candy: no picture of negative size to keep
        _draw(surface, center, radius, letter)
        return
    # Drawn once per look and size on a clear square and kept (theme.SHAPES): a frame of
    # the board has 36 candies, and drawing each shape afresh was half the board's time.
    half = int(radius * 1.5) + 4  # every shape and its letter fit in a square 2 * half wide
    key = ("candy", letter, radius, tuple(theme.TEXT_DARK))
    image = theme.SHAPES.get(key)
    if image is None:
        image = theme.SHAPES.keep(key, theme.drawn((2 * half, 2 * half),
                                                   lambda picture: _draw(picture, (half, half), radius, letter)))
    surface.blit(image, (center[0] - half, center[1] - half))


def _draw(surface: pygame.Surface, center: tuple[int, int], radius: int, letter: str) -> None:
    look = CANDY_LOOKS[letter]
    cx, cy = center
    letter_y = cy
    shape = look.shape
    if shape == "circle":
        points = _corners(center, radius, 32)
    elif shape == "square":
        s = radius * 0.88
        points = [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    elif shape == "triangle":
        r = radius * 1.25
        points = _corners((cx, cy + r * 0.22), r, 3)
        letter_y = cy + int(r * 0.34)
    elif shape == "diamond":
        points = _corners(center, radius * 1.08, 4)
    elif shape == "hexagon":
        points = _corners(center, radius * 1.05, 6, turn=0)
    else:  # star: a fat star, so the letter fits in its body like in the other shapes
        points = _corners((cx, cy + radius * 0.08), radius * 1.15, 5, inner=radius * 0.78)
    if shape == "square":
        pygame.draw.rect(surface, look.colour, pygame.Rect(cx - s, cy - s, 2 * s, 2 * s),
                         border_radius=max(2, radius // 5))
    else:
        pygame.draw.polygon(surface, look.colour, points)
        pygame.draw.polygon(surface, theme.dim(look.colour, 0.55), points, max(1, radius // 12))
    font = theme.font(max(10, int(radius * 1.2)), True)  # decoration (theme.DECORATION)
    image = font.render(look.letter, True, theme.TEXT_DARK)
    surface.blit(image, image.get_rect(center=(cx, letter_y + max(1, radius // 12))))
